/* Private layout of a simulation; only the physics sources include this. */
#ifndef DINGHY_SIM_INTERNAL_H
#define DINGHY_SIM_INTERNAL_H

#include "physics/seed/broadphase.h"
#include "physics/world/events.h"
#include "physics/skin/membrane.h"
#include "physics/world/shape.h"
#include "physics/world/team.h"
#include "physics/world/balance.h"
#include "physics/contact/contact.h"
#include "physics/contact/push_out.h"
#include "physics/seed/springs.h"
#include "dinghy/events.h"
#include "dinghy/hands.h"
#include "dinghy/health.h"
#include "dinghy/profile.h"
#include "dinghy/sim.h"

/* The wave layer and the rows' displaced volumes (physics/water/waves_couple.c). */
typedef struct waves_coupling waves_coupling;

/* The demo's hand on a ring (sim_grab): the held vertices, their offsets
 * from the hand at the grab and the hand's spring per vertex. */
typedef struct {
    sim_ring_id held;     /* SIM_RING_NONE: nothing held */
    int count;            /* held vertices */
    int vertex[SIM_GRAB_MAX_VERTICES]; /* indices within the ring, ascending */
    float off[3][SIM_GRAB_MAX_VERTICES]; /* m */
    double hand[3];       /* the spring's target now, m */
    double velocity[3];   /* the hand's velocity, m/s */
    float k, c;           /* per held vertex: N/m and N s/m */
} grab_state;

/* One copy of the dynamic state, structure of arrays over all vertices. */
typedef struct {
    float *x, *y, *z;
    float *vx, *vy, *vz;
} sim_buffer;

/* Contact starts kept per substep (more are dropped, as the event list's). */
#define SIM_CONTACT_STARTS 64
/* Jacobi iterations of the skin contact per substep (physics/contact/contact.h). */
#define SIM_CONTACT_ITERATIONS 8

/* Rigid walls round still water (sim_enable_pen): vertical planes at
 * x = +-half_x, y = +-half_y, m. */
typedef struct {
    int on;
    float half_x, half_y;
} pen_walls;

/* What one step computes and throws away, apart from the state that
 * defines the simulation (as Jolt's SoftBodyUpdateContext): written by
 * the tick, read within the step (and by the measurements of the state
 * the step leaves). The water samples are the one exception that lives
 * on: kept between samples every RIVER_SAMPLE_S seconds (a checkpoint
 * does not keep them). Per row unless said; every array here
 * and in dinghy_sim is listed once, in sim_layout.c's table. */
typedef struct {
    float *cx, *cy, *cz;  /* segment centres, m */
    float *cvx, *cvy, *cvz; /* segment mean velocities, m/s */
    float *gx, *gy, *gz;  /* repulsion force on each vertex of a row, N */
    /* The water each row sits in, sampled at the row's centre every
     * RIVER_SAMPLE_S seconds: the surface as a plane through (wpx, wpy,
     * weta) with slopes wsx, wsy, and the flow velocity there. */
    float *weta, *wsx, *wsy, *wpx, *wpy; /* m, 1, 1, m, m */
    float *wu, *wv, *ww;  /* flow velocity, m/s */
    float *wdist, *wpz;   /* the solids' signed distance at the sample's centre
                             (wpx, wpy, wpz), m */
    float *sdx, *sdy, *sdz, *sd; /* per vertex: where the solids' distance was last
                             taken for it, m, and that distance (0 when it met a
                             solid or never taken), m: water_contacts_row */
    float *row_hit;       /* fastest speed into a solid this step, m/s */
    float *row_v2;        /* the row's fastest squared speed after integration, m^2/s^2 */
    float *row_v2_found;  /* row_v2 when the last search ran, m^2/s^2 */
    unsigned char *row_bad; /* 0 ok, 1 runaway, 2 non-finite */
    float *scratch;       /* per-thread scratch of the spring (or membrane) and face
                             loads kernels, 64-byte aligned */
    size_t face_loads_offset; /* floats from a thread's scratch to the face loads' */
    /* membrane skin: a thread's scratch starts with the block's forces,
     * three arrays of force_floats in the spring kernel's block layout,
     * then the membrane kernel's scratch at membrane_offset */
    size_t force_floats, membrane_offset;
    size_t scratch_stride;/* floats per thread */
    int scratch_threads;  /* threads the scratch has room for */
    /* skin contact (docs/physics.md section 9): NULL with the centre-line model */
    contact_kernel *contact; /* the kernel's grid and pair lists */
    contact_params contact_params; /* this substep's */
    double search_ahead;  /* how far the last search looked ahead, s */
    float search_dv;      /* the speed a row may gain on it before a new search, m/s */
    int search_substep;   /* the substep of this step the last search ran on */
    long searches;        /* searches run since the tick was made (tests, profiles) */
    int search_every_substep; /* tests: search on every substep, the schedule's reference */
    int contact_found;    /* the step's search (on its first substep) found pairs: link
                             them each substep */
    contact_state contact_state;   /* this substep's: x current, v predicted */
    float *bfx, *bfy, *bfz; /* per vertex: the membrane's bending force, refreshed on a
                               step's first substep and held over the others, N; when the
                               water's loads are refreshed with it (the default step), they
                               are held in it too, less wkz wz0 (move_rows' `merged`) */
    float *wfx, *wfy, *wfz; /* per vertex: the water's pressure, drag and lift (the face
                               loads but the gas), refreshed every water_every substeps
                               and held between, N; with the drag's part of each taken
                               at the refresh's velocity plus kd times that velocity */
    float *wimp;          /* per vertex: the drag's answer to the current velocity v: the
                             tick applies -kd v implicitly, v' = (v + a dt) wimp with wimp =
                             1 / (1 + dt kd / m), kd (kg/s) the drag's coefficient at the
                             refresh (face_loads.h; the refresh writes kd here first) */
    float *wkz, *wz0;     /* per vertex: the buoyancy's dF_z/dz at the refresh, N/m, and the
                             height it was taken at, m: the tick adds wkz (z - wz0) to the
                             held force (face_loads.h) */
    float *crease_theta;  /* per hinge (3 per vertex, crease.h's order): the crease stop's
                             tracked angle, rad, this step */
    float *cross_x0, *cross_y0, *cross_z0; /* per vertex: a limp ring's positions at the
                             step's start, m (the self-crossing stop, cross.h) */
    long crease_window;   /* 1 + the step the stops' window began on (tick.c's
                             crease_window_steps), 0 before the first */
    int window_ended;     /* the last step ended a stops' window (its self-crossing
                             stop ran): the push-out after it is checked (overlap.c) */
    unsigned char *crease_on; /* per ring: the crease stop runs on it this step (a limp
                                 skin: below CREASE_LIMP_VOLUME of its rest volume, or
                                 with no inflation) */
    float *contact_mass;  /* per ring: vertex mass, kg */
    /* skin contact's forces on the vertices in a pair (contact_active's
     * list, at their places in it), contact_cap each: one Jacobi iteration's
     * (cf) and the substep's, the sum of the iterations (cs), N */
    float *cf[3], *cs[3];
    size_t contact_cap;
    contact_start starts[SIM_CONTACT_STARTS]; /* this substep's contact starts */
    ring_balance balance; /* the rings' shares among the threads (balance.h) */
} tick_context;

/* The simulation's state. Its per-ring and per-row arrays are allocated,
 * freed, shifted on removal, checkpointed and counted from the one table
 * in sim_layout.c: a new array is a line there. */
struct dinghy_sim {
    sim_def def;          /* creation definition plus the latest live fields */
    int P, cap;           /* rings there now, rings there is room for */
    int M, N;             /* segments, sides */
    size_t V;             /* vertices per ring, M*N */
    size_t nverts;        /* P*V */
    size_t nrows;         /* P*M: one row is one segment of one ring */
    int nthreads;         /* the threads asked for (all cores for 0) */
    thread_team team;     /* how many of them a step runs with (team.h) */
    int step_threads;     /* ... this step's */

    torus_shape shape;    /* rest geometry shared by all rings */
    spring_plan springs;  /* the spring kernel's offsets and rest lengths, shared too
                             (its block layout serves the membrane as well) */
    membrane_rest membrane; /* the membrane skin's rest data (skin = membrane only) */

    sim_buffer buf[2];    /* state and next state: the tick reads one, writes the other */
    int cur;

    tick_context *tick;   /* the step's scratch (allocated once, with the sim) */
    /* the endless run, per ring */
    double *ring_s;       /* arc length of the centre at the last step, m */
    double *travelled;    /* m along the course since the start, over re-drops */
    int *respawns;
    unsigned char *hitting; /* per ring: in contact with a solid at the last step */
    uint64_t river_rng;   /* the re-drop places */
    double *c0, *v0;      /* ring centres (m) and mean velocities (m/s), 3 per ring */
    double *row_vol;      /* enclosed volume of each row's quads from its ring's vertex 0, m^3 */
    double *ring_vol;     /* enclosed volume per ring at the start of the substep, m^3 */
    float *ring_gauge;    /* gas gauge pressure per ring, Pa */
    int *contact_vertices;/* per ring: vertices the skin contact pushed in the last substep */
    float *contact_force; /* per ring: sum of |F| over its vertices then, N */
    pen_walls pen;        /* still water's rigid walls, if any */
    double *gas_frac;     /* per ring: gas amount over that at inflation (punctures lower it) */
    double *hole_area;    /* per ring: punctures, m^2 */
    double *inverted_since; /* per ring: time since when a membrane triangle has been
                               inverted at every health check, s; -1: none */
    grab_state grab;
    /* the ring handles: a ring's id is (slot + 1, the slot's generation) */
    int *ring_slot;       /* per ring (dense index): its slot */
    int *slot_ring;       /* per slot: the dense index of the ring in it, -1 free */
    unsigned *slot_gen;   /* per slot: generation, one up each time its ring goes */
    double rest_volume;   /* enclosed volume of the rest mesh, m^3 */
    /* where a ring is placed: the cross-section of every row, distance
     * from the axis then height (2 N, m), the rest torus or, for a
     * membrane inflated by gas, its inflated equilibrium
     * (physics/skin/inflate.h); and the volume at which the full gas is at
     * the gauge (the inflated mesh's, m^3) */
    double *profile;
    double *fold_normals; /* 6 M N: one ring's triangle normals, for the health check */
    double *edge_rest_ir2;/* 2 N: 1 / the rest length^2 of the grid edge from tube index n
                             round the ring (at n) and round the tube (at N + n), m^-2 */
    double *depth;        /* per vertex: how far below the water it lies (negative above),
                             m, as the last measurement found it (measure.c) */
    double fill_volume;
    /* membrane: 1 when the bending force is held over a step's substeps
     * (sim_inflate: the step is within half the bending's own bound), else
     * the hinges are evaluated every substep */
    int bend_held;
    int substeps;         /* substeps of the step under way: base_substeps, more while a
                             membrane is stretched (step.c, step_substeps) */
    int base_substeps;    /* sim_def_substeps of the definition in force */
    double substep_headroom; /* the bound over base_substeps' substep when SIM_MAX_SUBSTEP
                                set the count, else 1 (sim.c) */
    double stretch_held;  /* the largest grid-edge stretch of any ring at a step's start,
                             held as it falls (step.c) */
    broadphase bp;
    event_state ev;       /* contact starts and splashes */

    push_out_work *push_out; /* the step's push-out of vertices inside another ring's
                                skin (skin contact only, else NULL) */
    sim_ring_state *rings;/* published per ring: the current state measured */
    river_world *river;   /* NULL: still, flat water */
    waves_coupling *waves;/* the wave layer on the water and what the rings last
                             displaced (sim_enable_waves, waves_couple.c), or NULL */
    int has_floor;        /* 1: a rigid floor at floor_z (sim_enable_floor) */
    double floor_z;       /* m */
    size_t heap_bytes;    /* what sim_create allocated */

    long step;
    double time;
    sim_blowup_info blowup;
    double phase_s[SIM_PHASE_COUNT];
};

/* Sets bend_held and, with shape, profile and fill_volume from the
 * definition (sim.c). */
void sim_inflate(dinghy_sim *sim, int shape);

/* Sets the number of rings there are now (room permitting). */
void sim_set_count(dinghy_sim *sim, int P);

/* Takes ring p (an index of a ring there is) out of every per-ring and
 * per-row array; the rings after it move down one index. */
void ring_table_remove(dinghy_sim *sim, int p);

/* Checks that every ring is whole (sim.h, SIM_MIN_VOLUME ...) from the
 * measured rings; records a blow-up and returns -1 when one is not. */
int sim_check_rings(dinghy_sim *sim);

/* The longest grid edge of ring p's skin (round the ring and round the
 * tube) in the current buffer, as a multiple of its rest length (health.c;
 * NaN when a coordinate is). */
double sim_ring_max_stretch(const dinghy_sim *sim, int p);

#endif
