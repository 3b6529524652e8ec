/* Headless runs: simulate without window or sound. */
#ifndef DINGHY_HEADLESS_H
#define DINGHY_HEADLESS_H

#include "../physics/params.h"

/* Simulates `steps` steps of the scene in params, prints a one-line summary
 * and writes the JSON dump when dump is not NULL. Returns the program's exit
 * code: 0 ok, 2 dump file unwritable, 3 blew up. */
int headless_run(const sim_params *params, long steps, const char *dump);

#endif
