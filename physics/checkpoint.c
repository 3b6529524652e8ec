/* Checkpoints: a copy of the state to go back to after a blow-up. */
#include "sim_internal.h"

#include "gas.h"
#include "measure.h"

#include <stdlib.h>
#include <string.h>

#define RING_DOUBLES 4 /* gas fraction, hole area, station, travelled */

struct sim_checkpoint {
    int cap;          /* rings there is room for (of the simulation it belongs to) */
    int P;            /* rings there were (drop-ins and take-outs change it) */
    size_t nverts;    /* their vertices */
    float *data;      /* x, y, z, vx, vy, vz, room for cap rings of floats each */
    double *ring;     /* per ring: gas fraction, hole area, station, travelled */
    int *respawns;
    long step;
    double time;
    sim_def def;
};

sim_checkpoint *sim_checkpoint_new(const dinghy_sim *s)
{
    sim_checkpoint *cp = calloc(1, sizeof *cp);
    if (!cp)
        return NULL;
    cp->cap = s->cap;
    const size_t room = s->V * (size_t)s->cap;
    cp->data = malloc(6 * room * sizeof *cp->data);
    cp->ring = malloc(RING_DOUBLES * (size_t)s->cap * sizeof *cp->ring);
    cp->respawns = malloc((size_t)s->cap * sizeof *cp->respawns);
    if (!cp->data || !cp->ring || !cp->respawns) {
        sim_checkpoint_free(cp);
        return NULL;
    }
    sim_checkpoint_save(s, cp);
    return cp;
}

/* The per-ring doubles a checkpoint keeps, in its order. */
static void ring_arrays(const dinghy_sim *s, double *out[RING_DOUBLES])
{
    out[0] = s->gas_frac; out[1] = s->hole_area; out[2] = s->ring_s; out[3] = s->travelled;
}

static void buffer_arrays(const sim_buffer *b, float *out[6])
{
    out[0] = b->x; out[1] = b->y; out[2] = b->z;
    out[3] = b->vx; out[4] = b->vy; out[5] = b->vz;
}

void sim_checkpoint_save(const dinghy_sim *s, sim_checkpoint *cp)
{
    if (cp->cap != s->cap)
        return;
    float *a[6];
    double *r[RING_DOUBLES];
    buffer_arrays(&s->buf[s->cur], a);
    ring_arrays(s, r);
    const size_t P = (size_t)s->P;
    for (int k = 0; k < 6; k++)
        memcpy(cp->data + (size_t)k * s->V * (size_t)s->cap, a[k], s->nverts * sizeof(float));
    for (int k = 0; k < RING_DOUBLES; k++)
        memcpy(cp->ring + (size_t)k * (size_t)s->cap, r[k], P * sizeof(double));
    memcpy(cp->respawns, s->respawns, P * sizeof(int));
    cp->P = s->P;
    cp->nverts = s->nverts;
    cp->step = s->step;
    cp->time = s->time;
    cp->def = s->def;
}

int sim_checkpoint_restore(dinghy_sim *s, const sim_checkpoint *cp)
{
    if (cp->cap != s->cap)
        return -1;
    sim_set_count(s, cp->P);
    float *a[6];
    double *r[RING_DOUBLES];
    buffer_arrays(&s->buf[s->cur], a);
    ring_arrays(s, r);
    const size_t P = (size_t)s->P;
    for (int k = 0; k < 6; k++)
        memcpy(a[k], cp->data + (size_t)k * s->V * (size_t)s->cap, cp->nverts * sizeof(float));
    for (int k = 0; k < RING_DOUBLES; k++)
        memcpy(r[k], cp->ring + (size_t)k * (size_t)s->cap, P * sizeof(double));
    memcpy(s->respawns, cp->respawns, P * sizeof(int));
    s->step = cp->step;
    s->time = cp->time;
    s->grab.ring = -1;
    sim_set_live(s, &cp->def);
    memset(&s->blowup, 0, sizeof s->blowup);
    memset(s->row_bad, 0, s->nrows);
    /* the remembered contacts may name rings that are gone */
    events_reset(&s->ev);
    gas_refresh_volumes(s);
    sim_measure_rings(s);
    return 0;
}

void sim_checkpoint_free(sim_checkpoint *cp)
{
    if (!cp)
        return;
    free(cp->data);
    free(cp->ring);
    free(cp->respawns);
    free(cp);
}
