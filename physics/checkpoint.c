/* Checkpoints: a copy of the state to go back to after a blow-up. */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

struct sim_checkpoint {
    size_t nverts;
    float *data;      /* x, y, z, vx, vy, vz, nverts floats each */
    long step;
    double time;
    sim_def def;
};

sim_checkpoint *sim_checkpoint_new(const dinghy_sim *s)
{
    sim_checkpoint *cp = calloc(1, sizeof *cp);
    if (!cp)
        return NULL;
    cp->nverts = s->nverts;
    cp->data = malloc(6 * s->nverts * sizeof *cp->data);
    if (!cp->data) {
        free(cp);
        return NULL;
    }
    sim_checkpoint_save(s, cp);
    return cp;
}

static void buffer_arrays(const sim_buffer *b, float *out[6])
{
    out[0] = b->x; out[1] = b->y; out[2] = b->z;
    out[3] = b->vx; out[4] = b->vy; out[5] = b->vz;
}

void sim_checkpoint_save(const dinghy_sim *s, sim_checkpoint *cp)
{
    if (cp->nverts != s->nverts)
        return;
    float *a[6];
    buffer_arrays(&s->buf[s->cur], a);
    for (int k = 0; k < 6; k++)
        memcpy(cp->data + (size_t)k * cp->nverts, a[k], cp->nverts * sizeof(float));
    cp->step = s->step;
    cp->time = s->time;
    cp->def = s->def;
}

int sim_checkpoint_restore(dinghy_sim *s, const sim_checkpoint *cp)
{
    if (cp->nverts != s->nverts)
        return -1;
    float *a[6];
    buffer_arrays(&s->buf[s->cur], a);
    for (int k = 0; k < 6; k++)
        memcpy(a[k], cp->data + (size_t)k * cp->nverts, cp->nverts * sizeof(float));
    s->step = cp->step;
    s->time = cp->time;
    sim_set_live(s, &cp->def);
    memset(&s->blowup, 0, sizeof s->blowup);
    memset(s->row_bad, 0, s->nrows);
    sim_clear_events(s);
    sim_refresh_volumes(s);
    sim_measure_rings(s);
    return 0;
}

void sim_checkpoint_free(sim_checkpoint *cp)
{
    if (!cp)
        return;
    free(cp->data);
    free(cp);
}
