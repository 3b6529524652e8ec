/* The rings and the wave layer together (docs/physics.md section 14, "The
 * coupling"): a drop-in's wave reaches a floating ring 2 m away when the
 * water's wave speed says and moves it; a bobbing ring radiates and
 * settles faster; a ring dragged at 1 m/s leaves a V; the same bits on
 * 1, 2, 3 and 8 threads. Still water, the program's 1/60 s step. */
#include "tests/support.h"

#include <math.h>
#include <string.h>

#include "dinghy/hands.h"
#include "dinghy/waves.h"
#include "physics/world/sim_internal.h"
#include "scenes/layout.h"

#define G 9.81
#define PI 3.14159265358979323846

/* The program's definition (1/60 s) with a wave layer of still water
 * `depth` deep over x in [x0, x1], |y| <= hy, not yet on. */
static sim_def still_def(double depth, double x0, double x1, double hy, int threads)
{
    sim_def d = sim_def_default();
    d.solver.threads = threads;
    d.world.waves_enabled = 0;
    d.world.waves.depth = depth;
    d.world.waves.centre[0] = 0.5 * (x0 + x1);
    d.world.waves.centre[1] = 0.0;
    d.world.waves.half[0] = 0.5 * (x1 - x0);
    d.world.waves.half[1] = hy;
    return d;
}

/* A ring floating at rest at (x, 0) after 3 s damped and 1 s free, on the
 * prescribed water; then the wave layer put on when `waves`. */
static dinghy_sim *floating(const sim_def *d, double x, int cap, int waves)
{
    dinghy_sim *s = test_sim_empty(d, cap);
    sim_ring_pose p = layout_pose_at(x, 0.0, d->ring.minor_radius - 0.03);
    sim_add_ring(s, &p);
    sim_def settle = *d;
    settle.solver.damping = 8.0;
    sim_set_live(s, &settle);
    assert_int_equal(sim_step(s, 180), 180);
    sim_set_live(s, d);
    sim_step(s, 60);
    char err[256];
    if (waves && sim_enable_waves(s, &d->world.waves, err, sizeof err) != 0)
        fail_msg("%s", err);
    return s;
}

/* ---- a drop-in's wave reaches a ring 2 m away ---- */

static void test_drop_reaches_ring(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: 9 s of two rings; the threads' case drops rings too */
    /* ring B floats with its tube's near edge 2 m from dropped ring A's */
    const double depth = 0.3, xb = 4.1, gap = 2.0;
    sim_def d = still_def(depth, -4.0, 9.0, 5.0, 2);
    const double edge_a = d.ring.major_radius + d.ring.minor_radius, edge_b = xb - edge_a;
    double moved[2] = {0.0, 0.0}, arrival = 0.0, impact = 0.0, peak = 0.0;
    for (int drop = 0; drop < 2; drop++) {
        dinghy_sim *s = floating(&d, xb, 2, 1);
        const double x0 = sim_rings(s)[0].centre[0], z0 = sim_rings(s)[0].centre[2];
        if (drop) {
            sim_ring_pose a = layout_pose_at(0.0, 0.0, 0.75); /* its bottom 0.5 m up */
            sim_add_ring(s, &a);
        }
        double h[300], t[300];
        for (int k = 0; k < 300; k++) {
            sim_step(s, 1);
            const sim_ring_state *r = sim_rings(s);
            if (drop && impact == 0.0 && r[1].min_z < 0.0)
                impact = sim_time(s);
            waves_point w;
            waves_sample(sim_waves(s), edge_b, 0.0, &w);
            h[k] = w.height;
            t[k] = sim_time(s);
            peak = drop && h[k] > peak ? h[k] : peak;
            moved[drop] = fmax(moved[drop], hypot(r[0].centre[0] - x0, r[0].centre[2] - z0));
        }
        for (int k = 0; drop && k < 300; k++)
            if (h[k] > 0.2 * peak) {
                arrival = t[k];
                break;
            }
        sim_destroy(s);
    }
    /* the front of long waves, sqrt(g d), the first to arrive, from the
     * outer edge of where A's displaced water goes in (SPREAD tube radii
     * round a point BESIDE tube radii out from its tube's centre line:
     * 0.625 m beyond its tube, waves_couple.c) */
    const double source = d.ring.major_radius + (1.5 + 2.0) * d.ring.minor_radius;
    const double c = sqrt(G * depth), predicted = impact + (edge_b - source) / c;
    print_message("drop-in: A in the water at %.3f s; the wave (20%% of its crest, %.2f mm) at B's "
                  "edge, %.1f m from A's, at %.3f s, predicted %.3f s (%.3f m from A's source's "
                  "edge at sqrt(g d) = %.3f m/s); B moved %.2f mm (%.3g without the drop)\n",
                  impact, 1e3 * peak, edge_b - edge_a, arrival, predicted, edge_b - source, c,
                  1e3 * moved[1], moved[0]);
    assert_true(impact > 0.0);
    assert_close(edge_b - edge_a, gap, 1e-9);
    assert_close(arrival - impact, predicted - impact, 0.05 * (predicted - impact));
    assert_true(moved[1] > 1e-3);           /* 1 mm: measurable */
    assert_true(moved[0] < 1e-6);           /* still water without the drop stays still */
}

/* ---- a bobbing ring radiates ---- */

/* The root mean square of a loaded ring's height about its rest over
 * 0.25-2 s after it was pushed 5 cm down and let go, m. */
static double bob(const sim_def *d, int waves)
{
    dinghy_sim *s = floating(d, 0.0, 1, 0);
    const double z0 = sim_rings(s)[0].centre[2];
    sim_buffer *b = &s->buf[s->cur];
    for (size_t i = 0; i < s->V; i++)
        b->z[i] -= 0.05f;
    char err[256];
    if (waves && sim_enable_waves(s, &d->world.waves, err, sizeof err) != 0)
        fail_msg("%s", err);
    double sum = 0.0;
    int n = 0;
    for (int k = 1; k <= 120; k++) {
        sim_step(s, 1);
        const double z = sim_rings(s)[0].centre[2] - z0;
        if (k > 15) {
            sum += z * z;
            n++;
        }
    }
    sim_destroy(s);
    return sqrt(sum / n);
}

static void test_bob_radiates(void **state)
{
    (void)state;
    sim_def d = still_def(1.5, -10.0, 10.0, 10.0, 2);
    /* a loaded ring (a rider's weight): its bob, 1.3 Hz, makes waves the
     * grid carries (an empty 15 kg ring bobs at 4 Hz: 9 cm waves, under a
     * cell; docs/physics.md section 14) */
    d.ring.mass = 300.0;
    const double without = bob(&d, 0), with = bob(&d, 1);
    print_message("bob of a 300 kg ring pushed 5 cm down: rms 0.25-2 s %.2f mm with the waves, "
                  "%.2f mm without (%.2f)\n", 1e3 * with, 1e3 * without, with / without);
    assert_true(with < 0.8 * without);
}

/* ---- a towed ring's V ---- */

static void test_towed_wake(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer builds: 9 s of towing; the short cases run the same code */
    const double V = 1.0;
    sim_def d = still_def(1.5, -8.0, 8.0, 6.0, 2);
    dinghy_sim *s = floating(&d, -6.0, 1, 1);
    /* the hand holds the outermost vertex on the ring's front, at its height */
    int front = 0;
    const sim_buffer *b = &s->buf[s->cur];
    for (int i = 1; i < (int)s->V; i++)
        front = b->x[i] > b->x[front] ? i : front;
    double hand[3] = {b->x[front], b->y[front], b->z[front]}, v[3] = {V, 0.0, 0.0};
    assert_int_equal(sim_grab(s, sim_ring_id_at(s, 0), front, hand), 0);
    for (int k = 0; k < 540; k++) {
        hand[0] += V * d.solver.dt;
        sim_grab_move(s, hand, v);
        sim_step(s, 1);
    }
    const double x = sim_rings(s)[0].centre[0];
    /* mean |h| along arcs 3-5 m behind the ring's centre, by angle off the track */
    double amp[46] = {0};
    for (int deg = 0; deg <= 45; deg++) {
        int count = 0;
        for (double rr = 3.0; rr <= 5.0; rr += 0.05)
            for (int side = -1; side <= 1; side += 2, count++) {
                waves_point wp;
                waves_sample(sim_waves(s), x - rr * cos(deg * PI / 180.0),
                             side * rr * sin(deg * PI / 180.0), &wp);
                amp[deg] += fabs(wp.height);
            }
        amp[deg] /= count;
    }
    /* the wedge's edge: where the mean |h| falls under half its largest */
    int crest = 0;
    double inside = 0.0, outside = 0.0, edge = 45.0;
    for (int deg = 0; deg <= 45; deg++) {
        crest = amp[deg] > amp[crest] ? deg : crest;
        inside += deg <= 20 ? amp[deg] / 21.0 : 0.0;
        outside += deg >= 30 ? amp[deg] / 16.0 : 0.0;
    }
    for (int deg = crest; deg < 45; deg++)
        if (amp[deg + 1] < 0.5 * amp[crest]) {
            edge = deg + (amp[deg] - 0.5 * amp[crest]) / (amp[deg] - amp[deg + 1]);
            break;
        }
    print_message("towed ring at 1 m/s, 9 s (its centre at x = %.2f m): mean |h| 3-5 m behind: "
                  "largest %.2f mm at %d degrees off the track, half that at %.1f degrees (the "
                  "wedge's edge; Kelvin 19.47); 0-20 deg %.3g mm, 30-45 deg %.3g mm\n",
                  x, 1e3 * amp[crest], crest, edge, 1e3 * inside, 1e3 * outside);
    assert_true(x > 1.5); /* it was towed */
    assert_close(edge, 19.47, 5.0);
    assert_true(inside > 3.0 * outside);
    sim_destroy(s);
}

/* ---- the same bits ---- */

static void test_threads_same_bits(void **state)
{
    (void)state;
    uint64_t first = 0;
    const int threads[] = {1, 2, 3, 8};
    for (int k = 0; k < 4; k++) {
        sim_def d = still_def(0.3, -4.0, 6.0, 4.0, threads[k]);
        d.world.waves_enabled = 1;
        dinghy_sim *s = test_sim_empty(&d, 2);
        sim_ring_pose a = layout_pose_at(0.0, 0.0, 0.5), b = layout_pose_at(2.5, 0.3, 0.3);
        sim_add_ring(s, &a);
        sim_add_ring(s, &b);
        assert_int_equal(sim_step(s, test_quick() ? 20 : 90), test_quick() ? 20 : 90);
        const uint64_t h = sim_hash(s);
        if (k == 0)
            first = h;
        print_message("waves on, two rings dropped, %d threads: hash %016llx\n", threads[k],
                      (unsigned long long)h);
        assert_true(h == first);
        sim_destroy(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drop_reaches_ring),
        cmocka_unit_test(test_bob_radiates),
        cmocka_unit_test(test_towed_wake),
        cmocka_unit_test(test_threads_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
