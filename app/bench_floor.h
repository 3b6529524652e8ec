/* The machine's limit for the spring kernel, measured in the same run as
 * the benchmark: a bare stream of spring evaluations (each spring once,
 * float, from L1, vectorised), so that any machine can tell how close the
 * tick comes to it. */
#ifndef DINGHY_BENCH_FLOOR_H
#define DINGHY_BENCH_FLOOR_H

/* Nanoseconds per spring evaluation of the bare stream on this thread:
 * the minimum over a few repeats of about 30 ms each. */
double bench_spring_floor_ns(void);

#endif
