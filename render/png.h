/* Writing images as PNG (stb_image_write, from Debian's libstb). */
#ifndef DINGHY_PNG_H
#define DINGHY_PNG_H

#include <stddef.h>

/* Writes an RGB image (8 bits a channel, rows top to bottom, width * 3
 * bytes a row) to path. Returns 0, or -1 with a one-line message in err
 * naming the file and the reason. */
int png_write_rgb(const char *path, const unsigned char *rgb, int width, int height, char *err,
                  size_t err_len);

#endif
