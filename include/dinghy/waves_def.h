/* The definition of a wave layer (dinghy/waves.h reads one; docs/physics.md
 * section 14): its fields, defaults and check. The core's definitions
 * (defs.h) hold one; they need nothing of the layer's reading API. */
#ifndef DINGHY_WAVES_DEF_H
#define DINGHY_WAVES_DEF_H

#include "dinghy/problem.h"

/* How the wave layer is made. */
typedef struct {
    double cell;        /* side of the grid's square cells, m: waves shorter than
                           about 4 cells are not carried */
    double damping;     /* decay rate of the waves' motion, 1/s: a wave's energy
                           falls as exp(-damping t) */
    double sponge;      /* width of the absorbing margin along banks and open
                           edges, m */
    /* still water only (the river brings its own course, depth and banks): */
    double depth;       /* water depth, m */
    double centre[2];   /* centre of the rectangle the layer covers, m */
    double half[2];     /* its half sizes along x and y, m */
    int closed;         /* 1: its edges are walls that reflect; 0: they absorb */
} waves_def;

/* The defaults: cells of 0.15 m, damping 0.2 /s, a 1.5 m sponge; still
 * water 1.5 m deep over 40 x 40 m round the origin, absorbing edges. */
waves_def waves_def_default(void);

/* Checks every field (and that the grid it makes is not too large).
 * Writes at most max problems into out (may be NULL when max is 0), each
 * with the field's offset in waves_def (part 0); returns how many there
 * are in all (0 when valid). */
int waves_def_check(const waves_def *d, dinghy_problem *out, int max);

#endif
