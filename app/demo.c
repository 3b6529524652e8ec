/* The demo loop: physics on its own fixed-dt clock, a frame drawn per
 * vsync, keys and statistics. */
#include "demo.h"

#include <omp.h>
#include <stdio.h>
#include <time.h>

#include "../physics/sim.h"
#include "../render/hud.h"
#include "../render/input.h"
#include "../render/render.h"
#include "../render/window.h"
#include "capture.h"
#include "frame_clock.h"

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

int demo_run(const dinghy_settings *settings, long max_frames)
{
    char err[1024];
    render_window *win = NULL;
    /* The window first: without a display the demo stops at once. */
    if (window_open(&win, "dinghy: rapids", settings->render.width, settings->render.height, 1, err,
                    sizeof err) != WINDOW_OK) {
        fprintf(stderr, "dinghy: %s\n", err);
        return 4;
    }
    dinghy_sim *sim = sim_create(&settings->sim, err, sizeof err);
    if (!sim) {
        fprintf(stderr, "dinghy: %s\n", err);
        window_close(win);
        return 2;
    }
    if (settings->sim.threads == 0 && window_software_renderer() && omp_get_num_procs() > 1) {
        /* All cores for the tick would leave none for a CPU renderer: the
         * two then stall each other (measured here: 5x slower steps). */
        int threads = omp_get_num_procs() / 2;
        sim_set_threads(sim, threads);
        fprintf(stderr, "dinghy: note: OpenGL renders on the CPU (%s), so the physics uses %d of "
                "%d cores; set sim.threads or --threads to choose\n", window_renderer_name(),
                threads, omp_get_num_procs());
    }
    renderer *r = render_create(sim, err, sizeof err);
    input *in = r ? input_attach(win, render_camera(r)) : NULL;
    if (!in) {
        fprintf(stderr, "dinghy: %s\n", r ? "out of memory" : err);
        render_destroy(r);
        sim_destroy(sim);
        window_close(win);
        return 4;
    }

    frame_clock clock;
    frame_clock_init(&clock, settings->sim.dt);
    hud_stats hs = {0};
    hs.threads = sim_threads(sim);
    hs.dinghies = sim_dinghy_count(sim);
    hs.vertices = sim_vertex_count(sim);
    hs.follow = -1;
    int paused = 0, show_help = 1, rc = 0;
    char text[HUD_TEXT_MAX];
    double last = window_time();
    stats_window sw = {last, 0, 0, 0.0, sim_time(sim)};

    for (long frame = 0; !window_should_close(win) && (max_frames <= 0 || frame < max_frames); frame++) {
        window_poll();
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
        if (a.follow_next) { /* cycles 0, 1, ..., P-1, then off */
            int next = render_following(r) + a.follow_next;
            render_follow(r, next < sim_dinghy_count(sim) ? next : -1);
        } else if (a.panned) {
            render_follow(r, -1);
        }
        if (a.reset) {
            sim_reset(sim);
            sim_clear_events(sim);
            clock.backlog = 0.0;
        }

        /* ---- HOOK (lead): config hot reload: poll and apply ---- */

        double now = window_time();
        long steps = frame_clock_steps(&clock, now - last);
        last = now;
        if (paused)
            steps = a.single_step;
        double t0 = omp_get_wtime();
        long done = steps > 0 ? sim_step(sim, steps) : 0;
        double spent = omp_get_wtime() - t0;
        frame_clock_measured(&clock, paused ? 0 : done, spent);
        if (done < steps || sim_blowup(sim).happened) {
            char msg[1024];
            sim_blowup_message(sim, msg, sizeof msg);
            fprintf(stderr, "dinghy: %s\n", msg);
            rc = 3;
            break;
        }
        sw.steps += done;
        sw.step_wall += spent;

        /* ---- HOOK (lead): sound: consume sim_events(...) then sim_clear_events(...) ---- */
        sim_clear_events(sim);

        int fw, fh;
        window_framebuffer_size(win, &fw, &fh);
        if (fw > 0 && fh > 0) { /* 0 x 0 while minimised */
            render_draw(r, sim, fw, fh, now);
            sw.frames++;
            stats_update(&sw, &hs, now, sim_time(sim));
            hs.sim_time = sim_time(sim);
            hs.paused = paused;
            hs.speed = clock.speed;
            hs.follow = render_following(r);
            hud_format(text, sizeof text, &hs, show_help);
            render_hud(r, text, 1.5f * window_ui_scale(win));
            if (a.screenshot)
                screenshot(r, sim, win, now);
        }
        window_swap(win);
    }
    input_detach(in);
    render_destroy(r);
    sim_destroy(sim);
    window_close(win);
    return rc;
}
