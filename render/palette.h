/* The rings' colours: bright rubber, none of them water- or sky-blue,
 * so that a test can tell a ring from the water by colour alone. */
#ifndef DINGHY_PALETTE_H
#define DINGHY_PALETTE_H

#define PALETTE_SIZE 8

/* Base (unlit) colour number `index` (0..PALETTE_SIZE-1, wrapping),
 * linear 0..1 RGB. */
void palette_colour(int index, float rgb[3]);

/* The colour number of ring `ring`. Each run of PALETTE_SIZE
 * consecutive rings uses every colour once, rotated by a hash of the
 * run's number so that colours do not line up in the scenes' grids. The
 * ring shader computes the same (PALETTE_INDEX_GLSL). */
int palette_index(int ring);

#define PALETTE_INDEX_GLSL \
"int palette_index(int ring) {\n" \
"    uint x = uint(ring / PALETTE_SIZE);\n" \
"    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;\n" \
"    return int((uint(ring % PALETTE_SIZE) + x) % uint(PALETTE_SIZE));\n" \
"}\n"

#endif
