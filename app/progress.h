/* The progress line of a long headless run, on stderr when it is a
 * terminal: once the run has taken PROGRESS_AFTER seconds of wall time,
 *   dinghy: simulated 12.5 of 20.0 s, 0.46x real time, about 16 s left
 * rewritten in place at most every PROGRESS_EVERY seconds, and cleared when
 * the run ends so that the summary line stands alone. The caller passes
 * the wall clock in, so the line can be tested without waiting. */
#ifndef DINGHY_PROGRESS_H
#define DINGHY_PROGRESS_H

#include <stdio.h>

#define PROGRESS_AFTER 10.0 /* s of wall time before the first line */
#define PROGRESS_EVERY 0.5  /* s of wall time between lines, at least */

typedef struct {
    FILE *out;     /* where the line goes; NULL: quiet */
    double start;  /* wall clock at the start of the run, s */
    double total;  /* simulated time the run will reach, s */
    double last;   /* wall clock of the last line written, s */
    int shown;     /* 1: a line is on the terminal now */
} progress;

/* Starts the clock of a run that will simulate total_s seconds, at wall
 * clock now (s). out NULL (stderr not a terminal): every call does nothing. */
void progress_begin(progress *p, FILE *out, double total_s, double now);

/* The run has simulated simulated_s seconds at wall clock now: writes the
 * line when it is due (real-time factor: simulated over wall seconds so
 * far; time left at that pace). */
void progress_update(progress *p, double simulated_s, double now);

/* Clears the line, if one is shown. */
void progress_end(progress *p);

#endif
