/* The rings' shares among the threads; see balance.h. */
#include "physics/world/balance.h"

#include <string.h>

/* Weight of the newest step in a thread's recent cost a ring: a few steps
 * follow a change of speed (another program starting on a core), while
 * one step's rings touching or leaving the water do not swing the split. */
#define BALANCE_NEW 0.25

void balance_init(ring_balance *b) { memset(b, 0, sizeof *b); }

/* first[] for T threads and P rings: shares in proportion to 1 / cost where
 * every thread's cost is known, else equal; at least one ring each. */
static void make_split(ring_balance *b, int T, int P)
{
    int known = T <= BALANCE_MAX_THREADS;
    for (int t = 0; known && t < T; t++)
        known = b->cost[t] > 0.0;
    b->T = T;
    b->P = P;
    b->first[0] = 0;
    if (!known || T == 1) {
        for (int t = 1; t <= T && t <= BALANCE_MAX_THREADS; t++)
            b->first[t] = (int)((long)P * t / T);
        return;
    }
    double total = 0.0;
    for (int t = 0; t < T; t++)
        total += 1.0 / b->cost[t];
    double sum = 0.0;
    for (int t = 1; t < T; t++) {
        sum += 1.0 / b->cost[t - 1];
        int at = (int)(P * sum / total + 0.5);
        const int lo = b->first[t - 1] + 1, hi = P - (T - t); /* a ring for each */
        b->first[t] = at < lo ? lo : at > hi ? hi : at;
    }
    b->first[T] = P;
}

void balance_prepare(ring_balance *b, int T, int P)
{
    if (T != b->T || P != b->P)
        make_split(b, T, P);
}

void balance_rings(const ring_balance *b, int tid, int *p0, int *p1)
{
    if (b->T <= BALANCE_MAX_THREADS) {
        *p0 = b->first[tid];
        *p1 = b->first[tid + 1];
    } else { /* equal shares */
        *p0 = (int)((long)b->P * tid / b->T);
        *p1 = (int)((long)b->P * (tid + 1) / b->T);
    }
}

void balance_add(ring_balance *b, int tid, double seconds)
{
    if (tid < BALANCE_MAX_THREADS)
        b->busy[tid].seconds += seconds;
}

void balance_record(ring_balance *b)
{
    const int T = b->T < BALANCE_MAX_THREADS ? b->T : BALANCE_MAX_THREADS;
    for (int t = 0; t < T; t++) {
        const int rings = b->first[t + 1] - b->first[t];
        const double s = b->busy[t].seconds;
        b->busy[t].seconds = 0.0;
        if (rings <= 0 || !(s > 0.0))
            continue;
        const double c = s / rings;
        b->cost[t] = b->cost[t] > 0.0 ? (1.0 - BALANCE_NEW) * b->cost[t] + BALANCE_NEW * c : c;
    }
    if (b->T > 1 && b->T <= BALANCE_MAX_THREADS)
        make_split(b, b->T, b->P);
}
