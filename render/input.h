/* Mouse and keyboard of the demo: from the window's callbacks, or replayed
 * from a script (--input), through one path (input_feed).
 *
 * Mouse: left drag on a ring grabs it (Shift: along the water surface),
 * release throws it; right drag orbits the camera, middle drag (or Shift +
 * right drag) pans it, the wheel zooms. Keys become actions that the demo
 * loop takes once per frame: D drop a ring in under the cursor, X take the
 * ring under the cursor out, K puncture it there, Tab the tuning panel
 * (Up/Down select, Left/Right change, Shift: ten times, S save), F follow
 * the next ring, C free the camera (again: follow the crowd), Space
 * pause, N single step (repeats while held), R reset, + / - speed, P
 * screenshot, H or F1 help, Esc quit. */
#ifndef DINGHY_INPUT_H
#define DINGHY_INPUT_H

#include "render/camera.h"
#include "render/window.h"

/* The keys the demo uses (the window's key codes and a script's key names
 * both map to these). */
typedef enum {
    INPUT_KEY_NONE = 0,
    INPUT_KEY_ESCAPE, INPUT_KEY_SPACE, INPUT_KEY_TAB, INPUT_KEY_UP, INPUT_KEY_DOWN,
    INPUT_KEY_LEFT, INPUT_KEY_RIGHT, INPUT_KEY_PLUS, INPUT_KEY_MINUS, INPUT_KEY_F1,
    INPUT_KEY_SHIFT,
    INPUT_KEY_A, /* A..Z follow in order */
    INPUT_KEY_Z = INPUT_KEY_A + 25,
    INPUT_KEY_COUNT
} input_key;

typedef enum { INPUT_BUTTON_LEFT, INPUT_BUTTON_RIGHT, INPUT_BUTTON_MIDDLE } input_button;

/* One thing the user did. Positions are pixels of the viewport, origin
 * top-left, y down. */
typedef enum {
    INPUT_EVENT_KEY_DOWN, INPUT_EVENT_KEY_UP, INPUT_EVENT_KEY_REPEAT,
    INPUT_EVENT_BUTTON_DOWN, INPUT_EVENT_BUTTON_UP,
    INPUT_EVENT_CURSOR, INPUT_EVENT_SCROLL,
} input_event_kind;

typedef struct {
    input_event_kind kind;
    int code;       /* an input_key or input_button */
    float x, y;     /* cursor: position, pixels; scroll: y notches (positive: closer) */
} input_event;

/* Presses since the last input_take. */
typedef struct {
    int quit, toggle_pause, single_step, reset, faster, slower, screenshot, toggle_help, follow_next;
    int free_camera; /* C: free the camera, or follow the crowd again when free */
    int panned; /* the user dragged the view away: stop following */
    int drop, remove, puncture, burst; /* D, X, K, Shift+K: at the cursor */
    int toggle_panel, panel_move, panel_change, panel_save; /* Tab; Up/Down; Left/Right; S */
    int panel_click;  /* left press over the panel (input_set_panel) */
    float panel_click_y; /* where, pixels from the viewport's top */
    float panel_scroll;  /* wheel notches over the panel */
    int grab_press, grab_release; /* left button down and up */
    int grabbing;     /* the left button is held now */
    int along_water;  /* Shift is held: drag along the water surface */
    float cursor[2];  /* where the cursor is now, pixels of the viewport */
} input_actions;

typedef struct input input;

/* An input fed only through input_feed (a script, a test): no window.
 * viewport_h: pixels of the viewport's height (for panning). */
input *input_create(orbit_camera *camera, int viewport_h);
/* Installs the callbacks on w; camera must outlive the input. NULL when
 * memory runs out. */
input *input_attach(render_window *w, orbit_camera *camera);
/* The viewport the cursor's pixels refer to (for panning), pixels. */
void input_set_viewport(input *in, int width, int height);
/* The screen rectangle the tuning panel covers (pixels; an empty one when
 * it is hidden): a left press there selects a row instead of grabbing, the
 * wheel there changes the value instead of zooming. */
void input_set_panel(input *in, float x0, float y0, float x1, float y1);
/* Takes one event as if the window had sent it (a script's events). */
void input_feed(input *in, const input_event *ev);
/* Returns the actions since the last call and clears the presses. */
input_actions input_take(input *in);
/* Removes the callbacks (if any) and frees the input. */
void input_detach(input *in);

/* The key of a name ("a" to "z", "space", "tab", "up", "down", "left",
 * "right", "plus", "minus", "escape", "f1", "shift"; case ignored), or
 * INPUT_KEY_NONE. */
input_key input_key_named(const char *name);

#endif
