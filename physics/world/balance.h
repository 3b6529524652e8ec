/* How a step's rings are shared among its threads (when there are at
 * least as many rings as threads and each thread owns whole rings). Private
 * to the physics core.
 *
 * Equal shares wait on the slowest core: on the 2-core machines here one
 * core runs the tick 30% slower than the other (the host's), and another
 * program on a core slows it more. So each thread's seconds on its own
 * rings are measured every step and the next step's shares follow each
 * thread's speed. Any split gives the same bits: a ring's work does not
 * depend on which thread does it. */
#ifndef DINGHY_BALANCE_H
#define DINGHY_BALANCE_H

/* Threads the shares are measured for; more run in equal shares. */
#define BALANCE_MAX_THREADS 64

/* One thread's clock for this step, on a cache line of its own (each
 * thread writes only its own). */
typedef struct {
    double seconds; /* on its own rings this step, s */
    char pad[56];
} balance_clock;

typedef struct {
    int T, P;                            /* the split's threads and rings (0: none yet) */
    int first[BALANCE_MAX_THREADS + 1];  /* thread t owns rings first[t] .. first[t+1]-1 */
    double cost[BALANCE_MAX_THREADS];    /* each thread's recent seconds a ring a step
                                            (0: not measured yet) */
    balance_clock busy[BALANCE_MAX_THREADS];
} ring_balance;

/* Forgets every measurement. */
void balance_init(ring_balance *b);

/* The split of P rings among T threads (1 <= T <= P) for the coming step:
 * kept when it was made for T and P, else made anew from the measured
 * speeds (equal shares for what was not measured). Serial, before the
 * step's parallel regions. */
void balance_prepare(ring_balance *b, int T, int P);

/* Thread tid's rings [*p0, *p1) of the split balance_prepare made. */
void balance_rings(const ring_balance *b, int tid, int *p0, int *p1);

/* Adds `seconds` to thread tid's time on its own rings this step (only
 * thread tid calls it for tid). */
void balance_add(ring_balance *b, int tid, double seconds);

/* At the step's end, serial: each thread's seconds a ring into its
 * recent cost, the next step's split from them, the clocks to zero. */
void balance_record(ring_balance *b);

#endif
