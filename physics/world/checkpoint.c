/* Checkpoints: a copy of the state to go back to after a blow-up. What a
 * checkpoint keeps is what the array table (sim_layout.c) marks as saved,
 * and the wave layer's state (waves_couple.h). */
#include "physics/world/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "physics/skin/gas.h"
#include "physics/water/waves_couple.h"
#include "physics/world/sim_layout.h"
#include "physics/world/measure.h"

struct sim_checkpoint {
    int cap;          /* rings there is room for (of the simulation it belongs to) */
    int P;            /* rings there were (drop-ins and take-outs change it) */
    unsigned char *data; /* the saved arrays in table order, room for cap rings each */
    long step;
    double time;
    double stretch_held; /* the step's substeps follow it (step.c) */
    sim_def def;
    unsigned char *waves;/* the wave layer's state and the rows' displacement
                            (waves_coupling_save), ... */
    size_t waves_bytes;  /* ... this many bytes (0: there was no layer) */
    size_t waves_room;   /* bytes allocated at waves */
};

/* Calls fn for every saved array of the table with the array's place in
 * the simulation (its current buffer's, for a buffer), its place in the
 * checkpoint, its bytes per ring and how many rings (or slots) to copy. */
typedef void (*saved_fn)(void *sim_array, unsigned char *kept, size_t ring_bytes, size_t n);

static size_t walk_saved(const dinghy_sim *s, unsigned char *data, saved_fn fn)
{
    size_t at = 0;
    for (int k = 0; k < layout_array_count; k++) {
        const layout_array *a = &layout_arrays[k];
        if (!a->saved)
            continue;
        size_t bytes = layout_ring_bytes(a, s->M, s->V);
        if (fn)
            fn(*layout_field((dinghy_sim *)s, a, s->cur), data + at, bytes,
               (size_t)(a->shifts ? s->P : s->cap));
        at += bytes * (size_t)s->cap;
    }
    return at;
}

static void save_one(void *sim_array, unsigned char *kept, size_t ring_bytes, size_t n)
{
    memcpy(kept, sim_array, ring_bytes * n);
}

static void restore_one(void *sim_array, unsigned char *kept, size_t ring_bytes, size_t n)
{
    memcpy(sim_array, kept, ring_bytes * n);
}

sim_checkpoint *sim_checkpoint_new(const dinghy_sim *s)
{
    sim_checkpoint *cp = calloc(1, sizeof *cp);
    if (!cp)
        return NULL;
    cp->cap = s->cap;
    cp->data = malloc(walk_saved(s, NULL, NULL));
    if (!cp->data) {
        sim_checkpoint_free(cp);
        return NULL;
    }
    sim_checkpoint_save(s, cp);
    if (s->waves && !cp->waves_bytes) { /* no room for the waves */
        sim_checkpoint_free(cp);
        return NULL;
    }
    return cp;
}

/* Keeps the wave layer's state (room made the first time there is a
 * layer, or when it was made again larger). */
static void save_waves(const dinghy_sim *s, sim_checkpoint *cp)
{
    cp->waves_bytes = 0;
    if (!s->waves)
        return;
    const size_t bytes = waves_coupling_bytes(s->waves);
    if (bytes > cp->waves_room) {
        free(cp->waves);
        cp->waves = malloc(bytes);
        cp->waves_room = cp->waves ? bytes : 0;
    }
    if (!cp->waves)
        return;
    waves_coupling_save(s->waves, cp->waves);
    cp->waves_bytes = bytes;
}

void sim_checkpoint_save(const dinghy_sim *s, sim_checkpoint *cp)
{
    if (cp->cap != s->cap)
        return;
    walk_saved(s, cp->data, save_one);
    cp->P = s->P;
    cp->step = s->step;
    cp->time = s->time;
    cp->stretch_held = s->stretch_held;
    cp->def = s->def;
    save_waves(s, cp);
}

int sim_checkpoint_restore(dinghy_sim *s, const sim_checkpoint *cp)
{
    if (cp->cap != s->cap)
        return -1;
    sim_set_count(s, cp->P);
    walk_saved(s, cp->data, restore_one);
    s->step = cp->step;
    s->time = cp->time;
    s->stretch_held = cp->stretch_held;
    s->grab.held = SIM_RING_NONE;
    sim_set_live(s, &cp->def); /* the wave layer on or off as it was, then its state */
    if (s->waves && cp->waves_bytes == waves_coupling_bytes(s->waves))
        waves_coupling_load(s->waves, cp->waves);
    else if (s->waves)
        waves_coupling_reset(s->waves);
    memset(&s->blowup, 0, sizeof s->blowup);
    memset(s->tick->row_bad, 0, s->nrows);
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
    free(cp->waves);
    free(cp);
}
