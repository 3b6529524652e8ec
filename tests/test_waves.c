/* The wave layer (physics/water/waves.h, dinghy/waves.h) against
 * docs/physics.md section 14: the fitted dispersion, long waves at
 * sqrt(g d), a packet's group speed in deep water, the Kelvin wake of a
 * moving source, volume and energy kept with closed walls, the sponge
 * absorbing, stability at the largest step, the sources' volume, the
 * river's grid (rocks dry, the current carrying the waves) and the same
 * bits on any thread count. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dinghy/river.h"
#include "dinghy/waves.h"
#include "physics/water/waves.h"
#include "physics/water/waves_internal.h"
#include "physics/water/waves_kernel.h"
#include "tests/support.h"

#define PI 3.14159265358979323846
#define G 9.81
#define DT (1.0 / 60.0)

/* Still water of depth d over 2 hx x 2 hy m round the origin, no damping. */
static waves_field *still(double depth, double hx, double hy, int closed)
{
    waves_def d = waves_def_default();
    d.depth = depth;
    d.half[0] = hx;
    d.half[1] = hy;
    d.closed = closed;
    d.damping = 0.0;
    char err[256];
    waves_field *w = waves_create(&d, NULL, err, sizeof err);
    if (!w)
        print_error("%s\n", err);
    assert_non_null(w);
    return w;
}

static double cell_x(const waves_field *w, int i) { return w->x0 + (i + 0.5) * w->cell; }
static double cell_y(const waves_field *w, int j) { return w->y0 + (j + 0.5) * w->cell; }

/* Sets h (m) and phi (m^2/s) of every wet cell from f(x, y). */
typedef void (*field_fn)(double x, double y, const void *arg, double *h, double *phi);
static void set_field(waves_field *w, field_fn f, const void *arg)
{
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++) {
            const size_t q = waves_index(w, i, j);
            double h = 0.0, phi = 0.0;
            if (w->s[q] > 0.0f)
                f(cell_x(w, i), cell_y(w, j), arg, &h, &phi);
            w->h[q] = (float)h;
            w->phi[q] = (float)phi;
        }
}

static void run(waves_field *w, double seconds, int threads)
{
    const long n = lround(seconds / DT);
    for (long k = 0; k < n; k++)
        waves_step(w, DT, G, threads);
}

/* ---- the operator ---- */

/* The fitted kernel's phase and group speeds are within 5% of the
 * water's own over every wave number the fit covers (four directions),
 * for water from one to WAVES_DEPTH_CELLS cells deep, and exact
 * for long waves. */
static void test_kernel_dispersion(void **state)
{
    (void)state;
    const double cell = 0.15, e = 1e-4;
    double worst_phase = 0.0, worst_group = 0.0;
    for (double cells = 1.0; cells <= WAVES_DEPTH_CELLS + 1e-9; cells += 0.5) {
        const double d = cells * cell;
        waves_kernel k;
        waves_kernel_fit(d, cell, &k);
        for (int c = 0; c < k.count; c++)
            assert_true(k.weight[c] >= 0.0);
        for (double a = 0.0; a <= PI / 4 + 1e-9; a += PI / 12)
            for (double kn = 0.1; kn <= waves_kernel_fitted_k(cell); kn += 0.1) {
                const double ux = cos(a), uy = sin(a);
                const double phase = sqrt(waves_kernel_symbol(&k, kn * ux, kn * uy)
                                          / waves_dispersion(kn, d));
                const double w1 = sqrt(waves_kernel_symbol(&k, (kn + e) * ux, (kn + e) * uy));
                const double w0 = sqrt(waves_kernel_symbol(&k, (kn - e) * ux, (kn - e) * uy));
                const double group = (w1 - w0)
                    / (sqrt(waves_dispersion(kn + e, d)) - sqrt(waves_dispersion(kn - e, d)));
                worst_phase = fmax(worst_phase, fabs(phase - 1.0));
                worst_group = fmax(worst_group, fabs(group - 1.0));
            }
        const double kn = 1e-3; /* long waves: sqrt(g d), exactly */
        assert_close(waves_kernel_symbol(&k, kn, 0.0) / (d * kn * kn), 1.0, 1e-5);
    }
    print_message("kernel: worst phase speed error %.4f, group speed %.4f\n", worst_phase,
                  worst_group);
    assert_true(worst_phase < 0.05 && worst_group < 0.05);
}

/* ---- waves travelling ---- */

typedef struct {
    double amp, sigma, k, omega, x0;
} packet;

/* A ridge along y: h = amp exp(-x^2 / 2 sigma^2), at rest. */
static void ridge(double x, double y, const void *arg, double *h, double *phi)
{
    const packet *p = arg;
    (void)y;
    *h = p->amp * exp(-(x - p->x0) * (x - p->x0) / (2.0 * p->sigma * p->sigma));
    *phi = 0.0;
}

/* A packet travelling to +x: h = A e cos(k x), phi = A e (g / omega) sin(k x). */
static void travelling(double x, double y, const void *arg, double *h, double *phi)
{
    const packet *p = arg;
    (void)y;
    const double u = x - p->x0, e = p->amp * exp(-u * u / (2.0 * p->sigma * p->sigma));
    *h = e * cos(p->k * u);
    *phi = e * G / p->omega * sin(p->k * u);
}

/* Where along the middle row the largest h lies beyond x_from, m (a
 * parabola through the three cells round it). */
static double crest(const waves_field *w, double x_from)
{
    const int j = w->ny / 2;
    int best = -1;
    for (int i = 1; i + 1 < w->nx; i++)
        if (cell_x(w, i) > x_from && (best < 0 || w->h[waves_index(w, i, j)] > w->h[waves_index(w, best, j)]))
            best = i;
    const double a = w->h[waves_index(w, best - 1, j)], b = w->h[waves_index(w, best, j)];
    const double c = w->h[waves_index(w, best + 1, j)];
    return cell_x(w, best) + 0.5 * (a - c) / (a - 2.0 * b + c) * w->cell;
}

/* The centre of h^2 along x beyond x_from, m: a packet's energy, along
 * the rows within half a metre of y = 0 (the pair kernel loses its pairs
 * across a wall, so waves run slower within its reach of one). */
static double energy_centre(const waves_field *w, double x_from)
{
    double m0 = 0.0, m1 = 0.0;
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx && fabs(cell_y(w, j)) < 0.5; i++) {
            const double x = cell_x(w, i), h = w->h[waves_index(w, i, j)];
            if (x > x_from) {
                m0 += h * h;
                m1 += h * h * x;
            }
        }
    return m1 / m0;
}

/* A long hump (a ridge 2.5 m wide) on water 0.2 m deep: its two halves
 * run apart at sqrt(g d) (within 5%, measured from 3 to 7 s, once they
 * have parted). */
static void test_long_wave_speed(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: the long run; the same code runs in the short cases */
    const double d = 0.2;
    waves_field *w = still(d, 20.0, 3.0, 1);
    const packet p = {.amp = 0.01, .sigma = 2.5};
    set_field(w, ridge, &p);
    run(w, 3.0, 0);
    const double a = crest(w, 0.0);
    run(w, 4.0, 0);
    const double b = crest(w, 0.0);
    const double speed = (b - a) / 4.0;
    print_message("long wave: %.4f m/s, sqrt(g d) = %.4f m/s\n", speed, sqrt(G * d));
    assert_close(speed / sqrt(G * d), 1.0, 0.05);
    waves_destroy(w);
}

/* A packet of 0.8 m waves on water 1.5 m deep carries its energy at the
 * group speed of the layer's dispersion, (c / 2) (1 + 2 k d / sinh(2 k d))
 * with d the depth the layer models (0.375 m: 3% above deep water's half
 * phase speed), within 5% from 2 to 8 s: not at the phase speed, not at
 * sqrt(g d). */
static void test_deep_group_speed(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: the long run; the same code runs in the short cases */
    waves_field *w = still(1.5, 15.0, 3.0, 1);
    const double k = 2.0 * PI / 0.8, d = waves_model_depth(w);
    const packet p = {.amp = 0.01, .sigma = 1.5, .k = k, .omega = sqrt(G * k * tanh(k * d)), .x0 = -8.0};
    set_field(w, travelling, &p);
    run(w, 2.0, 0);
    const double a = energy_centre(w, -15.0);
    run(w, 6.0, 0);
    const double b = energy_centre(w, -15.0);
    const double group = (b - a) / 6.0, phase = p.omega / k;
    const double want = 0.5 * phase * (1.0 + 2.0 * k * d / sinh(2.0 * k * d));
    print_message("packet: group speed %.4f m/s, theory %.4f m/s (deep water %.4f, phase %.4f)\n",
                  group, want, 0.5 * sqrt(G / k), phase);
    assert_close(group / want, 1.0, 0.05);
    waves_destroy(w);
}

/* A source moving at 1 m/s over deep water (a displacement of 2 l moved
 * each step: added ahead, taken away behind) leaves the Kelvin wake: the
 * waves 4 to 8 m behind it lie in a wedge whose edge (where their mean
 * amplitude falls to half its crest's) is at 19.47 degrees off the track
 * (within 3), with 4 times more wave inside (8-20 degrees) than beyond 30.
 * Shallow water's waves could make no wedge at 1 m/s (slower than
 * sqrt(g d)). */
static void test_kelvin_wake(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: the long run; the same code runs in the short cases */
    waves_field *w = still(1.5, 14.0, 8.0, 0);
    const double V = 1.0, volume = 0.002, radius = 0.3;
    double x = -10.0;
    waves_add_volume(w, x, 0.0, radius, volume);
    for (int k = 0; k < 1200 && x < 10.0; k++) {
        waves_step(w, DT, G, 0);
        waves_add_volume(w, x, 0.0, radius, -volume);
        x += V * DT;
        waves_add_volume(w, x, 0.0, radius, volume);
    }
    /* mean |h| along arcs 4-8 m behind, by angle off the track (both sides) */
    double amp[46] = {0};
    for (int deg = 0; deg <= 45; deg++) {
        int count = 0;
        for (double r = 4.0; r <= 8.0; r += 0.05)
            for (int side = -1; side <= 1; side += 2, count++) {
                const double a = deg * PI / 180.0;
                waves_point wp;
                waves_sample(w, x - r * cos(a), side * r * sin(a), &wp);
                amp[deg] += fabs(wp.height);
            }
        amp[deg] /= count;
    }
    int crest = 5;
    double inside = 0.0, outside = 0.0;
    for (int deg = 5; deg <= 45; deg++) {
        crest = amp[deg] > amp[crest] ? deg : crest;
        inside += deg >= 8 && deg <= 20 ? amp[deg] / 13.0 : 0.0;
        outside += deg >= 30 ? amp[deg] / 16.0 : 0.0;
    }
    double edge = 45.0;
    for (int deg = crest; deg < 45; deg++)
        if (amp[deg + 1] < 0.5 * amp[crest]) {
            edge = deg + (amp[deg] - 0.5 * amp[crest]) / (amp[deg] - amp[deg + 1]);
            break;
        }
    print_message("Kelvin wake: crest at %d degrees, edge (half its amplitude) at %.1f degrees; "
                  "mean |h| 8-20 deg %.3g m, 30-45 deg %.3g m\n", crest, edge, inside, outside);
    assert_close(edge, 19.47, 3.0);
    assert_true(inside > 4.0 * outside);
    waves_destroy(w);
}

/* ---- what the step keeps ---- */

/* The sum over the cells of h K phi times the cell's area, m^5/s (the
 * kernel's pairs in double). */
static double h_k_phi(const waves_field *w)
{
    const waves_taps *t = &w->taps;
    double sum = 0.0;
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++) {
            const size_t q = waves_index(w, i, j);
            double k = 0.0;
            for (int c = 0; c < t->classes; c++)
                for (int o = t->first[c]; o < t->first[c + 1]; o++) {
                    const size_t r = (size_t)((ptrdiff_t)q + t->off[o]);
                    k += t->weight[c] * (double)w->s[r] * ((double)w->phi[q] - w->phi[r]);
                }
            sum += w->h[q] * w->s[q] * k;
        }
    return sum * w->cell * w->cell;
}

/* What symplectic Euler keeps exactly on a linear system (h from phi,
 * then phi from the new h, substeps of dt): E + (g dt / 2) sum h K phi
 * (docs/physics.md section 14); E itself wobbles by about omega dt / 2. */
static double kept_energy(const waves_field *w, double dt)
{
    return waves_energy(w, G) + 0.5 * G * dt * h_k_phi(w);
}

/* A bump of water and a moving pattern, closed walls, no damping: the
 * volume is kept to round-off for 10 s (1 s in the sanitizer builds) (a millionth of the water moved),
 * and so is the energy symplectic Euler keeps (a millionth). */
static void mixed(double x, double y, const void *arg, double *h, double *phi)
{
    (void)arg;
    *h = 0.03 * exp(-((x - 1.0) * (x - 1.0) + y * y) / 0.5) + 0.01 * sin(2.0 * x) * cos(3.0 * y);
    *phi = 0.02 * cos(1.5 * x + 0.5 * y) * exp(-(x * x + y * y) / 8.0);
}
static void test_closed_volume_energy(void **state)
{
    (void)state;
    waves_field *w = still(0.3, 6.0, 5.0, 1);
    set_field(w, mixed, NULL);
    double moved = 0.0;
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++)
            moved += fabs(w->h[waves_index(w, i, j)]) * w->cell * w->cell;
    const double dt = DT / waves_substeps(w, DT, G);
    const double v0 = waves_volume(w), e0 = kept_energy(w, dt), plain0 = waves_energy(w, G);
    double emin = e0, emax = e0, pmin = plain0, pmax = plain0;
    for (int k = 0; k < (test_quick() ? 1 : 10); k++) {
        run(w, 1.0, 0);
        const double e = kept_energy(w, dt), p = waves_energy(w, G);
        emin = fmin(emin, e);
        emax = fmax(emax, e);
        pmin = fmin(pmin, p);
        pmax = fmax(pmax, p);
    }
    const double v1 = waves_volume(w);
    print_message("closed: volume %.9g -> %.9g m^3 (moved %.4g); kept energy %.7f .. %.7f of the "
                  "start, plain energy %.4f .. %.4f\n", v0, v1, moved, emin / e0, emax / e0,
                  pmin / plain0, pmax / plain0);
    assert_true(fabs(v1 - v0) <= 1e-6 * moved);
    assert_true(emin > (1.0 - 1e-5) * e0 && emax < (1.0 + 1e-5) * e0);
    waves_destroy(w);
}

/* The test binary's calloc (linked with --wrap=calloc, Makefile): every
 * call from the n-th on fails while fail_from >= 0. */
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
static long calloc_fail_from = -1, calloc_calls;
void *__wrap_calloc(size_t n, size_t size)
{
    if (calloc_fail_from >= 0 && calloc_calls++ >= calloc_fail_from)
        return NULL;
    return __real_calloc(n, size);
}

/* A hump of 2 cm on still water 0.5 m deep, walls round. */
static void hump(double x, double y, const void *arg, double *h, double *phi)
{
    (void)arg;
    *h = 0.02 * exp(-(x * x + y * y) / 0.1);
    *phi = 0.0;
}

/* Memory running out at any allocation of making the layer or of its
 * step (on 2 threads: the step makes the second thread's rows as it
 * first runs): the layer is not made and says why, or it is made and its
 * hump spreads. Never a layer that stands still (the step once made its
 * rows only when it first ran, and stood still, silently, when it could
 * not). */
static void test_out_of_memory_never_stands_still(void **state)
{
    (void)state;
    int made = 0, refused = 0;
    for (long k = 0; k < 40; k++) {
        waves_def d = waves_def_default();
        d.depth = 0.5;
        d.half[0] = d.half[1] = 2.0;
        d.closed = 1;
        d.damping = 0.0;
        char err[256] = "";
        calloc_calls = 0;
        calloc_fail_from = k;
        waves_field *w = waves_create(&d, NULL, err, sizeof err);
        if (!w) {
            calloc_fail_from = -1;
            assert_true(strlen(err) > 0);
            refused++;
            continue;
        }
        made++;
        set_field(w, hump, NULL);
        const size_t mid = waves_index(w, w->nx / 2, w->ny / 2);
        const float h0 = w->h[mid];
        for (int n = 0; n < 30; n++)
            waves_step(w, DT, G, 2);
        calloc_fail_from = -1;
        const float h1 = w->h[mid];
        if (!(fabsf(h1 - h0) > 0.1f * h0))
            print_error("calloc %ld on failed: the hump stood at %g m (from %g)\n", k, h1, h0);
        assert_true(fabsf(h1 - h0) > 0.1f * h0);
        waves_destroy(w);
    }
    print_message("out of memory: %d layers refused with a reason, %d made and stepping\n",
                  refused, made);
    assert_true(refused > 0 && made > 0);
}

/* The same packet as the group-speed test run into an open edge: the
 * sponge takes at least 97% of its energy; with walls at least 97% stays. */
static void test_sponge_absorbs(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: the long run; the same code runs in the short cases */
    double left[2];
    for (int closed = 0; closed <= 1; closed++) {
        waves_field *w = still(1.5, 8.0, 1.5, closed);
        const double k = 2.0 * PI / 1.2;
        const packet p = {.amp = 0.01, .sigma = 1.0, .k = k, .omega = sqrt(G * k * tanh(1.5 * k)), .x0 = 2.0};
        set_field(w, travelling, &p);
        const double e0 = waves_energy(w, G);
        run(w, 25.0, 0);
        left[closed] = waves_energy(w, G) / e0;
        waves_destroy(w);
    }
    print_message("packet into the edge: %.4f of its energy left with a sponge, %.4f with walls\n",
                  left[0], left[1]);
    assert_true(left[0] < 0.03);
    assert_true(left[1] > 0.97);
}

/* Noise in every cell (every wave number up to the grid's) at the largest
 * step the core runs (0.1 s) and at 0.4 s, where one step would be far
 * past the bound (omega_max dt about 7 > 2): the substeps keep it stable.
 * The energy symplectic Euler keeps stays what it was (to 1e-5) and no
 * height grows past 5 times the start's largest in 300 steps (near the
 * bound the step's ellipse lets a mode's height swing up to 1 / sqrt(1 -
 * (omega dt / 2)^2) of its mean, about 2; an unstable mode grows by a
 * factor every step). */
static void noise(double x, double y, const void *arg, double *h, double *phi)
{
    (void)x;
    (void)y;
    (void)arg;
    *h = 0.01 * (test_uniform() - 0.5);
    *phi = 0.002 * (test_uniform() - 0.5);
}
static double largest_height(const waves_field *w)
{
    double m = 0.0;
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++)
            m = fmax(m, fabs(w->h[waves_index(w, i, j)]));
    return m;
}
static void test_stable_at_largest_step(void **state)
{
    (void)state;
    const double steps[2] = {0.1, 0.4};
    for (int s = 0; s < 2; s++) {
        waves_field *w = still(1.5, 4.0, 4.0, 1);
        set_field(w, noise, NULL);
        const double h0 = largest_height(w);
        const double sub = steps[s] / waves_substeps(w, steps[s], G), e0 = kept_energy(w, sub);
        double hmax = 0.0;
        for (int k = 0; k < (test_quick() ? 30 : 300); k++) {
            waves_step(w, steps[s], G, 0);
            hmax = fmax(hmax, largest_height(w));
        }
        const double omega = sqrt(G * w->lambda_max), e1 = kept_energy(w, sub);
        print_message("dt %.2f s (omega_max dt %.2f): %d substeps, largest height %.3f of the "
                      "start's, kept energy %.7f of the start\n", steps[s], omega * steps[s],
                      waves_substeps(w, steps[s], G), hmax / h0, e1 / e0);
        assert_true(hmax < 5.0 * h0);
        assert_close(e1 / e0, 1.0, 1e-5);
        if (s == 1)
            assert_true(omega * steps[s] > 4.0 && waves_substeps(w, steps[s], G) > 1);
        waves_destroy(w);
    }
}

/* ---- sources ---- */

/* Volume added at a point, spread or bilinear, is the layer's to
 * round-off; none goes onto dry land. */
static void test_source_volume(void **state)
{
    (void)state;
    waves_field *w = still(1.0, 3.0, 3.0, 0);
    const double v0 = waves_volume(w);
    assert_close(waves_add_volume(w, 0.3, -0.2, 0.4, 0.004), 0.004, 0.0);
    assert_close(waves_volume(w) - v0, 0.004, 1e-9);
    assert_close(waves_add_volume(w, -1.1, 0.7, 0.05, -0.001), -0.001, 0.0);
    assert_close(waves_volume(w) - v0, 0.003, 1e-9);
    /* off the layer: nothing */
    assert_close(waves_add_volume(w, 10.0, 0.0, 0.4, 0.004), 0.0, 0.0);
    assert_close(waves_volume(w) - v0, 0.003, 1e-9);
    /* the height rises where it was added, most at the centre */
    waves_point a, b;
    waves_sample(w, 0.3, -0.2, &a);
    waves_sample(w, 0.6, -0.2, &b);
    assert_true(a.height > b.height && b.height > 0.0);
    waves_destroy(w);
}

/* ---- the river ---- */

static river_world *river(void)
{
    river_def d = river_def_default();
    river_world *r = river_create(&d);
    assert_non_null(r);
    return r;
}

static waves_field *on_river(const river_world *r)
{
    waves_def d = waves_def_default();
    char err[256];
    waves_field *w = waves_create(&d, r, err, sizeof err);
    if (!w)
        print_error("%s\n", err);
    assert_non_null(w);
    return w;
}

/* The grid covers the course: its water is wet, the rocks and the land
 * beyond the banks dry; the depth fitted is the cap (the channel is
 * deeper). */
static void test_river_grid(void **state)
{
    (void)state;
    river_world *r = river();
    waves_field *w = on_river(r);
    assert_close(waves_model_depth(w), WAVES_DEPTH_CELLS * w->cell, 1e-9); /* the channel's 1.5 m, capped */
    assert_true(waves_model_error(w) < 0.05);
    const river_course *c = river_course_view(r);
    for (double s = 2.0; s < c->length - 2.0; s += 7.0) {
        double xy[2], fx, fy;
        river_point(r, s, 0.0, xy);
        fx = (xy[0] - w->x0) / w->cell - 0.5;
        fy = (xy[1] - w->y0) / w->cell - 0.5;
        const int i = (int)lround(fx), j = (int)lround(fy);
        if (river_solid_distance(r, xy[0], xy[1], 0.0 + c->point[3 * (int)s + 2], NULL) > 0.5)
            assert_true(w->s[waves_index(w, i, j)] > 0.9f);
        river_point(r, s, 0.5 * c->width[(int)s] + 3.0, xy); /* land */
        const int li = (int)floor((xy[0] - w->x0) / w->cell), lj = (int)floor((xy[1] - w->y0) / w->cell);
        if (li >= 0 && li < w->nx && lj >= 0 && lj < w->ny)
            assert_true(w->s[waves_index(w, li, lj)] == 0.0f);
    }
    for (int k = 0; k < c->rock_count; k++) {
        const double *rk = c->rock + 4 * k;
        const int i = (int)floor((rk[0] - w->x0) / w->cell), j = (int)floor((rk[1] - w->y0) / w->cell);
        assert_true(w->s[waves_index(w, i, j)] == 0.0f);
        /* water put at the rock's centre goes nowhere: all of it is dry */
        assert_close(waves_add_volume(w, rk[0], rk[1], 0.5 * rk[3], 0.001), 0.0, 0.0);
    }
    waves_destroy(w);
    river_destroy(r);
}

/* With gravity off the layer only carries: a mound of water in the
 * straight lead-in rides the current, the centre of its volume moving
 * downstream at the river's surface speed there (within 5% over 1 s). */
static void test_river_carries(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: the long run; the same code runs in the short cases */
    river_world *r = river();
    waves_field *w = on_river(r);
    double xy[2], t[2], b[2];
    river_point(r, 8.0, 0.0, xy);
    river_point(r, 8.1, 0.0, b);
    t[0] = (b[0] - xy[0]) / 0.1;
    t[1] = (b[1] - xy[1]) / 0.1;
    dinghy_water_point wp;
    river_sample(r, xy[0], xy[1], 1.0, 0.0, &wp);
    const double U = wp.velocity[0] * t[0] + wp.velocity[1] * t[1];
    waves_add_volume(w, xy[0], xy[1], 1.0, 0.02);
    double start = 0.0, end = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        double m0 = 0.0, m1 = 0.0;
        for (int j = 0; j < w->ny; j++)
            for (int i = 0; i < w->nx; i++) {
                const double h = w->h[waves_index(w, i, j)];
                m0 += h;
                m1 += h * ((cell_x(w, i) - xy[0]) * t[0] + (cell_y(w, j) - xy[1]) * t[1]);
            }
        *(pass ? &end : &start) = m1 / m0;
        for (int k = 0; k < 60 && !pass; k++)
            waves_step(w, DT, 0.0, 0);
    }
    const double speed = end - start;
    print_message("mound on the river: carried at %.3f m/s, the surface current %.3f m/s\n", speed, U);
    assert_close(speed / U, 1.0, 0.05);
    waves_destroy(w);
    river_destroy(r);
}

/* The river's layer with sources, stepped on 1, 2, 3 and 8 threads: the
 * same bits (1 and 2, 10 steps, in the sanitizer builds). */
static void test_threads_same_bits(void **state)
{
    (void)state;
    river_world *r = river();
    const int threads[4] = {1, 2, 3, 8};
    float *first = NULL;
    size_t n = 0;
    for (int t = 0; t < (test_quick() ? 2 : 4); t++) {
        waves_field *w = on_river(r);
        const river_course *c = river_course_view(r);
        for (int k = 0; k < (test_quick() ? 10 : 60); k++) {
            for (int q = 0; q < 5; q++) {
                double xy[2];
                river_point(r, 5.0 + 18.0 * q + 0.1 * k, 2.0 * sin(q + 0.2 * k), xy);
                waves_add_volume(w, xy[0], xy[1], 0.4, 0.001 * sin(0.3 * k + q));
            }
            waves_step(w, DT, G, threads[t]);
        }
        (void)c;
        n = w->stride * (size_t)(w->ny + 2 * w->pad);
        if (!first) {
            first = malloc(2 * n * sizeof(float));
            memcpy(first, w->h, n * sizeof(float));
            memcpy(first + n, w->phi, n * sizeof(float));
        } else {
            assert_memory_equal(first, w->h, n * sizeof(float));
            assert_memory_equal(first + n, w->phi, n * sizeof(float));
        }
        waves_destroy(w);
    }
    free(first);
    river_destroy(r);
}

/* ---- the definition ---- */

static void test_def_check(void **state)
{
    (void)state;
    waves_def d = waves_def_default();
    assert_int_equal(waves_def_check(&d, NULL, 0), 0);
    dinghy_problem p[4];
    d.cell = 0.0;
    assert_int_equal(waves_def_check(&d, p, 4), 1);
    assert_int_equal(p[0].offset, offsetof(waves_def, cell));
    d = waves_def_default();
    d.damping = -1.0;
    d.depth = NAN;
    assert_int_equal(waves_def_check(&d, p, 4), 2);
    d = waves_def_default();
    d.cell = 0.02;
    d.half[0] = d.half[1] = 400.0; /* 1.6e9 cells */
    assert_int_equal(waves_def_check(&d, p, 4), 1);
    assert_non_null(strstr(p[0].reason, "cells"));
    char err[256];
    assert_null(waves_create(&d, NULL, err, sizeof err));
    assert_non_null(strstr(err, "cells"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_def_check),
        cmocka_unit_test(test_kernel_dispersion),
        cmocka_unit_test(test_long_wave_speed),
        cmocka_unit_test(test_deep_group_speed),
        cmocka_unit_test(test_kelvin_wake),
        cmocka_unit_test(test_closed_volume_energy),
        cmocka_unit_test(test_out_of_memory_never_stands_still),
        cmocka_unit_test(test_sponge_absorbs),
        cmocka_unit_test(test_stable_at_largest_step),
        cmocka_unit_test(test_source_volume),
        cmocka_unit_test(test_river_grid),
        cmocka_unit_test(test_river_carries),
        cmocka_unit_test(test_threads_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
