/* Physics of the tick against docs/physics.md section 7. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dinghy/reference.h"

static const double PI = 3.14159265358979323846;

/* Internal forces (springs, repulsion) sum to zero: with gravity, buoyancy,
 * damping and pressure off, a collision keeps the total momentum. */
static void test_momentum_conserved_in_collision(void **state)
{
    (void)state;
    test_params p = test_isolated("pair");
    dinghy_sim *s = test_sim(&p);
    double p0[3], p1[3], ke;
    sim_totals(s, p0, &ke);
    assert_int_equal(sim_step(s, 1500), 1500);
    sim_totals(s, p1, &ke);
    double scale = fabs(p0[0]); /* 2 rings' worth: m v of ring 0 */
    for (int k = 0; k < 3; k++)
        assert_true(fabs(p1[k] - p0[k]) < 1e-5 * scale);
    /* ... and the moving ring handed its motion to the other (equal masses). */
    sim_ring_state a = sim_rings(s)[0], b = sim_rings(s)[1];
    assert_true(fabs(a.velocity[0]) < 0.1 * p.scene.speed);
    assert_true(fabs(b.velocity[0] - p.scene.speed) < 0.1 * p.scene.speed);
    sim_destroy(s);
}

/* Two colliding rings bounce apart without their tubes passing through. */
static void test_collision_tubes_do_not_pass(void **state)
{
    (void)state;
    test_params p = test_isolated("pair");
    p.scene.speed = 4.0;
    dinghy_sim *s = test_sim(&p);
    double min_gap = INFINITY;
    for (int i = 0; i < 150; i++) {
        sim_step(s, 10);
        double g = test_min_tube_gap(s);
        if (g < min_gap)
            min_gap = g;
    }
    assert_true(min_gap > 0.0);             /* the tubes never overlapped */
    assert_true(min_gap < p.def.ring.contact_range); /* ... but they did touch */
    sim_ring_state a = sim_rings(s)[0], b = sim_rings(s)[1];
    assert_true(b.velocity[0] > a.velocity[0] + 0.5 * p.scene.speed); /* moving apart */
    sim_destroy(s);
}

/* One spring between two free masses m oscillates at omega = sqrt(2k/m).
 * Band 1 leaves only the across-tube spring; with two sides each segment is
 * such a pair, pulled apart from rest by the constant inflation force F and
 * swinging about L + F/k. */
static void test_two_mass_spring_frequency(void **state)
{
    (void)state;
    test_params p = test_isolated("single");
    p.def.ring.segments = 3;
    p.def.ring.sides = 2;
    p.def.ring.band = 1;
    p.def.ring.mass = 6 * 0.01;  /* 0.01 kg per vertex */
    p.def.ring.stiffness = 2.0;  /* omega = sqrt(2 * 2 / 0.01) = 20 rad/s */
    p.def.ring.pressure = 0.05;
    p.def.solver.dt = 1e-4;
    double omega = sqrt(2.0 * p.def.ring.stiffness / 0.01);
    dinghy_sim *s = test_sim(&p);
    double prev_sep = 0.0, prev_rate = 0.0;
    double first = -1.0, last = -1.0;
    int maxima = 0;
    for (int i = 0; i < 20000; i++) {
        sim_step(s, 1);
        sim_state_view st = sim_state(s);
        double dx = st.x[1] - st.x[0], dy = st.y[1] - st.y[0], dz = st.z[1] - st.z[0];
        double sep = sqrt(dx * dx + dy * dy + dz * dz);
        double rate = sep - prev_sep;
        if (i > 1 && prev_rate > 0.0 && rate <= 0.0) { /* a maximum of the separation */
            if (first < 0.0)
                first = sim_time(s);
            last = sim_time(s);
            maxima++;
        }
        prev_rate = rate;
        prev_sep = sep;
    }
    assert_true(maxima >= 5);
    double period = (last - first) / (maxima - 1);
    double expected = 2.0 * PI / omega;
    assert_true(fabs(period - expected) < 0.005 * expected);
    /* amplitude check: the mean separation sits at L + F/k */
    sim_destroy(s);
}

/* An undeformed ring with no external forces and no pressure stays at rest.
 * Float positions start it a few ULPs off its rest shape (about 1e-7 m), so
 * it trembles at ~2.5e-4 m/s: the bound is 4x that, and a wrong rest
 * length or a spring counted once gives metres per second. */
static void test_undeformed_dinghy_stays_at_rest(void **state)
{
    (void)state;
    test_params p = test_isolated("single");
    dinghy_sim *s = test_sim(&p);
    sim_ring_state before = sim_rings(s)[0];
    sim_step(s, 1000);
    sim_ring_state after = sim_rings(s)[0];
    assert_true(test_max_speed(s) < 1e-3);
    for (int k = 0; k < 3; k++)
        assert_true(fabs(after.centre[k] - before.centre[k]) < 1e-6);
    assert_true(fabs(after.volume - before.volume) < 1e-5 * before.volume);
    sim_destroy(s);
}

/* Seed buoyancy alone: a settled ring's mean vertex depth tends to
 * g / buoyancy (docs/physics.md section 7). */
static void test_seed_buoyancy_draft(void **state)
{
    (void)state;
    const double buoyancy[] = {100.0, 50.0};
    for (int i = 0; i < 2; i++) {
        test_params p = test_defaults();
        p.scene.index = scene_index("single");
        p.def.solver.damping = 3.0; /* settle sooner */
        p.def.world.water.buoyancy = buoyancy[i];
        dinghy_sim *s = test_sim(&p);
        assert_int_equal(sim_step(s, 8000), 8000);
        sim_ring_state d = sim_rings(s)[0];
        double expected = p.def.world.gravity / p.def.world.water.buoyancy;
        assert_true(fabs(d.mean_depth - expected) < 0.01 * expected);
        assert_true(fabs(d.velocity[2]) < 1e-3);
        sim_destroy(s);
    }
}

/* Damping alone: a free ring's kinetic energy falls as exp(-2 beta t). */
static void test_damping_rate(void **state)
{
    (void)state;
    test_params p = test_isolated("pair");
    p.scene.spacing = 100.0; /* no contact */
    p.def.solver.damping = 2.0;
    dinghy_sim *s = test_sim(&p);
    double mom[3], ke0, ke1;
    sim_totals(s, mom, &ke0);
    sim_step(s, 500);
    sim_totals(s, mom, &ke1);
    double expected = ke0 * exp(-2.0 * p.def.solver.damping * sim_time(s));
    assert_true(fabs(ke1 - expected) < 1e-4 * ke0);
    sim_destroy(s);
}

/* The parallel tick agrees with the serial double-precision reference. */
static void compare_with_reference(test_params p, long steps, double tolerance)
{
    dinghy_sim *s = test_sim(&p);
    ref_sim *r = ref_create(s);
    assert_non_null(r);
    assert_int_equal(sim_step(s, steps), steps);
    ref_step(r, steps);
    sim_state_view st = sim_state(s);
    double worst = 0.0;
    for (size_t i = 0; i < sim_vertex_count(s); i++) {
        double x[3], v[3];
        ref_vertex(r, i, x, v);
        double d = fmax(fabs(x[0] - st.x[i]), fmax(fabs(x[1] - st.y[i]), fabs(x[2] - st.z[i])));
        if (d > worst)
            worst = d;
    }
    printf("    reference vs parallel, scene %s, %ld steps: max |dx| = %.3g m\n",
           scene_of(&p.scene)->name, steps, worst);
    assert_true(worst < tolerance);
    ref_destroy(r);
    sim_destroy(s);
}

/* Tolerance: the tick runs in float, the reference in double. Each step
 * rounds positions to ~1e-7 m (float epsilon at a metre or two); over 1000
 * steps, with the rings falling, floating and colliding, the two drift
 * apart by 1.2e-5 to 2e-5 m (measured). 2e-4 m is 10x that, a ten-thousandth
 * of the ring's size, and far below what any wrong force (a missing
 * spring, a wrong sign, a skipped contact) produces. */
static void test_parallel_matches_reference(void **state)
{
    (void)state;
    test_params p = test_defaults();
    p.scene.index = scene_index("single");
    compare_with_reference(p, test_quick() ? 200 : 1000, 2e-4);
    p = test_defaults();
    p.scene.index = scene_index("pair");
    compare_with_reference(p, test_quick() ? 200 : 1000, 2e-4);
    p = test_defaults();
    p.scene.index = scene_index("packed");
    p.scene.count = 4;
    compare_with_reference(p, test_quick() ? 150 : 1000, 2e-4);
}

/* Other meshes: bands 1, 3 and 7, odd ring counts, a tube so fine that one
 * ring is cut into several blocks, all against the reference. Pressure
 * and repulsion act per vertex, so they are scaled to keep the totals of
 * the default mesh (32 x 16): unscaled, a 256-sided tube gets 16 times the
 * push and its collision turns chaotic enough to amplify float round-off. */
static void test_parallel_matches_reference_shapes(void **state)
{
    (void)state;
    static const int shapes[][3] = {
        {12, 4, 1}, {17, 6, 3}, {24, 14, 7}, {40, 256, 5}, {40, 8, 5},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        test_params p = test_defaults();
        p.scene.index = scene_index("pair");
        p.def.ring.segments = shapes[i][0];
        p.def.ring.sides = shapes[i][1];
        p.def.ring.band = shapes[i][2];
        p.def.ring.pressure *= 512.0 / (p.def.ring.segments * p.def.ring.sides);
        p.def.ring.repulsion *= 16.0 / p.def.ring.sides;
        p.def.solver.dt = 0.5 * sim_def_stable_dt(&p.def);
        if (p.def.solver.dt > 1e-3)
            p.def.solver.dt = 1e-3;
        printf("    M %d N %d B %d: ", p.def.ring.segments, p.def.ring.sides, p.def.ring.band);
        compare_with_reference(p, test_quick() ? 50 : 400, 2e-4);
    }
}

/* A time step above the stability bound is caught, with a message. */
static void test_blowup_detected(void **state)
{
    (void)state;
    test_params p = test_defaults();
    p.scene.index = scene_index("single");
    p.def.solver.dt = 2.0 * sim_def_stable_dt(&p.def);
    p.def.solver.substeps = 1; /* a fixed count: no automatic rescue */
    dinghy_sim *s = test_sim(&p);
    long done = sim_step(s, 5000);
    assert_true(done < 5000);
    sim_blowup_info b = sim_blowup(s);
    assert_true(b.happened);
    assert_int_equal(b.step, done);
    assert_int_equal(b.ring, 0);
    assert_true(sim_ring_id_equal(b.ring_id, sim_ring_id_at(s, 0)));
    char msg[1024];
    sim_blowup_message(s, msg, sizeof msg);
    assert_non_null(strstr(msg, "stability bound"));
    assert_int_equal(sim_step(s, 10), 0); /* a blown-up state does not step on */
    sim_destroy(s);
}

/* The stability bound of docs/physics.md section 2: the springs alone, then
 * with the seed buoyancy's stiffness m * buoyancy added to B^2 k. */
static void test_stable_dt_formula(void **state)
{
    (void)state;
    test_params p = test_defaults();
    double m = p.def.ring.mass / (p.def.ring.segments * p.def.ring.sides);
    double k = 25.0 * p.def.ring.stiffness, kb = m * p.def.world.water.buoyancy;
    assert_true(fabs(sim_def_spring_dt(&p.def) - sqrt(2.0 * m / k)) < 1e-15);
    assert_true(fabs(sim_def_stable_dt(&p.def) - sqrt(2.0 * m / (k + kb))) < 1e-15);
    /* automatic substeps: as many as the bound needs, and none longer
     * than SIM_MAX_SUBSTEP */
    p.def.solver.dt = 10.0 * sim_def_stable_dt(&p.def);
    const double sub = fmin(sim_def_stable_dt(&p.def), SIM_MAX_SUBSTEP);
    assert_int_equal(sim_def_substeps(&p.def), (int)ceil(p.def.solver.dt / sub * (1.0 - 1e-12)));
    p.def.ring.stiffness *= 100.0; /* a bound below the cap: 10.5 bounds in a step, 11 */
    p.def.solver.dt = 10.5 * sim_def_stable_dt(&p.def);
    assert_int_equal(sim_def_substeps(&p.def), 11);
    p.def.solver.substeps = 3;
    assert_int_equal(sim_def_substeps(&p.def), 3);
}

/* The enclosed volume of the undeformed mesh approaches 2 pi^2 R r^2. */
static void test_volume_of_undeformed_torus(void **state)
{
    (void)state;
    test_params p = test_isolated("single");
    p.def.ring.segments = 128;
    p.def.ring.sides = 64;
    dinghy_sim *s = test_sim(&p);
    double exact = 2.0 * PI * PI * p.def.ring.major_radius * p.def.ring.minor_radius * p.def.ring.minor_radius;
    double v = sim_rings(s)[0].volume;
    assert_true(v < exact && v > 0.995 * exact); /* inscribed polyhedron: a little less */
    sim_destroy(s);
}

/* Nothing passes through anything in the rapids scene. */
static void test_rapids_no_pass_through(void **state)
{
    (void)state;
    test_params p = test_defaults();
    p.scene.count = test_quick() ? 9 : 25;
    dinghy_sim *s = test_sim(&p);
    double min_gap = INFINITY;
    int checks = test_quick() ? 30 : 300;
    for (int i = 0; i < checks; i++) {
        assert_int_equal(sim_step(s, 10), 10);
        double g = test_min_tube_gap(s);
        if (g < min_gap)
            min_gap = g;
    }
    printf("    rapids %d rings, %d steps: smallest tube gap %.3g m\n", p.scene.count, checks * 10,
           min_gap);
    assert_true(min_gap > 0.0);
    sim_destroy(s);
}

/* The memory estimate (sim_def_check's) is what sim_create allocates:
 * both come from the one array table; and a checkpoint taken before a
 * ring is taken out brings the ring, and its id, back. */
static void test_memory_estimate_and_checkpoint_ids(void **state)
{
    (void)state;
    test_params p = test_isolated("pair");
    p.def.solver.threads = 2;
    dinghy_sim *s = test_sim(&p);
    assert_int_equal(sim_memory_bytes(s), sim_memory_estimate(&p.def, sim_ring_capacity(s)));
    assert_int_equal(sim_ring_count(s), 2);
    const sim_ring_id a = sim_ring_id_at(s, 0), b = sim_ring_id_at(s, 1);
    sim_checkpoint *cp = sim_checkpoint_new(s);
    assert_non_null(cp);
    const uint64_t h = sim_hash(s);
    assert_int_equal(sim_remove_ring(s, a), 0);
    assert_false(sim_ring_valid(s, a));
    assert_int_equal(sim_ring_index(s, b), 0);
    assert_int_equal(sim_checkpoint_restore(s, cp), 0);
    assert_int_equal(sim_ring_index(s, a), 0);
    assert_int_equal(sim_ring_index(s, b), 1);
    assert_true(sim_hash(s) == h);
    sim_checkpoint_free(cp);
    sim_destroy(s);
}

/* A collision reports one contact start, at the approach speed; a ring
 * dropped on the water splashes; a ring alone touches nothing. */
static void test_events(void **state)
{
    (void)state;
    test_params p = test_isolated("pair");
    dinghy_sim *s = test_sim(&p);
    sim_step(s, 1000);
    size_t n;
    long dropped;
    const sim_event *ev = sim_events(s, &n, &dropped);
    assert_int_equal(n, 1);
    assert_int_equal(dropped, 0);
    assert_int_equal(ev[0].kind, SIM_EVENT_CONTACT);
    assert_int_equal(ev[0].ring, 0);
    assert_int_equal(ev[0].other, 1);
    assert_true(fabs(ev[0].speed - p.scene.speed) < 0.05 * p.scene.speed);
    assert_true(fabs(ev[0].position[0]) < 0.1); /* midway between the two */
    assert_true(sim_ring_id_equal(ev[0].ring_id, sim_ring_id_at(s, 0)));
    assert_true(sim_ring_id_equal(ev[0].other_id, sim_ring_id_at(s, 1)));
    sim_step(s, 0); /* every call starts a new list */
    sim_events(s, &n, NULL);
    assert_int_equal(n, 0);
    sim_destroy(s);

    p = test_defaults();
    p.scene.index = scene_index("single");
    s = test_sim(&p);
    sim_step(s, 1000); /* falls 1.5 m: enters the water at about 5 m/s */
    ev = sim_events(s, &n, NULL);
    assert_true(n >= 1);
    int splashes = 0;
    float fastest = 0.0f;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ev[i].kind, SIM_EVENT_SPLASH);
        splashes += ev[i].count;
        if (ev[i].speed > fastest)
            fastest = ev[i].speed;
    }
    assert_int_equal(splashes, 512); /* every vertex went under, once, fast */
    double expected = sqrt(2.0 * p.def.world.gravity * p.scene.height); /* free fall to the surface */
    assert_true(fastest > 0.8 * expected && fastest < 1.2 * expected);
    sim_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_momentum_conserved_in_collision),
        cmocka_unit_test(test_collision_tubes_do_not_pass),
        cmocka_unit_test(test_two_mass_spring_frequency),
        cmocka_unit_test(test_undeformed_dinghy_stays_at_rest),
        cmocka_unit_test(test_seed_buoyancy_draft),
        cmocka_unit_test(test_damping_rate),
        cmocka_unit_test(test_parallel_matches_reference),
        cmocka_unit_test(test_parallel_matches_reference_shapes),
        cmocka_unit_test(test_blowup_detected),
        cmocka_unit_test(test_stable_dt_formula),
        cmocka_unit_test(test_volume_of_undeformed_torus),
        cmocka_unit_test(test_rapids_no_pass_through),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_memory_estimate_and_checkpoint_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
