/* The demo loop: physics on its own fixed-dt clock, a frame drawn per
 * vsync, keys and statistics. */
#include "demo.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../audio/audio.h"
#include "../scenes/scene.h"
#include "../audio/scene_sound.h"
#include "dinghy/events.h"
#include "dinghy/health.h"
#include "dinghy/sim.h"
#include "../render/hud.h"
#include "../render/input.h"
#include "../render/render.h"
#include "../render/window.h"
#include "capture.h"
#include "report.h"
#include "frame_clock.h"
#include "input_script.h"
#include "panel.h"
#include "play.h"
#include "play_room.h"
#include "reload.h"

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

static void screenshot(renderer *r, dinghy_sim *sim, render_window *win, double t)
{
    char path[64], err[512];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(path, sizeof path, "dinghy-%Y%m%d-%H%M%S.png", &tm);
    int w, h;
    window_framebuffer_size(win, &w, &h);
    if (capture_snapshot(r, sim, w, h, t, path, err, sizeof err) == 0)
        printf("dinghy: saved %s\n", path);
    else
        fprintf(stderr, "dinghy: screenshot failed: %s\n", err);
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

int demo_run(dinghy_settings *settings, config_watch *watch, const demo_options *opt)
{
    const long max_frames = opt->max_frames;
    char err[1024];
    render_window *win = NULL;
    input_script *script = NULL;
    if (opt->input && !(script = input_script_load(opt->input, err, sizeof err))) {
        fprintf(stderr, "dinghy: %s\n", err);
        return 2;
    }
    /* A CPU renderer (Mesa's llvmpipe) rasterises on threads of its own
     * while the physics steps: it gets the cores the physics leaves it
     * (read when the context is made; a user's own setting stands). */
    int cores = omp_get_num_procs();
    char render_threads[16];
    snprintf(render_threads, sizeof render_threads, "%d", cores - cores / 2);
    if (settings->sim.solver.threads == 0)
        setenv("LP_NUM_THREADS", render_threads, 0);
    /* The window first: without a display the demo stops at once. */
    if (window_open(&win, "dinghy: rapids", settings->render.width, settings->render.height, 1, err,
                    sizeof err) != WINDOW_OK) {
        fprintf(stderr, "dinghy: %s\n", err);
        input_script_free(script);
        return 4;
    }
    if (opt->config_note)
        fprintf(stderr, "dinghy: %s\n", opt->config_note);
    dinghy_sim *sim = play_scene_create(&settings->sim, &settings->scene, err, sizeof err);
    if (!sim) {
        fprintf(stderr, "dinghy: %s\n", err);
        window_close(win);
        input_script_free(script);
        return 2;
    }
    if (settings->sim.solver.threads == 0 && window_software_renderer() && omp_get_num_procs() > 1) {
        /* All cores for the tick would leave none for a CPU renderer: the
         * two then stall each other (measured here: 5x slower steps). */
        int threads = omp_get_num_procs() / 2;
        sim_set_threads(sim, threads);
        fprintf(stderr, "dinghy: note: OpenGL renders on the CPU (%s), so the physics uses %d of "
                "%d cores and draws at the same time; set sim.threads or --threads to choose\n",
                window_renderer_name(), threads, omp_get_num_procs());
    }
    renderer *r = render_create(sim, err, sizeof err);
    input *in = r ? input_attach(win, render_camera(r)) : NULL;
    if (!in) {
        fprintf(stderr, "dinghy: %s\n", r ? "out of memory" : err);
        render_destroy(r);
        sim_destroy(sim);
        window_close(win);
        input_script_free(script);
        return 4;
    }

    /* the droplets: stepped with the physics, drawn by the renderer */
    spray_system *spray = play_spray_create(&settings->spray, settings->scene.seed);
    render_attach_spray(r, spray);
    spray_def spray_now = settings->spray;

    reload_guard guard;
    if (reload_guard_init(&guard, sim, settings) != 0) {
        fprintf(stderr, "dinghy: out of memory\n");
        input_detach(in);
        render_destroy(r);
        sim_destroy(sim);
        window_close(win);
        input_script_free(script);
        return 2;
    }
    char rollback_note[320] = ""; /* on the HUD for a while after a rollback */
    double rollback_until = 0.0;
    /* totals over the whole run, for the summary line at exit */
    long total_frames = 0, total_steps = 0;
    double total_step_wall = 0.0, total_sim = 0.0, run_start = window_time();

    /* No sound device is not an error: audio_open says so in one line. */
    audio *snd = settings->audio.enabled ? audio_open(&settings->audio, AUDIO_REALTIME, opt->mute) : NULL;
    static float pan[SIM_EVENT_CAPACITY]; /* set up once: no allocation per frame */
    reload_report rep = {0};
    int show_reload_errors = 0;

    frame_clock clock;
    frame_clock_init(&clock, settings->sim.solver.dt);
    hud_stats hs = {0};
    hs.threads = sim_threads(sim);
    hs.substeps = sim_substeps(sim);
    hs.dinghies = sim_ring_count(sim);
    hs.vertices = sim_vertex_count(sim);
    hs.follow = -1;
    int paused = 0, show_help = 1, rc = 0, max_frames_left = 1;
    char text[HUD_TEXT_MAX];
    double last = window_time();
    stats_window sw = {last, 0, 0, 0.0, sim_time(sim)};

    play_state play;
    play_init(&play);
    panel *pn = panel_create();
    if (!pn) {
        fprintf(stderr, "dinghy: out of memory\n");
        rc = 2;
        max_frames_left = 0;
    } else if (opt->source) {
        panel_set_source(pn, opt->source);
    }
    int show_panel = 0;
    render_text_box panel_box = {0};
    static char panel_text[HUD_TEXT_MAX]; /* set up once: no allocation per frame */

    for (long frame = 0; max_frames_left && !window_should_close(win) &&
                         (max_frames <= 0 || frame < max_frames); frame++) {
        int fw, fh;
        window_framebuffer_size(win, &fw, &fh);
        input_set_viewport(in, fw, fh);
        window_poll();
        if (script) /* the script's events due by now, as if typed */
            input_script_play(script, sim_time(sim), settings->render.width,
                              settings->render.height, fw, fh, in);
        input_actions a = input_take(in);
        if (a.quit)
            break;
        if (a.toggle_pause % 2)
            paused = !paused;
        if (a.toggle_help % 2)
            show_help = !show_help;
        for (int i = 0; i < a.faster; i++)
            frame_clock_change_speed(&clock, 1);
        for (int i = 0; i < a.slower; i++)
            frame_clock_change_speed(&clock, -1);
        if (a.follow_next) { /* cycles 0, 1, ..., P-1, then the crowd (river) or off */
            int now_following = render_following(r);
            int next = (now_following < 0 ? -1 : now_following) + a.follow_next;
            render_follow(r, next < sim_ring_count(sim) ? next : render_default_follow(r));
        } else if (a.panned) {
            render_follow(r, RENDER_FOLLOW_FREE);
        }
        if (a.free_camera % 2) /* C: free the camera, or follow the crowd again */
            render_follow(r, render_following(r) == RENDER_FOLLOW_FREE ? RENDER_FOLLOW_CROWD
                                                                       : RENDER_FOLLOW_FREE);
        if (a.reset) {
            play_init(&play);
            if (spray)
                spray_clear(spray);
            scene_rebuild(sim, &settings->scene); /* and no events left */
            clock.backlog = 0.0;
        }

        /* Hot reload: a save of the config file, or a change on the panel,
         * applies on this frame (one path: reload_apply). */
        if (a.toggle_panel % 2)
            show_panel = !show_panel;
        dinghy_settings before = *settings;
        reload_result rr = watch ? reload_poll(watch, settings, &sim, &rep) : RELOAD_NONE;
        if (rr == RELOAD_NONE && show_panel)
            rr = play_panel(pn, &a, &panel_box, settings, &sim, &rep, watch);
        reload_guard_edited(&guard, sim, &before, settings, rr);
        if (rr != RELOAD_NONE) {
            reload_report_print(&rep, stderr);
            show_reload_errors = rr == RELOAD_REJECTED;
            if (rr == RELOAD_REBUILT && renderer_for(&r, &in, win, sim, err, sizeof err) != 0) {
                fprintf(stderr, "dinghy: %s\n", err);
                rc = 4;
                break;
            }
            if (rr == RELOAD_APPLIED || rr == RELOAD_REBUILT) {
                if (memcmp(&spray_now, &settings->spray, sizeof spray_now) != 0) {
                    spray_destroy(spray); /* a new budget: a new system */
                    spray = play_spray_create(&settings->spray, settings->scene.seed);
                    spray_now = settings->spray;
                }
                render_attach_spray(r, spray); /* also to a rebuilt renderer */
                frame_clock_init(&clock, settings->sim.solver.dt);
                audio_set_params(snd, &settings->audio);
                hs.threads = sim_threads(sim);
                hs.substeps = sim_substeps(sim);
                hs.dinghies = sim_ring_count(sim);
                hs.vertices = sim_vertex_count(sim);
            }
        }

        double now = window_time();
        long steps = frame_clock_steps(&clock, now - last);
        last = now;
        if (paused)
            steps = a.single_step;
        /* the hands act before the steps: a drag spreads over them */
        play_frame(&play, &a, sim, render_camera(r), fw, fh,
                   (double)steps * settings->sim.solver.dt);
        hs.dinghies = sim_ring_count(sim);
        hs.vertices = sim_vertex_count(sim);
        /* Draw the state as it stands, then step while the frame is
         * rasterised: a CPU renderer does that on its own threads, so the
         * physics and the pixels overlap instead of taking turns. The
         * picture is one frame behind the physics. */
        if (fw > 0 && fh > 0) { /* 0 x 0 while minimised */
            render_draw(r, sim, fw, fh, now);
            sw.frames++;
            total_frames++;
            stats_update(&sw, &hs, now, sim_time(sim));
            hs.sim_time = sim_time(sim);
            hs.paused = paused;
            hs.speed = clock.speed;
            hs.follow = render_following(r);
            hs.spray = spray ? (long)spray_count(spray) : 0;
            hs.spray_budget = spray ? (long)spray_budget(spray) : 0;
            hud_format(text, sizeof text, &hs, show_help);
            if (show_reload_errors)
                hud_append_reload(text, sizeof text, &rep);
            if (play.note[0]) {
                size_t used = strlen(text);
                snprintf(text + used, sizeof text - used, "\n\n%s", play.note);
            }
            if (rollback_note[0] && now < rollback_until) {
                size_t used = strlen(text);
                snprintf(text + used, sizeof text - used, "\n\n%s", rollback_note);
            }
            render_hud(r, text, 1.5f * window_ui_scale(win));
            if (show_panel) {
                panel_format(pn, settings, panel_text, sizeof panel_text);
                render_panel(r, panel_text, 1.5f * window_ui_scale(win), &panel_box);
            }
            /* the mouse over the panel works the panel, elsewhere the scene */
            input_set_panel(in, panel_box.x0, panel_box.y0, show_panel ? panel_box.x1 : 0.0f,
                            show_panel ? panel_box.y1 : 0.0f);
            if (a.screenshot)
                screenshot(r, sim, win, now);
        }
        window_flush();
        double t0 = omp_get_wtime();
        /* every call (even of no steps, paused) hands out only its own events */
        long done = sim_step(sim, steps > 0 ? steps : 0);
        double spent = omp_get_wtime() - t0;
        frame_clock_measured(&clock, paused ? 0 : done, spent);
        sw.steps += done;
        sw.step_wall += spent;
        total_steps += done;
        total_step_wall += spent;
        total_sim += (double)done * settings->sim.solver.dt;
        if (sim_blowup(sim).happened) {
            /* Back to the last good state (and the settings before a live
             * edit); the window stays open. */
            char line[2048];
            dinghy_sim *was = sim;
            double blew_at = sim_blowup(sim).time;
            reload_guard_result g = reload_guard_rollback(&guard, &sim, settings, 1, line, sizeof line);
            if (g == GUARD_NOT_ROLLED_BACK) {
                rc = report_blowup(sim);
                break;
            }
            if (g == GUARD_SAME_SETTINGS)
                paused = 1; /* the same settings would blow up the same way again */
            fprintf(stderr, "dinghy: %s%s\n", line, g == GUARD_SAME_SETTINGS ? "; paused (the "
                    "same settings blow up again: edit the config file, or R to reset)" : "");
            snprintf(rollback_note, sizeof rollback_note, "blew up at t = %.2f s: rolled back to "
                     "t = %.2f s%s", blew_at, guard.cp_time,
                     g == GUARD_SAME_SETTINGS ? ", paused (same settings)" :
                     " and the settings before the edit");
            rollback_until = window_time() + 10.0;
            if (sim != was && renderer_for(&r, &in, win, sim, err, sizeof err) != 0) {
                fprintf(stderr, "dinghy: %s\n", err);
                rc = 4;
                break;
            }
            render_attach_spray(r, spray);
            frame_clock_init(&clock, settings->sim.solver.dt);
            hs.threads = sim_threads(sim);
            hs.substeps = sim_substeps(sim);
            hs.dinghies = sim_ring_count(sim);
            hs.vertices = sim_vertex_count(sim);
        } else if (done > 0) {
            reload_guard_frame(&guard, sim, settings);
        }

        /* Sound: this frame's contact starts and splashes, panned by where
         * they are on screen; the water loop follows the river's flow where
         * the camera looks (on still water: how fast the dinghies go). */
        if (snd) {
            size_t n;
            const sim_event *ev = sim_events(sim, &n, NULL);
            event_pans(r, ev, n, fw, pan);
            audio_scene sc = audio_scene_of(sim);
            const float *look = render_camera(r)->target; /* the water where the camera looks */
            double at[3] = {look[0], look[1], look[2]};
            audio_frame_info fi = {now, sc.size, sc.vertices, audio_water_level(sim, at, &sc),
                                   audio_hiss_level(sc.leak)};
            audio_frame(snd, &fi, ev, pan, n);
        }
        if (spray) /* this frame's splashes and hits throw droplets */
            spray_step(spray, sim, (double)done * settings->sim.solver.dt, sim_threads(sim));

        double swap_start = omp_get_wtime();
        window_swap(win); /* waits for the frame the renderer drew meanwhile */
        frame_clock_waited(&clock, omp_get_wtime() - swap_start);
    }
    /* One line on how it went: the HUD's numbers over the whole run. */
    double wall = window_time() - run_start;
    printf("demo: frames %ld  wall %.2f s  %.1f frames/s  simulated %.3f s  reached %.2fx real "
           "time  physics %.3f ms/step (%ld steps, %d threads)\n", total_frames, wall,
           wall > 0.0 ? (double)total_frames / wall : 0.0, total_sim,
           wall > 0.0 ? total_sim / wall : 0.0,
           total_steps ? 1000.0 * total_step_wall / (double)total_steps : 0.0, total_steps,
           sim_threads(sim));
    fflush(stdout);
    reload_guard_free(&guard);
    render_attach_spray(r, NULL);
    spray_destroy(spray);
    panel_destroy(pn);
    input_script_free(script);
    audio_close(snd);
    reload_report_free(&rep);
    input_detach(in);
    render_destroy(r);
    sim_destroy(sim);
    window_close(win);
    return rc;
}
