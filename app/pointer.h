/* The demo's hands: grab and throw, drop in, take out and puncture rings
 * under the cursor, from the input's actions, in the demo window and in
 * scripted captures alike. */
#ifndef DINGHY_POINTER_H
#define DINGHY_POINTER_H

#include <stddef.h>

#include "dinghy/hands.h"
#include "dinghy/sim.h"
#include "render/camera.h"
#include "config/watch.h"
#include "render/input.h"
#include "render/render.h"
#include "app/panel.h"
#include "app/scene_room.h"
#include "dinghy/scene.h"


/* Diameter of the hole K makes, m. The default ring, afloat at about
 * 190 Pa gauge, halves its gauge pressure in about 4 s and is at 24 Pa
 * after 8 s: fast at first, then ever slower (docs/physics.md 6b). */
#define POINTER_HOLE_DIAMETER 0.01

/* Diameter of the hole Shift+K tears, m: a burst. The default ring's gas
 * is gone within a second, and the ring folds flat on the water within a
 * few (about a third of its volume; docs/physics.md section 8). */
#define POINTER_BURST_DIAMETER 0.3

/* A throw leaves at the hand's velocity averaged over about this long, s
 * (exponentially): a flick, not the last frame's twitch. */
#define POINTER_THROW_TIME 0.05

/* A dropped ring starts this high above the water under the cursor, m. */
#define POINTER_DROP_HEIGHT 0.6

typedef struct {
    sim_ring_id held;     /* the ring in the hand, or SIM_RING_NONE */
    float plane_point[3]; /* the drag plane: through the grabbed point, m */
    float plane_normal[3];/* facing the camera, or up (along the water) */
    int along_water;      /* the plane is horizontal */
    double hand[3];       /* where the hand was put at the last frame, m */
    double throw_velocity[3]; /* the hand's velocity over the last POINTER_THROW_TIME, m/s */
    sim_ring_id punctured;/* the ring punctured last (its gas shows in the note), or SIM_RING_NONE */
    int hole_vertex;      /* the vertex of that ring nearest the hole */
    char note[160];       /* what the last action did, for the HUD ("" none) */
} pointer_state;

void pointer_init(pointer_state *pl);

/* Takes this frame's actions on sim seen through camera in a w x h
 * viewport; step_time is the simulated time (s) this frame is about to
 * advance (0 while paused): a dragged hand moves smoothly over it. */
void pointer_frame(pointer_state *pl, const input_actions *a, dinghy_sim *sim, const orbit_camera *camera,
                int w, int h, double step_time);

/* The tuning panel's keys and mouse this frame (the panel drawn last in
 * box): select a row, change it (applied like a reload of the config
 * file, through reload_apply: returns that result, else RELOAD_NONE) and
 * save (into watch's file; NULL: the message names --set flags instead). */
reload_result pointer_panel(panel *pn, const input_actions *a, const render_text_box *box,
                         dinghy_settings *settings, dinghy_sim **sim, reload_report *rep,
                         config_watch *watch);

/* The cursor's ray meets the water: the point (m). Returns 0, or -1 when
 * it points above the horizon. */
int pointer_water_under(const dinghy_sim *sim, const orbit_camera *camera, int w, int h,
                     const float cursor[2], double point[3]);

#endif
