/* Bright rubber colours, dealt out to the rings. */
#include "render/palette.h"

#include <stdint.h>

static const float colours[PALETTE_SIZE][3] = {
    {0.95f, 0.12f, 0.10f}, /* red */
    {1.00f, 0.80f, 0.05f}, /* yellow */
    {0.15f, 0.80f, 0.20f}, /* green */
    {0.95f, 0.22f, 0.68f}, /* magenta */
    {1.00f, 0.48f, 0.05f}, /* orange */
    {0.58f, 0.28f, 0.95f}, /* violet */
    {0.62f, 0.92f, 0.08f}, /* lime */
    {1.00f, 0.55f, 0.62f}, /* pink */
};

int palette_index(int ring)
{
    uint32_t x = (uint32_t)(ring / PALETTE_SIZE); /* the "lowbias32" integer hash */
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (int)(((uint32_t)(ring % PALETTE_SIZE) + x) % PALETTE_SIZE);
}

void palette_colour(int index, float rgb[3])
{
    int i = index % PALETTE_SIZE;
    if (i < 0)
        i += PALETTE_SIZE;
    for (int k = 0; k < 3; k++)
        rgb[k] = colours[i][k];
}
