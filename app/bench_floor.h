/* The machine's limit for the skin's force kernel, measured in the same
 * run as the benchmark: a bare stream of the skin's elements (each once,
 * float, from L1, vectorised, one thread), so that any machine can tell
 * how close the tick comes to it. Compare figures only within one run. */
#ifndef DINGHY_BENCH_FLOOR_H
#define DINGHY_BENCH_FLOOR_H

/* Floating-point operations in one membrane triangle of the bare stream,
 * counted in bench_floor.c (adds, multiplies, negations, one division and
 * one root; comparisons not counted). */
#define BENCH_TRIANGLE_FLOPS 132

/* Nanoseconds per spring evaluation of the bare stream of the seed's
 * springs skin: the minimum over a few repeats of about 30 ms each. */
double bench_spring_floor_ns(void);

/* Nanoseconds per triangle of the bare stream of the membrane skin's
 * St. Venant-Kirchhoff triangles with the tension field (the membrane's
 * stretch; its bending hinges, once a step, are left out): the minimum
 * over a few repeats of about 30 ms each. */
double bench_membrane_floor_ns(void);

#endif
