/* The on-screen demo: a window showing the simulation live, with camera
 * controls, keys and a HUD (render/input.h lists them). */
#ifndef DINGHY_DEMO_H
#define DINGHY_DEMO_H

#include "config/settings.h"
#include "config/build.h"
#include "config/watch.h"

/* Opens the window (render.width x render.height) and runs until it is
 * closed, Esc, or opt->max_frames frames have been shown.
 * Each frame applies saves of the config file that `watch` follows (NULL:
 * none) to *settings and the running scene, and shows a broken save's
 * errors on screen; sound plays unless audio.enabled is 0.
 * Returns the exit code: 0 ok, 2 the scene cannot be made, 3 the
 * simulation blew up, 4 no display or GL failure (one line on stderr says
 * what to do instead). */
typedef struct {
    long max_frames;         /* stop after this many frames; <= 0: no limit */
    int mute;                /* sound plays silence */
    const char *config_note; /* which config file is used, printed once the window is up */
    const char *input;       /* --input FILE: scripted mouse and keys (input_script.h), or NULL */
    const config_source *source; /* where the settings came from (the panel's save keeps
                                    --set values out of the file), or NULL */
    int profile;             /* --profile: time each pass of a frame (each waits for the
                                GL to finish) and print the means in the exit summary */
} demo_options;
int demo_run(dinghy_settings *settings, config_watch *watch, const demo_options *opt);

#endif
