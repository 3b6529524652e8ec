/* Configuration: --set, INI files, validation messages. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/config.h"
#include "../config/params_table.h"

/* Every key can be set, and reads back through the table. */
static void test_every_key_settable(void **state)
{
    (void)state;
    for (int i = 0; i < param_table_count; i++) {
        const param_key *k = &param_table[i];
        dinghy_settings p = settings_default();
        diag_list d = {0};
        char value[64];
        param_format(&p, k, value, sizeof value);
        assert_int_equal(config_set(&p, k->name, value, "test", &d), 0);
        assert_int_equal(d.count, 0);
        diag_free(&d);
    }
}

static void test_set_values(void **state)
{
    (void)state;
    dinghy_settings p = settings_default();
    diag_list d = {0};
    assert_int_equal(config_set_assignment(&p, "dinghy.stiffness=800", &d), 0);
    assert_true(p.sim.stiffness == 800.0);
    assert_int_equal(config_set_assignment(&p, "scene.name=pair", &d), 0);
    assert_int_equal(p.sim.scene, SCENE_PAIR);
    assert_int_equal(config_set_assignment(&p, "sim.seed=18446744073709551615", &d), 0);
    assert_true(p.sim.seed == 18446744073709551615ull);
    assert_int_equal(config_set_assignment(&p, "sim.threads=3", &d), 0);
    assert_int_equal(p.sim.threads, 3);
    assert_int_equal(d.count, 0);
    diag_free(&d);
}

/* Bad values: each gives exactly this message and leaves p unchanged. */
static void test_bad_values(void **state)
{
    (void)state;
    static const struct { const char *set, *message; } cases[] = {
        {"dinghy.stifness=5", "--set dinghy.stifness=5: unknown key 'dinghy.stifness'; did you mean 'dinghy.stiffness'?"},
        {"dinghi.stiffness=5", "--set dinghi.stiffness=5: unknown key 'dinghi.stiffness'; did you mean 'dinghy.stiffness'?"},
        {"boat.hull=5", "--set boat.hull=5: unknown section [boat] (key 'boat.hull'); sections are sim, world, water, scene, dinghy, render, audio"},
        {"sim.dt=abc", "--set sim.dt=abc: sim.dt = 'abc' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=0.001x", "--set sim.dt=0.001x: sim.dt = '0.001x' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=nan", "--set sim.dt=nan: sim.dt = 'nan' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=inf", "--set sim.dt=inf: sim.dt = 'inf' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=1", "--set sim.dt=1: sim.dt = 1 is out of range; allowed: 1e-06 to 0.1 s"},
        {"dinghy.stiffness=-1", "--set dinghy.stiffness=-1: dinghy.stiffness = -1 is out of range; allowed: 0 to 1e+09 N/m"},
        {"scene.count=2.5", "--set scene.count=2.5: scene.count = '2.5' is not a whole number; allowed: an integer from 1 to 1000000"},
        {"scene.name=lake", "--set scene.name=lake: scene.name = 'lake' is not a scene; allowed: one of single, pair, grid, rapids, packed"},
        {"sim.seed=-1", "--set sim.seed=-1: sim.seed = '-1' is not an integer from 0 to 18446744073709551615"},
        {"nokey", "--set 'nokey': expected section.key=value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dinghy_settings p = settings_default(), before = p;
        diag_list d = {0};
        assert_int_not_equal(config_set_assignment(&p, cases[i].set, &d), 0);
        assert_int_equal(d.count, 1);
        assert_string_equal(d.lines[0], cases[i].message);
        assert_memory_equal(&p, &before, sizeof p);
        diag_free(&d);
    }
}

static void test_cross_checks(void **state)
{
    (void)state;
    static const struct { const char *set, *message; } cases[] = {
        {"dinghy.sides=15", "parameters: dinghy.sides = 15 must be even (the across-tube spring joins n and n + sides/2)"},
        {"dinghy.band=4", "parameters: dinghy.band = 4 must be odd (the neighbourhood is centred)"},
        {"dinghy.band=31", "parameters: dinghy.band = 31 must be at most dinghy.segments (32) and dinghy.sides (16)"},
        {"dinghy.minor_radius=0.9", "parameters: dinghy.minor_radius = 0.9 must be less than dinghy.major_radius = 0.8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dinghy_settings p = settings_default();
        diag_list d = {0};
        assert_int_equal(config_set_assignment(&p, cases[i].set, &d), 0);
        assert_int_not_equal(config_check(&p, "parameters", &d), 0);
        assert_int_equal(d.count, 1);
        assert_string_equal(d.lines[0], cases[i].message);
        diag_free(&d);
    }
    dinghy_settings p = settings_default();
    p.sim.count = 1000000;
    p.sim.segments = 4096;
    p.sim.sides = 4096;
    diag_list d = {0};
    assert_int_not_equal(config_check(&p, "parameters", &d), 0);
    assert_non_null(strstr(d.lines[0], "vertices"));
    diag_free(&d);
    p = settings_default();
    assert_int_equal(config_check(&p, "parameters", &d), 0);
}

static char *write_temp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/dinghy-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void test_file_good(void **state)
{
    (void)state;
    char *path = write_temp("; a comment\n[dinghy]\nstiffness = 800 ; inline comment\n"
                            "  pressure = 2\n\n[scene]\nname = grid\n");
    dinghy_settings p = settings_default();
    diag_list d = {0};
    assert_int_equal(config_load_file(&p, path, &d), 0);
    assert_true(p.sim.stiffness == 800.0 && p.sim.pressure == 2.0 && p.sim.scene == SCENE_GRID);
    unlink(path);
    diag_free(&d);
}

/* All errors of a file at once, FILE:LINE each, and nothing applied. */
static void test_file_bad_all_or_nothing(void **state)
{
    (void)state;
    char *path = write_temp("[dinghy]\nstiffness = 800\nstifness = 3\nstiffness = 5\n"
                            "just words\n[boat]\nhull = 1\n");
    dinghy_settings p = settings_default(), before = p;
    diag_list d = {0};
    assert_int_not_equal(config_load_file(&p, path, &d), 0);
    assert_memory_equal(&p, &before, sizeof p);
    assert_int_equal(d.count, 4);
    char expect[256];
    snprintf(expect, sizeof expect, "%s:3: unknown key 'dinghy.stifness'; did you mean 'dinghy.stiffness'?", path);
    assert_string_equal(d.lines[0], expect);
    snprintf(expect, sizeof expect, "%s:4: duplicate key dinghy.stiffness (first set on line 2)", path);
    assert_string_equal(d.lines[1], expect);
    snprintf(expect, sizeof expect, "%s:5: expected 'key = value', '[section]' or a ';' comment, got 'just words'", path);
    assert_string_equal(d.lines[2], expect);
    snprintf(expect, sizeof expect, "%s:7: unknown section [boat] (key 'boat.hull'); sections are sim, world, water, scene, dinghy, render, audio", path);
    assert_string_equal(d.lines[3], expect);
    unlink(path);
    diag_free(&d);
}

static void test_file_missing(void **state)
{
    (void)state;
    dinghy_settings p = settings_default();
    diag_list d = {0};
    assert_int_not_equal(config_load_file(&p, "/nonexistent/dinghy.ini", &d), 0);
    assert_string_equal(d.lines[0], "/nonexistent/dinghy.ini: cannot open config file: No such file or directory");
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_settable),
        cmocka_unit_test(test_set_values),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_cross_checks),
        cmocka_unit_test(test_file_good),
        cmocka_unit_test(test_file_bad_all_or_nothing),
        cmocka_unit_test(test_file_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
