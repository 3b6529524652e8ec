/* Private layout of a simulation; only the physics sources include this. */
#ifndef DINGHY_SIM_INTERNAL_H
#define DINGHY_SIM_INTERNAL_H

#include "broadphase.h"
#include "events.h"
#include "shape.h"
#include "springs.h"
#include "sim.h"

/* The demo's hand on a ring (sim_grab): the held vertices, their offsets
 * from the hand at the grab and the hand's spring per vertex. */
typedef struct {
    int ring;             /* -1: nothing held */
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

struct dinghy_sim {
    sim_def def;          /* creation definition plus the latest live fields */
    int P, cap;           /* rings there now, rings there is room for */
    int M, N;             /* segments, sides */
    size_t V;             /* vertices per ring, M*N */
    size_t nverts;        /* P*V */
    size_t nrows;         /* P*M: one row is one segment of one ring */
    int nthreads;

    torus_shape shape;    /* rest geometry shared by all rings */
    spring_plan springs;  /* the spring kernel's offsets and rest lengths, shared too */

    sim_buffer buf[2];    /* state and next state: the tick reads one, writes the other */
    int cur;

    /* Scratch written every step. */
    float *cx, *cy, *cz;  /* segment centres, per row, m */
    float *cvx, *cvy, *cvz; /* segment mean velocities, per row, m/s */
    float *gx, *gy, *gz;  /* repulsion force on each vertex of a row, N */
    /* The water each row sits in, sampled at the row's centre every
     * RIVER_SAMPLE_STEPS steps: the surface as a plane through (wpx, wpy,
     * weta) with slopes wsx, wsy, and the flow velocity there. */
    float *weta, *wsx, *wsy, *wpx, *wpy; /* m, 1, 1, m, m */
    float *wu, *wv, *ww;  /* flow velocity, m/s */
    unsigned char *wnear; /* 1: a solid (rock, bank, bed) is near: contacts per vertex */
    float *row_hit;       /* per row: fastest speed into a solid this step, m/s */
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
    double *gas_frac;     /* per ring: gas amount over that at inflation (punctures lower it) */
    double *hole_area;    /* per ring: punctures, m^2 */
    grab_state grab;
    double rest_volume;   /* enclosed volume of the rest mesh, m^3 */
    int substeps;         /* substeps per step (sim_def_substeps) */
    float *scratch;       /* per-thread scratch of the spring and skin kernels, 64-byte aligned */
    size_t skin_offset;   /* floats from a thread's scratch to its skin scratch */
    size_t scratch_stride;/* floats per thread */
    int scratch_threads;  /* threads the scratch has room for */
    unsigned char *row_bad; /* per row: 0 ok, 1 runaway, 2 non-finite */
    broadphase bp;
    event_state ev;       /* contact starts and splashes */

    sim_ring_state *rings;/* published per ring: the current state measured */
    river_world *river;   /* NULL: still, flat water */
    size_t heap_bytes;    /* what sim_create allocated */

    long step;
    double time;
    sim_blowup_info blowup;
    double phase_s[PHASE_COUNT];
};

/* How often the water is sampled at the rows, steps (physics.md section 6:
 * the surface moves a few millimetres between samples). */
#define RIVER_SAMPLE_STEPS 8

/* Samples the water for row r of the current state (its centre cx..cz must
 * be up to date): the river, or the flat still water. */
void water_sample_row(dinghy_sim *sim, size_t row);

/* Height of the water surface (m) at (x, y) as row r sees it: the river's
 * surface as the row's plane, or the still water's level. */
double water_height_at(const dinghy_sim *sim, size_t row, double x, double y);

/* Keeps the vertices of a row near a solid out of it (physics.md section 6:
 * pushed out along the distance gradient, the inward velocity removed,
 * Coulomb friction on the tangential one). Returns the fastest inward
 * speed removed, m/s. */
float water_contacts_row(const dinghy_sim *sim, float *x, float *y, float *z, float *vx,
                         float *vy, float *vz, size_t row);

/* After each step with a river: an obstacle event for each ring that
 * starts hitting a solid faster than SIM_HIT_SPEED. */
void water_hit_events(dinghy_sim *sim);

/* After each step with a river: rings past the downstream end (or out of
 * the channel) are dropped in again upstream; travelled distances. */
void water_endless_run(dinghy_sim *sim);

/* Measures the published per-ring quantities of the current state: of
 * every ring, or of ring p alone. */
void sim_measure_rings(dinghy_sim *sim);
void sim_measure_ring(dinghy_sim *sim, int p);

/* Sets the number of rings there are now (room permitting). */
void sim_set_count(dinghy_sim *sim, int P);

/* Gauge pressure (Pa) of ring p's gas at volume v (m^3): gas_frac p0 V0 / v
 * - p_air, the volume floored at 1/1000 of rest (a ring squashed flat
 * pushes hard, but finitely). */
double gas_gauge(const dinghy_sim *sim, int p, double v);

/* Mass flow out of ring p's punctures at gauge pressure `gauge` (Pa), kg/s
 * (physics.md 6b; negative: air flows in); 0 without holes. */
double gas_flow(const dinghy_sim *sim, int p, double gauge);
/* Lets that flow out of ring p over dt (s): lowers its gas fraction. */
void gas_leak(dinghy_sim *sim, int p, double gauge, double dt);

/* Adds the hand's spring forces (N) to the held ring's rows [a, a + nb)
 * of ring p, whose forces are f[k][i W + h + n] for row a + i, vertex n. */
void grab_forces(const dinghy_sim *sim, const sim_buffer *in, size_t p, size_t a, size_t nb,
                 float *const f[3], int W, int h);

/* After each step: the hand's target moves on by its velocity times dt. */
void grab_advance(dinghy_sim *sim, double dt);

/* Checks that every ring is whole (sim.h, SIM_MIN_VOLUME ...) from the
 * measured rings; records a blow-up and returns -1 when one is not. */
int sim_check_rings(dinghy_sim *sim);

/* Sets every ring's row volumes and gas pressure from the current state
 * (after the state was replaced, as by a checkpoint). */
void sim_refresh_volumes(dinghy_sim *sim);

#endif
