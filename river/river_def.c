/* The river definition: built-in defaults and range checks. */
#include "dinghy/river_def.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

river_def river_def_default(void)
{
    river_def d;
    memset(&d, 0, sizeof d);
    d.speed = 2.5;
    d.waves = 0.15;
    d.width = 12.0;
    d.depth = 1.5;
    d.length = 100.0;
    d.bend = 2.5;
    d.drop_height = 0.4;
    d.drop_length = 1.0;
    d.bank_height = 1.5;
    d.chop = 0.3;
    d.rocks = 6;
    d.drops = 3;
    d.seed = 1;
    return d;
}

/* ---- checks ---- */

/* A field that must lie in [lo, hi] (NaN fails too); the reason repeats the
 * field, value and range, so that it reads whole on its own. */
static void range(dinghy_problems *ps, size_t offset, const char *field, const char *quantity,
                  double v, double lo, double hi, const char *unit, const char *why)
{
    if (v >= lo && v <= hi)
        return;
    dinghy_problem *p = dinghy_problem_add(ps, 0, offset, quantity, v, lo, hi);
    if (p)
        snprintf(p->reason, sizeof p->reason, "%s = %g %s is outside [%g, %g] %s: %s", field, v,
                 unit, lo, hi, unit, why);
}

/* A count in [0, most] of the course length: the length is involved too. */
static void count(dinghy_problems *ps, size_t offset, const char *field, const char *quantity,
                  int v, double most, const char *why)
{
    if (v >= 0 && v <= most)
        return;
    dinghy_problem *p = dinghy_problem_add(ps, 0, offset, quantity, v, 0.0, most);
    if (!p)
        return;
    snprintf(p->reason, sizeof p->reason, "%s = %d is outside [0, %g]: %s", field, v, most, why);
    p->related = 1;
    p->related_offset[0] = offsetof(river_def, length);
}

#define F(f) offsetof(river_def, f), #f

int river_def_check(const river_def *d, dinghy_problem *out, int max)
{
    dinghy_problems ps = {out, out ? max : 0, 0};
    range(&ps, F(speed), "river speed", d->speed, 0.0, 8.0, "m/s", "from still water to fast rapids");
    range(&ps, F(waves), "wave amplitude", d->waves, 0.0, 1.0, "m", "larger waves would fold over");
    range(&ps, F(width), "river width", d->width, 4.0, 40.0, "m",
          "room for rings (2.1 m) and rocks, and banks close enough to see");
    range(&ps, F(depth), "river depth", d->depth, 0.5, 5.0, "m", "deep enough to float a ring");
    range(&ps, F(length), "course length", d->length, 30.0, 1000.0, "m",
          "room for the lead-in, bends and drops");
    range(&ps, F(bend), "bend radius", d->bend, 1.5, 20.0, "widths",
          "tighter bends fold the channel coordinates");
    range(&ps, F(drop_height), "drop height", d->drop_height, 0.0, 2.0, "m",
          "a step of the surface the chute can carry");
    range(&ps, F(drop_length), "drop length", d->drop_length, 0.3, 5.0, "m",
          "a drop steeper than this is a waterfall");
    range(&ps, F(bank_height), "bank height", d->bank_height, 0.3, 5.0, "m",
          "banks must stand above the water");
    range(&ps, F(chop), "chop", d->chop, 0.0, 1.0, "", "fraction of the wave amplitude");
    double maxdrops = floor(d->length / 15.0);
    if (maxdrops > 8) maxdrops = 8;
    count(&ps, F(drops), "drop count", d->drops, maxdrops,
          "at most one drop per 15 m of course, 8 in all");
    double maxrocks = floor(d->length / 6.0);
    if (maxrocks > 200) maxrocks = 200;
    count(&ps, F(rocks), "rock count", d->rocks, maxrocks,
          "at most one rock per 6 m of course, 200 in all");
    return ps.count;
}
