/* The inflated shape of a membrane ring; see inflate.h.
 *
 * Row 0's vertices lie in the plane y = 0 (x the distance from the axis);
 * row m is row 0 turned by 2 pi m / M about z. membrane_block with a = 0,
 * nb = 1 reads rows -2 .. 2, which are written from the profile each
 * iteration; the gauge's load on vertex (0, n) is p/3 of the area normal
 * of each of its six triangles. The step is half the membrane's bound
 * sqrt(2 m / k) at the inflated tension (its stiffening under large
 * strain is left room); kinetic damping zeroes the velocities whenever
 * the power F.v turns negative. */
#include "physics/skin/inflate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/water/face_loads.h"
#include "physics/world/shape.h"

/* Iterations at most: 400000, and a work of 2e8 vertex-iterations (about
 * a second: a tube of 4096 vertices, whose condition grows as N^2, gets
 * 49000 and then the rest shape) */
#define MAX_ITERATIONS 400000
#define MAX_WORK 2e8

/* Rows -2 .. 2 of the ring (indices wrapped) from the profile. */
static void write_rows(int M, int N, const double *rho, const double *z, float *x, float *y,
                       float *zz)
{
    const double two_pi = 6.283185307179586476925286766559;
    for (int dm = -2; dm <= 2; dm++) {
        const int m = (dm + M) % M;
        const double c = cos(two_pi * m / M), s = sin(two_pi * m / M);
        for (int n = 0; n < N; n++) {
            x[m * N + n] = (float)(rho[n] * c);
            y[m * N + n] = (float)(rho[n] * s);
            zz[m * N + n] = (float)z[n];
        }
    }
}

/* Adds p/3 of the area normal of triangle (a, b, c) to the forces of
 * those of its corners in row 0 (index < N). */
static void press(int N, const float *x, const float *y, const float *z, int a, int b, int c,
                  double p, double *fx, double *fz)
{
    const double e1[3] = {x[b] - x[a], y[b] - y[a], z[b] - z[a]};
    const double e2[3] = {x[c] - x[a], y[c] - y[a], z[c] - z[a]};
    const double nx = e1[1] * e2[2] - e1[2] * e2[1], nz = e1[0] * e2[1] - e1[1] * e2[0];
    const int v[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        if (v[k] < N) {
            fx[v[k]] += p * nx / 6.0;
            fz[v[k]] += p * nz / 6.0;
        }
}

int membrane_inflated_profile(const membrane_rest *rest, const membrane_material *mat, double R,
                              double r, double gauge, double mass, double *rho, double *z,
                              double *volume)
{
    const int M = rest->M, N = rest->N;
    const size_t V = (size_t)M * N, S = MEMBRANE_FORCE_STRIDE(N);
    const size_t scratch = membrane_scratch_floats(N, 1);
    float *mem = calloc(3 * V + 3 * S + scratch, sizeof(float));
    double *dmem = calloc(4 * (size_t)N, sizeof(double));
    int rc = -1;
    for (int n = 0; n < N; n++) {
        double X[3];
        torus_point(R, r, M, N, 0, n, X);
        rho[n] = X[0];
        z[n] = X[2];
    }
    if (!mem || !dmem)
        goto done;
    float *x = mem, *y = x + V, *zz = y + V;
    float *const f[3] = {zz + V, zz + V + S, zz + V + 2 * S};
    float *work = zz + V + 3 * S;
    double *vx = dmem, *vz = vx + N, *fx = vz + N, *fz = fx + N;
    const membrane_consts k = membrane_consts_of(mat);
    const double kmax = membrane_max_vertex_stiffness(rest, mat, gauge * r);
    const double h = 0.5 * sqrt(2.0 * mass / kmax);
    /* settled: the largest unbalanced force below 1e-4 of the gauge's
     * load on a vertex (p times its share of the rest area), or below what
     * moves a vertex by 1e-6 of the tube radius against the skin's
     * stiffness (a stiff skin's float forces are noisier than the first) */
    const double share = 4.0 * 3.14159265358979323846 * 3.14159265358979323846 * R * r / (double)V;
    const double tol = fmax(1e-4 * gauge * share, 1e-6 * r * kmax);
    const long iterations = (long)fmin(MAX_ITERATIONS, MAX_WORK / N);
    for (long it = 0; it < iterations && rc != 0; it++) {
        write_rows(M, N, rho, z, x, y, zz);
        for (int c = 0; c < 3; c++)
            memset(f[c], 0, sizeof(float) * S);
        membrane_block(rest, &k, x, y, zz, 0, 1, work, f, NULL, 1, 0.0f);
        double worst = 0.0, power = 0.0;
        for (int n = 0; n < N; n++) {
            fx[n] = f[0][1 + n];
            fz[n] = f[2][1 + n];
        }
        for (int q = -1; q <= 0; q++) /* the six triangles round each vertex of row 0 */
            for (int n = 0; n < N; n++) {
                const int m0 = (q + M) % M, m1 = (m0 + 1) % M, n1 = (n + 1) % N;
                const int a = m0 * N + n, b = m1 * N + n, c = m1 * N + n1, d = m0 * N + n1;
                press(N, x, y, zz, a, b, c, gauge, fx, fz);
                press(N, x, y, zz, a, c, d, gauge, fx, fz);
            }
        for (int n = 0; n < N; n++) {
            worst = fmax(worst, hypot(fx[n], fz[n]));
            power += fx[n] * vx[n] + fz[n] * vz[n];
        }
        if (!(worst < INFINITY))
            break;
        if (worst < tol) {
            rc = 0;
            break;
        }
        if (power < 0.0)
            memset(vx, 0, sizeof(double) * 2 * (size_t)N);
        for (int n = 0; n < N; n++) {
            vx[n] += h * fx[n] / mass;
            vz[n] += h * fz[n] / mass;
            rho[n] += h * vx[n];
            z[n] += h * vz[n];
        }
    }
    if (rc == 0) {
        write_rows(M, N, rho, z, x, y, zz);
        const double origin[3] = {0.0, 0.0, 0.0};
        *volume = M * quad_row_volume(M, N, x, y, zz, 0, origin);
    } else
        for (int n = 0; n < N; n++) {
            double X[3];
            torus_point(R, r, M, N, 0, n, X);
            rho[n] = X[0];
            z[n] = X[2];
        }
done:
    free(mem);
    free(dmem);
    return rc;
}
