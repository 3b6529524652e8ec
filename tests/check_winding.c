/* Winding numbers of a ring's skin, by bands (check_winding.h). */
#include "tests/check_winding.h"

#include <math.h>

#define FOUR_PI 12.566370614359172

/* A corner seen from the point: its offset (m) and the offset's length. */
typedef struct {
    double u[3], len;
} seen;

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static seen see(const double pt[3], const double a[3])
{
    seen s = {{a[0] - pt[0], a[1] - pt[1], a[2] - pt[2]}, 0.0};
    s.len = sqrt(dot(s.u, s.u));
    return s;
}

/* The solid angle of the triangle with corners seen as a, b, c. */
static double angle_of(const seen *a, const seen *b, const seen *c)
{
    const double *u = a->u, *v = b->u, *w = c->u;
    const double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
                     + u[2] * (v[0] * w[1] - v[1] * w[0]);
    const double den = a->len * b->len * c->len + dot(u, v) * c->len + dot(u, w) * b->len
                     + dot(v, w) * a->len;
    return 2.0 * atan2(det, den);
}

double chk_solid_angle(const double pt[3], const double a[3], const double b[3],
                       const double c[3])
{
    const seen sa = see(pt, a), sb = see(pt, b), sc = see(pt, c);
    return angle_of(&sa, &sb, &sc);
}

/* Vertex (m, n) of ring p seen from pt. */
static seen see_vertex(const skin_mesh *mesh, int p, int m, int n, const double pt[3])
{
    double v[3];
    chk_vertex(mesh, ((long)p * mesh->segments + m) * mesh->sides + n, v);
    return see(pt, v);
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

/* Solid angle of the fan C(k) of ring p (each corner seen once). */
static double fan_angle(const skin_mesh *mesh, int p, int k, const double pt[3])
{
    const seen a = see_vertex(mesh, p, k, 0, pt);
    seen b = see_vertex(mesh, p, k, 1, pt);
    double sum = 0.0;
    for (int j = 1; j + 1 < mesh->sides; j++) {
        const seen c = see_vertex(mesh, p, k, j + 1, pt);
        sum += angle_of(&a, &b, &c);
        b = c;
    }
    return sum;
}

/* Solid angle of band m of ring p: T0 = (m,n) (m+1,n) (m+1,n+1) and
 * T1 = (m,n) (m+1,n+1) (m,n+1) of each n (check_mesh.h), each corner
 * seen once. */
static double band_angle(const skin_mesh *mesh, int p, int m, const double pt[3])
{
    const int N = mesh->sides, m1 = (m + 1) % mesh->segments;
    const seen first0 = see_vertex(mesh, p, m, 0, pt), first1 = see_vertex(mesh, p, m1, 0, pt);
    seen a0 = first0, a1 = first1; /* (m, n), (m+1, n) */
    double sum = 0.0;
    for (int n = 0; n < N; n++) {
        const seen b0 = n + 1 < N ? see_vertex(mesh, p, m, n + 1, pt) : first0;
        const seen b1 = n + 1 < N ? see_vertex(mesh, p, m1, n + 1, pt) : first1;
        sum += angle_of(&a0, &a1, &b1) + angle_of(&a0, &b1, &b0);
        a0 = b0, a1 = b1;
    }
    return sum;
}

double chk_winding(const skin_mesh *mesh, int p, const double *band_boxes, const double pt[3])
{
    const int M = mesh->segments;
    double sum = 0.0;
    /* a run of bands m0 .. m1 holding pt: the fans between them cancel,
     * leaving + C(m0) - C(m1 + 1) (none when every band holds it) */
    for (int m = 0; m < M; m++) {
        if (!chk_in_box(band_boxes + 6 * m, pt))
            continue;
        const int prev = (m + M - 1) % M, next = (m + 1) % M;
        if (!chk_in_box(band_boxes + 6 * prev, pt))
            sum += fan_angle(mesh, p, m, pt);
        sum += band_angle(mesh, p, m, pt);
        if (!chk_in_box(band_boxes + 6 * next, pt))
            sum -= fan_angle(mesh, p, next, pt);
    }
    return sum / FOUR_PI;
}
