/* pile: scene.count rings dropped in layers into a pen on still water,
 * more than fit flat, so they stack, press and squash: the contact-heavy
 * case of the benchmark with skin contact.
 *
 * The pen (sim_enable_pen: rigid vertical walls) holds a k x k grid of
 * rings flat, k = ceil(sqrt(count / 3)), about a third of the rings; they
 * are dropped in layers, k x k and (k-1) x (k-1) in turn (those over the
 * gaps of the layer below), the first on the water, each next one
 * 2 r + 0.08 m above the one below, each ring shifted by up to 2 cm and
 * tilted by up to 0.03 rad (from sim.seed). */
#include "scenes/layout.h"

#include <math.h>

static void build(dinghy_sim *sim, const scene_def *layout)
{
    const sim_def *def = sim_get_def(sim);
    const sim_ring_def *r = &def->ring;
    const double D = 2.0 * (r->major_radius + r->minor_radius); /* a ring across */
    const int n = layout->count;
    int k = (int)ceil(sqrt(n / 3.0));
    if (k < 1)
        k = 1;
    const double cell = D + 0.05, half = 0.5 * k * cell + 0.02;
    sim_enable_pen(sim, half, half);
    uint64_t rng = layout->seed ^ 0x9113ull;
    /* layers 8 cm apart (tilts of at most 3 cm at the rim each way), the
     * first just touching the water: the pile is in contact from its first
     * tenths of a second (scene.height is not used) */
    const double layer = 2.0 * r->minor_radius + 0.08;
    const double z0 = def->world.water.level + r->minor_radius;
    int l = 0, j = 0; /* layer, place in it */
    for (int i = 0; i < n; i++) {
        /* odd layers: a (k-1) x (k-1) grid over the gaps of the layer below */
        int w = (l % 2 == 1 && k > 1) ? k - 1 : k;
        double x = ((j % w) - 0.5 * (w - 1)) * cell + layout_uniform(&rng, -0.02, 0.02);
        double y = ((j / w) - 0.5 * (w - 1)) * cell + layout_uniform(&rng, -0.02, 0.02);
        sim_ring_pose d = layout_pose_at(x, y, z0 + l * layer);
        layout_tilt(d.rot, layout_uniform(&rng, 0.0, 2.0 * SCENE_PI),
                    layout_uniform(&rng, 0.0, 0.03));
        sim_add_ring(sim, &d);
        if (++j == w * w)
            j = 0, l++;
    }
}

static const int bench[] = {32, 0};
const scene_entry scene_pile = {
    "pile", "scene.count rings dropped in layers into a pen on still water: they stack, press and squash",
    layout_count, build, 3.0, bench,
};
