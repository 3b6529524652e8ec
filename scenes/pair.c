/* pair: two rings side by side along x, ring 0 moving towards ring 1. */
#include "scenes/layout.h"

static int count(const scene_def *layout) { (void)layout; return 2; }

static void build(dinghy_sim *sim, const scene_def *layout)
{
    double z = sim_get_def(sim)->world.water.level + layout->height;
    for (int i = 0; i < 2; i++) {
        sim_ring_pose d = layout_pose_at((i == 0 ? -0.5 : 0.5) * layout->spacing, 0.0, z);
        if (i == 0)
            d.velocity[0] = layout->speed;
        sim_add_ring(sim, &d);
    }
}

const scene_entry scene_pair = {
    "pair", "two rings, one thrown at the other at scene.speed", count, build, 1.0, NULL,
};
