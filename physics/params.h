/* Parameters of a dinghy simulation: one plain struct, SI units.
 *
 * The physics core is created from this struct and nothing else; the config
 * layer fills it from INI files and --set overrides, validating ranges. */
#ifndef DINGHY_PARAMS_H
#define DINGHY_PARAMS_H

#include <stdint.h>

typedef enum {
    SCENE_SINGLE = 0, /* one dinghy dropped on the water */
    SCENE_PAIR,       /* two side by side along x, dinghy 0 moving at scene.speed */
    SCENE_GRID,       /* scene.count dinghies on a square grid scene.spacing apart */
    SCENE_RAPIDS,     /* a seeded crowd dropped from varied heights (the demo) */
    SCENE_PACKED,     /* a crowd squeezed closer than touching: contact-heavy */
    SCENE_KIND_COUNT
} scene_kind;

typedef struct {
    /* [sim] */
    double dt;            /* time step, s */
    int threads;          /* OpenMP threads for the tick; 0 = all cores */
    double damping;       /* velocity damping rate beta, 1/s: v *= exp(-beta dt) */
    uint64_t seed;        /* seed for the rapids scene layout */
    /* [world] */
    double gravity;       /* downward acceleration, m/s^2 */
    /* [water] */
    double water_level;   /* height of the still water surface, m */
    double buoyancy;      /* seed buoyancy: upward acceleration per metre of depth, 1/s^2 */
    double water_density; /* kg/m^3; not used by the seed buoyancy model */
    double water_drag;    /* extra damping rate under water, 1/s: a vertex below the
                             surface gets v *= exp(-(damping + water_drag) dt) */
    /* [scene] */
    scene_kind scene;     /* which scene builder to run */
    int count;            /* number of dinghies (grid, rapids, packed) */
    double spacing;       /* distance between neighbouring dinghy centres, m */
    double height;        /* drop height of dinghy centres above the water, m */
    double speed;         /* initial speed of the moving dinghy (pair) or crowd, m/s */
    /* [dinghy] */
    int segments;         /* M: vertices round the ring */
    int sides;            /* N: vertices round the tube (even) */
    int band;             /* B: spring neighbourhood is B x B (odd, B <= M, B <= N) */
    double major_radius;  /* R: ring centre to tube centre, m */
    double minor_radius;  /* r: tube radius, m */
    double mass;          /* total mass of one dinghy, kg */
    double stiffness;     /* k: spring constant of every spring, N/m */
    double pressure;      /* inflation force on every vertex, N */
    double repulsion;     /* repulsion strength S: force per vertex at 1 m gap, N */
    double repulsion_exponent; /* e in S * gap^-e */
    double contact_range; /* gap between tube surfaces below which repulsion acts, m */
} sim_params;

/* The built-in defaults (the values documented in dinghy.ini). */
sim_params sim_params_default(void);

/* Mass of one vertex, kg. */
double sim_params_vertex_mass(const sim_params *p);

/* Largest stable time step for the springs, s: the Gershgorin bound of
 * physics.md section 2, sqrt(2 m / (B*B*k)); +inf when k = 0. */
double sim_params_stable_dt(const sim_params *p);

/* Name of a scene kind ("single", "pair", ...), and the reverse lookup:
 * returns -1 for an unknown name. */
const char *scene_kind_name(scene_kind kind);
int scene_kind_from_name(const char *name);

#endif
