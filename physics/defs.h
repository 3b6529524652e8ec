/* Definitions a simulation is created from, split by lifetime (Box2D's
 * def structs): the solver (how the state is advanced), the world (gravity,
 * air and water) and the ring (mesh, size, mass, material). Every field is
 * SI; each has a defaults function. The core checks a definition itself
 * (sim_def_check in sim.h); the config layer only fills these structs. */
#ifndef DINGHY_DEFS_H
#define DINGHY_DEFS_H

#include <stddef.h>

/* How the state is advanced. */
typedef struct {
    double dt;            /* time step of sim_step, s */
    int threads;          /* OpenMP threads for the tick; 0 = all cores */
    double damping;       /* velocity damping rate beta, 1/s: v *= exp(-beta dt) */
} solver_def;

/* The still water of the seed model. */
typedef struct {
    double level;         /* height of the still water surface, m */
    double buoyancy;      /* seed buoyancy: upward acceleration per metre of depth, 1/s^2 */
    double density;       /* kg/m^3 */
    double drag;          /* extra damping rate under water, 1/s: a vertex below the
                             surface gets v *= exp(-(damping + drag) dt) */
} water_def;

/* What the rings live in. */
typedef struct {
    double gravity;       /* downward acceleration, m/s^2 */
    water_def water;
} world_def;

/* One ring: its mesh, size, mass and material. All rings of a simulation
 * share one ring definition (one rest shape). */
typedef struct {
    int segments;         /* M: vertices round the ring */
    int sides;            /* N: vertices round the tube (even) */
    int band;             /* B: springs reach a B x B neighbourhood (odd, B <= M, B <= N) */
    double major_radius;  /* R: ring centre to tube centre, m */
    double minor_radius;  /* r: tube radius, m (r < R) */
    double mass;          /* total mass of one ring, kg */
    double stiffness;     /* k: spring constant of every spring, N/m */
    double pressure;      /* inflation force on every vertex, N */
    double repulsion;     /* repulsion strength S between rings: per-vertex force S gap^-e, N */
    double repulsion_exponent; /* e in S gap^-e */
    double contact_range; /* gap between tube surfaces below which repulsion acts, m */
} ring_def;

/* Everything a simulation is created from. */
typedef struct {
    solver_def solver;
    world_def world;
    ring_def ring;
} sim_def;

solver_def solver_def_default(void);
world_def world_def_default(void);
ring_def ring_def_default(void);
sim_def sim_def_default(void);

/* Mass of one vertex, kg. */
double ring_vertex_mass(const ring_def *ring);

/* Largest stable time step for the springs, s: the Gershgorin bound of
 * physics.md section 2, sqrt(2 m / (B*B*k)); +inf when k = 0. */
double sim_def_stable_dt(const sim_def *def);

/* Which definition a field belongs to, for sim_problem and the live table. */
typedef enum { SIM_PART_SOLVER, SIM_PART_WORLD, SIM_PART_RING } sim_def_part;

/* One problem with a definition: which field (part and byte offset within
 * that part's struct), the quantity in words, its value, the allowed range
 * and why. */
typedef struct {
    sim_def_part part;
    size_t offset;        /* offsetof(the part's struct, field) */
    const char *quantity; /* e.g. "spring band B" */
    double value;
    double min, max;      /* allowed range; NaN where there is no single range */
    char reason[200];     /* one sentence, physical quantities only */
    int related;          /* other fields of the same part involved (0 to 2) */
    size_t related_offset[2];
} sim_problem;

/* Checks a definition for `rings` rings: the mesh invariants, the sizes and
 * that the simulation fits in memory. Writes at most max problems into out
 * (may be NULL when max is 0); returns how many there are in all. */
int sim_def_check(const sim_def *def, int rings, sim_problem *out, int max);

/* Bytes of heap a simulation of `rings` rings will hold, from the same
 * sizes the allocator uses (see sim_sizes in sim_layout.h). */
size_t sim_memory_estimate(const sim_def *def, int rings);

/* Whether a field (part, offset) may change on a running simulation
 * through sim_set_live; the others need a new simulation. Said once, here. */
int sim_field_is_live(sim_def_part part, size_t offset);

/* Copies the live fields of from into to, leaving the others. */
void sim_def_copy_live(sim_def *to, const sim_def *from);

#endif
