/* The renderer: camera math, the demo's physics clock, the HUD text, and
 * real pictures rendered offscreen (needs an X display: `make test-render`
 * runs this under Xvfb with Mesa's llvmpipe). Pixels are checked with
 * tolerances, never byte for byte. */
#include "support.h"

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

#include "../app/capture.h"
#include "../app/frame_clock.h"
#include "../render/camera.h"
#include "../render/hud.h"
#include "../render/offscreen.h"
#include "../render/palette.h"
#include "../render/render.h"
#include "../render/shader.h"
#include "../render/window.h"

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
        assert_int_equal(seen[i], 1); /* every run of dinghies uses every colour once */
}

static void hud_text_reports_state(void **state)
{
    (void)state;
    hud_stats s = {60.0, 950.0, 1.05, 2, 64, 32768, 3.5, 1, 0.5, 0.48, 7};
    char buf[HUD_TEXT_MAX];
    hud_format(buf, sizeof buf, &s, 1);
    assert_non_null(strstr(buf, "60 fps"));
    assert_non_null(strstr(buf, "950 steps/s"));
    assert_non_null(strstr(buf, "1.050 ms/step"));
    assert_non_null(strstr(buf, "2 threads"));
    assert_non_null(strstr(buf, "64 dinghies"));
    assert_non_null(strstr(buf, "32768 vertices"));
    assert_non_null(strstr(buf, "PAUSED"));
    assert_non_null(strstr(buf, "speed 0.5x"));
    assert_non_null(strstr(buf, "follow: dinghy 7"));
    assert_non_null(strstr(buf, "Esc quit"));
    hud_format(buf, sizeof buf, &s, 0);
    assert_null(strstr(buf, "Esc quit"));
}

/* ---- pictures (GL under Xvfb) ---- */

static dinghy_settings fixed_scene(void)
{
    dinghy_settings s = settings_default();
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
    capture_request req = {path, NULL, NULL, 0, steps};
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
    v.sim = test_sim(&s->sim);
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

/* The point of dinghy p's tube centre line nearest the eye, and its
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

/* Checks that dinghy p shows its own colour where its centre line comes
 * nearest the eye: near its palette colour in chromaticity, and nearer it
 * than any other dinghy's colour. */
static void check_dinghy_colour(const image *im, scene_view *v, int p)
{
    float eye[3], at[3], px, py, got[3], want[3];
    camera_eye(render_camera(v->r), eye);
    nearest_centre(v->sim, eye, p, at);
    assert_int_equal(render_project(v->r, at, &px, &py), 0);
    assert_true(px >= 1 && py >= 1 && px < im->w - 1 && py < im->h - 1);
    patch(im, px, py, got);
    palette_colour(palette_index(p), want);
    float d_want = chroma_distance(got, want);
    print_message("dinghy %d at (%.0f, %.0f): got %.0f %.0f %.0f, base %.0f %.0f %.0f, "
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
 * front dinghy in its colour, open water in front of the crowd, sky just
 * above the far horizon. */
static void screenshot_shows_dinghies_water_and_sky(void **state)
{
    (void)state;
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
    check_dinghy_colour(&im, &v, front);

    orbit_camera *cam = render_camera(v.r);
    float fwd[2] = {cam->target[0] - eye[0], cam->target[1] - eye[1]};
    float len = sqrtf(fwd[0] * fwd[0] + fwd[1] * fwd[1]);
    /* open water between the camera and the crowd: the first point on the
     * way whose distance to every dinghy's centre exceeds its outer radius */
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

/* Seen from above, where no dinghy hides another: every dinghy in its own
 * colour where it is, and water between them. */
static void every_dinghy_shows_its_colour_from_above(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    sim_step(v.sim, DROP_STEPS);
    orbit_camera *cam = render_camera(v.r);
    cam->pitch = 1.45f;
    char err[512];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    if (!o)
        fail_msg("offscreen_create: %s", err);
    offscreen_bind(o);
    render_draw(v.r, v.sim, W, H, sim_time(v.sim));
    image im = {(unsigned char *)offscreen_read(o), W, H};
    for (int p = 0; p < sim_ring_count(v.sim); p++)
        check_dinghy_colour(&im, &v, p);
    /* the grid's centre, between the four rings */
    float mid[3] = {0.0f, 0.0f, (float)s.sim.world.water.level};
    check_water(&im, v.r, mid);
    offscreen_destroy(o);
    close_view(&v);
}

static void screenshot_changes_as_the_dinghies_fall(void **state)
{
    (void)state;
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

/* A frame as the demo draws it (step, scene, HUD, follow, offscreen
 * read-back) makes no allocation in the project's code. */
static void frames_allocate_nothing(void **state)
{
    (void)state;
    dinghy_settings s = fixed_scene();
    scene_view v = open_view(&s);
    char err[512], text[HUD_TEXT_MAX];
    offscreen *o = offscreen_create(W, H, err, sizeof err);
    if (!o)
        fail_msg("offscreen_create: %s", err);
    hud_stats hs = {60.0, 950.0, 1.05, 2, 4, 2048, 3.5, 0, 1.0, 0.98, 1};
    render_follow(v.r, 1);
    long before = allocations;
    for (int frame = 0; frame < 5; frame++) {
        sim_step(v.sim, 10);
        sim_clear_events(v.sim);
        offscreen_bind(o);
        render_draw(v.r, v.sim, W, H, frame / 60.0);
        hud_format(text, sizeof text, &hs, frame % 2);
        render_hud(v.r, text, 2.0f);
        offscreen_read(o);
    }
    print_message("%ld allocations in 5 frames\n", allocations - before);
    assert_int_equal(allocations - before, 0);
    assert_true(allocations > 0); /* the counter does count: creation allocated */
    offscreen_destroy(o);
    close_view(&v);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(camera_projects_target_to_centre),
        cmocka_unit_test(camera_pan_follows_the_cursor),
        cmocka_unit_test(camera_orbit_and_zoom_stay_in_limits),
        cmocka_unit_test(clock_keeps_real_time),
        cmocka_unit_test(clock_caps_slow_frames),
        cmocka_unit_test(palette_is_bright_and_not_water_coloured),
        cmocka_unit_test(hud_text_reports_state),
        cmocka_unit_test(screenshot_has_the_requested_size),
        cmocka_unit_test(screenshot_shows_dinghies_water_and_sky),
        cmocka_unit_test(every_dinghy_shows_its_colour_from_above),
        cmocka_unit_test(screenshot_changes_as_the_dinghies_fall),
        cmocka_unit_test(broken_shader_reports_the_driver_log),
        cmocka_unit_test(render_project_matches_the_camera),
        cmocka_unit_test(frames_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
