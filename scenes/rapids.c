/* rapids: the river. A random crowd is dropped all along the course (in
 * rows across the channel, clear of the rocks); the core carries them
 * down and drops each one in again upstream when it leaves the end. */
#include "scenes/layout.h"

#include <math.h>

#include "dinghy/river.h"

/* Half the width a ring centre may use at arc length s, m. */
static double usable_half_width(const river_course *c, double s, double reach)
{
    int i = 0;
    while (i + 1 < c->count && c->s[i + 1] <= s)
        i++;
    return 0.5 * c->width[i] - reach - 0.4;
}

static int clear_of_rocks(const river_course *c, const double xy[2], double reach)
{
    for (int r = 0; r < c->rock_count; r++) {
        const double *k = &c->rock[4 * r];
        double dx = xy[0] - k[0], dy = xy[1] - k[1];
        if (dx * dx + dy * dy < (k[3] + reach + 0.3) * (k[3] + reach + 0.3))
            return 0;
    }
    return 1;
}

static void build(dinghy_sim *sim, const scene_def *p)
{
    if (sim_enable_river(sim) != 0)
        return; /* the definition was checked: only memory can fail */
    const river_world *w = sim_river(sim);
    const river_course *c = river_course_view(w);
    const double reach = layout_ring_reach(sim), pitch = 2.0 * reach + 0.5;
    uint64_t rng = p->seed;
    int n = p->count, across = (int)floor((c->width[0] - 1.0) / pitch);
    across = across < 1 ? 1 : across > 4 ? 4 : across;
    int rows = (n + across - 1) / across;
    double ds = (c->length - 6.0) / rows;
    for (int i = 0; i < n; i++) {
        int row = i / across, col = i % across;
        double s = 3.0 + (row + 0.5) * ds, xy[2];
        double half = usable_half_width(c, s, reach);
        double off = across > 1 ? (col / (double)(across - 1) - 0.5) * 2.0 * half : 0.0;
        /* jitter, then try a few places until one is clear of rocks */
        for (int tries = 0; tries < 8; tries++) {
            double jn = off + layout_uniform(&rng, -0.3, 0.3);
            double js = s + layout_uniform(&rng, -0.2, 0.2) * ds;
            river_point(w, js, jn > half ? half : jn < -half ? -half : jn, xy);
            if (clear_of_rocks(c, xy, reach))
                break;
            off = layout_uniform(&rng, -half, half);
        }
        dinghy_water_point wp;
        river_sample(w, xy[0], xy[1], 0.0, 0.0, &wp);
        sim_ring_pose d = layout_pose_at(xy[0], xy[1], wp.height + p->height * layout_uniform(&rng, 0.3, 1.0));
        layout_tilt(d.rot, layout_uniform(&rng, 0.0, 2.0 * SCENE_PI),
                    layout_uniform(&rng, 0.0, SCENE_PI / 8.0));
        d.velocity[0] = wp.velocity[0];
        d.velocity[1] = wp.velocity[1];
        sim_add_ring(sim, &d);
    }
}

static const int bench[] = {64, 0};
const scene_entry scene_rapids = {
    "rapids", "the river: rings carried down a winding course over drops and round rocks, "
    "dropped in again upstream", layout_count, build, 1.0, bench,
};
