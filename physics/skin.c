/* Skin forces face by face; see skin.h. */
#include "skin.h"

#include <math.h>

#include "hydro.h"

/* Per quad: two triangles, three corners each, three components. */
#define QUAD_FLOATS 18

size_t skin_scratch_floats(int N, int max_rows)
{
    return (size_t)(max_rows + 1) * (size_t)N * QUAD_FLOATS;
}

static void cross(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Drag and lift (physics.md section 5) on a face of area-normal an (m^2)
 * moving at u relative to a fluid of density rho: only a leading face
 * (n . u > 0) feels it. Scaled down so that one step of dt on m_face never
 * reverses u (the drag part alone would stop it: the lift is across u). */
static void drag_force(const skin_consts *k, const float an[3], const float u[3], float rho,
                       float out[3])
{
    out[0] = out[1] = out[2] = 0.0f;
    float u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    float area = sqrtf(an[0] * an[0] + an[1] * an[1] + an[2] * an[2]);
    if (!(u2 > 0.0f) || !(area > 0.0f))
        return;
    float ul = sqrtf(u2), c = (an[0] * u[0] + an[1] * u[1] + an[2] * u[2]) / (area * ul);
    if (!(c > 0.0f))
        return;
    float q = rho * area * u2 * c;            /* N per unit coefficient */
    float drag = k->cd * q, lift = k->cl * q;
    float dv = drag * k->dt / k->m_face;      /* speed the drag takes off u in one step */
    float scale = dv > ul ? ul / dv : 1.0f;
    for (int i = 0; i < 3; i++) {
        float uh = u[i] / ul, n = an[i] / area;
        out[i] = scale * (-drag * uh - lift * (n - c * uh));
    }
}

/* The forces on the three corners of the triangle (p0, p1, p2), outward,
 * with vertex velocities v0, v1, v2: out[corner][component], N. */
static void triangle(const skin_consts *k, float p[3][3], float v[3][3],
                     float out[3][3])
{
    float e1[3], e2[3], an[3];
    for (int c = 0; c < 3; c++) {
        e1[c] = p[1][c] - p[0][c];
        e2[c] = p[2][c] - p[0][c];
    }
    cross(e1, e2, an);
    for (int c = 0; c < 3; c++)
        an[c] *= 0.5f;
    /* gas: (p - p_air) dV/dx_i, a third of the face's area-normal each */
    float g = k->gauge / 3.0f;
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++)
            out[i][c] = g * an[c];
    float wet = 0.0f;
    if (k->rho_g > 0.0f) {
        float d[3] = {k->level - p[0][2], k->level - p[1][2], k->level - p[2][2]};
        int wet_corners = (d[0] > 0.0f) + (d[1] > 0.0f) + (d[2] > 0.0f);
        if (wet_corners == 3) {
            /* consistent loads of the linear pressure rho g d on the whole face */
            float s = -k->rho_g / 12.0f;
            for (int i = 0; i < 3; i++) {
                float w = s * (2.0f * d[i] + d[(i + 1) % 3] + d[(i + 2) % 3]);
                for (int c = 0; c < 3; c++)
                    out[i][c] += w * an[c];
            }
            wet = 1.0f;
        } else if (wet_corners > 0) {
            /* cut by the surface: the exact clipper, in double */
            double a[3], b[3], cc[3], dd[3] = {d[0], d[1], d[2]}, load[3][3] = {{0}};
            for (int c = 0; c < 3; c++) {
                a[c] = p[0][c];
                b[c] = p[1][c];
                cc[c] = p[2][c];
            }
            double wet_area = hydro_triangle_loads(a, b, cc, dd, load, NULL);
            for (int i = 0; i < 3; i++)
                for (int c = 0; c < 3; c++)
                    out[i][c] += (float)(k->rho_g * load[i][c]);
            double area = sqrt((double)an[0] * an[0] + (double)an[1] * an[1]
                               + (double)an[2] * an[2]);
            wet = area > 0.0 ? (float)(wet_area / area) : 0.0f;
        }
    }
    if (k->drag) {
        /* the water is still here: u is the face's own velocity */
        float u[3], fw[3], fa[3];
        for (int c = 0; c < 3; c++)
            u[c] = (v[0][c] + v[1][c] + v[2][c]) / 3.0f;
        drag_force(k, an, u, k->rho_water, fw);
        drag_force(k, an, u, k->rho_air, fa);
        for (int c = 0; c < 3; c++) {
            float f = (wet * fw[c] + (1.0f - wet) * fa[c]) / 3.0f;
            for (int i = 0; i < 3; i++)
                out[i][c] += f;
        }
    }
}

void skin_block(const skin_consts *k, int M, int N, const float *x, const float *y,
                const float *z, const float *vx, const float *vy, const float *vz, int a,
                int nb, float *ql, float *const f[3], int W, int h)
{
    /* every triangle of quad rows a-1 .. a+nb-1 */
    for (int q = 0; q <= nb; q++) {
        int m0 = ((a - 1 + q) % M + M) % M, m1 = (m0 + 1) % M;
        for (int n = 0; n < N; n++) {
            int n1 = (n + 1) % N;
            size_t id[4] = {(size_t)m0 * N + n, (size_t)m1 * N + n, (size_t)m1 * N + n1,
                            (size_t)m0 * N + n1};
            float P[4][3], V[4][3];
            for (int j = 0; j < 4; j++) {
                P[j][0] = x[id[j]]; P[j][1] = y[id[j]]; P[j][2] = z[id[j]];
                V[j][0] = vx[id[j]]; V[j][1] = vy[id[j]]; V[j][2] = vz[id[j]];
            }
            static const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            float *out = ql + ((size_t)q * N + n) * QUAD_FLOATS;
            for (int t = 0; t < 2; t++) {
                float p[3][3], v[3][3], o[3][3];
                for (int i = 0; i < 3; i++)
                    for (int c = 0; c < 3; c++) {
                        p[i][c] = P[tri[t][i]][c];
                        v[i][c] = V[tri[t][i]][c];
                    }
                triangle(k, p, v, o);
                for (int i = 0; i < 3; i++)
                    for (int c = 0; c < 3; c++)
                        out[t * 9 + i * 3 + c] = o[i][c];
            }
        }
    }
    /* each vertex gathers its six corners, always in this order:
     * quad (m, n): T1 corner 0, T2 corner 0; quad (m, n-1): T2 corner 2;
     * quad (m-1, n): T1 corner 1; quad (m-1, n-1): T1 corner 2, T2 corner 1 */
    for (int i = 0; i < nb; i++)
        for (int n = 0; n < N; n++) {
            int nl = (n + N - 1) % N;
            const float *here = ql + ((size_t)(i + 1) * N + n) * QUAD_FLOATS;
            const float *left = ql + ((size_t)(i + 1) * N + nl) * QUAD_FLOATS;
            const float *below = ql + ((size_t)i * N + n) * QUAD_FLOATS;
            const float *diag = ql + ((size_t)i * N + nl) * QUAD_FLOATS;
            for (int c = 0; c < 3; c++) {
                float s = here[0 + c] + here[9 + c];
                s += left[9 + 6 + c];
                s += below[3 + c];
                s += diag[6 + c] + diag[9 + 3 + c];
                f[c][(size_t)i * W + h + n] += s;
            }
        }
}

double skin_row_volume(int M, int N, const float *x, const float *y, const float *z, int m,
                       const double o[3])
{
    int m1 = (m + 1) % M;
    double vol = 0.0;
    for (int n = 0; n < N; n++) {
        int n1 = (n + 1) % N;
        size_t id[4] = {(size_t)m * N + n, (size_t)m1 * N + n, (size_t)m1 * N + n1,
                        (size_t)m * N + n1};
        double P[4][3];
        for (int j = 0; j < 4; j++) {
            P[j][0] = x[id[j]] - o[0];
            P[j][1] = y[id[j]] - o[1];
            P[j][2] = z[id[j]] - o[2];
        }
        vol += hydro_tet_volume(P[0], P[1], P[2]) + hydro_tet_volume(P[0], P[2], P[3]);
    }
    return vol;
}
