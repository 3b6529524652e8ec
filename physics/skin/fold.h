/* Whether a membrane skin is turned inside out or only folded: questions
 * about one triangle of a closed ring mesh (M x N vertices, vertex (m, n)
 * at m N + n, both directions periodic, two outward triangles per quad as
 * in membrane.h: T1 = (m,n) (m+1,n) (m+1,n+1), T2 = (m,n) (m+1,n+1)
 * (m,n+1)). The health check (physics/world/health.c) asks them. */
#ifndef DINGHY_SKIN_FOLD_H
#define DINGHY_SKIN_FOLD_H

/* 1 when triangle t (0: T1, 1: T2) of quad (m, n) has its normal against
 * the normals of all three triangles sharing an edge with it: T1(m,n)
 * borders T2(m,n) (the diagonal), T2(m+1,n) and T2(m,n-1); T2(m,n)
 * borders T1(m,n), T1(m-1,n) and T1(m,n+1). A vertex pushed through the
 * opposite edge does it, and so does a crease a cell wide in a limp skin
 * folded flat (a Z of two folds: whole). */
int fold_against_neighbours(int M, int N, const float *x, const float *y, const float *z, int m,
                            int n, int t);

/* Every triangle's area normal (twice its area, not normalised) of a ring:
 * triangle t of quad (m, n) at out[3 (2 (m N + n) + t)], 6 M N doubles.
 * Returns the quads whose two triangles face against each other (folded
 * along their diagonal): with none, no triangle is against all its
 * neighbours (its diagonal partner is one of them). */
int fold_normals(int M, int N, const float *x, const float *y, const float *z, double *out);

/* fold_against_neighbours from the normals fold_normals gave (the same
 * answer: each triangle's normal computed once, not four times); m in
 * 0 .. M-1, n in 0 .. N-1. */
int fold_against_neighbours_of(int M, int N, const double *normals, int m, int n, int t);

/* 1 when the outward side of triangle t of quad (m, n) faces the inside of
 * the closed skin: the skin's winding number (physics/contact/inside.h)
 * about the point `probe` (m) off the triangle's centre along its outward
 * normal is not below 1/2, or about the point as far behind it not above
 * 1/2 (and 1 for a triangle with no area: it has no side). A skin however
 * folded, but not through itself, has every triangle's outward side
 * outside (winding 0) and its inner side inside (1); a triangle turned
 * inside out faces the other way. probe should be less than the gap
 * between the triangle and any other layer of the skin; where the winding
 * number does not jump by one between the two points (another layer
 * between them: a crease shut tighter than probe), they are brought in, to
 * a 64th of probe. O(M N) a probe. */
int fold_faces_inward(int M, int N, const float *x, const float *y, const float *z, int m, int n,
                      int t, double probe);

#endif
