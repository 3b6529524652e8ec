/* The wave layer: small waves h(x, y, t) on top of the water's prescribed
 * surface (the river's, or the still water's level), made by what goes in
 * and out of the water and carried by the river's flow (docs/physics.md
 * section 14). What is public: its definition and check (dinghy/waves_def.h),
 * and reading it (the height, slope and surface velocity at a point; the
 * grid for the renderer; its volume and energy). The core makes and steps it.
 *
 * Coordinates: z up, x/y horizontal, SI. Every read is thread-safe
 * against other reads and must not run while the layer steps. */
#ifndef DINGHY_WAVES_H
#define DINGHY_WAVES_H

#include <stddef.h>

#include "dinghy/waves_def.h"

/* A wave layer, opaque. */
typedef struct waves_field waves_field;

/* The waves at a point: what they add to the prescribed water there. */
typedef struct {
    double height;      /* h: height of the waves above the prescribed surface, m */
    double slope[2];    /* dh/dx, dh/dy (dimensionless) */
    double velocity[2]; /* horizontal velocity of the water at the surface that the
                           waves move (their orbital motion, not the river's
                           current), m/s */
} waves_point;

/* The waves at (x, y) (m), interpolated between cell centres; zero off
 * the layer and over dry cells. */
void waves_sample(const waves_field *w, double x, double y, waves_point *out);

/* The layer's grid, for the renderer: nx x ny square cells of side cell
 * (m); cell (i, j) has its centre at (x0 + (i + 1/2) cell, y0 + (j + 1/2)
 * cell) and its height h (m) at height[j * stride + i]. Dry cells hold 0.
 * Valid until the layer is destroyed; the values change as it steps. */
typedef struct {
    int nx, ny;
    double x0, y0, cell;  /* m */
    size_t stride;        /* floats from one row to the next */
    const float *height;  /* cell (0, 0) */
} waves_grid;
waves_grid waves_grid_view(const waves_field *w);

/* The water the waves hold: the integral of h over the layer, m^3
 * (summed in row order, in double). Kept by the step to round-off with
 * closed walls and no damping at the sponge. */
double waves_volume(const waves_field *w);

/* The waves' energy per unit water density, m^5/s^2 (times rho, J):
 * potential g/2 * integral of h^2 plus kinetic 1/2 * integral of phi K phi
 * (docs/physics.md section 14). */
double waves_energy(const waves_field *w, double gravity);

#endif
