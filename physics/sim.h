/* The dinghy physics core: the whole public API.
 *
 * A simulation holds P dinghies, each an M x N torus grid of point masses
 * (M segments round the ring, N vertices round the tube). Vertex (m, n) of
 * dinghy p has the global index p*M*N + m*N + n. State is single precision,
 * stored as structure of arrays; every quantity is SI (m, s, kg, N).
 *
 * sim_step is OpenMP-parallel and deterministic: the state after any number
 * of steps is bit-identical for every thread count. Nothing here touches
 * files, GL or sound. */
#ifndef DINGHY_SIM_H
#define DINGHY_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "defs.h"

typedef struct dinghy_sim dinghy_sim;

/* Speed above which a vertex counts as runaway (a blow-up), m/s. */
#define SIM_RUNAWAY_SPEED 1000.0

/* Creates an empty simulation with room for `capacity` rings of def->ring
 * (at least 1). The definition must pass sim_def_check. Returns NULL when
 * memory runs out, with a message in err. */
dinghy_sim *sim_create(const sim_def *def, int capacity, char *err, size_t err_len);
void sim_destroy(dinghy_sim *sim);

/* Bytes of heap a simulation of `rings` rings will hold (what sim_create
 * allocates, from the same table of arrays; sim_def_check asks it). */
size_t sim_memory_estimate(const sim_def *def, int rings);

/* Where and how a ring starts: the undeformed ring (axis z, centred on
 * the origin) rotated, moved and set moving as a whole. */
typedef struct {
    double centre[3];   /* m */
    double rot[9];      /* row-major rotation applied to the canonical torus */
    double velocity[3]; /* m/s, the same for every vertex */
} ring_pose;

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
sim_ring_id sim_add_ring(dinghy_sim *sim, const ring_pose *pose);

/* Moves the ring, whole and undeformed, to the pose (a re-drop). Returns
 * 0, or -1 for an invalid id. */
int sim_place_ring(dinghy_sim *sim, sim_ring_id ring, const ring_pose *pose);

/* Removes every ring (their ids become invalid) and sets the step count
 * and time to zero (a scene is then built again with sim_add_ring). */
void sim_clear_rings(dinghy_sim *sim);

/* Makes the water the river of world.river (physics.md section 6): its
 * surface, current, rocks, banks and bed act on the rings from the next
 * step, rings past the downstream end are dropped in again upstream.
 * Returns 0, or -1 when the river cannot be built (invalid or no memory). */
int sim_enable_river(dinghy_sim *sim);

/* The river, or NULL while the water is still and flat (read-only; valid
 * until the simulation is destroyed). */
const river_world *sim_river(const dinghy_sim *sim);

/* The water at (x, y, z) (m) now: the one question renderer, sound and
 * dump ask of it (the river's surface and current, else the flat still
 * water at world.water.level). */
void sim_water_at(const dinghy_sim *sim, double x, double y, double z, water_point *out);

/* Advances the state by `steps` steps of solver.dt (0 or less: none).
 * Returns the number of steps done: fewer than asked when the state blew
 * up (see sim_blowup). Every call starts a new list of events
 * (sim_events): the previous call's are gone. */
long sim_step(dinghy_sim *sim, long steps);

/* A ring is whole when its enclosed volume is between SIM_MIN_VOLUME and
 * SIM_MAX_VOLUME times its rest volume (so it is not turned inside out,
 * crushed or blown up like a balloon), no grid edge of its skin is longer
 * than SIM_MAX_STRETCH times its rest length (not torn), and every vertex
 * is within SIM_WORLD_SIZE of the origin. sim_step checks every ring at
 * the end of each call and reports a ring that is not as a blow-up. */
#define SIM_MIN_VOLUME 0.25
#define SIM_MAX_VOLUME 4.0
#define SIM_MAX_STRETCH 3.0
#define SIM_WORLD_SIZE 1.0e5 /* m */
typedef enum {
    SIM_RING_WHOLE = 0,
    SIM_RING_INSIDE_OUT, /* volume below SIM_MIN_VOLUME of rest (or negative) */
    SIM_RING_BALLOONED,  /* volume above SIM_MAX_VOLUME of rest */
    SIM_RING_TORN,       /* an edge stretched beyond SIM_MAX_STRETCH */
    SIM_RING_ESCAPED,    /* a vertex beyond SIM_WORLD_SIZE */
} sim_ring_fault;

/* What went wrong when the state blew up. */
typedef struct {
    int happened;      /* 0 while the state is healthy */
    long step;         /* 1-based number of the step that blew up */
    double time;       /* simulated time at its end, s */
    int ring;          /* lowest index of a ring with a bad vertex */
    sim_ring_id ring_id; /* its id */
    int vertex;        /* its first bad vertex, index within the ring */
    int non_finite;    /* 1: NaN or infinity; 0: speed above SIM_RUNAWAY_SPEED */
    double speed;      /* that vertex's speed, m/s (NaN when non-finite) */
    sim_ring_fault fault; /* SIM_RING_WHOLE: a speed or non-finite blow-up */
    double measure;    /* the fault's figure: volume / rest volume, stretch, or distance */
} sim_blowup_info;
sim_blowup_info sim_blowup(const dinghy_sim *sim);

/* Writes a one-line explanation of a blow-up with its likely cause (dt
 * against the stability bound of physics.md section 2) into buf, in
 * physical quantities. */
void sim_blowup_message(const dinghy_sim *sim, char *buf, size_t len);

/* A saved copy of the dynamic state (the rings there are, positions,
 * velocities, gas and punctures, river progress, step count, simulated
 * time) and of the tunable parameters, to go back to after a blow-up.
 * sim_checkpoint_new allocates room for this simulation's capacity; save
 * and restore allocate nothing. restore returns -1 (and changes nothing)
 * when the checkpoint belongs to a simulation of another capacity; it
 * clears the blow-up, the pending events and the grab. The ring ids are
 * those of the rings at the save (ids handed out since are invalid). */
typedef struct sim_checkpoint sim_checkpoint;
sim_checkpoint *sim_checkpoint_new(const dinghy_sim *sim);
void sim_checkpoint_save(const dinghy_sim *sim, sim_checkpoint *cp);
int sim_checkpoint_restore(dinghy_sim *sim, const sim_checkpoint *cp);
void sim_checkpoint_free(sim_checkpoint *cp);

/* Changes the number of threads for later steps; 0 = all cores. */
void sim_set_threads(dinghy_sim *sim, int threads);
int sim_threads(const dinghy_sim *sim);

/* Substeps each step is cut into (sim_def_substeps of the definition in force). */
int sim_substeps(const dinghy_sim *sim);

/* Enclosed volume of the ring's rest mesh, m^3. */
double sim_rest_volume(const dinghy_sim *sim);

/* Applies the live fields of def (those sim_field_is_live names: time
 * step, damping, gravity, water, stiffness, pressure, repulsion) to the
 * running simulation; the others are left as they were created. */
void sim_set_live(dinghy_sim *sim, const sim_def *def);
/* The definition in force: the creation one with the latest live fields. */
const sim_def *sim_get_def(const dinghy_sim *sim);

/* Sizes. */
int sim_ring_count(const dinghy_sim *sim);
int sim_ring_capacity(const dinghy_sim *sim);
int sim_segments(const dinghy_sim *sim);           /* M */
int sim_sides(const dinghy_sim *sim);              /* N */
size_t sim_vertex_count(const dinghy_sim *sim);    /* P*M*N of the rings there now */
size_t sim_spring_count(const dinghy_sim *sim);    /* distinct springs, all dinghies */
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
    double pressure;    /* absolute gas pressure p0 V0 / V the last substep pushed with
                           (V at its start), Pa; NaN for constant inflation */
    double gas_fraction;/* gas left of the amount at inflation (1 until punctured) */
    double hole_area;   /* total area of its punctures, m^2 */
    double leak;        /* gas escaping through them now, kg/s (negative: air in) */
    double travelled;   /* river: m along the course since the start, over re-drops */
    int respawns;       /* river: times dropped in again upstream */
} sim_ring_state;
/* Array of sim_ring_count entries, valid until the next step or change. */
const sim_ring_state *sim_rings(const dinghy_sim *sim);

/* ---- Play: the demo's hands on the rings (grab, puncture, take out) ---- */

/* A held ring follows the hand through a stiff damped spring on a patch
 * of its skin: the vertices within SIM_GRAB_RADIUS of the picked one (at
 * most SIM_GRAB_MAX_VERTICES) are each pulled toward the hand's point plus
 * their offset from it at the grab. The spring's total stiffness is
 * m_ring (2 pi SIM_GRAB_HZ)^2 (N/m) and its damping 2 m_ring 2 pi
 * SIM_GRAB_HZ (N s/m) against the hand's velocity: critically damped at
 * SIM_GRAB_HZ for the whole ring, whatever its mesh, so a 15 kg ring hangs
 * 2.8 cm below the hand. */
#define SIM_GRAB_HZ 3.0
/* The hand's pull on a held vertex is capped at its spring's pull at this
 * stretch (m): at most m_ring (2 pi SIM_GRAB_HZ)^2 0.25, about 9 g for the
 * whole ring, so a cursor flung far away drags the ring instead of tearing
 * it; a throw leaves at most SIM_GRAB_MAX_THROW (m/s). */
#define SIM_GRAB_REACH 0.25
#define SIM_GRAB_MAX_THROW 20.0
#define SIM_GRAB_RADIUS 0.15 /* m */
#define SIM_GRAB_MAX_VERTICES 64

/* Grabs the ring at its vertex `vertex` (index within the ring); the
 * hand starts at `hand` (m), still. Replaces an earlier grab. Returns 0,
 * or -1 when the ring or vertex does not exist. */
int sim_grab(dinghy_sim *sim, sim_ring_id ring, int vertex, const double hand[3]);
/* The hand is at `hand` (m) now and moves at `velocity` (m/s) until the
 * next call: the spring's target moves on by velocity * dt every step, so
 * a hand moved once per frame pulls smoothly. */
void sim_grab_move(dinghy_sim *sim, const double hand[3], const double velocity[3]);
/* Lets go: a throw. The ring's centre of mass leaves at the hand's
 * velocity (an even impulse on its vertices); its spin and wobble about
 * the centre stay as they were. */
void sim_grab_release(dinghy_sim *sim);
/* The held ring, or SIM_RING_NONE. */
sim_ring_id sim_grabbed_ring(const dinghy_sim *sim);
/* Where the hand's spring pulls now (m); 0, or -1 when nothing is held. */
int sim_grab_target(const dinghy_sim *sim, double hand[3]);

/* The nearest point where a ray meets a ring's skin. */
typedef struct {
    sim_ring_id id;     /* which ring */
    int ring;           /* its dense index now */
    int vertex;         /* the ring's vertex nearest the point (index within the ring) */
    double point[3];    /* m */
    double distance;    /* along the ray from its origin, m */
} sim_ray_hit;
/* Casts a ray from origin (m) along the unit vector dir against the
 * triangles of every ring's skin (both faces), up to max_distance (m).
 * Returns 1 with the nearest hit, 0 when it meets none. */
int sim_ray_cast(const dinghy_sim *sim, const double origin[3], const double dir[3],
                 double max_distance, sim_ray_hit *hit);

/* Discharge coefficient of a puncture (physics.md section 6b). */
#define SIM_HOLE_DISCHARGE 0.6

/* Punctures the ring with a hole of `area` m^2 (added to any earlier
 * holes). Gas escapes at mdot = C_d A sqrt(2 rho_gas (p - p_air)) kg/s
 * (physics.md 6b; air flows back in when squeezed below p_air), with
 * rho_gas = air_density p / air_pressure: the ring deflates fast at
 * first, then ever slower as its gauge pressure falls. Constant inflation
 * has no gas: nothing happens. Returns 0, or -1 for a bad ring or area. */
int sim_puncture(dinghy_sim *sim, sim_ring_id ring, double area);

/* Removes the ring: its id becomes invalid, the other rings' ids stay
 * valid; the rings after it in the dense order move down one index
 * (their order, and so the run's determinism, is kept). A held ring is
 * let go. The events of the last step are dropped (they name indices).
 * Returns 0, or -1 for an invalid id. */
int sim_remove_ring(dinghy_sim *sim, sim_ring_id ring);

/* Total momentum (kg m/s) and kinetic energy (J), summed in vertex order. */
void sim_totals(const dinghy_sim *sim, double momentum[3], double *kinetic_energy);

/* Events for sound and effects, found inside the tick without locks:
 * each dinghy records its own, and after the step they are merged in
 * dinghy order into a buffer of fixed capacity (SIM_EVENT_CAPACITY); what
 * does not fit is dropped and counted. Rings are named by index and id. */
typedef enum {
    SIM_EVENT_CONTACT, /* two dinghies start touching (tube gap under contact_range) */
    SIM_EVENT_SPLASH,  /* a dinghy's vertices cross the water surface downward fast */
    SIM_EVENT_OBSTACLE,/* a ring starts hitting a rock, bank or bed (river) faster than
                          SIM_HIT_SPEED; speed: the fastest vertex speed into it */
} sim_event_kind;

typedef struct {
    sim_event_kind kind;
    union {
        int ring;       /* the ring's dense index (for a contact, the lower one) */
        int dinghy;     /* the former name of `ring`, kept until physics/spray*
                           is moved over; do not use */
    };
    int other;          /* contact: the other ring's index; else -1 */
    long step;          /* step during which it happened, 1-based */
    float speed;        /* contact: relative speed of the two centres; splash:
                           fastest downward vertex speed through the surface, m/s */
    float position[3];  /* where: contact midpoint or the dinghy's centre, m */
    int count;          /* splash: vertices that entered the water; contact: 1 */
    sim_ring_id ring_id, other_id; /* the ids of ring and other (SIM_RING_NONE for -1) */
} sim_event;

#define SIM_EVENT_CAPACITY 4096
/* Smallest speed into a rock, bank or bed that makes an obstacle event, m/s. */
#define SIM_HIT_SPEED 0.3
/* Smallest downward speed through the surface that makes a splash, m/s. */
#define SIM_SPLASH_SPEED 0.5

/* The events of the last sim_step call, oldest step first, ring order
 * within a step: valid until the next sim_step call (which starts a new
 * list) or until a ring is taken out or the rings are cleared. A caller
 * that steps several times per frame and wants all of the frame's events
 * reads them after each call. *dropped (if not NULL) gets how many of
 * that call's did not fit. */
const sim_event *sim_events(const dinghy_sim *sim, size_t *count, long *dropped);

/* Wall time spent in each phase of the tick since the last reset of the
 * timers, seconds, as seen by thread 0. */
typedef enum {
    PHASE_CENTRES,    /* segment and dinghy centres */
    PHASE_BROADPHASE, /* overlapping bounding spheres */
    PHASE_CONTACTS,   /* repulsion between tube centre-lines */
    PHASE_SPRINGS,    /* every spring once */
    PHASE_INTEGRATE,  /* pressure, gravity, buoyancy, damping, symplectic Euler */
    PHASE_EVENTS,     /* contact starts and splashes */
    PHASE_COUNT
} sim_phase;
const char *sim_phase_name(sim_phase phase);
void sim_phase_times(const dinghy_sim *sim, double seconds[PHASE_COUNT]);
void sim_reset_phase_times(dinghy_sim *sim);

#endif
