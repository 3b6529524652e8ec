/* PNG output through libstb's stb_image_write. */
#include "render/png.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <stb/stb_image_write.h>

int png_write_rgb(const char *path, const unsigned char *rgb, int width, int height, char *err,
                  size_t err_len)
{
    /* stb reports no reason, so try the file first to get errno's. */
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, err_len, "cannot write image file '%s': %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    if (!stbi_write_png(path, width, height, 3, rgb, width * 3)) {
        snprintf(err, err_len, "cannot write image file '%s' (disk full or out of memory?)", path);
        remove(path);
        return -1;
    }
    return 0;
}
