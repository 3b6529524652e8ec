/* Helpers the scene builders share; see layout.h. */
#include "scenes/layout.h"

#include <math.h>
#include <string.h>

uint64_t layout_next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double layout_uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(layout_next_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}

sim_ring_pose layout_pose_at(double x, double y, double z)
{
    sim_ring_pose d;
    memset(&d, 0, sizeof d);
    d.rot[0] = d.rot[4] = d.rot[8] = 1.0;
    d.centre[0] = x;
    d.centre[1] = y;
    d.centre[2] = z;
    return d;
}

void layout_tilt(double rot[9], double yaw, double tilt)
{
    double ax = cos(yaw), ay = sin(yaw); /* unit axis (ax, ay, 0) */
    double c = cos(tilt), s = sin(tilt), t = 1.0 - c;
    double m[9] = {
        t * ax * ax + c, t * ax * ay,      ay * s,
        t * ax * ay,     t * ay * ay + c, -ax * s,
        -ay * s,         ax * s,           c,
    };
    memcpy(rot, m, sizeof m);
}

void layout_grid_place(int i, int n, double spacing, double *x, double *y)
{
    int cols = (int)ceil(sqrt((double)n));
    int rows = (n + cols - 1) / cols;
    *x = ((i % cols) - 0.5 * (cols - 1)) * spacing;
    *y = ((i / cols) - 0.5 * (rows - 1)) * spacing;
}

int layout_count(const scene_def *layout) { return layout->count; }

double layout_ring_reach(const dinghy_sim *sim)
{
    const sim_ring_def *r = &sim_get_def(sim)->ring;
    return r->major_radius + r->minor_radius;
}

double layout_margin(const dinghy_sim *sim)
{
    return sim_get_def(sim)->ring.contact_thickness;
}

sim_ring_id layout_add_clear(dinghy_sim *sim, sim_ring_pose *pose)
{
    const double step = sim_get_def(sim)->ring.minor_radius;
    /* every ring there is finite, so some height is clear; the cap (100 m
     * at the default tube) only guards against a state that is not finite */
    for (int k = 0; k < 400 && !sim_pose_clear(sim, pose, layout_margin(sim)); k++)
        pose->centre[2] += step;
    return sim_add_ring(sim, pose);
}
