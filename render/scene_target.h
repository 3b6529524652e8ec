/* The scene drawn at a lower resolution than the window (dynamic
 * resolution, render/resolution.h): a single-sample colour texture and
 * depth buffer the size of the scene's pixels, reallocated only when that
 * size changes, and the pass that scales it up with linear filtering into
 * whatever framebuffer was bound before (a window's, multisampled or not).
 * Needs a current GL 3.3 context for its whole life. */
#ifndef DINGHY_SCENE_TARGET_H
#define DINGHY_SCENE_TARGET_H

#include <stddef.h>

typedef struct scene_target scene_target;

/* Compiles the scale-up shader; the buffers come with the first bind.
 * NULL with one line in err on failure. */
scene_target *scene_target_create(char *err, size_t err_len);
void scene_target_destroy(scene_target *t);

/* Remembers the framebuffer bound now, then binds the target at width x
 * height pixels (made or remade at that size when it differs), with a
 * viewport covering it. Returns 0, or -1 when the driver refused the
 * buffers (then the previous framebuffer stays bound: draw there). */
int scene_target_bind(scene_target *t, int width, int height);

/* Binds the framebuffer remembered by scene_target_bind again and draws
 * the target over all of it, scaled to out_w x out_h pixels with linear
 * filtering (no depth test; the depth buffer there is left as it was). */
void scene_target_present(scene_target *t, int out_w, int out_h);

#endif
