/* A square texture of baked detail that repeats over the surface it
 * covers, mipmapped so that far off it fades to its mean instead of
 * shimmering: the ground's grain, the water's streaks. */
#ifndef DINGHY_TILING_TEXTURE_H
#define DINGHY_TILING_TEXTURE_H

/* Makes it from side x side texels of `channels` (1 or 2) bytes each, row
 * by row; needs a current GL context. Returns its name (never 0 on a
 * working context). */
unsigned tiling_texture(const unsigned char *texels, int side, int channels);

#endif
