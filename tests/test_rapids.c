/* The river scene in the tick: rings carried by the current at the speed
 * the drag law gives, kept out of rocks, banks and bed, carried down and
 * dropped in again, the same for every thread count. The river's own
 * fields are tested in test_river.c. */
#include "tests/support.h"

#include "dinghy/river.h"
#include "physics/water/hydro.h"
#include "physics/water/water_rows.h"
#include "physics/world/sim_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static test_params rapids(int count)
{
    test_params p = test_physical();
    p.scene.index = scene_index("rapids");
    p.scene.count = count;
    return p;
}

/* A ring afloat at rest in the straight lead-in of the river picks up the
 * current. Its speed u relative to the water falls as the drag law says:
 * m du/dt = -(k_q u^2 + k_l u), with k_q = C_D rho (the wet area its
 * upstream faces show the flow, sum of A_wet c) and k_l the linear terms
 * (water.drag on its wet vertices, sim.damping on all, both toward the
 * flow); from u = U to U/20 that takes
 * t = m / k_l ln(20 (k_q U / 20 + k_l) / (k_q U + k_l)). The ring must
 * match within 20%. Without waves: bobbing changes the wet area. */
static void test_ring_picks_up_the_current(void **state)
{
    (void)state;
    test_params p = rapids(1);
    p.def.solver.threads = 2;
    p.def.world.air_density = 0.0; /* the water's drag law alone (in air it would lag ~8%) */
    p.def.world.river.waves = 0.0;
    dinghy_sim *s = test_sim(&p);
    const river_world *w = sim_river(s);
    assert_non_null(w);
    /* settle it afloat in the lead-in, held still against the current */
    double xy[2];
    river_point(w, 10.0, 0.0, xy);
    dinghy_water_point wp;
    river_sample(w, xy[0], xy[1], 0.0, 0.0, &wp);
    sim_ring_pose pose;
    memset(&pose, 0, sizeof pose);
    pose.rot[0] = pose.rot[4] = pose.rot[8] = 1.0;
    pose.centre[0] = xy[0];
    pose.centre[1] = xy[1];
    pose.centre[2] = wp.height + 0.25;
    sim_place_ring(s, sim_ring_id_at(s, 0), &pose);
    /* float it in still water first (the river's speed is live) */
    sim_def still = *sim_get_def(s);
    still.world.river.speed = 0.0;
    sim_set_live(s, &still);
    const long settle = test_quick() ? 500 : 3000; /* sanitizer build: no timing checked */
    assert_int_equal(sim_step(s, settle), settle);
    sim_set_live(s, &p.def);
    river_sample(w, sim_rings(s)[0].centre[0], sim_rings(s)[0].centre[1], 0.0, sim_time(s), &wp);
    double U = hypot(wp.velocity[0], wp.velocity[1]), ux = wp.velocity[0] / U,
           uy = wp.velocity[1] / U, t0 = sim_time(s);
    /* the ring's wet faces as the flow sees them: upstream faces' A c */
    sim_state_view st = sim_state(s);
    const int M = sim_segments(s), N = sim_sides(s);
    double proj = 0.0, wet_vertices = 0.0, wet_area = 0.0;
    for (int i = 0; i < M * N; i++)
        wet_vertices += st.z[i] < wp.height;
    for (int a = 0; a < M; a++)
        for (int b = 0; b < N; b++) {
            int q[4] = {a * N + b, ((a + 1) % M) * N + b, ((a + 1) % M) * N + (b + 1) % N,
                        a * N + (b + 1) % N};
            for (int t = 0; t < 2; t++) {
                int i0 = q[0], i1 = q[1 + t], i2 = q[2 + t];
                double A[3] = {st.x[i0], st.y[i0], st.z[i0]}, B[3] = {st.x[i1], st.y[i1], st.z[i1]};
                double C[3] = {st.x[i2], st.y[i2], st.z[i2]}, an[3], load[3][3];
                double d[3] = {wp.height - A[2], wp.height - B[2], wp.height - C[2]};
                double wet = hydro_triangle_loads(A, B, C, d, load, NULL);
                hydro_area_normal(A, B, C, an);
                double area = sqrt(an[0] * an[0] + an[1] * an[1] + an[2] * an[2]);
                double c = -(an[0] * ux + an[1] * uy) / area; /* u = v - w = -U along the flow */
                if (c > 0.0)
                    proj += wet * c;
                wet_area += wet;
            }
        }
    double m = p.def.ring.mass, mv = m / (M * N);
    double kq = p.def.world.water.drag_coefficient * p.def.world.water.density * proj;
    double kl = p.def.world.water.drag * mv * wet_vertices + p.def.solver.damping * m;
    double t_pred = m / kl * log(20.0 * (kq * U / 20.0 + kl) / (kq * U + kl));
    /* run until the ring moves at 95% of the water */
    double t = 0.0;
    while (t < (test_quick() ? 0.3 : 30.0)) { /* sanitizer build: 0.3 s, no timing checked */
        assert_int_equal(sim_step(s, 10), 10);
        t = sim_time(s) - t0;
        const double *v = sim_rings(s)[0].velocity;
        river_sample(w, sim_rings(s)[0].centre[0], sim_rings(s)[0].centre[1], 0.0, sim_time(s), &wp);
        double along = v[0] * ux + v[1] * uy, here = wp.velocity[0] * ux + wp.velocity[1] * uy;
        if (along >= 0.95 * here)
            break;
    }
    printf("    95%% of the current (%.2f m/s) after %.2f s; the drag law: %.2f s "
           "(wet projected area %.3f m^2 of %.3f m^2 wet, %.0f wet vertices)\n", U, t, t_pred,
           proj, wet_area, wet_vertices);
    if (!test_quick())
        assert_true(fabs(t - t_pred) < 0.2 * t_pred);
    sim_destroy(s);
}

/* The rock contact skips a vertex while its distance at its last look
 * exceeds how far it has since moved (times the distance's slope bound):
 * a vertex looked at well clear of the solids and then moved into a rock
 * is still pushed out onto it. */
static void test_vertex_moved_into_rock_is_pushed_out(void **state)
{
    (void)state;
    test_params p = rapids(1);
    p.def.world.river.rocks = 4;
    dinghy_sim *s = test_sim(&p);
    const river_world *w = sim_river(s);
    const river_course *c = river_course_view(w);
    assert_true(c->rock_count > 0);
    sim_buffer *b = &s->buf[s->cur];
    const int N = s->N;
    s->tick->wdist[0] = 0.0f; /* row 0 near a solid: every vertex looked at */
    water_contacts_row(s, b->x, b->y, b->z, b->vx, b->vy, b->vz, 0);
    float clear = INFINITY; /* the row's distances at that look */
    for (int n = 0; n < N; n++)
        clear = fminf(clear, s->tick->sd[n]);
    assert_true(clear > 0.1f); /* enough to skip a vertex that had not moved */
    /* vertex 0 into the first rock, half its radius in, at the surface */
    const double *rk = c->rock;
    b->x[0] = (float)(rk[0] + 0.5 * rk[3]);
    b->y[0] = (float)rk[1];
    b->z[0] = (float)rk[2];
    assert_true(river_solid_distance(w, b->x[0], b->y[0], b->z[0], NULL) < -0.1);
    water_contacts_row(s, b->x, b->y, b->z, b->vx, b->vy, b->vz, 0);
    const double d = river_solid_distance(w, b->x[0], b->y[0], b->z[0], NULL);
    printf("moved into a rock: %.3g m from it after the contact (looked at %.3g m clear)\n", d,
           (double)clear);
    assert_true(d > -1e-4);
    sim_destroy(s);
}

/* No vertex deeper than the tube radius inside a rock, a bank or the bed. */
static double deepest_in_solid(const dinghy_sim *s)
{
    const river_world *w = sim_river(s);
    sim_state_view st = sim_state(s);
    double worst = 0.0;
    for (size_t i = 0; i < sim_vertex_count(s); i++) {
        double d = river_solid_distance(w, st.x[i], st.y[i], st.z[i], NULL);
        if (-d > worst)
            worst = -d;
    }
    return worst;
}

/* 30 s of the river: rings stay out of the solids, travel downstream at
 * more than half the surface speed on average, and all of them are
 * dropped in again at least once (a short river, so that every ring gets
 * to the end in 30 s); one hash for 1, 2 and 3 threads over the first
 * second (the drops, rocks and banks of the whole run are test_parallel's
 * river scene, at 1, 2, 3 and 8 threads). */
static void test_rapids_run(void **state)
{
    (void)state;
    test_params p = rapids(test_quick() ? 4 : 16);
    p.def.world.river.length = 40.0;
    p.def.world.river.drops = 2;
    p.def.world.river.rocks = 4;
    long seconds = test_quick() ? 3 : 30;
    uint64_t first = 0;
    /* sanitizer build: one thread count (the hashes are the optimised build's) */
    for (int threads = 1; threads <= (test_quick() ? 1 : 3); threads++) {
        p.def.solver.threads = threads;
        dinghy_sim *s = test_sim(&p);
        double worst = 0.0, displaced = 0.0;
        const double skin_t = p.def.ring.skin == SIM_SKIN_MEMBRANE ? p.def.ring.thickness : 0.0;
        long hits = 0, samples = 0;
        for (long k = 0; k < (threads == 1 ? seconds : 1); k++) {
            assert_int_equal(sim_step(s, 1000), 1000);
            if (threads == 1)
                worst = fmax(worst, deepest_in_solid(s));
            /* the second half, once a second (a short run: its last second) */
            if (threads == 1 && k >= (seconds > 4 ? seconds / 2 : seconds - 1)) {
                for (int i = 0; i < sim_ring_count(s); i++)
                    displaced += sim_rings(s)[i].submerged_volume
                               + sim_rings(s)[i].wet_area * skin_t;
                samples += sim_ring_count(s);
            }
            size_t n;
            const sim_event *ev = sim_events(s, &n, NULL);
            for (size_t i = 0; i < n; i++)
                hits += ev[i].kind == SIM_EVENT_OBSTACLE && ev[i].speed > SIM_HIT_SPEED;
        }
        if (threads == 1) { /* the state at 1 s, for the other thread counts */
            if (!test_quick()) {
                dinghy_sim *again = test_sim(&p);
                assert_int_equal(sim_step(again, 1000), 1000);
                first = sim_hash(again);
                sim_destroy(again);
            }
            double travelled = 0.0;
            int least = 1 << 30;
            for (int i = 0; i < sim_ring_count(s); i++) {
                travelled += sim_rings(s)[i].travelled;
                if (sim_rings(s)[i].respawns < least)
                    least = sim_rings(s)[i].respawns;
            }
            double mean_speed = travelled / sim_ring_count(s) / (double)seconds;
            /* afloat all along the river: each displaces about its mass
             * (the water its gas and its rubber push aside), measured
             * under the river's own surface (it falls over drops),
             * averaged over the run's second half (one moment is noisy) */
            displaced *= p.def.world.water.density / (double)samples;
            printf("    mean water displaced %.2f kg per ring of %.1f kg (%ld samples)\n",
                   displaced, p.def.ring.mass, samples);
            assert_true(fabs(displaced - p.def.ring.mass) < 0.2 * p.def.ring.mass);
            printf("    %ld s: deepest vertex in a solid %.3f m; mean speed down the course "
                   "%.2f m/s (surface %.2f); fewest re-drops %d; %ld hits on rocks, banks or "
                   "bed\n", seconds, worst, mean_speed, p.def.world.river.speed, least, hits);
            assert_true(worst <= p.def.ring.minor_radius);
            if (!test_quick()) {
                assert_true(mean_speed >= 0.5 * p.def.world.river.speed);
                assert_true(least >= 1);
                assert_true(hits > 0); /* the sound of rock: some ring hits something */
            }
        } else if (sim_hash(s) != first) {
            fail_msg("rapids: hash %016" PRIx64 " with %d threads, %016" PRIx64 " with 1",
                     sim_hash(s), threads, first);
        }
        sim_destroy(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_picks_up_the_current),
        cmocka_unit_test(test_rapids_run),
        cmocka_unit_test(test_vertex_moved_into_rock_is_pushed_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
