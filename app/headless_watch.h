/* Headless runs that follow the config file: --headless --watch. */
#ifndef DINGHY_HEADLESS_WATCH_H
#define DINGHY_HEADLESS_WATCH_H

#include "config/settings.h"
#include "config/watch.h"

/* Simulates the scene of *settings paced to real time, one frame of 1/60 s
 * of simulated time per 1/60 s of wall time (slower when the machine cannot
 * keep up), polling w once a frame and applying saves (see reload.h): each
 * reload prints one line to stderr, a bad save prints every error and the
 * run goes on. Runs `steps` steps, or until SIGINT or SIGTERM when steps is
 * negative; then prints the summary line and writes the dump as headless_run
 * does. *settings follows the reloads. Returns the exit code: 0 ok, 2 no
 * memory for the scene or dump unwritable, 3 blew up. */
int headless_watch_run(config_watch *w, dinghy_settings *settings, long steps, const char *dump);

#endif
