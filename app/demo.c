/* The demo loop: a frame drawn per vsync, keys and statistics; the physics
 * on a thread of its own (app/physics_thread.h) whose finished states the
 * frame draws interpolated, or, for scripted input and --profile, stepped
 * within the frame on its fixed-dt clock. */
#include "app/demo.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audio/audio.h"
#include "dinghy/scene.h"
#include "audio/scene_sound.h"
#include "dinghy/events.h"
#include "dinghy/health.h"
#include "dinghy/sim.h"
#include "render/hud_text.h"
#include "render/input.h"
#include "render/offscreen.h"
#include "render/png.h"
#include "render/render.h"
#include "render/resolution.h"
#include "render/window.h"
#include "app/report.h"
#include "app/frame_clock.h"
#include "app/input_script.h"
#include "app/panel.h"
#include "app/pointer.h"
#include "app/scene_room.h"
#include "app/reload.h"
#include "app/display_clock.h"
#include "app/physics_thread.h"
#include "app/rasteriser_priority.h"
#include "app/view_sim.h"

/* Frame statistics over a window of about half a second, for the HUD. */
typedef struct {
    double since;      /* wall time the window opened, s */
    long frames, steps;
    double step_wall;  /* wall time in sim_step, s */
    double sim_start;  /* simulated time when the window opened, s */
} stats_window;

static void stats_update(stats_window *w, hud_stats *h, double now, double sim_now)
{
    double span = now - w->since;
    if (span < 0.5)
        return;
    h->fps = (double)w->frames / span;
    h->steps_per_s = (double)w->steps / span;
    h->ms_per_step = w->steps ? 1000.0 * w->step_wall / (double)w->steps : 0.0;
    h->realtime_ratio = (sim_now - w->sim_start) / span;
    w->since = now;
    w->frames = w->steps = 0;
    w->step_wall = 0.0;
    w->sim_start = sim_now;
}

/* Pans each event by where it shows on screen: -1 left edge, 1 right edge. */
static void event_pans(const renderer *r, const sim_event *ev, size_t n, int width, float *pan)
{
    for (size_t i = 0; i < n; i++) {
        float px, py;
        pan[i] = 0.0f;
        if (width > 0 && render_project(r, ev[i].position, &px, &py) == 0) {
            float p = 2.0f * px / (float)width - 1.0f;
            pan[i] = p < -1.0f ? -1.0f : p > 1.0f ? 1.0f : p;
        }
    }
}

/* Appends the latest rejected reload to the HUD text, so a typo shows on
 * screen until the next good save. */
static void hud_append_reload(char *text, size_t len, const reload_report *rep)
{
    size_t used = strlen(text);
    int n = snprintf(text + used, len - used, "\n\n%s", rep->summary);
    for (int i = 0; n >= 0 && i < rep->errors.stored && used + (size_t)n < len; i++) {
        used += (size_t)n;
        n = snprintf(text + used, len - used, "\n%s", rep->errors.lines[i]);
    }
}

/* Rebuilds the renderer and its input for a new simulation (a structural
 * hot reload changes the sizes of every buffer). Returns 0, or -1 with err. */
static int renderer_for(renderer **r, input **in, render_window *win, dinghy_sim *sim, char *err,
                        size_t err_len)
{
    input_detach(*in);
    render_destroy(*r);
    *in = NULL;
    *r = render_create(sim, err, err_len);
    if (*r)
        *in = input_attach(win, render_camera(*r));
    return *r && *in ? 0 : -1;
}

/* Frame times kept for the summary's percentile: whole ms up to this. */
#define DEMO_FRAME_MS_MAX 1000

/* Everything the demo holds while it runs; demo_open fills it, demo_close
 * frees whatever of it was made. */
typedef struct {
    dinghy_settings *settings;
    config_watch *watch;         /* NULL: no config file followed */
    const demo_options *opt;
    render_window *win;
    input_script *script;        /* --input, or NULL */
    dinghy_sim *sim;             /* the simulation that steps */
    physics_thread *phys;        /* its thread, or NULL: stepped within the frame */
    dinghy_sim *view;            /* with phys: the state shown (a view), else NULL */
    display_clock shown_clock;   /* with phys: the simulated time shown */
    physics_thread_status status;/* with phys: what it reported this frame */
    renderer *r;
    input *in;
    spray_system *spray;         /* the droplets, or NULL */
    spray_def spray_now;         /* the definition spray was made from */
    reload_guard guard;          /* the last good state, for a rollback */
    audio *snd;                  /* NULL: no sound */
    panel *pn;
    pointer_state pointer;       /* the hands: grab, throw, puncture (with phys: its
                                    thread's between pauses, through the hooks) */
    frame_clock clock;
    resolution_control res;      /* the scene's automatic scale (dynamic resolution) */
    int dynamic_res;             /* 1: a CPU renderer, whose scale follows the frame time */

    reload_report rep;           /* the last reload's outcome */
    int show_reload_errors;      /* the last reload was rejected: its errors on the HUD */
    char rollback_note[320];     /* on the HUD until rollback_until (wall time, s) */
    double rollback_until;
    int paused, show_help, show_panel;
    render_text_box panel_box;   /* where the panel was drawn, for the mouse */

    hud_stats hs;
    stats_window sw;
    double last;                 /* wall time of the last frame, s */
    /* totals over the whole run, for the summary line at exit */
    long total_frames, total_steps;
    long frame_ms[DEMO_FRAME_MS_MAX + 1]; /* frames by their wall time, whole ms (the last:
                                             that long or longer), for the percentile */
    double total_step_wall, total_sim, run_start;

    /* set up once: no allocation per frame */
    char text[HUD_TEXT_MAX], panel_text[HUD_TEXT_MAX];
    float pan[SIM_EVENT_CAPACITY];
    char err[1024];
} demo;

/* The frame loop goes on while a step returns DEMO_GO; anything else is
 * the exit code. */
enum { DEMO_GO = -1 };

/* The simulation the frame reads (draws, sounds, sprays): the view of the
 * physics thread's states, else the one stepped in the frame. */
static dinghy_sim *shown(const demo *d) { return d->view ? d->view : d->sim; }

/* With the physics thread: stops it between two steps, so that this
 * thread may change d->sim (a reset, a reload, a rollback). */
static void sim_hold(demo *d)
{
    if (d->phys)
        physics_thread_pause(d->phys);
}

/* After sim_hold: a new view when d->sim is no longer `was`, and the
 * physics goes on with d->sim. Returns 0, or -1 with err. */
static int sim_release(demo *d, const dinghy_sim *was)
{
    if (!d->phys)
        return 0;
    if (d->sim != was) {
        dinghy_sim *view = view_sim_create(d->sim, d->err, sizeof d->err);
        if (!view)
            return -1;
        sim_destroy(d->view);
        d->view = view;
    }
    display_clock_init(&d->shown_clock);
    if (physics_thread_resume(d->phys, d->sim) != 0) {
        snprintf(d->err, sizeof d->err, "out of memory for the physics' states");
        return -1;
    }
    return 0;
}

/* The HUD's numbers that come from the simulation's make-up: after the
 * simulation is made, rebuilt or rolled back. */
static void hud_take_sim(hud_stats *hs, const dinghy_sim *sim)
{
    hs->threads = sim_threads(sim);
    hs->substeps = sim_substeps(sim);
    hs->rings = sim_ring_count(sim);
    hs->vertices = sim_vertex_count(sim);
}

/* After the simulation was replaced or its settings changed: the spray to
 * the (maybe new) renderer, the clock to the time step, the HUD's numbers. */
static void demo_resync(demo *d)
{
    render_attach_spray(d->r, d->spray);
    frame_clock_init(&d->clock, d->settings->sim.solver.dt);
    hud_take_sim(&d->hs, shown(d));
}

/* Prints err and returns code: for a failed step. */
static int demo_fail(const demo *d, const char *msg, int code)
{
    fprintf(stderr, "dinghy: %s\n", msg ? msg : d->err);
    return code;
}

/* Frees whatever demo_open made (each free takes NULL). */
static void demo_close(demo *d)
{
    physics_thread_stop(d->phys); /* first: it steps d->sim */
    reload_guard_free(&d->guard);
    if (d->r)
        render_attach_spray(d->r, NULL);
    spray_destroy(d->spray);
    panel_destroy(d->pn);
    input_script_free(d->script);
    audio_close(d->snd);
    reload_report_free(&d->rep);
    input_detach(d->in);
    render_destroy(d->r);
    sim_destroy(d->view);
    sim_destroy(d->sim);
    window_close(d->win);
}

/* On the physics thread, between steps: a frame's hands (f), or after a
 * step none (the held and punctured rings' notes follow the state). */
static void thread_hands(void *ctx, dinghy_sim *sim, const physics_thread_hands_frame *f,
                         char *note, size_t note_len)
{
    demo *d = ctx;
    static const input_actions none;
    static const orbit_camera no_camera;
    if (f)
        pointer_frame(&d->pointer, &f->a, sim, &f->camera, f->w, f->h, f->step_time);
    else
        pointer_frame(&d->pointer, &none, sim, &no_camera, 1, 1, 0.0);
    snprintf(note, note_len, "%s", d->pointer.note);
}

/* On the physics thread, after a good step: the rollback's checkpoint.
 * The demo's thread changes the settings only while the physics waits. */
static void thread_stepped(void *ctx, dinghy_sim *sim)
{
    demo *d = ctx;
    reload_guard_frame(&d->guard, sim, d->settings);
}

/* The script, the window, the simulation, the renderer and its input,
 * the spray, the rollback guard, the sound and the panel. Returns DEMO_GO,
 * or the exit code after one line on stderr (the caller closes d). */
static int demo_open(demo *d)
{
    dinghy_settings *s = d->settings;
    if (d->opt->input && !(d->script = input_script_load(d->opt->input, d->err, sizeof d->err)))
        return demo_fail(d, NULL, 2);
    /* The window first: without a display the demo stops at once. */
    if (window_open(&d->win, "dinghy: rapids", s->render.width, s->render.height, 1, d->err,
                    sizeof d->err) != WINDOW_OK)
        return demo_fail(d, NULL, 4);
    if (d->opt->config_note)
        fprintf(stderr, "dinghy: %s\n", d->opt->config_note);
    if (!(d->sim = room_sim_create(&s->sim, &s->scene, d->err, sizeof d->err)))
        return demo_fail(d, NULL, 2);
    /* A CPU renderer (Mesa's llvmpipe) rasterises on threads of its own
     * while the physics steps. Both get every core: on 2 cores (Xvfb,
     * llvmpipe, the rapids at 1280 x 720) sharing them plays more frames
     * and more simulated time a second than one core each, with the
     * physical models and with the seed's. */
    if (s->sim.solver.threads == 0 && window_software_renderer())
        fprintf(stderr, "dinghy: note: OpenGL renders on the CPU (%s): the physics and the "
                "rasteriser share the %d cores; set sim.threads or --threads to choose\n",
                window_renderer_name(), omp_get_num_procs());
    /* The physics steps on a thread of its own, but for scripted input
     * and --profile: a script's events are due at simulated times, and
     * --profile times each pass of the frame, the physics one of them. */
    int threaded = !d->opt->input && !d->opt->profile;
    if (threaded && !(d->view = view_sim_create(d->sim, d->err, sizeof d->err)))
        return demo_fail(d, NULL, 2);
    d->r = render_create(shown(d), d->err, sizeof d->err);
    d->in = d->r ? input_attach(d->win, render_camera(d->r)) : NULL;
    if (!d->in)
        return demo_fail(d, d->r ? "out of memory" : NULL, 4);
    render_profile(d->r, d->opt->profile);

    /* the droplets: stepped with the physics, drawn by the renderer */
    d->spray = room_spray_create(&s->spray, s->scene.seed);
    render_attach_spray(d->r, d->spray);
    d->spray_now = s->spray;
    if (reload_guard_init(&d->guard, d->sim, s) != 0)
        return demo_fail(d, "out of memory", 2);
    /* No sound device is not an error: audio_open says so in one line. */
    d->snd = s->audio.enabled ? audio_open(&s->audio, AUDIO_REALTIME, d->opt->mute) : NULL;

    frame_clock_init(&d->clock, s->sim.solver.dt);
    /* Only a CPU renderer pays for every pixel: a GPU draws at the window's size. */
    d->dynamic_res = window_software_renderer();
    resolution_init(&d->res, d->dynamic_res ? RESOLUTION_MIN : RESOLUTION_MAX);
    hud_take_sim(&d->hs, shown(d));
    d->hs.follow = -1;
    d->show_help = 1;
    d->last = window_time();
    d->sw = (stats_window){d->last, 0, 0, 0.0, sim_time(d->sim)};
    pointer_init(&d->pointer);
    if (!(d->pn = panel_create()))
        return demo_fail(d, "out of memory", 2);
    if (d->opt->source)
        panel_set_source(d->pn, d->opt->source);
    display_clock_init(&d->shown_clock);
    physics_thread_hooks hooks = {thread_hands, thread_stepped, d};
    if (threaded && !(d->phys = physics_thread_start(d->sim, &hooks, d->err, sizeof d->err)))
        return demo_fail(d, NULL, 2);
    if (threaded && d->dynamic_res) /* a CPU rasteriser: real time first */
        rasteriser_priority_lower(RASTERISER_NICE_STEP);
    /* the run (its real-time factor) starts with the physics: opening the
     * sound device before it took about 130 ms with none to open */
    d->run_start = window_time();
    return DEMO_GO;
}

/* Input: polls the window, plays the script's events due by now, and
 * takes the keys that act on the demo itself (pause, help, speed, camera,
 * reset) into *a. *fw x *fh: the framebuffer, pixels. Returns 0 on quit. */
static int demo_input(demo *d, input_actions *a, int *fw, int *fh)
{
    window_framebuffer_size(d->win, fw, fh);
    input_set_viewport(d->in, *fw, *fh);
    window_poll();
    if (d->script) /* the script's events due by now, as if typed */
        input_script_play(d->script, sim_time(d->sim), d->settings->render.width,
                          d->settings->render.height, *fw, *fh, d->in);
    *a = input_take(d->in);
    if (a->quit)
        return 0;
    if (a->toggle_pause % 2)
        d->paused = !d->paused;
    if (a->toggle_help % 2)
        d->show_help = !d->show_help;
    for (int i = 0; i < a->faster; i++)
        frame_clock_change_speed(&d->clock, 1);
    for (int i = 0; i < a->slower; i++)
        frame_clock_change_speed(&d->clock, -1);
    renderer *r = d->r;
    if (a->follow_next) { /* cycles 0, 1, ..., P-1, then the crowd (river) or off */
        int now_following = render_following(r);
        int next = (now_following < 0 ? -1 : now_following) + a->follow_next;
        render_follow(r, next < sim_ring_count(shown(d)) ? next : render_default_follow(r));
    } else if (a->panned) {
        render_follow(r, RENDER_FOLLOW_FREE);
    }
    if (a->free_camera % 2) /* C: free the camera, or follow the crowd again */
        render_follow(r, render_following(r) == RENDER_FOLLOW_FREE ? RENDER_FOLLOW_CROWD
                                                                   : RENDER_FOLLOW_FREE);
    if (a->reset) {
        sim_hold(d);
        pointer_init(&d->pointer);
        if (d->phys)
            physics_thread_clear_note(d->phys);
        if (d->spray)
            spray_clear(d->spray);
        scene_rebuild(d->sim, &d->settings->scene); /* and no events left */
        d->clock.backlog = 0.0;
        if (sim_release(d, d->sim) != 0)
            return 0; /* cannot happen: the same simulation */
    }
    if (a->toggle_panel % 2)
        d->show_panel = !d->show_panel;
    return 1;
}

/* After a reload or a panel edit that did something (rr): the report,
 * and for a new scene or new settings the renderer, the spray, the sound
 * and the clock. Returns DEMO_GO or the exit code. */
static int demo_reloaded(demo *d, reload_result rr)
{
    reload_report_print(&d->rep, stderr);
    d->show_reload_errors = rr == RELOAD_REJECTED;
    if (rr == RELOAD_REBUILT && renderer_for(&d->r, &d->in, d->win, shown(d), d->err,
                                             sizeof d->err) != 0)
        return demo_fail(d, NULL, 4);
    if (rr == RELOAD_REBUILT)
        render_profile(d->r, d->opt->profile);
    if (rr == RELOAD_APPLIED || rr == RELOAD_REBUILT) {
        if (memcmp(&d->spray_now, &d->settings->spray, sizeof d->spray_now) != 0) {
            spray_destroy(d->spray); /* a new budget: a new system */
            d->spray = room_spray_create(&d->settings->spray, d->settings->scene.seed);
            d->spray_now = d->settings->spray;
        }
        audio_set_params(d->snd, &d->settings->audio);
        demo_resync(d);
    }
    return DEMO_GO;
}

/* Hot reload: a save of the config file, or a change on the panel,
 * applies on this frame (one path: reload_apply); the physics thread
 * waits between two steps meanwhile, only when the simulation changes.
 * Returns DEMO_GO or the exit code. */
static int demo_reload(demo *d, const input_actions *a)
{
    static dinghy_settings before, next; /* large; one demo at a time */
    before = *d->settings;
    reload_result rr = d->watch ? reload_poll_look(d->watch, d->settings, &next, &d->rep)
                                : RELOAD_NONE;
    int panel_edit = d->show_panel && a->panel_change + (int)lroundf(a->panel_scroll) != 0;
    int hold = rr == RELOAD_APPLIED || panel_edit;
    dinghy_sim *was = d->sim;
    if (hold)
        sim_hold(d);
    if (rr == RELOAD_APPLIED)
        rr = reload_poll_finish(d->watch, d->settings, &next, &d->sim, &d->rep);
    if (rr == RELOAD_NONE && d->show_panel)
        rr = pointer_panel(d->pn, a, &d->panel_box, d->settings, &d->sim, &d->rep, d->watch);
    reload_guard_edited(&d->guard, d->sim, &before, d->settings, rr);
    if (hold && sim_release(d, was) != 0)
        return demo_fail(d, NULL, 2);
    return rr == RELOAD_NONE ? DEMO_GO : demo_reloaded(d, rr);
}

/* The HUD: the statistics, the key help, and the notes of the moment (a
 * rejected reload's errors, the hands' last action, a rollback). */
static void demo_hud(demo *d, double now)
{
    hud_stats *hs = &d->hs;
    stats_update(&d->sw, hs, now, sim_time(shown(d)));
    hs->sim_time = sim_time(shown(d));
    hs->paused = d->paused;
    hs->speed = d->clock.speed;
    hs->follow = render_following(d->r);
    hs->spray = d->spray ? (long)spray_count(d->spray) : 0;
    hs->spray_budget = d->spray ? (long)spray_budget(d->spray) : 0;
    char *text = d->text;
    size_t len = sizeof d->text;
    hud_format(text, len, hs, d->show_help);
    if (d->show_reload_errors)
        hud_append_reload(text, len, &d->rep);
    const char *note = d->phys ? d->status.note : d->pointer.note;
    if (note[0]) {
        size_t used = strlen(text);
        snprintf(text + used, len - used, "\n\n%s", note);
    }
    if (d->rollback_note[0] && now < d->rollback_until) {
        size_t used = strlen(text);
        snprintf(text + used, len - used, "\n\n%s", d->rollback_note);
    }
    render_hud(d->r, text, 1.5f * window_ui_scale(d->win));
}

/* P: the window as shown (the frame, the HUD, the panel), drawn again
 * offscreen at the framebuffer's size, to dinghy-YYYYMMDD-HHMMSS.png in
 * the current directory (written whole: a temporary file renamed). */
static void demo_capture(demo *d, int fw, int fh, double now)
{
    char path[64], tmp[128], err[512] = "";
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(path, sizeof path, "dinghy-%Y%m%d-%H%M%S.png", &tm);
    offscreen *o = offscreen_create(fw, fh, err, sizeof err);
    if (o) {
        float scale = 1.5f * window_ui_scale(d->win);
        offscreen_bind(o);
        render_draw(d->r, shown(d), fw, fh, now);
        render_hud(d->r, d->text, scale);
        if (d->show_panel)
            render_panel(d->r, d->panel_text, scale, NULL);
        tmp_file_name(path, tmp, sizeof tmp);
        if (png_write_rgb(tmp, offscreen_read(o), fw, fh, err, sizeof err) != 0)
            remove(tmp);
        else if (tmp_file_rename(tmp, path) != 0)
            snprintf(err, sizeof err, "cannot write '%s': %s", path, strerror(errno));
        offscreen_destroy(o);
    }
    if (err[0])
        fprintf(stderr, "dinghy: screenshot failed: %s\n", err);
    else
        printf("dinghy: saved %s\n", path);
}

/* The scene's size this frame (dynamic resolution): render.resolution_scale
 * when set, else chosen from the last frame's `frame_s` seconds against
 * render.target_fps (a CPU renderer; a GPU's stays 1). On the HUD. */
static void demo_scene_size(demo *d, int fw, int fh, double frame_s, int *sw, int *sh)
{
    const render_params *rp = &d->settings->render;
    if (d->dynamic_res && rp->resolution_scale <= 0.0)
        resolution_frame(&d->res, (float)frame_s, 1.0f / (float)rp->target_fps);
    float scale = resolution_scale_to_use((float)rp->resolution_scale, &d->res);
    if (!d->dynamic_res && rp->resolution_scale <= 0.0)
        scale = 1.0f;
    resolution_size(scale, fw, fh, sw, sh);
    d->hs.scene_w = *sw;
    d->hs.scene_h = *sh;
    d->hs.scene_scale = scale;
    d->hs.scene_auto = rp->resolution_scale <= 0.0;
}

/* Draws the state as it stands (the scene at the size demo_scene_size
 * chooses, scaled up), the HUD and the panel at the window's size (skipped
 * while minimised: 0 x 0), and saves a screenshot when asked (at the
 * window's full size). frame_s: the last frame's wall time, s. */
static void demo_draw(demo *d, const input_actions *a, int fw, int fh, double now, double frame_s)
{
    if (fw <= 0 || fh <= 0)
        return;
    int sw, sh;
    demo_scene_size(d, fw, fh, frame_s, &sw, &sh);
    render_draw_scaled(d->r, shown(d), fw, fh, sw, sh, now);
    d->sw.frames++;
    d->total_frames++;
    demo_hud(d, now);
    if (d->show_panel) {
        panel_format(d->pn, d->settings, d->panel_text, sizeof d->panel_text);
        render_panel(d->r, d->panel_text, 1.5f * window_ui_scale(d->win), &d->panel_box);
    }
    /* the mouse over the panel works the panel, elsewhere the scene */
    input_set_panel(d->in, d->panel_box.x0, d->panel_box.y0,
                    d->show_panel ? d->panel_box.x1 : 0.0f, d->show_panel ? d->panel_box.y1 : 0.0f);
    if (a->screenshot)
        demo_capture(d, fw, fh, now);
}

/* After a blow-up: back to the last good state (and the settings before a
 * live edit); the window stays open. Returns DEMO_GO or the exit code. */
static int demo_rollback(demo *d)
{
    char line[2048];
    sim_hold(d);
    dinghy_sim *was = d->sim;
    double blew_at = sim_blowup(d->sim).time;
    reload_guard_result g = reload_guard_rollback(&d->guard, &d->sim, d->settings, 1, line,
                                                  sizeof line);
    if (g == GUARD_NOT_ROLLED_BACK)
        return report_blowup(d->sim);
    if (g == GUARD_SAME_SETTINGS)
        d->paused = 1; /* the same settings would blow up the same way again */
    fprintf(stderr, "dinghy: %s%s\n", line, g == GUARD_SAME_SETTINGS ? "; paused (the "
            "same settings blow up again: edit the config file, or R to reset)" : "");
    snprintf(d->rollback_note, sizeof d->rollback_note, "blew up at t = %.2f s: rolled back to "
             "t = %.2f s%s", blew_at, d->guard.cp_time,
             g == GUARD_SAME_SETTINGS ? ", paused (same settings)" :
             " and the settings before the edit");
    d->rollback_until = window_time() + 10.0;
    if (d->phys) /* paused before its first step from the good state */
        physics_thread_clock(d->phys, d->clock.speed, d->paused, 0);
    if (sim_release(d, was) != 0)
        return demo_fail(d, NULL, 2);
    if (d->sim != was && renderer_for(&d->r, &d->in, d->win, shown(d), d->err,
                                      sizeof d->err) != 0)
        return demo_fail(d, NULL, 4);
    demo_resync(d);
    return DEMO_GO;
}

/* Steps the physics `steps` times (while the frame is rasterised), with
 * the statistics, and rolls back a blow-up. *done: the steps made.
 * Returns DEMO_GO or the exit code. */
static int demo_step(demo *d, long steps, long *done)
{
    double dt = d->settings->sim.solver.dt;
    double t0 = omp_get_wtime();
    /* every call (even of no steps, paused) hands out only its own events */
    *done = sim_step(d->sim, steps > 0 ? steps : 0);
    double spent = omp_get_wtime() - t0;
    frame_clock_measured(&d->clock, d->paused ? 0 : *done, spent);
    d->sw.steps += *done;
    d->sw.step_wall += spent;
    d->total_steps += *done;
    d->total_step_wall += spent;
    d->total_sim += (double)*done * dt;
    if (sim_blowup(d->sim).happened)
        return demo_rollback(d);
    if (*done > 0)
        reload_guard_frame(&d->guard, d->sim, d->settings);
    return DEMO_GO;
}

/* Sound: this frame's contact starts and splashes, panned by where they
 * are on screen; the water loop follows the river's flow where the camera
 * looks (on still water: how fast the rings go). */
static void demo_sound(demo *d, int fw, double now)
{
    if (!d->snd)
        return;
    size_t n;
    const dinghy_sim *sim = shown(d);
    const sim_event *ev = sim_events(sim, &n, NULL);
    event_pans(d->r, ev, n, fw, d->pan);
    audio_scene sc = audio_scene_of(sim);
    const float *look = render_camera(d->r)->target; /* the water where the camera looks */
    double at[3] = {look[0], look[1], look[2]};
    audio_frame_info fi = {now, sc.size, sc.vertices, audio_water_level(sim, at, &sc),
                           audio_hiss_level(sc.leak)};
    audio_frame(d->snd, &fi, ev, d->pan, n);
}

/* Counts a frame of frame_s seconds for the percentile (not the first
 * two: their times hold the start-up). */
static void count_frame(demo *d, double frame_s)
{
    if (d->total_frames >= 2) {
        long ms = lround(1000.0 * frame_s);
        d->frame_ms[ms < 0 ? 0 : ms > DEMO_FRAME_MS_MAX ? DEMO_FRAME_MS_MAX : ms]++;
    }
}

/* The rest of a frame stepping the physics itself (scripted input,
 * --profile), after input and reload: the hands, draw (with the HUD),
 * step the physics meanwhile, sound and spray, then show the frame.
 * Returns DEMO_GO or the exit code. */
static int demo_frame_stepped(demo *d, const input_actions *a, int fw, int fh)
{
    int rc;
    double now = window_time();
    double frame_s = now - d->last;
    long steps = frame_clock_steps(&d->clock, frame_s);
    count_frame(d, frame_s);
    d->last = now;
    if (d->paused)
        steps = a->single_step;
    /* the hands act before the steps: a drag spreads over them */
    pointer_frame(&d->pointer, a, d->sim, render_camera(d->r), fw, fh,
               (double)steps * d->settings->sim.solver.dt);
    d->hs.rings = sim_ring_count(d->sim);
    d->hs.vertices = sim_vertex_count(d->sim);
    /* Draw the state as it stands, then step while the frame is
     * rasterised: a CPU renderer does that on its own threads, so the
     * physics and the pixels overlap instead of taking turns. The picture
     * is one frame behind the physics. */
    demo_draw(d, a, fw, fh, now, frame_s);
    window_flush();
    render_profile_mark(d->r, "hud");
    long done;
    if ((rc = demo_step(d, steps, &done)) != DEMO_GO)
        return rc;
    render_profile_mark(d->r, "physics");
    demo_sound(d, fw, now);
    render_profile_mark(d->r, "sound");
    if (d->spray) /* this frame's splashes and hits throw droplets */
        spray_step(d->spray, d->sim, (double)done * d->settings->sim.solver.dt,
                   sim_threads(d->sim));
    render_profile_mark(d->r, "spray step");

    double swap_start = omp_get_wtime();
    window_swap(d->win); /* waits for the frame the renderer drew meanwhile */
    frame_clock_waited(&d->clock, omp_get_wtime() - swap_start);
    render_profile_mark(d->r, "swap");
    render_profile_frame(d->r);
    return DEMO_GO;
}

/* The physics thread's steps since the last frame into the statistics. */
static void count_steps(demo *d, const physics_thread_status *now)
{
    long steps = now->steps - d->status.steps;
    double wall = now->step_wall - d->status.step_wall;
    d->sw.steps += steps;
    d->sw.step_wall += wall;
    d->total_steps += steps;
    d->total_step_wall += wall;
    d->total_sim += (double)steps * d->settings->sim.solver.dt;
    if (now->threads > 0) /* the team's choice, not the count asked for */
        d->hs.threads = now->threads;
    d->status = *now;
}

/* The rest of a frame with the physics on its thread, after input and
 * reload (the physics held only when the simulation changes): a
 * blow-up's rollback, the clock and the hands to the physics, then the
 * newest states shown interpolated at the frame's time, drawn, sounded
 * and sprayed. Returns DEMO_GO or the exit code. */
static int demo_frame_threaded(demo *d, const input_actions *a, int fw, int fh)
{
    int rc;
    physics_thread_status st;
    physics_thread_status_get(d->phys, &st);
    count_steps(d, &st);
    if (st.blew_up && (rc = demo_rollback(d)) != DEMO_GO)
        return rc;

    double now = window_time();
    double frame_s = now - d->last;
    count_frame(d, frame_s);
    d->last = now;
    double dt = d->settings->sim.solver.dt;
    physics_thread_clock(d->phys, d->clock.speed, d->paused, d->paused ? a->single_step : 0);
    /* a drag spreads over the simulated time a frame shows */
    double pace = fmin(d->clock.speed, d->shown_clock.pace);
    physics_thread_hands_frame hands = {*a, *render_camera(d->r), fw, fh,
        d->paused ? 0.0 : frame_s * (pace > 0.0 ? pace : d->clock.speed)};
    physics_thread_hands(d->phys, &hands);
    double was = sim_time(d->view);
    view_sim_show(d->view, physics_thread_handoff(d->phys), &d->shown_clock, frame_s,
                  d->paused ? 0.0 : d->clock.speed, dt);
    double advanced = sim_time(d->view) - was;
    hud_take_sim(&d->hs, d->view);
    demo_draw(d, a, fw, fh, now, frame_s);
    demo_sound(d, fw, now); /* the events of the newest state, the first time it shows */
    if (d->spray) /* its splashes and hits throw droplets */
        spray_step(d->spray, d->view, advanced > 0.0 ? advanced : 0.0, sim_threads(d->view));
    window_swap(d->win);
    return DEMO_GO;
}

/* One frame: input and reload, then the rest of it, stepped or threaded. */
static int demo_frame(demo *d)
{
    input_actions a;
    int fw, fh;
    if (!demo_input(d, &a, &fw, &fh))
        return 0;
    int rc = demo_reload(d, &a);
    if (rc != DEMO_GO)
        return rc;
    return d->phys ? demo_frame_threaded(d, &a, fw, fh) : demo_frame_stepped(d, &a, fw, fh);
}

/* The 99th percentile of the frame times counted, ms (0: none counted). */
static long frame_p99(const demo *d)
{
    long n = 0, seen = 0;
    for (int i = 0; i <= DEMO_FRAME_MS_MAX; i++)
        n += d->frame_ms[i];
    for (int i = 0; i <= DEMO_FRAME_MS_MAX; i++)
        if ((seen += d->frame_ms[i]) * 100 >= 99 * n && n > 0)
            return i;
    return 0;
}

/* One line on how it went: the HUD's numbers over the whole run. */
static void demo_summary(const demo *d)
{
    double wall = window_time() - d->run_start;
    char fps[32], reached[32];
    hud_two_digits(wall > 0.0 ? (double)d->total_frames / wall : 0.0, fps, sizeof fps);
    hud_two_digits(wall > 0.0 ? d->total_sim / wall : 0.0, reached, sizeof reached);
    long p99 = frame_p99(d);
    printf("demo: frames %ld  wall %.2f s  %s frames/s  99%% of frames within %ld%s ms  simulated "
           "%.3f s  reached %sx real time  physics %.3f ms/step (%ld steps, %d threads)  render "
           "%dx%d (%.0f%%) at the end\n",
           d->total_frames, wall, fps, p99, p99 >= DEMO_FRAME_MS_MAX ? "+" : "", d->total_sim,
           reached,
           d->total_steps ? 1000.0 * d->total_step_wall / (double)d->total_steps : 0.0,
           d->total_steps, sim_threads(shown(d)), d->hs.scene_w, d->hs.scene_h,
           100.0 * d->hs.scene_scale);
    if (d->opt->profile) {
        char line[1024];
        render_profile_format(d->r, line, sizeof line);
        printf("demo: profile, ms a frame: %s\n", line);
    }
    fflush(stdout);
}

int demo_run(dinghy_settings *settings, config_watch *watch, const demo_options *opt)
{
    demo d = {.settings = settings, .watch = watch, .opt = opt};
    int rc = demo_open(&d);
    for (long frame = 0; rc == DEMO_GO && !window_should_close(d.win) &&
                         (opt->max_frames <= 0 || frame < opt->max_frames); frame++)
        rc = demo_frame(&d);
    if (d.pn) { /* opened to the end */
        if (d.phys) { /* the steps finished since the last frame count too */
            physics_thread_status st;
            physics_thread_status_get(d.phys, &st);
            count_steps(&d, &st);
        }
        demo_summary(&d);
    }
    demo_close(&d);
    return rc == DEMO_GO ? 0 : rc;
}
