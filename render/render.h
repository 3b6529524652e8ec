/* The renderer: sky, river bed, rings, water, HUD.
 * With a river (sim_river) the ground, rocks and moving water come from the
 * river world and the camera follows the crowd downstream; on still water
 * the painted bed and a flat sheet of water.
 *
 * It reads the physics only through the dinghy/ headers (state, normals,
 * summaries, parameters) and draws into whatever framebuffer is bound: a
 * window's or an offscreen target. Everything it needs is allocated in
 * render_create; drawing a frame allocates nothing. Needs a current GL 3.3
 * core context (window.h) for its whole life. */
#ifndef DINGHY_RENDER_H
#define DINGHY_RENDER_H

#include <stddef.h>

#include "dinghy/sim.h"
#include "dinghy/spray.h"
#include "render/camera.h"

typedef struct renderer renderer;

/* Builds the GPU resources for sim (whose sizes are fixed for its life),
 * frames the camera on the rings' current positions at the water level
 * and lays the river round them. NULL with a one-line message in err
 * (e.g. a shader's compile log) on failure. */
renderer *render_create(const dinghy_sim *sim, char *err, size_t err_len);
void render_destroy(renderer *r);

/* Draws sim's current state into the bound framebuffer, a viewport of
 * width x height pixels. time_s (s) animates the ripples. */
void render_draw(renderer *r, const dinghy_sim *sim, int width, int height, double time_s);

/* The same into the bound framebuffer (a window's) of width x height
 * pixels, but the scene drawn at scene_w x scene_h pixels (dynamic
 * resolution, resolution.h) and scaled up over it with linear filtering;
 * the viewport is then the whole width x height, so the HUD and the panel
 * drawn next are sharp, and render_project and render_viewport answer in
 * its pixels. A scene size not below the window's draws as render_draw. */
void render_draw_scaled(renderer *r, const dinghy_sim *sim, int width, int height, int scene_w,
                        int scene_h, double time_s);

/* Draws sp's droplets in every later frame, after the opaque meshes and
 * the translucent water, blended without depth writes (droplets live
 * only above the water); sp must outlive the attachment; NULL detaches. The
 * GPU buffers are made at the first attach (and again for a larger
 * budget), not per frame; if they cannot be, a line goes to stderr and
 * nothing is attached. */
void render_attach_spray(renderer *r, const spray_system *sp);

/* Draws text over the last frame at its top-left corner, glyphs enlarged
 * `scale` times (the screen's content scale times a base size). */
void render_hud(renderer *r, const char *text, float scale);

/* Where render_panel drew, pixels from the viewport's top-left. */
typedef struct {
    float x0, y0, x1, y1;  /* the panel's rectangle */
    float first_line_y;    /* top of the text's first line */
    float line_height;     /* of each line */
} render_text_box;

/* Draws text (at most HUD_TEXT_MAX bytes, lines split by '\n') on a
 * translucent dark panel at the top-right corner of the last frame, glyphs
 * enlarged `scale` times: the tuning panel's place (app/panel.h). Fills
 * box (if not NULL) with where it went, for the mouse. */
void render_panel(renderer *r, const char *text, float scale, render_text_box *box);

/* Projects a world point (m) to pixels of the last drawn viewport, origin
 * top-left, y down. Returns 0 when the point is in front of the camera
 * (the pixel may still be outside the viewport), -1 otherwise. */
int render_project(const renderer *r, const float world[3], float *px, float *py);
/* Size of the last drawn viewport, pixels. */
void render_viewport(const renderer *r, int *width, int *height);

/* The camera, for the input handler. */
orbit_camera *render_camera(renderer *r);

/* What the camera follows besides a ring (render_follow, render_following). */
#define RENDER_FOLLOW_FREE (-1)  /* nothing: the camera stays where the user put it */
#define RENDER_FOLLOW_CROWD (-2) /* the crowd (crowd_camera.h): the river's default */

/* Makes the camera follow ring `index` (moves in closer the first time;
 * kept by its id from the next update, so it stays on that ring when rings
 * before it are taken out, and is let go when the ring is), the crowd
 * (RENDER_FOLLOW_CROWD), or nothing when index is RENDER_FOLLOW_FREE or
 * out of range. */
void render_follow(renderer *r, int index);
/* A ring's index, RENDER_FOLLOW_CROWD or RENDER_FOLLOW_FREE. */
int render_following(const renderer *r);

/* Rings the last render_draw drew at coarse detail (those covering fewer
 * than about 100 pixels across; a CPU renderer pays for every triangle). */
int render_coarse_rings(const renderer *r);
/* Moves the camera along with what it follows, as render_draw does before
 * drawing (for frames that are simulated but not drawn). */
void render_follow_update(renderer *r, const dinghy_sim *sim);
/* What the camera follows at the start: the crowd on a river, nothing on
 * still water (where F ends its cycle through the rings). */
int render_default_follow(const renderer *r);

/* Per-pass timing (--profile): while on, every pass of a frame waits for
 * the GL to finish it (glFinish) and its wall time is summed, so the
 * frame no longer overlaps anything else: a mode for measuring. */
void render_profile(renderer *r, int on);
/* Ends a pass of the caller's own (the physics, the swap, ...), timed from
 * the last mark; name is a string literal, kept by pointer. */
void render_profile_mark(renderer *r, const char *name);
/* Counts one frame (the averages are per frame). */
void render_profile_frame(renderer *r);
/* "name ms  name ms ...", each pass's mean wall time a frame, the largest first. */
void render_profile_format(const renderer *r, char *buf, size_t len);

#endif
