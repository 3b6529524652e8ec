/* The spray definition: defaults and the check of every field. */
#include "dinghy/spray.h"

#include <stddef.h>
#include <stdio.h>

/* A field that must lie in [lo, hi] (NaN fails both). */
static void range(dinghy_problems *ps, size_t offset, const char *name, double v, double lo,
                  double hi)
{
    if (v >= lo && v <= hi)
        return;
    dinghy_problem *p = dinghy_problem_add(ps, 0, offset, name, v, lo, hi);
    if (p)
        snprintf(p->reason, sizeof p->reason, "%s = %g: allowed %g .. %g", name, v, lo, hi);
}

spray_def spray_def_default(void)
{
    spray_def d = {
        .budget = 4096,
        .drag_rate = 1.5,   /* droplets of a few mm: terminal speed about 6.5 m/s */
        .restitution = 0.3, /* water beads off a wet skin with little bounce */
        .friction = 0.2,
        .lifetime = 3.0,
        .size = 0.05,       /* a billboard stands for a puff of droplets: seen from afar */
        .splash_gain = 0.5,
        .hit_gain = 20.0,
        .event_max = 200,
        .throw_ratio = 0.8,
        .river_rate = 8.0,
        .spot_spacing = 1.0,
        .max_spots = 512,
        .max_rows = 65536,
    };
    return d;
}

#define F(f) offsetof(spray_def, f)

int spray_def_check(const spray_def *d, dinghy_problem *out, int max)
{
    dinghy_problems ps = {out, out ? max : 0, 0};
    range(&ps, F(budget), "budget", d->budget, 1, 1 << 24);
    range(&ps, F(drag_rate), "drag_rate (1/s)", d->drag_rate, 0.0, 100.0);
    range(&ps, F(restitution), "restitution", d->restitution, 0.0, 1.0);
    range(&ps, F(friction), "friction", d->friction, 0.0, 1.0);
    range(&ps, F(lifetime), "lifetime (s)", d->lifetime, 1e-3, 600.0);
    range(&ps, F(size), "size (m)", d->size, 0.0, 1.0);
    range(&ps, F(splash_gain), "splash_gain (1/(m/s))", d->splash_gain, 0.0, 1e3);
    range(&ps, F(hit_gain), "hit_gain (1/(m/s))", d->hit_gain, 0.0, 1e4);
    range(&ps, F(event_max), "event_max", d->event_max, 0, 1 << 20);
    range(&ps, F(throw_ratio), "throw_ratio", d->throw_ratio, 0.0, 10.0);
    range(&ps, F(river_rate), "river_rate (1/s/(m/s))", d->river_rate, 0.0, 1e4);
    range(&ps, F(spot_spacing), "spot_spacing (m)", d->spot_spacing, 0.05, 100.0);
    range(&ps, F(max_spots), "max_spots", d->max_spots, 0, 1 << 20);
    range(&ps, F(max_rows), "max_rows", d->max_rows, 3, 1 << 24);
    return ps.count;
}
