/* Snapshots and their hand-off between threads (the demo's physics thread
 * and its renderer): a view shows exactly the state copied, interpolates
 * between two, and a writer stepping on one thread and a reader showing on
 * another see only whole, consecutive states. Run under ThreadSanitizer
 * too (make tsan-test_snapshot): the hand-off must have no data race.
 * Waits are bounded loops, never assertions on time. */
#define _DEFAULT_SOURCE /* syscall(SYS_gettid), getpriority: the drawing threads' priority */
#include "tests/support.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "app/display_clock.h"
#include "app/handoff.h"
#include "app/physics_thread.h"
#include "app/rasteriser_priority.h"
#include "app/view_sim.h"
#include "dinghy/snapshot.h"

/* Two rings thrown at each other: they move, so consecutive states differ. */
static dinghy_sim *moving_pair(void)
{
    test_params p = test_defaults();
    p.scene.index = scene_index("pair");
    return test_sim(&p);
}

static dinghy_sim *view_of(const dinghy_sim *sim)
{
    char err[256];
    dinghy_sim *view = view_sim_create(sim, err, sizeof err);
    if (!view)
        fail_msg("%s", err);
    return view;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A view of a snapshot answers as the simulation did. */
static void test_view_shows_the_copy(void **state)
{
    (void)state;
    dinghy_sim *sim = moving_pair();
    sim_step(sim, 20);
    dinghy_sim *view = view_of(sim);
    sim_snapshot *s = sim_snapshot_new(sim);
    assert_non_null(s);
    assert_int_equal(sim_snapshot_show(view, NULL, s, 1.0, 1), 0);
    assert_true(sim_hash(view) == sim_hash(sim));
    assert_int_equal(sim_ring_count(view), sim_ring_count(sim));
    assert_int_equal(sim_snapshot_steps(s), sim_steps_done(sim));
    assert_true(sim_time(view) == sim_time(sim));
    assert_memory_equal(sim_rings(view), sim_rings(sim),
                        sizeof(sim_ring_state) * (size_t)sim_ring_count(sim));
    assert_true(sim_ring_id_equal(sim_ring_id_at(view, 1), sim_ring_id_at(sim, 1)));
    size_t nv, ns;
    sim_events(view, &nv, NULL);
    sim_events(sim, &ns, NULL);
    assert_int_equal(nv, ns);
    sim_snapshot_free(s);
    sim_destroy(view);
    sim_destroy(sim);
}

/* Halfway between two states: the positions and the time halfway; a ring
 * taken out between them is not interpolated with another. */
static void test_view_interpolates(void **state)
{
    (void)state;
    dinghy_sim *sim = moving_pair();
    sim_step(sim, 5);
    sim_snapshot *a = sim_snapshot_new(sim);
    sim_step(sim, 1);
    sim_snapshot *b = sim_snapshot_new(sim);
    assert_non_null(a);
    assert_non_null(b);
    dinghy_sim *view = view_of(sim);
    sim_snapshot_show(view, NULL, a, 1.0, 0);
    float x0 = sim_state(view).x[7], z0 = sim_state(view).z[7];
    sim_snapshot_show(view, NULL, b, 1.0, 0);
    float x1 = sim_state(view).x[7], z1 = sim_state(view).z[7];
    assert_true(x0 != x1 || z0 != z1);
    assert_int_equal(sim_snapshot_show(view, a, b, 0.5, 0), 0);
    assert_close(sim_state(view).x[7], x0 + 0.5f * (x1 - x0), 1e-6);
    assert_close(sim_state(view).z[7], z0 + 0.5f * (z1 - z0), 1e-6);
    assert_close(sim_time(view), 0.5 * (sim_snapshot_time(a) + sim_snapshot_time(b)), 1e-12);
    /* ring 0 taken out: ring 1 becomes ring 0, and shows b's place only */
    sim_remove_ring(sim, sim_ring_id_at(sim, 0));
    sim_snapshot_take(sim, b);
    sim_snapshot_show(view, a, b, 0.5, 0);
    assert_int_equal(sim_ring_count(view), 1);
    assert_true(sim_state(view).x[7] == sim_state(sim).x[7]);
    sim_snapshot_free(a);
    sim_snapshot_free(b);
    sim_destroy(view);
    sim_destroy(sim);
}

/* The display clock: at the asked speed while the states keep up, at the
 * physics' pace when they do not, always between the two newest. */
static void test_display_clock(void **state)
{
    (void)state;
    display_clock c;
    display_clock_init(&c);
    const double dt = 1.0 / 60.0, frame = 1.0 / 30.0;
    double tb = 0.0, last = 0.0;
    for (int i = 0; i < 300; i++) { /* the physics at half real time */
        tb += 0.5 * frame;
        double ta = tb - dt, f = display_clock_advance(&c, frame, 1.0, dt, ta, tb);
        assert_true(f >= 0.0 && f <= 1.0);
        assert_true(c.shown >= last); /* never backwards */
        last = c.shown;
    }
    assert_close(c.pace, 0.5, 0.02);
    double before = c.shown;
    display_clock_advance(&c, frame, 1.0, dt, tb - dt, tb);
    assert_close((c.shown - before) / frame, 0.5, 0.1); /* slowed, not stalled */
}

/* The writer's side: steps, each state's hash kept before it is handed off. */
typedef struct {
    dinghy_sim *sim;
    handoff *off;
    long steps;
    uint64_t *hash;  /* per step count */
    int done;        /* under off->lock */
} writer_job;

static void *writer(void *arg)
{
    writer_job *w = arg;
    for (long i = 0; i < w->steps; i++) {
        sim_step(w->sim, 1);
        w->hash[sim_steps_done(w->sim)] = sim_hash(w->sim);
        sim_snapshot_take(w->sim, handoff_begin_write(w->off));
        handoff_publish(w->off);
    }
    pthread_mutex_lock(&w->off->lock);
    w->done = 1;
    pthread_mutex_unlock(&w->off->lock);
    return NULL;
}

static int writer_done(writer_job *w)
{
    pthread_mutex_lock(&w->off->lock);
    int done = w->done;
    pthread_mutex_unlock(&w->off->lock);
    return done;
}

/* A writer thread steps (its OpenMP team inside it) while this thread
 * reads: every state read is whole (its hash is the one the writer had)
 * and the two read are consecutive steps. */
static void test_handoff_between_threads(void **state)
{
    (void)state;
    dinghy_sim *sim = moving_pair();
    sim_set_threads(sim, 2);
    dinghy_sim *view = view_of(sim);
    handoff off;
    assert_int_equal(handoff_init(&off, sim), 0);
    writer_job w = {sim, &off, test_quick() ? 40 : 400, NULL, 0};
    w.hash = calloc((size_t)w.steps + 1, sizeof *w.hash);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, writer, &w), 0);
    long reads = 0, last = -1;
    for (int finished = 0; !finished;) {
        finished = writer_done(&w); /* then one last read */
        const sim_snapshot *a, *b;
        int fresh;
        if (handoff_begin_read(&off, &a, &b, &fresh) != 0)
            continue;
        long step = sim_snapshot_steps(b);
        assert_true(step >= last);
        assert_true(!fresh || step > last);
        if (a)
            assert_int_equal(sim_snapshot_steps(a), step - 1);
        sim_snapshot_show(view, NULL, b, 1.0, fresh);
        assert_true(sim_hash(view) == w.hash[step]);
        if (a)
            sim_snapshot_show(view, a, b, 0.5, 0);
        handoff_end_read(&off);
        last = step;
        reads++;
        sleep_ms(1);
    }
    pthread_join(t, NULL);
    assert_int_equal(last, w.steps);
    assert_true(reads > 1);
    handoff_free(&off);
    free(w.hash);
    sim_destroy(view);
    sim_destroy(sim);
}

/* The hooks of the physics thread's test: a drop (D) adds a ring above
 * the water; every call and every good step is counted (on that thread). */
typedef struct {
    long hands, stepped;
} hook_counts;

static void drop_hook(void *ctx, dinghy_sim *sim, const physics_thread_hands_frame *f, char *note,
                      size_t note_len)
{
    hook_counts *c = ctx;
    c->hands++;
    if (!f || !f->a.drop)
        return;
    sim_ring_pose pose = {{0.0, 0.0, 3.0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.0, 0.0, 0.0}};
    sim_add_ring(sim, &pose);
    snprintf(note, note_len, "dropped");
}

static void stepped_hook(void *ctx, dinghy_sim *sim)
{
    (void)sim;
    ((hook_counts *)ctx)->stepped++;
}

/* The physics thread itself: it steps on its own, a reader shows its
 * states meanwhile, the hands posted here act there, and between pause
 * and resume the simulation is the caller's (here rebuilt: time starts
 * again). */
static void test_physics_thread(void **state)
{
    (void)state;
    test_params p = test_defaults();
    p.scene.index = scene_index("pair");
    dinghy_sim *sim = test_sim_empty(&p.def, 3); /* room for one dropped in */
    scene_rebuild(sim, &p.scene);
    dinghy_sim *view = view_of(sim);
    char err[256];
    hook_counts counts = {0, 0};
    physics_thread_hooks hooks = {drop_hook, stepped_hook, &counts};
    physics_thread *t = physics_thread_start(sim, &hooks, err, sizeof err);
    assert_non_null(t);
    physics_thread_clock(t, 8.0, 0, 0);
    display_clock c;
    display_clock_init(&c);
    physics_thread_status st = {0};
    for (int i = 0; i < 2000 && st.steps < 10; i++) {
        view_sim_show(view, physics_thread_handoff(t), &c, 0.005, 8.0, sim_get_def(view)->solver.dt);
        physics_thread_status_get(t, &st);
        sleep_ms(5);
    }
    assert_true(st.steps >= 10);
    assert_false(st.blew_up);
    /* a drop-in from this thread: applied by the physics between steps */
    physics_thread_hands_frame drop = {0};
    drop.a.drop = 1;
    int rings = sim_ring_count(view);
    physics_thread_hands(t, &drop);
    for (int i = 0; i < 2000 && sim_ring_count(view) == rings; i++) {
        view_sim_show(view, physics_thread_handoff(t), &c, 0.005, 8.0, sim_get_def(view)->solver.dt);
        sleep_ms(1);
    }
    assert_int_equal(sim_ring_count(view), rings + 1);
    physics_thread_status_get(t, &st);
    assert_string_equal(st.note, "dropped");
    physics_thread_pause(t);
    assert_true(counts.stepped >= 10 && counts.hands > counts.stepped); /* after each, and the drop */
    assert_true(sim_time(sim) > 0.0);
    scene_rebuild(sim, &p.scene);
    assert_true(sim_time(sim) == 0.0);
    assert_int_equal(physics_thread_resume(t, sim), 0);
    physics_thread_clock(t, 1.0, 1, 0); /* paused: no more steps */
    for (int i = 0; i < 2000 && sim_time(view) > 0.0; i++) {
        view_sim_show(view, physics_thread_handoff(t), &c, 0.005, 1.0, sim_get_def(view)->solver.dt);
        sleep_ms(1);
    }
    physics_thread_pause(t);
    assert_true(sim_time(view) <= sim_time(sim)); /* the new run's */
    assert_int_equal(physics_thread_resume(t, sim), 0);
    physics_thread_stop(t);
    sim_destroy(view);
    sim_destroy(sim);
}

/* ---- the drawing threads below the physics (rasteriser_priority.h) ---- */

typedef struct {
    const char *name;         /* the thread's name (its comm) */
    pthread_barrier_t *named; /* all named, and their ids known */
    pthread_barrier_t *done;  /* the priorities read */
    pid_t tid;
} named_thread;

static void *named_main(void *arg)
{
    named_thread *t = arg;
    prctl(PR_SET_NAME, t->name, 0, 0, 0);
    t->tid = (pid_t)syscall(SYS_gettid);
    pthread_barrier_wait(t->named);
    pthread_barrier_wait(t->done);
    return NULL;
}

typedef struct {
    int lowered, before, after;
} drawer_result;

/* The demo's drawing thread: lowers itself and llvmpipe's threads. */
static void *drawer_main(void *arg)
{
    drawer_result *r = arg;
    r->before = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    r->lowered = rasteriser_priority_lower(RASTERISER_NICE_STEP);
    r->after = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    return NULL;
}

/* The caller and the threads named llvmpipe-N go RASTERISER_NICE_STEP
 * down; any other thread (here one named as the physics might be) keeps
 * its priority. Linux only: elsewhere nothing is lowered. */
static void test_rasteriser_priority(void **state)
{
    (void)state;
    if (access("/proc/self/task", R_OK) != 0)
        skip();
    pthread_barrier_t named, done;
    pthread_barrier_init(&named, NULL, 3);
    pthread_barrier_init(&done, NULL, 3);
    named_thread lp = {"llvmpipe-0", &named, &done, 0}, other = {"physics", &named, &done, 0};
    pthread_t a, b, c;
    assert_int_equal(pthread_create(&a, NULL, named_main, &lp), 0);
    assert_int_equal(pthread_create(&b, NULL, named_main, &other), 0);
    pthread_barrier_wait(&named);
    const int lp_before = getpriority(PRIO_PROCESS, (id_t)lp.tid);
    const int other_before = getpriority(PRIO_PROCESS, (id_t)other.tid);
    drawer_result r;
    assert_int_equal(pthread_create(&c, NULL, drawer_main, &r), 0);
    pthread_join(c, NULL);
    const int lp_after = getpriority(PRIO_PROCESS, (id_t)lp.tid);
    const int other_after = getpriority(PRIO_PROCESS, (id_t)other.tid);
    pthread_barrier_wait(&done);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_barrier_destroy(&named);
    pthread_barrier_destroy(&done);
    /* nice values stop at 19: the test asks from well below it */
    assert_true(lp_before + RASTERISER_NICE_STEP <= 19 && r.before + RASTERISER_NICE_STEP <= 19);
    assert_int_equal(r.lowered, 2);
    assert_int_equal(r.after, r.before + RASTERISER_NICE_STEP);
    assert_int_equal(lp_after, lp_before + RASTERISER_NICE_STEP);
    assert_int_equal(other_after, other_before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_shows_the_copy),
        cmocka_unit_test(test_view_interpolates),
        cmocka_unit_test(test_display_clock),
        cmocka_unit_test(test_handoff_between_threads),
        cmocka_unit_test(test_physics_thread),
        cmocka_unit_test(test_rasteriser_priority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
