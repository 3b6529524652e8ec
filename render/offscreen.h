/* An offscreen render target of any size (screenshots, recordings): a
 * multisampled colour + depth framebuffer, resolved and read back into
 * memory allocated once at creation. */
#ifndef DINGHY_OFFSCREEN_H
#define DINGHY_OFFSCREEN_H

#include <stddef.h>

typedef struct offscreen offscreen;

/* A width x height pixel target. Needs a current GL context. NULL with a
 * message in err when the size exceeds the driver's limit or the
 * framebuffer is incomplete. */
offscreen *offscreen_create(int width, int height, char *err, size_t err_len);
/* Makes the target the one drawn into, with a viewport covering it. */
void offscreen_bind(offscreen *o);
/* Resolves the samples and returns the pixels: RGB, 8 bits a channel,
 * rows top to bottom, width * 3 bytes a row. Valid until the next read. */
const unsigned char *offscreen_read(offscreen *o);
/* Frees the target; drawing goes to the window's framebuffer again. */
void offscreen_destroy(offscreen *o);

#endif
