/* Applies saves of the config file to a running simulation (hot reload),
 * for the demo loop and headless --watch runs alike. */
#ifndef DINGHY_RELOAD_H
#define DINGHY_RELOAD_H

#include <stdio.h>

#include "../config/diag.h"
#include "../config/settings.h"
#include "../config/watch.h"
#include "../physics/sim.h"

typedef enum {
    RELOAD_NONE,     /* no new save */
    RELOAD_SAME,     /* saved, nothing changed */
    RELOAD_APPLIED,  /* tunables changed and now act on the running dinghies */
    RELOAD_REBUILT,  /* a structural key changed: a new scene replaced the old one */
    RELOAD_REJECTED  /* errors in the file (or no memory for the new scene): the old one runs on */
} reload_result;

/* What a reload did, for the terminal and the screen. Zero it before the
 * first use; reload_poll clears it each time. */
typedef struct {
    reload_result result;
    diag_list errors;   /* RELOAD_REJECTED: every problem, "FILE:LINE: message" */
    char summary[1024]; /* one line: "reloaded dinghy.ini: dinghy.stiffness 400 -> 800",
                           "reloaded dinghy.ini: no changes" or "dinghy.ini not applied
                           (2 errors); ..."; "" for RELOAD_NONE */
    char warning[512];  /* stability advice for the new settings, or "" */
} reload_report;

/* Call once per frame. Polls w; on a good save applies the new settings to
 * *current and the running simulation *sim: tunables (time step, damping,
 * gravity, water, stiffness, pressure, repulsion, threads) in place; a
 * structural change (scene, count, mesh, radii, mass, seed) builds a new
 * simulation and destroys the old one only once the new one exists, so
 * *sim may change (RELOAD_REBUILT: re-read sizes and buffers). render.*
 * and audio.* keys land in *current only: their users read them from there.
 * A bad save changes nothing. Fills r and returns r->result. */
reload_result reload_poll(config_watch *w, dinghy_settings *current, dinghy_sim **sim,
                          reload_report *r);

/* Prints r to out: the errors, the summary line and the warning, each
 * after "dinghy: "; prints nothing for RELOAD_NONE. */
void reload_report_print(const reload_report *r, FILE *out);

void reload_report_free(reload_report *r);

#endif
