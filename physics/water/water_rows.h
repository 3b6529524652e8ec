/* The water as the rows see it (docs/physics.md section 6). Private. */
#ifndef DINGHY_WATER_ROWS_H
#define DINGHY_WATER_ROWS_H

#include "physics/world/sim_internal.h"

/* How often the water is sampled at the rows, s: once a 60 Hz step
 * (docs/physics.md section 6: the surface moves a few millimetres between
 * samples, and a row's plane carries its own move; sampling every 8 ms
 * cost 5% more of the rapids' step for no closed form's difference). */
#define RIVER_SAMPLE_S (1.0 / 60.0)

/* 1 when the river is sampled at the rows on substep k of step `step`
 * (substeps of h seconds, `substeps` a step): every round(RIVER_SAMPLE_S /
 * h) substeps (at least 1) of the whole run, counted from substep 0 of
 * step 0; 1 ms steps of one substep: every 17th step's. */
int water_sample_due(long step, int substeps, int k, double h);

/* Samples the water for row r of the current state (its centre cx..cz must
 * be up to date): the river, or the flat still water. */
void water_sample_row(dinghy_sim *sim, size_t row);

/* Height of the water surface (m) at (x, y) as row r sees it: the river's
 * surface as the row's plane, or the still water's level. */
double water_height_at(const dinghy_sim *sim, size_t row, double x, double y);

/* Keeps the vertices of a row near a solid out of it (docs/physics.md section 6:
 * pushed out along the distance gradient, the inward velocity removed,
 * Coulomb friction on the tangential one). Returns the fastest inward
 * speed removed, m/s. */
float water_contacts_row(const dinghy_sim *sim, float *x, float *y, float *z, float *vx,
                         float *vy, float *vz, size_t row);

/* The pen's walls (sim_enable_pen) on the n vertices at x, y, z with
 * velocities vx, vy, vz: each outside is put back on the wall, its speed
 * into it removed, its speed along it cut by Coulomb friction. */
void pen_contacts(const pen_walls *pen, int n, float *x, float *y, float *z, float *vx,
                  float *vy, float *vz);

/* The rigid, frictionless floor at height fz (m; sim_enable_floor) under
 * the n vertices at heights z with vertical velocities vz: each below is
 * put back on it and loses its downward speed. */
void floor_contacts(float fz, int n, float *z, float *vz);

#endif
