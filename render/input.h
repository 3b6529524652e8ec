/* Mouse and keyboard of the demo window.
 *
 * Mouse: left drag orbits the camera, right or middle drag pans it, the
 * wheel zooms; these move the camera directly. Keys become actions that
 * the demo loop takes once per frame: F follow the next dinghy, C free
 * the camera (again: follow the crowd), Space
 * pause, N single step (repeats while held), R reset, + / - speed, P
 * screenshot, H or F1 help, Esc quit. */
#ifndef DINGHY_INPUT_H
#define DINGHY_INPUT_H

#include "camera.h"
#include "window.h"

/* Presses since the last input_take. */
typedef struct {
    int quit, toggle_pause, single_step, reset, faster, slower, screenshot, toggle_help, follow_next;
    int free_camera; /* C: free the camera, or follow the crowd again when free */
    int panned; /* the user dragged the view away: stop following */
} input_actions;

typedef struct input input;

/* Installs the callbacks on w; camera must outlive the input. NULL when
 * memory runs out. */
input *input_attach(render_window *w, orbit_camera *camera);
/* Returns the actions since the last call and clears them. */
input_actions input_take(input *in);
void input_detach(input *in);

#endif
