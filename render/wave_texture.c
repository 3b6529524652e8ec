/* The wave layer's heights as a float texture; see wave_texture.h. */
#include "render/wave_texture.h"

#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/shader.h"

struct wave_texture {
    unsigned tex;
    int nx, ny;          /* texels; 0 x 0: no layer (one zero texel bound) */
    double x0, y0, cell; /* the grid's corner and cell, m */
};

/* (Re)makes the texture's storage for nx x ny texels, linear filtering,
 * clamped: texel (i, j) is the cell whose centre is at uv (i + 1/2) / nx. */
static void storage(wave_texture *t, int nx, int ny)
{
    glBindTexture(GL_TEXTURE_2D, t->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    const float zero = 0.0f;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, nx, ny, 0, GL_RED, GL_FLOAT,
                 nx == 1 && ny == 1 ? &zero : NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

wave_texture *wave_texture_create(const waves_field *w, char *err, size_t err_len)
{
    wave_texture *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_len, "out of memory for the waves' texture");
        return NULL;
    }
    glGenTextures(1, &t->tex);
    storage(t, 1, 1);
    wave_texture_update(t, w);
    return t;
}

void wave_texture_update(wave_texture *t, const waves_field *w)
{
    if (!w) {
        if (t->nx != 0)
            storage(t, 1, 1);
        t->nx = t->ny = 0;
        return;
    }
    const waves_grid g = waves_grid_view(w);
    if (g.nx != t->nx || g.ny != t->ny) {
        storage(t, g.nx, g.ny);
        t->nx = g.nx;
        t->ny = g.ny;
    }
    t->x0 = g.x0;
    t->y0 = g.y0;
    t->cell = g.cell;
    glBindTexture(GL_TEXTURE_2D, t->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, (int)g.stride);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, g.nx, g.ny, GL_RED, GL_FLOAT, g.height);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

wave_uniforms wave_texture_uniforms(unsigned program)
{
    return (wave_uniforms){shader_uniform(program, "u_waves"), shader_uniform(program, "u_waves_box"),
                           shader_uniform(program, "u_waves_cell")};
}

void wave_texture_use(const wave_texture *t, const wave_uniforms *u, int unit)
{
    glActiveTexture(GL_TEXTURE0 + (unsigned)unit);
    glBindTexture(GL_TEXTURE_2D, t->tex);
    glUniform1i(u->sampler, unit);
    if (t->nx == 0) {
        glUniform4f(u->box, 0.0f, 0.0f, 1.0f, 1.0f);
        glUniform1f(u->cell, 0.0f);
        return;
    }
    glUniform4f(u->box, (float)t->x0, (float)t->y0, (float)(1.0 / (t->nx * t->cell)),
                (float)(1.0 / (t->ny * t->cell)));
    glUniform1f(u->cell, (float)t->cell);
}

int wave_texture_box(const wave_texture *t, float box[4])
{
    if (t->nx == 0)
        return 0;
    box[0] = (float)t->x0;
    box[1] = (float)t->y0;
    box[2] = (float)(t->x0 + t->nx * t->cell);
    box[3] = (float)(t->y0 + t->ny * t->cell);
    return 1;
}

float wave_texture_cell(const wave_texture *t)
{
    return t->nx ? (float)t->cell : 0.0f;
}

void wave_texture_destroy(wave_texture *t)
{
    if (!t)
        return;
    if (t->tex)
        glDeleteTextures(1, &t->tex);
    free(t);
}
