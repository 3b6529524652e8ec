/* The river definition: built-in defaults and range checks. */
#include "river.h"

#include <math.h>
#include <stdarg.h>
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

typedef struct {
    char *msg;
    size_t len, used;
    int count;
} problems;

static void problem(problems *p, const char *fmt, ...)
{
    p->count++;
    if (!p->msg || p->used + 1 >= p->len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p->msg + p->used, p->len - p->used, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    p->used += (size_t)n;
    if (p->used >= p->len) { p->used = p->len - 1; return; }
    if (p->used + 1 < p->len) { p->msg[p->used++] = '\n'; p->msg[p->used] = '\0'; }
}

static void range(problems *p, const char *field, double v, double lo, double hi,
                  const char *unit, const char *why)
{
    if (!(v >= lo && v <= hi))
        problem(p, "%s = %g %s is outside [%g, %g] %s: %s", field, v, unit, lo, hi, unit, why);
}

int river_def_check(const river_def *d, char *msg, size_t len)
{
    problems p = { msg, len, 0, 0 };
    if (msg && len) msg[0] = '\0';
    range(&p, "speed", d->speed, 0.0, 8.0, "m/s", "from still water to fast rapids");
    range(&p, "waves", d->waves, 0.0, 1.0, "m", "larger waves would fold over");
    range(&p, "width", d->width, 4.0, 40.0, "m", "room for rings (2.1 m) and rocks, and banks close enough to see");
    range(&p, "depth", d->depth, 0.5, 5.0, "m", "deep enough to float a ring");
    range(&p, "length", d->length, 30.0, 1000.0, "m", "room for the lead-in, bends and drops");
    range(&p, "bend", d->bend, 1.5, 20.0, "widths", "tighter bends fold the channel coordinates");
    range(&p, "drop_height", d->drop_height, 0.0, 2.0, "m", "a step of the surface the chute can carry");
    range(&p, "drop_length", d->drop_length, 0.3, 5.0, "m", "a drop steeper than this is a waterfall");
    range(&p, "bank_height", d->bank_height, 0.3, 5.0, "m", "banks must stand above the water");
    range(&p, "chop", d->chop, 0.0, 1.0, "", "fraction of the wave amplitude");
    double maxdrops = floor(d->length / 15.0);
    if (maxdrops > 8) maxdrops = 8;
    if (d->drops < 0 || d->drops > maxdrops)
        problem(&p, "drops = %d is outside [0, %g]: at most one drop per 15 m of course, 8 in all",
                d->drops, maxdrops);
    double maxrocks = floor(d->length / 6.0);
    if (maxrocks > 200) maxrocks = 200;
    if (d->rocks < 0 || d->rocks > maxrocks)
        problem(&p, "rocks = %d is outside [0, %g]: at most one rock per 6 m of course, 200 in all",
                d->rocks, maxrocks);
    return p.count;
}
