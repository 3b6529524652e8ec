/* Rings through each other (dinghy/overlap.h, physics/contact/push_out.h,
 * docs/physics.md section 9 "Overlaps"): the checker finds what the whole
 * mesh's winding number finds (and can fail: two rings placed through
 * each other by hand); sim_pose_clear is exact at its threshold; no scene
 * places a ring inside another; a ring dropped 25 or 45 cm through another
 * is pushed out within 0.25 s, with momentum kept; a vertex less than the
 * contact thickness inside is pushed out too; and no vertex is inside
 * another ring's skin, sampled every 0.1 s, in a 20 m/s head-on pair,
 * packed and pile (sim.dt 1 ms and 1/60 s), and the rapids (1/60 s) under
 * several sim.seed values.
 *
 * DINGHY_TEST_BENCH=1 runs the long version too: the default rapids (64
 * rings) to 20 s under seeds 1 to 5, printing the cost of the checks. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dinghy/overlap.h"
#include "physics/contact/inside.h"
#include "physics/contact/push_out.h"
#include "physics/skin/membrane.h"

static sim_ring_pose pose_at(double x, double y, double z, double tilt_x)
{
    sim_ring_pose d;
    memset(&d, 0, sizeof d);
    d.centre[0] = x, d.centre[1] = y, d.centre[2] = z;
    double c = cos(tilt_x), s = sin(tilt_x); /* about the x axis */
    double rot[9] = {1, 0, 0, 0, c, -s, 0, s, c};
    memcpy(d.rot, rot, sizeof rot);
    return d;
}

/* The vertices inside another ring's skin by brute force: every vertex
 * against every other ring's whole mesh (inside.h). */
static int brute_count(const dinghy_sim *s)
{
    int P = sim_ring_count(s), M = sim_segments(s), N = sim_sides(s), MN = M * N, n = 0;
    sim_state_view st = sim_state(s);
    for (int p = 0; p < P; p++)
        for (int i = p * MN; i < (p + 1) * MN; i++) {
            double pt[3] = {st.x[i], st.y[i], st.z[i]};
            for (int q = 0; q < P; q++) {
                size_t o = (size_t)q * MN;
                if (q != p
                    && mesh_winding_number(M, N, st.x + o, st.y + o, st.z + o, pt) > 0.5) {
                    n++;
                    break;
                }
            }
        }
    return n;
}

/* The defaults with no gravity, water or air: rings alone in space. */
static sim_def free_space(void)
{
    sim_def d = sim_def_default();
    d.world.gravity = 0.0;
    d.world.water.level = -1000.0;
    d.world.air_density = 0.0;
    d.solver.damping = 0.0;
    /* the rest torus as placed: springs hold it (a membrane with gas is
     * placed at its inflated shape, larger than R and r say) */
    d.ring.skin = SIM_SKIN_SPRINGS;
    return d;
}

/* (1) The checker can fail: two rings placed through each other by hand,
 * tubes crossing 20 cm deep, are found, and the count is the brute
 * force's, also after they deform (the seed's centre-line contact, which
 * has no push-out, lets them stay through each other). Apart: none. */
static void test_checker_finds_rings_through_each_other(void **state)
{
    (void)state;
    sim_def d = free_space();
    d.ring.contact = SIM_CONTACT_CENTRELINE;
    d.ring.repulsion = 0.0;
    dinghy_sim *s = test_sim_empty(&d, 3);
    const double R = d.ring.major_radius, r = d.ring.minor_radius;
    sim_ring_pose a = pose_at(0.0, 0.0, 0.0, 0.0), b = pose_at(2.0 * R + 2.0 * r - 0.2, 0.0, 0.0, 0.0);
    sim_ring_pose c = pose_at(0.0, 0.0, 0.0, 0.5 * 3.14159265358979);
    sim_add_ring(s, &a);
    assert_int_equal(sim_overlap_count(s, NULL), 0);
    assert_false(sim_pose_clear(s, &b, 0.0));
    sim_add_ring(s, &b);
    sim_overlap_info first;
    int n = sim_overlap_count(s, &first);
    printf("two flat rings 20 cm through each other: %d vertices inside (brute force %d), "
           "first: ring %d vertex %d in ring %d, winding %.6f\n", n, brute_count(s), first.ring,
           first.vertex, first.other, first.winding);
    assert_true(n > 0);
    assert_int_equal(n, brute_count(s));
    assert_int_equal(first.ring, 0);
    assert_int_equal(first.other, 1);
    assert_close(first.winding, 1.0, 1e-6);
    /* a third ring standing up through the first: links it like a chain */
    sim_add_ring(s, &c);
    for (int k = 0; k < 4; k++) {
        n = sim_overlap_count(s, NULL);
        int brute = brute_count(s);
        printf("  three rings, step %d: %d inside, brute force %d\n", k * 50, n, brute);
        assert_true(n > 0);
        assert_int_equal(n, brute);
        sim_step(s, 50);
    }
    sim_destroy(s);
    /* apart by a hair: nothing */
    s = test_sim_empty(&d, 2);
    sim_add_ring(s, &a);
    sim_ring_pose e = pose_at(2.0 * R + 2.0 * r + 1e-3, 0.0, 0.0, 0.0);
    sim_add_ring(s, &e);
    assert_int_equal(sim_overlap_count(s, NULL), 0);
    sim_destroy(s);
}

/* (2) sim_pose_clear at its threshold: flat rings side by side (the
 * circles' gap is the centres' distance less 2 R) and stacked (the gap is
 * the height), and tilted through each other. */
static void test_pose_clear_threshold(void **state)
{
    (void)state;
    sim_def d = free_space();
    dinghy_sim *s = test_sim_empty(&d, 2);
    const double R = d.ring.major_radius, r = d.ring.minor_radius, h = 0.01;
    sim_ring_pose a = pose_at(0.0, 0.0, 0.0, 0.0);
    sim_add_ring(s, &a);
    const double side = 2.0 * R + 2.0 * r + h;
    for (int k = -1; k <= 1; k += 2) {
        sim_ring_pose b = pose_at(side + k * 1e-4, 0.0, 0.0, 0.0);
        assert_int_equal(sim_pose_clear(s, &b, h), k > 0);
        sim_ring_pose c = pose_at(0.3, -0.2, 2.0 * r + h + k * 1e-4, 0.0);
        assert_int_equal(sim_pose_clear(s, &c, h), k > 0);
    }
    sim_ring_pose t = pose_at(R, 0.0, 0.05, 0.3); /* tilted across the tube */
    assert_false(sim_pose_clear(s, &t, h));
    /* a link of a chain, through the hole: its skin clear of the other's */
    sim_ring_pose link = pose_at(R, 0.0, 0.0, 0.5 * 3.14159265358979);
    assert_true(sim_pose_clear(s, &link, h));
    sim_ring_pose far = pose_at(0.0, 0.0, 2.0 * (R + r), 0.7);
    assert_true(sim_pose_clear(s, &far, h));
    sim_destroy(s);
}

/* (3) No scene places a ring inside another: every ring clear of every
 * other by the contact thickness (each ring as the only one there), and
 * none inside after one step, for the random layouts under several seeds. */
static void check_layout(const char *scene, int count, uint64_t seed)
{
    test_params p = test_physical();
    p.scene.index = scene_index(scene);
    p.scene.count = count;
    p.scene.seed = seed;
    dinghy_sim *s = test_sim(&p);
    const int P = sim_ring_count(s);
    assert_int_equal(sim_overlap_count(s, NULL), 0);
    sim_step(s, 1);
    sim_overlap_info first;
    int n = sim_overlap_count(s, &first);
    if (n)
        fail_msg("%s seed %llu: %d vertices inside after one step (ring %d in ring %d)", scene,
                 (unsigned long long)seed, n, first.ring, first.other);
    (void)P;
    sim_destroy(s);
}

static void test_layouts_place_no_ring_inside_another(void **state)
{
    (void)state;
    const int quick = test_quick();
    for (uint64_t seed = 1; seed <= (quick ? 2u : 5u); seed++)
        check_layout("rapids", 64, seed);
    check_layout("rapids", 64, scene_def_default().seed);
    check_layout("pile", 32, scene_def_default().seed);
    check_layout("packed", quick ? 16 : 64, scene_def_default().seed);
    check_layout("lake", quick ? 16 : 64, 3);
    /* a grid closer than a ring across: the rings are stacked clear */
    test_params p = test_physical();
    p.scene.index = scene_index("grid");
    p.scene.count = 4;
    p.scene.spacing = 0.5;
    dinghy_sim *s = test_sim(&p);
    assert_int_equal(sim_overlap_count(s, NULL), 0);
    const sim_ring_state *rs = sim_rings(s);
    for (int i = 1; i < 4; i++)
        assert_true(rs[i].centre[2] > rs[i - 1].centre[2]);
    sim_destroy(s);
}

/* Momentum (kg m/s) of every vertex, summed in double. */
static double momentum(const dinghy_sim *s, double p[3])
{
    sim_state_view st = sim_state(s);
    double m = sim_ring_vertex_mass(&sim_get_def(s)->ring), ke = 0.0;
    p[0] = p[1] = p[2] = 0.0;
    for (size_t i = 0; i < sim_vertex_count(s); i++) {
        p[0] += m * st.vx[i], p[1] += m * st.vy[i], p[2] += m * st.vz[i];
        ke += 0.5 * m * (st.vx[i] * st.vx[i] + st.vy[i] * st.vy[i] + st.vz[i] * st.vz[i]);
    }
    return ke;
}

/* (4) Push-out: a ring dropped through another (by hand, through the
 * API's sim_add_ring, which does not check), moving into it at 2 m/s, in
 * free space: within 0.2 s no vertex is inside and none is again in the
 * next second, the momentum is what it was (the push-out's impulses are
 * equal and opposite, as are the springs', gas's and contact's), and the
 * rings part and stay whole. At the 1 ms step and the 1/60 s one. */
static void push_out_case(double dt, int deep_cm)
{
    sim_def d = free_space();
    d.solver.dt = dt;
    d.solver.substeps = 0;
    dinghy_sim *s = test_sim_empty(&d, 2);
    const double R = d.ring.major_radius, r = d.ring.minor_radius;
    sim_ring_pose a = pose_at(0.0, 0.0, 0.0, 0.0);
    sim_ring_pose b = pose_at(2.0 * (R + r) - 0.01 * deep_cm, 0.3, 0.1, 0.2);
    b.velocity[0] = -2.0;
    sim_add_ring(s, &a);
    sim_add_ring(s, &b);
    int n0 = sim_overlap_count(s, NULL), n1 = -1, worst_after = 0;
    assert_true(n0 > 0);
    double p0[3], p1[3], cleared = -1.0;
    const double ke0 = momentum(s, p0);
    const long steps = (long)ceil(0.6 / dt);
    for (long k = 0; k < steps; k++) {
        if (sim_step(s, 1) != 1) {
            char msg[1024];
            sim_blowup_message(s, msg, sizeof msg);
            fail_msg("step %ld: %s", k + 1, msg);
        }
        int n = sim_overlap_count(s, NULL);
        if (getenv("DINGHY_TEST_VERBOSE"))
            printf("  step %ld: %d inside\n", k + 1, n);
        if (k == 0)
            n1 = n;
        if (n == 0 && cleared < 0.0)
            cleared = sim_time(s);
        if (cleared >= 0.0 && n > worst_after)
            worst_after = n;
    }
    const double ke1 = momentum(s, p1);
    const sim_ring_state *rs = sim_rings(s);
    printf("dt %.4f s (%d substeps), %d cm deep: %d vertices inside at the start, %d after one "
           "step, none from %.4f s on (at most %d after that); momentum x %.6f -> %.6f kg m/s; "
           "ring speeds x %.3f, %.3f m/s; kinetic energy %.1f -> %.1f J\n", dt, sim_substeps(s),
           deep_cm, n0, n1, cleared, worst_after, p0[0], p1[0], rs[0].velocity[0],
           rs[1].velocity[0], ke0, ke1);
    assert_true(cleared >= 0.0 && cleared <= 0.25);
    assert_int_equal(worst_after, 0);
    for (int k = 0; k < 3; k++)
        assert_close(p1[k], p0[k], 1e-4 * 30.0);
    assert_false(sim_blowup(s).happened);
    assert_true(rs[1].velocity[0] > rs[0].velocity[0] - 1e-3); /* not into each other */
    sim_destroy(s);
}

static void test_push_out_undoes_a_deep_overlap(void **state)
{
    (void)state;
    push_out_case(0.001, 25);
    push_out_case(1.0 / 60.0, 25);
    if (!test_quick())
        push_out_case(1.0 / 60.0, 45);
}

/* (4b) A vertex less than the contact thickness h inside another skin is
 * pushed out too, not left to the contact (in a pile of burst rings such
 * vertices sat between a flattened tube's two walls, pushed by both, out
 * of neither: about 60 of them from 2 s on). Two rings at rest shape,
 * their tubes 2 to 8 mm into each other, closing at 0.5 m/s: after one
 * push-out none is inside, the vertices' approach into the triangles
 * they were in is under 5% of that, and neither ring is moved as a
 * whole (only a deeper vertex does that). */
static void test_push_out_takes_shallow_vertices(void **state)
{
    (void)state;
    sim_def d = free_space();
    const double R = d.ring.major_radius, r = d.ring.minor_radius, h = d.ring.contact_thickness;
    for (int mm = 2; mm <= 8; mm += 3) {
        dinghy_sim *s = test_sim_empty(&d, 2);
        sim_ring_pose a = pose_at(0.0, 0.0, 0.0, 0.0);
        sim_ring_pose b = pose_at(2.0 * (R + r) - 1e-3 * mm, 0.0, 0.0, 0.0);
        sim_add_ring(s, &a);
        sim_add_ring(s, &b);
        const int M = sim_segments(s), N = sim_sides(s);
        const size_t nv = sim_vertex_count(s), V = (size_t)M * N;
        sim_state_view st = sim_state(s);
        float *f = calloc(6 * nv, sizeof *f);
        assert_non_null(f);
        float *x = f, *y = f + nv, *z = f + 2 * nv, *vx = f + 3 * nv, *vy = f + 4 * nv,
              *vz = f + 5 * nv;
        for (size_t i = 0; i < nv; i++)
            x[i] = st.x[i], y[i] = st.y[i], z[i] = st.z[i], vx[i] = i < V ? 0.25f : -0.25f;
        push_out_mesh m = {2, M, N, x, y, z};
        push_out_work *w = push_out_new();
        assert_non_null(w);
        const long n0 = push_out_find(w, &m, 1);
        long count;
        const push_out_hit *hit = push_out_hits(w, &count);
        double deepest = 0.0;
        for (long k = 0; k < count; k++)
            deepest = fmax(deepest, hit[k].depth);
        push_out_state ps = {x, y, z, vx, vy, vz, sim_ring_vertex_mass(&d.ring), h, 0.02,
                             SIM_PUSH_OUT_SPEED, 1.0 / 60.0};
        assert_int_equal(push_out_apply(w, &m, &ps), 0);
        assert_true(n0 > 0 && deepest < h);
        for (long k = 0; k < count; k++) { /* the approach into the nearest triangle stopped */
            const push_out_hit *e = &hit[k];
            const size_t i = (size_t)e->ring * V + (size_t)e->vertex, o = (size_t)e->other * V;
            int c[3]; /* push_out.h's triangle 2 (m N + n) + kind: the membrane's numbering */
            membrane_triangle_corners(M, N, e->tri / 2 / N, e->tri / 2 % N, e->tri % 2, c);
            double vn = 0.0;
            for (int j = 0; j < 3; j++) {
                const size_t k = o + (size_t)c[j];
                vn -= e->w[j] * (vx[k] * e->u[0] + vy[k] * e->u[1] + vz[k] * e->u[2]);
            }
            vn += vx[i] * e->u[0] + vy[i] * e->u[1] + vz[i] * e->u[2];
            assert_true(vn > -0.05 * 0.5); /* one Jacobi pass (0.4-3.7% left) */
        }
        const long n1 = push_out_find(w, &m, 1);
        printf("tubes %d mm into each other: %ld vertices inside, the deepest %.1f mm (h %.0f "
               "mm); %ld after one push-out; the touching vertices' x speeds %.3f, %.3f m/s\n", mm,
               n0, 1e3 * deepest, 1e3 * h, n1, vx[0], vx[V + V / 2]);
        assert_int_equal(n1, 0);
        assert_true(vx[V / 2] == 0.25f && vx[V] == -0.25f); /* the far sides: unmoved */
        push_out_free(w);
        free(f);
        sim_destroy(s);
    }
}

/* Runs the scene for `seconds`, checking every 0.1 s of simulated time
 * (and at the first step) that no vertex is inside another ring's skin. */
static void run_checked(const test_params *p, double seconds, const char *what)
{
    dinghy_sim *s = test_sim(p);
    const double dt = sim_get_def(s)->solver.dt;
    const long every = (long)floor(0.1 / dt + 1e-9) > 0 ? (long)floor(0.1 / dt + 1e-9) : 1;
    const long steps = (long)ceil(seconds / dt);
    double check_s = 0.0;
    for (long k = 0; k < steps;) {
        long n = k == 0 ? 1 : (steps - k < every ? steps - k : every);
        assert_int_equal(sim_step(s, n), n);
        k += n;
        clock_t t0 = clock();
        sim_overlap_info first;
        int in = sim_overlap_count(s, &first);
        check_s += (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (in)
            fail_msg("%s: step %ld (t %.2f s): %d vertices inside another ring (vertex %d of "
                     "ring %d in ring %d, winding %.3f)", what, k, sim_time(s), in, first.vertex,
                     first.ring, first.other, first.winding);
    }
    assert_false(sim_blowup(s).happened);
    printf("%s: %.2f s, no vertex inside another ring at any 0.1 s (checks %.2f s CPU)\n", what,
           sim_time(s), check_s);
    sim_destroy(s);
}

static test_params scene_params(const char *scene, int count, double dt)
{
    test_params p = test_physical();
    p.scene.index = scene_index(scene);
    p.scene.count = count;
    p.def.solver.dt = dt;
    p.def.solver.substeps = 0;
    return p;
}

/* (5) No vertex inside another ring's skin as the scenes run. */
static void test_head_on_20_m_s(void **state)
{
    (void)state;
    const double dts[2] = {0.001, 1.0 / 60.0};
    for (int k = 0; k < 2; k++) {
        test_params p = scene_params("pair", 2, dts[k]);
        p.scene.spacing = 2.0 * (p.def.ring.major_radius + p.def.ring.minor_radius) + 0.2;
        p.scene.speed = 20.0;
        p.scene.height = 0.3;
        char what[64];
        snprintf(what, sizeof what, "pair at 20 m/s, dt %.4f", dts[k]);
        run_checked(&p, test_quick() ? 0.2 : 0.6, what);
    }
}

static void test_packed_and_pile(void **state)
{
    (void)state;
    const double dts[2] = {1.0 / 60.0, 0.001}, secs[2] = {1.0, 0.3};
    for (int k = 0; k < 2; k++) {
        char what[64];
        test_params p = scene_params("packed", 9, dts[k]);
        snprintf(what, sizeof what, "packed 9, dt %.4f", dts[k]);
        run_checked(&p, test_quick() ? 0.1 : secs[k], what);
        p = scene_params("pile", 12, dts[k]);
        snprintf(what, sizeof what, "pile 12, dt %.4f", dts[k]);
        run_checked(&p, test_quick() ? 0.1 : 1.5 * secs[k], what);
    }
}

static void test_rapids_seeds(void **state)
{
    (void)state;
    const int quick = test_quick();
    const uint64_t seeds[3] = {scene_def_default().seed, 3, 4};
    for (int k = 0; k < (quick ? 1 : 3); k++) {
        test_params p = scene_params("rapids", 64, 1.0 / 60.0);
        p.scene.seed = seeds[k];
        char what[64];
        snprintf(what, sizeof what, "rapids 64, seed %llu, dt 1/60", (unsigned long long)seeds[k]);
        run_checked(&p, quick ? 0.1 : 0.4, what);
    }
}

/* The long version, by hand: DINGHY_TEST_BENCH=1 (DINGHY_TEST_BENCH_DT
 * sets sim.dt, default the program's; DINGHY_TEST_BENCH_SEED runs that
 * seed alone). */
static void test_rapids_long(void **state)
{
    (void)state;
    if (!getenv("DINGHY_TEST_BENCH")) {
        printf("rapids to 20 s under seeds 1..5: DINGHY_TEST_BENCH=1\n");
        return;
    }
    const char *dts = getenv("DINGHY_TEST_BENCH_DT"), *one = getenv("DINGHY_TEST_BENCH_SEED");
    const uint64_t first = one ? strtoull(one, NULL, 10) : 1, last = one ? first : 5;
    for (uint64_t seed = first; seed <= last; seed++) {
        test_params p = scene_params("rapids", 64, dts ? atof(dts) : sim_def_default().solver.dt);
        p.scene.seed = seed;
        char what[64];
        snprintf(what, sizeof what, "rapids 64, seed %llu, dt %.4f", (unsigned long long)seed,
                 p.def.solver.dt);
        clock_t t0 = clock();
        run_checked(&p, 20.0, what);
        printf("  %.0f s CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_finds_rings_through_each_other),
        cmocka_unit_test(test_pose_clear_threshold),
        cmocka_unit_test(test_layouts_place_no_ring_inside_another),
        cmocka_unit_test(test_push_out_undoes_a_deep_overlap),
        cmocka_unit_test(test_push_out_takes_shallow_vertices),
        cmocka_unit_test(test_head_on_20_m_s),
        cmocka_unit_test(test_packed_and_pile),
        cmocka_unit_test(test_rapids_seeds),
        cmocka_unit_test(test_rapids_long),
    };
    if (getenv("DINGHY_TEST_FILTER")) /* one test by name, while working on it */
        cmocka_set_test_filter(getenv("DINGHY_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
