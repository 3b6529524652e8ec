/* Headless runs: simulate without window or sound. */
#ifndef DINGHY_HEADLESS_H
#define DINGHY_HEADLESS_H

#include "../physics/params.h"
#include "../physics/sim.h"

/* Simulates `steps` steps of the scene in params, prints a one-line summary
 * and writes the JSON dump when dump is not NULL. Returns the program's exit
 * code: 0 ok, 2 dump file unwritable, 3 blew up. */
int headless_run(const sim_params *params, long steps, const char *dump);

/* Prints the one-line summary of a run of `done` steps that took `wall`
 * seconds (to stdout, or stderr when the dump goes to stdout) and writes the
 * dump when dump is not NULL. Returns 0, or 2 when the dump cannot be written. */
int headless_report(dinghy_sim *sim, long done, double wall, const char *dump);

#endif
