/* The wave layer in a simulation (docs/physics.md section 14): the rings
 * make waves and ride them. Private to the core (and the tests).
 *
 * Making waves, once a step (waves_couple_step): each row of each ring
 * (one segment: its 2N faces between two rings of vertices) displaces
 * V_row = -sum over its faces of the integral over the face's wet part of
 * (depth n_z) dA, the water column over its wet skin, depth measured from
 * the row's water plane (the plane the buoyancy clips with, section 6);
 * summed over a closed skin it is the submerged volume exactly (the
 * divergence theorem on (0, 0, z - eta); the waterline's cap adds 0). Its
 * change since the last step, dV, is added to the layer beside the tube
 * (half on each side, just beyond its water line): the water a ring pushes
 * aside rises round it, so the layer's volume less the rings' displaced
 * volume stays what it was. Measured against the water with the waves in
 * it, a ring that rides a wave makes none, one held in it sends part back. A row that
 * moved more than a metre in a step (a re-drop, a ring placed) takes its
 * old volume away where it was and puts its new one where it is. Then the
 * layer steps.
 *
 * Riding the waves (water_sample_row, water_rows.c): the row's water plane
 * gets the waves' height, slope and surface velocity at its centre, so the
 * clip, the hydrostatic pressure and the drag see the water with the
 * waves in it. */
#ifndef DINGHY_WAVES_COUPLE_H
#define DINGHY_WAVES_COUPLE_H

#include "physics/world/sim_internal.h"

/* The layer and what each row last displaced. water_rows.c reads `layer`
 * (the waves at a row: waves_sample). */
struct waves_coupling {
    waves_field *layer;
    size_t rows;          /* room: the capacity's rows */
    double *now, *before; /* displaced volume per row, this step and the last, m^3 */
    double *where;        /* 2 per row: its centre at the last step, m */
    int *slot;            /* per row: its ring's slot then (-1: not seen) ... */
    unsigned *generation; /* ... and the slot's generation: the ring's id */
};

/* The simulation's wave layer, to feed and step, or NULL. */
waves_field *sim_waves_layer(dinghy_sim *sim);

/* Frees the coupling (the layer and its per-row volumes); NULL is fine. */
void waves_coupling_free(waves_coupling *c);

/* The rows' displaced volumes now, into vol (m^3, sim->nrows of them;
 * rows in parallel on `threads` threads, the same bits on any count). */
void waves_row_volumes(const dinghy_sim *sim, double *vol, int threads);

/* After a step of dt (s): each row's change of displaced volume into the
 * layer, in row order, then the layer stepped by dt. Nothing without a
 * layer. */
void waves_couple_step(dinghy_sim *sim, double dt);

#endif
