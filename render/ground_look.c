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
/* Both programs: the vertex's attributes, the haze. */
#define GROUND_VS_HEAD "#version 330 core\n" GLSL_COMMON \
    "layout(location = 0) in vec3 a_pos;\n" \
    "layout(location = 1) in vec4 a_look;  /* height over the water m, broad grain, -, - */\n" \
    "layout(location = 2) in vec3 a_light; /* light on the ground, under-water tint in it */\n" \
    "layout(location = 3) in vec3 a_deep;  /* the deep water's colour over it */\n" \
    "uniform vec4 u_bands; /* pebbles to sand, sand to grass: smoothstep edges over h, m */\n" \
    "float clear_of_haze(vec3 p) {\n" \
    "    float d = length(p - eye.xyz) * water.z;\n" \
    "    return exp(-d * d);\n" \
    "}\n" \
    "vec3 ground_colour(float h, float grain, float pebbles) {\n" \
    "    vec3 sand = mix(vec3(0.55, 0.47, 0.34), vec3(0.80, 0.72, 0.54), grain);\n" \
    "    vec3 pebble = mix(vec3(0.36, 0.33, 0.29), vec3(0.62, 0.58, 0.50), pebbles);\n" \
    "    vec3 grass = mix(vec3(0.20, 0.38, 0.12), vec3(0.38, 0.56, 0.20), grain);\n" \
    "    return mix(mix(pebble, sand, smoothstep(u_bands.x, u_bands.y, h)), grass,\n" \
    "               smoothstep(u_bands.z, u_bands.w, h));\n" \
    "}\n"

/* Near: the grain from the texture, fading to its mean toward
 * GROUND_LOOK_NEAR, where the far program takes over. */
static const char *vs = GROUND_VS_HEAD
    "out vec2 v_uv;\n"
    "out vec3 v_look; /* height over the water, broad grain, fade of the fine grain */\n"
    "out vec3 v_light, v_deep;\n"
    "out float v_clear; /* 1 - haze */\n"
    "void main() {\n"
    "    v_uv = a_pos.xy * (1.0 / " STR(GROUND_LOOK_TILE) ");\n"
    "    float near = " STR(GROUND_LOOK_NEAR) ";\n"
    "    v_look = vec3(a_look.xy, smoothstep(0.6 * near, near, length(a_pos - eye.xyz)));\n"
    "    v_light = a_light;\n"
    "    v_deep = a_deep;\n"
    "    v_clear = clear_of_haze(a_pos);\n"
    "    gl_Position = view_proj * vec4(a_pos, 1.0);\n"
    "}\n";

static const char *fs = "#version 330 core\n" GLSL_COMMON
    "uniform sampler2D u_detail; /* r: grain, g: pebbles */\n"
    "uniform vec4 u_bands;\n"
    "in vec2 v_uv;\n"
    "in vec3 v_look;\n"
    "in vec3 v_light, v_deep;\n"
    "in float v_clear;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    vec2 t = mix(texture(u_detail, v_uv).rg, vec2(0.5), v_look.z);\n"
    "    float grain = v_look.y + 0.5 * t.r, h = v_look.x;\n"
    "    vec3 sand = mix(vec3(0.55, 0.47, 0.34), vec3(0.80, 0.72, 0.54), grain);\n"
    "    vec3 pebble = mix(vec3(0.36, 0.33, 0.29), vec3(0.62, 0.58, 0.50), t.g);\n"
    "    vec3 grass = mix(vec3(0.20, 0.38, 0.12), vec3(0.38, 0.56, 0.20), grain);\n"
    "    vec3 base = mix(mix(pebble, sand, smoothstep(u_bands.x, u_bands.y, h)), grass,\n"
    "                    smoothstep(u_bands.z, u_bands.w, h));\n"
    "    colour = vec4(mix(HORIZON, base * v_light + v_deep, v_clear), 1.0);\n"
    "}\n";

/* Far: the whole colour per vertex, the grain at its mean. */
static const char *vs_far = GROUND_VS_HEAD
    "out vec3 v_colour;\n"
    "void main() {\n"
    "    vec3 base = ground_colour(a_look.x, a_look.y + 0.25, 0.5);\n"
    "    v_colour = mix(HORIZON, base * a_light + a_deep, clear_of_haze(a_pos));\n"
    "    gl_Position = view_proj * vec4(a_pos, 1.0);\n"
    "}\n";

static const char *fs_far = "#version 330 core\n"
    "in vec3 v_colour;\n"
    "out vec4 colour;\n"
    "void main() { colour = vec4(v_colour, 1.0); }\n";

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

/* The kind's bands of pebbles, sand and grass over the height. */
static void set_bands(unsigned program, ground_kind kind)
{
    glUseProgram(program);
    if (kind == GROUND_RIVER) /* pebbles under the water, sand at it, grass above */
        glUniform4f(shader_uniform(program, "u_bands"), -0.6f, 0.05f, 0.35f, 0.9f);
    else /* sand under the water, grass above */
        glUniform4f(shader_uniform(program, "u_bands"), -1e6f, -1e6f + 1.0f, 0.25f, 0.8f);
}

unsigned ground_look_create(ground_look *g, ground_kind kind, const char *name, char *err,
                            size_t err_len)
{
    g->near.program = shader_program(name, vs, fs, err, err_len);
    if (!g->near.program)
        return 0;
    if (!(g->far_program = shader_program(name, vs_far, fs_far, err, err_len)))
        return 0;
    set_bands(g->far_program, kind);
    set_bands(g->near.program, kind);
    glUniform1i(shader_uniform(g->near.program, "u_detail"), 0);
    g->texture = make_texture();
    if (!g->texture)
        snprintf(err, err_len, "out of memory for the %s's texture", name);
    return g->texture;
}

void ground_look_layout(void)
{
    static const int layout[] = {3, 4, 3, 3}; /* GROUND_LOOK_FLOATS */
    gpu_mesh_layout_floats(layout, 4);
}

void ground_look_draw(ground_look *g, const float view_proj[16], const float eye[3], float reach)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, g->texture);
    mesh_chunks_draw(&g->chunks, &g->near, view_proj, eye, 0.0f, GROUND_LOOK_NEAR, 0);
    gpu_mesh far = g->near;
    far.program = g->far_program;
    mesh_chunks_draw(&g->chunks, &far, view_proj, eye, GROUND_LOOK_NEAR, reach, 1);
}

void ground_look_destroy(ground_look *g)
{
    gpu_mesh_destroy(&g->near);
    if (g->far_program)
        glDeleteProgram(g->far_program);
    mesh_chunks_free(&g->chunks);
    if (g->texture)
        glDeleteTextures(1, &g->texture);
    *g = (ground_look){0};
}
