/* Repeating, mipmapped textures of baked detail. */
#include "render/tiling_texture.h"

#include "render/gl.h"

unsigned tiling_texture(const unsigned char *texels, int side, int channels)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, channels == 2 ? GL_RG8 : GL_R8, side, side, 0,
                 channels == 2 ? GL_RG : GL_RED, GL_UNSIGNED_BYTE, texels);
    glGenerateMipmap(GL_TEXTURE_2D);
    /* one mip level a read, not a blend of two: a CPU rasteriser pays for
     * each, and on this smooth detail the step between levels does not show */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    return tex;
}
