/* Scenes with room for the rings the demo's hands drop in. */
#include "app/scene_room.h"

dinghy_sim *room_sim_create(const sim_def *def, const scene_def *layout, char *err,
                              size_t err_len)
{
    int rings = scene_of(layout)->ring_count(layout);
    return scene_create(def, layout, rings + ROOM_EXTRA_RINGS, err, err_len);
}

spray_system *room_spray_create(const spray_def *def, uint64_t random_seed)
{
    return def->budget > 0 ? spray_create(def, random_seed ^ 0x5b7a5b7a5b7a5b7aull) : NULL;
}
