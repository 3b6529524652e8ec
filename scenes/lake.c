/* lake: a random crowd dropped from varied heights, tilted and moving, on still water. */
#include "scenes/layout.h"

#include <math.h>

static void build(dinghy_sim *sim, const scene_def *p)
{
    int n = p->count;
    double level = sim_get_def(sim)->world.water.level;
    uint64_t rng = p->seed;
    for (int i = 0; i < n; i++) {
        /* Jitter stays inside the free space between bounding spheres,
         * so nothing starts overlapping; heights spread the drops out. */
        double free_gap = p->spacing - 2.0 * layout_ring_reach(sim);
        double jitter = free_gap > 0.0 ? 0.45 * free_gap : 0.0;
        double x, y;
        layout_grid_place(i, n, p->spacing, &x, &y);
        sim_ring_pose d = layout_pose_at(x, y, level);
        d.centre[0] += layout_uniform(&rng, -jitter, jitter);
        d.centre[1] += layout_uniform(&rng, -jitter, jitter);
        d.centre[2] = level + p->height * layout_uniform(&rng, 0.5, 2.0);
        layout_tilt(d.rot, layout_uniform(&rng, 0.0, 2.0 * SCENE_PI),
                    layout_uniform(&rng, 0.0, SCENE_PI / 5.0));
        double heading = layout_uniform(&rng, 0.0, 2.0 * SCENE_PI);
        double speed = p->speed * layout_uniform(&rng, 0.3, 1.0);
        d.velocity[0] = speed * cos(heading);
        d.velocity[1] = speed * sin(heading);
        sim_add_ring(sim, &d);
    }
}

static const int bench[] = {64, 0};
const scene_entry scene_lake = {
    "lake", "a random crowd dropped on still water from varied heights, tilted and moving", layout_count,
    build, 1.0, bench,
};
