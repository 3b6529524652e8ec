/* Where a frame's time goes: wall time per named pass, summed over the
 * frames of a run. A CPU rasteriser works on its own threads after the
 * calls return, so when timing is on each pass ends with glFinish (the
 * frame then no longer overlaps the physics: a measuring mode, --profile).
 * With LP_NUM_THREADS=0 llvmpipe draws on the calling thread and the times
 * are that thread's CPU time: the work itself, whatever else runs.
 * Off, pass_timer_mark costs one branch. */
#ifndef DINGHY_PASS_TIMER_H
#define DINGHY_PASS_TIMER_H

#include <stddef.h>

#define PASS_TIMER_MAX 16

typedef struct {
    int on;                        /* 1: each mark waits for the GL (glFinish) and times */
    int cpu;                       /* 1: this thread's CPU time (LP_NUM_THREADS=0), else wall */
    int count;                     /* passes named so far */
    const char *name[PASS_TIMER_MAX];
    double total_s[PASS_TIMER_MAX];/* wall time summed over the run, s */
    long frames;                   /* frames counted (pass_timer_frame) */
    double since;                  /* wall time of the last mark, s */
} pass_timer;

/* Starts the clock of the next pass (call at a frame's start, and after
 * anything that should not count). */
void pass_timer_start(pass_timer *t);
/* Ends the pass `name` (a string literal: kept by pointer): waits for the
 * GL to finish it when `gl` is 1, adds the time since the last mark. */
void pass_timer_mark(pass_timer *t, const char *name, int gl);
/* Counts one frame. */
void pass_timer_frame(pass_timer *t);
/* "name 1.23 ms  name 0.40 ms ..." averaged per frame, the largest first. */
void pass_timer_format(const pass_timer *t, char *buf, size_t len);

#endif
