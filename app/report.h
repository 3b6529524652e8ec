/* Reports of a simulation's state: the JSON dump of headless runs. */
#ifndef DINGHY_REPORT_H
#define DINGHY_REPORT_H

#include <stdio.h>

#include "../physics/sim.h"

/* Writes the state summary as JSON (format in README.md) to out. */
void report_write_json(dinghy_sim *sim, FILE *out);

/* When sim has blown up, prints its one-line explanation on stderr and
 * returns 3 (the exit code); returns 0 for a healthy simulation. */
int report_blowup(const dinghy_sim *sim);

/* Writes the JSON summary to path ("-" = stdout). Returns 0, or -1 with a
 * message on stderr when the file cannot be written. */
int report_dump(dinghy_sim *sim, const char *path);

#endif
