/* Forces on the skin of a ring, face by face (docs/physics.md sections 3 to 5):
 * gas pressure, hydrostatic water pressure clipped at the surface, and drag
 * and lift relative to the water and the air.
 *
 * The closed surface has two triangles per grid quad, outward:
 * (m,n) (m+1,n) (m+1,n+1) and (m,n) (m+1,n+1) (m,n+1). face_loads_block
 * works on a block of rows like the spring kernel: it computes every
 * triangle of quad rows a-1 .. a+nb-1 into the thread's scratch (the row
 * above the block is computed again by the thread that owns it: the same
 * bits) and then gathers the six triangle corners of each vertex in a
 * fixed order.
 * Nothing is scattered across threads; the result does not depend on how
 * rows are split. */
#ifndef DINGHY_FACE_LOADS_H
#define DINGHY_FACE_LOADS_H

#include <stddef.h>

/* The constants of one substep. */
typedef struct {
    float gauge;        /* gas gauge pressure p - p_air of this ring, Pa (0: no gas) */
    float rho_g;        /* water density times gravity, N/m^3 (0: no exact buoyancy) */
    float rho_g_t;      /* rho_g times the skin's thickness, N/m^2: the water its own
                         * material displaces, upward on a face's wet area (0: none) */
    float level;        /* height of the (flat, still) water surface, m */
    int drag;           /* 1: drag and lift on every leading face */
    float rho_water, rho_air; /* kg/m^3 */
    float cd, cl;       /* drag and lift coefficients (docs/physics.md section 5) */
    float dt;           /* the substep, s, for the drag clamp */
    float m_face;       /* mass a face's force moves in one step, kg: half a vertex */
    /* The river (flow = 1): per row of the ring, the water surface as a
     * plane through (px, py, eta) with slopes sx, sy, and the flow velocity
     * u, v, w (m, 1, m/s); with flow = 0 the water is flat at level, still. */
    int flow;
    const float *eta, *sx, *sy, *px, *py, *u, *v, *w;
} face_loads_consts;

/* Floats of per-thread scratch face_loads_block needs for blocks of up to
 * max_rows rows of N vertices. */
size_t face_loads_scratch_floats(int N, int max_rows);

/* Adds the face loads (N) on rows a .. a+nb-1 of one ring of M x N
 * vertices (state arrays of that ring: x, y, z in m, vx, vy, vz in m/s) to
 * f[c][r * W + h + n] (the spring kernel's block layout, or the membrane's:
 * W = N + 2, h = 1, whose slots between rows then get junk). With kd (not
 * NULL), also adds to kd[r * N + n] each vertex's drag coefficient, kg/s:
 * the sum over its six faces of k_f, where a face's drag on each corner
 * is -k_f u (u its velocity relative to the fluid): how fast the drag
 * answers a change of the vertex's velocity, for the tick to hold the
 * loads and still damp at once (docs/physics.md section 5). With kz (not
 * NULL), also adds to kz[r * N + n] each vertex's buoyancy stiffness
 * dF_z/dz, N/m: rho g times the sum over its six faces of a third of the
 * z component of the wet part's area vector (negative where the ring
 * floats: a ring risen by dz loses rho g dz times its waterline's area of
 * lift). It is how the water's pressure on the vertex changes when the
 * ring moves up or down, for the tick to hold the pressure and still
 * answer a bob at once (docs/physics.md section 4). */
void face_loads_block(const face_loads_consts *k, int M, int N, const float *x, const float *y,
                      const float *z, const float *vx, const float *vy, const float *vz, int a,
                      int nb, float *scratch, float *const f[3], float *kd, float *kz, int W,
                      int h);

/* Adds the gas's gauge pressure (Pa) on the faces round each vertex of
 * rows a .. a+nb-1 to f[c][r * W + h + n], N: a third of each face's
 * area vector times the gauge, summed as gauge/6 times the sum of the
 * cross products of consecutive one-ring neighbours relative to the
 * vertex (the area vectors' sum, exact for a closed fan). What
 * face_loads_block adds for the gas alone, cheaper: the tick runs it every
 * substep and the water's loads at their own rate. */
void face_gas_block(float gauge, int M, int N, const float *x, const float *y, const float *z,
                    int a, int nb, float *const f[3], int W, int h);

/* The enclosed volume of row m's quads (from `origin`, m; m^3), in float
 * within the row: what the tick sums each substep for the gas. */
double quad_row_volume_fast(int M, int N, const float *x, const float *y, const float *z, int m,
                            const float origin[3]);

/* quad_row_volume_fast of rows m0 .. m0+count-1 (count <= M - m0) into
 * vol[0 .. count-1]: the same bits, several rows in one vectorised loop. */
void quad_rows_volume_fast(int M, int N, const float *x, const float *y, const float *z, int m0,
                           int count, const float origin[3], double *vol);

/* The same volume of row m's quads in double, one row at a time (to set
 * the volumes of a ring just placed), from `origin` (m). Summed over the
 * rows of a ring in row order: its volume. */
double quad_row_volume(int M, int N, const float *x, const float *y, const float *z, int m,
                       const double origin[3]);

#endif
