/* Configuration: --set, INI files, validation messages. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/build.h"
#include "config/config.h"
#include "config/find.h"
#include "config/params_table.h"

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
    assert_true(p.sim.ring.stiffness == 800.0);
    assert_int_equal(config_set_assignment(&p, "scene.name=pair", &d), 0);
    assert_int_equal(p.scene.index, scene_index("pair"));
    assert_int_equal(config_set_assignment(&p, "sim.seed=18446744073709551615", &d), 0);
    assert_true(p.scene.seed == 18446744073709551615ull);
    assert_int_equal(config_set_assignment(&p, "sim.threads=3", &d), 0);
    assert_int_equal(p.sim.solver.threads, 3);
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
        {"boat.hull=5", "--set boat.hull=5: unknown section [boat] (key 'boat.hull'); sections are sim, world, water, river, waves, scene, dinghy, render, spray, audio"},
        {"sim.dt=abc", "--set sim.dt=abc: sim.dt = 'abc' is not a number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=0.001x", "--set sim.dt=0.001x: sim.dt = '0.001x' has junk after the number: 'x'; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=1e-3 s", "--set sim.dt=1e-3 s: sim.dt = '1e-3 s' has junk after the number: ' s'; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=0x10", "--set sim.dt=0x10: sim.dt = '0x10' has junk after the number: 'x10'; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=", "--set sim.dt=: sim.dt has no value; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=1e999", "--set sim.dt=1e999: sim.dt = '1e999' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=-infinity", "--set sim.dt=-infinity: sim.dt = '-infinity' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=nan", "--set sim.dt=nan: sim.dt = 'nan' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=inf", "--set sim.dt=inf: sim.dt = 'inf' is not a finite number; allowed: 1e-06 to 0.1 s"},
        {"sim.dt=1", "--set sim.dt=1: sim.dt = 1 is out of range; allowed: 1e-06 to 0.1 s"},
        {"dinghy.stiffness=-1", "--set dinghy.stiffness=-1: dinghy.stiffness = -1 is out of range; allowed: 1 to 1e+09 N/m"},
        {"scene.count=2.5", "--set scene.count=2.5: scene.count = '2.5' is not a whole number; allowed: an integer from 1 to 1000000"},
        {"scene.name=pond", "--set scene.name=pond: scene.name = 'pond' is not a scene; allowed: one of single, pair, grid, rapids, lake, packed, pile"},
        {"scene.name=rapid", "--set scene.name=rapid: scene.name = 'rapid' is not a scene; did you mean 'rapids'? allowed: one of single, pair, grid, rapids, lake, packed, pile"},
        {"water.model=exakt", "--set water.model=exakt: water.model = 'exakt' is not a choice; did you mean 'exact'? allowed: one of exact, seed"},
        {"sim.seed=-1", "--set sim.seed=-1: sim.seed = '-1' is not an integer from 0 to 18446744073709551615"},
        {"sim.seed= -1", "--set sim.seed= -1: sim.seed = ' -1' is not an integer from 0 to 18446744073709551615"},
        {"sim.seed=18446744073709551616", "--set sim.seed=18446744073709551616: sim.seed = '18446744073709551616' is not an integer from 0 to 18446744073709551615"},
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
        {"dinghy.sides=15", "parameters: dinghy.sides = 15: must be even: the across-tube spring joins n and n + N/2"},
        {"dinghy.band=4", "parameters: dinghy.band = 4: must be odd: the spring neighbourhood is centred on the vertex"},
        {"dinghy.band=31", "parameters: dinghy.band = 31, dinghy.segments = 32, dinghy.sides = 16: must be at most the segments round the ring (32) and the vertices round the tube (16)"},
        {"dinghy.minor_radius=0.9", "parameters: dinghy.minor_radius = 0.9, dinghy.major_radius = 0.8: must be less than the ring radius 0.8 m, or the ring has no hole"},
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
    p.scene.count = 1000000;
    p.sim.ring.segments = 4096;
    p.sim.ring.sides = 4096;
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
    assert_true(p.sim.ring.stiffness == 800.0 && p.sim.ring.pressure == 2.0 && p.scene.index == scene_index("grid"));
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
    assert_int_equal(config_diff(&before, &p, NULL, 0, NULL), 0);
    assert_int_equal(d.count, 4);
    char expect[256];
    snprintf(expect, sizeof expect, "%s:3: unknown key 'dinghy.stifness'; did you mean 'dinghy.stiffness'?", path);
    assert_string_equal(d.lines[0], expect);
    snprintf(expect, sizeof expect, "%s:4: duplicate key dinghy.stiffness (first set on line 2)", path);
    assert_string_equal(d.lines[1], expect);
    snprintf(expect, sizeof expect, "%s:5: expected 'key = value', '[section]' or a ';' comment, got 'just words'", path);
    assert_string_equal(d.lines[2], expect);
    snprintf(expect, sizeof expect, "%s:6: unknown section [boat]; sections are sim, world, water, river, waves, scene, dinghy, render, spray, audio", path);
    assert_string_equal(d.lines[3], expect);
    unlink(path);
    diag_free(&d);
}

/* Bad files, parsed as text through the whole build (file, checks across
 * keys): exactly these messages, in line order, and nothing applied. */
static void test_bad_files(void **state)
{
    (void)state;
    static const struct { const char *text, *messages; } cases[] = {
        {"[dinghi]\nstiffness = 5\n",
         "t.ini:1: unknown section [dinghi]; did you mean [dinghy]?\n"},
        {"[boat]\nhull = 1\nkeel = 2\n",
         "t.ini:1: unknown section [boat]; sections are sim, world, water, river, waves, scene, dinghy, render, spray, audio\n"},
        {"[dinghy\nstiffness = 5\n",
         "t.ini:1: section header '[dinghy' has no closing ']'\n"},
        {"[dinghy] x\nstiffness = 5\n",
         "t.ini:1: unexpected text 'x' after the section header\n"},
        {"stiffness = 5\n",
         "t.ini:1: key 'stiffness' is outside any [section]; put it under one of sim, world, water, river, waves, scene, dinghy, render, spray, audio\n"},
        {"[sim]\ndt: 0.001\n",
         "t.ini:2: expected 'key = value', '[section]' or a ';' comment, got 'dt: 0.001'\n"},
        {"[sim]\n= 0.001\n",
         "t.ini:2: expected 'key = value', '[section]' or a ';' comment, got '= 0.001'\n"},
        {"[sim]\ndt ; = 0.001\n",
         "t.ini:2: expected 'key = value', '[section]' or a ';' comment, got 'dt ; = 0.001'\n"},
        {"[sim]\ndt = 0.001\r\nda\x01mping = 1\n",
         "t.ini:3: control character 0x01 in column 3; is this a text file?\n"},
        {"[sim]\ndt = 0.001x\ndamping = 1 2\nthreads = 1.5\nseed = 12e3\n",
         "t.ini:2: sim.dt = '0.001x' has junk after the number: 'x'; allowed: 1e-06 to 0.1 s\n"
         "t.ini:3: sim.damping = '1 2' has junk after the number: ' 2'; allowed: 0 to 1000 1/s\n"
         "t.ini:4: sim.threads = '1.5' is not a whole number; allowed: an integer from 0 to 1024\n"
         "t.ini:5: sim.seed = '12e3' is not an integer from 0 to 18446744073709551615\n"},
        {"[sim]\ndt = nan\ndamping = inf\ngravity = 1\n",
         "t.ini:2: sim.dt = 'nan' is not a finite number; allowed: 1e-06 to 0.1 s\n"
         "t.ini:3: sim.damping = 'inf' is not a finite number; allowed: 0 to 1000 1/s\n"
         "t.ini:4: unknown key 'sim.gravity'; did you mean 'world.gravity'?\n"},
        {"[dinghy]\nstiffness = -5\nstiffness = 5\n",
         "t.ini:2: dinghy.stiffness = -5 is out of range; allowed: 1 to 1e+09 N/m\n"
         "t.ini:3: duplicate key dinghy.stiffness (first set on line 2)\n"},
        {"[dinghy]\nsides = 15\n\nband = 4\n",
         "t.ini:2: dinghy.sides = 15: must be even: the across-tube spring joins n and n + N/2\n"
         "t.ini:4: dinghy.band = 4: must be odd: the spring neighbourhood is centred on the vertex\n"},
        {"[dinghy]\nsegments = 3\nsides = 4\n",
         "t.ini:2: dinghy.band = 5, dinghy.segments = 3, dinghy.sides = 4: must be at most the segments round the ring (3) and the vertices round the tube (4)\n"},
        {"[dinghy]\nminor_radius = 0.9\n",
         "t.ini:2: dinghy.minor_radius = 0.9, dinghy.major_radius = 0.8: must be less than the ring radius 0.8 m, or the ring has no hole\n"},
        /* a bad value is reported once: the checks that involve it are skipped */
        {"[dinghy]\nsides = x\nband = 4x\n",
         "t.ini:2: dinghy.sides = 'x' is not a number; allowed: an integer from 2 to 4096\n"
         "t.ini:3: dinghy.band = '4x' has junk after the number: 'x'; allowed: an integer from 1 to 31\n"},
        /* a too-long line is one error; the keys after it are still read */
        {"[sim]\ndt = 0.00100000000000000000000000000000000000000000000000000000000000000000000"
         "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000\ndamping = x\n",
         "t.ini:2: line too long (over 198 characters)\n"
         "t.ini:3: sim.damping = 'x' is not a number; allowed: 0 to 1000 1/s\n"},
        {"[scene]\ncount = 1000000\n[dinghy]\nsegments = 4096\n",
         "t.ini:2: scene.count = 1000000, dinghy.segments = 4096, dinghy.sides = 16: 6.55e+10 vertices is more than this program supports (2e9)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        config_source src = {"t.ini", NULL, 0};
        dinghy_settings p = settings_default(), before = p;
        diag_list d = {0};
        assert_int_not_equal(config_build_text(&src, cases[i].text, strlen(cases[i].text), &p, &d), 0);
        char got[4096] = "";
        for (int j = 0; j < d.stored; j++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s\n", d.lines[j]);
        if (strcmp(got, cases[i].messages) != 0)
            fail_msg("case %zu:\n%s\ngot:\n%s\nwanted:\n%s", i, cases[i].text, got, cases[i].messages);
        assert_int_equal(config_diff(&before, &p, NULL, 0, NULL), 0);
        diag_free(&d);
    }
}

/* Good files: exactly these changes from the defaults. */
static void test_good_files(void **state)
{
    (void)state;
    static const struct { const char *text, *changes; } cases[] = {
        {"", ""},
        {"; only a comment\n# another\n\n", ""},
        {"[dinghy]\nstiffness = 800 ; inline comment\n", "dinghy.stiffness 1500 -> 800"},
        {"\xEF\xBB\xBF[dinghy]\r\n  pressure=2\r\n", "dinghy.pressure 1 -> 2"},
        {"[dinghy] ; the ring\nmass = 1.5e1\nsegments = 64.0\n", "dinghy.segments 32 -> 64"},
        {"[scene]\nname = grid\ncount = 16\n[scene]\nspacing = 3", "scene.name rapids -> grid, scene.count 64 -> 16, scene.spacing 2.4 -> 3"},
        {"[sim]\nseed = 18446744073709551615\ndt = +5e-4\n", "sim.dt 0.016666666666666666 -> 0.0005, sim.seed 1 -> 18446744073709551615"},
        {"[water]\nlevel = -0.5\n[audio]\nenabled = 0\n", "water.level 0 -> -0.5, audio.enabled 1 -> 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        config_source src = {"t.ini", NULL, 0};
        dinghy_settings p = settings_default(), def = p;
        diag_list d = {0};
        int rc = config_build_text(&src, cases[i].text, strlen(cases[i].text), &p, &d);
        if (rc != 0)
            fail_msg("case %zu: %s", i, d.stored ? d.lines[0] : "?");
        char changes[512];
        config_diff(&def, &p, changes, sizeof changes, NULL);
        assert_string_equal(changes, cases[i].changes);
        diag_free(&d);
    }
}

/* --set comes after the file; a problem across keys names the --set. */
static void test_build_layers(void **state)
{
    (void)state;
    const char *text = "[dinghy]\nstiffness = 800\nband = 3\n";
    const char *sets[] = {"dinghy.stiffness=900", "dinghy.band=4"};
    config_source src = {"t.ini", sets, 1};
    dinghy_settings p = settings_default();
    diag_list d = {0};
    assert_int_equal(config_build_text(&src, text, strlen(text), &p, &d), 0);
    assert_true(p.sim.ring.stiffness == 900.0 && p.sim.ring.band == 3);
    assert_int_equal(d.count, 0);
    assert_int_equal(d.warnings, 2); /* the springs' keys on the membrane skin */
    diag_free(&d);
    src.nsets = 2;
    assert_int_not_equal(config_build_text(&src, text, strlen(text), &p, &d), 0);
    assert_int_equal(d.count, 1);
    assert_int_equal(d.warnings, 0); /* no warnings for settings that do not run */
    assert_string_equal(d.lines[0], "--set dinghy.band=4: dinghy.band = 4: must be odd: the spring neighbourhood is centred on the vertex");
    assert_true(p.sim.ring.band == 3);
    diag_free(&d);
    /* no file: the defaults and the sets */
    config_source none = {NULL, sets, 1};
    assert_int_equal(config_build(&none, &p, &d), 0);
    assert_true(p.sim.ring.stiffness == 900.0 && p.sim.ring.band == 5);
    diag_free(&d); /* the springs' keys warned about again */
}

/* The shipped dinghy.ini gives exactly the built-in defaults. */
static void test_shipped_ini_is_defaults(void **state)
{
    (void)state;
    dinghy_settings def = settings_default(), p = def;
    p.sim.ring.youngs_modulus = 1.0; /* so that loading has to set it */
    diag_list d = {0};
    assert_int_equal(config_load_file(&p, "dinghy.ini", &d), 0);
    char changes[512];
    assert_int_equal(config_diff(&def, &p, changes, sizeof changes, NULL), 0);
    diag_free(&d);
    /* and sets no key that does nothing: a default run warns of nothing */
    config_source src = {"dinghy.ini", NULL, 0};
    assert_int_equal(config_build(&src, &p, &d), 0);
    if (d.warnings)
        fail_msg("dinghy.ini: %s", d.lines[0]);
    assert_int_equal(d.stored, 0);
    diag_free(&d);
}

static char *ini_text(const dinghy_settings *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    config_write_ini(p, f);
    fclose(f);
    return buf;
}

/* config_write_ini output reads back to the same settings and bytes. */
static void test_round_trip(void **state)
{
    (void)state;
    const char *edits[] = {"", "dinghy.stiffness=1.1", "water.level=-0", "sim.dt=3.3333333333333335e-05",
                           "sim.seed=18446744073709551615", "scene.name=packed", "dinghy.mass=1e-06"};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        dinghy_settings p = settings_default(), q = settings_default();
        diag_list d = {0};
        if (*edits[i])
            assert_int_equal(config_set_assignment(&p, edits[i], &d), 0);
        size_t len1, len2;
        char *a = ini_text(&p, &len1);
        assert_int_equal(config_load_text(&q, "a.ini", a, len1, &d), 0);
        assert_int_equal(config_diff(&p, &q, NULL, 0, NULL), 0);
        char *b = ini_text(&q, &len2);
        assert_int_equal(len1, len2);
        assert_memory_equal(a, b, len1);
        free(a);
        free(b);
        diag_free(&d);
    }
}

static void test_diff_text(void **state)
{
    (void)state;
    dinghy_settings a = settings_default(), b = a;
    b.sim.ring.stiffness = 800;
    b.scene.count = 16;
    b.render.width = 640;
    char text[256];
    int structural = -1;
    assert_int_equal(config_diff(&a, &b, text, sizeof text, &structural), 3);
    assert_string_equal(text, "scene.count 64 -> 16, dinghy.stiffness 1500 -> 800, render.width 1280 -> 640");
    assert_int_equal(structural, 1);
    b.scene.count = 64;
    assert_int_equal(config_diff(&a, &b, text, sizeof text, &structural), 2);
    assert_int_equal(structural, 0);
    /* too little room: what fits, then how many more */
    assert_int_equal(config_diff(&a, &b, text, 50, NULL), 2);
    assert_string_equal(text, "dinghy.stiffness 1500 -> 800, ... (1 more)");
}

static void test_stability_advice(void **state)
{
    (void)state;
    sim_def p = sim_def_default();
    p.ring.skin = SIM_SKIN_SPRINGS; /* the figures below are the springs' */
    char text[512];
    assert_int_equal(config_stability_advice(&p, text, sizeof text), 0);
    p.solver.dt = 0.005;
    /* automatic substeps: no warning at any dt */
    assert_int_equal(config_stability_advice(&p, text, sizeof text), 0);
    p.solver.substeps = 1;
    assert_int_equal(config_stability_advice(&p, text, sizeof text), 1);
    assert_string_equal(text, "warning: sim.dt = 0.005 s in sim.substeps = 1 is above the explicit "
                              "stability bound 0.00122 s (sqrt(2 m / sum k) for vertex mass "
                              "0.0293 kg, band 5, dinghy.stiffness 1500 N/m, and the gas, "
                              "water and skin contact stiffness); use sim.substeps = 0 "
                              "(automatic: 5) or at least 5");
    p.solver.substeps = 5;
    assert_int_equal(config_stability_advice(&p, text, sizeof text), 0);
}

static void make_file(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
}

/* --config, else ./dinghy.ini, else $XDG_CONFIG_HOME or ~/.config, else none. */
static void test_find_file(void **state)
{
    (void)state;
    char cwd[4096], base[] = "/tmp/dinghy-find-XXXXXX", dir[4200], path[4200], note[4400];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_non_null(mkdtemp(base));
    const char *dirs[] = {"run", "xdg", "xdg/dinghy", "home", "home/.config", "home/.config/dinghy"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(dir, sizeof dir, "%s/%s", base, dirs[i]);
        assert_int_equal(mkdir(dir, 0700), 0);
    }
    char xdg_file[4400], home_file[4400], xdg[4200], home[4200], expect[4600];
    snprintf(xdg, sizeof xdg, "%s/xdg", base);
    snprintf(home, sizeof home, "%s/home", base);
    snprintf(xdg_file, sizeof xdg_file, "%s/dinghy/dinghy.ini", xdg);
    snprintf(home_file, sizeof home_file, "%s/.config/dinghy/dinghy.ini", home);
    snprintf(dir, sizeof dir, "%s/run", base);
    assert_int_equal(chdir(dir), 0);
    const char *old_home = getenv("HOME"), *old_xdg = getenv("XDG_CONFIG_HOME");
    char saved_home[4096] = "", saved_xdg[4096] = "";
    if (old_home)
        snprintf(saved_home, sizeof saved_home, "%s", old_home);
    if (old_xdg)
        snprintf(saved_xdg, sizeof saved_xdg, "%s", old_xdg);
    setenv("HOME", home, 1);
    setenv("XDG_CONFIG_HOME", xdg, 1);

    /* nothing anywhere */
    assert_int_equal(config_find_file(NULL, path, sizeof path, note, sizeof note), CONFIG_FILE_NONE);
    assert_string_equal(path, "");
    snprintf(expect, sizeof expect, "no config file (looked for ./dinghy.ini and %s); using the "
             "built-in defaults", xdg_file);
    assert_string_equal(note, expect);
    /* ~/.config when XDG_CONFIG_HOME is unset, empty or relative */
    make_file(home_file);
    assert_int_equal(config_find_file(NULL, path, sizeof path, note, sizeof note), CONFIG_FILE_NONE);
    unsetenv("XDG_CONFIG_HOME");
    assert_int_equal(config_find_file(NULL, path, sizeof path, note, sizeof note), CONFIG_FILE_XDG);
    assert_string_equal(path, home_file);
    setenv("XDG_CONFIG_HOME", "relative/dir", 1);
    assert_int_equal(config_find_file(NULL, path, sizeof path, note, sizeof note), CONFIG_FILE_XDG);
    assert_string_equal(path, home_file);
    /* $XDG_CONFIG_HOME first */
    setenv("XDG_CONFIG_HOME", xdg, 1);
    make_file(xdg_file);
    assert_int_equal(config_find_file(NULL, path, sizeof path, note, sizeof note), CONFIG_FILE_XDG);
    assert_string_equal(path, xdg_file);
    snprintf(expect, sizeof expect, "using config file %s", xdg_file);
    assert_string_equal(note, expect);
    /* then ./dinghy.ini */
    make_file("dinghy.ini");
    assert_int_equal(config_find_file(NULL, path, sizeof path, note, sizeof note), CONFIG_FILE_CWD);
    assert_string_equal(path, "dinghy.ini");
    assert_string_equal(note, "using config file dinghy.ini (current directory)");
    /* and --config beats them all, even when missing (that is an error later) */
    assert_int_equal(config_find_file("nope.ini", path, sizeof path, note, sizeof note), CONFIG_FILE_FLAG);
    assert_string_equal(path, "nope.ini");
    assert_string_equal(note, "using config file nope.ini (--config)");

    unlink("dinghy.ini");
    unlink(xdg_file);
    unlink(home_file);
    for (int i = (int)(sizeof dirs / sizeof dirs[0]) - 1; i >= 0; i--) {
        snprintf(dir, sizeof dir, "%s/%s", base, dirs[i]);
        rmdir(dir);
    }
    rmdir(base);
    assert_int_equal(chdir(cwd), 0);
    if (old_home) setenv("HOME", saved_home, 1); else unsetenv("HOME");
    if (old_xdg) setenv("XDG_CONFIG_HOME", saved_xdg, 1); else unsetenv("XDG_CONFIG_HOME");
}

static void test_table_fits(void **state)
{
    (void)state;
    assert_true(param_table_count <= PARAM_TABLE_MAX);
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


/* ---- keys that do nothing under the models chosen ---- */

/* The table names real keys and choices, and the key that does the job
 * is one that works under that model. */
static void test_inert_table(void **state)
{
    (void)state;
    assert_true(param_inert_count >= 10);
    for (int i = 0; i < param_inert_count; i++) {
        const param_inert *e = &param_inert_table[i];
        const param_key *k = param_find(e->key), *m = param_find(e->model);
        const param_key *instead = param_find(e->instead);
        if (!k || !m || !instead || m->type != PK_CHOICE || param_choice_index(m, e->choice) < 0)
            fail_msg("entry %d (%s): unknown key, model or choice", i, e->key);
        if (!strstr(e->job, e->instead))
            fail_msg("entry %d: '%s' does not name %s", i, e->job, e->instead);
        dinghy_settings p = settings_default();
        *(int *)((char *)&p + m->offset) = param_choice_index(m, e->choice);
        assert_ptr_equal(param_inert_under(k, &p), e);
        if (param_inert_under(instead, &p))
            fail_msg("%s names %s, which does nothing with %s = %s too", e->key, e->instead,
                     e->model, e->choice);
    }
}

/* A value of k other than the one in p, in range (for the band: odd). */
static void other_value(const param_key *k, dinghy_settings *p)
{
    char *field = (char *)p + k->offset;
    if (k->type == PK_INT) { /* 2 away, within the range (a 0-or-1 key: the other) */
        const int v = *(int *)field;
        *(int *)field = v > 3 ? v - 2 : v + 2 <= k->max ? v + 2 : v == (int)k->min ? v + 1 : v - 1;
        return;
    }
    double v = *(double *)field;
    *(double *)field = v == 0.0 ? 0.05 : v * 1.5 <= k->max ? v * 1.5 : v / 1.5;
}

/* The state hash of 0.2 s of three coarse rings piled in a pen (the upper
 * ones fall about 5 cm, inflated, onto the lower: in contact within 0.2 s;
 * 12 steps of the default 1/60 s, about 200 substeps). */
static uint64_t pair_hash(const dinghy_settings *p)
{
    test_params t = {p->sim, p->scene};
    dinghy_sim *s = test_sim(&t);
    sim_step(s, test_steps(&t, 0.2));
    assert_false(sim_blowup(s).happened);
    uint64_t h = sim_hash(s);
    sim_destroy(s);
    return h;
}

/* What the table says is what the code does: under the entry's model the
 * key changes no bit of the state, under the model's other choice it does
 * (so the run is one where the key would show). */
static void test_inert_keys_change_nothing(void **state)
{
    (void)state;
    for (int i = 0; i < param_inert_count; i++) {
        const param_inert *e = &param_inert_table[i];
        const param_key *k = param_find(e->key), *m = param_find(e->model);
        int inert_choice = param_choice_index(m, e->choice);
        for (int live = 0; live < 2; live++) {
            dinghy_settings p = settings_default();
            p.scene.index = scene_index("pile"); /* in contact from the start */
            p.scene.count = 3;
            p.sim.ring.segments = 16;
            p.sim.ring.sides = 8;
            p.sim.solver.threads = 1;
            *(int *)((char *)&p + m->offset) = live ? 1 - inert_choice : inert_choice;
            uint64_t a = pair_hash(&p);
            other_value(k, &p);
            diag_list d = {0};
            if (config_check(&p, "test", &d) != 0)
                fail_msg("%s: %s", e->key, d.lines[0]);
            uint64_t b = pair_hash(&p);
            if (!live && a != b)
                fail_msg("%s changes the state with %s = %s: the table is wrong", e->key,
                         e->model, e->choice);
            if (live && a == b)
                fail_msg("%s changes nothing with %s = %s either: the test run does not show it",
                         e->key, e->model, m->choice(1 - inert_choice));
        }
    }
}

/* One warning per key set (file line or --set) that does nothing, none
 * for keys left at their defaults or that work under the models. */
static void test_inert_warnings(void **state)
{
    (void)state;
    const char *text = "[dinghy]\nstiffness = 3000\nmass = 20\n[water]\nbuoyancy = 150\n";
    const char *sets[] = {"dinghy.repulsion=0.1", "dinghy.youngs_modulus=5e6"};
    config_source src = {"t.ini", sets, 2};
    dinghy_settings p;
    diag_list d = {0};
    assert_int_equal(config_build_text(&src, text, strlen(text), &p, &d), 0);
    assert_int_equal(d.count, 0);
    assert_int_equal(d.warnings, 3);
    assert_int_equal(d.stored, 3);
    assert_string_equal(d.lines[0], "t.ini:2: dinghy.stiffness does nothing with dinghy.skin = "
                        "membrane; the membrane's stiffness is dinghy.youngs_modulus");
    assert_string_equal(d.lines[1], "t.ini:5: water.buoyancy does nothing with water.model = "
                        "exact; the exact model's buoyancy is Archimedes' from water.density");
    assert_string_equal(d.lines[2], "--set dinghy.repulsion=0.1: dinghy.repulsion does nothing "
                        "with dinghy.contact = skin; touching skins are held "
                        "dinghy.contact_thickness apart");
    diag_free(&d);
    /* the same keys under their own models: no warning */
    const char *seed = "[dinghy]\nstiffness = 1500\nskin = springs\ncontact = centreline\n"
                       "[water]\nbuoyancy = 100\nmodel = seed\n";
    src.nsets = 1;
    assert_int_equal(config_build_text(&src, seed, strlen(seed), &p, &d), 0);
    assert_int_equal(d.count + d.warnings, 0);
    /* a file giving inert keys their defaults (the shipped dinghy.ini under
     * the seed's models): nothing; a --set of the default still warns */
    const char *listed = "[dinghy]\nskin = springs\nyoungs_modulus = 4e6\nthickness = 0.0016\n"
                         "[water]\nmodel = seed\ndensity = 1000\n";
    const char *default_set[] = {"dinghy.poisson_ratio=0.49"};
    config_source shipped = {"t.ini", default_set, 1};
    assert_int_equal(config_build_text(&shipped, listed, strlen(listed), &p, &d), 0);
    assert_int_equal(d.warnings, 1);
    assert_string_equal(d.lines[0], "--set dinghy.poisson_ratio=0.49: dinghy.poisson_ratio does "
                        "nothing with dinghy.skin = springs; the springs' stiffness is "
                        "dinghy.stiffness");
    diag_free(&d);
    /* the defaults alone: nothing */
    config_source none = {NULL, NULL, 0};
    assert_int_equal(config_build(&none, &p, &d), 0);
    assert_int_equal(d.stored, 0);
    /* a live edit: the keys it changed that do nothing */
    dinghy_settings before = settings_default(), after = before;
    after.sim.ring.stiffness = 3000;
    after.sim.ring.youngs_modulus = 5e6;
    config_edit_warnings(&before, &after, "panel", &d);
    assert_int_equal(d.warnings, 1);
    assert_string_equal(d.lines[0], "panel: dinghy.stiffness does nothing with dinghy.skin = "
                        "membrane; the membrane's stiffness is dinghy.youngs_modulus");
    diag_free(&d);
    /* printed after the errors' cap, every one */
    for (int i = 0; i < 7; i++)
        diag_add(&d, "error %d", i);
    diag_warn(&d, "a warning");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    diag_print(&d, f);
    fclose(f);
    assert_string_equal(out, "error 0\nerror 1\nerror 2\nerror 3\nerror 4\na warning\n"
                        "and 2 more problems (fix these first)\n");
    free(out);
    diag_free(&d);
}

/* A skin too soft for its gauge is refused before the run, naming the
 * keys; the defaults and the skins that hold their gauge pass. */
static void test_gauge_strain(void **state)
{
    (void)state;
    dinghy_settings p = settings_default();
    const sim_ring_def *r = &p.sim.ring;
    /* the closed form at the inner equator, by hand: 2000 Pa, r 0.25 m,
     * R 0.8 m, E t = 6400 N/m, nu 0.49 */
    double n_phi = 2000.0 * 0.25 * (1.6 - 0.25) / (2.0 * 0.55), n_theta = 2000.0 * 0.25 / 2.0;
    assert_close(sim_ring_gauge_strain(r), (n_phi - 0.49 * n_theta) / 6400.0, 1e-12);
    assert_true(sim_ring_gauge_strain(r) < 0.5 * SIM_MEMBRANE_MAX_GAUGE_STRAIN);
    diag_list d = {0};
    assert_int_equal(config_check(&p, "parameters", &d), 0);
    /* just past and just within the limit, by E */
    double e_limit = r->youngs_modulus * sim_ring_gauge_strain(r) / SIM_MEMBRANE_MAX_GAUGE_STRAIN;
    p.sim.ring.youngs_modulus = 0.99 * e_limit;
    assert_int_not_equal(config_check(&p, "parameters", &d), 0);
    assert_int_equal(d.count, 1);
    assert_non_null(strstr(d.lines[0], "dinghy.youngs_modulus = "));
    assert_non_null(strstr(d.lines[0], ", dinghy.gauge_pressure = 2000, dinghy.thickness = 0.0016: "
                                       "the skin is too soft for its gauge"));
    diag_free(&d);
    p.sim.ring.youngs_modulus = 1.01 * e_limit;
    assert_int_equal(config_check(&p, "parameters", &d), 0);
    /* the softest allowed rubber holds a low gauge, not the default one */
    const char *sets[] = {"dinghy.youngs_modulus=1e5", "dinghy.gauge_pressure=100"};
    config_source src = {NULL, sets, 2};
    assert_int_equal(config_build(&src, &p, &d), 0);
    src.nsets = 1;
    assert_int_not_equal(config_build(&src, &p, &d), 0);
    assert_int_equal(d.count, 1);
    assert_string_equal(d.lines[0], "--set dinghy.youngs_modulus=1e5: dinghy.youngs_modulus = "
                        "100000, dinghy.gauge_pressure = 2000, dinghy.thickness = 0.0016: the "
                        "skin is too soft for its gauge: it would stretch by 3.1 round the tube "
                        "(linear closed form), past 1 (inflated, 1.7 times its rest size); use a "
                        "lower gauge or a stiffer or thicker skin");
    diag_free(&d);
    /* the gauge does not stretch the springs, nor a constant inflation */
    const char *springs[] = {"dinghy.youngs_modulus=1e5", "dinghy.skin=springs"};
    config_source s2 = {NULL, springs, 2};
    assert_int_equal(config_build(&s2, &p, &d), 0);
    const char *constant[] = {"dinghy.youngs_modulus=1e5", "dinghy.inflation=constant"};
    config_source s3 = {NULL, constant, 2};
    assert_int_equal(config_build(&s3, &p, &d), 0);
    assert_int_equal(d.count, 0);
    diag_free(&d);
    /* a skin too thin to hang the ring's weight (no gauge to blame): 1 um
     * of 4 MPa under 15 kg is refused (it tore in 1 s), 5 um runs */
    dinghy_settings w = settings_default();
    assert_close(sim_ring_weight_strain(&w.sim.ring, 9.81),
                 15.0 * 9.81 / sim_ring_rest_area(&w.sim.ring) * 0.25 / 6400.0, 1e-12);
    const char *thin[] = {"dinghy.gauge_pressure=0", "dinghy.thickness=1e-6"};
    config_source s4 = {NULL, thin, 2};
    assert_int_not_equal(config_build(&s4, &w, &d), 0);
    assert_int_equal(d.count, 1);
    assert_non_null(strstr(d.lines[0], "too thin or soft for the ring's weight"));
    diag_free(&d);
    const char *thin5[] = {"dinghy.gauge_pressure=0", "dinghy.thickness=5e-6"};
    config_source s5 = {NULL, thin5, 2};
    assert_int_equal(config_build(&s5, &w, &d), 0);
    diag_free(&d);
    /* the allowed range of E: soft rubber to rigid vinyl */
    const param_key *k = param_find("dinghy.youngs_modulus");
    assert_true(k->min <= 1e5 && k->max >= 1e9);
}

/* An error across keys names where the key the user gave was set: --set
 * before a file line, and the ring count by scene.count. */
static void test_error_origins(void **state)
{
    (void)state;
    const char *text = "[dinghy]\nsegments = 32\nband = 5\n[scene]\ncount = 100\n";
    const char *sets[] = {"scene.count=1000000", "dinghy.sides=4"};
    config_source src = {"t.ini", sets, 1};
    dinghy_settings p;
    diag_list d = {0};
    assert_int_not_equal(config_build_text(&src, text, strlen(text), &p, &d), 0);
    assert_int_equal(d.count, 1);
    if (strncmp(d.lines[0], "--set scene.count=1000000: scene.count = 1000000, dinghy.segments = "
                "32, dinghy.sides = 16: 1000000 rings of 32 x 16 vertices need ", 95) != 0)
        fail_msg("%s", d.lines[0]);
    diag_free(&d);
    /* from the file alone: the line of the count */
    const char *huge = "[dinghy]\nsegments = 4096\n[scene]\ncount = 1000000\n";
    src.nsets = 0;
    assert_int_not_equal(config_build_text(&src, huge, strlen(huge), &p, &d), 0);
    assert_int_equal(d.count, 1);
    assert_string_equal(d.lines[0], "t.ini:4: scene.count = 1000000, dinghy.segments = 4096, "
                        "dinghy.sides = 16: 6.55e+10 vertices is more than this program "
                        "supports (2e9)");
    diag_free(&d);
    /* a band that fits the file's mesh but not the --set one: the --set */
    src.sets = sets + 1;
    src.nsets = 1;
    assert_int_not_equal(config_build_text(&src, text, strlen(text), &p, &d), 0);
    assert_int_equal(d.count, 1);
    assert_string_equal(d.lines[0], "--set dinghy.sides=4: dinghy.band = 5, dinghy.segments = 32, "
                        "dinghy.sides = 4: must be at most the segments round the ring (32) and "
                        "the vertices round the tube (4)");
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
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_good_files),
        cmocka_unit_test(test_build_layers),
        cmocka_unit_test(test_shipped_ini_is_defaults),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_diff_text),
        cmocka_unit_test(test_stability_advice),
        cmocka_unit_test(test_table_fits),
        cmocka_unit_test(test_find_file),
        cmocka_unit_test(test_inert_table),
        cmocka_unit_test(test_inert_keys_change_nothing),
        cmocka_unit_test(test_inert_warnings),
        cmocka_unit_test(test_gauge_strain),
        cmocka_unit_test(test_error_origins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
