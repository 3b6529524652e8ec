/* The camera that follows the crowd down the river: its target rides
 * along the course at the pace of the rings round it, drawn toward their
 * middle, and turns with the course so the view looks downstream; the
 * user's orbit (yaw and pitch offsets) and zoom are kept. When the target
 * nears the downstream end it cuts back upstream, where the rings are
 * dropped in again. On still water it eases toward the mean of the ring
 * centres. Pure math over the public API, no GL. */
#ifndef DINGHY_CROWD_CAMERA_H
#define DINGHY_CROWD_CAMERA_H

#include "dinghy/sim.h"
#include "render/camera.h"
#include "render/course_map.h"

/* Rings within this many metres of the target along the course pace it. */
#define CROWD_WINDOW 14.0
/* The target cuts back upstream this far before the downstream end, m. */
#define CROWD_END_MARGIN 14.0

typedef struct {
    const course_map *map; /* NULL on still water */
    double s, n;           /* target's channel coordinates, m */
    double course_yaw;     /* smoothed downstream direction, rad */
    double last_time;      /* simulated time of the last update, s */
    int fresh;             /* next update starts over (no easing) */
} crowd_camera;

/* Starts following: on a river just above its first drop (or 10 m in),
 * or, with from_target, where the camera's target is now on the course;
 * the camera looks downstream from behind and to the side at a distance
 * that shows some 40 m of river (from_target keeps the user's distance and
 * pitch). map may be NULL (still water). */
void crowd_camera_start(crowd_camera *cc, const course_map *map, const dinghy_sim *sim,
                        orbit_camera *cam, int from_target);

/* Moves the camera for sim's current state (simulated time; nothing moves
 * while it stands still). */
void crowd_camera_update(crowd_camera *cc, const dinghy_sim *sim, orbit_camera *cam);

#endif
