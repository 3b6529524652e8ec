/* Dynamic resolution: the fraction of the window's size the 3-D scene is
 * drawn at, chosen from the measured frame time against a frame budget
 * (1 / the target frames per second), as games do on slow renderers.
 *
 * The rule (resolution_next) is pure, with hysteresis so that it does not
 * oscillate: it decides only on a full window of frames measured at the
 * current scale, by their median (one slow frame does not count); it
 * lowers the scale when the median is over the budget, to the step whose
 * pixels should fit it (a frame's cost taken as all pixels, so at least
 * one step), and raises it one step only when the median, scaled up by
 * the larger step's extra pixels, would still be comfortably under the
 * budget. With a fast renderer (a GPU) the scale stays 1. No GL here. */
#ifndef DINGHY_RESOLUTION_H
#define DINGHY_RESOLUTION_H

#define RESOLUTION_MIN 0.5f     /* lowest automatic scale */
#define RESOLUTION_MAX 1.0f     /* the window's own size */
#define RESOLUTION_STEP 0.125f  /* scales are multiples of this */
#define RESOLUTION_WINDOW 15    /* frames whose median decides */
#define RESOLUTION_OVER 1.02f   /* lower when the median exceeds the budget times this */
#define RESOLUTION_UNDER 0.90f  /* raise when the median at the next step would stay under
                                   the budget times this */
#define RESOLUTION_FIXED_MIN 0.25f /* lowest fixed scale (render.resolution_scale) */

/* The next scale after frames of frame_s[0 .. count-1] seconds (oldest
 * first; only the last RESOLUTION_WINDOW count) drawn at `scale`, for a
 * frame budget of budget_s seconds. Returns `scale` itself (snapped into
 * RESOLUTION_MIN .. RESOLUTION_MAX on the step grid) when fewer than
 * RESOLUTION_WINDOW frames are given or the median is within the band. */
float resolution_next(const float *frame_s, int count, float scale, float budget_s);

/* The controller's state: the frames measured at the current scale. */
typedef struct {
    float frame_s[RESOLUTION_WINDOW]; /* oldest first */
    int count;
    int settle;  /* frames still to pass over after a change (they straddle it) */
    float scale;
} resolution_control;

/* Frames passed over after a change of scale: the frame being drawn
 * while it changed still costs the old size. */
#define RESOLUTION_SETTLE 2

/* Starts at `start` (snapped to the step grid within RESOLUTION_MIN ..
 * RESOLUTION_MAX; not a number gives RESOLUTION_MAX) with no frames
 * measured. A CPU renderer starts at RESOLUTION_MIN and rises when its
 * frames show room: its first frames (shaders compiled, buffers filled)
 * are its slowest, and the way down from 1 took about 50 frames of
 * 45-65 ms at 1280 x 720 on llvmpipe. */
void resolution_init(resolution_control *c, float start);

/* Records one frame of frame_s seconds and returns the scale for the next
 * frame. When the scale changes the measured frames are dropped: the next
 * decision waits for RESOLUTION_SETTLE frames and then a full window at
 * the new scale. budget_s <= 0, or a
 * frame_s that is not positive (a pause, a minimised window), changes
 * nothing. */
float resolution_frame(resolution_control *c, float frame_s, float budget_s);

/* The scale to draw at: `fixed` (render.resolution_scale) when it is not 0,
 * clamped to RESOLUTION_FIXED_MIN .. 1; else the controller's. */
float resolution_scale_to_use(float fixed, const resolution_control *c);

/* The size, pixels, of a width x height window drawn at scale: each side
 * rounded to the nearest pixel, at least 1 (multiples of RESOLUTION_STEP
 * keep 16:9 exactly at 1280 x 720). */
void resolution_size(float scale, int width, int height, int *out_w, int *out_h);

#endif
