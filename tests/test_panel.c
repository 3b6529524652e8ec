/* The tuning panel: steps, clamping, applying through the reload path,
 * the text, and saving back into a config file (comments and order kept,
 * atomic, round trip through the loader and the config watch). */
#include "tests/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/panel.h"
#include "app/reload.h"
#include "app/report.h"
#include "config/build.h"
#include "config/config.h"
#include "config/params_table.h"
#include "config/save.h"
#include "config/watch.h"
#include "dinghy/river.h"
#include "render/hud.h"

typedef struct {
    char dir[64];
    char path[128];
    panel *p;
    dinghy_settings s;
    dinghy_sim *sim;
    reload_report rep;
} fixture;

/* The whole file, NUL-terminated (caller frees). */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A small scene: one ring on still water; river: a short rapids run. */
static void make_sim(fixture *fx, const char *scene)
{
    fx->s = settings_default();
    fx->s.scene.index = scene_index(scene);
    fx->s.scene.count = 2;
    fx->s.sim.solver.threads = 1;
    fx->s.sim.world.river.seed = fx->s.scene.seed;
    char err[256];
    fx->sim = scene_create(&fx->s.sim, &fx->s.scene, 0, err, sizeof err);
    assert_non_null(fx->sim);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    snprintf(fx->dir, sizeof fx->dir, "/tmp/dinghy-panel-XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    snprintf(fx->path, sizeof fx->path, "%s/c.ini", fx->dir);
    fx->p = panel_create();
    make_sim(fx, "single");
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    if (system(cmd) != 0)
        return -1;
    panel_destroy(fx->p);
    sim_destroy(fx->sim);
    reload_report_free(&fx->rep);
    free(fx);
    return 0;
}

/* Selects the row of key, failing the test when there is none. */
static void select_key(panel *p, const char *key)
{
    for (int i = 0; i < panel_rows(p); i++)
        if (strcmp(panel_row_key(p, i), key) == 0) {
            panel_move(p, i - panel_selected(p));
            assert_int_equal(panel_selected(p), i);
            return;
        }
    fail_msg("no panel row for %s", key);
}

static reload_result change(fixture *fx, const char *key, int steps)
{
    select_key(fx->p, key);
    return panel_change(fx->p, steps, &fx->s, &fx->sim, &fx->rep);
}

static void test_rows_are_the_live_physics_keys(void **state)
{
    fixture *fx = *state;
    const char *want[] = {"sim.dt", "sim.damping", "world.gravity", "water.density",
                          "water.drag", "river.speed", "river.waves", "dinghy.stiffness",
                          "dinghy.gauge_pressure", "dinghy.contact_range"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        select_key(fx->p, want[i]);
    for (int i = 0; i < panel_rows(fx->p); i++) {
        const param_key *k = param_find(panel_row_key(fx->p, i));
        assert_non_null(k);
        assert_false(param_is_structural(k)); /* no mass, no mesh, no scene */
        assert_true(strncmp(k->name, "render.", 7) != 0 && strncmp(k->name, "audio.", 6) != 0);
    }
}

static void test_stiffness_step_applies_to_the_running_sim(void **state)
{
    fixture *fx = *state;
    dinghy_sim *before = fx->sim;
    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_APPLIED);
    assert_ptr_equal(fx->sim, before); /* in place, not rebuilt */
    assert_true(fx->s.sim.ring.stiffness == 1600.0);
    assert_true(sim_get_def(fx->sim)->ring.stiffness == 1600.0);
    assert_string_equal(fx->rep.summary, "reloaded panel: dinghy.stiffness 1500 -> 1600");
    /* x1.25 along preferred numbers: down and up come back */
    assert_int_equal(change(fx, "dinghy.stiffness", -1), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->ring.stiffness == 1250.0);
    assert_int_equal(change(fx, "dinghy.stiffness", -10), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->ring.stiffness == 125.0);
    assert_int_equal(change(fx, "dinghy.stiffness", 11), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->ring.stiffness == 1600.0);
    /* additive: damping 0.5 + 0.1, exactly the decimal */
    assert_int_equal(change(fx, "sim.damping", 1), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->solver.damping == 0.6);
    assert_int_equal(change(fx, "sim.damping", -3), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->solver.damping == 0.3);
    /* the time step is a scale quantity too */
    assert_int_equal(change(fx, "sim.dt", -1), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->solver.dt == 0.016); /* 1/60 s down: R10 0.016 */
    /* a choice goes round */
    assert_int_equal(change(fx, "water.model", 1), RELOAD_APPLIED);
    assert_int_equal(sim_get_def(fx->sim)->world.water.model, SIM_WATER_SEED);
    assert_int_equal(change(fx, "water.model", 1), RELOAD_APPLIED);
    assert_int_equal(sim_get_def(fx->sim)->world.water.model, SIM_WATER_EXACT);
    /* the sim still steps */
    assert_int_equal(sim_step(fx->sim, 10), 10);
}

static void test_clamped_at_the_range(void **state)
{
    fixture *fx = *state;
    fx->s.sim.ring.stiffness = 6e8;
    assert_int_equal(change(fx, "dinghy.stiffness", 10), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->ring.stiffness == 1e9); /* the key's maximum */
    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_SAME);
    assert_true(fx->s.sim.ring.stiffness == 1e9);
    char text[HUD_TEXT_MAX];
    panel_format(fx->p, &fx->s, text, sizeof text);
    assert_non_null(strstr(text, "dinghy.stiffness stays 1e+09 (allowed: 1 to 1e+09 N/m)"));
    /* down to the minimum of a range from 0: 0 exactly, then no further */
    assert_int_equal(change(fx, "dinghy.gauge_pressure", -30), RELOAD_APPLIED);
    assert_true(sim_get_def(fx->sim)->ring.gauge_pressure == 0.0);
    assert_int_equal(change(fx, "dinghy.gauge_pressure", -1), RELOAD_SAME);
    assert_int_equal(change(fx, "dinghy.gauge_pressure", 1), RELOAD_APPLIED);
    assert_true(fx->s.sim.ring.gauge_pressure == 20.0); /* 1/100 of the default 2000 Pa */
    assert_int_equal(change(fx, "sim.damping", -100), RELOAD_APPLIED);
    assert_true(fx->s.sim.solver.damping == 0.0);
    assert_int_equal(change(fx, "river.waves", 100), RELOAD_APPLIED);
    assert_true(fx->s.sim.world.river.waves == 1.0);
}

static void test_river_speed_and_waves_are_live(void **state)
{
    fixture *fx = *state;
    sim_destroy(fx->sim);
    make_sim(fx, "rapids");
    dinghy_sim *before = fx->sim;
    sim_step(fx->sim, 5);
    assert_int_equal(change(fx, "river.speed", 2), RELOAD_APPLIED);
    assert_int_equal(change(fx, "river.waves", -1), RELOAD_APPLIED);
    assert_ptr_equal(fx->sim, before);
    assert_int_equal(sim_steps_done(fx->sim), 5); /* nothing reset */
    const river_course *c = river_course_view(sim_river(fx->sim));
    assert_true(c->speed == 3.0);
    assert_true(c->waves == 0.1);
    assert_true(sim_get_def(fx->sim)->world.river.speed == 3.0);
}

static void test_format_marks_the_selected_row(void **state)
{
    fixture *fx = *state;
    select_key(fx->p, "dinghy.stiffness");
    int row = panel_selected(fx->p);
    char text[HUD_TEXT_MAX];
    panel_format(fx->p, &fx->s, text, sizeof text);
    assert_true(strlen(text) < HUD_TEXT_MAX - 1);
    /* the line of the row, counted as panel_select_at counts */
    const char *line = text;
    for (int i = 0; i < PANEL_HEADER_LINES + row; i++)
        line = strchr(line, '\n') + 1;
    assert_true(strncmp(line, "> dinghy.stiffness", 18) == 0);
    assert_non_null(strstr(line, " 1500 N/m\n"));
    assert_int_equal(strstr(text, "> ") - text, line - text); /* the only mark */
    /* a click on the line of sim.damping selects it */
    select_key(fx->p, "sim.damping");
    int damping = panel_selected(fx->p);
    panel_move(fx->p, -100);
    assert_int_equal(panel_selected(fx->p), 0);
    assert_int_equal(panel_select_at(fx->p, PANEL_HEADER_LINES + damping), damping);
    assert_int_equal(panel_select_at(fx->p, 0), -1);
    assert_int_equal(panel_selected(fx->p), damping);
}

/* Polls the watch until it reports (at most ~2 s). */
static reload_result poll_watch(config_watch *w, fixture *fx)
{
    for (int i = 0; i < 400; i++) {
        reload_result r = reload_poll(w, &fx->s, &fx->sim, &fx->rep);
        if (r != RELOAD_NONE)
            return r;
        struct timespec t = {0, 5 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    return RELOAD_NONE;
}

static void test_save_keeps_comments_and_round_trips(void **state)
{
    fixture *fx = *state;
    const char *original =
        "; my tuning\n"
        "[dinghy]\n"
        "; soft\n"
        "stiffness   =  1500 ; inline comment\n"
        "mass = 15\n"
        "\n"
        "[water]\n"
        "  density=1000\n"
        "# a hash comment\n"
        "[sim]\n"
        "dt = 0.001\n"
        "; the end of [sim]\n";
    test_write_file(fx->path, original);
    config_source src = {.path = fx->path};
    config_watch *w = config_watch_open(&src);
    assert_non_null(w);
    diag_list d = {0};
    assert_int_equal(config_build(&src, &fx->s, &d), 0);
    fx->s.sim.solver.threads = 1;

    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_APPLIED);
    assert_int_equal(change(fx, "water.density", 1), RELOAD_APPLIED);
    assert_int_equal(change(fx, "sim.damping", 1), RELOAD_APPLIED);   /* not in the file */
    assert_int_equal(change(fx, "river.speed", 1), RELOAD_APPLIED);   /* no [river] */
    assert_int_equal(change(fx, "world.gravity", -1), RELOAD_APPLIED); /* no [world] */
    fx->s.sim.solver.threads = 0; /* as the file has it */
    char msg[512];
    assert_int_equal(panel_save(fx->p, &fx->s, fx->path, msg, sizeof msg), 0);
    assert_true(strncmp(msg, "saved ", 6) == 0);
    assert_non_null(strstr(msg, "dinghy.stiffness 1500 -> 1600"));
    char *now = read_all(fx->path);
    assert_string_equal(now,
        "; my tuning\n"
        "[dinghy]\n"
        "; soft\n"
        "stiffness   =  1600 ; inline comment\n"
        "mass = 15\n"
        "\n"
        "[water]\n"
        "  density=1250\n"
        "# a hash comment\n"
        "[sim]\n"
        "dt = 0.001\n"
        "damping = 0.6\n"
        "; the end of [sim]\n"
        "\n"
        "[world]\n"
        "gravity = 9.7\n"
        "\n"
        "[river]\n"
        "speed = 2.75\n");
    free(now);
    /* the loader gives exactly the panel's settings */
    dinghy_settings back = settings_default();
    assert_int_equal(config_load_file(&back, fx->path, &d), 0);
    assert_int_equal(config_diff(&back, &fx->s, NULL, 0, NULL), 0);
    assert_true(back.sim.ring.stiffness == 1600.0 && back.sim.world.gravity == 9.7);
    /* the watch sees the save, and it changes nothing */
    dinghy_sim *before = fx->sim;
    long steps = sim_steps_done(fx->sim);
    assert_int_equal(poll_watch(w, fx), RELOAD_SAME);
    assert_ptr_equal(fx->sim, before);
    assert_int_equal(sim_steps_done(fx->sim), steps);
    char want[256];
    snprintf(want, sizeof want, "reloaded %s: no changes", fx->path);
    assert_string_equal(fx->rep.summary, want);
    /* saving again writes nothing */
    assert_int_equal(panel_save(fx->p, &fx->s, fx->path, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "already holds these values"));
    config_watch_close(w);
    diag_free(&d);
}

static void test_save_through_a_link_keeps_link_and_mode(void **state)
{
    fixture *fx = *state;
    char real[160], link[160];
    snprintf(real, sizeof real, "%s/real.ini", fx->dir);
    snprintf(link, sizeof link, "%s/link.ini", fx->dir);
    test_write_file(real, "[dinghy]\r\nstiffness = 1500\r\n[sim]\r\ndt = 0.001");
    assert_int_equal(chmod(real, 0640), 0);
    assert_int_equal(symlink("real.ini", link), 0);
    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_APPLIED);
    assert_int_equal(change(fx, "sim.damping", 1), RELOAD_APPLIED);
    fx->s.scene = scene_def_default();
    fx->s.sim.solver.threads = 0;
    fx->s.sim.solver.dt = 0.001; /* as the file says: the line stays */
    char msg[512];
    assert_int_equal(panel_save(fx->p, &fx->s, link, msg, sizeof msg), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(real, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    char *now = read_all(real);
    /* CRLF kept; the last line had no end: one is added before the new key */
    assert_string_equal(now, "[dinghy]\r\nstiffness = 1600\r\n[sim]\r\ndt = 0.001\r\ndamping = 0.6\r\n");
    free(now);
}

static void test_save_failures_leave_the_file(void **state)
{
    fixture *fx = *state;
    const char *original = "[dinghy]\nstiffness = 1500\n";
    test_write_file(fx->path, original);
    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_APPLIED);
    /* the temporary file cannot be made (a directory in its place: works as root too) */
    char tmp[200];
    tmp_file_name(fx->path, tmp, sizeof tmp);
    assert_int_equal(mkdir(tmp, 0700), 0);
    char msg[512];
    assert_int_equal(panel_save(fx->p, &fx->s, fx->path, msg, sizeof msg), -1);
    assert_true(strncmp(msg, "not saved: cannot write ", 24) == 0);
    char *now = read_all(fx->path);
    assert_string_equal(now, original);
    free(now);
    assert_int_equal(rmdir(tmp), 0);
    char text[HUD_TEXT_MAX];
    panel_format(fx->p, &fx->s, text, sizeof text);
    assert_non_null(strstr(text, "not saved: cannot write"));
    /* a file with an error is not rewritten */
    const char *broken = "[dinghy]\nstifness = 1500\n";
    test_write_file(fx->path, broken);
    assert_int_equal(panel_save(fx->p, &fx->s, fx->path, msg, sizeof msg), -1);
    snprintf(text, sizeof text, "not saved: %s:2: unknown key 'dinghy.stifness'", fx->path);
    assert_true(strncmp(msg, text, strlen(text)) == 0);
    now = read_all(fx->path);
    assert_string_equal(now, broken);
    free(now);
}

static void test_save_leaves_set_flags_out_of_the_file(void **state)
{
    fixture *fx = *state;
    test_write_file(fx->path, "[dinghy]\nstiffness = 1500\n");
    const char *sets[] = {"sim.threads=1", "dinghy.repulsion=0.05"};
    config_source src = {.path = fx->path, .sets = sets, .nsets = 2};
    diag_list d = {0};
    assert_int_equal(config_build(&src, &fx->s, &d), 0);
    panel_set_source(fx->p, &src);
    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_APPLIED);
    char msg[512];
    assert_int_equal(panel_save(fx->p, &fx->s, fx->path, msg, sizeof msg), 0);
    char *now = read_all(fx->path);
    assert_string_equal(now, "[dinghy]\nstiffness = 1600\n"); /* no threads, no repulsion */
    free(now);
    dinghy_settings reload;
    assert_int_equal(config_build(&src, &reload, &d), 0);
    assert_int_equal(config_diff(&reload, &fx->s, NULL, 0, NULL), 0);
    /* moved away from its --set: written, and the message says the flag wins */
    assert_int_equal(change(fx, "dinghy.repulsion", 1), RELOAD_APPLIED);
    assert_int_equal(panel_save(fx->p, &fx->s, fx->path, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "still overridden by --set dinghy.repulsion=0.05"));
    now = read_all(fx->path);
    assert_string_equal(now, "[dinghy]\nstiffness = 1600\nrepulsion = 0.063\n");
    free(now);
    diag_free(&d);
}

static void test_save_without_a_file_gives_set_flags(void **state)
{
    fixture *fx = *state;
    fx->s = settings_default();
    assert_int_equal(change(fx, "dinghy.stiffness", 1), RELOAD_APPLIED);
    assert_int_equal(change(fx, "water.drag", -2), RELOAD_APPLIED);
    char msg[512];
    assert_int_equal(panel_save(fx->p, &fx->s, NULL, msg, sizeof msg), 0);
    const char *flags = strstr(msg, "--set");
    assert_non_null(flags);
    assert_string_equal(flags, "--set water.drag=0.8 --set dinghy.stiffness=1600");
    /* the flags reproduce the values */
    dinghy_settings back = settings_default();
    diag_list d = {0};
    assert_int_equal(config_set_assignment(&back, "water.drag=0.8", &d), 0);
    assert_int_equal(config_set_assignment(&back, "dinghy.stiffness=1600", &d), 0);
    assert_int_equal(config_diff(&back, &fx->s, NULL, 0, NULL), 0);
    fx->s = settings_default();
    assert_int_equal(panel_save(fx->p, &fx->s, NULL, msg, sizeof msg), 0);
    assert_string_equal(msg, "no config file in use; the values are the defaults");
}

static void test_save_text_keeps_a_missing_line_end(void **state)
{
    (void)state;
    dinghy_settings s = settings_default();
    s.sim.ring.stiffness = 2000.0;
    const char *text = "[dinghy] ; rings\nstiffness = 1500";
    char *out, changed[128];
    size_t len;
    diag_list d = {0};
    assert_int_equal(config_save_text("x.ini", text, strlen(text), &s, &out, &len, changed,
                                      sizeof changed, &d), 1);
    assert_string_equal(out, "[dinghy] ; rings\nstiffness = 2000");
    assert_int_equal(len, strlen(out));
    assert_string_equal(changed, "dinghy.stiffness 1500 -> 2000");
    free(out);
    /* an empty file gets sections */
    assert_int_equal(config_save_text("x.ini", "", 0, &s, &out, &len, NULL, 0, &d), 1);
    assert_string_equal(out, "[dinghy]\nstiffness = 2000\n");
    free(out);
    /* a value written with more digits than it needs stays as it is */
    text = "[dinghy]\nstiffness = 2000.000\n";
    assert_int_equal(config_save_text("x.ini", text, strlen(text), &s, &out, &len, NULL, 0, &d), 0);
    assert_string_equal(out, text);
    free(out);
    assert_int_equal(d.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rows_are_the_live_physics_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stiffness_step_applies_to_the_running_sim, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clamped_at_the_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_river_speed_and_waves_are_live, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_marks_the_selected_row, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_keeps_comments_and_round_trips, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_through_a_link_keeps_link_and_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_failures_leave_the_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_leaves_set_flags_out_of_the_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_without_a_file_gives_set_flags, setup, teardown),
        cmocka_unit_test(test_save_text_keeps_a_missing_line_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
