/* Winding numbers of a ring's skin, by bands (check_winding.h). */
#include "tests/check_winding.h"

#include <math.h>

#define FOUR_PI 12.566370614359172

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

double chk_solid_angle(const double pt[3], const double a[3], const double b[3],
                       const double c[3])
{
    double u[3], v[3], w[3];
    for (int k = 0; k < 3; k++)
        u[k] = a[k] - pt[k], v[k] = b[k] - pt[k], w[k] = c[k] - pt[k];
    const double lu = sqrt(dot(u, u)), lv = sqrt(dot(v, v)), lw = sqrt(dot(w, w));
    const double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
                     + u[2] * (v[0] * w[1] - v[1] * w[0]);
    const double den = lu * lv * lw + dot(u, v) * lw + dot(u, w) * lv + dot(v, w) * lu;
    return 2.0 * atan2(det, den);
}

double chk_winding_brute(const skin_mesh *mesh, int p, const double pt[3])
{
    const int T = 2 * mesh->segments * mesh->sides;
    double sum = 0.0;
    for (int t = 0; t < T; t++) {
        double c[3][3];
        chk_triangle(mesh, p, t, c);
        sum += chk_solid_angle(pt, c[0], c[1], c[2]);
    }
    return sum / FOUR_PI;
}

void chk_band_boxes(const skin_mesh *mesh, int p, double *boxes)
{
    const int M = mesh->segments, N = mesh->sides;
    const long base = (long)p * M * N;
    for (int m = 0; m < M; m++) {
        double *b = boxes + 6 * m;
        b[0] = b[1] = b[2] = INFINITY;
        b[3] = b[4] = b[5] = -INFINITY;
        for (int r = m; r <= m + 1; r++)
            for (int n = 0; n < N; n++) {
                double v[3];
                chk_vertex(mesh, base + (long)(r % M) * N + n, v);
                for (int k = 0; k < 3; k++)
                    b[k] = fmin(b[k], v[k]), b[3 + k] = fmax(b[3 + k], v[k]);
            }
    }
}

/* Solid angle of the fan C(k) of ring p. */
static double fan_angle(const skin_mesh *mesh, int p, int k, const double pt[3])
{
    const int N = mesh->sides;
    const long row = ((long)p * mesh->segments + k) * N;
    double a[3], b[3], c[3], sum = 0.0;
    chk_vertex(mesh, row, a);
    chk_vertex(mesh, row + 1, b);
    for (int j = 1; j + 1 < N; j++) {
        chk_vertex(mesh, row + j + 1, c);
        sum += chk_solid_angle(pt, a, b, c);
        b[0] = c[0], b[1] = c[1], b[2] = c[2];
    }
    return sum;
}

/* Solid angle of band m of ring p. */
static double band_angle(const skin_mesh *mesh, int p, int m, const double pt[3])
{
    const int N = mesh->sides;
    double sum = 0.0;
    for (int n = 0; n < N; n++) {
        double c[3][3];
        for (int half = 0; half < 2; half++) {
            chk_triangle(mesh, p, 2 * (m * N + n) + half, c);
            sum += chk_solid_angle(pt, c[0], c[1], c[2]);
        }
    }
    return sum;
}

double chk_winding(const skin_mesh *mesh, int p, const double *band_boxes, const double pt[3])
{
    const int M = mesh->segments;
    double sum = 0.0, fan_next = 0.0;
    int have_next = -1; /* the band before left C(m) in fan_next */
    for (int m = 0; m < M; m++) {
        if (!chk_in_box(band_boxes + 6 * m, pt))
            continue;
        const double here = have_next == m ? fan_next : fan_angle(mesh, p, m, pt);
        fan_next = fan_angle(mesh, p, (m + 1) % M, pt);
        have_next = m + 1;
        sum += band_angle(mesh, p, m, pt) - fan_next + here;
    }
    return sum / FOUR_PI;
}
