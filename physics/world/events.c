/* Contact starts and splashes, gathered per ring and merged in order. */
#include "physics/world/events.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int events_init(event_state *e, int P, int M)
{
    memset(e, 0, sizeof *e);
    e->P = P;
    e->M = M;
    size_t rows = (size_t)P * M;
    e->row_splash_count = calloc(rows, sizeof *e->row_splash_count);
    e->row_splash_speed = calloc(rows, sizeof *e->row_splash_speed);
    e->splash_count = calloc((size_t)P, sizeof *e->splash_count);
    e->splash_speed = calloc((size_t)P, sizeof *e->splash_speed);
    e->prev_start = calloc((size_t)P + 1, sizeof *e->prev_start);
    e->out = malloc(sizeof *e->out * SIM_EVENT_CAPACITY);
    if (!e->row_splash_count || !e->row_splash_speed || !e->splash_count || !e->splash_speed
        || !e->prev_start || !e->out || events_reserve(e, 8 * (size_t)P) != 0) {
        events_free(e);
        return -1;
    }
    return 0;
}

void events_free(event_state *e)
{
    free(e->row_splash_count); free(e->row_splash_speed);
    free(e->touch); free(e->touching); free(e->started);
    free(e->splash_count); free(e->splash_speed);
    free(e->prev_start); free(e->prev_q); free(e->out);
    memset(e, 0, sizeof *e);
}

int events_reserve(event_state *e, size_t slots)
{
    if (slots <= e->slot_cap && e->touch)
        return 0;
    size_t cap = e->slot_cap ? e->slot_cap : 16;
    while (cap < slots)
        cap *= 2;
    unsigned char *touch = realloc(e->touch, cap * (size_t)e->M);
    if (touch)
        e->touch = touch;
    unsigned char *touching = realloc(e->touching, cap);
    if (touching)
        e->touching = touching;
    unsigned char *started = realloc(e->started, cap);
    if (started)
        e->started = started;
    int *prev_q = realloc(e->prev_q, cap * sizeof *prev_q);
    if (prev_q)
        e->prev_q = prev_q;
    if (!touch || !touching || !started || !prev_q)
        return -1;
    e->slot_cap = cap;
    e->prev_cap = cap;
    return 0;
}

void events_set_count(event_state *e, int P)
{
    for (int p = e->P + 1; p <= P; p++) /* new rings touch nothing yet */
        e->prev_start[p] = e->prev_start[e->P];
    e->P = P;
}

size_t events_bytes(int P, int M)
{
    return (size_t)P * M * (sizeof(int) + sizeof(float))
         + (size_t)P * (sizeof(int) + sizeof(float)) + ((size_t)P + 1) * sizeof(int)
         + SIM_EVENT_CAPACITY * sizeof(sim_event);
}

void events_reset(event_state *e)
{
    memset(e->prev_start, 0, sizeof *e->prev_start * ((size_t)e->P + 1));
    e->count = 0;
    e->dropped = 0;
}

void events_ring(event_state *e, const broadphase *bp, int p)
{
    const int M = e->M;
    const int *prev = e->prev_q + e->prev_start[p], *prev_end = e->prev_q + e->prev_start[p + 1];
    for (int k = bp->nb_start[p]; k < bp->nb_start[p + 1]; k++) {
        unsigned char any = 0;
        for (int m = 0; m < M; m++)
            any |= e->touch[(size_t)k * M + m];
        e->touching[k] = any;
        /* both lists ascend: walk the previous one alongside */
        int q = bp->nb[k];
        while (prev < prev_end && *prev < q)
            prev++;
        int was = prev < prev_end && *prev == q;
        e->started[k] = any && !was;
    }
    int count = 0;
    float speed = 0.0f;
    for (int m = 0; m < M; m++) {
        size_t row = (size_t)p * M + m;
        count += e->row_splash_count[row];
        if (e->row_splash_speed[row] > speed)
            speed = e->row_splash_speed[row];
    }
    e->splash_count[p] = count;
    e->splash_speed[p] = speed;
}

static sim_event *push(event_state *e)
{
    if (e->count >= SIM_EVENT_CAPACITY) {
        e->dropped++;
        return NULL;
    }
    return &e->out[e->count++];
}

void events_add(event_state *e, const sim_event *ev)
{
    sim_event *slot = push(e);
    if (slot)
        *slot = *ev;
}

void events_merge(event_state *e, const broadphase *bp, const double *c0, const double *v0,
                  long step)
{
    size_t kept = 0;
    for (int p = 0; p < e->P; p++) {
        for (int k = bp->nb_start[p]; k < bp->nb_start[p + 1]; k++) {
            int q = bp->nb[k];
            if (!e->started[k] || q < p) /* each pair once, from its lower index */
                continue;
            sim_event *ev = push(e);
            if (!ev)
                continue;
            const double *va = v0 + 3 * p, *vb = v0 + 3 * q;
            ev->kind = SIM_EVENT_CONTACT;
            ev->ring = p;
            ev->other = q;
            ev->step = step;
            ev->speed = (float)sqrt((va[0] - vb[0]) * (va[0] - vb[0]) + (va[1] - vb[1]) * (va[1] - vb[1])
                                    + (va[2] - vb[2]) * (va[2] - vb[2]));
            for (int i = 0; i < 3; i++)
                ev->position[i] = (float)(0.5 * (c0[3 * p + i] + c0[3 * q + i]));
            ev->count = 1;
        }
        if (e->splash_count[p] > 0) {
            sim_event *ev = push(e);
            if (ev) {
                ev->kind = SIM_EVENT_SPLASH;
                ev->ring = p;
                ev->other = -1;
                ev->step = step;
                ev->speed = e->splash_speed[p];
                for (int i = 0; i < 3; i++)
                    ev->position[i] = (float)c0[3 * p + i];
                ev->count = e->splash_count[p];
            }
        }
        /* remember p's touching pairs for the next step */
        e->prev_start[p] = (int)kept;
        for (int k = bp->nb_start[p]; k < bp->nb_start[p + 1]; k++)
            if (e->touching[k])
                e->prev_q[kept++] = bp->nb[k];
    }
    e->prev_start[e->P] = (int)kept;
}
