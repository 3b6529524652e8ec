/* The wave layer's definition: defaults and range checks. */
#include "dinghy/waves.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

waves_def waves_def_default(void)
{
    return (waves_def){.cell = 0.15, .damping = 0.2, .sponge = 1.5, .depth = 1.5,
                       .centre = {0.0, 0.0}, .half = {20.0, 20.0}, .closed = 0};
}

/* A field that must lie in [lo, hi] (NaN fails too). */
static void range(dinghy_problems *ps, size_t offset, const char *quantity, double v, double lo,
                  double hi, const char *unit, const char *why)
{
    if (v >= lo && v <= hi)
        return;
    dinghy_problem *p = dinghy_problem_add(ps, 0, offset, quantity, v, lo, hi);
    if (p)
        snprintf(p->reason, sizeof p->reason, "%s = %g %s is outside [%g, %g] %s: %s", quantity,
                 v, unit, lo, hi, unit, why);
}

/* Cells the still water's rectangle would take at most. */
#define MOST_CELLS 6.0e6

int waves_def_check(const waves_def *d, dinghy_problem *out, int max)
{
    dinghy_problems ps = {out, out ? max : 0, 0};
    range(&ps, offsetof(waves_def, cell), "wave cell", d->cell, 0.02, 1.0, "m",
          "waves shorter than about 4 cells are not carried, and a ring is 2 m across");
    range(&ps, offsetof(waves_def, damping), "wave damping", d->damping, 0.0, 100.0, "1/s",
          "from waves that run on to ones gone in a hundredth of a second");
    range(&ps, offsetof(waves_def, sponge), "wave sponge", d->sponge, 0.0, 20.0, "m",
          "an absorbing margin up to 20 m wide");
    range(&ps, offsetof(waves_def, depth), "still water depth", d->depth, 0.05, 1000.0, "m",
          "water at least as deep as the layer's dry limit");
    for (int k = 0; k < 2; k++)
        range(&ps, offsetof(waves_def, half) + (size_t)k * sizeof(double),
              k ? "wave area half size y" : "wave area half size x", d->half[k], 0.5, 500.0, "m",
              "room for a ring, and at most a kilometre across");
    if (ps.count == 0 && (2.0 * d->half[0] / d->cell) * (2.0 * d->half[1] / d->cell) > MOST_CELLS) {
        dinghy_problem *p = dinghy_problem_add(&ps, 0, offsetof(waves_def, cell), "wave cell",
                                               d->cell, NAN, NAN);
        if (p) {
            snprintf(p->reason, sizeof p->reason,
                     "wave cell = %g m over %g x %g m makes more than %g cells: take larger "
                     "cells or a smaller area", d->cell, 2.0 * d->half[0], 2.0 * d->half[1],
                     MOST_CELLS);
            p->related = 1;
            p->related_offset[0] = offsetof(waves_def, half);
        }
    }
    return ps.count;
}
