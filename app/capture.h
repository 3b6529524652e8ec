/* Pictures without a screen: a screenshot after N steps, numbered PNG
 * frames, or an MP4 through ffmpeg, all rendered offscreen in a hidden
 * window (under Xvfb on a machine without a display). */
#ifndef DINGHY_CAPTURE_H
#define DINGHY_CAPTURE_H

#include <stddef.h>

#include "config/settings.h"
#include "dinghy/sim.h"
#include "render/render.h"

#define CAPTURE_DEFAULT_FRAMES 150 /* --frames when not given */

typedef struct {
    const char *screenshot; /* PNG file to write, or NULL */
    const char *record_dir; /* directory for frame_00000.png, ..., or NULL */
    const char *video;      /* MP4 file to write through ffmpeg, or NULL */
    long frames;            /* frames to record (record_dir, video) */
    long steps;             /* physics steps before the (first) picture */
    const char *obj;        /* OBJ of the final meshes (and per frame beside the
                               recorded PNGs), or NULL */
    const char *input;      /* --input FILE: scripted mouse and keys (input_script.h), or NULL */
} capture_request;

/* Runs the request at settings->render width x height; frames are
 * 1 / render.fps seconds of simulated time apart. Returns the exit code:
 * 0 ok, 2 a file cannot be written or ffmpeg is missing, 3 the simulation
 * blew up, 4 no display or GL failure; one line on stderr says why. */
int capture_run(const dinghy_settings *settings, const capture_request *req);

/* Draws sim once into a new width x height offscreen target and writes it
 * to path as PNG (the demo's screenshot key). Returns 0, or -1 with a
 * message in err. */
int capture_snapshot(renderer *r, dinghy_sim *sim, int width, int height, double time_s,
                     const char *path, char *err, size_t err_len);

#endif
