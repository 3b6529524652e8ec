/* Skin contact through the simulation (docs/physics.md section 9): the
 * kernel (physics/contact/, tests/test_contact.c) in the tick with
 * springs, gas and water: conservation in a free collision, no skin
 * inside another at 20 m/s and in the crowded scenes, a ring resting on
 * another, and contact starts as events. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/contact/inside.h"

/* The defaults (skin contact, gas, exact water) with no gravity, no
 * water (far below), no air and no damping: two rings alone in space. On
 * the springs skin: the membrane's gas is filled for its swollen shape, so
 * a membrane ring starts breathing (elastic and kinetic energy trading)
 * and would hide the contact's energy balance and its moment of touch. */
static sim_def free_space(void)
{
    sim_def d = test_sim_def();
    d.ring.skin = SIM_SKIN_SPRINGS;
    d.world.gravity = 0.0;
    d.world.water.level = -1000.0;
    d.world.air_density = 0.0;
    d.solver.damping = 0.0;
    return d;
}

static void add_ring(dinghy_sim *s, double x, double y, double z, double vx)
{
    sim_ring_pose pose;
    memset(&pose, 0, sizeof pose);
    pose.centre[0] = x, pose.centre[1] = y, pose.centre[2] = z;
    pose.rot[0] = pose.rot[4] = pose.rot[8] = 1.0;
    pose.velocity[0] = vx;
    assert_true(sim_ring_valid(s, sim_add_ring(s, &pose)));
}

/* Momentum (kg m/s), angular momentum about the origin (kg m^2/s) and
 * kinetic energy (J) of every vertex, summed in double. */
static void totals(const dinghy_sim *s, double p[3], double L[3], double *ke)
{
    sim_state_view st = sim_state(s);
    double m = sim_ring_vertex_mass(&sim_get_def(s)->ring);
    memset(p, 0, 3 * sizeof *p), memset(L, 0, 3 * sizeof *L);
    *ke = 0.0;
    for (size_t i = 0; i < sim_vertex_count(s); i++) {
        double x[3] = {st.x[i], st.y[i], st.z[i]}, v[3] = {st.vx[i], st.vy[i], st.vz[i]};
        for (int k = 0; k < 3; k++)
            p[k] += m * v[k];
        L[0] += m * (x[1] * v[2] - x[2] * v[1]);
        L[1] += m * (x[2] * v[0] - x[0] * v[2]);
        L[2] += m * (x[0] * v[1] - x[1] * v[0]);
        *ke += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
}

/* Two free rings meeting off-centre at 5 m/s: the contact forces are
 * equal and opposite (momentum), the normal ones central (angular
 * momentum), and dissipative (kinetic energy). Friction acts at a lever
 * of at most h (the point is up to h from the triangle), so with friction
 * the angular momentum may change by up to h times the friction impulse:
 * checked to round-off without friction, to that bound with it. */
static void free_collision(double mu)
{
    sim_def d = free_space();
    d.ring.friction = mu;
    dinghy_sim *s = test_sim_empty(&d, 2);
    const double reach = 2.0 * (d.ring.major_radius + d.ring.minor_radius);
    add_ring(s, -0.5 * reach - 0.05, 0.3, 0.0, 5.0);
    add_ring(s, 0.5 * reach + 0.05, 0.0, 0.0, 0.0);
    double p0[3], L0[3], ke0, p[3], L[3], ke, ke_min = INFINITY, dp = 0.0, dL = 0.0;
    totals(s, p0, L0, &ke0);
    const double P0 = fabs(p0[0]), Lsize = fabs(L0[0]) + fabs(L0[1]) + fabs(L0[2]);
    /* round-off: float sums of forces up to 1e4 N over 1024 vertices a
     * step; friction: h times at most mu times the normal impulse (<= 2 P0) */
    const double tol_p = 1e-5 * P0;
    const double tol_L = 1e-5 * Lsize + d.ring.contact_thickness * mu * 2.0 * P0;
    int touched = 0;
    /* The gas and the springs are not at rest together in the start
     * shape: each ring breathes, trading a little kinetic energy (0.5%)
     * with its springs and gas. The bound is the most it had before the
     * skins met: the contact may only take energy away. */
    double ke_free = ke0;
    for (int k = 0; k < 300; k++) {
        assert_int_equal(sim_step(s, 1), 1);
        totals(s, p, L, &ke);
        const sim_ring_state *r = sim_rings(s);
        touched |= r[0].contact_vertices > 0 && r[1].contact_vertices > 0;
        if (!touched)
            ke_free = fmax(ke_free, ke);
        for (int j = 0; j < 3; j++) {
            dp = fmax(dp, fabs(p[j] - p0[j]));
            dL = fmax(dL, fabs(L[j] - L0[j]));
            if (fabs(p[j] - p0[j]) > tol_p)
                fail_msg("mu %g, step %d: momentum %c %.9g, was %.9g", mu, k, "xyz"[j], p[j], p0[j]);
            if (fabs(L[j] - L0[j]) > tol_L)
                fail_msg("mu %g, step %d: angular momentum %c %.9g, was %.9g", mu, k, "xyz"[j],
                         L[j], L0[j]);
        }
        if (ke > ke_free * (1.0 + 1e-6))
            fail_msg("mu %g, step %d: kinetic energy %.6g J grew past %.6g J", mu, k, ke, ke_free);
        ke_min = fmin(ke_min, ke);
    }
    assert_true(touched);
    assert_true(ke_min < 0.9 * ke0); /* the collision took energy (restitution 0) */
    printf("free collision, mu %g: |dp| <= %.2g of %.0f kg m/s, |dL| <= %.2g of %.1f kg m^2/s, "
           "KE %.1f -> min %.1f J\n", mu, dp, P0, dL, Lsize, ke0, ke_min);
    sim_destroy(s);
}

static void test_free_collision_conserves(void **state)
{
    (void)state;
    free_collision(0.0);
    free_collision(0.6);
}

/* The vertices of any ring inside another ring's closed skin (winding
 * number over 0.5), checking only ring pairs whose vertex boxes overlap. */
static int skins_inside(const dinghy_sim *s, int *worst_ring)
{
    int P = sim_ring_count(s), M = sim_segments(s), N = sim_sides(s), MN = M * N, inside = 0;
    sim_state_view st = sim_state(s);
    double *box = malloc(sizeof *box * 6 * (size_t)P);
    for (int p = 0; p < P; p++) {
        double *b = box + 6 * p;
        b[0] = b[1] = b[2] = INFINITY;
        b[3] = b[4] = b[5] = -INFINITY;
        for (int i = p * MN; i < (p + 1) * MN; i++) {
            double x[3] = {st.x[i], st.y[i], st.z[i]};
            for (int k = 0; k < 3; k++)
                b[k] = fmin(b[k], x[k]), b[3 + k] = fmax(b[3 + k], x[k]);
        }
    }
    for (int q = 0; q < P; q++)
        for (int p = 0; p < P; p++) {
            const double *a = box + 6 * p, *b = box + 6 * q;
            if (p == q || a[0] > b[3] || b[0] > a[3] || a[1] > b[4] || b[1] > a[4]
                || a[2] > b[5] || b[2] > a[5])
                continue;
            size_t o = (size_t)q * MN;
            for (int i = p * MN; i < (p + 1) * MN; i++) {
                double pt[3] = {st.x[i], st.y[i], st.z[i]};
                if (pt[0] < b[0] || pt[0] > b[3] || pt[1] < b[1] || pt[1] > b[4]
                    || pt[2] < b[2] || pt[2] > b[5])
                    continue;
                if (mesh_winding_number(M, N, st.x + o, st.y + o, st.z + o, pt) > 0.5) {
                    inside++;
                    *worst_ring = p;
                }
            }
        }
    free(box);
    return inside;
}

/* Runs p at the default step for `seconds` of simulated time, checking
 * every 0.1 s that no vertex is inside another ring's skin, and that
 * every ring is whole at the end. */
static void check_no_skin_inside(test_params p, double seconds)
{
    test_default_step(&p);
    dinghy_sim *s = test_sim(&p);
    const long every = test_steps(&p, 0.1), steps = test_steps(&p, seconds);
    for (long k = every; k <= steps; k += every) {
        assert_int_equal(sim_step(s, every), every);
        int ring = -1, n = skins_inside(s, &ring);
        if (n)
            fail_msg("scene %s, t = %.2f s: %d vertices inside another ring (one of ring %d)",
                     scene_of(&p.scene)->name, sim_time(s), n, ring);
    }
    assert_false(sim_blowup(s).happened);
    sim_destroy(s);
}

/* Head on at 20 m/s (the bound) at the default sim.dt (1/60 s:
 * the contact found once a step). */
static void test_no_tunnelling_20_m_s(void **state)
{
    (void)state;
    test_params p = test_physical();
    p.scene.index = scene_index("pair");
    p.scene.spacing = 2.0 * (p.def.ring.major_radius + p.def.ring.minor_radius) + 0.2;
    p.scene.speed = 20.0;
    p.scene.height = 0.3;
    check_no_skin_inside(p, test_quick() ? 0.2 : 0.5);
}

static void test_no_skin_inside_packed(void **state)
{
    (void)state;
    test_params p = test_physical();
    p.scene.index = scene_index("packed");
    p.scene.count = 9;
    check_no_skin_inside(p, test_quick() ? 0.2 : 0.8);
}

static void test_no_skin_inside_pile(void **state)
{
    (void)state;
    test_params p = test_physical();
    p.scene.index = scene_index("pile");
    p.scene.count = 8;
    p.scene.height = 0.3;
    check_no_skin_inside(p, test_quick() ? 0.3 : 1.5);
}

static void test_no_skin_inside_rapids(void **state)
{
    (void)state;
    test_params p = test_physical();
    p.scene.index = scene_index("rapids");
    p.scene.count = 16;
    check_no_skin_inside(p, test_quick() ? 0.2 : 0.6);
}

/* Distance from pt to triangle abc (Ericson's closest point by regions). */
static double tri_distance(const double pt[3], const double a[3], const double b[3],
                           const double c[3])
{
    double ab[3], ac[3], ap[3], q[3];
    for (int k = 0; k < 3; k++)
        ab[k] = b[k] - a[k], ac[k] = c[k] - a[k], ap[k] = pt[k] - a[k];
#define DOT(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    double bp[3] = {pt[0] - b[0], pt[1] - b[1], pt[2] - b[2]};
    double cp[3] = {pt[0] - c[0], pt[1] - c[1], pt[2] - c[2]};
    double d3 = DOT(ab, bp), d4 = DOT(ac, bp), d5 = DOT(ab, cp), d6 = DOT(ac, cp);
#undef DOT
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    double v, w;
    if (d1 <= 0 && d2 <= 0)
        v = 0, w = 0;
    else if (d3 >= 0 && d4 <= d3)
        v = 1, w = 0;
    else if (vc <= 0 && d1 >= 0 && d3 <= 0)
        v = d1 / (d1 - d3), w = 0;
    else if (d6 >= 0 && d5 <= d6)
        v = 0, w = 1;
    else if (vb <= 0 && d2 >= 0 && d6 <= 0)
        v = 0, w = d2 / (d2 - d6);
    else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        v = 1 - w;
    } else {
        double den = 1.0 / (va + vb + vc);
        v = vb * den, w = vc * den;
    }
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + v * ab[k] + w * ac[k];
    return sqrt((pt[0] - q[0]) * (pt[0] - q[0]) + (pt[1] - q[1]) * (pt[1] - q[1])
                + (pt[2] - q[2]) * (pt[2] - q[2]));
}

/* Distance from pt to ring q's skin (its triangles), m. */
static double skin_distance(const dinghy_sim *s, int q, const double pt[3])
{
    int M = sim_segments(s), N = sim_sides(s);
    sim_state_view st = sim_state(s);
    size_t o = (size_t)q * M * N;
    double best = INFINITY;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            size_t v[4] = {o + (size_t)m * N + n, o + (size_t)((m + 1) % M) * N + n,
                           o + (size_t)((m + 1) % M) * N + (n + 1) % N,
                           o + (size_t)m * N + (n + 1) % N};
            double c[4][3];
            for (int k = 0; k < 4; k++)
                c[k][0] = st.x[v[k]], c[k][1] = st.y[v[k]], c[k][2] = st.z[v[k]];
            best = fmin(best, tri_distance(pt, c[0], c[1], c[2]));
            best = fmin(best, tri_distance(pt, c[0], c[2], c[3]));
        }
    return best;
}

/* A ring dropped 2 cm onto a floating one comes to rest on it: a contact
 * patch (many vertices pushed), and where they touch (the upper ring's
 * lowest vertices) no gap wider than twice the contact thickness. */
static void test_ring_rests_on_ring(void **state)
{
    (void)state;
    sim_def d = test_sim_def();
    d.solver.damping = 5.0; /* settles within the run */
    dinghy_sim *s = test_sim_empty(&d, 2);
    add_ring(s, 0.0, 0.0, 0.0, 0.0);
    add_ring(s, 0.0, 0.0, 2.0 * d.ring.minor_radius + d.ring.contact_thickness + 0.02, 0.0);
    if (test_quick()) { /* sanitizer build: they touch; the rest is the optimised build's */
        assert_int_equal(sim_step(s, 300), 300);
        sim_destroy(s);
        return;
    }
    assert_int_equal(sim_step(s, 3000), 3000);
    const sim_ring_state *r = sim_rings(s);
    printf("resting: ring 1 has %d vertices in contact, %.1f N (its weight %.1f N), "
           "vz %.4f m/s\n", r[1].contact_vertices, r[1].contact_force,
           d.ring.mass * d.world.gravity, r[1].velocity[2]);
    assert_true(r[1].contact_vertices >= 16);
    assert_true(r[0].contact_vertices >= 16);
    assert_true(fabs(r[1].velocity[2]) < 0.01);
    sim_state_view st = sim_state(s);
    size_t MN = (size_t)sim_segments(s) * sim_sides(s);
    double low = r[1].min_z, worst = 0.0;
    int n = 0;
    for (size_t i = MN; i < 2 * MN; i++) {
        if (st.z[i] > low + 0.01)
            continue;
        double pt[3] = {st.x[i], st.y[i], st.z[i]};
        double gap = skin_distance(s, 0, pt);
        worst = fmax(worst, gap);
        n++;
    }
    printf("resting: the %d lowest vertices are at most %.2f mm from the lower skin (h %.0f mm)\n",
           n, 1e3 * worst, 1e3 * d.ring.contact_thickness);
    assert_true(n >= 16);
    assert_true(worst <= 2.0 * d.ring.contact_thickness);
    sim_destroy(s);
}

/* Friction through the sim: a ring dropped 2 cm onto another while
 * moving sideways at `speed`; its displacement relative to the lower
 * ring over the next second. With Coulomb friction the two soon move
 * together (sticking once mu N can hold them); without, it slides on. */
static double slide_after(double mu, double speed)
{
    sim_def d = test_sim_def();
    d.ring.friction = mu;
    dinghy_sim *s = test_sim_empty(&d, 2);
    add_ring(s, 0.0, 0.0, 0.0, 0.0);
    add_ring(s, 0.0, 0.0, 2.0 * d.ring.minor_radius + d.ring.contact_thickness + 0.02, speed);
    assert_int_equal(sim_step(s, 100), 100); /* landed */
    double x0 = sim_rings(s)[1].centre[0] - sim_rings(s)[0].centre[0];
    assert_int_equal(sim_step(s, 1000), 1000);
    double x1 = sim_rings(s)[1].centre[0] - sim_rings(s)[0].centre[0];
    sim_destroy(s);
    return x1 - x0;
}

static void test_friction_sticks_and_slides(void **state)
{
    (void)state;
    double stick = slide_after(0.6, 0.2), slide = slide_after(0.0, 0.2);
    printf("friction: landing at 0.2 m/s sideways, the upper ring then moves %.1f mm on the "
           "lower (mu 0.6), %.1f mm (mu 0)\n", 1e3 * stick, 1e3 * slide);
    assert_true(fabs(slide) > 2.0 * fabs(stick));
}

/* Contact starts come from the skins meeting, with the impact speed. */
static void test_contact_start_event(void **state)
{
    (void)state;
    sim_def d = free_space();
    dinghy_sim *s = test_sim_empty(&d, 2);
    const double reach = 2.0 * (d.ring.major_radius + d.ring.minor_radius);
    add_ring(s, -0.5 * reach - 0.05, 0.0, 0.0, 3.0);
    add_ring(s, 0.5 * reach + 0.05, 0.0, 0.0, 0.0);
    int starts = 0;
    double speed = 0.0;
    long first = -1;
    for (int k = 0; k < 100; k++) {
        sim_step(s, 1);
        size_t n;
        const sim_event *ev = sim_events(s, &n, NULL);
        for (size_t j = 0; j < n; j++)
            if (ev[j].kind == SIM_EVENT_CONTACT) {
                starts++;
                speed = ev[j].speed;
                if (first < 0)
                    first = k;
            }
    }
    printf("contact start at step %ld, %.2f m/s (%d starts)\n", first, speed, starts);
    /* the gap 0.1 m closes at 3 m/s in about 33 ms */
    assert_true(first >= 25 && first <= 40);
    assert_true(speed > 2.5 && speed < 4.5); /* 3 m/s and the rings' breathing */
    sim_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_collision_conserves),
        cmocka_unit_test(test_contact_start_event),
        cmocka_unit_test(test_ring_rests_on_ring),
        cmocka_unit_test(test_friction_sticks_and_slides),
        cmocka_unit_test(test_no_tunnelling_20_m_s),
        cmocka_unit_test(test_no_skin_inside_packed),
        cmocka_unit_test(test_no_skin_inside_pile),
        cmocka_unit_test(test_no_skin_inside_rapids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
