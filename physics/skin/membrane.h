/* The skin of a ring as a membrane of a material (docs/physics.md section 8):
 * in-plane stretch by St. Venant-Kirchhoff triangles and a small bending
 * stiffness by discrete shells, both from Young's modulus E (Pa), the
 * thickness t (m) and Poisson's ratio nu. No struts inside: the shape
 * comes from the gas.
 *
 * The mesh is the ring's M x N torus grid (vertex (m,n) at m N + n, m
 * round the ring, n round the tube, both periodic), two outward triangles
 * per quad: T1 = (m,n) (m+1,n) (m+1,n+1) and T2 = (m,n) (m+1,n+1) (m,n+1).
 *
 * Stretch (per triangle, rest area A0, rest edge matrix Dm in the
 * triangle's own rest 2-D frame): F = Ds Dm^-1 (3 x 2, Ds the current edges
 * b - a, c - a), Green strain G = (F^T F - I)/2, plane-stress energy
 *   W = A0 E t / (2 (1 - nu^2)) [ (1 - nu) tr(G^2) + nu (tr G)^2 ],
 * second Piola S = E t/(1 - nu^2) [ (1 - nu) G + nu tr(G) I ] (N/m), first
 * Piola P = F S, forces on b and c the columns of H = -A0 P Dm^-T, on a
 * minus their sum. Mesh-independent: a uniform strain gives the same
 * tension at any resolution (the patch test in tests/test_membrane.c).
 *
 * Tension field (Pipkin 1986's relaxed energy, as Skouras et al. 2014 use
 * for inflatables): a skin this thin wrinkles under compression at a
 * wavelength far below the mesh's (about sqrt(r t) = 2 cm for a 0.25 m
 * tube of 1.6 mm), so a triangle cannot carry the compression the plain
 * law gives it. With principal strains g1 >= g2 of G: taut (the smaller
 * principal stress c1 g2 + c2 (g1 + g2) >= 0) keeps S; wrinkled (g1 > 0)
 * carries S = E t g1 along g1's direction only (uniaxial tension, lateral
 * free: continuous with S at the border, C1 energy); slack (g1 <= 0)
 * carries nothing. An inflated skin is taut everywhere and unchanged; a
 * deflated one folds instead of holding its tube round by compression
 * round the ring (flattening a 0.25 m tube on a 0.8 m ring squeezes the
 * inner side by about 25%). A share MEMBRANE_KEPT_COMPRESSION (20%) of
 * the plain law's difference is kept, so that a triangle cannot crumple
 * to a sliver or turn over: burst (0.3 m hole) and left on the water for
 * 20 s, a ring with 10% tore at 64 x 32 (a triangle turned over, 3.8 s);
 * with 20% it lies at about 34% of its volume at 32 x 16 and 15% at 64 x
 * 32 (tests/test_skin_membrane.c); the plain law (100%) holds 66%.
 *
 * Bending (Grinspun et al. 2003, "Discrete shells"): per edge e = x1 - x0
 * between triangles (x0, x1, x2) and (x1, x0, x3), with dihedral angle
 * theta (signed, 0 when flat) and rest values theta0, |e0|, A_e (the two
 * triangles' rest area):  W_b = k_b (theta - theta0)^2 |e0|^2 / A_e,
 * k_b = D / 2, D = E t^3 / (12 (1 - nu^2)) (N m). The factor 1/2 makes a
 * uniform cylindrical bend of curvature kappa across a square grid with
 * diagonals cost D kappa^2 / 2 per area, as the plate does (each edge
 * across the bend turns by kappa a, A_e = a^2; the diagonals do not turn).
 * With N_A = e x (x2 - x0), N_B = (x0 - x1) x (x3 - x1) (the two outward
 * normals times twice the areas), theta = atan2((N_A x N_B).e / |e|,
 * N_A.N_B), the angle from N_A to N_B about e; its gradient (g_A = |e|
 * N_A / |N_A|^2 = n_A / h_A, h_A the height of x2 over the edge, g_B
 * likewise, s_A = (x2 - x0).e / |e|^2, s_B = (x3 - x0).e / |e|^2):
 *   d theta/dx2 = -g_A, d theta/dx3 = -g_B,
 *   d theta/dx0 = (1 - s_A) g_A + (1 - s_B) g_B,
 *   d theta/dx1 = s_A g_A + s_B g_B.
 *
 * k_b = D/2 is exact for a roll about either grid axis (the torus's
 * principal directions: round the ring and round the tube) and about the
 * diagonals' direction; a roll across the diagonals costs 3 times as much
 * (the usual anisotropy of discrete shells on a regular grid; tests
 * check the first three). Bending length sqrt(D / (p r)) is about 1 mm
 * while inflated: it shows only with the gas gone.
 *
 * Units: positions m, forces N, E Pa, t m, tensions N/m, D and k_b N m.
 *
 * Parameters for a pool ring or a river tube of soft (plasticised) PVC
 * (docs/physics.md section 8; data sheets put flexible PVC anywhere from a few
 * MPa to over 1 GPa, e.g. MatWeb's "PVC, extruded" 3 MPa-4.8 GPa,
 * makeitfrom.com's PVC-P 1.4 GPa for a stiff grade; toy film is at the
 * soft end): E 10-400 MPa; t 0.2-0.5 mm (pool toys about 0.25 mm, river
 * tubes and towables 0.4-0.5 mm); nu 0.4-0.5 (a rubbery polymer is nearly
 * incompressible); gauge 2-14 kPa (mouth-blown toys 2-5 kPa, towables
 * about 14 kPa). Suggested defaults: E = 50 MPa, t = 0.3 mm, nu = 0.45
 * (E t = 1.5e4 N/m: at the default 500 Pa on a 0.25 m tube the skin
 * stretches round the tube by 0.5-0.8%, at 5 kPa by 5-8%; D = 1.4e-4 N m).
 *
 * Cost: per vertex two triangles (no division or root while a block's
 * rows of them are all taut: their rest constants are products made once,
 * the taut test needs no root) and three hinges
 * (two divisions, a root, a branch-free atan2), each element kind one
 * vectorised loop over the block, then a fixed-order gather of 18
 * contributions per vertex: without bending about what the seed's B = 5
 * springs cost, with it about three times that (make bench times both).
 *
 * Stability: membrane_vertex_stiffness returns, per tube index, half the
 * sum over the vertex's elements of each element's largest stiffness
 * eigenvalue, which bounds the largest eigenvalue of the assembled
 * stiffness by twice itself (u^T K u = sum_e u_e^T K_e u_e <= sum_e
 * lambda_e |u_e|^2 <= max_i (sum_{e at i} lambda_e) |u|^2), so it enters
 * docs/physics.md section 2's bound dt < sqrt(2 m / sum k) as one more term of
 * sum k, as the springs do (a chain of springs k gives 2 k per vertex,
 * as there). A triangle's largest eigenvalue is of order A0 E t/(1 -
 * nu^2) sum_corners |grad N|^2, and |grad N_i|^2 = |opposite edge|^2 /
 * (2 A0)^2: share of area over edge length squared. On the default torus
 * (cells 1.6 : 1) the bound is 7.1 E t/(1 - nu^2) per vertex; the true
 * largest eigenvalue over 2 is 4.8 (tests/test_membrane.c measures it),
 * so the bound costs a factor 1.2 in the step. A pre-tension N adds about
 * N sum |grad N|^2 A0 (3% at 5 kPa). */
#ifndef DINGHY_MEMBRANE_H
#define DINGHY_MEMBRANE_H

#include <stddef.h>

/* The material of the skin. */
typedef struct {
    double youngs_modulus; /* E, Pa */
    double thickness;      /* t, m */
    double poisson_ratio;  /* nu, 0 .. 0.5 */
} membrane_material;

/* Share of the plain SVK stress's compression a wrinkled or slack
 * triangle keeps (see "Tension field" above). */
#define MEMBRANE_KEPT_COMPRESSION 0.2f

/* The constants the kernel uses, from a material (membrane_consts_of). */
typedef struct {
    float c1;   /* E t / (1 + nu): S = c1 G + c2 tr(G) I, N/m */
    float c2;   /* E t nu / (1 - nu^2), N/m */
    float uniaxial; /* E t: the wrinkled state's tension per strain, N/m */
    float taut; /* (1 + nu)/(1 - nu) = (c1 + 2 c2)/c1: the taut test's ratio (1) */
    float bend; /* k_b = D / 2, N m (0: no bending, and its cost skipped) */
} membrane_consts;

membrane_consts membrane_consts_of(const membrane_material *mat);

/* Triangle kinds and hinge-edge kinds of a quad (m, n). */
enum { MEMBRANE_T1, MEMBRANE_T2, MEMBRANE_TRI_KINDS };
enum {
    MEMBRANE_EDGE_RING, /* (m,n)-(m+1,n): between T1(m,n) and T2(m,n-1) */
    MEMBRANE_EDGE_TUBE, /* (m,n)-(m,n+1): between T1(m-1,n) and T2(m,n) */
    MEMBRANE_EDGE_DIAG, /* (m,n)-(m+1,n+1): between T2(m,n) and T1(m,n) */
    MEMBRANE_EDGE_KINDS
};

/* Floats of rest data per triangle: the products of A0 and Dm^-1 that the
 * strain and the forces take (membrane.c, tri_consts). */
#define MEMBRANE_TRI_CONSTS 10

/* Rows of triangles the kernel takes at a time (its test of whether they
 * are all taut), and so the rows its triangles' rest data repeats for. */
#define MEMBRANE_TRI_CHUNK_ROWS 4

/* Rest data of one rest shape, shared by all its rings. The shape must be
 * symmetric round the ring (every row a rotation of row 0, as the torus
 * is), so an element's rest data depends on its kind and tube index n
 * only. The kernel's arrays are laid out as its blocks are (rows of
 * stride N + 2, n at 1 + n), repeated for max_rows + 2 rows (the edges) or
 * MEMBRANE_TRI_CHUNK_ROWS rows (the triangles), so that one loop runs over
 * many rows. */
typedef struct {
    int M, N, max_rows;
    /* per triangle kind: the kernel's constants from A0 and Dm^-1 (m^-2 for
     * the strain's, m^0 for the forces'); a pad slot n = N holds zeros */
    float *tri[MEMBRANE_TRI_KINDS][MEMBRANE_TRI_CONSTS];
    /* per edge kind: theta0 (rad), |e0|^2 / A_e (1) */
    float *edge[MEMBRANE_EDGE_KINDS][2];
    /* per tube index, in double, for membrane_vertex_stiffness: the
     * triangles' A0 and rest shape gradients (2-D, 1/m, corners a b c),
     * the edges' |e0|^2/A_e and sum over corners of |d theta/dx|^2 (1/m^2) */
    double *tri_a0[MEMBRANE_TRI_KINDS], *tri_g[MEMBRANE_TRI_KINDS];
    double *edge_w[MEMBRANE_EDGE_KINDS], *edge_g2[MEMBRANE_EDGE_KINDS];
    void *mem;
} membrane_rest;

/* Rest data from the rest positions of one ring (M*N each, m; rows M-1, 0
 * and 1 are read), for blocks of up to max_rows rows (1 <= max_rows <= M).
 * M, N >= 3. Returns 0, or -1 when out of memory (nothing to free). */
int membrane_rest_init(membrane_rest *rest, int M, int N, int max_rows, const double *x,
                       const double *y, const double *z);

/* The same for the undeformed torus of major radius R and minor r (m). */
int membrane_rest_init_torus(membrane_rest *rest, int M, int N, int max_rows, double R, double r);

void membrane_rest_free(membrane_rest *rest);

/* Bytes membrane_rest_init allocates for an N-vertex tube and blocks of up
 * to max_rows rows (what sim_memory_estimate counts). */
size_t membrane_rest_bytes(int N, int max_rows);

/* Floats of per-thread scratch membrane_block needs for blocks of up to
 * max_rows rows of N vertices. */
size_t membrane_scratch_floats(int N, int max_rows);

/* The row stride of membrane_block's force arrays: N + 2 (the vertex n
 * of block row r at r (N + 2) + 1 + n, as in the kernel's own rows, so
 * that its gathers run over the whole block in one loop). */
#define MEMBRANE_FORCE_STRIDE(N) ((N) + 2)

/* Adds the membrane forces (N) on rows a .. a+nb-1 (nb <= rest->max_rows)
 * of one ring whose positions are x, y, z (M*N floats each, m) to
 * f[c][r * (N + 2) + 1 + n] (r = 0 .. nb-1; each array at least nb (N + 2)
 * floats; the slots between rows get junk). Each vertex gathers its 6
 * triangle corners and 12 hinge corners in a fixed order: the result does
 * not depend on how rows are split.
 *
 * held (NULL: bending every call) holds each vertex's bending force (N,
 * M*N floats per component, the ring's own): with fresh the hinges are
 * evaluated and their sums stored there, else the stored sums are added
 * and the hinges (about two thirds of the kernel's cost) skipped. The
 * tick refreshes them on a step's first substep only: bending, far softer
 * than the stretch, is sub-cycled at the step (docs/physics.md section 8).
 *
 * gauge (Pa, p - p_air of the gas inside; 0: none) adds the gas's pressure
 * in the same pass over the triangles: a third of each face's area vector
 * times the gauge on each of its corners (docs/physics.md section 3). */
void membrane_block(const membrane_rest *rest, const membrane_consts *k, const float *x,
                    const float *y, const float *z, int a, int nb, float *scratch,
                    float *const f[3], float *const held[3], int fresh, float gauge);

/* One triangle's forces (N) on corners a, b, c (p[corner][component], m),
 * rest area A0 (m^2) and Dm^-1 (row-major, 1/m; upper triangular, d[2] =
 * 0: the rest frame's first axis along b - a, as membrane_rest_init's):
 * the kernel's own code. */
void membrane_triangle_forces(const membrane_consts *k, float A0, const float dinv[4],
                              const float p[3][3], float out[3][3]);

/* One hinge's forces (N) on x0, x1 (the edge), x2, x3 (the opposite
 * corners of (x0, x1, x2) and (x1, x0, x3)), rest angle theta0 and
 * weight |e0|^2/A_e: the kernel's own code. Also returns theta (rad). */
float membrane_hinge_forces(const membrane_consts *k, float theta0, float w, const float p[4][3],
                            float out[4][3]);

/* The corners of triangle `kind` (MEMBRANE_T1, MEMBRANE_T2) of quad (m, n)
 * of an M x N ring, as vertex indices m' N + n' (m and n wrapped, any
 * sign), in the kernel's order: T1 (m,n) (m+1,n) (m+1,n+1), T2 (m,n)
 * (m+1,n+1) (m,n+1). */
void membrane_triangle_corners(int M, int N, int m, int n, int kind, int out[3]);

/* The corners of hinge `kind` (MEMBRANE_EDGE_*) at (m, n) of an M x N
 * ring, as vertex indices m' N + n' (wrapped): x0, x1 (the edge), x2, x3,
 * in the order membrane_hinge_gradient takes them. */
void membrane_hinge_corners(int M, int N, int m, int n, int kind, int out[4]);

/* A hinge's dihedral angle theta (rad, in (-pi, pi]; 0 flat, +-pi folded
 * shut) from its corners x0 .. x3 (m), as the kernel measures it, and
 * d theta / d x_c (1/m) into g[c], in double. The gradients sum to zero
 * (an angle does not change when the hinge moves whole). */
double membrane_hinge_gradient(const double x0[3], const double x1[3], const double x2[3],
                               const double x3[3], double g[4][3]);

/* The stiffness a vertex of tube index n sees from the membrane (N/m), for
 * docs/physics.md section 2's sum k (see the top of this file), at rest plus
 * the geometric stiffness of an isotropic pre-tension `tension` (N/m, e.g.
 * the gauge times the minor radius; 0 for none). */
double membrane_vertex_stiffness(const membrane_rest *rest, const membrane_material *mat, int n,
                                 double tension);

/* The largest membrane_vertex_stiffness over the tube. */
double membrane_max_vertex_stiffness(const membrane_rest *rest, const membrane_material *mat,
                                     double tension);

/* The hinges' share of membrane_max_vertex_stiffness (N/m): what the
 * bending alone puts on a vertex, for the bound on a step over which the
 * bending force is held (membrane_block's held). */
double membrane_max_bending_stiffness(const membrane_rest *rest, const membrane_material *mat);

/* membrane_max_vertex_stiffness of the undeformed M x N torus of radii R
 * and r (m), without keeping its rest data (for the step bound of a
 * definition); -1 when out of memory. */
double membrane_torus_max_stiffness(int M, int N, double R, double r,
                                    const membrane_material *mat, double tension);

#endif
