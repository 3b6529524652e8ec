/* The membrane skin; see membrane.h.
 *
 * Laid out like skin.c: the block's vertex rows a-2 .. a+nb+1 are copied
 * into padded rows of stride S = N + 2 (n = -1 .. N at 1 + n, the ends
 * copies round the tube), one after another, so that an element's corners
 * are a constant distance apart and each element kind over the whole block
 * is one long branch-free loop (the triangles vectorise, a few rows at a
 * time: the tension field's root and division only where those rows have
 * a triangle that is not taut; the hinges' atan2 is branch-free too).
 * The loops also compute junk elements at the pad positions,
 * never read: each output row's pad slots are then overwritten with copies
 * of its elements n = N-1 and n = 0, so the gather wraps round the tube
 * with no special case. Outputs are stored per corner and component. */
#include "physics/skin/membrane.h"
#include "physics/world/corner_gather.h"
#include "physics/world/vec3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/world/always_inline.h"
#include "physics/world/shape.h"

#define TRI_OUT 9   /* three corners, three components */
#define EDGE_OUT 12 /* four corners, three components */

membrane_consts membrane_consts_of(const membrane_material *mat)
{
    const double E = mat->youngs_modulus, t = mat->thickness, nu = mat->poisson_ratio;
    const double D = E * t * t * t / (12.0 * (1.0 - nu * nu));
    membrane_consts k = {
        .c1 = (float)(E * t / (1.0 + nu)),
        .c2 = (float)(E * t * nu / (1.0 - nu * nu)),
        .uniaxial = (float)(E * t),
        .bend = (float)(0.5 * D),
        .taut = (float)((1.0 + nu) / (1.0 - nu)),
    };
    return k;
}

/* ---- the elements, in float: the kernel's code ---- */

/* A triangle's rest constants (MEMBRANE_TRI_CONSTS floats), from its rest
 * area A0 (m^2) and Dm^-1 = [[a, b], [0, c]] (1/m; upper triangular: the
 * rest frame's first axis is along b - a), made once per rest shape. With
 * the edges e1 = b - a, e2 = c - a, F = [e1 e2] Dm^-1 has the columns a e1
 * and f1 = b e1 + c e2, so the Green strain G = (F^T F - I)/2 is
 *   G00 = r0 |e1|^2 - 1/2, G01 = r1 e1.f1, G11 = (|f1|^2 - 1)/2,
 * (f1 formed first, as F's column: |f1|^2 from b^2 |e1|^2 + 2 b c e1.e2 +
 * c^2 |e2|^2 would lose digits to cancellation on a skewed triangle), and
 * the corner forces [f_b f_c] = -A0 F S Dm^-T = [e1 e2] K with K = -A0 Dm^-1
 * S Dm^-T (2 x 2, symmetric):
 *   K00 = (r4 S00 + r5 S01) + r6 S11, K01 = r7 S01 + r8 S11, K11 = r9 S11. */
static void tri_consts(double A0, double a, double b, double c, float r[MEMBRANE_TRI_CONSTS])
{
    const double v[MEMBRANE_TRI_CONSTS] = {
        0.5 * a * a, 0.5 * a, b, c,
        -A0 * a * a, -2.0 * A0 * a * b, -A0 * b * b, -A0 * a * c, -A0 * b * c, -A0 * c * c,
    };
    for (int j = 0; j < MEMBRANE_TRI_CONSTS; j++)
        r[j] = (float)v[j];
}

/* One SVK triangle: edges e1 = b - a, e2 = c - a, rest constants r0 .. r9
 * (tri_consts), c1, c2, Y and taut_ratio as in membrane_consts; writes the
 * forces on b and c (a's is minus their sum) and returns whether it is
 * taut. With relax = 0 it applies the taut law whatever the strain (no
 * root, no division): the caller uses that only where every triangle came
 * back taut, so both give the same bits there. */
static ALWAYS_INLINE int tri_force(float c1, float c2, float Y, float taut_ratio, int relax,
                                   float r0, float r1, float r2, float r3, float r4, float r5,
                                   float r6, float r7, float r8, float r9, float e1x, float e1y,
                                   float e1z, float e2x, float e2y, float e2z, float *fbx,
                                   float *fby, float *fbz, float *fcx, float *fcy, float *fcz)
{
    const float f1x = r2 * e1x + r3 * e2x, f1y = r2 * e1y + r3 * e2y, f1z = r2 * e1z + r3 * e2z;
    const float q11 = e1x * e1x + e1y * e1y + e1z * e1z;
    const float G00 = r0 * q11 - 0.5f, G01 = r1 * (e1x * f1x + e1y * f1y + e1z * f1z);
    const float G11 = 0.5f * (f1x * f1x + f1y * f1y + f1z * f1z - 1.0f);
    const float trG = G00 + G11, tr = c2 * trG;
    const float T00 = c1 * G00 + tr, T11 = c1 * G11 + tr, T01 = c1 * G01;
    /* Tension field (membrane.h): principal strains g1 >= g2 of G, g1 + g2
     * = tr G, g1 - g2 = 2 dd, dd^2 = ((G00 - G11)/2)^2 + G01^2. Taut when
     * the smaller principal stress c1 g2 + c2 (g1 + g2) = (c1 + 2 c2) tr G
     * / 2 - c1 dd >= 0, i.e. tr G >= 0 and (taut tr G)^2 >= (2 dd)^2 with
     * taut = (c1 + 2 c2)/c1: no root for the test. */
    const float gd = G00 - G11, G01d = G01 + G01, h4 = gd * gd + G01d * G01d;
    const float ts = taut_ratio * trG;
    const int taut = (trG >= 0.0f) & (ts * ts >= h4);
    float S00 = T00, S11 = T11, S01 = T01;
    if (relax) {
        /* else the relaxed stress R, Y g1 along g1's direction ((G - g2 I)/(g1
         * - g2) projects on it) when wrinkled (g1 > 0), nothing when slack,
         * plus the kept share MEMBRANE_KEPT_COMPRESSION of T - R. Branch-free. */
        const float gm = 0.5f * trG, dd = 0.5f * sqrtf(h4), g1 = gm + dd, g2 = gm - dd;
        const float w = g1 > 0.0f ? Y * g1 / (2.0f * dd + 1e-30f) : 0.0f;
        const float R00 = w * (G00 - g2), R11 = w * (G11 - g2), R01 = w * G01;
        const float kc = MEMBRANE_KEPT_COMPRESSION;
        S00 = taut ? T00 : R00 + kc * (T00 - R00);
        S11 = taut ? T11 : R11 + kc * (T11 - R11);
        S01 = taut ? T01 : R01 + kc * (T01 - R01);
    }
    const float K00 = (r4 * S00 + r5 * S01) + r6 * S11;
    const float K01 = r7 * S01 + r8 * S11, K11 = r9 * S11;
    *fbx = K00 * e1x + K01 * e2x;
    *fby = K00 * e1y + K01 * e2y;
    *fbz = K00 * e1z + K01 * e2z;
    *fcx = K01 * e1x + K11 * e2x;
    *fcy = K01 * e1y + K11 * e2y;
    *fcz = K01 * e1z + K11 * e2z;
    return taut;
}

/* atan2(y, x) without a branch, so that the hinge loop vectorises: the
 * ratio of the smaller to the larger of |x|, |y| (0 .. 1), reduced below
 * tan(pi/8) by atan t = pi/4 + atan((t - 1)/(t + 1)), then the Taylor
 * series to t^15 (error below 0.4143^17 / 17 = 2e-8 rad), then the
 * octant. Within a few float roundings of atan2f. */
static ALWAYS_INLINE float atan2_branchless(float y, float x)
{
    const float ax = fabsf(x), ay = fabsf(y);
    const float mx = ax > ay ? ax : ay, mn = ax > ay ? ay : ax;
    const float t = mn / (mx > 0.0f ? mx : 1.0f);
    const int big = t > 0.41421356f;
    const float u = big ? (t - 1.0f) / (t + 1.0f) : t, u2 = u * u;
    float p = -1.0f / 15.0f;
    p = p * u2 + 1.0f / 13.0f;
    p = p * u2 - 1.0f / 11.0f;
    p = p * u2 + 1.0f / 9.0f;
    p = p * u2 - 1.0f / 7.0f;
    p = p * u2 + 1.0f / 5.0f;
    p = p * u2 - 1.0f / 3.0f;
    float r = u + u * (u2 * p);
    r = big ? r + 0.78539816f : r;
    r = ay > ax ? 1.57079633f - r : r;
    r = x < 0.0f ? 3.14159265f - r : r;
    return y < 0.0f ? -r : r;
}

/* One hinge: edge x0 -> x1 between (x0, x1, x2) and (x1, x0, x3); coef is
 * k_b |e0|^2 / A_e. Writes the forces -2 coef (theta - theta0) d theta/dx
 * on x0 .. x3 (f0 .. f3; the components of one corner three apart) and
 * returns theta. */
static ALWAYS_INLINE float hinge_force(float coef, float theta0, float x0x, float x0y,
                                       float x0z, float x1x, float x1y, float x1z, float x2x,
                                       float x2y, float x2z, float x3x, float x3y, float x3z,
                                       float f[12])
{
    const float ex = x1x - x0x, ey = x1y - x0y, ez = x1z - x0z;
    const float ax = x2x - x0x, ay = x2y - x0y, az = x2z - x0z;
    const float bx = x3x - x1x, by = x3y - x1y, bz = x3z - x1z;
    /* N_A = e x (x2 - x0), N_B = (x0 - x1) x (x3 - x1) = (x3 - x1) x e */
    const float NAx = ey * az - ez * ay, NAy = ez * ax - ex * az, NAz = ex * ay - ey * ax;
    const float NBx = by * ez - bz * ey, NBy = bz * ex - bx * ez, NBz = bx * ey - by * ex;
    const float le2 = ex * ex + ey * ey + ez * ez, le = sqrtf(le2), il2 = 1.0f / (le2 + 1e-30f);
    const float cx = NAy * NBz - NAz * NBy, cy = NAz * NBx - NAx * NBz;
    const float cz = NAx * NBy - NAy * NBx;
    const float sn = (cx * ex + cy * ey + cz * ez) * (le * il2); /* / |e| */
    const float cs = NAx * NBx + NAy * NBy + NAz * NBz;
    const float theta = atan2_branchless(sn, cs);
    const float nA2 = NAx * NAx + NAy * NAy + NAz * NAz;
    const float nB2 = NBx * NBx + NBy * NBy + NBz * NBz;
    const float s = -2.0f * coef * (theta - theta0);
    /* s g_A = kA N_A; the 1e-30 (below any bit of a real area) keeps a
     * flattened triangle finite */
    const float kA = s * le / (nA2 + 1e-30f), kB = s * le / (nB2 + 1e-30f);
    const float sA = (ax * ex + ay * ey + az * ez) * il2;
    const float sB = ((x3x - x0x) * ex + (x3y - x0y) * ey + (x3z - x0z) * ez) * il2;
    const float gAx = kA * NAx, gAy = kA * NAy, gAz = kA * NAz;
    const float gBx = kB * NBx, gBy = kB * NBy, gBz = kB * NBz;
    f[0] = (1.0f - sA) * gAx + (1.0f - sB) * gBx;
    f[1] = (1.0f - sA) * gAy + (1.0f - sB) * gBy;
    f[2] = (1.0f - sA) * gAz + (1.0f - sB) * gBz;
    f[3] = sA * gAx + sB * gBx;
    f[4] = sA * gAy + sB * gBy;
    f[5] = sA * gAz + sB * gBz;
    f[6] = -gAx;
    f[7] = -gAy;
    f[8] = -gAz;
    f[9] = -gBx;
    f[10] = -gBy;
    f[11] = -gBz;
    return theta;
}

void membrane_triangle_forces(const membrane_consts *k, float A0, const float d[4],
                              const float p[3][3], float out[3][3])
{
    float c[MEMBRANE_TRI_CONSTS];
    tri_consts(A0, d[0], d[1], d[3], c);
    tri_force(k->c1, k->c2, k->uniaxial, k->taut, 1, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
              c[7], c[8], c[9], p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2],
              p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2], &out[1][0], &out[1][1],
              &out[1][2], &out[2][0], &out[2][1], &out[2][2]);
    for (int i = 0; i < 3; i++)
        out[0][i] = -(out[1][i] + out[2][i]);
}

float membrane_hinge_forces(const membrane_consts *k, float theta0, float w, const float p[4][3],
                            float out[4][3])
{
    float f[12];
    float theta = hinge_force(k->bend * w, theta0, p[0][0], p[0][1], p[0][2], p[1][0], p[1][1],
                              p[1][2], p[2][0], p[2][1], p[2][2], p[3][0], p[3][1], p[3][2], f);
    for (int c = 0; c < 4; c++)
        for (int j = 0; j < 3; j++)
            out[c][j] = f[3 * c + j];
    return theta;
}

/* ---- rest data ---- */

/* Corners of an element of kind `kind` at quad/edge (0, n): row and tube
 * offsets from (0, n), in the order the kernel uses. */
static const int TRI_CORNER[MEMBRANE_TRI_KINDS][3][2] = {
    {{0, 0}, {1, 0}, {1, 1}}, /* T1 */
    {{0, 0}, {1, 1}, {0, 1}}, /* T2 */
};
static const int EDGE_CORNER[MEMBRANE_EDGE_KINDS][4][2] = {
    {{0, 0}, {1, 0}, {1, 1}, {0, -1}},  /* ring */
    {{0, 0}, {0, 1}, {-1, 0}, {1, 1}},  /* tube */
    {{0, 0}, {1, 1}, {0, 1}, {1, 0}},   /* diagonal */
};

void membrane_triangle_corners(int M, int N, int m, int n, int kind, int out[3])
{
    for (int c = 0; c < 3; c++) {
        const int mm = ((m + TRI_CORNER[kind][c][0]) % M + M) % M;
        const int nn = ((n + TRI_CORNER[kind][c][1]) % N + N) % N;
        out[c] = mm * N + nn;
    }
}

void membrane_hinge_corners(int M, int N, int m, int n, int kind, int out[4])
{
    for (int c = 0; c < 4; c++) {
        const int mm = ((m + EDGE_CORNER[kind][c][0]) % M + M) % M;
        const int nn = ((n + EDGE_CORNER[kind][c][1]) % N + N) % N;
        out[c] = mm * N + nn;
    }
}

double membrane_hinge_gradient(const double x0[3], const double x1[3], const double x2[3],
                               const double x3[3], double g[4][3])
{
    double e[3], a2[3], b3[3], c3[3], NA[3], NB[3], c[3];
    sub3(x1, x0, e);
    sub3(x2, x0, a2);
    sub3(x3, x1, b3);
    sub3(x3, x0, c3);
    cross3(e, a2, NA);
    cross3(b3, e, NB);
    cross3(NA, NB, c);
    const double le2 = dot3(e, e), le = sqrt(le2);
    const double theta = atan2(dot3(c, e) / le, dot3(NA, NB));
    /* the 1e-300 keeps a triangle with no area finite (its gradient 0) */
    const double kA = le / (dot3(NA, NA) + 1e-300), kB = le / (dot3(NB, NB) + 1e-300);
    const double sA = dot3(a2, e) / le2, sB = dot3(c3, e) / le2;
    for (int i = 0; i < 3; i++) {
        const double gA = kA * NA[i], gB = kB * NB[i];
        g[0][i] = (1.0 - sA) * gA + (1.0 - sB) * gB;
        g[1][i] = sA * gA + sB * gB;
        g[2][i] = -gA;
        g[3][i] = -gB;
    }
    return theta;
}

/* The hinge's angle and sum over corners of |d theta/dx|^2, in double. */
static double hinge_rest(const double x0[3], const double x1[3], const double x2[3],
                         const double x3[3], double *g2)
{
    double g[4][3];
    const double theta = membrane_hinge_gradient(x0, x1, x2, x3, g);
    *g2 = 0.0;
    for (int c = 0; c < 4; c++)
        *g2 += dot3(g[c], g[c]);
    return theta;
}

static double tri_area(const double a[3], const double b[3], const double c[3])
{
    double e1[3], e2[3], n[3];
    sub3(b, a, e1);
    sub3(c, a, e2);
    cross3(e1, e2, n);
    return 0.5 * sqrt(dot3(n, n));
}

size_t membrane_rest_bytes(int N, int max_rows)
{
    const size_t S = (size_t)N + 2, rep = (size_t)(max_rows + 2) * S;
    const size_t tq = (size_t)MEMBRANE_TRI_CHUNK_ROWS * S;
    const size_t nf = MEMBRANE_TRI_KINDS * MEMBRANE_TRI_CONSTS * tq + MEMBRANE_EDGE_KINDS * 2 * rep;
    const size_t nd = (size_t)N * (MEMBRANE_TRI_KINDS * 7 + MEMBRANE_EDGE_KINDS * 2);
    return sizeof(double) * nd + sizeof(float) * nf;
}

int membrane_rest_init(membrane_rest *rest, int M, int N, int max_rows, const double *x,
                       const double *y, const double *z)
{
    memset(rest, 0, sizeof *rest);
    const size_t S = (size_t)N + 2, rep = (size_t)(max_rows + 2) * S;
    const size_t tq = (size_t)MEMBRANE_TRI_CHUNK_ROWS * S;
    const size_t nf = MEMBRANE_TRI_KINDS * MEMBRANE_TRI_CONSTS * tq + MEMBRANE_EDGE_KINDS * 2 * rep;
    const size_t nd = (size_t)N * (MEMBRANE_TRI_KINDS * 7 + MEMBRANE_EDGE_KINDS * 2);
    double *dm = malloc(sizeof(double) * nd + sizeof(float) * nf);
    if (!dm)
        return -1;
    float *fm = (float *)(dm + nd);
    rest->M = M;
    rest->N = N;
    rest->max_rows = max_rows;
    rest->mem = dm;
    for (int kd = 0; kd < MEMBRANE_TRI_KINDS; kd++) {
        rest->tri_a0[kd] = dm;
        rest->tri_g[kd] = dm + N;
        dm += 7 * (size_t)N;
        for (int j = 0; j < MEMBRANE_TRI_CONSTS; j++, fm += tq)
            rest->tri[kd][j] = fm;
    }
    for (int kd = 0; kd < MEMBRANE_EDGE_KINDS; kd++) {
        rest->edge_w[kd] = dm;
        rest->edge_g2[kd] = dm + N;
        dm += 2 * (size_t)N;
        for (int j = 0; j < 2; j++, fm += rep)
            rest->edge[kd][j] = fm;
    }
    memset(rest->tri[0][0], 0, sizeof(float) * nf);
#define P(dm_, dn_, o)                                                                       \
    do {                                                                                     \
        size_t id_ = (size_t)((((dm_) % M) + M) % M) * (size_t)N + (size_t)((((dn_) % N) + N) % N); \
        (o)[0] = x[id_];                                                                     \
        (o)[1] = y[id_];                                                                     \
        (o)[2] = z[id_];                                                                     \
    } while (0)
    for (int n = 0; n < N; n++) {
        double A0[MEMBRANE_TRI_KINDS];
        for (int kd = 0; kd < MEMBRANE_TRI_KINDS; kd++) {
            double X[3][3], e1[3], e2[3];
            for (int c = 0; c < 3; c++)
                P(TRI_CORNER[kd][c][0], n + TRI_CORNER[kd][c][1], X[c]);
            sub3(X[1], X[0], e1);
            sub3(X[2], X[0], e2);
            /* the rest frame: e1 along the first axis */
            const double L = sqrt(dot3(e1, e1)), d = dot3(e2, e1) / L;
            double hv[3] = {e2[0] - d * e1[0] / L, e2[1] - d * e1[1] / L, e2[2] - d * e1[2] / L};
            const double hh = sqrt(dot3(hv, hv));
            const double inv[4] = {1.0 / L, -d / (L * hh), 0.0, 1.0 / hh};
            A0[kd] = 0.5 * L * hh;
            rest->tri_a0[kd][n] = A0[kd];
            /* shape gradients: b's and c's the rows of Dm^-1, a's minus their sum */
            double *g = rest->tri_g[kd] + 6 * (size_t)n;
            g[2] = inv[0];
            g[3] = inv[1];
            g[4] = inv[2];
            g[5] = inv[3];
            g[0] = -(inv[0] + inv[2]);
            g[1] = -(inv[1] + inv[3]);
            /* the kernel's constants from the floats membrane_triangle_forces
             * would be given (the same bits), at 1 + n, and n = N-1 also at
             * the pad slot 0: the kernel computes the wrapped triangle there
             * itself (from the padded copies of its corners: the same bits
             * as at 1 + N-1). The pad slot N + 1 keeps zeros: no force, and
             * the taut test skips it (tri_span). */
            float tr[MEMBRANE_TRI_CONSTS];
            tri_consts((float)A0[kd], (float)inv[0], (float)inv[1], (float)inv[3], tr);
            for (int r = 0; r < MEMBRANE_TRI_CHUNK_ROWS; r++)
                for (int pad = 0; pad < (n == N - 1 ? 2 : 1); pad++) {
                    const size_t at = (size_t)r * S + (pad ? 0 : 1 + (size_t)n);
                    for (int j = 0; j < MEMBRANE_TRI_CONSTS; j++)
                        rest->tri[kd][j][at] = tr[j];
                }
        }
        for (int kd = 0; kd < MEMBRANE_EDGE_KINDS; kd++) {
            double X[4][3], g2;
            for (int c = 0; c < 4; c++)
                P(EDGE_CORNER[kd][c][0], n + EDGE_CORNER[kd][c][1], X[c]);
            const double theta0 = hinge_rest(X[0], X[1], X[2], X[3], &g2);
            double e[3];
            sub3(X[1], X[0], e);
            const double Ae = tri_area(X[0], X[1], X[2]) + tri_area(X[1], X[0], X[3]);
            const double w = dot3(e, e) / Ae;
            rest->edge_w[kd][n] = w;
            rest->edge_g2[kd][n] = g2;
            for (int r = 0; r < max_rows + 2; r++) {
                const size_t at = (size_t)r * S + 1 + (size_t)n;
                rest->edge[kd][0][at] = (float)theta0;
                rest->edge[kd][1][at] = (float)w;
            }
        }
    }
#undef P
    return 0;
}

int membrane_rest_init_torus(membrane_rest *rest, int M, int N, int max_rows, double R, double r)
{
    /* rows M-1, 0 and 1 only are read */
    const size_t V = (size_t)M * (size_t)N;
    double *p = calloc(3 * V, sizeof(double));
    if (!p)
        return -1;
    const int rows[3] = {M - 1, 0, 1};
    for (int i = 0; i < 3; i++)
        for (int n = 0; n < N; n++) {
            double X[3];
            torus_point(R, r, M, N, rows[i], n, X);
            const size_t id = (size_t)rows[i] * (size_t)N + (size_t)n;
            p[id] = X[0];
            p[V + id] = X[1];
            p[2 * V + id] = X[2];
        }
    int rc = membrane_rest_init(rest, M, N, max_rows, p, p + V, p + 2 * V);
    free(p);
    return rc;
}

void membrane_rest_free(membrane_rest *rest)
{
    free(rest->mem);
    memset(rest, 0, sizeof *rest);
}

/* ---- the kernel ---- */

/* Floats of the padded vertex rows (nb + 4 rows and a slack float at each
 * end), of one triangle output array (nb + 1 quad rows) and of one edge
 * output array (nb + 2 edge rows). */
static size_t verts_len(int N, int nb) { return (size_t)(nb + 4) * (size_t)(N + 2) + 2; }
static size_t tris_len(int N, int nb) { return (size_t)(nb + 1) * (size_t)(N + 2); }
static size_t edges_len(int N, int nb) { return (size_t)(nb + 2) * (size_t)(N + 2); }

size_t membrane_scratch_floats(int N, int max_rows)
{
    return 3 * verts_len(N, max_rows) + MEMBRANE_TRI_KINDS * TRI_OUT * tris_len(N, max_rows)
         + MEMBRANE_EDGE_KINDS * EDGE_OUT * edges_len(N, max_rows);
}

/* One triangle kind over positions L0 .. L1-1 of the padded rows (corners
 * at L, L + ob, L + oc, L0 at a row's start); constant j of the rest data
 * at rc + j rq + L - L0 (a chunk's rows of it), outputs at L - S. With the
 * gas's gauge (g6 = gauge / 6, Pa), each corner also gets g/3 times the
 * face's area vector (e1 x e2)/2: the gas's pressure, in the same pass.
 * Returns how many of the triangles were not taut (the pad slots n = N,
 * with zero rest data, not counted); with relax = 0 the taut law's forces
 * are written whatever that count. */
static ALWAYS_INLINE int tri_span(const membrane_consts *k, int relax, float g6, size_t L0,
                                  size_t L1, size_t S, ptrdiff_t ob, ptrdiff_t oc,
                                  const float *restrict px, const float *restrict py,
                                  const float *restrict pz, const float *restrict rc,
                                  size_t rq, float *restrict o0, float *restrict o1,
                                  float *restrict o2, float *restrict o3, float *restrict o4,
                                  float *restrict o5, float *restrict o6, float *restrict o7,
                                  float *restrict o8)
{
    const float c1 = k->c1, c2 = k->c2, Y = k->uniaxial, taut_ratio = k->taut;
    const float *r0 = rc, *r1 = r0 + rq, *r2 = r1 + rq, *r3 = r2 + rq, *r4 = r3 + rq;
    const float *r5 = r4 + rq, *r6 = r5 + rq, *r7 = r6 + rq, *r8 = r7 + rq, *r9 = r8 + rq;
    int slack = 0;
    for (size_t L = L0; L < L1; L++) {
        const size_t i = L - S, j = L - L0;
        const float e1x = px[L + ob] - px[L], e1y = py[L + ob] - py[L], e1z = pz[L + ob] - pz[L];
        const float e2x = px[L + oc] - px[L], e2y = py[L + oc] - py[L], e2z = pz[L + oc] - pz[L];
        float fbx, fby, fbz, fcx, fcy, fcz;
        const int taut = tri_force(c1, c2, Y, taut_ratio, relax, r0[j], r1[j], r2[j], r3[j],
                                   r4[j], r5[j], r6[j], r7[j], r8[j], r9[j], e1x, e1y, e1z,
                                   e2x, e2y, e2z, &fbx, &fby, &fbz, &fcx, &fcy, &fcz);
        slack += !taut & (r9[j] != 0.0f);
        /* the gas: g/3 of the area vector (e1 x e2)/2 on each corner */
        const float gx = g6 * (e1y * e2z - e1z * e2y), gy = g6 * (e1z * e2x - e1x * e2z);
        const float gz = g6 * (e1x * e2y - e1y * e2x);
        o0[i] = gx - (fbx + fcx);
        o1[i] = gy - (fby + fcy);
        o2[i] = gz - (fbz + fcz);
        o3[i] = fbx + gx;
        o4[i] = fby + gy;
        o5[i] = fbz + gz;
        o6[i] = fcx + gx;
        o7[i] = fcy + gy;
        o8[i] = fcz + gz;
    }
    return slack;
}

/* One triangle kind over positions L0 .. L1-1 (tri_span), a chunk of
 * MEMBRANE_TRI_CHUNK_ROWS rows at a time: first by the taut law alone, and
 * again with the tension field only where a triangle of the chunk was not
 * taut (then the next chunk starts with the tension field, until one
 * comes back all taut). The result does not depend on the chunks: a taut
 * triangle's forces are the same bits either way. */
static void tri_loop(const membrane_consts *k, float gauge, size_t L0, size_t L1, size_t S,
                     ptrdiff_t ob, ptrdiff_t oc, const float *px, const float *py,
                     const float *pz, const float *rc, float *const *o)
{
    const size_t rq = (size_t)MEMBRANE_TRI_CHUNK_ROWS * S;
    const float g6 = gauge * (1.0f / 6.0f);
    const size_t chunk = rq;
    int relax = 0;
    for (size_t A = L0; A < L1; A += chunk) {
        const size_t B = A + chunk < L1 ? A + chunk : L1;
        if (!relax)
            relax = tri_span(k, 0, g6, A, B, S, ob, oc, px, py, pz, rc, rq, o[0], o[1], o[2],
                             o[3], o[4], o[5], o[6], o[7], o[8]) != 0;
        if (relax)
            relax = tri_span(k, 1, g6, A, B, S, ob, oc, px, py, pz, rc, rq, o[0], o[1], o[2],
                             o[3], o[4], o[5], o[6], o[7], o[8]) != 0;
    }
}

/* One hinge kind over positions L0 .. L1-1 (corners at L + o1, L + o2,
 * L + o3); rest data and outputs (12 arrays Q floats apart: corner,
 * component) at L - S. Branch-free: it vectorises. */
static void edge_loop(float bend, size_t L0, size_t L1, size_t S, ptrdiff_t o1, ptrdiff_t o2,
                      ptrdiff_t o3, const float *restrict px, const float *restrict py,
                      const float *restrict pz, const float *restrict theta0,
                      const float *restrict w, float *restrict a0, float *restrict a1,
                      float *restrict a2, float *restrict b0, float *restrict b1,
                      float *restrict b2, float *restrict c0, float *restrict c1,
                      float *restrict c2, float *restrict d0, float *restrict d1,
                      float *restrict d2)
{
    for (size_t L = L0; L < L1; L++) {
        const size_t i = L - S;
        float f[12];
        hinge_force(bend * w[i], theta0[i], px[L], py[L], pz[L], px[L + o1], py[L + o1],
                    pz[L + o1], px[L + o2], py[L + o2], pz[L + o2], px[L + o3], py[L + o3],
                    pz[L + o3], f);
        a0[i] = f[0];
        a1[i] = f[1];
        a2[i] = f[2];
        b0[i] = f[3];
        b1[i] = f[4];
        b2[i] = f[5];
        c0[i] = f[6];
        c1[i] = f[7];
        c2[i] = f[8];
        d0[i] = f[9];
        d1[i] = f[10];
        d2[i] = f[11];
    }
}

/* Overwrites the pad slots (n = -1 and n = N) of each of `rows` rows of an
 * output array with copies of its elements n = N-1 and n = 0. */
static void wrap_rows(float *o, int rows, int N)
{
    const size_t S = (size_t)N + 2;
    for (int r = 0; r < rows; r++) {
        float *row = o + (size_t)r * S;
        row[0] = row[N];
        row[N + 1] = row[1];
    }
}

/* bent[L] = the twelve hinge corners at L, in this order; f[L] += bent[L]. */
static void gather_hinges(size_t L0, size_t L1, const float *const e[12],
                          float *restrict bent, float *restrict f)
{
    const float *restrict r0 = e[0], *restrict r1 = e[1], *restrict r2 = e[2];
    const float *restrict r3 = e[3], *restrict u0 = e[4], *restrict u1 = e[5];
    const float *restrict u2 = e[6], *restrict u3 = e[7], *restrict g0 = e[8];
    const float *restrict g1 = e[9], *restrict g2 = e[10], *restrict g3 = e[11];
    for (size_t L = L0; L < L1; L++) {
        const float b = (((r0[L] + r1[L]) + (r2[L] + r3[L])) + ((u0[L] + u1[L]) + (u2[L] + u3[L])))
                      + ((g0[L] + g1[L]) + (g2[L] + g3[L]));
        bent[L] = b;
        f[L] += b;
    }
}

/* f[n] += g[n], n < N. */
static void add_row(float *restrict f, const float *restrict g, int N)
{
    for (int n = 0; n < N; n++)
        f[n] += g[n];
}

void membrane_block(const membrane_rest *rest, const membrane_consts *k, const float *x,
                    const float *y, const float *z, int a, int nb, float *scratch,
                    float *const f[3], float *const held[3], int fresh, float gauge)
{
    const int M = rest->M, N = rest->N;
    const size_t S = (size_t)N + 2, VL = verts_len(N, nb), TQ = tris_len(N, nb);
    const size_t EQ = edges_len(N, nb);
    /* padded vertex rows: block row r (ring row a - 2 + r), n at 1 + r S + 1 + n */
    float *pv[3];
    for (int c = 0; c < 3; c++)
        pv[c] = scratch + (size_t)c * VL + 1;
    float *tri_out = scratch + 3 * VL, *edge_out = tri_out + MEMBRANE_TRI_KINDS * TRI_OUT * TQ;
    const float *const src[3] = {x, y, z};
    for (int r = 0; r < nb + 4; r++) {
        const size_t m = (size_t)(((a - 2 + r) % M + M) % M), first = m * (size_t)N;
        for (int c = 0; c < 3; c++) {
            float *row = pv[c] + (size_t)r * S;
            const float *restrict from = src[c] + first;
            for (int n = 0; n < N; n++) /* inline: see INLINE_COPIES in the Makefile */
                row[1 + n] = from[n];
            row[0] = src[c][first + (size_t)N - 1];
            row[N + 1] = src[c][first];
        }
    }
    for (int c = 0; c < 3; c++) { /* the slack floats, read by junk elements only */
        pv[c][-1] = 0.0f;
        pv[c][VL - 2] = 0.0f;
    }
    /* triangles of quad rows a-1 .. a+nb-1: corner a in block rows 1 .. nb+1;
     * the pad slot before each row is the wrapped triangle n = N-1, from
     * the padded corners and its own copy of the rest data, so no copying */
    const ptrdiff_t s = (ptrdiff_t)S;
    for (int kd = 0; kd < MEMBRANE_TRI_KINDS; kd++) {
        const ptrdiff_t ob = kd == MEMBRANE_T1 ? s : s + 1, oc = kd == MEMBRANE_T1 ? s + 1 : 1;
        float *o = tri_out + (size_t)kd * TRI_OUT * TQ;
        float *const out[TRI_OUT] = {o, o + TQ, o + 2 * TQ, o + 3 * TQ, o + 4 * TQ,
                                     o + 5 * TQ, o + 6 * TQ, o + 7 * TQ, o + 8 * TQ};
        tri_loop(k, gauge, S, S + TQ, S, ob, oc, pv[0], pv[1], pv[2], rest->tri[kd][0], out);
    }
    /* hinges of edge rows a-1 .. a+nb: x0 in block rows 1 .. nb+2 */
    const ptrdiff_t off[MEMBRANE_EDGE_KINDS][4] = {
        {0, s, s + 1, -1},
        {0, 1, -s, s + 1},
        {0, s + 1, 1, s},
    };
    const int hinges = k->bend != 0.0f && (!held || fresh);
    if (hinges)
        for (int kd = 0; kd < MEMBRANE_EDGE_KINDS; kd++) {
            float *o = edge_out + (size_t)kd * EDGE_OUT * EQ;
            edge_loop(k->bend, S, S + EQ, S, off[kd][1], off[kd][2], off[kd][3], pv[0], pv[1],
                      pv[2], rest->edge[kd][0], rest->edge[kd][1], o, o + EQ, o + 2 * EQ,
                      o + 3 * EQ, o + 4 * EQ, o + 5 * EQ, o + 6 * EQ, o + 7 * EQ, o + 8 * EQ,
                      o + 9 * EQ, o + 10 * EQ, o + 11 * EQ);
            for (int j = 0; j < EDGE_OUT; j++)
                wrap_rows(o + (size_t)j * EQ, nb + 2, N);
        }
    /* The gather, one loop over the whole block (f has the same stride S):
     * vertex (m, n) = block row i, ring row a + i, at L = i S + 1 + n; the
     * triangle and edge output rows of quad row a + i are i + 1 (L + S).
     * The pad slots between rows get junk, never read. */
    const size_t L0 = 1, L1 = (size_t)nb * S - 1;
    for (int c = 0; c < 3; c++) {
        const float *T1 = tri_out + (size_t)c * TQ, *T2 = T1 + TRI_OUT * TQ;
        /* corner j of a triangle kind: + 3 j TQ */
        gather_corners(L0, L1, T1 + S, T2 + S, T2 + 6 * TQ + S - 1, T1 + 3 * TQ,
                         T1 + 6 * TQ - 1, T2 + 3 * TQ - 1, f[c]);
    }
    if (k->bend == 0.0f)
        return;
    if (!hinges) { /* held from the step's first substep */
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < nb; i++)
                add_row(f[c] + (size_t)i * S + 1, held[c] + (size_t)(a + i) * N, N);
        return;
    }
    float *bent = tri_out; /* free once the triangles are gathered */
    for (int c = 0; c < 3; c++) {
        const float *E0 = edge_out + (size_t)c * EQ, *E1 = E0 + EDGE_OUT * EQ;
        const float *E2 = E1 + EDGE_OUT * EQ;
        /* corner j of an edge kind: + 3 j EQ. Vertex (m, n) is, of the
         * ring edge at: x0 (m,n), x1 (m-1,n), x2 (m-1,n-1), x3 (m,n+1);
         * tube: x0 (m,n), x1 (m,n-1), x2 (m+1,n), x3 (m-1,n-1);
         * diagonal: x0 (m,n), x1 (m-1,n-1), x2 (m,n-1), x3 (m-1,n). */
        const float *const e[12] = {
            E0 + S, E0 + 3 * EQ, E0 + 6 * EQ - 1, E0 + 9 * EQ + S + 1,
            E1 + S, E1 + 3 * EQ + S - 1, E1 + 6 * EQ + 2 * S, E1 + 9 * EQ - 1,
            E2 + S, E2 + 3 * EQ - 1, E2 + 6 * EQ + S - 1, E2 + 9 * EQ,
        };
        gather_hinges(L0, L1, e, bent, f[c]);
        if (held)
            for (int i = 0; i < nb; i++)
                memcpy(held[c] + (size_t)(a + i) * N, bent + (size_t)i * S + 1,
                       sizeof(float) * (size_t)N);
    }
}

/* ---- the stiffness for the stability bound ---- */

/* Largest eigenvalue of the in-plane stiffness of a constant-strain
 * triangle (area A0, 2-D shape gradients g, plane-stress Lame constants
 * lam = E t nu/(1-nu^2), mu = E t/(2(1+nu))), by power iteration. */
static double tri_lambda_max(double A0, const double g[6], double lam, double mu)
{
    double K[6][6];
    for (int i = 0; i < 3; i++)
        for (int al = 0; al < 2; al++)
            for (int j = 0; j < 3; j++)
                for (int be = 0; be < 2; be++) {
                    const double gg = g[2 * i] * g[2 * j] + g[2 * i + 1] * g[2 * j + 1];
                    K[2 * i + al][2 * j + be] =
                        A0 * (lam * g[2 * i + al] * g[2 * j + be] + mu * g[2 * i + be] * g[2 * j + al]
                              + (al == be ? mu * gg : 0.0));
                }
    double v[6] = {1.0, 0.3, -0.7, 0.2, -0.3, 0.5}, ev = 0.0;
    for (int it = 0; it < 500; it++) {
        double w[6] = {0}, nn = 0.0;
        for (int p = 0; p < 6; p++)
            for (int q = 0; q < 6; q++)
                w[p] += K[p][q] * v[q];
        for (int p = 0; p < 6; p++)
            nn += w[p] * w[p];
        nn = sqrt(nn);
        if (nn == 0.0)
            return 0.0;
        for (int p = 0; p < 6; p++)
            v[p] = w[p] / nn;
        ev = nn;
    }
    return ev;
}

/* The hinges' part of membrane_vertex_stiffness (before its factor 1/2):
 * rank one at rest, 2 k_b w |grad theta|^2 each, the twelve listed in
 * membrane_block. */
static double hinge_stiffness(const membrane_rest *rest, const membrane_material *mat, int n)
{
    const int N = rest->N, nm = (n + N - 1) % N, np = (n + 1) % N;
    const double E = mat->youngs_modulus, t = mat->thickness, nu = mat->poisson_ratio;
    const double kb = 0.5 * E * t * t * t / (12.0 * (1.0 - nu * nu));
    static const int EDGE_DN[MEMBRANE_EDGE_KINDS][4] = {{0, 0, -1, 1}, {0, -1, 0, -1},
                                                        {0, -1, -1, 0}};
    double sum = 0.0;
    for (int kd = 0; kd < MEMBRANE_EDGE_KINDS; kd++)
        for (int c = 0; c < 4; c++) {
            const int at = EDGE_DN[kd][c] < 0 ? nm : EDGE_DN[kd][c] > 0 ? np : n;
            sum += 2.0 * kb * rest->edge_w[kd][at] * rest->edge_g2[kd][at];
        }
    return sum;
}

double membrane_vertex_stiffness(const membrane_rest *rest, const membrane_material *mat, int n,
                                 double tension)
{
    const int N = rest->N;
    const double E = mat->youngs_modulus, t = mat->thickness, nu = mat->poisson_ratio;
    const double lam = E * t * nu / (1.0 - nu * nu), mu = E * t / (2.0 * (1.0 + nu));
    const int nm = (n + N - 1) % N;
    /* each element's largest eigenvalue: in-plane, plus the pre-tension's
     * geometric stiffness A0 N (g_i . g_j) I (at most A0 N sum |g_i|^2) */
    double tri[MEMBRANE_TRI_KINDS][2];
    for (int kd = 0; kd < MEMBRANE_TRI_KINDS; kd++)
        for (int j = 0; j < 2; j++) {
            const int at = j ? nm : n;
            const double A0 = rest->tri_a0[kd][at], *g = rest->tri_g[kd] + 6 * (size_t)at;
            double g2 = 0.0;
            for (int q = 0; q < 6; q++)
                g2 += g[q] * g[q];
            tri[kd][j] = tri_lambda_max(A0, g, lam, mu) + A0 * tension * g2;
        }
    /* the vertex's six triangles: T1(m,n) T2(m,n) T2(m,n-1) T1(m-1,n)
     * T1(m-1,n-1) T2(m-1,n-1) */
    double sum = tri[0][0] + tri[1][0] + tri[1][1] + tri[0][0] + tri[0][1] + tri[1][1];
    return 0.5 * (sum + hinge_stiffness(rest, mat, n));
}

double membrane_max_bending_stiffness(const membrane_rest *rest, const membrane_material *mat)
{
    double best = 0.0;
    for (int n = 0; n < rest->N; n++) {
        double k = 0.5 * hinge_stiffness(rest, mat, n);
        if (k > best)
            best = k;
    }
    return best;
}

double membrane_max_vertex_stiffness(const membrane_rest *rest, const membrane_material *mat,
                                     double tension)
{
    double best = 0.0;
    for (int n = 0; n < rest->N; n++) {
        double k = membrane_vertex_stiffness(rest, mat, n, tension);
        if (k > best)
            best = k;
    }
    return best;
}

double membrane_torus_max_stiffness(int M, int N, double R, double r,
                                    const membrane_material *mat, double tension)
{
    membrane_rest rest;
    if (membrane_rest_init_torus(&rest, M, N, 1, R, r))
        return -1.0;
    double k = membrane_max_vertex_stiffness(&rest, mat, tension);
    membrane_rest_free(&rest);
    return k;
}
