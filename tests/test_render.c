/* The renderer: camera math, the demo's physics clock, the HUD text, and
 * real pictures rendered offscreen (needs an X display: `make test-render`
 * runs this under Xvfb with Mesa's llvmpipe). Pixels are checked with
 * tolerances, never byte for byte. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "app/capture.h"
#include "app/frame_clock.h"
#include "audio/scene_sound.h"
#include "dinghy/river.h"
#include "physics/water/waves.h"
#include "physics/water/waves_couple.h"
#include "render/png.h"
#include "render/camera.h"
#include "render/course_map.h"
#include "render/crowd_camera.h"
#include "render/hud.h"
#include "render/offscreen.h"
#include "render/palette.h"
#include "render/render.h"
#include "render/resolution.h"
#include "render/river_water.h"
#include "render/rocks.h"
#include "render/shader.h"
#include "render/window.h"

#define W 480
#define H 270
#define DROP_STEPS 1500

/* The test binary is linked with --wrap=malloc,calloc,realloc: every
 * allocation made by the project's own code (not the GL driver's) is
 * counted here. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
static long allocations;
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { allocations++; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { allocations++; return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { allocations++; return __real_realloc(p, n); }

/* ---- camera (no GL) ---- */

static orbit_camera test_camera(void)
{
    float lo[3] = {-5, -5, -0.3f}, hi[3] = {5, 5, 0.3f};
    return camera_framing(lo, hi);
}

static void camera_projects_target_to_centre(void **state)
{
    (void)state;
    orbit_camera c = test_camera();
    float px, py;
    assert_int_equal(camera_project(&c, W, H, c.target, &px, &py), 0);
    assert_true(fabsf(px - W / 2.0f) < 0.5f && fabsf(py - H / 2.0f) < 0.5f);
    /* up in the world is up on the screen */
    float above[3] = {c.target[0], c.target[1], c.target[2] + 1.0f};
    float ax, ay;
    assert_int_equal(camera_project(&c, W, H, above, &ax, &ay), 0);
    assert_true(ay < py - 5.0f);
    /* a point behind the eye does not project */
    float eye[3], behind[3];
    camera_eye(&c, eye);
    for (int k = 0; k < 3; k++)
        behind[k] = eye[k] + (eye[k] - c.target[k]);
    assert_int_equal(camera_project(&c, W, H, behind, &px, &py), -1);
}

static void camera_pan_follows_the_cursor(void **state)
{
    (void)state;
    orbit_camera c = test_camera();
    float old[3] = {c.target[0], c.target[1], c.target[2]}, px, py;
    camera_pan(&c, 100.0f, -40.0f, (float)H);
    assert_int_equal(camera_project(&c, W, H, old, &px, &py), 0);
    /* the point that was under the cursor moved with it */
    assert_true(fabsf(px - (W / 2.0f + 100.0f)) < 1.0f);
    assert_true(fabsf(py - (H / 2.0f - 40.0f)) < 1.0f);
}

static void camera_orbit_and_zoom_stay_in_limits(void **state)
{
    (void)state;
    orbit_camera c = test_camera();
    camera_orbit(&c, 0.3f, 10.0f);
    assert_true(fabsf(c.pitch - CAMERA_MAX_PITCH) < 1e-6f);
    camera_orbit(&c, 0.0f, -10.0f);
    assert_true(fabsf(c.pitch - CAMERA_MIN_PITCH) < 1e-6f);
    float d = c.distance;
    camera_zoom(&c, 1.0f);
    assert_true(fabsf(c.distance - 0.88f * d) < 1e-4f * d);
    camera_zoom(&c, 1000.0f);
    assert_true(fabsf(c.distance - CAMERA_MIN_DISTANCE) < 1e-6f);
    camera_zoom(&c, -1000.0f);
    assert_true(fabsf(c.distance - CAMERA_MAX_DISTANCE) < 1e-3f);
}

/* ---- the demo's physics clock (no GL) ---- */

static void clock_keeps_real_time(void **state)
{
    (void)state;
    frame_clock c;
    frame_clock_init(&c, 0.001);
    frame_clock_measured(&c, 100, 0.001); /* cheap steps: no cap */
    long total = 0;
    for (int i = 0; i < 600; i++) /* ten seconds at 60 Hz */
        total += frame_clock_steps(&c, 1.0 / 60.0);
    assert_true(labs(total - 10000) <= 1);
    frame_clock_change_speed(&c, 1);
    total = 0;
    for (int i = 0; i < 60; i++)
        total += frame_clock_steps(&c, 1.0 / 60.0);
    assert_true(labs(total - 2000) <= 1);
}

static void clock_caps_slow_frames(void **state)
{
    (void)state;
    frame_clock c;
    frame_clock_init(&c, 0.001);
    /* untimed: a 60 Hz frame's worth at most */
    assert_int_equal(frame_clock_steps(&c, 0.2), 17);
    assert_true(c.backlog == 0.0);
    /* 2 ms a step, 20 ms of physics in a 40 ms frame: the 30 ms budget
     * allows 15 steps, and the rest is forgiven */
    frame_clock_measured(&c, 10, 0.020);
    assert_int_equal(frame_clock_steps(&c, 0.040), 15);
    assert_true(c.backlog == 0.0);
    /* a slow renderer (180 ms besides the physics): the physics gets as
     * much, 90 steps, not the whole 200 */
    frame_clock_measured(&c, 10, 0.020);
    assert_int_equal(frame_clock_steps(&c, 0.200), 90);
    assert_true(c.backlog == 0.0);
    /* drawn while the physics steps: 20 ms of physics, then 30 ms of
     * waiting for the renderer in a 55 ms frame; the physics may take the
     * renderer's time less a tenth, 0.9 * 20 + 30 = 48 ms: 24 steps
     * (without the wait the 30 ms budget: 15) */
    frame_clock_measured(&c, 10, 0.020);
    frame_clock_waited(&c, 0.030);
    assert_int_equal(frame_clock_steps(&c, 0.055), 24);
    frame_clock_waited(&c, NAN); /* no wait */
    assert_int_equal(frame_clock_steps(&c, 0.055), 17); /* 55 - 20 = 35 ms, more than 0.9 * 20 */
    frame_clock_measured(&c, 0, 0.0);
    assert_int_equal(frame_clock_steps(&c, 0.005), 5);
    assert_int_equal(frame_clock_steps(&c, NAN), 0);
    assert_int_equal(frame_clock_steps(&c, -1.0), 0);
    for (int i = 0; i < 20; i++)
        frame_clock_change_speed(&c, -1);
    assert_true(c.speed == FRAME_CLOCK_MIN_SPEED);
    for (int i = 0; i < 20; i++)
        frame_clock_change_speed(&c, 1);
    assert_true(c.speed == FRAME_CLOCK_MAX_SPEED);
}

/* ---- palette and HUD text (no GL) ---- */

/* Distance between two colours' chromaticities (brightness left out). */
static float chroma_distance(const float a[3], const float b[3])
{
    float sa = a[0] + a[1] + a[2] + 1e-6f, sb = b[0] + b[1] + b[2] + 1e-6f;
    float dr = a[0] / sa - b[0] / sb, dg = a[1] / sa - b[1] / sb;
    return sqrtf(dr * dr + dg * dg);
}

static void palette_is_bright_and_not_water_coloured(void **state)
{
    (void)state;
    const float water[3] = {0.06f, 0.33f, 0.40f}, sky[3] = {0.20f, 0.43f, 0.78f};
    int seen[PALETTE_SIZE] = {0};
    for (int d = 0; d < PALETTE_SIZE; d++) {
        int i = palette_index(d);
        assert_true(i >= 0 && i < PALETTE_SIZE);
        seen[i]++;
        float c[3];
        palette_colour(i, c);
        assert_true(fmaxf(c[0], fmaxf(c[1], c[2])) >= 0.79f); /* bright */
        assert_true(chroma_distance(c, water) > 0.2f);
        assert_true(chroma_distance(c, sky) > 0.2f);
    }
    for (int i = 0; i < PALETTE_SIZE; i++)
        assert_int_equal(seen[i], 1); /* every run of rings uses every colour once */
}

/* Frames/s and the speed reached keep two significant digits. */
static void two_digits_never_round_to_zero(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(hud_two_digits(0.14, b, sizeof b), "0.14");
    assert_string_equal(hud_two_digits(1.0, b, sizeof b), "1.0");
    assert_string_equal(hud_two_digits(17.7, b, sizeof b), "18");
    assert_string_equal(hud_two_digits(0.0029, b, sizeof b), "0.0029");
    assert_string_equal(hud_two_digits(123.4, b, sizeof b), "123");
    assert_string_equal(hud_two_digits(0.0, b, sizeof b), "0");
}

static void hud_text_reports_state(void **state)
{
    (void)state;
    hud_stats s = {60.0, 950.0, 1.05, 2, 3, 64, 32768, 3.5, 1, 0.5, 0.48, 7, 0, 0, 0, 0, 0.0, 0};
    char buf[HUD_TEXT_MAX];
    hud_format(buf, sizeof buf, &s, 1);
    assert_non_null(strstr(buf, "60 fps"));
    assert_non_null(strstr(buf, "950 steps/s"));
    assert_non_null(strstr(buf, "1.050 ms/step"));
    assert_non_null(strstr(buf, "2 threads"));
    assert_non_null(strstr(buf, "3 substeps"));
    assert_non_null(strstr(buf, "64 rings"));
    assert_non_null(strstr(buf, "32768 vertices"));
    assert_non_null(strstr(buf, "PAUSED"));
    assert_non_null(strstr(buf, "speed 0.5x"));
    assert_non_null(strstr(buf, "follow: ring 7"));
    assert_non_null(strstr(buf, "Esc quit"));
    assert_non_null(strstr(buf, "C free camera"));
    s.follow = RENDER_FOLLOW_CROWD;
    hud_format(buf, sizeof buf, &s, 1);
    assert_non_null(strstr(buf, "follow: crowd"));
    hud_format(buf, sizeof buf, &s, 0);
    assert_null(strstr(buf, "Esc quit"));
    assert_null(strstr(buf, "spray")); /* no spray system: no line */
    s.spray = 1234;
    s.spray_budget = 4096;
    hud_format(buf, sizeof buf, &s, 0);
    assert_non_null(strstr(buf, "spray 1234 / 4096"));
    assert_null(strstr(buf, "render ")); /* no scene size given: no line */
    s.scene_w = 960;
    s.scene_h = 540;
    s.scene_scale = 0.75;
    s.scene_auto = 1;
    hud_format(buf, sizeof buf, &s, 0);
    assert_non_null(strstr(buf, "render 960x540 (75%, auto)"));
    assert_non_null(strstr(buf, "reached 0.48x")); /* paused: not said to be behind */
    assert_null(strstr(buf, "behind"));
    s.paused = 0;
    s.speed = 1.0;
    s.realtime_ratio = 0.0734;
    hud_format(buf, sizeof buf, &s, 0);
    assert_non_null(strstr(buf, "reached 0.073x: the physics is behind"));
    s.realtime_ratio = 0.99;
    hud_format(buf, sizeof buf, &s, 0);
    assert_non_null(strstr(buf, "reached 0.99x)"));
}

/* ---- dynamic resolution: the controller (no GL) ---- */

#define BUDGET (1.0f / 30.0f)

static int on_grid(float scale)
{
    float k = scale / RESOLUTION_STEP;
    return fabsf(k - roundf(k)) < 1e-5f && scale >= RESOLUTION_MIN - 1e-6f &&
           scale <= RESOLUTION_MAX + 1e-6f;
}

static void resolution_lowers_when_slow_and_raises_when_fast(void **state)
{
    (void)state;
    float f[RESOLUTION_WINDOW];
    for (int i = 0; i < RESOLUTION_WINDOW; i++)
        f[i] = 0.052f; /* llvmpipe at 1280 x 720: 19 frames/s */
    float s = resolution_next(f, RESOLUTION_WINDOW, 1.0f, BUDGET);
    /* the pixels that fit: 1 * sqrt(33.3 / 52) = 0.80, down to the step */
    assert_true(fabsf(s - 0.75f) < 1e-6f);
    /* a little over still lowers one step */
    for (int i = 0; i < RESOLUTION_WINDOW; i++)
        f[i] = BUDGET * 1.05f;
    assert_true(fabsf(resolution_next(f, RESOLUTION_WINDOW, 0.75f, BUDGET) - 0.625f) < 1e-6f);
    /* fast: one step up, and never above 1 */
    for (int i = 0; i < RESOLUTION_WINDOW; i++)
        f[i] = 0.010f;
    assert_true(fabsf(resolution_next(f, RESOLUTION_WINDOW, 0.5f, BUDGET) - 0.625f) < 1e-6f);
    assert_true(resolution_next(f, RESOLUTION_WINDOW, 1.0f, BUDGET) == 1.0f);
    /* hopelessly slow: never below the floor */
    for (int i = 0; i < RESOLUTION_WINDOW; i++)
        f[i] = 1.0f;
    assert_true(resolution_next(f, RESOLUTION_WINDOW, 0.5f, BUDGET) == RESOLUTION_MIN);
    assert_true(resolution_next(f, RESOLUTION_WINDOW, 1.0f, BUDGET) == RESOLUTION_MIN);
    /* too few frames to judge: no change */
    assert_true(resolution_next(f, RESOLUTION_WINDOW - 1, 0.75f, BUDGET) == 0.75f);
    /* within the band (under the budget, but the next step's pixels would
     * not fit): no change either way */
    for (int i = 0; i < RESOLUTION_WINDOW; i++)
        f[i] = 0.8f * BUDGET;
    assert_true(resolution_next(f, RESOLUTION_WINDOW, 0.75f, BUDGET) == 0.75f);
    /* the median decides: a few long frames (a screenshot, a reload) do not */
    for (int i = 0; i < RESOLUTION_WINDOW; i++)
        f[i] = i % 4 == 0 ? 0.200f : 0.8f * BUDGET;
    assert_true(resolution_next(f, RESOLUTION_WINDOW, 0.75f, BUDGET) == 0.75f);
    /* a fixed scale is clamped to 0.25 .. 1; 0 takes the controller's */
    resolution_control c;
    resolution_init(&c, RESOLUTION_MAX);
    assert_true(resolution_scale_to_use(0.0f, &c) == 1.0f);
    assert_true(resolution_scale_to_use(0.1f, &c) == RESOLUTION_FIXED_MIN);
    assert_true(resolution_scale_to_use(0.5f, &c) == 0.5f);
    int w, h;
    resolution_size(0.75f, 1280, 720, &w, &h);
    assert_int_equal(w, 960);
    assert_int_equal(h, 540);
    resolution_size(0.625f, 1280, 720, &w, &h);
    assert_int_equal(w * 9, h * 16); /* the steps keep 16:9 */
}

/* A modelled CPU renderer: a fixed part plus pixels (the square of the
 * scale), times noise of +-noise. */
static float modelled_frame(float scale, float fixed_s, float pixels_s, float noise)
{
    return (fixed_s + pixels_s * scale * scale) * (1.0f + noise * (2.0f * (float)test_uniform() - 1.0f));
}

/* Runs the controller on the model for `frames` frames; returns the scale
 * at the end and the changes after the first `settle` frames. */
static float run_model(float start, float fixed_s, float pixels_s, float noise, int frames,
                       int settle, int *late_changes)
{
    resolution_control c;
    resolution_init(&c, start);
    float scale = c.scale;
    *late_changes = 0;
    for (int i = 0; i < frames; i++) {
        float next = resolution_frame(&c, modelled_frame(scale, fixed_s, pixels_s, noise), BUDGET);
        assert_true(on_grid(next));
        if (next != scale && i >= settle)
            (*late_changes)++;
        scale = next;
    }
    return scale;
}

static void resolution_settles_under_noise(void **state)
{
    (void)state;
    test_seed(7);
    int late;
    /* a GPU: 60 Hz frames, the scale stays 1 from the first frame */
    float s = run_model(1.0f, 1.0f / 60.0f, 0.0f, 0.05f, 2000, 0, &late);
    assert_true(s == 1.0f);
    assert_int_equal(late, 0);
    /* llvmpipe at 1280 x 720: 10 ms fixed, 42 ms of pixels at scale 1,
     * +-20% noise: down to the largest step that fits (0.75: 33.6 ms is
     * over; 0.625: 26 ms fits, 0.75's pixels from there would not), and
     * then it stays */
    s = run_model(1.0f, 0.010f, 0.042f, 0.20f, 3000, 300, &late);
    assert_true(fabsf(s - 0.625f) < 1e-6f);
    assert_int_equal(late, 0);
    /* a frame bound by something else (the physics): down to the floor,
     * and no further */
    s = run_model(1.0f, 0.050f, 0.010f, 0.20f, 1000, 200, &late);
    assert_true(s == RESOLUTION_MIN);
    assert_int_equal(late, 0);
    /* a CPU renderer starts at the floor (the demo): with room it rises
     * (here to 0.75, 25 ms a frame, from where 0.875's pixels would take
     * over 90% of the budget), and with none (25.5 ms at the floor) it
     * stays there from the first frame: the start is the floor's */
    s = run_model(RESOLUTION_MIN, 0.0f, 0.045f, 0.10f, 2000, 300, &late);
    assert_true(fabsf(s - 0.75f) < 1e-6f);
    assert_int_equal(late, 0);
    s = run_model(RESOLUTION_MIN, 0.015f, 0.042f, 0.20f, 2000, 0, &late);
    assert_true(s == RESOLUTION_MIN);
    assert_int_equal(late, 0);
    /* the load goes away: the scale comes back up to 1 */
    resolution_control c;
    resolution_init(&c, RESOLUTION_MAX);
    float scale = 1.0f;
    for (int i = 0; i < 200; i++)
        scale = resolution_frame(&c, modelled_frame(scale, 0.010f, 0.080f, 0.1f), BUDGET);
    assert_true(scale < 0.75f);
    for (int i = 0; i < 400; i++)
        scale = resolution_frame(&c, modelled_frame(scale, 0.004f, 0.012f, 0.1f), BUDGET);
    assert_true(scale == 1.0f);
    /* pauses and minimised windows (no frame time) change nothing */
    assert_true(resolution_frame(&c, 0.0f, BUDGET) == 1.0f);
    assert_true(resolution_frame(&c, NAN, BUDGET) == 1.0f);
}

/* ---- pictures (GL under Xvfb) ---- */

/* A simulation of the settings' physics and scene. */
static dinghy_sim *settings_sim(const dinghy_settings *s)
{
    test_params p = {s->sim, s->scene};
    return test_sim(&p);
}

static dinghy_settings fixed_scene(void)
{
    dinghy_settings s = settings_default();
    s.sim.solver.dt = test_sim_def().solver.dt; /* the tests count steps of 1 ms */
    s.scene.index = scene_index("grid");
    s.scene.count = 4;
    s.render.width = W;
    s.render.height = H;
    return s;
}

typedef struct {
    unsigned char *px;
    int w, h;
} image;

static image shoot(const dinghy_settings *s, long steps, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/dinghy_test_render_%d_%s.png", (int)getpid(), name);
    capture_request req = {.screenshot = path, .steps = steps};
    assert_int_equal(capture_run(s, &req), 0);
    image im = {NULL, 0, 0};
    int channels;
    im.px = stbi_load(path, &im.w, &im.h, &channels, 3);
    if (!im.px)
        fail_msg("cannot read back %s", path);
    remove(path);
    return im;
}

/* Mean colour of the 3 x 3 pixels round (x, y), 0..255. */
static void patch(const image *im, float x, float y, float rgb[3])
{
    int cx = (int)x, cy = (int)y, n = 0;
    rgb[0] = rgb[1] = rgb[2] = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int px = cx + dx, py = cy + dy;
            if (px < 0 || py < 0 || px >= im->w || py >= im->h)
                continue;
            for (int k = 0; k < 3; k++)
                rgb[k] += im->px[3 * ((size_t)py * im->w + px) + k];
            n++;
        }
    assert_true(n > 0);
    for (int k = 0; k < 3; k++)
        rgb[k] /= (float)n;
}

static void screenshot_has_the_requested_size(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    s.render.width = 320;
    s.render.height = 200;
    image im = shoot(&s, 10, "size");
    assert_int_equal(im.w, 320);
    assert_int_equal(im.h, 200);
    stbi_image_free(im.px);
}

/* Opens a hidden window and a renderer on a fresh simulation of s, drawn
 * once (to set the viewport) into an offscreen target of W x H. */
typedef struct {
    render_window *win;
    dinghy_sim *sim;
    renderer *r;
} scene_view;

static scene_view open_view(const dinghy_settings *s)
{
    scene_view v = {0};
    char err[1024];
    if (window_open(&v.win, "test", 64, 64, 0, err, sizeof err) != WINDOW_OK)
        fail_msg("window_open: %s (run under xvfb-run)", err);
    v.sim = settings_sim(s);
    v.r = render_create(v.sim, err, sizeof err);
    if (!v.r)
        fail_msg("render_create: %s", err);
    render_draw(v.r, v.sim, W, H, 0.0); /* sets the viewport that render_project uses */
    return v;
}

static void close_view(scene_view *v)
{
    render_destroy(v->r);
    sim_destroy(v->sim);
    window_close(v->win);
}

/* The demo window's path: the scene drawn at half the size and scaled up
 * looks like the scene drawn at full size, and the viewport (for the HUD
 * and the pointer) is the full size again. */
static void scaled_scene_looks_like_the_full_size_one(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    sim_step(v.sim, 200);
    char err[512];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    assert_non_null(o);
    offscreen_bind(o);
    render_draw(v.r, v.sim, W, H, 1.0);
    size_t bytes = (size_t)W * H * 3;
    unsigned char *full = malloc(bytes);
    assert_non_null(full);
    memcpy(full, offscreen_read(o), bytes);
    offscreen_bind(o);
    render_draw_scaled(v.r, v.sim, W, H, W / 2, H / 2, 1.0);
    int vw, vh;
    render_viewport(v.r, &vw, &vh);
    assert_int_equal(vw, W);
    assert_int_equal(vh, H);
    const unsigned char *half = offscreen_read(o);
    double diff = 0.0;
    long big = 0;
    for (size_t i = 0; i < bytes; i++) {
        int d = abs((int)full[i] - (int)half[i]);
        diff += d;
        big += d > 64;
    }
    diff /= (double)bytes;
    /* the same picture, softer at the edges */
    assert_true(diff < 6.0);
    assert_true(big < (long)(bytes / 50));
    /* and it is really the picture, not a blank: not all one colour */
    long varied = 0;
    for (size_t i = 3; i < bytes; i += 3)
        varied += abs((int)half[i] - (int)half[0]) > 20;
    assert_true(varied > (long)(bytes / 3 / 10));
    free(full);
    offscreen_destroy(o);
    close_view(&v);
}

/* --screenshot (and --record, --video) ignore the window's scale: a
 * screenshot asked at 640 x 360 with render.resolution_scale = 0.5 is
 * 640 x 360 and the picture drawn at full size. */
static void screenshot_ignores_the_resolution_scale(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    s.render.width = 640;
    s.render.height = 360;
    image full = shoot(&s, 20, "fullres");
    s.render.resolution_scale = 0.5;
    image half = shoot(&s, 20, "halfres");
    assert_int_equal(half.w, 640);
    assert_int_equal(half.h, 360);
    assert_int_equal(full.w, 640);
    assert_int_equal(full.h, 360);
    size_t bytes = (size_t)640 * 360 * 3;
    double diff = 0.0;
    for (size_t i = 0; i < bytes; i++)
        diff += abs((int)full.px[i] - (int)half.px[i]);
    assert_true(diff / (double)bytes < 1.0);
    stbi_image_free(full.px);
    stbi_image_free(half.px);
}

/* The point of ring p's tube centre line nearest the eye, and its
 * squared distance from the eye. */
static float nearest_centre(dinghy_sim *sim, const float eye[3], int p, float out[3])
{
    int M = sim_segments(sim), N = sim_sides(sim);
    sim_state_view st = sim_state(sim);
    float best_d = 1e30f;
    for (int m = 0; m < M; m++) {
        float c[3] = {0, 0, 0};
        for (int n = 0; n < N; n++) {
            size_t i = ((size_t)p * M + m) * N + n;
            c[0] += st.x[i] / N;
            c[1] += st.y[i] / N;
            c[2] += st.z[i] / N;
        }
        float d = (c[0] - eye[0]) * (c[0] - eye[0]) + (c[1] - eye[1]) * (c[1] - eye[1]) +
                  (c[2] - eye[2]) * (c[2] - eye[2]);
        if (d < best_d) {
            best_d = d;
            memcpy(out, c, sizeof c);
        }
    }
    return best_d;
}

/* Checks that ring p shows its own colour where its centre line comes
 * nearest the eye: near its palette colour in chromaticity, and nearer it
 * than any other ring's colour. */
static void check_ring_colour(const image *im, scene_view *v, int p)
{
    float eye[3], at[3], px, py, got[3], want[3];
    camera_eye(render_camera(v->r), eye);
    nearest_centre(v->sim, eye, p, at);
    assert_int_equal(render_project(v->r, at, &px, &py), 0);
    assert_true(px >= 1 && py >= 1 && px < im->w - 1 && py < im->h - 1);
    patch(im, px, py, got);
    palette_colour(palette_index(p), want);
    float d_want = chroma_distance(got, want);
    print_message("ring %d at (%.0f, %.0f): got %.0f %.0f %.0f, base %.0f %.0f %.0f, "
                  "chroma distance %.3f\n", p, px, py, got[0], got[1], got[2], 255 * want[0],
                  255 * want[1], 255 * want[2], d_want);
    assert_true(d_want < 0.16f);
    for (int q = 0; q < sim_ring_count(v->sim); q++) {
        float other[3];
        palette_colour(palette_index(q), other);
        if (palette_index(q) != palette_index(p))
            assert_true(d_want < chroma_distance(got, other));
    }
}

/* Water: blue-green, darker than the sky. */
static void check_water(const image *im, const renderer *r, const float at[3])
{
    float px, py, c[3];
    assert_int_equal(render_project(r, at, &px, &py), 0);
    assert_true(px >= 1 && py >= 1 && px < im->w - 1 && py < im->h - 1);
    patch(im, px, py, c);
    print_message("water at (%.0f, %.0f): %.0f %.0f %.0f\n", px, py, c[0], c[1], c[2]);
    assert_true(c[2] > c[0] + 40.0f && c[1] > c[0] + 40.0f && c[0] < 130.0f);
}

/* The screenshot as a user takes it (--screenshot, default camera): the
 * front ring in its colour, open water in front of the crowd, sky just
 * above the far horizon. */
static void screenshot_shows_rings_water_and_sky(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* ASan build: the long drop; the same drawing runs in the shorter tests */
    dinghy_settings s = fixed_scene();
    image im = shoot(&s, DROP_STEPS, "scene");
    assert_int_equal(im.w, W);
    assert_int_equal(im.h, H);

    scene_view v = open_view(&s);
    sim_step(v.sim, DROP_STEPS);
    float eye[3], at[3];
    camera_eye(render_camera(v.r), eye);
    int front = 0;
    float front_d = 1e30f;
    for (int p = 0; p < sim_ring_count(v.sim); p++) {
        float d = nearest_centre(v.sim, eye, p, at);
        if (d < front_d) {
            front_d = d;
            front = p;
        }
    }
    check_ring_colour(&im, &v, front);

    orbit_camera *cam = render_camera(v.r);
    float fwd[2] = {cam->target[0] - eye[0], cam->target[1] - eye[1]};
    float len = sqrtf(fwd[0] * fwd[0] + fwd[1] * fwd[1]);
    /* open water between the camera and the crowd: the first point on the
     * way whose distance to every ring's centre exceeds its outer radius */
    const double clear = 1.25 * (s.sim.ring.major_radius + s.sim.ring.minor_radius);
    float wpt[3] = {0.0f, 0.0f, (float)s.sim.world.water.level};
    for (float ahead = 0.35f * cam->distance; ahead < cam->distance; ahead += 0.05f) {
        wpt[0] = cam->target[0] - fwd[0] / len * ahead;
        wpt[1] = cam->target[1] - fwd[1] / len * ahead;
        double nearest = 1e30;
        for (int p = 0; p < sim_ring_count(v.sim); p++) {
            sim_ring_state d = sim_rings(v.sim)[p];
            double dx = d.centre[0] - wpt[0], dy = d.centre[1] - wpt[1];
            if (sqrt(dx * dx + dy * dy) < nearest)
                nearest = sqrt(dx * dx + dy * dy);
        }
        if (nearest > clear)
            break;
    }
    check_water(&im, v.r, wpt);

    float px, py, c[3];
    float spt[3] = {eye[0] + fwd[0] / len * 3000.0f, eye[1] + fwd[1] / len * 3000.0f,
                    eye[2] + 3000.0f * tanf(0.03f)};
    assert_int_equal(render_project(v.r, spt, &px, &py), 0);
    assert_true(px >= 1 && py >= 1 && px < W - 1 && py < H - 1);
    patch(&im, px, py, c);
    print_message("sky at (%.0f, %.0f): %.0f %.0f %.0f\n", px, py, c[0], c[1], c[2]);
    assert_true(c[2] > c[0] + 25.0f && c[2] > 180.0f);
    close_view(&v);
    stbi_image_free(im.px);
}


/* ---- the wave layer (docs/physics.md section 14) ---- */

/* Waves put on the layer by hand, as rings would make them: a drop-in
 * (`splash` m^3 at `drop`, `since` s ago) and, with tow, a ring's worth of
 * displacement (15 l) towed at 1 m/s along x for 8 s up to `tow` (its
 * Kelvin wake). */
static void make_waves(waves_field *w, const double drop[2], double splash, const double *tow,
                       double since)
{
    const double dt = 1.0 / 60.0, volume = 0.015, radius = 0.4;
    double x = tow ? tow[0] - 8.0 : 0.0;
    if (tow)
        waves_add_volume(w, x, tow[1], radius, volume);
    for (int k = 0; k < 480; k++) {
        if (k == 480 - (int)lround(since / dt))
            waves_add_volume(w, drop[0], drop[1], 0.6, splash);
        waves_step(w, dt, 9.81, 0);
        if (!tow)
            continue;
        waves_add_volume(w, x, tow[1], radius, -volume);
        x += dt;
        waves_add_volume(w, x, tow[1], radius, volume);
    }
}

/* Scene `name` (count rings) after `seconds`, the wave layer on and made
 * by make_waves round the camera's target; its picture (W x H RGB) into
 * `picture` and, the layer flattened, into `flat`; the picture written to
 * /tmp as `png`. */
static void waves_picture(const char *name, int count, double seconds, unsigned char *picture,
                          unsigned char *flat, const char *png)
{
    dinghy_settings s = settings_default();
    s.scene.index = scene_index(name);
    s.scene.count = count;
    scene_view v = {0};
    char err[1024];
    if (window_open(&v.win, "test", 64, 64, 0, err, sizeof err) != WINDOW_OK)
        fail_msg("window_open: %s (run under xvfb-run)", err);
    v.sim = settings_sim(&s);
    sim_step(v.sim, lround(seconds / s.sim.solver.dt));
    waves_def wd = waves_def_default();
    if (sim_enable_waves(v.sim, &wd, err, sizeof err) != 0)
        fail_msg("sim_enable_waves: %s", err);
    v.r = render_create(v.sim, err, sizeof err);
    if (!v.r)
        fail_msg("render_create: %s", err);
    render_draw(v.r, v.sim, W, H, sim_time(v.sim)); /* the camera settles on the crowd */
    render_follow(v.r, RENDER_FOLLOW_FREE);
    orbit_camera *cam = render_camera(v.r);
    cam->distance = 14.0f; /* near enough for waves of centimetres */
    cam->pitch = 0.45f;
    const float *t = cam->target;
    /* on the river, where the current carries a wake off, a crowd's drop,
     * upstream of the camera's target: downstream is the first drop's
     * white water, which hides waves */
    const double drop[2] = {t[0] + 1.5, t[1] - 2.5}, tow[2] = {t[0] - 1.0, t[1] + 3.0};
    const double upstream[2] = {t[0] - 5.0, t[1] - 1.0};
    if (sim_river(v.sim))
        make_waves(sim_waves_layer(v.sim), upstream, 0.2, NULL, 1.0);
    else
        make_waves(sim_waves_layer(v.sim), drop, 0.05, tow, 1.5);
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    if (!o)
        fail_msg("offscreen_create: %s", err);
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            waves_reset(sim_waves_layer(v.sim));
        offscreen_bind(o);
        render_draw(v.r, v.sim, W, H, sim_time(v.sim));
        memcpy(pass ? flat : picture, offscreen_read(o), (size_t)W * H * 3);
    }
    char path[256];
    snprintf(path, sizeof path, "/tmp/dinghy_test_render_%d_%s.png", (int)getpid(), png);
    if (png_write_rgb(path, picture, W, H, err, sizeof err) == 0)
        print_message("wrote %s\n", path);
    offscreen_destroy(o);
    close_view(&v);
}

/* Pixels of a and b (W x H RGB) whose colours differ by more than 4 of
 * 255 in any channel, as a fraction of all (llvmpipe draws the same state
 * the same to the bit: any difference is the waves'). */
static double changed(const unsigned char *a, const unsigned char *b)
{
    long n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        int d = 0;
        for (int k = 0; k < 3; k++) {
            const int e = abs((int)a[3 * i + k] - (int)b[3 * i + k]);
            d = e > d ? e : d;
        }
        n += d > 4;
    }
    return (double)n / ((double)W * H);
}

/* The water drawn follows the wave layer (read through dinghy/waves.h):
 * with a drop-in's rings of waves and a towed ring's wake on it, a good
 * share of the picture differs from the same state with the layer flat
 * (the rings are drawn the same: only the water can differ), on still
 * water and on the river. */
static void the_water_drawn_follows_the_waves(void **state)
{
    (void)state;
    unsigned char *a = malloc((size_t)W * H * 3), *b = malloc((size_t)W * H * 3);
    assert_non_null(a);
    assert_non_null(b);
    waves_picture("grid", 4, test_quick() ? 0.2 : 1.5, a, b, "waves_still");
    const double still = changed(a, b);
    waves_picture("rapids", 8, 0.2, a, b, "waves_river");
    const double river = changed(a, b);
    print_message("the waves change %.1f%% of the still-water picture, %.1f%% of the river's\n",
                  100.0 * still, 100.0 * river);
    assert_true(still > 0.01);
    assert_true(river > 0.005);
    free(a);
    free(b);
}

/* The rings of v after they land, drawn from above (from `distance` m,
 * or the framing camera's when 0) into a new offscreen target of W x H. */
static offscreen *draw_from_above(scene_view *v, float distance)
{
    sim_step(v->sim, DROP_STEPS);
    orbit_camera *cam = render_camera(v->r);
    cam->pitch = 1.45f;
    if (distance > 0.0f)
        cam->distance = distance;
    char err[512];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    if (!o)
        fail_msg("offscreen_create: %s", err);
    offscreen_bind(o);
    render_draw(v->r, v->sim, W, H, sim_time(v->sim));
    return o;
}

/* Seen from above, where no ring hides another: every ring in its own
 * colour where it is, and water between them. */
static void every_ring_shows_its_colour_from_above(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* ASan build: the long drop; the same drawing runs in the shorter tests */
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    offscreen *o = draw_from_above(&v, 0.0f);
    image im = {(unsigned char *)offscreen_read(o), W, H};
    for (int p = 0; p < sim_ring_count(v.sim); p++)
        check_ring_colour(&im, &v, p);
    /* the grid's centre, between the four rings */
    float mid[3] = {0.0f, 0.0f, (float)s.sim.world.water.level};
    check_water(&im, v.r, mid);
    offscreen_destroy(o);
    close_view(&v);
}

/* Spray droplets show as bright, white-ish water over the scene where
 * they are, and nothing of them is left once detached. */
static void spray_shows_as_white_droplets(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    char err[512];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    if (!o)
        fail_msg("offscreen_create: %s", err);
    spray_def sd = spray_def_default();
    sd.size = 0.25; /* many pixels across at this distance */
    spray_system *sp = spray_create(&sd, 3);
    assert_non_null(sp);
    /* halfway from the eye to what it looks at: in front of everything */
    float *t = render_camera(v.r)->target, eye[3];
    camera_eye(render_camera(v.r), eye);
    const double at[3] = {0.5 * (eye[0] + t[0]), 0.5 * (eye[1] + t[1]), 0.5 * (eye[2] + t[2])};
    const double still[3] = {0.0, 0.0, 0.0};
    spray_emit(sp, at, still, 1);
    float where[3] = {(float)at[0], (float)at[1], (float)at[2]}, px, py, before[3], with[3], after[3];
    assert_int_equal(render_project(v.r, where, &px, &py), 0);
    offscreen_bind(o);
    render_draw(v.r, v.sim, W, H, 0.0);
    image im = {(unsigned char *)offscreen_read(o), W, H};
    patch(&im, px, py, before);
    render_attach_spray(v.r, sp);
    render_draw(v.r, v.sim, W, H, 0.0);
    im.px = (unsigned char *)offscreen_read(o);
    patch(&im, px, py, with);
    render_attach_spray(v.r, NULL);
    render_draw(v.r, v.sim, W, H, 0.0);
    im.px = (unsigned char *)offscreen_read(o);
    patch(&im, px, py, after);
    print_message("droplet at (%.0f, %.0f): (%.0f %.0f %.0f) without, (%.0f %.0f %.0f) with\n", px,
                  py, before[0], before[1], before[2], with[0], with[1], with[2]);
    for (int k = 0; k < 3; k++) {
        assert_true(with[k] > 170.0f);
        assert_true(fabsf(after[k] - before[k]) < 1.0f);
    }
    assert_true(with[0] + with[1] + with[2] > before[0] + before[1] + before[2] + 60.0f);
    spray_destroy(sp);
    offscreen_destroy(o);
    close_view(&v);
}

static void screenshot_changes_as_the_rings_fall(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* ASan build: the long drop; the same drawing runs in the shorter tests */
    dinghy_settings s = fixed_scene();
    image before = shoot(&s, 0, "before");
    image after = shoot(&s, DROP_STEPS, "after");
    assert_int_equal(before.w, after.w);
    assert_int_equal(before.h, after.h);
    size_t n = (size_t)W * H, changed = 0;
    for (size_t i = 0; i < n; i++) {
        int most = 0;
        for (int k = 0; k < 3; k++) {
            int d = abs((int)before.px[3 * i + k] - (int)after.px[3 * i + k]);
            if (d > most)
                most = d;
        }
        changed += most > 40;
    }
    print_message("%.1f%% of pixels changed by more than 40/255\n", 100.0 * changed / n);
    assert_true(changed > n / 50); /* over 2% of the picture */
    stbi_image_free(before.px);
    stbi_image_free(after.px);
}

static void broken_shader_reports_the_driver_log(void **state)
{
    (void)state;
    render_window *win = NULL;
    char err[1024];
    if (window_open(&win, "test", 64, 64, 0, err, sizeof err) != WINDOW_OK)
        fail_msg("window_open: %s (run under xvfb-run)", err);
    const char *vs = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
    const char *bad = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(undeclared_thing); }\n";
    err[0] = '\0';
    assert_int_equal(shader_program("broken", vs, bad, err, sizeof err), 0);
    print_message("(expected) %s\n", err);
    assert_non_null(strstr(err, "the broken fragment shader does not compile: "));
    assert_non_null(strstr(err, "undeclared_thing"));
    assert_null(strchr(err, '\n'));
    window_close(win);
}

/* A frame as the demo draws it (step, spray, scene, HUD, follow, offscreen
 * read-back) makes no allocation in the project's code: on still water and
 * on the river (water sampled, crowd camera, sound level). */
static void frames_allocate_nothing_in(dinghy_settings s)
{
    scene_view v = open_view(&s);
    char err[512], text[HUD_TEXT_MAX];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    if (!o)
        fail_msg("offscreen_create: %s", err);
    hud_stats hs = {60.0, 950.0, 1.05, 2, 1, 4, 2048, 3.5, 0, 1.0, 0.98, 1, 0, 4096, 0, 0, 0.0, 0};
    spray_def sd = spray_def_default();
    spray_system *sp = spray_create(&sd, 7);
    assert_non_null(sp);
    render_attach_spray(v.r, sp);
    long before = allocations;
    double level = 0.0;
    for (int frame = 0; frame < 6; frame++) {
        render_follow(v.r, frame < 3 ? 1 : render_default_follow(v.r));
        sim_step(v.sim, 10);
        const double from[3] = {0.0, 0.0, 2.0}, up[3] = {0.5, 0.0, 3.0};
        spray_emit(sp, from, up, 100);
        spray_step(sp, v.sim, 10 * sim_get_def(v.sim)->solver.dt, 2);
        hs.spray = (long)spray_count(sp);
        offscreen_bind(o);
        render_draw(v.r, v.sim, W, H, frame / 60.0);
        audio_scene sc = audio_scene_of(v.sim);
        double at[3] = {render_camera(v.r)->target[0], render_camera(v.r)->target[1], 0.0};
        level += audio_water_level(v.sim, at, &sc);
        hud_format(text, sizeof text, &hs, frame % 2);
        render_hud(v.r, text, 2.0f);
        offscreen_read(o);
    }
    print_message("%ld allocations in 6 frames (%s)\n", allocations - before,
                  sim_river(v.sim) ? "river" : "still water");
    assert_int_equal(allocations - before, 0);
    assert_true(allocations > 0); /* the counter does count: creation allocated */
    assert_true(level > 0.0);
    assert_true(spray_count(sp) > 0); /* droplets were drawn */
    render_attach_spray(v.r, NULL);
    spray_destroy(sp);
    offscreen_destroy(o);
    close_view(&v);
}

/* A ring far away is drawn with a quarter of its triangles and still shows
 * its colour; close up, every ring is drawn whole. */
static void far_rings_are_drawn_coarse(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    offscreen *o = draw_from_above(&v, 12.0f); /* each ring about 60 pixels across */
    orbit_camera *cam = render_camera(v.r);
    print_message("from %.1f m: %d of %d rings coarse\n", cam->distance,
                  render_coarse_rings(v.r), sim_ring_count(v.sim));
    assert_int_equal(render_coarse_rings(v.r), sim_ring_count(v.sim));
    image im = {(unsigned char *)offscreen_read(o), W, H};
    for (int p = 0; p < sim_ring_count(v.sim); p++)
        check_ring_colour(&im, &v, p);
    cam->distance = 2.0f; /* close up: the rings fill the picture */
    render_draw(v.r, v.sim, W, H, sim_time(v.sim));
    assert_int_equal(render_coarse_rings(v.r), 0);
    offscreen_destroy(o);
    close_view(&v);
    /* a crowd seen from close above one ring at its edge: that ring and
     * its neighbours whole, the far side coarse (whatever the water) */
    for (int river = 0; river < 2; river++) {
        s = fixed_scene();
        s.scene.count = 16;
        if (river)
            s.scene.index = scene_index("rapids");
        v = open_view(&s);
        const sim_ring_state *ring = sim_rings(v.sim);
        cam = render_camera(v.r);
        for (int k = 0; k < 3; k++)
            cam->target[k] = (float)ring[0].centre[k];
        cam->distance = 3.0f;
        render_follow(v.r, RENDER_FOLLOW_FREE);
        render_draw(v.r, v.sim, W, H, 0.0);
        int coarse = render_coarse_rings(v.r);
        print_message("%s: from 3 m above ring 0, %d of %d rings coarse\n",
                      river ? "rapids" : "grid", coarse, sim_ring_count(v.sim));
        assert_true(coarse > 0 && coarse < sim_ring_count(v.sim));
        close_view(&v);
    }
}

static void frames_allocate_nothing(void **state)
{
    (void)state;
    frames_allocate_nothing_in(fixed_scene());
    dinghy_settings s = fixed_scene();
    s.scene.index = scene_index("rapids");
    s.scene.count = 16;
    frames_allocate_nothing_in(s);
}

static void render_project_matches_the_camera(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    int w, h;
    render_viewport(v.r, &w, &h);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    float px, py;
    assert_int_equal(render_project(v.r, render_camera(v.r)->target, &px, &py), 0);
    assert_true(fabsf(px - W / 2.0f) < 0.5f && fabsf(py - H / 2.0f) < 0.5f);
    render_follow(v.r, 2);
    assert_int_equal(render_following(v.r), 2);
    render_follow(v.r, 99); /* out of range: stops following */
    assert_int_equal(render_following(v.r), -1);
    close_view(&v);
}

/* ---- the river ---- */

static dinghy_settings river_scene(void)
{
    dinghy_settings s = settings_default();
    s.sim.solver.dt = test_sim_def().solver.dt; /* the tests count steps of 1 ms */
    s.scene.index = scene_index("rapids");
    s.render.width = W;
    s.render.height = H;
    return s;
}

/* Grey stone: little colour, mid brightness, not water-blue. */
static int rock_like(const float c[3])
{
    float hi = fmaxf(c[0], fmaxf(c[1], c[2])), lo = fminf(c[0], fminf(c[1], c[2]));
    float mean = (c[0] + c[1] + c[2]) / 3.0f;
    return hi - lo < 45.0f && mean > 60.0f && mean < 215.0f && c[2] - c[0] < 30.0f;
}

/* Foam: bright and nearly colourless. */
static int white_like(const float c[3])
{
    float hi = fmaxf(c[0], fmaxf(c[1], c[2])), lo = fminf(c[0], fminf(c[1], c[2]));
    return lo > 150.0f && hi - lo < 70.0f;
}

/* Horizontal distance from (x, y) to the nearest ring centre, m. */
static double nearest_ring(dinghy_sim *sim, double x, double y)
{
    double best = 1e30;
    for (int p = 0; p < sim_ring_count(sim); p++) {
        const double *c = sim_rings(sim)[p].centre;
        best = fmin(best, hypot(c[0] - x, c[1] - y));
    }
    return best;
}

/* 1 when some ring may cover pixel (px, py) of the view: its projected
 * centre lies within its outer radius (in pixels at its depth) plus a
 * margin. */
static int ring_covers(scene_view *v, float px, float py, double reach)
{
    const orbit_camera *cam = render_camera(v->r);
    float eye[3];
    camera_eye(cam, eye);
    float focal = 0.5f * H / tanf(0.5f * cam->fovy);
    for (int p = 0; p < sim_ring_count(v->sim); p++) {
        const double *c = sim_rings(v->sim)[p].centre;
        float at[3] = {(float)c[0], (float)c[1], (float)c[2]}, cx, cy;
        if (render_project(v->r, at, &cx, &cy) != 0)
            continue;
        float depth = sqrtf((at[0] - eye[0]) * (at[0] - eye[0]) + (at[1] - eye[1]) * (at[1] - eye[1]) +
                            (at[2] - eye[2]) * (at[2] - eye[2]));
        float radius = (float)reach * focal / depth + 3.0f;
        if ((cx - px) * (cx - px) + (cy - py) * (cy - py) < radius * radius)
            return 1;
    }
    return 0;
}

/* Projects a world point into the picture (a pixel away from the edges);
 * 0 when it is there. */
static int in_picture(const renderer *r, const image *im, const double p[3], float *px, float *py)
{
    float at[3] = {(float)p[0], (float)p[1], (float)p[2]};
    return render_project(r, at, px, py) == 0 && *px >= 2 && *py >= 2 && *px < im->w - 2 &&
           *py < im->h - 2 ? 0 : -1;
}

/* Wood: brown, red over green over blue. */
static int wood_like(const float c[3])
{
    return c[0] > c[1] + 10.0f && c[1] > c[2] + 10.0f && c[0] - c[2] > 50.0f;
}

/* The pen of pile stands drawn where the physics has its walls: the outer
 * face of each wall the camera sees shows wood, just over the water. */
static void the_pen_of_pile_is_drawn(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    s.scene.index = scene_index("pile");
    scene_view v = open_view(&s);
    double hx, hy;
    assert_true(sim_pen(v.sim, &hx, &hy));
    char err[512];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    assert_non_null(o);
    offscreen_bind(o);
    render_draw(v.r, v.sim, W, H, 0.0);
    image im = {(unsigned char *)offscreen_read(o), W, H};
    double z = s.sim.world.water.level + 0.5 * s.sim.ring.minor_radius; /* over the water */
    const double face[4][3] = {{-hx - 0.09, 0.0, z}, {hx + 0.09, 0.0, z},
                               {0.0, -hy - 0.09, z}, {0.0, hy + 0.09, z}};
    int seen = 0, wood = 0;
    for (int k = 0; k < 4; k++) {
        float px, py, got[3];
        if (in_picture(v.r, &im, face[k], &px, &py) != 0)
            continue;
        patch(&im, px, py, got);
        seen++;
        wood += wood_like(got);
        print_message("pen wall %d at (%.0f, %.0f): %.0f %.0f %.0f\n", k, px, py, got[0], got[1], got[2]);
    }
    assert_true(seen >= 2); /* the camera frames the pen from outside it */
    assert_true(wood >= 1); /* the near walls' outer faces; the far ones are behind */
    offscreen_destroy(o);
    close_view(&v);
}

/* The screenshot of rapids as a user takes it (--screenshot, default
 * camera following the crowd): rocks in stone grey where they stand,
 * white water at the drops and round the rocks, and rings in their
 * colours spread along a bend of the course. */
static void rapids_screenshot_shows_rocks_white_water_and_rings(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* ASan build: the long drop; the same drawing runs in the shorter tests */
    dinghy_settings s = river_scene();
    image im = shoot(&s, DROP_STEPS, "rapids");
    scene_view v = open_view(&s);
    assert_int_equal(render_following(v.r), RENDER_FOLLOW_CROWD);
    sim_step(v.sim, DROP_STEPS);
    render_draw(v.r, v.sim, W, H, sim_time(v.sim)); /* the camera as the screenshot had it */
    const river_world *w = sim_river(v.sim);
    assert_non_null(w);
    const river_course *c = river_course_view(w);
    const double reach = s.sim.ring.major_radius + s.sim.ring.minor_radius;
    float px, py, got[3];

    /* rocks: the top of each one in view with no ring near it */
    int rocks_in_view = 0, rocks_grey = 0;
    for (int k = 0; k < c->rock_count; k++) {
        const double *r = &c->rock[4 * k];
        double top[3] = {r[0], r[1], r[2] + 0.55 * r[3]};
        if (in_picture(v.r, &im, top, &px, &py) != 0 || ring_covers(&v, px, py, reach))
            continue;
        rocks_in_view++;
        patch(&im, px, py, got);
        rocks_grey += rock_like(got);
        print_message("rock %d at (%.0f, %.0f): %.0f %.0f %.0f%s\n", k, px, py, got[0], got[1], got[2],
                      rock_like(got) ? "" : " (not stone)");
    }
    /* far rocks fade into the haze and spray can wash over one: most, not
     * all. The camera frames the crowd, which with skin contact and the
     * membrane is at a bend with one rock clear of rings at 1.5 s (two with
     * the centre-line repulsion), so one is asked for. */
    assert_true(rocks_in_view >= 1);
    assert_true(rocks_grey >= 1 && rocks_grey * 2 >= rocks_in_view);
    (void)nearest_ring;

    /* white water: across the channel just below each drop in view, where
     * no ring is */
    int water_points = 0, white = 0;
    for (int k = 0; k < c->drop_count; k++)
        for (int q = 0; q < 3 * 17; q++) {
            double xy[2];
            river_point(w, c->drop_s[k] + 0.8 * (1 + q / 17), -4.0 + 0.5 * (q % 17), xy);
            dinghy_water_point wp;
            sim_water_at(v.sim, xy[0], xy[1], 0.0, &wp);
            double p[3] = {xy[0], xy[1], wp.height};
            if (in_picture(v.r, &im, p, &px, &py) != 0 || ring_covers(&v, px, py, reach))
                continue;
            patch(&im, px, py, got);
            water_points++;
            white += white_like(got);
        }
    /* and plain water in the calm lead-in */
    int calm_points = 0, calm_white = 0;
    for (int q = 0; q < 20 * 7; q++) {
        double xy[2];
        river_point(w, 4.0 + q / 7, -3.0 + q % 7, xy);
        dinghy_water_point wp;
        sim_water_at(v.sim, xy[0], xy[1], 0.0, &wp);
        double p[3] = {xy[0], xy[1], wp.height};
        if (in_picture(v.r, &im, p, &px, &py) != 0 || ring_covers(&v, px, py, reach))
            continue;
        patch(&im, px, py, got);
        calm_points++;
        calm_white += white_like(got);
    }
    print_message("white water below the drops: %d of %d points; in the calm lead-in %d of %d\n",
                  white, water_points, calm_white, calm_points);
    assert_true(water_points >= 6);
    assert_true(white * 4 >= water_points);
    assert_true(calm_points >= 6 && calm_white * 10 <= calm_points);

    /* rings: their own colour where their centre line is nearest the eye,
     * over a stretch of the course that turns */
    float eye[3];
    camera_eye(render_camera(v.r), eye);
    int rings_seen = 0;
    double s_min = 1e30, s_max = -1e30, head_min = 1e30, head_max = -1e30;
    for (int p = 0; p < sim_ring_count(v.sim); p++) {
        float at[3], want[3];
        nearest_centre(v.sim, eye, p, at);
        if (render_project(v.r, at, &px, &py) != 0 || px < 1 || py < 1 || px >= W - 1 || py >= H - 1)
            continue;
        patch(&im, px, py, got);
        palette_colour(palette_index(p), want);
        float d_want = chroma_distance(got, want);
        int best = 1;
        for (int q = 0; q < sim_ring_count(v.sim); q++) {
            float other[3];
            palette_colour(palette_index(q), other);
            if (palette_index(q) != palette_index(p) && chroma_distance(got, other) <= d_want)
                best = 0;
        }
        if (d_want < 0.16f && best) {
            double rs, rn;
            river_station(w, sim_rings(v.sim)[p].centre[0], sim_rings(v.sim)[p].centre[1], &rs, &rn);
            s_min = fmin(s_min, rs);
            s_max = fmax(s_max, rs);
            double a[2], b[2]; /* the course's heading there */
            river_point(w, rs - 0.5, 0.0, a);
            river_point(w, rs + 0.5, 0.0, b);
            double head = atan2(b[1] - a[1], b[0] - a[0]);
            head_min = fmin(head_min, head);
            head_max = fmax(head_max, head);
            rings_seen++;
        }
    }
    double turn = head_max - head_min;
    print_message("%d rings in their colours, from s = %.1f to %.1f m along the course, whose "
                  "heading there spans %.0f degrees\n", rings_seen, s_min, s_max, turn * 57.2958);
    assert_true(rings_seen >= 10);
    assert_true(s_max - s_min > 20.0);
    assert_true(turn > 0.35); /* 20 degrees: a bend */
    close_view(&v);
    stbi_image_free(im.px);
}

/* Still water keeps its look and its free camera; the river follows the
 * crowd, and F's cycle ends there. */
static void the_camera_follows_the_crowd_only_on_the_river(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    assert_int_equal(render_following(v.r), RENDER_FOLLOW_FREE);
    assert_int_equal(render_default_follow(v.r), RENDER_FOLLOW_FREE);
    close_view(&v);
    s = river_scene();
    s.scene.count = 16;
    v = open_view(&s);
    assert_int_equal(render_following(v.r), RENDER_FOLLOW_CROWD);
    assert_int_equal(render_default_follow(v.r), RENDER_FOLLOW_CROWD);
    render_follow(v.r, 3);
    assert_int_equal(render_following(v.r), 3);
    render_follow(v.r, RENDER_FOLLOW_FREE);
    assert_int_equal(render_following(v.r), RENDER_FOLLOW_FREE);
    orbit_camera before = *render_camera(v.r);
    sim_step(v.sim, 200);
    render_draw(v.r, v.sim, W, H, sim_time(v.sim));
    assert_memory_equal(render_camera(v.r), &before, sizeof before); /* free: stays put */
    render_follow(v.r, RENDER_FOLLOW_CROWD);
    assert_int_equal(render_following(v.r), RENDER_FOLLOW_CROWD);
    close_view(&v);
}

/* The crowd camera (no GL): rides downstream at the rings' pace, turns
 * with the course, and cuts back upstream near the end. */
static void crowd_camera_rides_downstream(void **state)
{
    (void)state;
    if (test_quick())
        skip(); /* ASan build: 24 rings for 2 s; the camera runs in the_camera_follows_... */
    dinghy_settings s = river_scene();
    s.scene.count = 24;
    dinghy_sim *sim = settings_sim(&s);
    course_map map;
    course_map_init(&map, sim_river(sim));
    orbit_camera cam = test_camera();
    crowd_camera cc;
    crowd_camera_start(&cc, &map, sim, &cam, 0);
    double s0 = cc.s, yaw0 = cam.yaw, t0 = sim_time(sim);
    for (int frame = 0; frame < 60; frame++) { /* 2 s at 30 frames a second */
        sim_step(sim, 33);
        crowd_camera_update(&cc, sim, &cam);
    }
    double pace = (cc.s - s0) / (sim_time(sim) - t0), speed = river_course_view(sim_river(sim))->speed;
    print_message("the target rode %.2f m in %.2f s (%.2f m/s; river %.2f m/s), yaw %.2f -> %.2f\n",
                  cc.s - s0, sim_time(sim) - t0, pace, speed, yaw0, cam.yaw);
    assert_true(pace > 0.4 * speed && pace < 1.6 * speed);
    /* the target is on the course at the water */
    double st, n;
    assert_true(river_station(map.w, cam.target[0], cam.target[1], &st, &n));
    assert_true(fabs(st - cc.s) < 0.5 && fabs(n) < 6.0);
    /* near the end it cuts back upstream */
    cc.s = map.c->length - CROWD_END_MARGIN + 0.2;
    sim_step(sim, 33);
    crowd_camera_update(&cc, sim, &cam);
    assert_true(cc.s < 20.0);
    sim_destroy(sim);
}

/* The water mesh asks the water function a few thousand times a frame,
 * not at every vertex every frame, and gets white water where the course
 * says: at the drops and behind the rocks, not in a calm straight reach. */
static void river_water_keeps_to_its_budget(void **state)
{
    (void)state;
    render_window *win = NULL;
    char err[1024];
    if (window_open(&win, "test", 64, 64, 0, err, sizeof err) != WINDOW_OK)
        fail_msg("window_open: %s (run under xvfb-run)", err);
    dinghy_settings s = river_scene();
    s.scene.count = 4;
    dinghy_sim *sim = settings_sim(&s);
    course_map map;
    course_map_init(&map, sim_river(sim));
    river_water *rw = river_water_create(&map, sim, err, sizeof err);
    if (!rw)
        fail_msg("river_water_create: %s", err);
    int first = river_water_samples(rw);
    river_water_update(rw, sim, 40.0);
    int frame = river_water_samples(rw);
    print_message("water samples: %d at creation, %d a frame\n", first, frame);
    assert_true(frame > 1000 && frame <= 5000 && frame < first);
    const river_course *c = map.c;
    double xy[2];
    assert_true(c->drop_count > 0 && c->rock_count > 0);
    river_point(map.w, c->drop_s[0] + 1.6, 0.0, xy);
    float at_drop = river_water_white_at(rw, xy[0], xy[1]);
    double rs, rn;
    river_station(map.w, c->rock[0], c->rock[1], &rs, &rn);
    river_point(map.w, rs + c->rock[3] + 0.8, rn, xy);
    float behind_rock = river_water_white_at(rw, xy[0], xy[1]);
    river_point(map.w, 8.0, 0.0, xy);
    float calm = river_water_white_at(rw, xy[0], xy[1]);
    print_message("white water: %.2f below the first drop, %.2f behind a rock, %.2f in the lead-in\n",
                  at_drop, behind_rock, calm);
    assert_true(at_drop > 0.5f && behind_rock > 0.5f && calm >= 0.0f && calm < 0.2f);
    river_water_destroy(rw);
    sim_destroy(sim);
    window_close(win);
}

/* The water loop: louder at a drop than in a calm reach, calm on the bank
 * (no flow there); on still water it follows the rings as before. */
static void water_sound_follows_the_river(void **state)
{
    (void)state;
    dinghy_settings s = river_scene();
    s.scene.count = 4;
    dinghy_sim *sim = settings_sim(&s);
    const river_world *w = sim_river(sim);
    const river_course *c = river_course_view(w);
    audio_scene sc = audio_scene_of(sim);
    double xy[2];
    river_point(w, c->drop_s[0], 0.0, xy);
    double drop[3] = {xy[0], xy[1], 0.0};
    river_point(w, 8.0, 0.0, xy);
    double calm[3] = {xy[0], xy[1], 0.0};
    river_point(w, 8.0, 0.5 * c->width[0] + 8.0, xy);
    double bank[3] = {xy[0], xy[1], 0.0};
    double l_drop = audio_water_level(sim, drop, &sc), l_calm = audio_water_level(sim, calm, &sc);
    double l_bank = audio_water_level(sim, bank, &sc);
    print_message("water loop: %.2f at a drop, %.2f in the lead-in, %.2f on the bank\n", l_drop, l_calm, l_bank);
    assert_true(l_drop > l_calm + 0.05 && l_calm > l_bank + 0.2);
    assert_true(audio_water_rush(sim, NULL) > 0.0); /* at the crowd's middle */
    sim_destroy(sim);
    dinghy_settings still = fixed_scene();
    sim = settings_sim(&still);
    sim_step(sim, 50);
    sc = audio_scene_of(sim);
    assert_true(audio_water_level(sim, calm, &sc) == audio_ambience_level(0.0, sc.mean_speed));
    assert_true(audio_water_rush(sim, calm) == 0.0);
    sim_destroy(sim);
}

/* Rocks are stone-coloured, not a ring's colour and not water's. */
static void rock_colour_is_stone(void **state)
{
    (void)state;
    float rock[3], c255[3];
    rocks_colour(rock);
    for (int k = 0; k < 3; k++)
        c255[k] = 255.0f * rock[k];
    assert_true(rock_like(c255));
    for (int i = 0; i < PALETTE_SIZE; i++) {
        float p[3];
        palette_colour(i, p);
        assert_true(chroma_distance(rock, p) > 0.1f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(camera_projects_target_to_centre),
        cmocka_unit_test(camera_pan_follows_the_cursor),
        cmocka_unit_test(camera_orbit_and_zoom_stay_in_limits),
        cmocka_unit_test(clock_keeps_real_time),
        cmocka_unit_test(clock_caps_slow_frames),
        cmocka_unit_test(palette_is_bright_and_not_water_coloured),
        cmocka_unit_test(two_digits_never_round_to_zero),
        cmocka_unit_test(the_pen_of_pile_is_drawn),
        cmocka_unit_test(hud_text_reports_state),
        cmocka_unit_test(resolution_lowers_when_slow_and_raises_when_fast),
        cmocka_unit_test(resolution_settles_under_noise),
        cmocka_unit_test(scaled_scene_looks_like_the_full_size_one),
        cmocka_unit_test(screenshot_ignores_the_resolution_scale),
        cmocka_unit_test(screenshot_has_the_requested_size),
        cmocka_unit_test(screenshot_shows_rings_water_and_sky),
        cmocka_unit_test(every_ring_shows_its_colour_from_above),
        cmocka_unit_test(far_rings_are_drawn_coarse),
        cmocka_unit_test(screenshot_changes_as_the_rings_fall),
        cmocka_unit_test(spray_shows_as_white_droplets),
        cmocka_unit_test(broken_shader_reports_the_driver_log),
        cmocka_unit_test(render_project_matches_the_camera),
        cmocka_unit_test(frames_allocate_nothing),
        cmocka_unit_test(rock_colour_is_stone),
        cmocka_unit_test(rapids_screenshot_shows_rocks_white_water_and_rings),
        cmocka_unit_test(the_camera_follows_the_crowd_only_on_the_river),
        cmocka_unit_test(crowd_camera_rides_downstream),
        cmocka_unit_test(river_water_keeps_to_its_budget),
        cmocka_unit_test(water_sound_follows_the_river),
        cmocka_unit_test(the_water_drawn_follows_the_waves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
