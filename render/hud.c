/* HUD text with stb_easy_font: quads of 4 vertices (x, y, z, RGBA bytes). */
#include "render/hud.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/gl.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#define VERTEX_BYTES 16
/* stb_easy_font uses about 270 bytes a character; keep room for 400. */
#define BUFFER_BYTES (HUD_TEXT_MAX * 400)
#define PANEL_PAD HUD_PANEL_PAD
#define MAX_QUADS (BUFFER_BYTES / (4 * VERTEX_BYTES))

struct hud {
    gpu_mesh gpu;
    int u_viewport, u_origin, u_scale;
    char text[HUD_TEXT_MAX];
    unsigned char *vertices; /* BUFFER_BYTES, allocated once */
};

static const char *vs = "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec4 a_colour;\n"
    "uniform vec2 u_viewport; /* pixels */\n"
    "uniform vec2 u_origin;   /* pixels from the top-left */\n"
    "uniform float u_scale;\n"
    "out vec4 v_colour;\n"
    "void main() {\n"
    "    vec2 p = (u_origin + a_pos * u_scale) / u_viewport;\n"
    "    gl_Position = vec4(2.0 * p.x - 1.0, 1.0 - 2.0 * p.y, 0.0, 1.0);\n"
    "    v_colour = a_colour;\n"
    "}\n";

static const char *fs = "#version 330 core\n"
    "in vec4 v_colour;\n"
    "out vec4 colour;\n"
    "void main() { colour = v_colour; }\n";

hud *hud_create(char *err, size_t err_len)
{
    hud *h = calloc(1, sizeof *h);
    uint32_t *idx = malloc(sizeof *idx * 6 * MAX_QUADS);
    if (h)
        h->vertices = malloc(BUFFER_BYTES);
    if (!h || !idx || !h->vertices) {
        snprintf(err, err_len, "out of memory for the HUD");
        free(idx);
        hud_destroy(h);
        return NULL;
    }
    h->gpu.program = shader_program("HUD", vs, fs, err, err_len);
    if (!h->gpu.program) {
        free(idx);
        hud_destroy(h);
        return NULL;
    }
    h->u_viewport = shader_uniform(h->gpu.program, "u_viewport");
    h->u_origin = shader_uniform(h->gpu.program, "u_origin");
    h->u_scale = shader_uniform(h->gpu.program, "u_scale");
    for (uint32_t q = 0; q < MAX_QUADS; q++) {
        const uint32_t corner[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            idx[6 * q + k] = 4 * q + corner[k];
    }
    gpu_mesh_create(&h->gpu, NULL, BUFFER_BYTES, 1, idx, 6 * (size_t)MAX_QUADS);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, VERTEX_BYTES, (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, VERTEX_BYTES, (void *)12);
    glBindVertexArray(0);
    free(idx);
    return h;
}

/* One quad of the panel behind the text, in stb_easy_font's vertex layout. */
static void panel_quad(unsigned char *out, float x0, float y0, float x1, float y1)
{
    const float xy[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    const unsigned char rgba[4] = {10, 20, 30, 150};
    for (int v = 0; v < 4; v++) {
        float pos[3] = {xy[v][0], xy[v][1], 0.0f};
        memcpy(out + v * VERTEX_BYTES, pos, sizeof pos);
        memcpy(out + v * VERTEX_BYTES + 12, rgba, 4);
    }
}

void hud_draw(hud *h, const char *text, float x, float y, int fb_w, int fb_h, float scale)
{
    snprintf(h->text, sizeof h->text, "%s", text);
    const float pad = PANEL_PAD;
    panel_quad(h->vertices, -pad, -pad, (float)stb_easy_font_width(h->text) + pad,
               (float)stb_easy_font_height(h->text) + pad);
    unsigned char white[4] = {240, 245, 250, 255};
    int quads = 1 + stb_easy_font_print(0.0f, 0.0f, h->text, white, h->vertices + 4 * VERTEX_BYTES,
                                        BUFFER_BYTES - 4 * VERTEX_BYTES);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); /* keep alpha 1 */
    glUseProgram(h->gpu.program);
    glUniform2f(h->u_viewport, (float)fb_w, (float)fb_h);
    glUniform2f(h->u_origin, x + pad * scale, y + pad * scale);
    glUniform1f(h->u_scale, scale);
    gpu_mesh_stream(&h->gpu, h->vertices, (size_t)quads * 4 * VERTEX_BYTES, BUFFER_BYTES);
    gpu_mesh_draw(&h->gpu, quads * 6);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
}

float hud_text_width(const char *text)
{
    return (float)stb_easy_font_width((char *)text) + 2.0f * PANEL_PAD;
}

float hud_text_height(const char *text)
{
    return (float)stb_easy_font_height((char *)text) + 2.0f * PANEL_PAD;
}

void hud_destroy(hud *h)
{
    if (!h)
        return;
    gpu_mesh_destroy(&h->gpu);
    free(h->vertices);
    free(h);
}
