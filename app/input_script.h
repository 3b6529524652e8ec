/* Scripted input (--input FILE): timed key, button and cursor events
 * replayed into the demo, a screenshot or a recording, for tests and for
 * videos that come out the same every time.
 *
 * The format, one event a line ('#' starts a comment, blank lines are
 * skipped); TIME is simulated seconds from the start, in ascending order:
 *
 *   TIME key NAME          press and release a key (NAME: a to z, space,
 *                          tab, up, down, left, right, plus, minus,
 *                          escape, f1, shift)
 *   TIME keydown NAME      press and hold (e.g. shift)
 *   TIME keyup NAME        let go
 *   TIME press BUTTON      mouse button down (left, right or middle)
 *   TIME release BUTTON    mouse button up
 *   TIME cursor X Y [GLIDE]  move the cursor to pixel (X, Y) of a
 *                          render.width x render.height picture (origin
 *                          top-left); with GLIDE (s) it moves there in a
 *                          straight line at constant speed over GLIDE
 *   TIME scroll NOTCHES    the wheel (positive: zoom in)
 *
 * An event plays at the first frame whose simulated time has reached its
 * TIME. */
#ifndef DINGHY_INPUT_SCRIPT_H
#define DINGHY_INPUT_SCRIPT_H

#include <stddef.h>

#include "render/input.h"

typedef struct input_script input_script;

/* Reads a script. NULL with "FILE:LINE: what is wrong" in err for a bad
 * line, or the reason the file cannot be read. */
input_script *input_script_load(const char *path, char *err, size_t err_len);
void input_script_free(input_script *s);

/* Feeds in every event due by simulated time t (s), and the cursor's
 * place along a glide; script pixels are scaled from base_w x base_h to
 * the w x h viewport. */
void input_script_play(input_script *s, double t, int base_w, int base_h, int w, int h,
                       input *in);

/* Simulated time (s) when the last event (or glide) is done. */
double input_script_end(const input_script *s);

#endif
