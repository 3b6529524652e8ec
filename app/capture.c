/* Offscreen captures: screenshot, PNG frames, video. */
#include "app/capture.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dinghy/scene.h"
#include "render/hud_text.h"
#include "render/offscreen.h"
#include "render/png.h"
#include "app/input_script.h"
#include "app/obj_export.h"
#include "app/pointer.h"
#include "app/scene_room.h"
#include "app/report.h"
#include "render/window.h"
#include "app/video.h"

/* A PNG written whole or not at all: a temporary file renamed into place. */
static int write_png(const char *path, const unsigned char *rgb, int w, int h, char *err,
                     size_t err_len)
{
    char tmp[4200];
    tmp_file_name(path, tmp, sizeof tmp);
    if (png_write_rgb(tmp, rgb, w, h, err, err_len) != 0) {
        remove(tmp);
        snprintf(err, err_len, "cannot write image file '%s'", path);
        return -1;
    }
    if (tmp_file_rename(tmp, path) != 0) {
        snprintf(err, err_len, "cannot write image file '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int capture_snapshot(renderer *r, dinghy_sim *sim, int width, int height, double time_s,
                     const char *path, char *err, size_t err_len)
{
    offscreen *o = offscreen_create(width, height, err, err_len);
    if (!o)
        return -1;
    offscreen_bind(o);
    render_draw(r, sim, width, height, time_s);
    int rc = write_png(path, offscreen_read(o), width, height, err, err_len);
    offscreen_destroy(o);
    return rc;
}

static int make_dir(const char *dir, char *err, size_t err_len)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    if (mkdir(dir, 0777) != 0) {
        snprintf(err, err_len, "--record: cannot create directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* Scripted hands (--input): the script feeds an input with no window,
 * and the hands act on the simulation before each frame's steps. */
typedef struct {
    input_script *script; /* NULL: nobody at the controls */
    input *in;
    pointer_state pointer;
    renderer *r;
    int w, h;             /* the picture's size, pixels */
    panel *pn;            /* the tuning panel, shown when the script opens it */
    int show_panel;
    render_text_box box;  /* where it was drawn */
    dinghy_settings settings; /* what the panel changes */
    spray_system *spray;  /* droplets, stepped with each frame (NULL: spray.budget 0) */
    reload_report rep;
    char text[HUD_TEXT_MAX];
} capture_hands;

/* The panel and the hands' last note over a drawn frame, as the demo
 * shows them. */
static void draw_overlays(capture_hands *hands)
{
    if (!hands || !hands->script)
        return;
    const float scale = 1.5f;
    if (hands->pointer.note[0])
        render_hud(hands->r, hands->pointer.note, scale);
    if (hands->show_panel) {
        panel_format(hands->pn, &hands->settings, hands->text, sizeof hands->text);
        render_panel(hands->r, hands->text, scale, &hands->box);
    }
    input_set_panel(hands->in, hands->box.x0, hands->box.y0,
                    hands->show_panel ? hands->box.x1 : 0.0f, hands->show_panel ? hands->box.y1 : 0.0f);
}

/* Steps the simulation by one frame's steps, the hands acting first;
 * 0, or 3 with the blow-up message printed. */
static int advance(dinghy_sim *sim, long steps, capture_hands *hands)
{
    if (hands && hands->script) {
        input_script_play(hands->script, sim_time(sim), hands->w, hands->h, hands->w, hands->h,
                          hands->in);
        input_actions a = input_take(hands->in);
        if (a.toggle_panel % 2)
            hands->show_panel = !hands->show_panel;
        if (hands->show_panel) { /* the panel's changes act on the running scene (its rows
                                  * are live keys: never a rebuild that would replace sim) */
            reload_result rr = pointer_panel(hands->pn, &a, &hands->box, &hands->settings, &sim,
                                          &hands->rep, NULL);
            if (rr != RELOAD_NONE)
                reload_report_print(&hands->rep, stderr);
        }
        pointer_frame(&hands->pointer, &a, sim, render_camera(hands->r), hands->w, hands->h,
                   (double)(steps > 0 ? steps : 0) * sim_get_def(sim)->solver.dt);
    }
    if (steps <= 0)
        return 0;
    sim_step(sim, steps); /* stops short only when the state blows up */
    if (hands && hands->spray) /* the frame's splashes and hits throw droplets */
        spray_step(hands->spray, sim, (double)steps * sim_get_def(sim)->solver.dt,
                   sim_threads(sim));
    return report_blowup(sim);
}

/* Steps of frame k at fps frames a second: rounded per frame but never
 * drifting (frame k is at k / fps seconds). */
static long frame_steps(long k, double steps_per_frame)
{
    return (long)floor((double)(k + 1) * steps_per_frame + 0.5) -
           (long)floor((double)k * steps_per_frame + 0.5);
}

/* The steps before the first picture, frame by frame: a script's events
 * land when they are due and the spray flies as in a recording. */
static int advance_before(dinghy_sim *sim, long steps, capture_hands *hands, double steps_per_frame)
{
    for (long k = 0, done = 0; done < steps; k++) {
        long n = frame_steps(k, steps_per_frame);
        n = n < steps - done ? n : steps - done;
        if (hands->script) /* the cursor points through the camera as it would be drawn */
            render_follow_update(hands->r, sim);
        int rc = advance(sim, n, hands);
        if (rc)
            return rc;
        done += n;
    }
    return 0;
}

/* Writes the frames of a recording; returns the exit code. */
static int record(renderer *r, dinghy_sim *sim, offscreen *o, const dinghy_settings *s,
                  const capture_request *req, video_pipe *video, capture_hands *hands, char *err,
                  size_t err_len)
{
    int w = s->render.width, h = s->render.height;
    double steps_per_frame = 1.0 / ((double)s->render.fps * s->sim.solver.dt);
    char path[4096];
    for (long k = 0; k < req->frames; k++) {
        offscreen_bind(o);
        render_draw(r, sim, w, h, sim_time(sim));
        draw_overlays(hands);
        const unsigned char *rgb = offscreen_read(o);
        if (req->record_dir) {
            snprintf(path, sizeof path, "%s/frame_%05ld.png", req->record_dir, k);
            if (write_png(path, rgb, w, h, err, err_len) != 0)
                return 2;
            if (req->obj) {
                snprintf(path, sizeof path, "%s/frame_%05ld.obj", req->record_dir, k);
                if (obj_export(sim, path) != 0)
                    return 2;
            }
        }
        if (video && video_write(video, rgb, err, err_len) != 0)
            return 2;
        if (k + 1 < req->frames) {
            int rc = advance(sim, frame_steps(k, steps_per_frame), hands);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int capture_run(const dinghy_settings *s, const capture_request *req)
{
    char err[1024] = "";
    if (req->video && !video_ffmpeg_available()) {
        fprintf(stderr, "dinghy: %s\n", VIDEO_NO_FFMPEG_MESSAGE);
        return 2;
    }
    if (req->record_dir && make_dir(req->record_dir, err, sizeof err) != 0) {
        fprintf(stderr, "dinghy: %s\n", err);
        return 2;
    }
    static capture_hands hands; /* big (texts), and one capture a run */
    memset(&hands, 0, sizeof hands);
    hands.w = s->render.width;
    hands.h = s->render.height;
    pointer_init(&hands.pointer);
    /* a bad script is a usage error, found before any display is needed */
    if (req->input && !(hands.script = input_script_load(req->input, err, sizeof err))) {
        fprintf(stderr, "dinghy: %s\n", err);
        return 2;
    }
    render_window *win = NULL;
    if (window_open(&win, "dinghy capture", 64, 64, 0, err, sizeof err) != WINDOW_OK) {
        fprintf(stderr, "dinghy: %s\n", err);
        input_script_free(hands.script);
        return 4;
    }
    int rc = 0;
    dinghy_sim *sim = room_sim_create(&s->sim, &s->scene, err, sizeof err);
    renderer *r = NULL;
    offscreen *o = NULL;
    video_pipe *video = NULL;
    if (!sim) {
        rc = 2;
        goto done;
    }
    /* The renderer frames the camera on the starting positions, so every
     * capture of a scene is taken from the same place. */
    r = render_create(sim, err, sizeof err);
    o = r ? offscreen_create(s->render.width, s->render.height, err, sizeof err) : NULL;
    if (!o) {
        /* The renderer works, so the offscreen target failed on its size
         * (the driver's limits or memory): a setting to change, exit 2. */
        rc = r ? 2 : 4;
        goto done;
    }
    if (hands.script) {
        hands.settings = *s;
        hands.pn = panel_create();
        if (!hands.pn || !(hands.in = input_create(render_camera(r), s->render.height))) {
            snprintf(err, sizeof err, "out of memory");
            rc = 2;
            goto done;
        }
    }
    hands.r = r;
    hands.spray = room_spray_create(&s->spray, s->scene.seed);
    render_attach_spray(r, hands.spray);
    const double steps_per_frame = 1.0 / ((double)s->render.fps * s->sim.solver.dt);
    if ((rc = advance_before(sim, req->steps, &hands, steps_per_frame)) != 0) {
        err[0] = '\0'; /* already reported */
        goto done;
    }
    if (req->screenshot) {
        offscreen_bind(o);
        render_draw(r, sim, s->render.width, s->render.height, sim_time(sim));
        draw_overlays(&hands);
        if (write_png(req->screenshot, offscreen_read(o), s->render.width, s->render.height,
                      err, sizeof err) != 0) {
            rc = 2;
            goto done;
        }
        printf("wrote %s (%d x %d pixels, step %ld, t = %.3f s)\n", req->screenshot,
               s->render.width, s->render.height, sim_steps_done(sim), sim_time(sim));
    }
    if (req->record_dir || req->video) {
        if (req->video &&
            !(video = video_open(req->video, s->render.width, s->render.height, s->render.fps, err,
                                 sizeof err))) {
            rc = 2;
            goto done;
        }
        rc = record(r, sim, o, s, req, video, &hands, err, sizeof err);
        if (rc == 3)
            err[0] = '\0';
        if (rc == 0 && req->record_dir)
            printf("wrote %ld frames to %s/frame_00000.png ... (%d fps)\n", req->frames,
                   req->record_dir, s->render.fps);
    }
    if (rc == 0 && req->obj) {
        if (obj_export(sim, req->obj) != 0)
            rc = 2;
        else
            printf("wrote %s (%d rings, step %ld)\n", req->obj, sim_ring_count(sim),
                   sim_steps_done(sim));
    }
done:
    if (video && video_close(video, rc ? NULL : err, rc ? 0 : sizeof err) != 0 && rc == 0)
        rc = 2;
    else if (video && rc == 0)
        printf("wrote %s (%ld frames, %d fps)\n", req->video, req->frames, s->render.fps);
    if (rc && err[0])
        fprintf(stderr, "dinghy: %s\n", err);
    input_detach(hands.in);
    input_script_free(hands.script);
    panel_destroy(hands.pn);
    reload_report_free(&hands.rep);
    if (r)
        render_attach_spray(r, NULL);
    spray_destroy(hands.spray);
    offscreen_destroy(o);
    render_destroy(r);
    sim_destroy(sim);
    window_close(win);
    return rc;
}
