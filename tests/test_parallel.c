/* Determinism of the parallel tick: the same state, bit for bit, for any
 * thread count and from run to run. Also built with ThreadSanitizer. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>

static uint64_t hash_after(const sim_params *p, int threads, long steps)
{
    sim_params q = *p;
    q.threads = threads;
    dinghy_sim *s = test_sim(&q);
    assert_int_equal(sim_step(s, steps), steps);
    uint64_t h = sim_hash(s);
    sim_destroy(s);
    return h;
}

static void check_thread_counts(const sim_params *p, long steps)
{
    uint64_t h1 = hash_after(p, 1, steps);
    const int counts[] = {2, 3, 8};
    for (int i = 0; i < 3; i++) {
        uint64_t h = hash_after(p, counts[i], steps);
        if (h != h1)
            fail_msg("scene %s: hash %016" PRIx64 " with %d threads, %016" PRIx64 " with 1",
                     scene_kind_name(p->scene), h, counts[i], h1);
    }
    assert_true(hash_after(p, 2, steps) == h1); /* and again: run to run */
}

/* Contacts, springs, pressure and buoyancy all at work. */
static void test_same_hash_packed(void **state)
{
    (void)state;
    sim_params p = sim_params_default();
    p.scene = SCENE_PACKED;
    p.count = test_quick() ? 4 : 9;
    check_thread_counts(&p, test_quick() ? 40 : 300);
}

/* One dinghy: the work is split inside it, across rows. */
static void test_same_hash_single(void **state)
{
    (void)state;
    sim_params p = sim_params_default();
    p.scene = SCENE_SINGLE;
    check_thread_counts(&p, test_quick() ? 50 : 500);
}

/* A grid with falling dinghies, as in the check. */
static void test_same_hash_grid(void **state)
{
    (void)state;
    sim_params p = sim_params_default();
    p.scene = SCENE_GRID;
    p.count = test_quick() ? 4 : 16;
    p.spacing = 2.2;
    check_thread_counts(&p, test_quick() ? 40 : 400);
}

/* A tube so fine that each dinghy is cut into several blocks. */
static void test_same_hash_fine_mesh(void **state)
{
    (void)state;
    sim_params p = sim_params_default();
    p.scene = SCENE_PAIR;
    p.segments = 12;
    p.sides = 600;
    p.band = 5;
    p.dt = 2e-4;
    check_thread_counts(&p, test_quick() ? 10 : 60);
}

/* The hash changes when the state does: it is not a constant. */
static void test_hash_sees_state(void **state)
{
    (void)state;
    sim_params p = sim_params_default();
    p.scene = SCENE_SINGLE;
    assert_true(hash_after(&p, 1, 1) != hash_after(&p, 1, 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_hash_packed),
        cmocka_unit_test(test_same_hash_single),
        cmocka_unit_test(test_same_hash_grid),
        cmocka_unit_test(test_same_hash_fine_mesh),
        cmocka_unit_test(test_hash_sees_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
