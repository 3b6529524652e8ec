/* grid: scene.count rings on a square grid scene.spacing apart. */
#include "scenes/layout.h"

static void build(dinghy_sim *sim, const scene_def *layout)
{
    int n = layout->count;
    double z = sim_get_def(sim)->world.water.level + layout->height;
    for (int i = 0; i < n; i++) {
        double x, y;
        layout_grid_place(i, n, layout->spacing, &x, &y);
        sim_ring_pose d = layout_pose_at(x, y, z);
        sim_add_ring(sim, &d);
    }
}

static const int bench[] = {16, 256, 4096, 0};
const scene_entry scene_grid = {
    "grid", "scene.count rings dropped in a square grid", layout_count, build, 1.0, bench,
};
