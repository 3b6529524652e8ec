/* Whether a point is inside a closed ring mesh, by the mesh's winding
 * number about it: sound for any shape the closed mesh takes (folded,
 * dented, turned), O(M N) per point. */
#ifndef DINGHY_CONTACT_INSIDE_H
#define DINGHY_CONTACT_INSIDE_H

/* Winding number of the closed ring mesh (M x N vertices at x, y, z, m,
 * two outward triangles per quad as in contact.h) about the point pt (m):
 * 1 inside, 0 outside (the sum of the triangles' signed solid angles over
 * 4 pi, in double); a point is inside when it exceeds 0.5. */
double mesh_winding_number(int M, int N, const float *x, const float *y, const float *z,
                           const double pt[3]);

#endif
