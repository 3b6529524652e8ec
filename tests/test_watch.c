/* Hot reload: the config watch (inotify and status polling) and applying a
 * reload to a running simulation. Waits are bounded loops of polls, never
 * assertions on time. */
#include "tests/support.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/reload.h"
#include "config/build.h"
#include "config/watch.h"

typedef struct {
    char dir[64];
    char path[128];
    config_source src;
} fixture;

/* Saves as many editors do: a new file renamed over the old one. */
static void save_by_rename(const fixture *fx, const char *text)
{
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s/.c.ini.swp", fx->dir);
    test_write_file(tmp, text);
    assert_int_equal(rename(tmp, fx->path), 0);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/dinghy-watch-XXXXXX");
    if (!fx || !mkdtemp(fx->dir))
        return -1;
    snprintf(fx->path, sizeof fx->path, "%s/c.ini", fx->dir);
    test_write_file(fx->path, "[scene]\nname = single\n");
    fx->src.path = fx->path;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    char tmp[160];
    unlink(fx->path);
    snprintf(tmp, sizeof tmp, "%s/.c.ini.swp", fx->dir);
    unlink(tmp);
    rmdir(fx->dir);
    free(fx);
    return 0;
}

static void nap(void)
{
    struct timespec t = {0, 5 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* Polls until something other than NONE comes back (at most ~2 s). */
static config_watch_result poll_until(config_watch *w, const dinghy_settings *cur,
                                      dinghy_settings *next, diag_list *errors, char *changes,
                                      size_t len)
{
    for (int i = 0; i < 400; i++) {
        config_watch_result r = config_watch_poll(w, cur, next, errors, changes, len);
        if (r != CONFIG_WATCH_NONE)
            return r;
        nap();
    }
    return CONFIG_WATCH_NONE;
}

/* Polls until the watch reports; expects `want` and, for a change, these
 * changed keys, and makes the change the current settings. */
static void expect_poll(config_watch *w, dinghy_settings *cur, config_watch_result want,
                        const char *changes_want)
{
    dinghy_settings next = *cur;
    diag_list errors = {0};
    char changes[256] = "";
    assert_int_equal(poll_until(w, cur, &next, &errors, changes, sizeof changes), want);
    if (want == CONFIG_WATCH_CHANGED) {
        assert_string_equal(changes, changes_want);
        *cur = next;
    }
    diag_free(&errors);
}

static dinghy_settings initial(const fixture *fx)
{
    dinghy_settings s;
    diag_list d = {0};
    assert_int_equal(config_build(&fx->src, &s, &d), 0);
    diag_free(&d);
    return s;
}

/* The same sequence for both ways of noticing a save. */
static void edit_sequence(fixture *fx, int polling)
{
    config_watch *w = config_watch_open(&fx->src);
    assert_non_null(w);
    if (polling)
        config_watch_force_polling(w);
    else
        assert_int_equal(config_watch_uses_inotify(w), 1);
    dinghy_settings cur = initial(fx), next;
    diag_list errors = {0};
    char changes[256];
    for (int i = 0; i < 5; i++)
        assert_int_equal(config_watch_poll(w, &cur, &next, &errors, changes, sizeof changes),
                         CONFIG_WATCH_NONE);

    /* a good save by rename */
    save_by_rename(fx, "[scene]\nname = single\n[dinghy]\nstiffness = 800\n");
    expect_poll(w, &cur, CONFIG_WATCH_CHANGED, "dinghy.stiffness 1500 -> 800");
    assert_true(cur.sim.ring.stiffness == 800.0);
    assert_int_equal(config_watch_poll(w, &cur, &next, &errors, changes, sizeof changes),
                     CONFIG_WATCH_NONE);

    /* a typo written in place: every error, nothing applied */
    next = settings_default();
    test_write_file(fx->path, "[scene]\nname = single\n[dinghy]\nstifness = 900\npressure = x\n");
    assert_int_equal(poll_until(w, &cur, &next, &errors, changes, sizeof changes),
                     CONFIG_WATCH_ERROR);
    assert_int_equal(errors.count, 2);
    char expect[256];
    snprintf(expect, sizeof expect, "%s:4: unknown key 'dinghy.stifness'; did you mean "
             "'dinghy.stiffness'?", fx->path);
    assert_string_equal(errors.lines[0], expect);
    snprintf(expect, sizeof expect, "%s:5: dinghy.pressure = 'x' is not a number; allowed: 0 to "
             "1000000 N", fx->path);
    assert_string_equal(errors.lines[1], expect);
    assert_true(next.sim.ring.stiffness == 1500.0); /* untouched */
    diag_free(&errors);

    /* the fix, back to what runs: no changes */
    save_by_rename(fx, "[scene]\nname = single\n[dinghy]\nstiffness = 800\n");
    expect_poll(w, &cur, CONFIG_WATCH_SAME, NULL);

    /* a structural change */
    save_by_rename(fx, "[scene]\nname = pair\n[dinghy]\nstiffness = 800\n");
    expect_poll(w, &cur, CONFIG_WATCH_CHANGED, "scene.name single -> pair");

    /* the file goes away: an error; it comes back: read again */
    assert_int_equal(unlink(fx->path), 0);
    assert_int_equal(poll_until(w, &cur, &next, &errors, changes, sizeof changes),
                     CONFIG_WATCH_ERROR);
    snprintf(expect, sizeof expect, "%s: cannot open config file: No such file or directory",
             fx->path);
    assert_string_equal(errors.lines[0], expect);
    diag_free(&errors);
    save_by_rename(fx, "[scene]\nname = pair\n[dinghy]\nstiffness = 700\n");
    expect_poll(w, &cur, CONFIG_WATCH_CHANGED, "dinghy.stiffness 800 -> 700");

    /* touching the file changes no byte: nothing to report */
    assert_int_equal(utimensat(AT_FDCWD, fx->path, NULL, 0), 0);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(config_watch_poll(w, &cur, &next, &errors, changes, sizeof changes),
                         CONFIG_WATCH_NONE);
        nap();
    }
    config_watch_close(w);
}

static void test_watch_inotify(void **state) { edit_sequence(*state, 0); }
static void test_watch_polling(void **state) { edit_sequence(*state, 1); }

/* --set overrides hold across reloads. */
static void test_watch_keeps_sets(void **state)
{
    fixture *fx = *state;
    const char *sets[] = {"dinghy.pressure=3"};
    fx->src.sets = sets;
    fx->src.nsets = 1;
    config_watch *w = config_watch_open(&fx->src);
    dinghy_settings cur = initial(fx);
    assert_true(cur.sim.ring.pressure == 3.0);
    save_by_rename(fx, "[scene]\nname = single\n[dinghy]\npressure = 2\nstiffness = 500\n");
    expect_poll(w, &cur, CONFIG_WATCH_CHANGED, "dinghy.stiffness 1500 -> 500");
    assert_true(cur.sim.ring.pressure == 3.0);
    config_watch_close(w);
}

/* reload_poll applies tunables in place, rebuilds on structural keys and
 * keeps everything on a bad save. */
static void test_reload_applies(void **state)
{
    fixture *fx = *state;
    config_watch *w = config_watch_open(&fx->src);
    dinghy_settings cur = initial(fx);
    char err[256];
    dinghy_sim *sim = scene_create(&cur.sim, &cur.scene, 0, err, sizeof err);
    assert_non_null(sim);
    sim_step(sim, 10);
    reload_report r = {0};
    char expect[512];

    save_by_rename(fx, "[scene]\nname = single\n[dinghy]\nstiffness = 800\n[render]\nwidth = 640\n");
    reload_result res;
    for (int i = 0; i < 400 && (res = reload_poll(w, &cur, &sim, &r)) == RELOAD_NONE; i++)
        nap();
    assert_int_equal(res, RELOAD_APPLIED);
    snprintf(expect, sizeof expect, "reloaded %s: dinghy.stiffness 1500 -> 800, render.width 1280 -> 640",
             fx->path);
    assert_string_equal(r.summary, expect);
    assert_true(sim_get_def(sim)->ring.stiffness == 800.0);
    assert_int_equal(sim_steps_done(sim), 10); /* the same simulation runs on */
    assert_int_equal(cur.render.width, 640);

    save_by_rename(fx, "[scene]\nname = single\n[dinghy]\nstiffness = 800\nband = 4\n");
    for (int i = 0; i < 400 && (res = reload_poll(w, &cur, &sim, &r)) == RELOAD_NONE; i++)
        nap();
    assert_int_equal(res, RELOAD_REJECTED);
    assert_int_equal(r.errors.count, 1);
    snprintf(expect, sizeof expect, "%s not applied (1 error); still running the previous "
             "configuration", fx->path);
    assert_string_equal(r.summary, expect);
    assert_int_equal(sim_steps_done(sim), 10);
    assert_int_equal(cur.sim.ring.band, 5);

    save_by_rename(fx, "[scene]\nname = grid\ncount = 4\n[dinghy]\nstiffness = 800\nsides = 8\n"
                       "[sim]\ndt = 0.005\nsubsteps = 1\n");
    for (int i = 0; i < 400 && (res = reload_poll(w, &cur, &sim, &r)) == RELOAD_NONE; i++)
        nap();
    assert_int_equal(res, RELOAD_REBUILT);
    snprintf(expect, sizeof expect, "reloaded %s: sim.dt 0.016666666666666666 -> 0.005, sim.substeps 0 -> 1, scene.name single -> grid, "
             "scene.count 64 -> 4, dinghy.sides 16 -> 8, render.width 640 -> 1280; scene rebuilt",
             fx->path); /* a key left out returns to its default */
    assert_string_equal(r.summary, expect);
    assert_int_equal(sim_ring_count(sim), 4);
    assert_int_equal(sim_sides(sim), 8);
    assert_int_equal(sim_steps_done(sim), 0);
    assert_non_null(strstr(r.warning, "warning: sim.dt = 0.005 s in sim.substeps = 1 is above the explicit stability bound"));
    reload_report_free(&r);
    sim_destroy(sim);
    config_watch_close(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_watch_inotify, setup, teardown),
        cmocka_unit_test_setup_teardown(test_watch_polling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_watch_keeps_sets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reload_applies, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
