/* The on-screen demo: a window showing the simulation live, with camera
 * controls, keys and a HUD (render/input.h lists them). */
#ifndef DINGHY_DEMO_H
#define DINGHY_DEMO_H

#include "../config/settings.h"

/* Opens the window (render.width x render.height) and runs until it is
 * closed, Esc, or `max_frames` frames have been shown (<= 0: no limit).
 * Returns the exit code: 0 ok, 2 the scene cannot be made, 3 the
 * simulation blew up, 4 no display or GL failure (one line on stderr says
 * what to do instead). */
int demo_run(const dinghy_settings *settings, long max_frames);

#endif
