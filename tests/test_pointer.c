/* The demo's hands, driven by scripted input as a user would: grab and
 * lift, throw, drop in, take out and puncture (against the orifice-flow
 * closed form of docs/physics.md 6b), and the same hash for the same actions
 * at any thread count. No window: the script feeds an input directly. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/input_script.h"
#include "app/pointer.h"
#include "config/settings.h"
#include "render/camera.h"
#include "render/input.h"

static const double PI = 3.14159265358979323846;
#define W 1280
#define H 720
#define STEPS_PER_FRAME 16 /* 60 frames a second at dt = 1 ms, nearly */

/* A user at the screen: the camera, an input fed by a script, the hands. */
typedef struct {
    dinghy_sim *sim;
    orbit_camera camera;
    input *in;
    input_script *script;
    pointer_state play;
} session;

/* One ring of the program's defaults on still water, already floating. */
static test_params lake_single(int threads)
{
    test_params p = test_physical();
    p.scene.index = scene_index("single");
    p.scene.height = 0.0;
    p.def.solver.threads = threads;
    return p;
}

/* Loads a script from its text (through a file, as --input does); NULL
 * with the loader's message in err. */
static input_script *script_load_text(const char *text, char *err, size_t err_len, char *path_out)
{
    char path[] = "/tmp/dinghy-test-play-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    test_write_file(path, text);
    input_script *s = input_script_load(path, err, err_len);
    unlink(path);
    if (path_out)
        strcpy(path_out, path);
    return s;
}

static input_script *script_of(const char *text)
{
    char err[512];
    input_script *s = script_load_text(text, err, sizeof err, NULL);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* Looks at the ring from a usual demo view: from the side and above. */
static void session_open(session *u, const test_params *p, const char *script_text)
{
    char err[512];
    u->sim = room_sim_create(&p->def, &p->scene, err, sizeof err);
    assert_non_null(u->sim);
    const double *c = sim_rings(u->sim)[0].centre;
    float lo[3] = {(float)c[0] - 3.0f, (float)c[1] - 3.0f, (float)c[2] - 0.5f};
    float hi[3] = {(float)c[0] + 3.0f, (float)c[1] + 3.0f, (float)c[2] + 0.5f};
    u->camera = camera_framing(lo, hi);
    u->in = input_create(&u->camera, H);
    assert_non_null(u->in);
    u->script = script_of(script_text);
    pointer_init(&u->play);
}

static void session_close(session *u)
{
    input_script_free(u->script);
    input_detach(u->in);
    sim_destroy(u->sim);
}

/* One frame of the demo loop: the script's events due, the hands, the steps. */
static void frame(session *u)
{
    input_script_play(u->script, sim_time(u->sim), W, H, W, H, u->in);
    input_actions a = input_take(u->in);
    pointer_frame(&u->play, &a, u->sim, &u->camera, W, H, STEPS_PER_FRAME * sim_get_def(u->sim)->solver.dt);
    assert_int_equal(sim_step(u->sim, STEPS_PER_FRAME), STEPS_PER_FRAME);
}

/* Runs frames until simulated time t (s). */
static void run_until(session *u, double t)
{
    while (sim_time(u->sim) < t - 1e-9)
        frame(u);
}

/* The pixel where a world point shows. */
static void pixel_of(const session *u, const double p[3], float px[2])
{
    float w[3] = {(float)p[0], (float)p[1], (float)p[2]};
    assert_int_equal(camera_project(&u->camera, W, H, w, &px[0], &px[1]), 0);
}

/* Pixel over the near side of ring p's tube top: a point a ray will hit. */
static void pixel_on_ring(const session *u, int ring, float px[2])
{
    const sim_ring_state *r = &sim_rings(u->sim)[ring];
    const sim_ring_def *d = &sim_get_def(u->sim)->ring;
    float eye[3];
    camera_eye(&u->camera, eye);
    /* on the tube's outer upper quarter, on the side facing the eye */
    double dx = eye[0] - r->centre[0], dy = eye[1] - r->centre[1], len = sqrt(dx * dx + dy * dy);
    double out = d->major_radius + 0.7 * d->minor_radius;
    double at[3] = {r->centre[0] + out * dx / len, r->centre[1] + out * dy / len,
                    r->centre[2] + 0.7 * d->minor_radius};
    pixel_of(u, at, px);
}

/* Where ring 0 shows once it has floated until t (s): a session with
 * nobody at the controls, looked at as the scripted one will be. */
static void settled_pixel(const test_params *p, double t, float px[2])
{
    session u;
    session_open(&u, p, "");
    run_until(&u, t);
    pixel_on_ring(&u, 0, px);
    session_close(&u);
}

/* Left press on the ring, the cursor glides straight up the screen: the
 * ring leaves the water and stays in the hand while it is dragged about. */
static void test_grab_lifts_and_holds(void **state)
{
    (void)state;
    test_params p = lake_single(2);
    session u;
    char script[1024];
    float px[2];
    settled_pixel(&p, 1.0, px); /* afloat by then */
    snprintf(script, sizeof script,
             "# grab the ring and lift it, then drag it sideways\n"
             "1.0 cursor %.1f %.1f\n"
             "1.1 press left\n"
             "1.2 cursor %.1f %.1f 0.8\n"
             "2.5 cursor %.1f %.1f 1.0\n"
             "4.0 release left\n",
             px[0], px[1], px[0], px[1] - 200.0f, px[0] + 150.0f, px[1] - 200.0f);
    session_open(&u, &p, script);
    const double level = p.def.world.water.level;
    run_until(&u, 1.15);
    assert_int_equal(sim_ring_index(u.sim, sim_grabbed_ring(u.sim)), 0);
    run_until(&u, 2.5);
    double lifted = sim_rings(u.sim)[0].min_z - level;
    for (; sim_time(u.sim) < 3.95;) { /* held all the way through the drag */
        frame(&u);
        assert_int_equal(sim_ring_index(u.sim, sim_grabbed_ring(u.sim)), 0);
        assert_true(sim_rings(u.sim)[0].min_z > level);
    }
    printf("lowest vertex %.3f m above the water while held\n", lifted);
    assert_true(lifted > 0.05);
    run_until(&u, 4.05);
    assert_false(sim_ring_valid(u.sim, sim_grabbed_ring(u.sim)));
    session_close(&u);
}

/* A throw: the hand moves at a steady speed, lets go, and the ring flies
 * on at the hand's velocity (within 10%). */
static void test_throw_gives_release_velocity(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* sanitizer build: the grab test runs the same hand code, shorter */
    test_params p = lake_single(2);
    session u;
    float px[2];
    settled_pixel(&p, 1.0, px);
    char script[1024];
    snprintf(script, sizeof script,
             "1.0 cursor %.1f %.1f\n"
             "1.1 press left\n"
             "1.2 cursor %.1f %.1f 0.5\n"   /* lift */
             "2.0 cursor %.1f %.1f 0.8\n"   /* steady swing to the right */
             "2.7 release left\n",            /* let go while swinging */
             px[0], px[1], px[0], px[1] - 150.0f, px[0] + 400.0f, px[1] - 150.0f);
    session_open(&u, &p, script);
    run_until(&u, 2.5);
    double a[3], b[3];
    assert_int_equal(sim_grab_target(u.sim, a), 0);
    double t0 = sim_time(u.sim);
    run_until(&u, 2.65);
    assert_int_equal(sim_grab_target(u.sim, b), 0);
    double hand_v[3];
    for (int k = 0; k < 3; k++)
        hand_v[k] = (b[k] - a[k]) / (sim_time(u.sim) - t0);
    run_until(&u, 2.72);
    assert_false(sim_ring_valid(u.sim, sim_grabbed_ring(u.sim)));
    const double *v = sim_rings(u.sim)[0].velocity;
    double dv = 0.0, hv = 0.0;
    for (int k = 0; k < 3; k++) {
        dv += (v[k] - hand_v[k]) * (v[k] - hand_v[k]);
        hv += hand_v[k] * hand_v[k];
    }
    printf("hand %.3f m/s, ring %.3f %.3f %.3f m/s, difference %.1f%%\n", sqrt(hv), v[0], v[1],
           v[2], 100.0 * sqrt(dv / hv));
    assert_true(sqrt(hv) > 1.0); /* a real throw */
    assert_true(sqrt(dv) < 0.1 * sqrt(hv));
    session_close(&u);
}

/* A yank: the ring grabbed with Shift (a level plane) and the cursor
 * flung up toward the horizon, where that plane is hundreds of metres
 * away. The hand's pull is capped, so the ring is dragged, not torn
 * (frame() asserts every step is done: no blow-up), and it is thrown no
 * faster than SIM_GRAB_MAX_THROW. */
static void test_yank_does_not_tear(void **state)
{
    (void)state;
    test_params p = lake_single(2);
    float px[2], far_px[2];
    session u;
    session_open(&u, &p, "");
    run_until(&u, 1.0);
    pixel_on_ring(&u, 0, px);
    float eye[3];
    camera_eye(&u.camera, eye);
    double dx = u.camera.target[0] - eye[0], dy = u.camera.target[1] - eye[1];
    double len = hypot(dx, dy), z = sim_rings(u.sim)[0].max_z;
    double away[3] = {u.camera.target[0] + 300.0 * dx / len, u.camera.target[1] + 300.0 * dy / len, z};
    pixel_of(&u, away, far_px); /* 300 m off along the level plane */
    session_close(&u);
    char script[512];
    snprintf(script, sizeof script,
             "1.0 cursor %.1f %.1f\n1.0 keydown shift\n1.1 press left\n"
             "1.2 cursor %.1f %.1f\n1.6 release left\n", px[0], px[1], px[0], far_px[1]);
    session_open(&u, &p, script);
    run_until(&u, 1.55);
    double hand[3];
    assert_int_equal(sim_grab_target(u.sim, hand), 0);
    const double *c = sim_rings(u.sim)[0].centre;
    double far = hypot(hand[0] - c[0], hand[1] - c[1]);
    run_until(&u, 1.7);
    const double *v = sim_rings(u.sim)[0].velocity;
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    printf("hand %.0f m away, ring thrown at %.1f m/s\n", far, speed);
    assert_true(far > 20.0); /* a real yank */
    assert_true(speed <= SIM_GRAB_MAX_THROW * 1.05);
    run_until(&u, test_quick() ? 1.8 : 3.0);
    session_close(&u);
}

/* D drops a ring in where the cursor points at the water; X takes the
 * ring under the cursor out; the others keep their order and state. */
static void test_drop_in_and_take_out(void **state)
{
    (void)state;
    test_params p = lake_single(2);
    session u;
    session_open(&u, &p, "");
    /* the water at pixel (300, 500): where the ray meets the flat level */
    float o[3], d[3];
    assert_int_equal(camera_ray(&u.camera, W, H, 300.0f, 500.0f, o, d), 0);
    double t = (p.def.world.water.level - o[2]) / d[2];
    double want[2] = {o[0] + t * d[0], o[1] + t * d[1]};
    session_close(&u);
    /* the second one beside the first (dropped on it, it lies on top and
     * hides the first from the cursor) */
    session_open(&u, &p, "0.5 cursor 300 500\n0.5 key d\n0.6 cursor 700 500\n0.6 key d\n");
    run_until(&u, 0.55);
    assert_int_equal(sim_ring_count(u.sim), 2);
    const sim_ring_state *r = &sim_rings(u.sim)[1];
    printf("dropped at (%.3f, %.3f), cursor on the water at (%.3f, %.3f)\n", r->centre[0],
           r->centre[1], want[0], want[1]);
    assert_true(fabs(r->centre[0] - want[0]) < 0.02 && fabs(r->centre[1] - want[1]) < 0.02);
    assert_true(r->centre[2] > p.def.world.water.level + 0.3); /* above the water, falling */
    run_until(&u, 2.0);
    assert_int_equal(sim_ring_count(u.sim), 3);
    /* take the middle one out: the third becomes the second, unchanged,
     * and keeps its id; the middle one's id goes stale */
    sim_ring_state third = sim_rings(u.sim)[2];
    const sim_ring_id first_id = sim_ring_id_at(u.sim, 0), middle_id = sim_ring_id_at(u.sim, 1);
    const sim_ring_id third_id = sim_ring_id_at(u.sim, 2);
    float px[2];
    pixel_on_ring(&u, 1, px);
    input_event ev = {INPUT_EVENT_CURSOR, 0, px[0], px[1]};
    input_feed(u.in, &ev);
    input_event x = {INPUT_EVENT_KEY_DOWN, input_key_named("x"), 0.0f, 0.0f};
    input_feed(u.in, &x);
    input_actions a = input_take(u.in);
    pointer_frame(&u.play, &a, u.sim, &u.camera, W, H, 0.0);
    assert_int_equal(sim_ring_count(u.sim), 2);
    assert_memory_equal(sim_rings(u.sim)[1].centre, third.centre, sizeof third.centre);
    assert_int_equal(sim_ring_index(u.sim, first_id), 0);
    assert_int_equal(sim_ring_index(u.sim, third_id), 1);
    assert_false(sim_ring_valid(u.sim, middle_id));
    assert_int_equal(sim_remove_ring(u.sim, middle_id), -1);
    assert_int_equal(sim_place_ring(u.sim, middle_id, &(sim_ring_pose){{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}), -1);
    assert_int_equal(sim_step(u.sim, 500), 500);
    /* all out, then one in again: an empty river waits, the new ring runs */
    while (sim_ring_count(u.sim) > 0)
        assert_int_equal(sim_remove_ring(u.sim, sim_ring_id_at(u.sim, 0)), 0);
    assert_int_equal(sim_remove_ring(u.sim, sim_ring_id_at(u.sim, 0)), -1);
    assert_int_equal(sim_step(u.sim, 10), 0);
    sim_ring_pose pose = {{0.0, 0.0, 0.5}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.0, 0.0, 0.0}};
    const sim_ring_id again = sim_add_ring(u.sim, &pose);
    assert_int_equal(sim_ring_index(u.sim, again), 0);
    /* a reused slot has a new generation: the old ids stay stale */
    assert_false(sim_ring_valid(u.sim, first_id) || sim_ring_valid(u.sim, middle_id)
                 || sim_ring_valid(u.sim, third_id));
    assert_false(sim_ring_valid(u.sim, SIM_RING_NONE));
    assert_int_equal(sim_step(u.sim, 100), 100);
    session_close(&u);
}

/* The gauge pressure of a ring that keeps its volume falls as docs/physics.md
 * 6b says: dp/dt = -(p_air C_d A / (rho V)) sqrt(2 rho dp) for dp << p_air,
 * so sqrt(dp) falls linearly and dp is a quarter of its start at
 * t = sqrt(dp0) / K, K = p_air C_d A sqrt(2 / rho) / V. Stiff springs
 * and no gravity keep the volume nearly constant. */
static void test_puncture_orifice_flow(void **state)
{
    (void)state;
    test_params p = lake_single(1); /* the law, not the threads: one ring, one thread */
    p.def.world.gravity = 0.0;
    p.def.world.water.level = -100.0; /* in the air */
    p.def.ring.skin = SIM_SKIN_SPRINGS; /* stiff springs keep the volume */
    p.def.ring.gauge_pressure = 500.0;
    p.def.ring.stiffness = 20000.0;
    dinghy_sim *s = test_sim(&p);
    const double area = 0.25 * PI * 0.01 * 0.01;
    assert_int_equal(sim_puncture(s, sim_ring_id_at(s, 0), area), 0);
    assert_int_equal(sim_puncture(s, sim_ring_id_at(s, 5), area), -1);
    const sim_world_def *w = &p.def.world;
    double V = sim_rings(s)[0].volume, dp0 = p.def.ring.gauge_pressure;
    double K = w->air_pressure * SIM_HOLE_DISCHARGE * area * sqrt(2.0 / w->air_density) / V;
    double t_quarter = sqrt(dp0) / K;
    /* looked at every 10 ms: 0.3% of the time to a quarter, the tolerance 5% */
    const long chunk = 10;
    double t = 0.0, dt = p.def.solver.dt;
    while (sim_rings(s)[0].pressure - w->air_pressure > 0.25 * dp0) {
        assert_int_equal(sim_step(s, chunk), chunk);
        t += (double)chunk * dt;
        assert_true(t < 3.0 * t_quarter);
        if (test_quick() && t > 0.2) { /* sanitizer build: the leak runs; the timing is the optimised build's */
            sim_destroy(s);
            return;
        }
    }
    double leak = sim_rings(s)[0].leak;
    printf("gauge at a quarter after %.3f s, closed form %.3f s; volume %.4f -> %.4f m^3; "
           "leak %.2e kg/s\n", t, t_quarter, V, sim_rings(s)[0].volume, leak);
    assert_true(fabs(t - t_quarter) < 0.05 * t_quarter);
    assert_true(leak > 0.0);
    assert_true(sim_rings(s)[0].gas_fraction < 1.0);
    sim_destroy(s);
}

/* Opens u on p, lets ring 0 float until 3 s, puts the cursor on it and
 * plays `keys` (script lines at time 0) in one frame; returns the ring's
 * state before the keys. */
static sim_ring_state keys_on_floating_ring(session *u, const test_params *p, const char *keys)
{
    session_open(u, p, "");
    run_until(u, test_quick() ? 1.0 : 3.0); /* sanitizer build: afloat by 1 s (settled_pixel) */
    float px[2];
    pixel_on_ring(u, 0, px);
    sim_ring_state before = sim_rings(u->sim)[0];
    char script[256];
    snprintf(script, sizeof script, "0 cursor %.1f %.1f\n%s", px[0], px[1], keys);
    input_script_free(u->script);
    u->script = script_of(script);
    frame(u);
    return before;
}

/* K on a floating ring: its gauge pressure and volume fall, and it floats
 * lower. The default skin is a membrane: the gas holds the shape, and the
 * ring shrinks back toward its unstretched size as the gas goes, which
 * keeps the gauge up: the 1 cm hole takes about a minute (a rigid vessel
 * of the same volume: 14 s), and the ring ends near its rest volume. */
static void test_punctured_ring_floats_lower(void **state)
{
    (void)state;
    test_params p = lake_single(2);
    session u;
    sim_ring_state before = keys_on_floating_ring(&u, &p, "0 key k\n");
    assert_true(sim_rings(u.sim)[0].hole_area > 0.0);
    double gauge_before = before.pressure - p.def.world.air_pressure;
    double last_gauge = gauge_before;
    if (test_quick()) { /* sanitizer build: a second of the leak; the fall is the optimised build's */
        run_until(&u, sim_time(u.sim) + 1.0);
        session_close(&u);
        return;
    }
    for (int i = 0; i < 150 && last_gauge >= 0.05 * gauge_before; i++) { /* falls all along */
        run_until(&u, sim_time(u.sim) + 1.0);
        double g = sim_rings(u.sim)[0].pressure - p.def.world.air_pressure;
        assert_true(g < last_gauge || g < 1.0);
        last_gauge = g;
    }
    const sim_ring_state *r = &sim_rings(u.sim)[0];
    printf("gauge %.1f -> %.1f Pa after %.0f s, volume %.4f -> %.4f m^3 (rest %.4f), centre z "
           "%.4f -> %.4f m, lowest %.4f -> %.4f m\n", gauge_before, last_gauge, sim_time(u.sim),
           before.volume, r->volume, sim_rest_volume(u.sim), before.centre[2], r->centre[2],
           before.min_z, r->min_z);
    assert_true(last_gauge < 0.05 * gauge_before);
    assert_true(r->volume < before.volume - 0.05);
    assert_true(r->centre[2] < before.centre[2] - 0.0005);
    session_close(&u);
}

/* Shift+K on a floating ring bursts it: one 0.3 m hole, and within 8 s
 * its gas is gone and it lies folded on the water below 45% of its rest
 * volume (test_skin_membrane's burst test: about 34% after 20 s). */
static void test_burst_folds_flat(void **state)
{
    (void)state;
    test_params p = lake_single(2);
    session u;
    keys_on_floating_ring(&u, &p, "0 keydown shift\n0 key k\n0 keyup shift\n");
    const double burst = 0.25 * PI * POINTER_BURST_DIAMETER * POINTER_BURST_DIAMETER;
    assert_close(sim_rings(u.sim)[0].hole_area, burst, 1e-9 * burst);
    /* the air rushes out: the hiss and the HUD read this flow */
    run_until(&u, sim_time(u.sim) + 0.05);
    const double rush = sim_rings(u.sim)[0].leak;
    printf("    burst: %.1f g/s of air out after 0.05 s\n", 1000.0 * rush);
    assert_true(rush > 0.01); /* a 1 cm hole at 2 kPa: about 3 g/s */
    if (test_quick()) { /* sanitizer build: the burst ran; the folding is the optimised build's */
        session_close(&u);
        return;
    }
    run_until(&u, sim_time(u.sim) + 8.0);
    const sim_ring_state *r = &sim_rings(u.sim)[0];
    printf("    burst: after 8 s, gauge %.2f Pa, volume %.3f of its rest volume\n",
           r->pressure - p.def.world.air_pressure, r->volume / sim_rest_volume(u.sim));
    assert_true(r->volume < 0.45 * sim_rest_volume(u.sim));
    session_close(&u);
}

/* The same actions give the same state for 1, 2 and 3 threads. */
static void test_play_deterministic(void **state)
{
    (void)state;
    uint64_t first = 0;
    for (int threads = 1; threads <= (test_quick() ? 2 : 3); threads++) {
        test_params p = lake_single(threads);
        session u;
        session_open(&u, &p, "0.2 cursor 300 500\n0.2 key d\n0.3 cursor 640 300\n"
                             "0.3 key d\n1.0 cursor 640 360\n1.0 press left\n"
                             "1.1 cursor 700 200 0.5\n1.7 release left\n1.8 key k\n");
        run_until(&u, test_quick() ? 2.0 : 3.0); /* the script ends at 1.8 s */
        assert_int_equal(sim_ring_count(u.sim), 3);
        uint64_t h = sim_hash(u.sim);
        if (threads == 1)
            first = h;
        assert_true(h == first);
        session_close(&u);
    }
}

/* The panel by script, as a user at the keys: Tab opens it, Down three
 * times selects sim.damping, Right once and Shift+Right once step it
 * (0.1 and ten times 0.1 1/s), applied to the running ring at once. */
static void test_panel_by_script(void **state)
{
    (void)state;
    test_params p = lake_single(2);
    dinghy_settings settings = settings_default();
    settings.sim = p.def;
    settings.scene = p.scene;
    session u;
    session_open(&u, &p, "0.1 key tab\n0.1 key down\n0.1 key down\n0.1 key down\n"
                         "0.2 key right\n0.3 keydown shift\n0.3 key right\n0.3 keyup shift\n");
    panel *pn = panel_create();
    assert_non_null(pn);
    assert_string_equal(panel_row_key(pn, 3), "sim.damping");
    render_text_box box = {0};
    reload_report rep = {0};
    int shown = 0;
    const double before = settings.sim.solver.damping;
    while (sim_time(u.sim) < 0.4) {
        input_script_play(u.script, sim_time(u.sim), W, H, W, H, u.in);
        input_actions a = input_take(u.in);
        shown ^= a.toggle_panel & 1;
        if (shown)
            pointer_panel(pn, &a, &box, &settings, &u.sim, &rep, NULL);
        assert_int_equal(sim_step(u.sim, STEPS_PER_FRAME), STEPS_PER_FRAME);
    }
    printf("damping %g -> %g 1/s\n", before, sim_get_def(u.sim)->solver.damping);
    assert_true(shown);
    assert_true(fabs(sim_get_def(u.sim)->solver.damping - (before + 1.1)) < 1e-12);
    assert_true(settings.sim.solver.damping == sim_get_def(u.sim)->solver.damping);
    reload_report_free(&rep);
    panel_destroy(pn);
    session_close(&u);
}

/* Bad scripts are refused with the file, the line and what to write. */
static void test_script_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "1.0 jump\n", "x cursor 1 2\n", "1.0 key bogus\n", "2.0 key a\n1.0 key b\n",
        "1.0 cursor 1\n", "1.0 press thumb\n", "-1 key a\n", "1.0 cursor nan 2\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char path[64], err[512] = "";
        input_script *s = script_load_text(bad[i], err, sizeof err, path);
        assert_null(s);
        assert_non_null(strstr(err, path));
        assert_non_null(strstr(err, ":1:") ? strstr(err, ":1:") : strstr(err, ":2:"));
    }
    char err[512];
    assert_null(input_script_load("/nonexistent/script", err, sizeof err));
    assert_non_null(strstr(err, "cannot read"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_script_errors),
        cmocka_unit_test(test_puncture_orifice_flow),
        cmocka_unit_test(test_grab_lifts_and_holds),
        cmocka_unit_test(test_throw_gives_release_velocity),
        cmocka_unit_test(test_yank_does_not_tear),
        cmocka_unit_test(test_drop_in_and_take_out),
        cmocka_unit_test(test_punctured_ring_floats_lower),
        cmocka_unit_test(test_burst_folds_flat),
        cmocka_unit_test(test_play_deterministic),
        cmocka_unit_test(test_panel_by_script),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
