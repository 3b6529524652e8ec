/* Definitions a simulation is created from, split by lifetime (Box2D's
 * def structs): the solver (how the state is advanced), the world (gravity,
 * air and water) and the ring (mesh, size, mass, material). Every field is
 * SI; each has a defaults function. The core checks a definition itself
 * (sim_def_check, below); the config layer only fills these structs. */
#ifndef DINGHY_DEFS_H
#define DINGHY_DEFS_H

#include <stddef.h>

#include "dinghy/problem.h"
#include "dinghy/river_def.h"
#include "dinghy/waves_def.h"

/* How the state is advanced. */
typedef struct {
    double dt;            /* time step of sim_step, s */
    int substeps;         /* equal substeps per step; 0 = as many as stability needs */
    int threads;          /* OpenMP threads for the tick; 0 = all cores */
    double damping;       /* velocity damping rate beta, 1/s: v *= exp(-beta dt) */
} sim_solver_def;

/* How the water pushes: Archimedes from the hydrostatic pressure on the
 * clipped skin plus drag and lift per face (docs/physics.md sections 4, 5), or
 * the published toy model (an upward acceleration per metre of depth). */
typedef enum { SIM_WATER_EXACT = 0, SIM_WATER_SEED = 1 } sim_water_model;

typedef struct {
    sim_water_model model;
    double level;         /* height of the still water surface, m */
    double density;       /* rho, kg/m^3 (exact model: pressure rho g depth, drag) */
    double buoyancy;      /* seed model: upward acceleration per metre of depth, 1/s^2 */
    double drag;          /* linear damping rate of a vertex under water relative to
                             the water, 1/s: v *= exp(-(damping + drag) dt) */
    double drag_coefficient; /* C_D of the per-face drag (exact model) */
    double lift_coefficient; /* C_L of the per-face lift (exact model) */
} sim_water_def;

/* What the rings live in. The river (docs/physics.md section 6) is built only
 * when a scene asks for it (sim_enable_river); otherwise the water is
 * still, flat at water.level. With waves_enabled the water answers the
 * rings (docs/physics.md section 14): a wave layer of `waves` on it, over
 * the still water's rectangle or the river's course, that the rings make
 * waves on and ride; without, the water is the prescribed one alone (the
 * same bits as before the layer). */
typedef struct {
    double gravity;       /* downward acceleration, m/s^2 */
    double air_pressure;  /* ambient air pressure, Pa */
    double air_density;   /* kg/m^3: the faces above water feel drag in it */
    sim_water_def water;
    river_def river;      /* the course, current and rocks of a river scene */
    int waves_enabled;    /* 1: the wave layer is on the water (live: sim_set_live puts
                             it on or takes it away); 0: the prescribed water alone */
    waves_def waves;      /* the wave layer: its cells, sponge, still water's extent
                             and depth; its damping is live */
} sim_world_def;

/* How a ring is kept inflated: an isothermal ideal gas, p V = p0 V0,
 * pushing on every face (docs/physics.md section 3), or the published constant
 * outward force on every vertex. */
typedef enum { SIM_INFLATION_GAS = 0, SIM_INFLATION_CONSTANT = 1 } sim_inflation_model;

/* How rings push each other apart: skin contact, every vertex against the
 * triangles of other rings and of its own ring beyond its neighbourhood,
 * with Coulomb friction (docs/physics.md section 9), or the published
 * repulsion between tube centre-lines (repulsion, repulsion_exponent,
 * contact_range; section 1). */
typedef enum { SIM_CONTACT_SKIN = 0, SIM_CONTACT_CENTRELINE = 1 } sim_contact_model;
/* What the skin is made of: a membrane of a material (St. Venant-Kirchhoff
 * triangles and discrete-shell hinges, docs/physics.md section 8; no struts
 * inside, the gas holds the shape), or the seed's B x B springs plus the
 * across-tube spring. */
typedef enum { SIM_SKIN_MEMBRANE = 0, SIM_SKIN_SPRINGS = 1 } sim_skin_model;

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
    sim_inflation_model inflation;
    double gauge_pressure;/* gas model: p0 - p_air at the rest volume, Pa */
    double pressure;      /* constant model: inflation force on every vertex, N */
    double repulsion;     /* repulsion strength S between rings: per-vertex force S gap^-e, N */
    double repulsion_exponent; /* e in S gap^-e */
    double contact_range; /* gap between tube surfaces below which repulsion acts, m */
    /* ---- skin contact (docs/physics.md section 9) ---- */
    sim_contact_model contact; /* skin (the default) or the seed's centre-line repulsion */
    double contact_thickness;  /* h: skins are held this far apart, m */
    double friction;           /* mu: Coulomb friction coefficient between skins, 1 */
    int edge_contact;          /* 1: edges of different rings are pairs too (edge against
                                * edge); 0: vertex against triangle only */
    /* ---- end of skin contact ---- */
    /* ---- membrane skin (docs/physics.md section 8) ---- */
    sim_skin_model skin;  /* SIM_SKIN_MEMBRANE (default) or SIM_SKIN_SPRINGS (the seed's) */
    double youngs_modulus;/* E of the skin's material, Pa */
    double thickness;     /* t of the skin, m */
    double poisson_ratio; /* nu of the skin's material, 0 .. 0.5 */
    double hole_diameter; /* every ring starts with a round hole this wide (0: none), m */
} sim_ring_def;

/* Everything a simulation is created from. */
typedef struct {
    sim_solver_def solver;
    sim_world_def world;
    sim_ring_def ring;
} sim_def;

sim_solver_def sim_solver_def_default(void);
sim_world_def sim_world_def_default(void);
sim_ring_def sim_ring_def_default(void);
sim_def sim_def_default(void);

/* Mass of one vertex, kg. */
double sim_ring_vertex_mass(const sim_ring_def *ring);

/* Largest stable time step, s: the Gershgorin bound of docs/physics.md
 * section 2, sqrt(2 m / sum k) with sum k the stiffness acting on a vertex:
 * the skin (springs: B*B*k; membrane: membrane_torus_max_stiffness of
 * physics/skin/membrane.h, pre-tensioned by the gauge pressure), the gas (p A^2
 * / V, A a vertex's share of the surface) and the buoyancy (rho g A exact,
 * m * buoyancy seed); with skin contact, its push-out stiffness beta m /
 * dt^2 too (docs/physics.md section 9: the bound shrinks by
 * sqrt(1 - beta/2)); +inf when nothing is stiff. */
double sim_def_stable_dt(const sim_def *def);

/* The same for the skin alone: sqrt(2 m / (B*B*k)) for the springs, the
 * membrane's stiffness for the membrane. */
double sim_def_spring_dt(const sim_def *def);

/* The longest automatic substep, s: what the water's held loads, the
 * drag's clamp and the contact's band were checked at. */
#define SIM_MAX_SUBSTEP 0.001

/* The most substeps a step is cut into: solver.substeps' range, and the
 * cap of the automatic count (the bound's and a stretched skin's). */
#define SIM_SUBSTEPS_CAP 100000

/* Substeps one step of solver.dt is cut into: solver.substeps when set,
 * else ceil(dt / min(0.9 stable_dt, SIM_MAX_SUBSTEP)), at least 1. */
int sim_def_substeps(const sim_def *def);

/* Surface area (m^2) and enclosed volume (m^3) of the closed rest mesh of
 * the ring (the polygonal torus of M x N vertices). */
double sim_ring_rest_area(const sim_ring_def *ring);
double sim_ring_rest_volume(const sim_ring_def *ring);

/* How much a membrane ring swells when inflated to its gauge pressure,
 * V / V0 - 1, by the closed forms of docs/physics.md section 8 (linear
 * membrane theory: V grows by the mean strain round the tube twice and the
 * mean strain along the ring once); 0 for the springs or constant
 * inflation. The gas of a membrane ring is filled so that its gauge is
 * gauge_pressure at V0 (1 + this), the inflated shape. */
double sim_ring_inflated_swell(const sim_ring_def *ring);

/* Which definition a field belongs to: the part of a sim_def problem
 * (dinghy_problem.part) and of the live table. SIM_PART_RING_COUNT is no
 * field: a problem with the number of rings sim_def_check was given
 * (offset 0; its related offsets are the ring part's: the mesh). */
typedef enum { SIM_PART_SOLVER, SIM_PART_WORLD, SIM_PART_RING, SIM_PART_RING_COUNT } sim_def_part;

/* The largest strain the gauge may put in a membrane skin, by the linear
 * closed forms (sim_ring_gauge_strain). The membrane's St. Venant-
 * Kirchhoff law stiffens as it stretches, so the inflated ring (found at
 * creation, physics/skin/inflate.h) holds its gauge at any strain; at a
 * linear strain of 1 it is already stretched 1.73 times round the tube's
 * inner equator, to 3.5 times its rest volume (E = 0.3 MPa, t = 1.6 mm,
 * 2 kPa: measured), more than half way to the health check's tear bound
 * (SIM_MAX_STRETCH, 3), and far past the strains the law is a model of a
 * real skin for (a rubber tube balloons into a bulge at 0.19). A skin
 * strained more by its gauge is refused by sim_def_check. */
#define SIM_MEMBRANE_MAX_GAUGE_STRAIN 1.0

/* The largest strain the ring's weight may put in a membrane skin: its
 * weight per area of skin, m g / A, hung across the tube, (m g / A) r /
 * (E t) (sim_ring_weight_strain). Whatever the gauge, a punctured ring
 * hangs on its skin. A skin that cannot carry its ring (1 um of 4 MPa
 * under the default 15 kg: 1.2) stretched past three rest lengths within
 * 1 s of landing on the water; at 0.12 (10 um) and 0.23 (5 um) it ran,
 * alone and in a pile of 4 (2 s, measured). A skin strained more by its
 * weight is refused by sim_def_check. */
#define SIM_MEMBRANE_MAX_WEIGHT_STRAIN 0.25

/* The strain the ring's weight puts in its membrane skin at gravity g
 * (m/s^2), as above; 0 for the springs skin or a ring without a hole. */
double sim_ring_weight_strain(const sim_ring_def *ring, double g);

/* The strain the gauge puts in a membrane ring, by the closed forms of
 * docs/physics.md section 8: round the tube at the inner equator, where
 * the tension is largest, (N_phi - nu N_theta) / (E t) with N_phi = p r
 * (2R - r) / (2 (R - r)) and N_theta = p r / 2; 0 for the springs, the
 * constant inflation or a ring without a hole. */
double sim_ring_gauge_strain(const sim_ring_def *ring);

/* Checks a definition for `rings` rings: the mesh invariants, the sizes and
 * that the simulation fits in memory; the river's own check
 * (river_def_check) with its problems in the world part. Writes at most max
 * problems into out (may be NULL when max is 0), each with its part
 * (sim_def_part) and the field's offset within that part's struct; returns
 * how many there are in all. */
int sim_def_check(const sim_def *def, int rings, dinghy_problem *out, int max);

/* Whether a field (part, offset) may change on a running simulation
 * through sim_set_live; the others need a new simulation. Said once, here. */
int sim_field_is_live(sim_def_part part, size_t offset);

/* Copies the live fields of from into to, leaving the others. */
void sim_def_copy_live(sim_def *to, const sim_def *from);

#endif
