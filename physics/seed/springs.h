/* The spring kernel: every spring of a block of rows evaluated once.
 *
 * A block of nb consecutive rows (segments) of one ring is copied, with h
 * = B/2 halo rows on each side and h wrapped ghost columns on each side of
 * every row, into a padded scratch grid of width W = N + 2h. In that grid a
 * spring offset (i, j) is one constant linear distance D = i W + j, so each
 * spring direction is a single long loop the compiler vectorises. Only the
 * "positive" half of the offsets is evaluated (i > 0, or i = 0 and j > 0,
 * plus the across-tube spring from the first half of the tube): each spring
 * once, its force added to its source and subtracted from its target. Ghost
 * columns collect the forces on wrapped targets and are folded back.
 *
 * Every vertex receives its contributions in the same order whatever the
 * block boundaries are (offset by offset; source before target; folds
 * last), so splitting a ring between threads changes no bit. */
#ifndef DINGHY_SPRINGS_H
#define DINGHY_SPRINGS_H

#include <stddef.h>

#include "physics/world/shape.h"

typedef struct {
    int M, N, h, W;      /* segments, sides, halo, padded row width */
    int slack;           /* zeros kept before the spring forces and after the
                            grid, for targets and sources off either end */
    int max_rows;        /* largest block the scratch is sized for, rows */
    int noff;            /* evaluated offsets: the positive half plus across */
    int *D;              /* linear offset of each in the padded grid */
    const float **mask;  /* 1 where a grid position is a source of offset o, else 0 */
    float *rest;         /* rest length by source position, [o * src_len + L] */
    float *mask_src, *mask_across;
    size_t src_len;      /* source positions of the largest block: (max_rows + h) W */
} spring_plan;

/* Builds the plan for a shape; -1 when out of memory. */
int spring_plan_init(spring_plan *plan, const torus_shape *shape);
void spring_plan_free(spring_plan *plan);

/* Fills the sizes of the plan of an M x N, band B shape without
 * allocating (what spring_plan_init starts from); returns the floats of
 * per-thread scratch spring_block needs. */
size_t spring_plan_dims(spring_plan *plan, int M, int N, int B);

/* Bytes the plan of an M x N, band B shape holds (not the scratch). */
size_t spring_plan_bytes(int M, int N, int B);

/* Floats of per-thread scratch spring_block needs. */
size_t spring_scratch_floats(const spring_plan *plan);

/* Spring forces (N) on rows a .. a+nb-1 (ring indices, nb <= max_rows) of
 * the ring whose positions are x, y, z (M*N floats each, m). On return
 * f[0..2] point into scratch at the x, y, z forces: row r of the block,
 * tube index n, is at f[c][r * W + h + n]. */
void spring_block(const spring_plan *plan, float k, const float *x, const float *y,
                  const float *z, int a, int nb, float *scratch, float *f[3]);

#endif
