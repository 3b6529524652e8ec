/* The ground's colour baked per vertex, its grain in a tiling texture. */
#include "render/ground_look.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/shader.h"
#include "render/tiling_texture.h"
#include "render/smooth.h"

#define TEXELS 512 /* a side of the detail texture */
#define PI 3.14159265358979

#define STR2(x) #x
#define STR(x) STR2(x)
static const char *vs = "#version 330 core\n" GLSL_COMMON
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec4 a_look;  /* height over the water m, broad grain, -, - */\n"
    "layout(location = 2) in vec3 a_light; /* light on the ground, under-water tint in it */\n"
    "layout(location = 3) in vec3 a_deep;  /* the deep water's colour over it */\n"
    "out vec2 v_uv;\n"
    "out vec2 v_look;\n"
    "out vec3 v_light, v_deep;\n"
    "out float v_clear; /* 1 - haze */\n"
    "void main() {\n"
    "    v_uv = a_pos.xy * (1.0 / " STR(GROUND_LOOK_TILE) ");\n"
    "    v_look = a_look.xy;\n"
    "    v_light = a_light;\n"
    "    v_deep = a_deep;\n"
    "    float d = length(a_pos - eye.xyz) * water.z;\n"
    "    v_clear = exp(-d * d);\n"
    "    gl_Position = view_proj * vec4(a_pos, 1.0);\n"
    "}\n";

/* The look of the old per-pixel ground, its sines read from the texture. */
static const char *fs = "#version 330 core\n" GLSL_COMMON
    "uniform sampler2D u_detail; /* r: grain, g: pebbles */\n"
    "uniform vec4 u_bands; /* pebbles to sand, sand to grass: smoothstep edges over h, m */\n"
    "in vec2 v_uv;\n"
    "in vec2 v_look;\n"
    "in vec3 v_light, v_deep;\n"
    "in float v_clear;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    vec2 t = texture(u_detail, v_uv).rg;\n"
    "    float grain = v_look.y + 0.5 * t.r, h = v_look.x;\n"
    "    vec3 sand = mix(vec3(0.55, 0.47, 0.34), vec3(0.80, 0.72, 0.54), grain);\n"
    "    vec3 pebble = mix(vec3(0.36, 0.33, 0.29), vec3(0.62, 0.58, 0.50), t.g);\n"
    "    vec3 grass = mix(vec3(0.20, 0.38, 0.12), vec3(0.38, 0.56, 0.20), grain);\n"
    "    vec3 base = mix(mix(pebble, sand, smoothstep(u_bands.x, u_bands.y, h)), grass,\n"
    "                    smoothstep(u_bands.z, u_bands.w, h));\n"
    "    colour = vec4(mix(HORIZON, base * v_light + v_deep, v_clear), 1.0);\n"
    "}\n";

/* A frequency near f (1/m) whose waves fit the tile a whole number of times. */
static double tiled(double f)
{
    double k = round(f * GROUND_LOOK_TILE / (2.0 * PI));
    return 2.0 * PI * k / GROUND_LOOK_TILE;
}

/* The grain (0..1, the fine part of the sand's and grass's mottle) and the
 * pebbles (0..1) at (x, y) metres of the tile. */
static void detail(double x, double y, double *grain, double *pebbles)
{
    double hi = sin(x * tiled(5.1) + sin(y * tiled(3.7))) * sin(y * tiled(4.3) + sin(x * tiled(2.9)));
    *grain = 0.5 + 0.5 * hi;
    double p = sin(x * tiled(9.0) + 3.0 * sin(y * tiled(7.0))) * sin(y * tiled(8.0));
    *pebbles = smooth_step(0.2, 0.8, 0.5 + 0.5 * p);
}

void ground_look_bake(const float *src, size_t count, float *dst)
{
    static const double tint[3] = {0.70, 0.88, 0.90}, deep[3] = GLSL_DEEP_WATER;
    static const double sun_light[3] = GLSL_SUN_LIGHT;
    const float sun_f[3] = SUN_TOWARD;
    double sl = sqrt(sun_f[0] * sun_f[0] + sun_f[1] * sun_f[1] + sun_f[2] * sun_f[2]);
    for (size_t i = 0; i < count; i++, src += GROUND_SOURCE_FLOATS, dst += GROUND_LOOK_FLOATS) {
        double x = src[0], y = src[1], h = src[2] - src[6];
        /* the mottle's broad part here; the texture adds the fine part */
        double broad = sin(x * 0.7 + y * 0.4) * sin(y * 0.9 - x * 0.3);
        double diffuse = (src[3] * sun_f[0] + src[4] * sun_f[1] + src[5] * sun_f[2]) / sl;
        double under = h < 0.0 ? exp(0.55 * h) : 1.0; /* how much of the ground shows */
        dst[0] = src[0];
        dst[1] = src[1];
        dst[2] = src[2];
        dst[3] = (float)h;
        dst[4] = (float)(0.25 + 0.25 * broad); /* grain = this + 0.5 texture */
        dst[5] = dst[6] = 0.0f;
        for (int k = 0; k < 3; k++) {
            double light = 0.38 + 0.72 * (diffuse > 0.0 ? diffuse : 0.0) * sun_light[k];
            dst[7 + k] = (float)(light * (h < 0.0 ? tint[k] : 1.0) * under);
            dst[10 + k] = (float)(deep[k] * (1.0 - under));
        }
    }
}

static unsigned make_texture(void)
{
    unsigned char *texels = malloc(2 * TEXELS * TEXELS);
    if (!texels)
        return 0;
    for (int j = 0; j < TEXELS; j++)
        for (int i = 0; i < TEXELS; i++) {
            double g, p, s = GROUND_LOOK_TILE / TEXELS;
            detail((i + 0.5) * s, (j + 0.5) * s, &g, &p);
            texels[2 * (j * TEXELS + i)] = (unsigned char)lround(255.0 * g);
            texels[2 * (j * TEXELS + i) + 1] = (unsigned char)lround(255.0 * p);
        }
    unsigned tex = tiling_texture(texels, TEXELS, 2);
    free(texels);
    return tex;
}

unsigned ground_look_create(gpu_mesh *g, ground_kind kind, const char *name, char *err,
                            size_t err_len)
{
    g->program = shader_program(name, vs, fs, err, err_len);
    if (!g->program)
        return 0;
    glUseProgram(g->program);
    glUniform1i(shader_uniform(g->program, "u_detail"), 0);
    if (kind == GROUND_RIVER) /* pebbles under the water, sand at it, grass above */
        glUniform4f(shader_uniform(g->program, "u_bands"), -0.6f, 0.05f, 0.35f, 0.9f);
    else /* sand under the water, grass above */
        glUniform4f(shader_uniform(g->program, "u_bands"), -1e6f, -1e6f + 1.0f, 0.25f, 0.8f);
    unsigned tex = make_texture();
    if (!tex)
        snprintf(err, err_len, "out of memory for the %s's texture", name);
    return tex;
}

void ground_look_layout(void)
{
    static const int layout[] = {3, 4, 3, 3}; /* GROUND_LOOK_FLOATS */
    gpu_mesh_layout_floats(layout, 4);
}

void ground_look_bind(unsigned texture)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
}
