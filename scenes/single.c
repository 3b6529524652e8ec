/* single: one ring dropped on still water. */
#include "scenes/layout.h"

static int count(const scene_def *layout) { (void)layout; return 1; }

static void build(dinghy_sim *sim, const scene_def *layout)
{
    sim_ring_pose d = layout_pose_at(0.0, 0.0, sim_get_def(sim)->world.water.level + layout->height);
    sim_add_ring(sim, &d);
}

static const int bench[] = {1, 0};
const scene_entry scene_single = {
    "single", "one ring dropped on still water", count, build, 1.0, bench,
};
