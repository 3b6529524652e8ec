/* Snapshots: what readers see of a simulation, copied out by the thread
 * that steps it and shown on a view (a simulation never stepped). What a
 * snapshot keeps is what a checkpoint keeps (the array table's saved
 * arrays, sim_layout.c), the published ring state and the wave layer's
 * heights, so a view answers every read of dinghy/sim.h (and draws the
 * waves) as the simulation did. */
#include "dinghy/snapshot.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "physics/water/waves.h"
#include "physics/water/waves_couple.h"
#include "physics/world/sim_internal.h"
#include "physics/world/sim_layout.h"

struct sim_snapshot {
    int cap, M;          /* of the simulation it was made for */
    size_t V;            /* vertices per ring */
    int P;               /* rings there were */
    long step;
    double time;         /* s */
    sim_def def;
    sim_ring_id held;    /* the grabbed ring */
    unsigned char *data; /* the kept arrays in table order, room for cap rings each */
    sim_event *events;   /* SIM_EVENT_CAPACITY */
    size_t event_count;
    long dropped;
    float *waves;        /* the wave layer's padded heights (waves_heights), m, ... */
    size_t waves_count;  /* ... this many (0: the simulation had no layer) */
};

/* A snapshot keeps the saved arrays and the published ring state. */
static int kept(const layout_array *a)
{
    return a->saved || (a->home == LAYOUT_IN_SIM && a->offset == offsetof(dinghy_sim, rings));
}

/* Bytes of array a in use with P rings (all of the room for an array by slot). */
static size_t used_bytes(const sim_snapshot *s, const layout_array *a, int P)
{
    return layout_ring_bytes(a, s->M, s->V) * (size_t)(a->shifts ? P : s->cap);
}

/* The room s keeps for array a: its bytes for cap rings, rounded up to
 * max_align_t's alignment so that the next array starts aligned for any
 * type (an int or a byte a ring for an odd cap left the published ring
 * state, doubles, misaligned: UBSan saw it in test_physics_thread). */
static size_t kept_room(const sim_snapshot *s, const layout_array *a)
{
    const size_t align = _Alignof(max_align_t);
    const size_t bytes = layout_ring_bytes(a, s->M, s->V) * (size_t)s->cap;
    return (bytes + align - 1) / align * align;
}

/* Where s keeps the array at `offset` of `home`, or NULL when it keeps none. */
static unsigned char *kept_copy(const sim_snapshot *s, layout_home home, size_t offset)
{
    size_t at = 0;
    for (int k = 0; k < layout_array_count; k++) {
        const layout_array *a = &layout_arrays[k];
        if (!kept(a))
            continue;
        if (a->home == home && a->offset == offset)
            return s->data + at;
        at += kept_room(s, a);
    }
    return NULL;
}

/* Copies every kept array between sim (its current buffer) and s: into s
 * when `out`, else into sim. */
static void copy_kept(dinghy_sim *sim, const sim_snapshot *s, int out)
{
    size_t at = 0;
    for (int k = 0; k < layout_array_count; k++) {
        const layout_array *a = &layout_arrays[k];
        if (!kept(a))
            continue;
        void *live = *layout_field(sim, a, sim->cur);
        if (out)
            memcpy(s->data + at, live, used_bytes(s, a, s->P));
        else
            memcpy(live, s->data + at, used_bytes(s, a, s->P));
        at += kept_room(s, a);
    }
}

static int fits(const sim_snapshot *s, const dinghy_sim *sim)
{
    return s->cap == sim->cap && s->M == sim->M && s->V == sim->V;
}

sim_snapshot *sim_snapshot_new(const dinghy_sim *sim)
{
    sim_snapshot *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cap = sim->cap;
    s->M = sim->M;
    s->V = sim->V;
    size_t bytes = 0;
    for (int k = 0; k < layout_array_count; k++)
        if (kept(&layout_arrays[k]))
            bytes += kept_room(s, &layout_arrays[k]);
    s->data = malloc(bytes);
    s->events = malloc(sizeof *s->events * SIM_EVENT_CAPACITY);
    if (!s->data || !s->events) {
        sim_snapshot_free(s);
        return NULL;
    }
    sim_snapshot_take(sim, s);
    if (sim->waves && !s->waves_count) { /* room for the waves: none */
        sim_snapshot_free(s);
        return NULL;
    }
    return s;
}

/* Copies the simulation's wave heights into s (room for them made the
 * first time, or when the layer was made again at another size). */
static void take_waves(const dinghy_sim *sim, sim_snapshot *s)
{
    size_t count = 0;
    const float *h = sim->waves ? waves_heights(sim->waves->layer, &count) : NULL;
    if (h && count != s->waves_count) {
        free(s->waves);
        s->waves = malloc(count * sizeof *s->waves);
        s->waves_count = s->waves ? count : 0;
    }
    if (h && s->waves)
        memcpy(s->waves, h, count * sizeof *h);
    else
        s->waves_count = 0;
}

/* The view's wave heights f of the way from a's to b's (b's when a has
 * none of the same size); flat when b has none that fit the view's layer. */
static void show_waves(dinghy_sim *view, const sim_snapshot *a, const sim_snapshot *b, double f)
{
    if (!view->waves)
        return;
    size_t count;
    float *h = waves_heights(view->waves->layer, &count);
    if (b->waves_count != count) {
        waves_reset(view->waves->layer);
        return;
    }
    if (!a || a->waves_count != count || !(f < 1.0)) {
        memcpy(h, b->waves, count * sizeof *h);
        return;
    }
    const float g = (float)f;
    for (size_t i = 0; i < count; i++)
        h[i] = a->waves[i] + g * (b->waves[i] - a->waves[i]);
}

void sim_snapshot_free(sim_snapshot *s)
{
    if (!s)
        return;
    free(s->data);
    free(s->events);
    free(s->waves);
    free(s);
}

int sim_snapshot_take(const dinghy_sim *sim, sim_snapshot *s)
{
    if (!fits(s, sim))
        return -1;
    s->P = sim->P;
    copy_kept((dinghy_sim *)sim, s, 1);
    s->step = sim->step;
    s->time = sim->time;
    s->def = sim->def;
    s->held = sim->grab.held;
    s->event_count = sim->ev.count < SIM_EVENT_CAPACITY ? sim->ev.count : SIM_EVENT_CAPACITY;
    memcpy(s->events, sim->ev.out, s->event_count * sizeof *s->events);
    s->dropped = sim->ev.dropped;
    take_waves(sim, s);
    return 0;
}

void sim_snapshot_carry_events(sim_snapshot *s, const sim_snapshot *earlier)
{
    size_t first = earlier->event_count;
    size_t keep = s->event_count;
    if (first + keep > SIM_EVENT_CAPACITY) /* the newest are dropped, as the tick's */
        keep = SIM_EVENT_CAPACITY - first;
    s->dropped += earlier->dropped + (long)(s->event_count - keep);
    memmove(s->events + first, s->events, keep * sizeof *s->events);
    memcpy(s->events, earlier->events, first * sizeof *s->events);
    s->event_count = first + keep;
}

double sim_snapshot_time(const sim_snapshot *s) { return s->time; }
long sim_snapshot_steps(const sim_snapshot *s) { return s->step; }

/* 1 when ring p is the same ring in a and b and was not dropped in again
 * between them: its motion from a to b is a motion, not a jump. */
static int same_ring(const sim_snapshot *a, const sim_snapshot *b, int p)
{
    if (p >= a->P)
        return 0;
    const int *sa = (const int *)kept_copy(a, LAYOUT_IN_SIM, offsetof(dinghy_sim, ring_slot));
    const int *sb = (const int *)kept_copy(b, LAYOUT_IN_SIM, offsetof(dinghy_sim, ring_slot));
    const unsigned *ga = (const unsigned *)kept_copy(a, LAYOUT_IN_SIM, offsetof(dinghy_sim, slot_gen));
    const unsigned *gb = (const unsigned *)kept_copy(b, LAYOUT_IN_SIM, offsetof(dinghy_sim, slot_gen));
    const int *ra = (const int *)kept_copy(a, LAYOUT_IN_SIM, offsetof(dinghy_sim, respawns));
    const int *rb = (const int *)kept_copy(b, LAYOUT_IN_SIM, offsetof(dinghy_sim, respawns));
    return sa[p] == sb[p] && ga[sa[p]] == gb[sb[p]] && ra[p] == rb[p];
}

static float lerpf(float a, float b, float f) { return a + f * (b - a); }
static double lerp(double a, double b, double f) { return a + f * (b - a); }

/* The view's positions and ring summaries from f of the way from a to b,
 * for the rings that moved rather than jumped. */
static void lerp_rings(dinghy_sim *view, const sim_snapshot *a, const sim_snapshot *b, double f)
{
    const size_t pos[3] = {offsetof(sim_buffer, x), offsetof(sim_buffer, y),
                           offsetof(sim_buffer, z)};
    const sim_ring_state *rs = (const sim_ring_state *)kept_copy(a, LAYOUT_IN_SIM,
                                                                 offsetof(dinghy_sim, rings));
    float *to[3] = {view->buf[view->cur].x, view->buf[view->cur].y, view->buf[view->cur].z};
    for (int p = 0; p < b->P; p++) {
        if (!same_ring(a, b, p))
            continue;
        size_t v0 = (size_t)p * b->V;
        for (int k = 0; k < 3; k++) {
            const float *from = (const float *)kept_copy(a, LAYOUT_IN_BUFFER, pos[k]) + v0;
            for (size_t v = 0; v < b->V; v++) /* the view holds b's */
                to[k][v0 + v] = lerpf(from[v], to[k][v0 + v], (float)f);
        }
        sim_ring_state *r = &view->rings[p];
        for (int k = 0; k < 3; k++)
            r->centre[k] = lerp(rs[p].centre[k], r->centre[k], f);
        r->min_z = lerp(rs[p].min_z, r->min_z, f);
        r->max_z = lerp(rs[p].max_z, r->max_z, f);
    }
}

int sim_snapshot_show(dinghy_sim *view, const sim_snapshot *a, const sim_snapshot *b, double f,
                      int with_events)
{
    if (!fits(b, view) || (a && !fits(a, view)))
        return -1;
    f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
    sim_set_count(view, b->P);
    copy_kept(view, b, 0);
    sim_def live = view->def;
    sim_def_copy_live(&live, &b->def);
    if (memcmp(&live, &view->def, sizeof live) != 0)
        sim_set_live(view, &b->def);
    view->step = b->step;
    view->time = b->time;
    view->grab.held = b->held;
    if (a && f < 1.0) {
        lerp_rings(view, a, b, f);
        view->time = lerp(a->time, b->time, f);
    }
    show_waves(view, a, b, f);
    view->ev.count = with_events ? b->event_count : 0;
    view->ev.dropped = with_events ? b->dropped : 0;
    memcpy(view->ev.out, b->events, view->ev.count * sizeof *b->events);
    return 0;
}
