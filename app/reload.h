/* Applies saves of the config file to a running simulation (hot reload),
 * for the demo loop and headless --watch runs alike. */
#ifndef DINGHY_RELOAD_H
#define DINGHY_RELOAD_H

#include <stdio.h>

#include "config/diag.h"
#include "config/settings.h"
#include "config/watch.h"
#include "dinghy/health.h"
#include "dinghy/sim.h"

typedef enum {
    RELOAD_NONE,     /* no new save */
    RELOAD_SAME,     /* saved, nothing changed */
    RELOAD_APPLIED,  /* tunables changed and now act on the running rings */
    RELOAD_REBUILT,  /* a structural key changed: a new scene replaced the old one */
    RELOAD_REJECTED  /* errors in the file (or no memory for the new scene): the old one runs on */
} reload_result;

/* What a reload did, for the terminal and the screen. Zero it before the
 * first use; reload_poll clears it each time. */
typedef struct {
    reload_result result;
    diag_list errors;   /* RELOAD_REJECTED: every problem, "FILE:LINE: message"; applied:
                           a warning per changed key that does nothing (diag_warn) */
    char summary[1024]; /* one line: "reloaded dinghy.ini: dinghy.stiffness 400 -> 800",
                           "reloaded dinghy.ini: no changes" or "dinghy.ini not applied
                           (2 errors); ..."; "" for RELOAD_NONE */
    char warning[512];  /* stability advice for the new settings, or "" */
} reload_report;

/* Call once per frame. Polls w; on a good save hands the new settings to
 * reload_apply (below), so a save and an on-screen change take one path.
 * A bad save changes nothing. Fills r and returns r->result. */
reload_result reload_poll(config_watch *w, dinghy_settings *current, dinghy_sim **sim,
                          reload_report *r);

/* reload_poll in two halves, for a caller that must stop the physics
 * before the simulation changes (the demo's physics thread): the look
 * (no simulation) fills r and returns RELOAD_NONE, RELOAD_SAME or
 * RELOAD_REJECTED, or RELOAD_APPLIED with the new settings in *next, which
 * reload_poll_finish then applies (its result as reload_poll's). */
reload_result reload_poll_look(config_watch *w, const dinghy_settings *current,
                               dinghy_settings *next, reload_report *r);
reload_result reload_poll_finish(config_watch *w, dinghy_settings *current,
                                 const dinghy_settings *next, dinghy_sim **sim, reload_report *r);

/* Applies the settings *next to *current and the running simulation *sim,
 * whoever made them (a saved file, the tuning panel). First the config
 * layer's checks across keys (config_check; each problem goes to
 * r->errors as "SOURCE: message" and nothing changes: RELOAD_REJECTED).
 * Then, key by key against *current (config_diff): nothing different is
 * RELOAD_SAME; tunables (time step, damping, gravity, water, river speed
 * and waves, stiffness, pressure, repulsion, threads) act in place
 * (sim_set_live, RELOAD_APPLIED); a structural change (scene, count, mesh,
 * radii, mass, sim.seed) builds a new simulation and destroys the old one only
 * once the new one exists, so *sim may change (RELOAD_REBUILT: re-read
 * sizes and buffers); a key it changed that does nothing under the new
 * models gets a warning in r->errors (config_edit_warnings). render.* and
 * audio.* keys land in *current only:
 * their users read them from there. `source` names the origin in r's
 * summary ("reloaded SOURCE: dinghy.stiffness 400 -> 800", "SOURCE not
 * applied (...)"). Clears r first; returns r->result. */
reload_result reload_apply(dinghy_settings *current, const dinghy_settings *next,
                           dinghy_sim **sim, reload_report *r, const char *source);

/* Prints r to out: the errors, the summary line and the warning, each
 * after "dinghy: "; prints nothing for RELOAD_NONE. */
void reload_report_print(const reload_report *r, FILE *out);

void reload_report_free(reload_report *r);

/* Rollback: the last good state and settings, to go back to when a run
 * blows up after a live edit (the core's checkpoints, dinghy/sim.h).
 * After every healthy frame the state is saved, except while an edit is on
 * probation: for RELOAD_GUARD_PROBATION_S of simulated time after a reload
 * is applied, the checkpoint stays the one from before the edit; an edit
 * that puts sim.dt above the stability bound (config_stability_advice)
 * stays on probation until the next edit. */
#define RELOAD_GUARD_PROBATION_S 10.0

typedef struct {
    sim_checkpoint *cp;    /* state and tunables of the last good frame */
    long cp_step;          /* its step */
    double cp_time;        /* its simulated time, s */
    dinghy_settings good;  /* the settings it ran with */
    int pending;           /* an edit since cp, not yet proved healthy */
    int rebuilt;           /* that edit built a new scene */
    int unstable;          /* that edit is above the stability bound: never proved */
    double pending_since;  /* simulated time the edit was applied, s */
} reload_guard;

/* Saves the starting state. Returns 0, or -1 when out of memory. */
int reload_guard_init(reload_guard *g, dinghy_sim *sim, const dinghy_settings *s);
void reload_guard_free(reload_guard *g);

/* After reload_poll applied (RELOAD_APPLIED) or rebuilt (RELOAD_REBUILT)
 * an edit, `before` being the settings it replaced and `after` the new
 * ones: the edit goes on probation. An earlier edit still on probation and
 * within the stability bound counts as good when a later edit of tunables
 * arrives (the state it reached is saved), so a rollback undoes the last
 * edit only. Other results change nothing. */
void reload_guard_edited(reload_guard *g, dinghy_sim *sim, const dinghy_settings *before,
                         const dinghy_settings *after, reload_result rr);

/* After a frame whose steps all went well: saves the state (or, on
 * probation, ends it once long enough). */
void reload_guard_frame(reload_guard *g, dinghy_sim *sim, const dinghy_settings *s);

typedef enum {
    GUARD_NOT_ROLLED_BACK, /* no edit to undo (and not forced), or no memory */
    GUARD_ROLLED_BACK,     /* back to the state and the settings before the edit */
    GUARD_SAME_SETTINGS    /* forced without an edit: back to the last good state, same settings */
} reload_guard_result;

/* On a blow-up of *sim: when an edit is on probation, goes back to the
 * state and simulation settings before it (a new scene is rebuilt from
 * those settings when the edit had rebuilt it, so *sim may change), and
 * writes one line saying so into line ("<blow-up>; rolled back to step N
 * (t = T s) and the settings before the edit (changes); still running").
 * Without an edit on probation it rolls back only when `force` (the demo),
 * to the last good state with the same settings. */
reload_guard_result reload_guard_rollback(reload_guard *g, dinghy_sim **sim, dinghy_settings *s,
                                          int force, char *line, size_t len);

#endif
