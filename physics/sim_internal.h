/* Private layout of a simulation; only the physics sources include this. */
#ifndef DINGHY_SIM_INTERNAL_H
#define DINGHY_SIM_INTERNAL_H

#include "broadphase.h"
#include "events.h"
#include "shape.h"
#include "springs.h"
#include "sim.h"

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
    double *c0, *v0;      /* ring centres (m) and mean velocities (m/s), 3 per ring */
    double *row_vol;      /* enclosed volume of each row's quads from its ring's vertex 0, m^3 */
    double *ring_vol;     /* enclosed volume per ring at the start of the substep, m^3 */
    float *ring_gauge;    /* gas gauge pressure per ring, Pa */
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

/* Measures the published per-ring quantities of the current state: of
 * every ring, or of ring p alone. */
void sim_measure_rings(dinghy_sim *sim);
void sim_measure_ring(dinghy_sim *sim, int p);

/* Sets every ring's row volumes and gas pressure from the current state
 * (after the state was replaced, as by a checkpoint). */
void sim_refresh_volumes(dinghy_sim *sim);

#endif
