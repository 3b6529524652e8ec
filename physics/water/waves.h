/* The wave layer as the core makes, steps and feeds it (docs/physics.md
 * section 14); reading it is public (dinghy/waves.h).
 *
 * The model, in short: the waves' height h and the velocity potential phi
 * of the water at the surface, on a grid of square cells, follow the
 * linear water-wave equations
 *   h_t + U . grad h = K phi,      phi_t + U . grad phi = -g h - damping phi,
 * K the operator whose symbol is k tanh(k d) (the dispersion of water of
 * depth d: omega^2 = g k tanh(k d)), U the river's surface current. K is a
 * pair kernel with non-negative weights (waves_kernel.h): it keeps the
 * volume and is stable with any walls. The step is symplectic Euler (h
 * from phi, then phi from the new h), after a semi-Lagrangian advection
 * by U; it runs as many substeps as the bound g dt^2 lambda_max < 4 asks.
 * Deterministic: every cell's sum runs in a fixed order, rows are shared
 * by threads without any write to another's, so any thread count gives
 * the same bits. */
#ifndef DINGHY_WAVES_PRIVATE_H
#define DINGHY_WAVES_PRIVATE_H

#include <stddef.h>

#include "dinghy/river.h"
#include "dinghy/waves.h"

/* Makes a wave layer over still water (river NULL: the rectangle of def)
 * or over the river's course (the course's water, its banks, rocks and
 * depth; def's still-water fields unused). The water starts flat and at
 * rest. The river must outlive the layer. NULL with a message in err when
 * def fails waves_def_check or memory runs out. */
waves_field *waves_create(const waves_def *def, const river_world *river, char *err,
                          size_t err_len);
/* waves_create, the kernel taken from the layer `like` (NULL: none) when
 * it was fitted to the same depth and cell rather than fitted again (the
 * fit is deterministic: the same bits; a scene's river replaces the still
 * water's layer with one fitted the same). */
waves_field *waves_create_like(const waves_def *def, const river_world *river,
                               const waves_field *like, char *err, size_t err_len);
void waves_destroy(waves_field *w);

/* Advances the waves by dt (s) under gravity g (m/s^2) on `threads`
 * threads (0: OpenMP's default), in as many equal substeps as stability
 * needs (waves_substeps). */
void waves_step(waves_field *w, double dt, double gravity, int threads);

/* Substeps waves_step cuts dt into: the fewest with g h^2 lambda_max < 4
 * times SAFETY^2 (lambda_max by Gershgorin: twice the kernel's sum). */
int waves_substeps(const waves_field *w, double dt, double gravity);

/* Adds `volume` (m^3; negative takes away) to the water at (x, y),
 * spread over the wet cells within `radius` (m) of it by the weight
 * (1 - r^2/radius^2)^2, or over the four nearest when radius is under a
 * cell: the height rises by volume times the cell's share over its area.
 * Returns the volume added (0 where no cell near is wet). Serial. */
double waves_add_volume(waves_field *w, double x, double y, double radius, double volume);

/* A spread's cells and weights as waves_add_volume_kept keeps them, to
 * read the waves back by the same weights (waves_print_mean) without
 * weighing again: up to WAVES_PRINT_CELLS of them (rows of `width`, a
 * multiple of 8, from cell (i0, j0)); rows 0 when the spread was not
 * kept (a larger one, one over the four nearest cells, or none wet). */
#define WAVES_PRINT_CELLS 64
typedef struct {
    int i0, j0, width, rows;
    double total;                     /* the sum of the weights */
    float weight[WAVES_PRINT_CELLS];
} waves_print;

/* waves_add_volume, keeping the spread's weights in *kept (kept->rows 0
 * when it cannot). */
double waves_add_volume_kept(waves_field *w, double x, double y, double radius, double volume,
                             waves_print *kept);

/* waves_mean_height where the spread `kept` was made, by its weights: the
 * same number as waves_mean_height there (m). kept->rows must be > 0. */
double waves_print_mean(const waves_field *w, const waves_print *kept);

/* Asks the memory for the layer's cells within `radius` (m) of (x, y)
 * that the coupling reads and writes there (height, depth factor,
 * current), ahead of their use: a hint, changes nothing. */
void waves_prefetch(const waves_field *w, double x, double y, double radius);

/* The height of the waves at (x, y) (m), bilinear between the four cell
 * centres round it (0 off the layer and on dry cells): the weights
 * waves_add_volume spreads a point's volume by when its radius is under a
 * cell, so reading where one adds is reciprocal to adding. */
double waves_height(const waves_field *w, double x, double y);

/* The mean height of the waves (m) round (x, y) by the weights
 * waves_add_volume spreads volume with at that radius (m), over the wet
 * cells: reading where one adds, by the same weights, is reciprocal to
 * adding. 0 where no cell near is wet. */
double waves_mean_height(const waves_field *w, double x, double y, double radius);

/* Moves the point (x, y) (m) where the layer's current carries it in dt
 * (s): by the surface current at it (bilinear, the river's at its live
 * speed, as the step's advection); unmoved on still water. */
void waves_carry(const waves_field *w, double dt, double *x, double *y);

/* Flattens the water and stops it. */
void waves_reset(waves_field *w);

/* Sets the decay rate of the waves' motion (1/s, the definition's
 * damping) for the steps after. */
void waves_set_damping(waves_field *w, double damping);

/* The heights h (m) of the padded grid: the cells and the dry margin
 * round them (waves_grid_view's `height` lies within), count floats in
 * all; what a view of the simulation copies to draw. */
float *waves_heights(waves_field *w, size_t *count);

/* The layer's state, what its next step reads (heights, potentials and
 * the rows' sums): its size in bytes, a copy out to `out` and back from
 * `in` (a copy of a layer made from the same definition and water). */
size_t waves_state_bytes(const waves_field *w);
void waves_state_save(const waves_field *w, unsigned char *out);
void waves_state_load(waves_field *w, const unsigned char *in);

/* Depth the kernel was fitted to (m): the water's, at most
 * WAVES_DEPTH_CELLS cells (deeper water's long waves travel as this
 * deep's); and the largest relative error of the phase speed over the
 * wave numbers the fit covers. */
double waves_model_depth(const waves_field *w);
double waves_model_error(const waves_field *w);

/* The phase speed (m/s) of a plane wave of wave number k (1/m) along
 * direction angle (rad from x) on the layer's open grid at full depth,
 * under gravity g: sqrt(g lambda(k)) / k (what the tests compare with
 * the water's own sqrt(g tanh(k d) / k)). */
double waves_model_speed(const waves_field *w, double k, double angle, double gravity);

#endif
