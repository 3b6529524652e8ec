/* The dinghy physics core: a simulation's lifetime, its rings, the step
 * and reading the state. The other concerns have their own headers:
 * dinghy/events.h (contact starts, splashes, hits), dinghy/hands.h (grab,
 * throw, puncture, ray casts), dinghy/health.h (blow-ups, ring faults),
 * dinghy/profile.h (the tick's phase timers), dinghy/snapshot.h (copies
 * of the state to show on another thread).
 *
 * A simulation holds P rings, each an M x N torus grid of point masses
 * (M segments round the ring, N vertices round the tube). Vertex (m, n) of
 * ring p has the global index p*M*N + m*N + n. State is single precision,
 * stored as structure of arrays; every quantity is SI (m, s, kg, N).
 *
 * sim_step is OpenMP-parallel and deterministic: the state after any number
 * of steps is bit-identical for every thread count. Nothing here touches
 * files, GL or sound. */
#ifndef DINGHY_SIM_H
#define DINGHY_SIM_H

#include <stddef.h>
#include <stdint.h>

/* The definitions a simulation is created from. */
#include "dinghy/defs.h"
#include "dinghy/waves.h"

typedef struct dinghy_sim dinghy_sim;

/* Creates an empty simulation with room for `capacity` rings of def->ring
 * (at least 1), on still water, with the wave layer on it when
 * world.waves_enabled. The definition must pass sim_def_check. Returns
 * NULL when memory runs out, with a message in err. */
dinghy_sim *sim_create(const sim_def *def, int capacity, char *err, size_t err_len);
void sim_destroy(dinghy_sim *sim);

/* Bytes of heap a simulation of `rings` rings will hold (what sim_create
 * allocates, from the same table of arrays; sim_def_check asks it). */
size_t sim_memory_estimate(const sim_def *def, int rings);

/* Where and how a ring starts: the ring at rest (axis z, centred on the
 * origin; a membrane inflated by gas at its inflated shape) rotated, moved
 * and set moving as a whole. */
typedef struct {
    double centre[3];   /* m */
    double rot[9];      /* row-major rotation applied to the canonical torus */
    double velocity[3]; /* m/s, the same for every vertex */
} sim_ring_pose;

/* A ring's handle (as Box2D's b2BodyId): it names the same ring for as
 * long as the ring is there, whatever other rings are taken out. Taking
 * the ring out (or sim_clear_rings) makes it invalid; a slot's generation
 * tells a stale handle from the ring that took its slot later. The rings
 * also have dense indices 0 .. sim_ring_count - 1 (the order of the
 * arrays, of the tick's sums and of sim_rings), which shift down when a
 * ring before them is taken out: hold ids, not indices, across changes.
 * A zeroed id (SIM_RING_NONE) names no ring. */
typedef struct {
    int slot1;           /* slot + 1; 0: no ring */
    unsigned generation; /* of the slot when the ring was added */
} sim_ring_id;
#define SIM_RING_NONE ((sim_ring_id){0, 0u})

/* 1 while the ring the id names is there, else 0. */
int sim_ring_valid(const dinghy_sim *sim, sim_ring_id id);
/* The ring's dense index now, or -1 for an invalid id. */
int sim_ring_index(const dinghy_sim *sim, sim_ring_id id);
/* The id of the ring at dense index `index`, or SIM_RING_NONE out of range. */
sim_ring_id sim_ring_id_at(const dinghy_sim *sim, int index);
/* Whether two ids are the same handle. */
int sim_ring_id_equal(sim_ring_id a, sim_ring_id b);

/* Adds a ring at rest shape in the pose, at the end of the dense order;
 * returns its id, or SIM_RING_NONE when the simulation is full. */
sim_ring_id sim_add_ring(dinghy_sim *sim, const sim_ring_pose *pose);

/* Moves the ring, whole and at rest (inflated), to the pose (a re-drop). Returns
 * 0, or -1 for an invalid id. */
int sim_place_ring(dinghy_sim *sim, sim_ring_id ring, const sim_ring_pose *pose);

/* Removes every ring (their ids become invalid), flattens the waves and
 * sets the step count and time to zero (a scene is then built again with
 * sim_add_ring). */
void sim_clear_rings(dinghy_sim *sim);

/* Makes the water the river of world.river (docs/physics.md section 6): its
 * surface, current, rocks, banks and bed act on the rings from the next
 * step, rings past the downstream end are dropped in again upstream; a
 * wave layer is made again over the river's course, flat. Returns 0, or
 * -1 when the river or its layer cannot be built (invalid or no memory). */
int sim_enable_river(dinghy_sim *sim);

/* Rigid walls round still water: four vertical planes at x = +-half_x
 * and y = +-half_y (m) that no vertex passes; a vertex pushed back onto
 * one loses its speed into the wall and, by Coulomb friction (the river's
 * solids' coefficient, 0.5), up to 0.5 times that along it. A pen for a
 * pile (scenes/pile.c). Returns 0, or -1 when a size is not positive or
 * the water is a river. */
int sim_enable_pen(dinghy_sim *sim, double half_x, double half_y);
/* The pen's half sizes (m) into half_x, half_y; 0 when there is none. */
int sim_pen(const dinghy_sim *sim, double *half_x, double *half_y);
/* Puts a rigid, frictionless, horizontal floor at height z (m) under the
 * rings from the next step: a vertex below it is put back on it and loses
 * its downward speed (a contact of the position, as the river's solids;
 * docs/physics.md section 8's tyre-law test stands a ring on it). A floor
 * is part of the world the program sets up, as the river is: a checkpoint
 * does not keep it. Separate from the pen walls of a contact scene. */
void sim_enable_floor(dinghy_sim *sim, double z);

/* Takes the floor away again. */
void sim_disable_floor(dinghy_sim *sim);

/* The river, or NULL while the water is still and flat (read-only; valid
 * until the simulation is destroyed). */
const river_world *sim_river(const dinghy_sim *sim);

/* Puts the wave layer (docs/physics.md section 14, dinghy/waves.h) of def
 * on the water, as world.waves_enabled = 1 and world.waves = def would at
 * creation: over the river's course when there is a river, else over
 * def's rectangle of still water at world.water.level. The rings make
 * waves on it and ride them from the next step. The water starts flat
 * and at rest (a layer there was is replaced). Returns 0, or -1 (and no
 * layer, waves_enabled 0) when def fails waves_def_check or memory runs
 * out, with a message in err. sim_set_live with world.waves_enabled
 * changed does the same with the definition's world.waves. */
int sim_enable_waves(dinghy_sim *sim, const waves_def *def, char *err, size_t err_len);
/* Takes the wave layer away (world.waves_enabled = 0): the water is the
 * prescribed one again, with the same bits as a simulation that never had
 * a layer from the next step on. */
void sim_disable_waves(dinghy_sim *sim);
/* The wave layer, or NULL when there is none (read-only; valid until it
 * is taken away or the simulation destroyed). Its heights are on top of
 * the prescribed water that sim_water_at answers with. */
const waves_field *sim_waves(const dinghy_sim *sim);

/* The water at (x, y, z) (m) now: the one question renderer, sound and
 * dump ask of it (the river's surface and current, else the flat still
 * water at world.water.level). */
void sim_water_at(const dinghy_sim *sim, double x, double y, double z, dinghy_water_point *out);

/* Advances the state by `steps` steps of solver.dt (0 or less: none).
 * Returns the number of steps done: fewer than asked when the state blew
 * up (see sim_blowup). Every call starts a new list of events
 * (sim_events): the previous call's are gone. */
long sim_step(dinghy_sim *sim, long steps);

/* A saved copy of the dynamic state (the rings there are, positions,
 * velocities, gas and punctures, river progress, the waves, step count,
 * simulated time) and of the tunable parameters, to go back to after a
 * blow-up. sim_checkpoint_new allocates room for this simulation's
 * capacity and wave layer; save and restore allocate nothing (save does,
 * once, when the wave layer was put on or made larger since, and restore
 * when it puts the layer on again). restore returns -1 (and changes nothing)
 * when the checkpoint belongs to a simulation of another capacity; it
 * clears the blow-up, the pending events and the grab. The ring ids are
 * those of the rings at the save (ids handed out since are invalid). */
typedef struct sim_checkpoint sim_checkpoint;
sim_checkpoint *sim_checkpoint_new(const dinghy_sim *sim);
void sim_checkpoint_save(const dinghy_sim *sim, sim_checkpoint *cp);
int sim_checkpoint_restore(dinghy_sim *sim, const sim_checkpoint *cp);
void sim_checkpoint_free(sim_checkpoint *cp);

/* Changes the number of threads for later steps; 0 = all cores, and then
 * each step runs on all of them or on one, whichever the last probes
 * measured faster (another program busy on a core stalls every barrier;
 * a probe of the other count, 4 steps, every 60 steps). The state's bits
 * are the same either way. sim_threads: the count asked for (all cores
 * resolved); sim_step_threads: the last step's. */
void sim_set_threads(dinghy_sim *sim, int threads);
int sim_threads(const dinghy_sim *sim);
int sim_step_threads(const dinghy_sim *sim);

/* Substeps the last (or the coming) step is cut into: sim_def_substeps of the
 * definition in force, more while a membrane is stretched (docs/physics.md
 * section 2). */
int sim_substeps(const dinghy_sim *sim);

/* Enclosed volume of the ring's rest mesh, m^3. */
double sim_rest_volume(const dinghy_sim *sim);

/* Applies the live fields of def (those sim_field_is_live names: time
 * step, damping, gravity, water, stiffness, pressure, repulsion, the wave
 * layer on or off and its damping) to the running simulation; the others
 * are left as they were created. A layer put on starts flat (as
 * sim_enable_waves with the definition's world.waves). */
void sim_set_live(dinghy_sim *sim, const sim_def *def);
/* The definition in force: the creation one with the latest live fields. */
const sim_def *sim_get_def(const dinghy_sim *sim);

/* Sizes. */
int sim_ring_count(const dinghy_sim *sim);
int sim_ring_capacity(const dinghy_sim *sim);
int sim_segments(const dinghy_sim *sim);           /* M */
int sim_sides(const dinghy_sim *sim);              /* N */
size_t sim_vertex_count(const dinghy_sim *sim);    /* P*M*N of the rings there now */
size_t sim_spring_count(const dinghy_sim *sim);    /* distinct springs of the springs skin,
                                                      all rings (with the membrane: what
                                                      the seed skin would have, a mesh size) */
long sim_steps_done(const dinghy_sim *sim);
size_t sim_memory_bytes(const dinghy_sim *sim);    /* heap the simulation holds, bytes */
double sim_time(const dinghy_sim *sim);            /* simulated time, s */

/* Read-only view of the current state: positions (m) and velocities (m/s),
 * each an array of sim_vertex_count floats. Valid until the next step. */
typedef struct {
    const float *x, *y, *z;
    const float *vx, *vy, *vz;
} sim_state_view;
sim_state_view sim_state(const dinghy_sim *sim);

/* Unit outward vertex normals of the current state (area-weighted, from the
 * four grid neighbours), computed in parallel into the caller's arrays of
 * sim_vertex_count floats each. */
void sim_normals(const dinghy_sim *sim, float *nx, float *ny, float *nz);

/* FNV-1a 64 over the IEEE bytes of all positions (x, y, z per vertex, in
 * vertex order), then all velocities. */
uint64_t sim_hash(const dinghy_sim *sim);

/* What the tick publishes per ring about the current state (measured
 * once at the end of every sim_step call and when a ring is placed). */
typedef struct {
    double centre[3];   /* mean vertex position (the centre of mass), m */
    double velocity[3]; /* mean vertex velocity, m/s */
    double volume;      /* enclosed volume of the closed surface mesh, m^3 */
    double mean_depth;  /* mean over vertices of max(0, surface - z), m (the river's
                           surface in river scenes, else the level) */
    double min_z, max_z;/* lowest and highest vertex, m */
    double submerged_volume; /* volume of the closed mesh under the water surface, m^3 */
    double buoyancy_centre[3]; /* centre of that volume, m (the ring's centre when dry) */
    double wet_area;    /* skin under the water surface, m^2 (a membrane's rubber displaces
                           wet_area times its thickness more: docs/physics.md section 4) */
    double pressure;    /* absolute gas pressure p0 V0 / V the last substep pushed with
                           (V at its start), Pa; NaN for constant inflation */
    double gas_fraction;/* gas left of the amount at inflation (1 until punctured) */
    double hole_area;   /* total area of its punctures, m^2 */
    double leak;        /* gas escaping through them now, kg/s (negative: air in) */
    double travelled;   /* river: m along the course since the start, over re-drops */
    int respawns;       /* river: times dropped in again upstream */
    /* skin contact (docs/physics.md section 9), at the last substep */
    int contact_vertices; /* vertices another skin (or its own) pushed */
    double contact_force; /* sum over its vertices of |contact force|, N */
} sim_ring_state;
/* Array of sim_ring_count entries, valid until the next step or change. */
const sim_ring_state *sim_rings(const dinghy_sim *sim);

/* Removes the ring: its id becomes invalid, the other rings' ids stay
 * valid; the rings after it in the dense order move down one index
 * (their order, and so the run's determinism, is kept). A held ring is
 * let go. The events of the last step are dropped (they name indices).
 * Returns 0, or -1 for an invalid id. */
int sim_remove_ring(dinghy_sim *sim, sim_ring_id ring);

/* Total momentum (kg m/s) and kinetic energy (J), summed in vertex order. */
void sim_totals(const dinghy_sim *sim, double momentum[3], double *kinetic_energy);

#endif
