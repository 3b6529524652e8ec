/* Headless runs: simulate without window or sound. */
#ifndef DINGHY_HEADLESS_H
#define DINGHY_HEADLESS_H

#include <signal.h>

#include "dinghy/sim.h"
#include "dinghy/scene.h"

/* Simulates `steps` steps of the scene `layout` names, made of def, prints a one-line summary
 * and writes the JSON dump when dump is not NULL. Returns the program's exit
 * code: 0 ok, 2 dump file unwritable, 3 blew up, 128 + the signal number
 * when SIGINT or SIGTERM stopped it (after the step under way; the summary
 * and dump are then of the state reached). */
int headless_run(const sim_def *def, const scene_def *layout, long steps, const char *dump,
                 const char *obj);

/* Prints the one-line summary of a run of `done` steps that took `wall`
 * seconds (to stdout, or stderr when the dump goes to stdout) and writes the
 * dump when dump is not NULL. Returns 0, or 2 when the dump cannot be written. */
int headless_report(dinghy_sim *sim, long done, double wall, const char *dump);

/* Where a run's final state goes besides the summary: the JSON dump and
 * the OBJ meshes (each NULL for none), set before headless_run_hooked. */
void headless_set_obj(const char *obj);

/* The same run in frames of frame_steps steps, calling frame(sim, ctx)
 * after each (and after a last, shorter one): for whatever follows the
 * simulation as it goes (the sound of --audio). The frames change nothing
 * in the physics: the hash is that of headless_run. */
typedef struct {
    long frame_steps;                          /* steps per frame, >= 1 */
    void (*frame)(dinghy_sim *sim, void *ctx); /* may read state and events, clear events */
    void *ctx;
} headless_hooks;
int headless_run_hooked(const sim_def *def, const scene_def *layout, long steps, const char *dump,
                        const headless_hooks *hooks);

/* SIGINT and SIGTERM set a flag (sigaction, volatile sig_atomic_t) that
 * the run loops check between steps. catch saves the old handlers, restore
 * puts them back; headless_stop_signal is the signal caught, or 0. */
typedef struct {
    struct sigaction old_int, old_term;
} headless_signals;
void headless_catch_signals(headless_signals *saved);
void headless_restore_signals(const headless_signals *saved);
int headless_stop_signal(void);

#endif
