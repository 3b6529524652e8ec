/* The skin checker itself (tests/skin_check.h), on made-up cases whose
 * answers are known, so that it cannot pass a crossing silently: the
 * exact predicates on exactly degenerate input and against 128-bit
 * integer determinants; triangles crossing, touching, coplanar and parallel a hair
 * apart, and against a plain double intersection on random pairs; the
 * winding number by bands against every triangle's; torus states with no
 * fault, linked, overlapping, one inside another's tube, and one vertex
 * pushed through the far wall of its own tube (each must be found, and
 * named); 64 rings checked in under a second of CPU; the same report on 1
 * and 2 threads. */
#include "tests/support.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/check_predicates.h"
#include "tests/check_tri_tri.h"
#include "tests/check_winding.h"
#include "tests/skin_check.h"

#define PI 3.14159265358979323846

/* ---- the predicates ---- */

static void test_orient_exact_on_degenerate_input(void **state)
{
    (void)state;
    /* four points of the plane x + y + z = 1 written exactly */
    const double a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, c[3] = {0, 0, 1}, d[3] = {0.25, 0.5, 0.25};
    assert_int_equal(chk_orient3d(a, b, c, d), 0);
    /* the next doubles above and below d's z: an ulp off the plane */
    const double above[3] = {0.25, 0.5, 0.25 + 0x1p-54}, below[3] = {0.25, 0.5, 0.25 - 0x1p-55};
    assert_int_equal(chk_orient3d(a, b, c, above), -chk_orient3d(a, b, c, below));
    assert_true(chk_orient3d(a, b, c, below) != 0);
    /* on a line, and 2^-40 off it (a few ulps of the coordinates) */
    const double p[2] = {1e3, 1e3}, q[2] = {1e3 + 1.0, 1e3 + 1.0}, r[2] = {1e3 + 0.5, 1e3 + 0.5};
    const double s[2] = {1e3 + 0.5, 1e3 + 0.5 + 0x1p-40};
    assert_int_equal(chk_orient2d(p, q, r), 0);
    assert_int_equal(chk_orient2d(p, q, s), 1);
    assert_int_equal(chk_orient2d(q, p, s), -1);
    /* the sign convention: d below the counter-clockwise a b c is +1 */
    const double low[3] = {0, 0, -1}, tri[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    assert_int_equal(chk_orient3d(tri[0], tri[1], tri[2], low), 1);
}

/* An exact reference the checker does not use: integer coordinates
 * (below 2^23, exact in double) and their determinants in 128 bits. */
__extension__ typedef __int128 wide;

static int sign_wide(wide v) { return (v > 0) - (v < 0); }

static int orient3d_wide(const long a[3], const long b[3], const long c[3], const long d[3])
{
    const wide adx = a[0] - d[0], ady = a[1] - d[1], adz = a[2] - d[2];
    const wide bdx = b[0] - d[0], bdy = b[1] - d[1], bdz = b[2] - d[2];
    const wide cdx = c[0] - d[0], cdy = c[1] - d[1], cdz = c[2] - d[2];
    return sign_wide(adx * (bdy * cdz - bdz * cdy) - ady * (bdx * cdz - bdz * cdx)
                     + adz * (bdx * cdy - bdy * cdx));
}

static int orient2d_wide(const long a[2], const long b[2], const long c[2])
{
    return sign_wide((wide)(a[0] - c[0]) * (b[1] - c[1]) - (wide)(a[1] - c[1]) * (b[0] - c[0]));
}

static long random_int(long range) { return (long)(test_uniform() * (2.0 * range)) - range; }

/* Points on a plane or a line, exactly and one unit off, scaled by 2^-20
 * (the scale changes no sign): the double evaluation cannot decide, the
 * expansion must, and agree with the 128-bit integers; and general
 * points, where the filter decides. */
static void test_orient_against_integer_reference(void **state)
{
    (void)state;
    test_seed(7);
    int zero = 0;
    for (int i = 0; i < 100000; i++) {
        long v[4][3];
        double d[4][3];
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                v[j][k] = random_int(1L << 20);
        const long s = random_int(3), t = random_int(3); /* d = a + s (b - a) + t (c - a) */
        for (int k = 0; k < 3; k++)
            v[3][k] = i % 3 == 2 ? random_int(1L << 20)
                                 : v[0][k] + s * (v[1][k] - v[0][k]) + t * (v[2][k] - v[0][k]);
        if (i % 3 == 1)
            v[3][i % 2] += random_int(2) | 1; /* one unit off */
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 3; k++)
                d[j][k] = ldexp((double)v[j][k], -20);
        const int want = orient3d_wide(v[0], v[1], v[2], v[3]);
        zero += want == 0;
        assert_int_equal(chk_orient3d(d[0], d[1], d[2], d[3]), want);
        assert_int_equal(chk_orient3d_exact(d[0], d[1], d[2], d[3]), want);
        /* 2-D: c on the line a b (c = a + s (b - a)), or a unit off */
        long p[3][2];
        double q[3][2];
        for (int k = 0; k < 2; k++) {
            p[0][k] = v[0][k], p[1][k] = v[1][k];
            p[2][k] = v[0][k] + s * (v[1][k] - v[0][k]) + (i % 3 == 1 && k == 0 ? 1 : 0);
        }
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 2; k++)
                q[j][k] = ldexp((double)p[j][k], -20);
        const int want2 = orient2d_wide(p[0], p[1], p[2]);
        assert_int_equal(chk_orient2d(q[0], q[1], q[2]), want2);
        assert_int_equal(chk_orient2d_exact(q[0], q[1], q[2]), want2);
    }
    printf("    100000 orientations agree with 128-bit integers (%d exactly coplanar)\n", zero);
    assert_true(zero > 20000);
}

/* ---- triangle against triangle ---- */

static int tt(const chk_tri *a, const chk_tri *b)
{
    const int r = chk_tri_tri(a, b);
    assert_int_equal(r, chk_tri_tri(b, a)); /* symmetric */
    return r;
}

static void test_triangles_crossing_touching_parallel(void **state)
{
    (void)state;
    const chk_tri flat = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
    /* through the middle */
    const chk_tri cross = {{{0.2, 0.2, -0.5}, {0.3, 0.2, 0.5}, {0.2, 0.3, 0.5}}};
    assert_int_equal(tt(&flat, &cross), 1);
    /* touching: a corner on the face, a corner on an edge, an edge
     * across an edge at one point (closed triangles: they meet) */
    const chk_tri on_face = {{{0.2, 0.2, 0.0}, {0.3, 0.2, 0.5}, {0.2, 0.3, 0.5}}};
    const chk_tri on_edge = {{{0.5, 0.0, 0.0}, {0.5, -0.3, 0.5}, {0.6, -0.3, 0.5}}};
    const chk_tri edge_edge = {{{0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}}};
    assert_int_equal(tt(&flat, &on_face), 1);
    assert_int_equal(tt(&flat, &on_edge), 1);
    assert_int_equal(tt(&flat, &edge_edge), 1);
    /* the same a hair (1e-9 m) off: apart */
    const chk_tri off_face = {{{0.2, 0.2, 1e-9}, {0.3, 0.2, 0.5}, {0.2, 0.3, 0.5}}};
    assert_int_equal(tt(&flat, &off_face), 0);
    /* parallel, 1e-9 m apart, and exactly coplanar */
    chk_tri par, cop, far, inner;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            par.v[i][k] = flat.v[i][k] + (k == 2 ? 1e-9 : 0.1);
            cop.v[i][k] = flat.v[i][k] + (k == 2 ? 0.0 : 0.3);
            far.v[i][k] = flat.v[i][k] + (k == 2 ? 0.0 : 0.6);
            inner.v[i][k] = k < 2 ? 0.1 + 0.2 * flat.v[i][k] : 0.0;
        }
    assert_int_equal(tt(&flat, &par), 0);
    assert_int_equal(tt(&flat, &cop), 1);   /* overlapping in the plane */
    assert_int_equal(tt(&flat, &far), 0);   /* apart in the plane (0.6 + 0.6 > 1) */
    assert_int_equal(tt(&flat, &inner), 1); /* wholly inside, no edges meeting */
    /* apart in space, a piercing that misses the face */
    const chk_tri miss = {{{0.8, 0.8, -0.5}, {0.9, 0.8, 0.5}, {0.8, 0.9, 0.5}}};
    assert_int_equal(tt(&flat, &miss), 0);
    /* a triangle with no area (a segment) piercing the face, and missing */
    const chk_tri needle = {{{0.2, 0.2, -1}, {0.2, 0.2, 1}, {0.2, 0.2, 0}}};
    const chk_tri needle_out = {{{2, 2, -1}, {2, 2, 1}, {2, 2, 0}}};
    assert_int_equal(tt(&flat, &needle), 1);
    assert_int_equal(tt(&flat, &needle_out), 0);
    /* a segment against a triangle: through, along its face, beside it */
    const double p[3] = {0.2, 0.2, -1}, q[3] = {0.2, 0.2, 1}, r[3] = {-0.5, 0.3, 0}, u[3] = {1.5, 0.3, 0};
    const double w[3] = {1.2, 1.2, -1}, x[3] = {1.2, 1.2, 1};
    assert_int_equal(chk_segment_triangle(p, q, &flat), 1);
    assert_int_equal(chk_segment_triangle(r, u, &flat), 1);
    assert_int_equal(chk_segment_triangle(w, x, &flat), 0);
}

/* A plain double reference for pairs in general position: the points
 * where one's edges cross the other's plane, inside the other by
 * barycentric coordinates; NAN when a margin is too thin to trust. */
static double plain_tri_tri(const chk_tri *a, const chk_tri *b)
{
    for (int pass = 0; pass < 2; pass++) {
        const double(*s)[3] = pass ? b->v : a->v, (*t)[3] = pass ? a->v : b->v;
        double e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++)
            e1[k] = t[1][k] - t[0][k], e2[k] = t[2][k] - t[0][k];
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int i = 0; i < 3; i++) {
            const double *p = s[i], *q = s[(i + 1) % 3];
            double dp = 0, dq = 0;
            for (int k = 0; k < 3; k++)
                dp += n[k] * (p[k] - t[0][k]), dq += n[k] * (q[k] - t[0][k]);
            if (fabs(dp) < 1e-9 || fabs(dq) < 1e-9)
                return NAN;
            if ((dp > 0) == (dq > 0))
                continue;
            double x[3], w[3];
            for (int k = 0; k < 3; k++)
                x[k] = p[k] + dp / (dp - dq) * (q[k] - p[k]);
            for (int j = 0; j < 3; j++) { /* barycentric: sub-triangle areas along n */
                const double *u = t[(j + 1) % 3], *v = t[(j + 2) % 3];
                double f[3] = {u[0] - x[0], u[1] - x[1], u[2] - x[2]};
                double g[3] = {v[0] - x[0], v[1] - x[1], v[2] - x[2]};
                w[j] = n[0] * (f[1] * g[2] - f[2] * g[1]) + n[1] * (f[2] * g[0] - f[0] * g[2])
                     + n[2] * (f[0] * g[1] - f[1] * g[0]);
            }
            if (fabs(w[0]) < 1e-9 || fabs(w[1]) < 1e-9 || fabs(w[2]) < 1e-9)
                return NAN;
            if (w[0] > 0 && w[1] > 0 && w[2] > 0)
                return 1.0;
        }
    }
    return 0.0;
}

static void test_triangles_against_plain_reference(void **state)
{
    (void)state;
    test_seed(11);
    int met = 0, compared = 0;
    for (int i = 0; i < 200000; i++) {
        chk_tri a, b;
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                a.v[j][k] = (float)test_uniform();
                b.v[j][k] = (float)(test_uniform() * 0.8 + 0.3);
            }
        const double want = plain_tri_tri(&a, &b);
        if (isnan(want))
            continue;
        compared++;
        met += want > 0.0;
        if (tt(&a, &b) != (int)want)
            fail_msg("pair %d: chk_tri_tri %d, the plain reference %g", i, chk_tri_tri(&a, &b), want);
    }
    printf("    %d random pairs agree with the plain test (%d meeting)\n", compared, met);
    assert_true(met > compared / 20 && met < compared - compared / 20); /* both answers tested */
}

/* ---- torus states ---- */

typedef struct {
    int P, M, N;
    float *x, *y, *z;
} tori;

static tori tori_new(int P, int M, int N)
{
    tori t = {P, M, N, NULL, NULL, NULL};
    const size_t n = (size_t)P * M * N;
    t.x = calloc(n, sizeof *t.x), t.y = calloc(n, sizeof *t.y), t.z = calloc(n, sizeof *t.z);
    assert_non_null(t.x), assert_non_null(t.y), assert_non_null(t.z);
    return t;
}

static void tori_free(tori *t) { free(t->x), free(t->y), free(t->z); }

static skin_mesh mesh_of(const tori *t)
{
    skin_mesh m = {t->x, t->y, t->z, t->P, t->M, t->N};
    return m;
}

/* Ring p: a torus of radii R, r (m) about the axis z turned by `tilt`
 * (rad) about x, centred on c; the simulation's numbering (dinghy/sim.h,
 * physics' torus_point: m round the ring at phi = 2 pi m / M, n round the
 * tube at theta = 2 pi n / N from the outer equator upwards). */
static void put_torus(tori *t, int p, const double c[3], double R, double r, double tilt)
{
    for (int m = 0; m < t->M; m++)
        for (int n = 0; n < t->N; n++) {
            const double phi = 2.0 * PI * m / t->M, th = 2.0 * PI * n / t->N;
            const double rho = R + r * cos(th), u[3] = {rho * cos(phi), rho * sin(phi), r * sin(th)};
            const size_t i = ((size_t)p * t->M + m) * t->N + n;
            t->x[i] = (float)(c[0] + u[0]);
            t->y[i] = (float)(c[1] + cos(tilt) * u[1] - sin(tilt) * u[2]);
            t->z[i] = (float)(c[2] + sin(tilt) * u[1] + cos(tilt) * u[2]);
        }
}

static skin_report check(const tori *t)
{
    const skin_mesh m = mesh_of(t);
    skin_report r;
    assert_int_equal(skin_check(&m, SKIN_CHECK_ALL, &r), 0);
    return r;
}

/* The winding number about points of a small closed torus (3 x 4, the
 * coarsest) and the default 32 x 16: 1 inside the tube, 0 in the hole
 * and outside; by bands as by every triangle, also on a crumpled one. */
static void test_winding_inside_outside(void **state)
{
    (void)state;
    const int sizes[2][2] = {{4, 3}, {32, 16}};
    for (int s = 0; s < 2; s++) {
        tori t = tori_new(1, sizes[s][0], sizes[s][1]);
        const double o[3] = {0, 0, 0};
        put_torus(&t, 0, o, 0.8, 0.25, 0.0);
        const skin_mesh m = mesh_of(&t);
        double boxes[6 * 32];
        chk_band_boxes(&m, 0, boxes);
        const double tube[3] = {0.8, 0.0, 0.0}, hole[3] = {0, 0, 0}, out[3] = {3, 1, 0.5},
                     above[3] = {0.8, 0.0, 0.4};
        assert_close(chk_winding_brute(&m, 0, tube), 1.0, 1e-12);
        assert_close(chk_winding(&m, 0, boxes, tube), 1.0, 1e-12);
        assert_close(chk_winding(&m, 0, boxes, hole), 0.0, 1e-12);
        assert_close(chk_winding(&m, 0, boxes, out), 0.0, 1e-12);
        assert_close(chk_winding(&m, 0, boxes, above), 0.0, 1e-12);
        tori_free(&t);
    }
    /* crumpled: every vertex moved up to 5 cm; random points near the skin */
    tori t = tori_new(1, 32, 16);
    const double o[3] = {0.3, -0.2, 0.1};
    put_torus(&t, 0, o, 0.8, 0.25, 0.4);
    test_seed(3);
    for (int i = 0; i < 32 * 16; i++) {
        t.x[i] += (float)(0.1 * (test_uniform() - 0.5));
        t.y[i] += (float)(0.1 * (test_uniform() - 0.5));
        t.z[i] += (float)(0.1 * (test_uniform() - 0.5));
    }
    const skin_mesh m = mesh_of(&t);
    double boxes[6 * 32];
    chk_band_boxes(&m, 0, boxes);
    int inside = 0;
    for (int i = 0; i < 2000; i++) {
        const double pt[3] = {o[0] + 2.4 * (test_uniform() - 0.5), o[1] + 2.4 * (test_uniform() - 0.5),
                              o[2] + 1.4 * (test_uniform() - 0.5)};
        const double w = chk_winding_brute(&m, 0, pt);
        assert_close(chk_winding(&m, 0, boxes, pt), w, 1e-9);
        assert_close(w, round(w), 1e-9); /* off the skin: an integer */
        inside += w > 0.5;
    }
    assert_true(inside > 100);
    tori_free(&t);
}

/* The simulation's own rest ring (dinghy/sim.h's numbering, the program's
 * mesh): its triangles face out (winding +1 at the tube's centre line),
 * and nothing is found. */
static void test_rest_ring_of_the_simulation_is_clean(void **state)
{
    (void)state;
    sim_def d = sim_def_default();
    dinghy_sim *s = test_sim_empty(&d, 1);
    sim_ring_pose pose = {{1.0, 2.0, 3.0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    assert_true(sim_ring_valid(s, sim_add_ring(s, &pose)));
    sim_state_view st = sim_state(s);
    const skin_mesh m = {st.x, st.y, st.z, 1, sim_segments(s), sim_sides(s)};
    const double tube[3] = {1.0 + d.ring.major_radius, 2.0, 3.0};
    assert_close(chk_winding_brute(&m, 0, tube), 1.0, 1e-9);
    skin_report r;
    assert_int_equal(skin_check(&m, SKIN_CHECK_ALL, &r), 0);
    assert_int_equal(r.crossed + r.inside_other + r.inside_own, 0);
    sim_destroy(s);
}

static void test_clean_and_linked_rings(void **state)
{
    (void)state;
    tori t = tori_new(3, 32, 16);
    const double a[3] = {0, 0, 0}, b[3] = {0.8, 0, 0}, c[3] = {5, 0, 0};
    put_torus(&t, 0, a, 0.8, 0.25, 0.0);
    put_torus(&t, 1, b, 0.8, 0.25, PI / 2); /* a chain link through ring 0's hole */
    put_torus(&t, 2, c, 0.8, 0.25, 0.3);
    /* linked, but the tubes are 0.8 - 0.25 - 0.25 apart: nothing crossed */
    skin_report r = check(&t);
    assert_int_equal(r.crossed, 0);
    assert_int_equal(r.inside_other, 0);
    assert_int_equal(r.inside_own, 0);
    assert_int_equal(r.first_crossing.ring_a, -1);
    tori_free(&t);
}

/* Test of the test: two rings 0.3 m apart in their plane must be found
 * crossed (between rings, not within one) with vertices inside. */
static void test_overlapping_rings_are_found(void **state)
{
    (void)state;
    tori t = tori_new(2, 32, 16);
    const double a[3] = {0, 0, 0}, b[3] = {0.3, 0.1, 0.05};
    put_torus(&t, 0, a, 0.8, 0.25, 0.0);
    put_torus(&t, 1, b, 0.8, 0.25, 0.0);
    skin_report r = check(&t);
    char line[512];
    skin_report_describe(&r, line, sizeof line);
    printf("    overlapping: %ld crossed (%ld self), %ld inside; %s\n", r.crossed, r.crossed_self,
           r.inside_other, line);
    assert_true(r.crossed > 0);
    assert_int_equal(r.crossed_self, 0);
    assert_true(r.inside_other > 0);
    assert_int_equal(r.first_crossing.ring_a, 0);
    assert_int_equal(r.first_crossing.ring_b, 1);
    assert_int_equal(r.first_inside.other, 1 - r.first_inside.ring);
    assert_true(r.first_inside.winding > 0.5);
    assert_int_equal(r.inside_own, 0);
    tori_free(&t);
}

/* A small ring wholly inside the big one's tube: no triangle crossed,
 * every one of its vertices inside. */
static void test_ring_inside_a_tube(void **state)
{
    (void)state;
    tori t = tori_new(2, 32, 16);
    const double a[3] = {0, 0, 0}, b[3] = {0.8, 0, 0};
    put_torus(&t, 0, a, 0.8, 0.25, 0.0);
    put_torus(&t, 1, b, 0.12, 0.04, 0.7);
    skin_report r = check(&t);
    assert_int_equal(r.crossed, 0);
    assert_int_equal(r.inside_other, 32 * 16);
    assert_int_equal(r.first_inside.ring, 1);
    assert_int_equal(r.first_inside.vertex, 0);
    assert_int_equal(r.first_inside.other, 0);
    tori_free(&t);
}

/* One vertex of the top of the tube pushed down through the far (bottom)
 * wall: its triangles cross the bottom's (self), and just off its outward
 * side the own skin winds -1 (the skin turned through itself). */
static void test_vertex_through_the_far_wall(void **state)
{
    (void)state;
    const int M = 32, N = 16, m = 5, n = N / 4; /* n = N/4: the top of the tube */
    tori t = tori_new(1, M, N);
    const double o[3] = {0, 0, 0};
    put_torus(&t, 0, o, 0.8, 0.25, 0.0);
    assert_int_equal(check(&t).crossed, 0);
    const int v = m * N + n;
    t.z[v] = -0.25f - 0.05f;
    skin_report r = check(&t);
    char line[512];
    skin_report_describe(&r, line, sizeof line);
    printf("    pushed through: %ld crossed (%ld self), %ld inside own; %s\n", r.crossed,
           r.crossed_self, r.inside_own, line);
    assert_true(r.crossed > 0);
    assert_int_equal(r.crossed_self, r.crossed);
    assert_int_equal(r.inside_other, 0);
    /* the first crossing has the pushed vertex as a corner */
    int corners[3], has = 0;
    chk_triangle_corners(M, N, r.first_crossing.tri_a, corners);
    for (int i = 0; i < 3; i++)
        has |= corners[i] == v;
    chk_triangle_corners(M, N, r.first_crossing.tri_b, corners);
    for (int i = 0; i < 3; i++)
        has |= corners[i] == v;
    assert_true(has);
    /* the pushed vertex, and the bottom's vertex (5, 12) its spike
     * passes round (just below the wall, inside the spike) */
    assert_true(r.inside_own >= 1 && r.inside_own <= 2);
    assert_int_equal(r.first_own.vertex, v);
    assert_close(r.first_own.winding, -1.0, 1e-6);
    /* pushed only half way down (still inside the tube): no crossing */
    t.z[v] = 0.0f;
    r = check(&t);
    assert_int_equal(r.crossed, 0);
    tori_free(&t);
}

/* The reports' counts and first offenders are the same. */
static void assert_same_report(const skin_report *a, const skin_report *b)
{
    assert_int_equal(a->crossed, b->crossed);
    assert_int_equal(a->crossed_self, b->crossed_self);
    assert_int_equal(a->inside_other, b->inside_other);
    assert_int_equal(a->inside_own, b->inside_own);
    assert_int_equal(a->first_crossing.ring_a, b->first_crossing.ring_a);
    assert_int_equal(a->first_crossing.tri_a, b->first_crossing.tri_a);
    assert_int_equal(a->first_crossing.ring_b, b->first_crossing.ring_b);
    assert_int_equal(a->first_crossing.tri_b, b->first_crossing.tri_b);
    assert_int_equal(a->first_inside.ring, b->first_inside.ring);
    assert_int_equal(a->first_inside.vertex, b->first_inside.vertex);
    assert_int_equal(a->first_inside.other, b->first_inside.other);
}

/* CPU seconds of this process so far (all its threads). */
static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 64 rings of 32 x 16 stacked as a pile: four layers of 4 x 4, 2 cm
 * apart in a layer, each layer over the gaps of the one below and 1 cm
 * above it, so that ring boxes overlap; ring 1 moved into ring 0. Under
 * a second of CPU on one thread (CPU time: a busy machine stretches the
 * wall time, not that); the same report on 1 and 2 threads. */
static void test_64_rings_fast_and_thread_independent(void **state)
{
    (void)state;
    tori t = tori_new(64, 32, 16);
    for (int p = 0; p < 64; p++) {
        const int l = p / 16;
        const double c[3] = {2.12 * (p % 4) + 1.06 * (l % 2), 2.12 * ((p / 4) % 4) + 1.06 * (l % 2),
                             0.51 * l};
        put_torus(&t, p, c, 0.8, 0.25, 0.0);
    }
    const double into[3] = {0.3, 0.05, 0.02};
    put_torus(&t, 1, into, 0.8, 0.25, 0.0);
    const skin_mesh m = mesh_of(&t);
    skin_report r1, r2;
    omp_set_num_threads(1);
    const double c0 = cpu_seconds();
    assert_int_equal(skin_check(&m, SKIN_CHECK_ALL, &r1), 0);
    const double cpu = cpu_seconds() - c0;
    omp_set_num_threads(2);
    assert_int_equal(skin_check(&m, SKIN_CHECK_ALL, &r2), 0);
    printf("    64 rings (65536 triangles): %.3f s of CPU on 1 thread; %ld crossed, %ld inside\n",
           cpu, r2.crossed, r2.inside_other);
    assert_same_report(&r1, &r2);
    assert_true(r2.crossed > 0 && r2.inside_other > 0);
    assert_int_equal(r2.crossed_self, 0);
    assert_int_equal(r2.first_crossing.ring_a, 0);
    assert_int_equal(r2.first_crossing.ring_b, 1);
    if (!test_quick())
        assert_true(cpu < 1.0);
    tori_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orient_exact_on_degenerate_input),
        cmocka_unit_test(test_orient_against_integer_reference),
        cmocka_unit_test(test_triangles_crossing_touching_parallel),
        cmocka_unit_test(test_triangles_against_plain_reference),
        cmocka_unit_test(test_winding_inside_outside),
        cmocka_unit_test(test_rest_ring_of_the_simulation_is_clean),
        cmocka_unit_test(test_clean_and_linked_rings),
        cmocka_unit_test(test_overlapping_rings_are_found),
        cmocka_unit_test(test_ring_inside_a_tube),
        cmocka_unit_test(test_vertex_through_the_far_wall),
        cmocka_unit_test(test_64_rings_fast_and_thread_independent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
