/* Slots owned by index: the hand-off of states between two threads. */
#include "app/handoff.h"

#include <string.h>

int handoff_init(handoff *h, const dinghy_sim *sim)
{
    memset(h, 0, sizeof *h);
    h->newest = h->prev = h->writing = h->read_a = h->read_b = -1;
    if (pthread_mutex_init(&h->lock, NULL) != 0)
        return -1;
    for (int i = 0; i < HANDOFF_SLOTS; i++)
        if (!(h->slot[i] = sim_snapshot_new(sim))) {
            handoff_free(h);
            return -1;
        }
    return 0;
}

void handoff_free(handoff *h)
{
    for (int i = 0; i < HANDOFF_SLOTS; i++)
        sim_snapshot_free(h->slot[i]);
    pthread_mutex_destroy(&h->lock);
    memset(h->slot, 0, sizeof h->slot);
}

/* Whether slot i is free: neither published nor held by the reader. */
static int slot_free(const handoff *h, int i)
{
    return i != h->newest && i != h->prev && i != h->read_a && i != h->read_b;
}

sim_snapshot *handoff_begin_write(handoff *h)
{
    pthread_mutex_lock(&h->lock);
    int i = 0;
    while (!slot_free(h, i)) /* 5 slots, at most 4 taken: one is always free */
        i++;
    h->writing = i;
    pthread_mutex_unlock(&h->lock);
    return h->slot[i];
}

void handoff_publish(handoff *h)
{
    pthread_mutex_lock(&h->lock);
    if (h->unseen && h->newest >= 0)
        sim_snapshot_carry_events(h->slot[h->writing], h->slot[h->newest]);
    h->prev = h->newest;
    h->newest = h->writing;
    h->writing = -1;
    h->unseen = 1;
    h->published++;
    pthread_mutex_unlock(&h->lock);
}

void handoff_restart(handoff *h)
{
    pthread_mutex_lock(&h->lock);
    h->prev = h->newest = -1;
    h->unseen = 0; /* the old run's events are not carried into the new */
    pthread_mutex_unlock(&h->lock);
}

int handoff_begin_read(handoff *h, const sim_snapshot **a, const sim_snapshot **b, int *fresh)
{
    pthread_mutex_lock(&h->lock);
    int ok = h->newest >= 0;
    if (ok) {
        h->read_a = h->prev;
        h->read_b = h->newest;
        *a = h->prev >= 0 ? h->slot[h->prev] : NULL;
        *b = h->slot[h->newest];
        *fresh = h->unseen;
        h->unseen = 0;
    }
    pthread_mutex_unlock(&h->lock);
    return ok ? 0 : -1;
}

void handoff_end_read(handoff *h)
{
    pthread_mutex_lock(&h->lock);
    h->read_a = h->read_b = -1;
    pthread_mutex_unlock(&h->lock);
}
