/* Whether a membrane skin is turned inside out or only folded; see fold.h. */
#include "physics/skin/fold.h"

#include <math.h>
#include <stddef.h>

#include "physics/contact/inside.h"
#include "physics/skin/membrane.h"

/* The shortest probe fold_faces_inward tries, as a share of the one it is
 * given (1 mm: 16 microns, far above the round-off of a double about a
 * float mesh). */
#define FOLD_PROBE_SHORTEST (1.0 / 64.0)

/* The corners of triangle t of quad (m, n), indices wrapped. */
static void corners(int M, int N, int m, int n, int t, size_t q[3])
{
    int c[3];
    membrane_triangle_corners(M, N, m, n, t, c);
    for (int k = 0; k < 3; k++)
        q[k] = (size_t)c[k];
}

/* The area normal of the triangle (a, b, c) of x, y, z into out. */
static void normal_of_corners(const float *x, const float *y, const float *z, size_t a, size_t b,
                              size_t c, double *out)
{
    const double e1[3] = {x[b] - x[a], y[b] - y[a], z[b] - z[a]};
    const double e2[3] = {x[c] - x[a], y[c] - y[a], z[c] - z[a]};
    out[0] = e1[1] * e2[2] - e1[2] * e2[1];
    out[1] = e1[2] * e2[0] - e1[0] * e2[2];
    out[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

/* The area normal (twice the area, not normalised) of triangle t of quad (m, n). */
static void area_normal(int M, int N, const float *x, const float *y, const float *z, int m,
                        int n, int t, double out[3])
{
    size_t q[3];
    corners(M, N, m, n, t, q);
    normal_of_corners(x, y, z, q[0], q[1], q[2], out);
}

/* 1 when normal a points against each of c[0..2]. */
static int against_all(const double a[3], const double *const c[3])
{
    int against = 0;
    for (int k = 0; k < 3; k++)
        against += a[0] * c[k][0] + a[1] * c[k][1] + a[2] * c[k][2] < 0.0;
    return against == 3;
}

int fold_against_neighbours(int M, int N, const float *x, const float *y, const float *z, int m,
                            int n, int t)
{
    double a[3], c[3][3];
    area_normal(M, N, x, y, z, m, n, t, a);
    area_normal(M, N, x, y, z, m, n, 1 - t, c[0]);
    area_normal(M, N, x, y, z, t == 0 ? m + 1 : m - 1, n, 1 - t, c[1]);
    area_normal(M, N, x, y, z, m, t == 0 ? n - 1 : n + 1, 1 - t, c[2]);
    const double *const cs[3] = {c[0], c[1], c[2]};
    return against_all(a, cs);
}

int fold_normals(int M, int N, const float *x, const float *y, const float *z, double *out)
{
    int creased = 0;
    for (int m = 0; m < M; m++) {
        const size_t r0 = (size_t)m * N, r1 = (size_t)(m + 1 < M ? m + 1 : 0) * N;
        for (int n = 0; n < N; n++) {
            const size_t n1 = (size_t)(n + 1 < N ? n + 1 : 0);
            double *t1 = out + 6 * (r0 + (size_t)n), *t2 = t1 + 3;
            /* T1 = (m,n) (m+1,n) (m+1,n+1), T2 = (m,n) (m+1,n+1) (m,n+1) */
            normal_of_corners(x, y, z, r0 + n, r1 + n, r1 + n1, t1);
            normal_of_corners(x, y, z, r0 + n, r1 + n1, r0 + n1, t2);
            creased += t1[0] * t2[0] + t1[1] * t2[1] + t1[2] * t2[2] < 0.0;
        }
    }
    return creased;
}

/* Triangle t of quad (m, n)'s normal in fold_normals' array, indices
 * (-1 .. M and -1 .. N) wrapped without a division. */
static const double *normal_of(int M, int N, const double *normals, int m, int n, int t)
{
    const int m0 = m < 0 ? m + M : m >= M ? m - M : m, n0 = n < 0 ? n + N : n >= N ? n - N : n;
    return normals + 3 * (2 * ((size_t)m0 * N + n0) + t);
}

int fold_against_neighbours_of(int M, int N, const double *normals, int m, int n, int t)
{
    const double *a = normal_of(M, N, normals, m, n, t);
    const double *const c[3] = {normal_of(M, N, normals, m, n, 1 - t),
                                normal_of(M, N, normals, t == 0 ? m + 1 : m - 1, n, 1 - t),
                                normal_of(M, N, normals, m, t == 0 ? n - 1 : n + 1, 1 - t)};
    return against_all(a, c);
}

int fold_faces_inward(int M, int N, const float *x, const float *y, const float *z, int m, int n,
                      int t, double probe)
{
    size_t q[3];
    double a[3], c[3] = {0.0, 0.0, 0.0};
    corners(M, N, m, n, t, q);
    area_normal(M, N, x, y, z, m, n, t, a);
    const double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(len > 0.0))
        return 1;
    for (int k = 0; k < 3; k++)
        c[0] += x[q[k]] / 3.0, c[1] += y[q[k]] / 3.0, c[2] += z[q[k]] / 3.0;
    /* The two probes must have only this triangle between them: the
     * winding number jumps by one across it. A crease shut tighter than
     * the probe (a neighbour folded back over the triangle, 2 mm off at its
     * far corner in a burst ring of the rapids) puts a second layer
     * between them (no jump, or two), and the probe is shortened, by 4 at
     * a time to FOLD_PROBE_SHORTEST of it, until it jumps by one. */
    double wo = 0.0, wi = 1.0;
    for (double h = probe; h >= probe * FOLD_PROBE_SHORTEST; h *= 0.25) {
        double out[3], in[3];
        for (int j = 0; j < 3; j++) {
            out[j] = c[j] + h * a[j] / len;
            in[j] = c[j] - h * a[j] / len;
        }
        wo = mesh_winding_number(M, N, x, y, z, out);
        wi = mesh_winding_number(M, N, x, y, z, in);
        if (fabs(fabs(wi - wo) - 1.0) < 0.5)
            break;
    }
    return !(wo < 0.5) || !(wi > 0.5);
}
