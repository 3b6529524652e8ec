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

/* A place at arc length s, n across, clamped into the usable width: its
 * point (xy) and the water there (wp); 1 when it is clear of the rocks. */
static int river_place(const river_world *w, double s, double n, double half, double reach,
                       double xy[2], dinghy_water_point *wp)
{
    river_point(w, s, n > half ? half : n < -half ? -half : n, xy);
    river_sample(w, xy[0], xy[1], 0.0, 0.0, wp);
    return clear_of_rocks(river_course_view(w), xy, reach);
}

/* When ring i's place lands on a ring already there: other places in its
 * stretch of river (its own generator, so that the rings after it keep
 * the places of the main sequence), clear of rocks and rings; the pose's
 * height above the water and its tilt are kept. Else the pose as it was
 * (layout_add_clear then lifts it clear). */
static void find_clear_place(dinghy_sim *sim, const scene_def *p, int i, double s, double ds,
                             double lift, sim_ring_pose *d)
{
    const river_world *w = sim_river(sim);
    const double reach = layout_ring_reach(sim), half = usable_half_width(river_course_view(w), s, reach);
    uint64_t rng = p->seed ^ (0x5bd1e995ull * (uint64_t)(i + 1));
    for (int tries = 0; tries < 32 && !sim_pose_clear(sim, d, layout_margin(sim)); tries++) {
        double xy[2];
        dinghy_water_point wp;
        double n = layout_uniform(&rng, -half, half), js = s + layout_uniform(&rng, -0.5, 0.5) * ds;
        if (!river_place(w, js, n, half, reach, xy, &wp))
            continue;
        sim_ring_pose e = *d;
        e.centre[0] = xy[0];
        e.centre[1] = xy[1];
        e.centre[2] = wp.height + lift;
        e.velocity[0] = wp.velocity[0];
        e.velocity[1] = wp.velocity[1];
        if (sim_pose_clear(sim, &e, layout_margin(sim)))
            *d = e;
    }
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
        dinghy_water_point wp;
        /* jitter, then try a few places until one is clear of rocks */
        for (int tries = 0; tries < 8; tries++) {
            double jn = off + layout_uniform(&rng, -0.3, 0.3);
            double js = s + layout_uniform(&rng, -0.2, 0.2) * ds;
            if (river_place(w, js, jn, half, reach, xy, &wp))
                break;
            off = layout_uniform(&rng, -half, half);
        }
        double lift = p->height * layout_uniform(&rng, 0.3, 1.0);
        sim_ring_pose d = layout_pose_at(xy[0], xy[1], wp.height + lift);
        layout_tilt(d.rot, layout_uniform(&rng, 0.0, 2.0 * SCENE_PI),
                    layout_uniform(&rng, 0.0, SCENE_PI / 8.0));
        d.velocity[0] = wp.velocity[0];
        d.velocity[1] = wp.velocity[1];
        find_clear_place(sim, p, i, s, ds, lift, &d);
        layout_add_clear(sim, &d);
    }
}

static const int bench[] = {64, 0};
const scene_entry scene_rapids = {
    "rapids", "the river: rings carried down a winding course over drops and round rocks, "
    "dropped in again upstream", layout_count, build, 1.0, bench,
};
