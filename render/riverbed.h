/* The river: a sandy bed under the water and grassy banks and hills on
 * either side, a static height field built once. The channel runs along x
 * through the scene's centre, wide enough for the whole crowd. */
#ifndef DINGHY_RIVERBED_H
#define DINGHY_RIVERBED_H

#include <stddef.h>

typedef struct riverbed riverbed;

/* Builds the bed round centre (x, y) with a channel `half_width` metres
 * either side of its centre line, for water at `level` (m). Needs a
 * current GL context; NULL with a message in err on failure. */
riverbed *riverbed_create(const float centre[2], float half_width, float level, char *err,
                          size_t err_len);
/* Draws the parts of the bed that may be in view of view_proj and nearer
 * than reach (m) to the eye. */
void riverbed_draw(riverbed *r, const float view_proj[16], const float eye[3], float reach);
void riverbed_destroy(riverbed *r);

/* Height of the ground at (x, y), m: below `level` in the channel, above it
 * on the banks. */
float riverbed_height(const riverbed *r, float x, float y);

#endif
