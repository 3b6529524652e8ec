/* Tests of the river world (include/dinghy/river.h): course, flow, surface,
 * solids, determinism, and the cost of one water sample. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dinghy/river.h"

#define PI 3.14159265358979323846
#define G 9.81

static river_world *make(int rocks, double waves, double chop, uint64_t seed)
{
    river_def d = river_def_default();
    d.rocks = rocks;
    d.waves = waves;
    d.chop = chop;
    d.seed = seed;
    river_world *w = river_create(&d);
    assert_non_null(w);
    return w;
}

/* unit course tangent at s */
static void tangent(const river_world *w, double s, double t[2])
{
    double a[2], b[2];
    river_point(w, s - 1e-4, 0.0, a);
    river_point(w, s + 1e-4, 0.0, b);
    double l = hypot(b[0] - a[0], b[1] - a[1]);
    t[0] = (b[0] - a[0]) / l;
    t[1] = (b[1] - a[1]) / l;
}

/* local water-line width: the wet band |n| < W/2 found by bisection on the bed */
static double width_at(const river_world *w, double s)
{
    double lo = 0.0, hi = 40.0, xy[2];
    dinghy_water_point wp;
    river_point(w, s, 0.0, xy);
    river_sample(w, xy[0], xy[1], 0.0, 0.0, &wp);
    double level = wp.height;
    for (int it = 0; it < 60; it++) {
        double m = 0.5 * (lo + hi);
        river_point(w, s, m, xy);
        if (river_ground(w, xy[0], xy[1], NULL) < level) lo = m; else hi = m;
    }
    return 2.0 * lo;
}

static double surface_speed(const river_world *w, double s, double n)
{
    double xy[2];
    dinghy_water_point wp;
    river_point(w, s, n, xy);
    river_sample(w, xy[0], xy[1], 100.0, 0.0, &wp);
    return hypot(wp.velocity[0], wp.velocity[1]);
}

/* ---- course ---- */

static void test_def_check(void **state)
{
    (void)state;
    dinghy_problem p[4];
    river_def d = river_def_default();
    assert_int_equal(river_def_check(&d, p, 4), 0);
    d.width = 2.0;
    d.speed = NAN;
    assert_int_equal(river_def_check(&d, p, 4), 2);
    assert_int_equal(p[0].offset, offsetof(river_def, speed));
    assert_int_equal(p[1].offset, offsetof(river_def, width));
    assert_true(p[1].value == 2.0 && p[1].min == 4.0 && p[1].max == 40.0);
    assert_non_null(strstr(p[1].reason, "width = 2 m"));
    assert_null(river_create(&d));
    d = river_def_default();
    d.rocks = 1000;
    assert_int_equal(river_def_check(&d, NULL, 0), 1);
}

static void test_course_points(void **state)
{
    (void)state;
    river_world *w = make(6, 0.15, 0.3, 1);
    const river_course *c = river_course_view(w);
    assert_true(c->count >= 101);
    assert_true(fabs(c->s[0]) < 1e-12);
    assert_true(fabs(c->s[c->count - 1] - river_end_s(w)) < 1e-12);
    assert_true(fabs(c->point[0]) < 1e-9 && fabs(c->point[1]) < 1e-9 && fabs(c->point[2]) < 1e-9);
    double turn = 0.0;
    for (int k = 1; k < c->count; k++) {
        const double *p = c->point + 3 * (k - 1), *q = c->point + 3 * k;
        double d = hypot(q[0] - p[0], q[1] - p[1]);
        assert_true(d <= 1.0 + 1e-9);
        assert_true(d > 0.5);
        assert_true(c->s[k] > c->s[k - 1]);
        assert_true(q[2] <= p[2] + 1e-12);   /* the surface never rises downstream */
        /* each point maps back to its own s on the centre line */
        double s, n;
        assert_int_equal(river_station(w, q[0], q[1], &s, &n), 1);
        assert_true(fabs(s - c->s[k]) < 1e-7);
        assert_true(fabs(n) < 1e-7);
        if (k >= 2) {
            const double *o = c->point + 3 * (k - 2);
            turn += atan2((p[0] - o[0]) * (q[1] - p[1]) - (p[1] - o[1]) * (q[0] - p[0]),
                          (p[0] - o[0]) * (q[0] - p[0]) + (p[1] - o[1]) * (q[1] - p[1]));
        }
    }
    /* the surface falls by the drops */
    double fall = c->point[2] - c->point[3 * (c->count - 1) + 2];
    assert_true(fabs(fall - 3 * 0.4) < 0.01);
    assert_int_equal(c->drop_count, 3);
    assert_int_equal(c->rock_count, 6);
    /* station and point are inverse across the channel */
    for (double s = 0.0; s <= 100.0; s += 3.7)
        for (double n = -9.0; n <= 9.0; n += 1.3) {
            double xy[2], s2, n2;
            river_point(w, s, n, xy);
            river_station(w, xy[0], xy[1], &s2, &n2);
            assert_true(fabs(s2 - s) < 1e-7 && fabs(n2 - n) < 1e-7);
        }
    (void)turn;
    river_destroy(w);
}

/* ---- flow ---- */

static void div3(const river_world *w, double x, double y, double z, double *div)
{
    const double h = 1e-4;   /* central differences: error h^2 u''' near the rocks */
    dinghy_water_point a, b;
    double d = 0.0;
    river_sample(w, x + h, y, z, 0.0, &a);
    river_sample(w, x - h, y, z, 0.0, &b);
    d += (a.velocity[0] - b.velocity[0]) / (2 * h);
    river_sample(w, x, y + h, z, 0.0, &a);
    river_sample(w, x, y - h, z, 0.0, &b);
    d += (a.velocity[1] - b.velocity[1]) / (2 * h);
    river_sample(w, x, y, z + h, 0.0, &a);
    river_sample(w, x, y, z - h, 0.0, &b);
    d += (a.velocity[2] - b.velocity[2]) / (2 * h);
    *div = d;
}

/* divergence at a point of the water if it is well inside; returns 0 when skipped */
static int check_div(const river_world *w, double x, double y, double sig, double *worst)
{
    double s, n;
    if (!river_station(w, x, y, &s, &n)) return 0;
    if (s < -5.0 || s > river_end_s(w) + 5.0) return 0;
    double ground = river_ground(w, x, y, NULL);
    dinghy_water_point wp;
    river_sample(w, x, y, 0.0, 0.0, &wp);
    double depth = wp.height - ground;
    if (depth < 0.3) return 0;   /* the water line, where the depth runs to 0 */
    double z = ground + sig * depth;
    if (river_solid_distance(w, x, y, z, NULL) < 0.02) return 0;
    double d;
    div3(w, x, y, z, &d);
    if (fabs(d) > *worst) *worst = fabs(d);
    return 1;
}

static void test_divergence(void **state)
{
    (void)state;
    river_world *w = make(12, 0.0, 0.0, 3);
    const river_course *c = river_course_view(w);
    double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
    for (int k = 0; k < c->count; k++) {
        x0 = fmin(x0, c->point[3 * k]); x1 = fmax(x1, c->point[3 * k]);
        y0 = fmin(y0, c->point[3 * k + 1]); y1 = fmax(y1, c->point[3 * k + 1]);
    }
    double worst = 0.0;
    long n = 0;
    for (double x = x0 - 10.0; x <= x1 + 10.0; x += 0.61)
        for (double y = y0 - 10.0; y <= y1 + 10.0; y += 0.61)
            for (int k = 0; k < 3; k++) n += check_div(w, x, y, 0.1 + 0.4 * k, &worst);
    /* densely round every rock: eddies and the cylinder's window */
    for (int r = 0; r < c->rock_count; r++) {
        const double *rk = c->rock + 4 * r;
        double R = 4.5 * rk[3];
        for (double x = rk[0] - R; x <= rk[0] + R; x += 0.093)
            for (double y = rk[1] - R; y <= rk[1] + R; y += 0.093)
                n += check_div(w, x, y, 0.5, &worst);
    }
    double limit = 1e-3 * c->speed / 12.0;
    printf("divergence: worst %.3g 1/s over %ld points (limit %.3g)\n", worst, n, limit);
    assert_true(n > 20000);
    assert_true(worst < limit);
    river_destroy(w);
}

static void test_no_flow_into_bed_and_banks(void **state)
{
    (void)state;
    river_world *w = make(6, 0.15, 0.3, 1);
    double worst = 0.0, along = 0.0;
    for (double s = -3.0; s <= 103.0; s += 0.53) {
        double W = width_at(w, s);
        for (int k = -50; k <= 50; k++) {
            double n = 0.5 * W * k / 50.0 * 0.9999;
            double xy[2], g[2];
            river_point(w, s, n, xy);
            double z = river_ground(w, xy[0], xy[1], g) + 1e-9;
            if (river_solid_distance(w, xy[0], xy[1], z + 0.01, NULL) < 0.0) continue; /* a rock */
            dinghy_water_point wp;
            river_sample(w, xy[0], xy[1], z, 1.0, &wp);
            double nl = 1.0 / sqrt(1.0 + g[0] * g[0] + g[1] * g[1]);
            double vn = (-g[0] * wp.velocity[0] - g[1] * wp.velocity[1] + wp.velocity[2]) * nl;
            worst = fmax(worst, fabs(vn));
            along = fmax(along, hypot(wp.velocity[0], wp.velocity[1]));
        }
    }
    printf("bed and banks: worst normal velocity %.3g m/s (largest along %.3g)\n", worst, along);
    assert_true(worst < 1e-6);
    assert_true(along > 1.0);
    river_destroy(w);
}

static void test_no_flow_into_rocks(void **state)
{
    (void)state;
    river_world *w = make(8, 0.15, 0.3, 5);
    const river_course *c = river_course_view(w);
    assert_true(c->rock_count >= 6);
    double worst = 0.0, round = 0.0;
    for (int r = 0; r < c->rock_count; r++) {
        const double *rk = c->rock + 4 * r;
        for (int q = 0; q < 72; q++) {
            double ang = 2 * PI * q / 72, ca = cos(ang), sa = sin(ang);
            double rr = rk[3] * (1.0 + 1e-9);
            for (double dz = 0.2; dz < 1.0; dz += 0.3) {
                dinghy_water_point wp;
                river_sample(w, rk[0] + rr * ca, rk[1] + rr * sa, rk[2] - dz, 0.0, &wp);
                worst = fmax(worst, fabs(wp.velocity[0] * ca + wp.velocity[1] * sa));
                round = fmax(round, fabs(-wp.velocity[0] * sa + wp.velocity[1] * ca));
            }
        }
    }
    printf("rocks: worst radial velocity %.3g m/s, fastest round %.3g m/s\n", worst, round);
    assert_true(worst < 1e-6);
    assert_true(round > 2.0);   /* the stream speeds up round the sides */
    river_destroy(w);
}

static void test_wake_flows_upstream(void **state)
{
    (void)state;
    river_world *w = make(8, 0.15, 0.3, 5);
    river_world *plain = make(0, 0.15, 0.3, 5);
    const river_course *c = river_course_view(w);
    for (int r = 0; r < c->rock_count; r++) {
        const double *rk = c->rock + 4 * r;
        double s, n, t[2];
        river_station(w, rk[0], rk[1], &s, &n);
        tangent(w, s, t);
        double x = rk[0] + 2.0 * rk[3] * t[0], y = rk[1] + 2.0 * rk[3] * t[1];
        dinghy_water_point wp, wq;
        river_sample(w, x, y, rk[2] - 0.3, 0.0, &wp);
        river_sample(plain, x, y, rk[2] - 0.3, 0.0, &wq);
        double u = wp.velocity[0] * t[0] + wp.velocity[1] * t[1];
        double u0 = wq.velocity[0] * t[0] + wq.velocity[1] * t[1];
        assert_true(u0 > 1.0);
        assert_true(u < -0.2 * u0);
        /* and in front of the rock the stream slows towards the stagnation point */
        river_sample(w, rk[0] - 1.2 * rk[3] * t[0], rk[1] - 1.2 * rk[3] * t[1], rk[2] - 0.3, 0.0, &wp);
        assert_true(wp.velocity[0] * t[0] + wp.velocity[1] * t[1] < 0.5 * u0);
    }
    river_destroy(w);
    river_destroy(plain);
}

static void test_speeds(void **state)
{
    (void)state;
    river_world *w = make(0, 0.15, 0.3, 1);
    const river_course *c = river_course_view(w);
    double L = river_end_s(w);
    /* the straight lead-in: the speed parameter mid-channel */
    double mid = surface_speed(w, 10.0, 0.0);
    assert_true(fabs(mid - 2.5) < 0.02 * 2.5);
    /* fastest mid-channel, slower towards the banks */
    assert_true(surface_speed(w, 10.0, 4.0) < 0.9 * mid);
    assert_true(surface_speed(w, 10.0, -5.5) < 0.7 * mid);
    for (double n = 0.5; n < 5.9; n += 0.5)
        assert_true(surface_speed(w, 10.0, n) <= surface_speed(w, 10.0, n - 0.5) + 1e-12);
    /* narrows faster, pool slower */
    assert_true(surface_speed(w, 0.25 * L, 0.0) > 1.2 * mid);
    assert_true(surface_speed(w, 0.53 * L, 0.0) < 0.8 * mid);
    /* down a drop faster than above it */
    for (int j = 0; j < c->drop_count; j++) {
        double above = surface_speed(w, c->drop_s[j] - 4.0, 0.0);
        double on = surface_speed(w, c->drop_s[j] + 0.5, 0.0);
        assert_true(on > 1.25 * above);
    }
    /* slower with depth */
    double xy[2];
    dinghy_water_point a, b;
    river_point(w, 10.0, 0.0, xy);
    river_sample(w, xy[0], xy[1], -0.1, 0.0, &a);
    river_sample(w, xy[0], xy[1], -1.4, 0.0, &b);
    assert_true(hypot(b.velocity[0], b.velocity[1]) < 0.8 * hypot(a.velocity[0], a.velocity[1]));
    /* live speed scales the flow */
    assert_int_equal(river_set_live(w, 1.25, 0.15), 0);
    assert_true(fabs(surface_speed(w, 10.0, 0.0) - 1.25) < 0.02 * 1.25);
    assert_int_equal(river_set_live(w, -1.0, 0.15), -1);
    river_destroy(w);
}

/* ---- surface ---- */

static void test_standing_wave_length(void **state)
{
    (void)state;
    const double speeds[3] = { 2.0, 2.5, 3.0 };
    for (int v = 0; v < 3; v++) {
        river_world *w = make(0, 0.1, 0.0, 2);
        river_world *flat = make(0, 0.0, 0.0, 2);
        river_set_live(w, speeds[v], 0.1);
        river_set_live(flat, speeds[v], 0.0);
        const river_course *c = river_course_view(w);
        double s0 = c->drop_s[c->drop_count - 1];   /* the last: no pool below it */
        double prev = 0.0, first = -1.0, last = -1.0;
        int crossings = 0;
        double amp = 0.0;
        for (double s = s0; s < s0 + 40.0; s += 0.005) {
            double xy[2];
            dinghy_water_point a, b;
            river_point(w, s, 0.0, xy);
            river_sample(w, xy[0], xy[1], 0.0, 3.0, &a);
            river_sample(flat, xy[0], xy[1], 0.0, 3.0, &b);
            double d = a.height - b.height;
            if (amp > 0.0 && d == 0.0) break;   /* the end of the wave train */
            amp = fmax(amp, fabs(d));
            if (fabs(d) > 1e-6 && prev != 0.0 && (d > 0) != (prev > 0)) {
                if (first < 0) first = s;
                last = s;
                crossings++;
            }
            if (fabs(d) > 1e-6) prev = d;
        }
        assert_true(crossings >= 4);
        double lambda = 2.0 * (last - first) / (crossings - 1);
        double U = surface_speed(w, 0.5 * (first + last), 0.0);
        double expect = 2.0 * PI * U * U / G;
        printf("standing waves at %.1f m/s: wavelength %.3f m, 2 pi U^2/g = %.3f m (U = %.3f), amplitude %.3f m\n",
               speeds[v], lambda, expect, U, amp);
        assert_true(fabs(lambda / expect - 1.0) < 0.1);
        assert_true(amp > 0.05 && amp < 0.15);
        river_destroy(w);
        river_destroy(flat);
    }
}

static void test_surface(void **state)
{
    (void)state;
    river_world *w = make(6, 0.15, 0.3, 1);
    /* heights: about 0 upstream, waves scale, normals unit and consistent with the slope */
    double xy[2];
    dinghy_water_point a, b, c;
    river_point(w, 5.0, 1.0, xy);
    river_sample(w, xy[0], xy[1], 0.0, 0.0, &a);
    assert_true(fabs(a.height) < 0.1);
    double worst = 0.0, moved = 0.0;
    for (double s = 1.0; s < 99.0; s += 0.77)
        for (double n = -5.0; n <= 5.0; n += 1.1) {
            river_point(w, s, n, xy);
            const double h = 1e-4;
            river_sample(w, xy[0], xy[1], 0.0, 2.0, &a);
            river_sample(w, xy[0] + h, xy[1], 0.0, 2.0, &b);
            river_sample(w, xy[0], xy[1] + h, 0.0, 2.0, &c);
            double gx = (b.height - a.height) / h, gy = (c.height - a.height) / h;
            double nl = 1.0 / sqrt(1 + gx * gx + gy * gy);
            assert_true(fabs(a.normal[0] * a.normal[0] + a.normal[1] * a.normal[1]
                             + a.normal[2] * a.normal[2] - 1.0) < 1e-12);
            worst = fmax(worst, fabs(a.normal[0] + gx * nl) + fabs(a.normal[1] + gy * nl));
            river_sample(w, xy[0], xy[1], 0.0, 2.5, &b);
            moved = fmax(moved, fabs(b.height - a.height));
        }
    printf("surface: normal vs finite-difference slope %.3g, chop moves the height by up to %.3g m\n",
           worst, moved);
    assert_true(worst < 2e-3);
    assert_true(moved > 0.01);   /* the chop travels */
    river_destroy(w);
}

/* ---- solids ---- */

static void test_solid_distance(void **state)
{
    (void)state;
    river_world *w = make(6, 0.15, 0.3, 1);
    const river_course *c = river_course_view(w);
    double g[3];
    for (int r = 0; r < c->rock_count; r++) {
        const double *rk = c->rock + 4 * r;
        assert_true(river_solid_distance(w, rk[0], rk[1], rk[2] - 0.5, g) < -0.5 * rk[3]);
        assert_true(river_solid_distance(w, rk[0] + 0.5 * rk[3], rk[1], rk[2] + 0.2 * rk[3], g) < 0.0);
        double d = river_solid_distance(w, rk[0], rk[1] + rk[3] + 0.3, rk[2] - 0.2, g);
        assert_true(fabs(d - 0.3) < 1e-9);
        assert_true(fabs(g[1] - 1.0) < 1e-9);
        /* over the top of the rock, out of the water */
        d = river_solid_distance(w, rk[0], rk[1], rk[2] + rk[3] + 0.25, g);
        assert_true(fabs(d - 0.25) < 1e-9 && fabs(g[2] - 1.0) < 1e-9);
    }
    double xy[2];
    /* beyond a bank, below its top; under the bed; in the water; above it */
    river_point(w, 10.0, 7.5, xy);
    assert_true(river_solid_distance(w, xy[0], xy[1], 0.0, g) < 0.0);
    assert_true(g[1] < 0.0);   /* the left bank pushes to the right (-y on the lead-in) */
    river_point(w, 10.0, -7.5, xy);
    assert_true(river_solid_distance(w, xy[0], xy[1], 0.0, g) < 0.0);
    assert_true(g[1] > 0.0);
    river_point(w, 10.0, 0.0, xy);
    assert_true(fabs(river_solid_distance(w, xy[0], xy[1], -1.7, g) + 0.2) < 1e-9);
    assert_true(fabs(g[2] - 1.0) < 1e-9);
    assert_true(fabs(river_solid_distance(w, xy[0], xy[1], -0.5, g) - 1.0) < 1e-9);
    assert_true(river_solid_distance(w, xy[0], xy[1], 1.0, g) > 2.4);
    /* the banks stand above the water everywhere */
    for (double s = 0.0; s <= 100.0; s += 0.5) {
        double W = width_at(w, s);
        dinghy_water_point wp;
        river_point(w, s, 0.0, xy);
        river_sample(w, xy[0], xy[1], 0.0, 0.0, &wp);
        for (int side = -1; side <= 1; side += 2) {
            river_point(w, s, side * (0.5 * W + 4.0), xy);
            assert_true(river_ground(w, xy[0], xy[1], NULL) > wp.height + 1.0);
        }
    }
    /* gradients are unit vectors everywhere */
    for (double s = -5.0; s <= 105.0; s += 0.7)
        for (double n = -12.0; n <= 12.0; n += 0.9)
            for (double z = -2.5; z <= 2.0; z += 0.9) {
                river_point(w, s, n, xy);
                river_solid_distance(w, xy[0], xy[1], z, g);
                assert_true(fabs(g[0] * g[0] + g[1] * g[1] + g[2] * g[2] - 1.0) < 1e-12);
            }
    river_destroy(w);
}

/* ---- spawning, determinism ---- */

static void test_spawn(void **state)
{
    (void)state;
    river_world *w = make(6, 0.15, 0.3, 1);
    uint64_t rng = 7, rng2 = 7;
    for (int k = 0; k < 200; k++) {
        double p[3], q[3], s, n;
        river_spawn_point(w, &rng, 1.3, p);
        river_spawn_point(w, &rng2, 1.3, q);
        assert_memory_equal(p, q, sizeof p);
        assert_int_equal(river_station(w, p[0], p[1], &s, &n), 1);
        assert_true(s >= 0.0 && s <= 20.0);
        assert_true(fabs(n) <= 6.0 - 1.3);
        dinghy_water_point wp;
        river_sample(w, p[0], p[1], 0.0, 0.0, &wp);
        assert_true(p[2] > 1.0);
        assert_true(river_solid_distance(w, p[0], p[1], p[2] - 1.3, NULL) >= 1.3 - 1e-9);
    }
    river_destroy(w);
}

static void test_determinism(void **state)
{
    (void)state;
    river_world *a = make(10, 0.15, 0.3, 42), *b = make(10, 0.15, 0.3, 42), *c = make(10, 0.15, 0.3, 43);
    const river_course *va = river_course_view(a), *vb = river_course_view(b), *vc = river_course_view(c);
    assert_int_equal(va->count, vb->count);
    assert_memory_equal(va->point, vb->point, 3 * sizeof(double) * (size_t)va->count);
    assert_memory_equal(va->width, vb->width, sizeof(double) * (size_t)va->count);
    assert_int_equal(va->rock_count, vb->rock_count);
    assert_memory_equal(va->rock, vb->rock, 4 * sizeof(double) * (size_t)va->rock_count);
    int same = va->rock_count == vc->rock_count
               && memcmp(va->rock, vc->rock, 4 * sizeof(double) * (size_t)va->rock_count) == 0;
    assert_false(same);
    for (double s = -2.0; s < 102.0; s += 0.37)
        for (double n = -8.0; n <= 8.0; n += 0.61) {
            double xy[2];
            river_point(a, s, n, xy);
            dinghy_water_point p, q;
            memset(&p, 0, sizeof p);
            memset(&q, 0, sizeof q);
            river_sample(a, xy[0], xy[1], -0.4, 1.7, &p);
            river_sample(b, xy[0], xy[1], -0.4, 1.7, &q);
            assert_memory_equal(&p, &q, sizeof p);
        }
    river_destroy(a);
    river_destroy(b);
    river_destroy(c);
}

/* ---- cost ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void test_cost(void **state)
{
    (void)state;
    river_world *w = make(6, 0.15, 0.3, 1);
    /* a crowd of ring vertices: points in the water all along the river */
    enum { NP = 4096 };
    static double pts[NP][3];
    uint64_t rng = 99;
    for (int k = 0; k < NP; k++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(rng >> 11) / 9007199254740992.0;
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(rng >> 11) / 9007199254740992.0;
        double xy[2];
        river_point(w, 100.0 * u, 10.0 * (v - 0.5), xy);
        pts[k][0] = xy[0];
        pts[k][1] = xy[1];
        pts[k][2] = -0.3 + 0.5 * v;
    }
    dinghy_water_point wp;
    double sink = 0.0, best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int it = 0; it < 50; it++)
            for (int k = 0; k < NP; k++) {
                river_sample(w, pts[k][0], pts[k][1], pts[k][2], 0.001 * it, &wp);
                sink += wp.height + wp.velocity[0];
            }
        double t1 = now();
        best = fmin(best, (t1 - t0) / (50.0 * NP) * 1e9);
    }
    printf("river_sample: %.0f ns per call (best of 5 runs of %d calls)%s\n", best, 50 * NP,
           sink == 12345.678 ? "" : "");
    river_destroy(w);
}

/* Beyond the downstream end the ground and the water are held as they are
 * at the end, not extrapolated (the cubic put the ground at -1458 m 30 m
 * past it, where the renderer and a thrown ring can look). */
static void test_beyond_the_end(void **state)
{
    (void)state;
    river_world *w = make(0, 0.15, 0.3, 1);
    const river_course *c = river_course_view(w);
    double end = c->length, xy[2];
    river_point(w, end, 0.0, xy);
    double ground_end = river_ground(w, xy[0], xy[1], NULL);
    for (double s = end; s <= end + 35.0; s += 1.0) {
        river_point(w, s, 0.0, xy);
        dinghy_water_point wp;
        river_sample(w, xy[0], xy[1], 0.0, 0.0, &wp);
        double g = river_ground(w, xy[0], xy[1], NULL);
        if (!(fabs(g - ground_end) < 0.5) || !(fabs(wp.height) < 5.0))
            fail_msg("%.0f m past the end: ground %g m (at the end %g), surface %g m", s - end, g,
                     ground_end, wp.height);
    }
    river_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_def_check),
        cmocka_unit_test(test_course_points),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_no_flow_into_bed_and_banks),
        cmocka_unit_test(test_no_flow_into_rocks),
        cmocka_unit_test(test_wake_flows_upstream),
        cmocka_unit_test(test_speeds),
        cmocka_unit_test(test_standing_wave_length),
        cmocka_unit_test(test_surface),
        cmocka_unit_test(test_solid_distance),
        cmocka_unit_test(test_spawn),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_cost),
        cmocka_unit_test(test_beyond_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
