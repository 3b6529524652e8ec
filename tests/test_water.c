/* The physical models in the tick, against closed forms of docs/physics.md:
 * Archimedes floating, the ideal gas, drag at terminal speed, momentum
 * with gas pressure, and substeps that keep any stiffness stable. The
 * kernels themselves are tested in test_hydro.c. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* One ring of the physical defaults, alone. */
static test_params single(void)
{
    test_params p = test_physical();
    p.scene.index = scene_index("single");
    p.def.solver.threads = 2;
    return p;
}

/* Height of the ring's centre above the water at which the undeformed
 * mesh displaces `volume` (m^3): bisection on the published submerged
 * volume of the placed rest mesh (the A_seg formula for the mesh's own
 * polygonal cross-section). */
static double rest_float_height(dinghy_sim *s, double volume)
{
    const sim_ring_def *r = &sim_get_def(s)->ring;
    double lo = -r->minor_radius, hi = r->minor_radius;
    sim_ring_pose pose;
    memset(&pose, 0, sizeof pose);
    pose.rot[0] = pose.rot[4] = pose.rot[8] = 1.0;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        pose.centre[2] = sim_get_def(s)->world.water.level + mid;
        sim_place_ring(s, sim_ring_id_at(s, 0), &pose);
        if (sim_rings(s)[0].submerged_volume > volume)
            lo = mid; /* too deep: raise it */
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* A settled ring displaces its own mass of water (rho V_sub = m, 0.5%) and
 * floats at the draft the A_seg formula gives for its mesh (2%). The ring
 * is blown up hard here: a soft one flattens where the water presses on
 * it (the default one does, by about a millimetre), and floats shallower. */
static void test_archimedes_float(void **state)
{
    (void)state;
    test_params p = single();
    p.def.ring.skin = SIM_SKIN_SPRINGS; /* hard springs keep the rest mesh's shape */
    p.def.ring.gauge_pressure = 5000.0;
    p.def.ring.stiffness = 20000.0;
    p.def.solver.damping = 2.0; /* settles sooner; the equilibrium is the same */
    p.scene.height = 0.3;
    test_default_step(&p); /* the water's loads held over substeps, as the program runs */
    dinghy_sim *s = test_sim(&p);
    if (test_quick()) { /* sanitizer build: a short run; the settling is the optimised build's */
        assert_int_equal(sim_step(s, test_steps(&p, 0.3)), test_steps(&p, 0.3));
        sim_destroy(s);
        return;
    }
    assert_int_equal(sim_step(s, test_steps(&p, 8.0)), test_steps(&p, 8.0));
    sim_ring_state r = sim_rings(s)[0];
    double rho = p.def.world.water.density, m = p.def.ring.mass;
    printf("    settled: V_sub = %.6f m^3, m / rho = %.6f m^3, centre z = %.4f m, lowest %.4f m\n",
           r.submerged_volume, m / rho, r.centre[2], r.min_z);
    assert_true(fabs(rho * r.submerged_volume - m) < 0.005 * m);
    /* the draft: depth of the lowest point */
    double draft = p.def.world.water.level - r.min_z;
    double h = rest_float_height(s, m / rho);
    double mesh_draft = p.def.ring.minor_radius - h;
    /* the circle's A_seg for comparison: 2 pi R A_seg(s) = m / rho */
    double R = p.def.ring.major_radius, rr = p.def.ring.minor_radius, lo = 0.0, hi = rr;
    for (int i = 0; i < 60; i++) {
        double sg = 0.5 * (lo + hi);
        double a = rr * rr * acos((rr - sg) / rr) - (rr - sg) * sqrt(2.0 * rr * sg - sg * sg);
        (2.0 * PI * R * a > m / rho ? &hi : &lo)[0] = sg;
    }
    printf("    draft %.5f m; the rest mesh at that displacement %.5f m; the round torus %.5f m\n",
           draft, mesh_draft, 0.5 * (lo + hi));
    assert_true(fabs(draft - mesh_draft) < 0.02 * mesh_draft);
    /* the centre of buoyancy sits under the centre of mass, below the water */
    assert_true(fabs(r.buoyancy_centre[0] - r.centre[0]) < 1e-3);
    assert_true(fabs(r.buoyancy_centre[1] - r.centre[1]) < 1e-3);
    assert_true(r.buoyancy_centre[2] < p.def.world.water.level);
    sim_destroy(s);
}

/* The skin displaces water too: a membrane ring held wholly under water
 * and let go is pushed up by rho g (V + A t) (its enclosed volume and its
 * skin's own, area A of thickness t) less its weight, so after one step
 * from rest it moves at dt (rho g (V + A t) / m - g), to 0.1%; without the
 * skin's own water it would be 2% off. (Drag and damping off; the
 * gas, the membrane and the bending sum to no force on a closed ring.) */
static void test_skin_displaces_water(void **state)
{
    (void)state;
    test_params p = single();
    p.scene.height = -1.0; /* the centre 1 m under water, the tube's top at -0.75 m */
    /* heavy (it sinks), so that in one step the gas and the water move
     * its skin by micrometres and the volume stays the one measured */
    p.def.ring.mass = 1500.0;
    p.def.solver.damping = 0.0;
    p.def.world.water.drag = 0.0;
    p.def.world.water.drag_coefficient = 0.0;
    p.def.world.water.lift_coefficient = 0.0;
    dinghy_sim *s = test_sim(&p);
    /* wholly under water: its wet area is all of its skin */
    const double area = sim_rings(s)[0].wet_area;
    const double V = sim_rings(s)[0].volume, rho = p.def.world.water.density;
    const double g = p.def.world.gravity, m = p.def.ring.mass, t = p.def.ring.thickness;
    const double dt = p.def.solver.dt;
    assert_true(sim_rings(s)[0].max_z < p.def.world.water.level);
    assert_int_equal(sim_step(s, 1), 1);
    const double vz = sim_rings(s)[0].velocity[2];
    const double with = dt * (rho * g * (V + area * t) / m - g), without = dt * (rho * g * V / m - g);
    printf("    after one step: vz %.6f m/s; rho g (V + A t): %.6f, rho g V alone: %.6f "
           "(V %.4f m^3, A %.3f m^2, t %.4f m)\n", vz, with, without, V, area, t);
    assert_close(vz, with, 1e-3 * fabs(with));
    assert_true(fabs(vz - without) > 0.01 * fabs(without));
    sim_destroy(s);
}

/* Isothermal gas: p V = p0 V0 for every ring of the packed scene while
 * they press on each other. The pressure published is the one the tick's
 * last substep pushed with, from the volume at that substep's start, so
 * p0 V0 / p lies between the volumes measured one step before and after
 * (within 1e-3 of V0: the volume may swing a little past them within the
 * step; measured 9e-5). Were the gas law not in the tick (a
 * constant pressure), p0 V0 / p would stay put while V moves. A ring
 * squeezed below its rest volume is at more than p0. */
static void test_gas_law_when_squashed(void **state)
{
    (void)state;
    test_params p = test_physical();
    p.scene.index = scene_index("packed");
    p.scene.count = test_quick() ? 4 : 9;
    p.scene.height = 0.2;
    p.def.ring.repulsion = 0.5; /* press hard */
    dinghy_sim *s = test_sim(&p);
    /* the gas is at p0 in the inflated shape: V0 is the rest volume swollen
     * by the membrane's closed form (0 for springs) */
    double p0 = p.def.world.air_pressure + p.def.ring.gauge_pressure;
    double V0 = sim_rest_volume(s) * (1.0 + sim_ring_inflated_swell(&p.def.ring));
    double worst = 0.0, squeeze = 0.0, before[64];
    const int n = sim_ring_count(s);
    assert_true(n <= 64);
    for (int t = 0; t < (test_quick() ? 3 : 10); t++) {
        assert_int_equal(sim_step(s, 99), 99);
        for (int i = 0; i < n; i++)
            before[i] = sim_rings(s)[i].volume;
        assert_int_equal(sim_step(s, 1), 1);
        for (int i = 0; i < n; i++) {
            sim_ring_state r = sim_rings(s)[i];
            const double v_tick = p0 * V0 / r.pressure;
            const double lo = fmin(before[i], r.volume), hi = fmax(before[i], r.volume);
            const double off = v_tick < lo ? lo - v_tick : v_tick > hi ? v_tick - hi : 0.0;
            worst = fmax(worst, off / V0);
            squeeze = fmax(squeeze, fabs(r.volume / V0 - 1.0));
            if (r.volume < V0 && before[i] < V0)
                assert_true(r.pressure > p0);
        }
    }
    printf("    p0 V0 / p outside the step's volumes by at most %.2e of V0, while volumes moved "
           "by up to %.2f%%\n", worst, 100.0 * squeeze);
    assert_true(worst < 1e-3);
    assert_true(squeeze > 1e-3); /* the gas was actually squeezed or stretched */
    sim_destroy(s);
}

/* Gas pressure and the skin (springs or membrane) are internal: momentum
 * and angular momentum stay constant (gravity, water, damping off), while
 * the gas inflates the ring from its rest shape. */
static void gas_keeps_momentum(sim_skin_model skin)
{
    test_params p = single();
    p.def.ring.skin = skin;
    p.def.world.gravity = 0.0;
    p.def.world.water.model = SIM_WATER_SEED;
    p.def.world.water.buoyancy = 0.0;
    p.def.world.water.drag = 0.0;
    p.def.world.water.level = -100.0;
    p.def.solver.damping = 0.0;
    p.def.ring.gauge_pressure = 3000.0; /* inflates well past rest: large forces */
    p.scene.speed = 0.0;
    dinghy_sim *s = test_sim(&p);
    sim_ring_pose pose;
    memset(&pose, 0, sizeof pose);
    pose.rot[0] = pose.rot[4] = pose.rot[8] = 1.0;
    pose.velocity[0] = 1.5;
    pose.velocity[2] = -0.5;
    sim_place_ring(s, sim_ring_id_at(s, 0), &pose);
    double m = sim_ring_vertex_mass(&p.def.ring);
    double mom0[3], L0[3] = {0, 0, 0}, ke;
    sim_totals(s, mom0, &ke);
    assert_int_equal(sim_step(s, 500), 500);
    double mom1[3], L1[3] = {0, 0, 0};
    sim_totals(s, mom1, &ke);
    /* angular momentum about the centre of mass, now and (at rest shape) before */
    sim_state_view st = sim_state(s);
    sim_ring_state r = sim_rings(s)[0];
    for (size_t i = 0; i < sim_vertex_count(s); i++) {
        double x[3] = {st.x[i] - r.centre[0], st.y[i] - r.centre[1], st.z[i] - r.centre[2]};
        double v[3] = {st.vx[i] - r.velocity[0], st.vy[i] - r.velocity[1], st.vz[i] - r.velocity[2]};
        L1[0] += m * (x[1] * v[2] - x[2] * v[1]);
        L1[1] += m * (x[2] * v[0] - x[0] * v[2]);
        L1[2] += m * (x[0] * v[1] - x[1] * v[0]);
    }
    double scale = p.def.ring.mass * 1.5;
    printf("    momentum %.6g %.6g %.6g -> %.6g %.6g %.6g; spin %.3g %.3g %.3g; volume %.4f of %.4f\n",
           mom0[0], mom0[1], mom0[2], mom1[0], mom1[1], mom1[2], L1[0], L1[1], L1[2], r.volume,
           sim_rest_volume(s));
    for (int k = 0; k < 3; k++) {
        assert_true(fabs(mom1[k] - mom0[k]) < 1e-4 * scale);
        assert_true(fabs(L1[k] - L0[k]) < 1e-4 * scale);
    }
    assert_true(r.volume > 1.01 * sim_rest_volume(s)); /* the gas did push */
    sim_destroy(s);
}

static void test_gas_keeps_momentum(void **state)
{
    (void)state;
    gas_keeps_momentum(SIM_SKIN_SPRINGS);
}

static void test_gas_and_membrane_keep_momentum(void **state)
{
    (void)state;
    gas_keeps_momentum(SIM_SKIN_MEMBRANE);
}

/* A ring falling flat through a light fluid reaches the terminal speed of
 * the drag law: (m - rho V) g = C_D rho U^2 sum over the leading faces of
 * A_f c_f (c_f = -n_z: the faces' projected area); the lift cancels by
 * symmetry. The fluid is light so that the ring keeps its shape. */
static void test_terminal_speed(void **state)
{
    (void)state;
    test_params p = single();
    p.def.world.water.level = 30.0;
    p.def.world.water.density = 10.0;
    p.def.ring.skin = SIM_SKIN_SPRINGS; /* the springs keep the rest mesh's faces */
    p.def.world.water.drag = 0.0;
    p.def.solver.damping = 0.0;
    p.def.ring.mass = 20.0;
    p.scene.height = -2.0; /* starts 2 m under */
    test_default_step(&p); /* the drag held over substeps, as the program runs */
    dinghy_sim *s = test_sim(&p);
    /* projected area of the leading (downward) faces of the rest mesh */
    sim_state_view st = sim_state(s);
    const int M = sim_segments(s), N = sim_sides(s);
    double proj = 0.0;
    for (int a = 0; a < M; a++)
        for (int b = 0; b < N; b++) {
            int q[4] = {a * N + b, ((a + 1) % M) * N + b, ((a + 1) % M) * N + (b + 1) % N,
                        a * N + (b + 1) % N};
            for (int t = 0; t < 2; t++) {
                int i0 = q[0], i1 = q[1 + t], i2 = q[2 + t];
                double e1[3] = {st.x[i1] - st.x[i0], st.y[i1] - st.y[i0], st.z[i1] - st.z[i0]};
                double e2[3] = {st.x[i2] - st.x[i0], st.y[i2] - st.y[i0], st.z[i2] - st.z[i0]};
                double anz = 0.5 * (e1[0] * e2[1] - e1[1] * e2[0]);
                if (anz < 0.0)
                    proj += -anz; /* A c with c = -n_z */
            }
        }
    assert_int_equal(sim_step(s, test_steps(&p, 3.0)), test_steps(&p, 3.0));
    sim_ring_state r = sim_rings(s)[0];
    double rho = p.def.world.water.density, g = p.def.world.gravity;
    double U = sqrt((p.def.ring.mass - rho * r.volume) * g
                    / (p.def.world.water.drag_coefficient * rho * proj));
    printf("    after 3 s: %.4f m/s down; the drag law: %.4f m/s (projected area %.3f m^2)\n",
           -r.velocity[2], U, proj);
    assert_true(fabs(-r.velocity[2] - U) < 0.03 * U);
    assert_true(fabs(r.velocity[0]) < 1e-3 && fabs(r.velocity[1]) < 1e-3);
    sim_destroy(s);
}

/* Automatic substeps: springs of 1e5 N/m at the default dt run 10 s
 * without blowing up, and give one hash for 1, 2 and 3 threads. */
static void test_stiff_rings_with_substeps(void **state)
{
    (void)state;
    test_params p = single();
    p.def.ring.stiffness = 1e5;
    p.scene.height = 0.5;
    long steps = test_quick() ? 300 : 10000;
    uint64_t first = 0;
    for (int threads = 1; threads <= 3; threads++) {
        p.def.solver.threads = threads;
        dinghy_sim *s = test_sim(&p);
        if (threads == 1)
            printf("    stiffness 1e5 N/m, dt %g s: %d substeps\n", p.def.solver.dt,
                   sim_substeps(s));
        assert_true(sim_substeps(s) > 1);
        assert_int_equal(sim_step(s, steps), steps);
        assert_false(sim_blowup(s).happened);
        uint64_t h = sim_hash(s);
        if (threads == 1)
            first = h;
        assert_true(h == first);
        sim_destroy(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archimedes_float),
        cmocka_unit_test(test_skin_displaces_water),
        cmocka_unit_test(test_gas_law_when_squashed),
        cmocka_unit_test(test_gas_keeps_momentum),
        cmocka_unit_test(test_gas_and_membrane_keep_momentum),
        cmocka_unit_test(test_terminal_speed),
        cmocka_unit_test(test_stiff_rings_with_substeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
