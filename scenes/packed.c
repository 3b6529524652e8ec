/* packed: a crowd squeezed closer than touching, so every ring presses on
 * its neighbours: the contact-heavy case of the benchmark.
 *
 * With skin contact (the default) the grid is 0.2 m tighter than tube to
 * tube, so neighbours' tubes overlap in plan by 0.2 m; every other ring (a
 * checkerboard) starts 2 r + 0.1 m higher, clear of its neighbours, and
 * falls between them, wedging them apart: the rings press and deform. The
 * seed's centre-line repulsion cannot start overlapped (it is evaluated at
 * the centre-lines' gap), so with it the grid keeps the seed's spacing,
 * 2 (R + r) + contact_range / 4, and its state hashes. */
#include "layout.h"

/* How much closer than touching the skin-contact grid is, m. */
#define SQUEEZE 0.2

static void build(dinghy_sim *sim, const scene_def *layout)
{
    const sim_ring_def *r = &sim_get_def(sim)->ring;
    const int skin = r->contact == SIM_CONTACT_SKIN;
    double spacing = skin ? 2.0 * (r->major_radius + r->minor_radius) - SQUEEZE
                          : 2.0 * (r->major_radius + r->minor_radius) + 0.25 * r->contact_range;
    double z = sim_get_def(sim)->world.water.level + layout->height;
    int n = layout->count;
    for (int i = 0; i < n; i++) {
        double x, y;
        layout_grid_place(i, n, spacing, &x, &y);
        int side = 1;
        while (side * side < n)
            side++;
        int up = skin && (i % side + i / side) % 2 == 1; /* the checkerboard's raised rings */
        sim_ring_pose d = layout_pose_at(x, y, z + (up ? 2.0 * r->minor_radius + 0.1 : 0.0));
        sim_add_ring(sim, &d);
    }
}

static const int bench[] = {64, 0};
const scene_entry scene_packed = {
    "packed", "scene.count rings squeezed closer than touching (a checkerboard falling between): contact-heavy", layout_count, build,
    1000, bench,
};
