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
 * gets the waves' height beside its tube (where its own water went:
 * waves_row_height), and their slope and surface velocity at its centre,
 * so the clip, the hydrostatic pressure and the drag see the water with
 * the waves in it. */
#ifndef DINGHY_WAVES_COUPLE_H
#define DINGHY_WAVES_COUPLE_H

#include "physics/water/waves.h"
#include "physics/world/sim_internal.h"

/* The layer and what each row last displaced. water_rows.c reads `layer`
 * (the waves at a row: waves_sample). */
struct waves_coupling {
    waves_field *layer;
    size_t rows;          /* room: the capacity's rows */
    double *now, *before; /* displaced volume per row, this step and the last, m^3 */
    double *where;        /* 2 per row: its centre at the last step, m */
    double *outward;      /* 2 per row: the unit horizontal from its ring's centre to
                             it at the last step: where its water went, and where
                             it reads the waves' height (waves_row_height) */
    double *plane;        /* 3 per row: what the waves added to its water plane at
                             its last sample: height (m) and slope along x, y */
    int *slot;            /* per row: its ring's slot then (-1: not seen) ... */
    unsigned *generation; /* ... and the slot's generation: the ring's id */
    double *read;         /* per row: the waves' height beside it after the last step,
                             read where its water went in (m; NaN: none went in), for
                             waves_row_height while the row is where it was then */
    waves_print *print;   /* 2 per row: the spreads its water went in by this step
                             (scratch of waves_couple_step) */
};

/* The simulation's wave layer, to feed and step, or NULL. */
waves_field *sim_waves_layer(dinghy_sim *sim);

/* Where a row's change of displaced volume goes, in tube radii: half on
 * each side of the tube (toward and away from the ring's centre), this
 * far from the tube's centre line, just beyond its water line, each onto
 * a disc round its point (WAVES_SPREAD). Not under the tube: the layer's
 * height there is what the tube's own clip reads, and water put there
 * would lift the row that put it by a share of its own sinking every step. */
#define WAVES_BESIDE 1.5
/* The radius, in tube radii, it is spread over there (and the waves'
 * height read back with the same weights): wide enough that the water it
 * raises is not one cell's hump that the row feels again a step later as
 * a stiff spring held a step late (with 4 cells a 150 kg ring's bob grew;
 * with 2 tube radii it decays: docs/physics.md section 14). */
#define WAVES_SPREAD 2.0
/* Rows that make waves together: this many consecutive rows of a ring
 * put their displaced volume in (and read the waves back) as one, from
 * their mean centre. Their spreads, 2 tube radii, overlap by far more
 * than the rows lie apart (a ring of 32 rows: 0.17 m), so the water goes
 * in where it did; a row's 6 spreads a step were most of the layer's
 * cost (docs/physics.md section 14, "Cost"). */
#define WAVES_GROUP 2
/* How far a row may be from where the last step read the waves beside it
 * for that reading to stand, m (its centre is summed in floats by the
 * tick and in doubles by the coupling: they differ by about 1e-5 m). */
#define WAVES_READ_MOVE 1e-3

/* 1 when row r holds the ring it held at the last step (its slot and
 * the slot's generation: the ring's id). */
static inline int waves_row_seen(const dinghy_sim *s, const waves_coupling *c, size_t r)
{
    const int slot = s->ring_slot[r / (size_t)s->M];
    return r < c->rows && slot == c->slot[r] && s->slot_gen[slot] == c->generation[r];
}

/* Frees the coupling (the layer and its per-row volumes); NULL is fine. */
void waves_coupling_free(waves_coupling *c);

/* Makes the simulation's wave layer what its definition says
 * (world.waves_enabled, world.waves): made when it is on and there is
 * none, or made again when `rebuild` (a new river); taken away when it is
 * off; its damping the definition's. When the layer came or went, the rows
 * sample the water again. Returns 0, or -1 with a message in err (then
 * there is no layer and world.waves_enabled is 0). */
int waves_follow_def(dinghy_sim *sim, int rebuild, char *err, size_t err_len);

/* Flattens the layer and forgets what the rows displaced (a scene begun
 * again: the rings there next start from what they displace). */
void waves_coupling_reset(waves_coupling *c);

/* The coupling's state, for a checkpoint: the layer's (waves_state_bytes)
 * and, per row, what it displaced at the last step, where, and for which
 * ring. Its size in bytes, a copy out, and back in (into the coupling of a
 * layer made from the same definition and water, with as many rows). */
size_t waves_coupling_bytes(const waves_coupling *c);
void waves_coupling_save(const waves_coupling *c, unsigned char *out);
void waves_coupling_load(waves_coupling *c, const unsigned char *in);

/* The waves' height row r reads (m), its centre at (x, y): the mean of the
 * heights at the two points beside its tube where its displaced water
 * goes, by the same weights (the coupling is reciprocal: what a row puts
 * in and what it feels are one pair, so the water cannot feed a bobbing
 * ring energy); at its centre for a row not seen at the last step. A row
 * within WAVES_READ_MOVE of where the last step left it takes what the
 * step read there by its spreads' own weights (`read`), without weighing
 * again. */
double waves_row_height(const dinghy_sim *sim, size_t row, double x, double y); /* waves_read.c */

/* The rows' displaced volumes now, into vol (m^3, sim->nrows of them;
 * rows in parallel on `threads` threads, the same bits on any count). */
void waves_row_volumes(const dinghy_sim *sim, double *vol, int threads);

/* After a step of dt (s): each row's change of displaced volume into the
 * layer, in row order, then the layer stepped by dt (on the step's
 * threads: the same bits on any count). Nothing without a layer. */
void waves_couple_step(dinghy_sim *sim, double dt);

#endif
