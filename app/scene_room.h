/* Room for drop-ins: the demo, its captures and its reloads make scenes with
 * spare rings, so rings dropped in need no new simulation (app/pointer.h). */
#ifndef DINGHY_SCENE_ROOM_H
#define DINGHY_SCENE_ROOM_H

#include <stddef.h>

#include "dinghy/sim.h"
#include "dinghy/spray.h"
#include "dinghy/scene.h"

/* Rings a scene has room for beyond its own: the cap of drop-ins. */
#define ROOM_EXTRA_RINGS 32

/* Creates the simulation of a scene with room for ROOM_EXTRA_RINGS more
 * rings. NULL with a message in err when out of memory. */
dinghy_sim *room_sim_create(const sim_def *def, const scene_def *layout, char *err,
                              size_t err_len);

/* The spray of a scene (NULL when spray.budget is 0 or memory runs out),
 * its random seed from sim.seed, so a given run throws the same droplets. */
spray_system *room_spray_create(const spray_def *def, uint64_t random_seed);

#endif
