/* Spray particles (include/dinghy/spray.h): free flight against the closed form
 * of gravity with linear drag, kept out of the ring tubes, dead in the
 * water or at the end of their life, within the budget, thrown where the
 * river breaks, and bit-identical for 1, 2 and 3 threads. */
#include "tests/support.h"

#include "dinghy/river.h"
#include "dinghy/spray.h"
#include "physics/contact/inside.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAME (1.0 / 60.0) /* s, a demo frame */

/* Steps of the core in one frame, and the simulated time they make, s. */
static long frame_steps(const dinghy_sim *s)
{
    return lround(FRAME / sim_get_def(s)->solver.dt);
}

static double frame_dt(const dinghy_sim *s)
{
    return (double)frame_steps(s) * sim_get_def(s)->solver.dt;
}

/* One demo frame: the core, then the spray (from that step's events). */
static void frame(dinghy_sim *s, spray_system *sp, int threads)
{
    assert_int_equal(sim_step(s, frame_steps(s)), frame_steps(s));
    spray_step(sp, s, frame_dt(s), threads);
}

static test_params scene(const char *name, int count)
{
    test_params p = test_physical();
    p.scene.index = scene_index(name);
    assert_true(p.scene.index >= 0);
    p.scene.count = count;
    return p;
}

static spray_system *make_spray(int budget, double lifetime)
{
    spray_def d = spray_def_default();
    d.budget = budget;
    d.lifetime = lifetime;
    spray_system *sp = spray_create(&d, 12345);
    assert_non_null(sp);
    return sp;
}

/* The tubes measured here on their own: per row (segment) the centre
 * (mean of its N vertices) and the mean vertex distance from it, 4 doubles
 * a row (malloc'ed). */
static double *tube_rows(const dinghy_sim *s)
{
    int P = sim_ring_count(s), M = sim_segments(s), N = sim_sides(s);
    sim_state_view st = sim_state(s);
    double *c = malloc(sizeof *c * 4 * (size_t)P * M);
    assert_non_null(c);
    for (int r = 0; r < P * M; r++) {
        double *q = c + 4 * r;
        q[0] = q[1] = q[2] = q[3] = 0.0;
        for (int n = 0; n < N; n++) {
            size_t i = (size_t)r * N + n;
            q[0] += st.x[i] / N;
            q[1] += st.y[i] / N;
            q[2] += st.z[i] / N;
        }
        for (int n = 0; n < N; n++) {
            size_t i = (size_t)r * N + n;
            q[3] += sqrt((st.x[i] - q[0]) * (st.x[i] - q[0]) + (st.y[i] - q[1]) * (st.y[i] - q[1])
                         + (st.z[i] - q[2]) * (st.z[i] - q[2])) / N;
        }
    }
    return c;
}

/* Deepest a particle is inside a ring's tube, m (> 0 inside): the
 * polyline of tube_rows' centres with their radius interpolated along
 * each piece. */
static double deepest_inside(const dinghy_sim *s, const spray_system *sp)
{
    int P = sim_ring_count(s), M = sim_segments(s);
    double *c = tube_rows(s);
    spray_view v = spray_particles(sp);
    double worst = -INFINITY;
    for (size_t i = 0; i < v.count; i++)
        for (int p = 0; p < P; p++)
            for (int m = 0; m < M; m++) {
                const double *a = c + 4 * (p * M + m), *b = c + 4 * (p * M + (m + 1) % M);
                double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                double ap[3] = {v.x[i] - a[0], v.y[i] - a[1], v.z[i] - a[2]};
                double t = (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2])
                           / (ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]);
                t = fmin(1.0, fmax(0.0, t));
                double d = sqrt(pow(ap[0] - t * ab[0], 2) + pow(ap[1] - t * ab[1], 2)
                                + pow(ap[2] - t * ab[2], 2));
                worst = fmax(worst, a[3] + t * (b[3] - a[3]) - d);
            }
    free(c);
    return worst;
}

/* A droplet thrown high in still air far from the rings: dv/dt = g - k v
 * gives v(t) = v_inf + (v0 - v_inf) e^{-kt}, v_inf = (0, 0, -g/k), and
 * x(t) = x0 + v_inf t + (v0 - v_inf)(1 - e^{-kt}) / k. The velocity update
 * is that solution, so it must match to float rounding (1e-3 m/s); the
 * position moves with the step's end velocity (symplectic Euler), which
 * for a monotone velocity lags at most dt |v(t) - v0| per component. */
static void test_free_flight_follows_the_drag_law(void **state)
{
    (void)state;
    test_params tp = scene("single", 1);
    dinghy_sim *s = test_sim(&tp);
    spray_system *sp = make_spray(16, 100.0);
    const double k = spray_def_default().drag_rate, g = sim_get_def(s)->world.gravity;
    const double x0[3] = {100.0, -50.0, 60.0}, v0[3] = {3.0, -2.0, 8.0};
    assert_int_equal(spray_emit(sp, x0, v0, 1), 1);
    double dt = frame_dt(s), t = 0.0;
    for (int f = 0; f < 120; f++, t += dt)
        spray_step(sp, s, dt, 1); /* the rings stay where they are: no need to step them */
    assert_int_equal(spray_count(sp), 1);
    double vinf[3] = {0.0, 0.0, -g / k}, e = exp(-k * t), v[3];
    spray_velocity(sp, 0, v);
    spray_view pv = spray_particles(sp);
    double x[3] = {pv.x[0], pv.y[0], pv.z[0]};
    for (int c = 0; c < 3; c++) {
        double ve = vinf[c] + (v0[c] - vinf[c]) * e;
        double xe = x0[c] + vinf[c] * t + (v0[c] - vinf[c]) * (1.0 - e) / k;
        print_message("    %c after %.2f s: v %.5f m/s (closed form %.5f), x %.4f m (closed form "
                      "%.4f, lag allowed %.4f)\n", "xyz"[c], t, v[c], ve, x[c], xe,
                      dt * fabs(ve - v0[c]));
        assert_true(fabs(v[c] - ve) < 1e-3);
        assert_true(fabs(x[c] - xe) < dt * fabs(ve - v0[c]) + 1e-3);
    }
    spray_destroy(sp);
    sim_destroy(s);
}

/* Live droplets inside a ring's skin: the winding number of its closed
 * mesh about the droplet over 0.5 (physics/contact/inside.h, the test the
 * contact's own tests use), for droplets within the ring's reach of its
 * centre. */
static int inside_a_skin(const dinghy_sim *s, const spray_system *sp)
{
    int P = sim_ring_count(s), M = sim_segments(s), N = sim_sides(s), inside = 0;
    double reach = sim_get_def(s)->ring.major_radius + 2.0 * sim_get_def(s)->ring.minor_radius;
    sim_state_view st = sim_state(s);
    spray_view v = spray_particles(sp);
    for (int p = 0; p < P; p++) {
        const double *c = sim_rings(s)[p].centre;
        size_t base = (size_t)p * M * N;
        for (size_t i = 0; i < v.count; i++) {
            double pt[3] = {v.x[i], v.y[i], v.z[i]};
            if (hypot(hypot(pt[0] - c[0], pt[1] - c[1]), pt[2] - c[2]) > reach)
                continue;
            if (mesh_winding_number(M, N, st.x + base, st.y + base, st.z + base, pt) > 0.5)
                inside++;
        }
    }
    return inside;
}

/* Showers of droplets shot down onto rings and sideways into their tubes
 * while they fall, land and bob, with skin contact (the rings pressed
 * together in lake): every 0.1 s of simulated time no live droplet is
 * inside a skin (by its winding number), and a lone ring's round tube
 * (measured independently here) has none more than 1 mm inside after any
 * step. Where skins press together their round tubes overlap beyond the
 * flattened skins, so there a droplet between two skins is inside a tube
 * without being inside a ring: the skins are what counts. */
static void stay_out_of(const char *name, int count)
{
    test_params tp = scene(name, count);
    assert_int_equal(tp.def.ring.contact, SIM_CONTACT_SKIN); /* the default */
    dinghy_sim *s = test_sim(&tp);
    spray_system *sp = make_spray(4096, 2.0);
    double worst = -INFINITY;
    int frames = test_quick() ? 30 : 150, checks = 0, in_skin = 0; /* quick: the sanitizers' */
    for (int f = 0; f < frames; f++) {
        const sim_ring_state *rs = sim_rings(s);
        for (int r = 0; r < sim_ring_count(s); r++) {
            for (int k = 0; k < 8; k++) {
                double a = 0.785398 * k + 0.1 * f, R = sim_get_def(s)->ring.major_radius;
                double down[3] = {rs[r].centre[0] + R * cos(a), rs[r].centre[1] + R * sin(a),
                                  rs[r].max_z + 0.3};
                double vd[3] = {0.0, 0.0, -6.0};
                double side[3] = {rs[r].centre[0] + 2.5 * R * cos(a),
                                  rs[r].centre[1] + 2.5 * R * sin(a), rs[r].centre[2] + 0.05};
                double vs[3] = {-8.0 * cos(a), -8.0 * sin(a), 0.0};
                spray_emit(sp, down, vd, 1);
                spray_emit(sp, side, vs, 1);
            }
        }
        frame(s, sp, 2);
        worst = fmax(worst, deepest_inside(s, sp));
        assert_true(spray_count(sp) <= spray_budget(sp));
        if (f % 6 == 5) { /* every 0.1 s */
            int in = inside_a_skin(s, sp);
            checks++;
            if (in)
                print_message("    %s: %d droplets inside a skin at t = %.2f s\n", name, in, sim_time(s));
            in_skin += in;
        }
    }
    print_message("    %s: deepest a droplet ended inside a tube: %.3g m (1 mm allowed for a "
                  "lone ring); inside a skin: %d in %d checks every 0.1 s\n", name, worst, in_skin,
                  checks);
    assert_true(count > 1 || worst < 1e-3);
    assert_int_equal(in_skin, 0);
    spray_destroy(sp);
    sim_destroy(s);
}

static void test_droplets_stay_out_of_the_rings(void **state)
{
    (void)state;
    stay_out_of("single", 1);
    stay_out_of("lake", 4);
}

/* A droplet shot down and along onto the top of a floating ring's tube
 * comes off with its normal speed times -restitution and its tangential
 * speed times (1 - friction), relative to the ring (nearly at rest here),
 * the normal being the tube's where it ends (its distance from the
 * nearest centre-line point, found here on its own): within 0.1 m/s (the
 * ring's bobbing). */
static void test_droplets_bounce_off_a_ring(void **state)
{
    (void)state;
    test_params tp = scene("single", 1);
    dinghy_sim *s = test_sim(&tp);
    assert_int_equal(sim_step(s, 4000), 4000); /* dropped in and settled */
    sim_step(s, 0); /* a call of no steps: none of the fall's events */
    double *rows = tube_rows(s);
    spray_system *sp = make_spray(16, 10.0);
    spray_def d = spray_def_default();
    const double vin[3] = {1.0, 0.5, -4.0}, dt = frame_dt(s);
    const double g = sim_get_def(s)->world.gravity, e = exp(-d.drag_rate * dt);
    double pos[3] = {rows[0], rows[1], rows[2] + rows[3] + 0.03};
    spray_emit(sp, pos, vin, 1);
    spray_step(sp, s, dt, 1); /* the ring stays put: only the spray moves */
    assert_int_equal(spray_count(sp), 1);
    /* where it ends: the normal from row 0's or its neighbours' centre line */
    spray_view pv = spray_particles(sp);
    double p[3] = {pv.x[0], pv.y[0], pv.z[0]}, n[3], best = INFINITY;
    int M = sim_segments(s);
    for (int m = M - 1; m <= M + 1; m++) {
        const double *a = rows + 4 * (m % M), *b = rows + 4 * ((m + 1) % M);
        double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double t = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1] + (p[2] - a[2]) * ab[2])
                   / (ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]);
        t = fmin(1.0, fmax(0.0, t));
        double q[3] = {p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1], p[2] - a[2] - t * ab[2]};
        double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        if (len < best)
            for (int k = 0; k < 3; k++)
                n[k] = q[k] / (best = len);
    }
    free(rows);
    /* the velocity it arrived with (free flight over the frame), then the bounce */
    double u[3] = {vin[0] * e, vin[1] * e, vin[2] * e - g * (1.0 - e) / d.drag_rate}, v[3];
    double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2], worst = 0.0;
    assert_true(un < -3.0); /* it did come down onto the tube */
    spray_velocity(sp, 0, v);
    for (int k = 0; k < 3; k++) {
        double want = (1.0 - d.friction) * (u[k] - un * n[k]) - d.restitution * un * n[k];
        worst = fmax(worst, fabs(v[k] - want));
    }
    print_message("    in (%.2f, %.2f, %.2f) m/s, out (%.2f, %.2f, %.2f) m/s, off the law by "
                  "%.3f m/s\n", u[0], u[1], u[2], v[0], v[1], v[2], worst);
    assert_true(worst < 0.1);
    spray_destroy(sp);
    sim_destroy(s);
}

/* Droplets fall back into still water and vanish; in the air they vanish
 * at the end of their life; a paused frame (dt = 0) changes nothing. */
static void test_droplets_die_in_the_water_and_with_age(void **state)
{
    (void)state;
    test_params tp = scene("single", 1);
    dinghy_sim *s = test_sim(&tp);
    spray_system *sp = make_spray(64, 100.0);
    double level = sim_get_def(s)->world.water.level;
    const double pos[3] = {50.0, 50.0, level + 1.0}, vel[3] = {1.0, 0.0, 0.0};
    assert_int_equal(spray_emit(sp, pos, vel, 10), 10);
    uint64_t before = spray_hash(sp);
    spray_step(sp, s, 0.0, 1);
    assert_true(spray_hash(sp) == before);
    /* from 1 m up: sqrt(2 h / g) = 0.45 s without drag, a little more with it */
    int frames = 0;
    while (spray_count(sp) > 0 && frames < 120) {
        spray_step(sp, s, frame_dt(s), 1);
        frames++;
    }
    print_message("    dropped from 1 m: gone after %d frames (%.2f s)\n", frames,
                  frames * frame_dt(s));
    assert_int_equal(spray_count(sp), 0);
    assert_true(frames * frame_dt(s) > 0.4 && frames * frame_dt(s) < 0.7);
    spray_destroy(sp);
    /* high in the air, lifetime 0.5 s */
    sp = make_spray(64, 0.5);
    const double high[3] = {50.0, 50.0, level + 500.0};
    spray_emit(sp, high, vel, 10);
    for (int f = 0; f < 29; f++)
        spray_step(sp, s, frame_dt(s), 1);
    assert_int_equal(spray_count(sp), 10);
    for (int f = 0; f < 2; f++)
        spray_step(sp, s, frame_dt(s), 1);
    assert_int_equal(spray_count(sp), 0);
    spray_destroy(sp);
    sim_destroy(s);
}

/* A ring dropped on still water splashes: the frame of the splash throws
 * splash_gain x vertices x speed droplets (at most event_max) per splash
 * event, all round that ring (within its outer radius + 0.3 m of its
 * centre, horizontally) and above the water. */
static void test_a_splash_throws_droplets_round_the_ring(void **state)
{
    (void)state;
    test_params tp = scene("single", 1);
    dinghy_sim *s = test_sim(&tp);
    spray_system *sp = make_spray(4096, 3.0);
    spray_def d = spray_def_default();
    long want = 0;
    for (int f = 0; f < 120 && want == 0; f++) {
        assert_int_equal(sim_step(s, frame_steps(s)), frame_steps(s));
        size_t n;
        const sim_event *ev = sim_events(s, &n, NULL);
        for (size_t e = 0; e < n; e++)
            if (ev[e].kind == SIM_EVENT_SPLASH)
                want += lround(fmin(d.event_max, d.splash_gain * ev[e].count * ev[e].speed));
        spray_step(sp, s, frame_dt(s), 2);
    }
    const sim_ring_state *r = &sim_rings(s)[0];
    double reach = sim_get_def(s)->ring.major_radius + sim_get_def(s)->ring.minor_radius + 0.3;
    spray_view v = spray_particles(sp);
    size_t away = 0;
    for (size_t i = 0; i < v.count; i++)
        away += hypot(v.x[i] - r->centre[0], v.y[i] - r->centre[1]) > reach
                || v.z[i] < sim_get_def(s)->world.water.level;
    print_message("    the splash threw %zu droplets (%ld expected), %zu away from the ring\n",
                  v.count, want, away);
    assert_true(want > 0);
    assert_int_equal(v.count, want);
    assert_int_equal(away, 0);
    spray_destroy(sp);
    sim_destroy(s);
}

/* Rings on the river with far more emission than the budget: the count
 * never exceeds it, it fills, and the excess is dropped (counted). */
static void test_count_stays_within_the_budget(void **state)
{
    (void)state;
    test_params tp = scene("rapids", 4);
    dinghy_sim *s = test_sim(&tp);
    spray_system *sp = make_spray(300, 3.0);
    size_t most = 0;
    for (int f = 0; f < 60; f++) {
        const double pos[3] = {0.0, 0.0, 5.0}, vel[3] = {0.0, 0.0, 3.0};
        spray_emit(sp, pos, vel, 50);
        frame(s, sp, 2);
        assert_true(spray_count(sp) <= spray_budget(sp));
        most = spray_count(sp) > most ? spray_count(sp) : most;
    }
    print_message("    budget 300: at most %zu alive, %ld dropped\n", most, spray_dropped(sp));
    assert_int_equal(most, 300);
    assert_true(spray_dropped(sp) > 0);
    spray_destroy(sp);
    sim_destroy(s);
}

/* With no ring events, the river alone throws spray, and only where it
 * breaks: within 3.5 m (along the course) of a drop's middle or 2 m of a
 * rock's edge, seen the frame it was thrown (lives shorter than two
 * frames: the droplets alive after a step are those it threw). */
static void test_the_river_breaks_at_drops_and_rocks(void **state)
{
    (void)state;
    test_params tp = scene("rapids", 1);
    dinghy_sim *s = test_sim(&tp);
    /* lives of 0.75 .. 1.5 frames: what is alive after a step was thrown in it */
    spray_system *sp = make_spray(4096, 1.5 * frame_dt(s));
    const river_world *w = sim_river(s);
    const river_course *c = river_course_view(w);
    size_t thrown = 0, astray = 0;
    for (int f = 0; f < 30; f++) {
        sim_step(s, 0); /* no events: only the river's own breaking throws */
        spray_step(sp, s, frame_dt(s), 2);
        spray_view v = spray_particles(sp);
        for (size_t i = 0; i < v.count; i++) {
            double st, n;
            river_station(w, v.x[i], v.y[i], &st, &n);
            int near = 0;
            for (int d = 0; d < c->drop_count; d++)
                near |= fabs(st - c->drop_s[d]) < 3.5;
            for (int r = 0; r < c->rock_count; r++)
                near |= hypot(v.x[i] - c->rock[4 * r], v.y[i] - c->rock[4 * r + 1])
                        < c->rock[4 * r + 3] + 2.0;
            astray += !near;
        }
        thrown += v.count;
        assert_int_equal(sim_step(s, frame_steps(s)), frame_steps(s));
    }
    print_message("    the river threw %zu droplets in 30 frames, %zu astray\n", thrown, astray);
    assert_true(thrown > 50);
    assert_int_equal(astray, 0);
    spray_destroy(sp);
    sim_destroy(s);
}

/* The same river run (rings falling in, hitting rocks, the river
 * breaking) gives the same spray hash for 1, 2 and 3 threads. The spray
 * only reads the simulation, so one run feeds three spray systems side by
 * side, one per thread count. */
static void test_same_hash_for_any_thread_count(void **state)
{
    (void)state;
    uint64_t h[3];
    size_t n[3];
    long events = 0;
    int frames = test_quick() ? 30 : 240; /* quick: the sanitizers' */
    test_params tp = scene("rapids", 6);
    tp.def.solver.threads = 2; /* the core's own determinism is tested elsewhere */
    dinghy_sim *s = test_sim(&tp);
    spray_system *sp[3];
    for (int t = 1; t <= 3; t++)
        sp[t - 1] = make_spray(4096, 3.0);
    for (int f = 0; f < frames; f++) {
        assert_int_equal(sim_step(s, frame_steps(s)), frame_steps(s));
        size_t count;
        sim_events(s, &count, NULL);
        events += (long)count;
        for (int t = 1; t <= 3; t++)
            spray_step(sp[t - 1], s, frame_dt(s), t);
    }
    for (int t = 1; t <= 3; t++) {
        h[t - 1] = spray_hash(sp[t - 1]);
        n[t - 1] = spray_count(sp[t - 1]);
        print_message("    %d thread%s: %zu alive, hash %016" PRIx64 "\n", t, t > 1 ? "s" : "",
                      n[t - 1], h[t - 1]);
        spray_destroy(sp[t - 1]);
    }
    sim_destroy(s);
    assert_true(events > 0);
    assert_true(n[0] > 100);
    assert_true(h[0] == h[1] && h[1] == h[2]);
}

static void test_definition_is_checked(void **state)
{
    (void)state;
    spray_def d = spray_def_default();
    dinghy_problem p[4];
    assert_int_equal(spray_def_check(&d, p, 4), 0);
    d.budget = 0;
    d.restitution = 1.5;
    assert_int_equal(spray_def_check(&d, p, 4), 2);
    assert_int_equal(p[1].offset, offsetof(spray_def, restitution));
    assert_non_null(strstr(p[1].reason, "restitution"));
    assert_null(spray_create(&d, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_flight_follows_the_drag_law),
        cmocka_unit_test(test_droplets_stay_out_of_the_rings),
        cmocka_unit_test(test_droplets_bounce_off_a_ring),
        cmocka_unit_test(test_droplets_die_in_the_water_and_with_age),
        cmocka_unit_test(test_a_splash_throws_droplets_round_the_ring),
        cmocka_unit_test(test_count_stays_within_the_budget),
        cmocka_unit_test(test_the_river_breaks_at_drops_and_rocks),
        cmocka_unit_test(test_same_hash_for_any_thread_count),
        cmocka_unit_test(test_definition_is_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
