/* packed: a crowd squeezed closer than touching, so every ring presses on
 * its neighbours: the contact-heavy case of the benchmark.
 *
 * With skin contact (the default) the grid is 0.2 m tighter than tube to
 * tube, so neighbours' tubes overlap in plan by 0.2 m; the rings start on
 * the water, every other ring (a checkerboard) 2 r + 0.1 m higher, clear
 * of its neighbours, and falls between them, wedging them apart; a pen
 * of rigid walls (sim_enable_pen) round the grid keeps them from
 * drifting apart: the rings press, tilt and deform, and stay pressed. The
 * seed's centre-line repulsion cannot start overlapped (it is evaluated at
 * the centre-lines' gap), so with it the grid keeps the seed's spacing,
 * 2 (R + r) + contact_range / 4, and its state hashes. */
#include "scenes/layout.h"

/* How much closer than touching the skin-contact grid is, m. */
#define SQUEEZE 0.2

static void build(dinghy_sim *sim, const scene_def *layout)
{
    const sim_ring_def *r = &sim_get_def(sim)->ring;
    const int with_contact = r->contact == SIM_CONTACT_SKIN;
    const double across = 2.0 * (r->major_radius + r->minor_radius); /* one ring, m */
    double spacing = with_contact ? across - SQUEEZE : across + 0.25 * r->contact_range;
    /* with skin contact the lower rings start on the water (scene.height
     * is not used): the squeeze begins within 0.2 s, not after a fall */
    double z = sim_get_def(sim)->world.water.level
             + (with_contact ? r->minor_radius : layout->height);
    int n = layout->count;
    if (with_contact) { /* a pen round the grid holds the squeeze */
        int cols = 1;
        while (cols * cols < n)
            cols++;
        int rows = (n + cols - 1) / cols;
        double D = 2.0 * (r->major_radius + r->minor_radius);
        sim_enable_pen(sim, 0.5 * (cols - 1) * spacing + 0.5 * D + 0.02,
                       0.5 * (rows - 1) * spacing + 0.5 * D + 0.02);
    }
    for (int i = 0; i < n; i++) {
        double x, y;
        layout_grid_place(i, n, spacing, &x, &y);
        int side = 1;
        while (side * side < n)
            side++;
        int up = with_contact && (i % side + i / side) % 2 == 1; /* the checkerboard's raised rings */
        sim_ring_pose d = layout_pose_at(x, y, z + (up ? 2.0 * r->minor_radius + 0.1 : 0.0));
        layout_add_clear(sim, &d);
    }
}

static const int bench[] = {64, 0};
const scene_entry scene_packed = {
    "packed", "scene.count rings squeezed closer than touching (a checkerboard falling between): contact-heavy", layout_count, build,
    1000, bench,
};
