/* The rings' skins as the skin checker (tests/skin_check.h) reads them:
 * P rings, each an M x N torus grid (m round the ring, n round the tube,
 * both periodic); vertex (m, n) of ring p at p M N + m N + n (as
 * dinghy/sim.h numbers them). Two triangles per quad (m, n), outward
 * (as physics/skin/membrane.h's comment has them):
 *   T0 = (m,n) (m+1,n) (m+1,n+1),  T1 = (m,n) (m+1,n+1) (m,n+1),
 * numbered t = 2 (m N + n) + 0 or 1 within the ring. Positions are floats
 * (the simulation's), read in double. */
#ifndef DINGHY_TESTS_CHECK_MESH_H
#define DINGHY_TESTS_CHECK_MESH_H

typedef struct {
    const float *x, *y, *z; /* positions, m: rings * segments * sides each */
    int rings;              /* P */
    int segments;           /* M: vertices round the ring (>= 3) */
    int sides;              /* N: vertices round the tube (>= 3) */
} skin_mesh;

/* The corners (vertex indices within the ring) of triangle t of an
 * M x N ring, in its outward order. */
void chk_triangle_corners(int M, int N, int t, int out[3]);

/* Position of vertex i (global index) in double, m. */
void chk_vertex(const skin_mesh *mesh, long i, double out[3]);

/* The corners of triangle t of ring p, m. */
void chk_triangle(const skin_mesh *mesh, int p, int t, double out[3][3]);

/* Axis-aligned box of ring p's vertices: min x, y, z, max x, y, z (m).
 * The ring's closed skin lies inside it. */
void chk_ring_box(const skin_mesh *mesh, int p, double box[6]);

/* 1 when the point lies in the closed box. */
int chk_in_box(const double box[6], const double pt[3]);

#endif
