/* No skin through a skin (issue 46), checked by the independent skin
 * checker (tests/skin_check.h: its own winding number and exact
 * triangle-triangle test, nothing of physics/) at every 0.1 s of short
 * versions of the scenes (tests/crossing_cases.h; the full list
 * is make check-contact): a head-on pair at 20 m/s, a ring dragged by
 * hand at 5 m/s through another, the pile of 16 and a single burst ring,
 * each with the program's defaults (membrane, gas, skin contact, the
 * 1/60 s step). At every sample: no two triangles sharing no vertex
 * crossed (within a ring or between two) and no vertex inside another
 * ring's closed skin; no blow-up. Under DINGHY_TEST_QUICK (the sanitizer
 * builds) the first few tenths of a second only.
 *
 * On main at 518dbe1 (before the contact of issue 46) the cases marked
 * "fails on 518dbe1" below did not pass: the contact there repairs
 * crossings after the fact, and the checker sees them first. They are the
 * issue's guarantee, kept as they are, not weakened to today's contact. */
#include "tests/support.h"

#include <stdio.h>
#include <string.h>

#include "tests/crossing_cases.h"
#include "tests/skin_check.h"

/* 1, with a message naming the first of each, when the state has a
 * crossing or a vertex inside another ring; else 0. */
static int faulty(const crossing_run *run, char *msg, size_t len)
{
    const skin_mesh mesh = crossing_mesh(run->sim);
    skin_report r;
    if (skin_check(&mesh, SKIN_CHECK_CROSSINGS | SKIN_CHECK_INSIDE, &r) != 0) {
        snprintf(msg, len, "%s: the checker ran out of memory", run->c->name);
        return 1;
    }
    if (!r.crossed && !r.inside_other)
        return 0;
    char line[400];
    skin_report_describe(&r, line, sizeof line);
    snprintf(msg, len, "%s, t = %.2f s: %ld triangle pairs crossed (%ld within a ring), %ld "
             "vertices inside another ring; %s", run->c->name, sim_time(run->sim), r.crossed,
             r.crossed_self, r.inside_other, line);
    return 1;
}

/* Runs case c for `seconds` (DINGHY_TEST_QUICK: `quick`), checking the
 * state at the start and every 0.1 s; fails at the first crossing,
 * vertex inside another ring or blow-up (the simulation freed first). */
static void run_checked(const crossing_case *c, double seconds, double quick)
{
    crossing_run run;
    char msg[768];
    if (crossing_start(&run, c, test_quick() ? quick : seconds, 0, msg, sizeof msg) != 0)
        fail_msg("%s: %s", c->name, msg);
    const long every = crossing_steps(&run, 0.1), total = crossing_steps(&run, run.seconds);
    int bad = faulty(&run, msg, sizeof msg);
    for (long k = 1; k <= total && !bad; k++) {
        if (crossing_step(&run) != 1) {
            char why[512];
            sim_blowup_message(run.sim, why, sizeof why);
            snprintf(msg, sizeof msg, "%s blew up: %s", c->name, why);
            bad = 1;
        } else if (k % every == 0 || k == total) {
            bad = faulty(&run, msg, sizeof msg);
        }
    }
    const double t = sim_time(run.sim);
    crossing_finish(&run);
    if (bad)
        fail_msg("%s", msg);
    printf("    %s: %.1f s, no crossing, no vertex inside another ring\n", c->name, t);
}

/* Test of the test, through the simulation's state as the cases read
 * it: a ring at rest is clean; two rings made 0.3 m apart (through each
 * other) are found crossed and inside. */
static void test_checker_sees_rings_through_each_other(void **state)
{
    (void)state;
    sim_def d = sim_def_default();
    dinghy_sim *s = test_sim_empty(&d, 2);
    sim_ring_pose pose = {{0.0, 0.0, 0.5}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    assert_true(sim_ring_valid(s, sim_add_ring(s, &pose)));
    skin_report r;
    skin_mesh m = crossing_mesh(s);
    assert_int_equal(skin_check(&m, SKIN_CHECK_ALL, &r), 0);
    assert_int_equal(r.crossed + r.inside_other + r.inside_own, 0);
    pose.centre[0] = 0.3;
    assert_true(sim_ring_valid(s, sim_add_ring(s, &pose)));
    m = crossing_mesh(s);
    assert_int_equal(skin_check(&m, SKIN_CHECK_ALL, &r), 0);
    assert_true(r.crossed > 0);
    assert_true(r.inside_other > 0);
    sim_destroy(s);
}

/* The pair scene in the air, ring 0 flat at ring 1 at 20 m/s. Fails on
 * 518dbe1: ring 0's front folds through itself at the impact (35 pairs
 * of its own triangles crossed at 0.1 s, by 2-15 cm; gone by 0.3 s). */
static void test_head_on_20_m_s(void **state)
{
    (void)state;
    const crossing_case c = {"head-on", CROSSING_PAIR, "pair", 2, 1, 0.0, 20.0, 0.0};
    run_checked(&c, 1.0, 0.3);
}

/* Ring 0 grabbed at its vertex nearest ring 1 and dragged at 5 m/s
 * through ring 1's tube (the hand from 0.4 s; 0.12 s quick). Fails on
 * 518dbe1 (not in the quick version): edges of the two rings through
 * each other (12 pairs at 0.6 s, by 0.5-2 cm), no vertex inside. */
static void test_dragged_through_at_5_m_s(void **state)
{
    (void)state;
    const crossing_case c = {"drag", CROSSING_DRAG, "pair", 2, 1, 0.0, 5.0, 0.0};
    run_checked(&c, 2.0, 0.6);
}

/* The pile scene, 16 rings dropped in layers into the pen. Fails on
 * 518dbe1: edges through edges between rings as the layers land (8 pairs
 * at 0.2 s, by about 1 cm), no vertex inside. */
static void test_pile_of_16(void **state)
{
    (void)state;
    const crossing_case c = {"pile-16", CROSSING_SCENE, "pile", 16, 1, 0.0, 0.0, 0.0};
    run_checked(&c, 2.0, 0.3);
}

/* One ring with a 0.3 m hole (dinghy.hole_diameter) on still water: its
 * skin folds on itself as it goes flat. */
static void test_single_burst_ring(void **state)
{
    (void)state;
    const crossing_case c = {"burst-single", CROSSING_SCENE, "single", 1, 1, 0.3, 0.0, 0.0};
    run_checked(&c, 3.0, 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_sees_rings_through_each_other),
        cmocka_unit_test(test_head_on_20_m_s),
        cmocka_unit_test(test_dragged_through_at_5_m_s),
        cmocka_unit_test(test_pile_of_16),
        cmocka_unit_test(test_single_burst_ring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
