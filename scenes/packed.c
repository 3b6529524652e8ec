/* packed: a crowd squeezed closer than touching, so every ring presses on
 * its neighbours: the contact-heavy case of the benchmark. */
#include "layout.h"

static void build(dinghy_sim *sim, const scene_def *layout)
{
    const sim_ring_def *r = &sim_get_def(sim)->ring;
    double spacing = 2.0 * (r->major_radius + r->minor_radius) + 0.25 * r->contact_range;
    double z = sim_get_def(sim)->world.water.level + layout->height;
    int n = layout->count;
    for (int i = 0; i < n; i++) {
        double x, y;
        layout_grid_place(i, n, spacing, &x, &y);
        sim_ring_pose d = layout_pose_at(x, y, z);
        sim_add_ring(sim, &d);
    }
}

static const int bench[] = {64, 0};
const scene_entry scene_packed = {
    "packed", "scene.count rings squeezed tube to tube: contact-heavy", layout_count, build,
    1000, bench,
};
