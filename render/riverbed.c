/* River bed and banks as one static indexed grid. */
#include "render/riverbed.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

#define GRID 200            /* vertices per side */
#define BED_DEPTH 2.2f      /* channel depth below the water, m */
#define BANK_WIDTH 7.0f     /* horizontal run of a bank, m */

struct riverbed {
    float cx, cy, half_width, level;
    gpu_mesh gpu;
};

static const char *vs = "#version 330 core\n" GLSL_COMMON
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "out vec3 v_pos;\n"
    "out vec3 v_normal;\n"
    "void main() {\n"
    "    v_pos = a_pos;\n"
    "    v_normal = a_normal;\n"
    "    gl_Position = view_proj * vec4(a_pos, 1.0);\n"
    "}\n";

static const char *fs = "#version 330 core\n" GLSL_COMMON
    "in vec3 v_pos;\n"
    "in vec3 v_normal;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    float h = v_pos.z - water.x;\n"
    "    vec2 p = v_pos.xy;\n"
    "    float grain = 0.5 + 0.25 * sin(p.x * 5.1 + sin(p.y * 3.7)) * sin(p.y * 4.3 + sin(p.x * 2.9))\n"
    "                + 0.25 * sin(p.x * 0.7 + p.y * 0.4) * sin(p.y * 0.9 - p.x * 0.3);\n"
    "    vec3 sand = mix(vec3(0.55, 0.47, 0.34), vec3(0.80, 0.72, 0.54), grain);\n"
    "    vec3 grass = mix(vec3(0.20, 0.38, 0.12), vec3(0.38, 0.56, 0.20), grain);\n"
    "    vec3 base = mix(sand, grass, smoothstep(0.25, 0.8, h));\n"
    "    float diffuse = max(dot(n, sun.xyz), 0.0);\n"
    "    vec3 c = base * (0.38 + 0.72 * diffuse * SUN_LIGHT);\n"
    "    if (h < 0.0)\n"
    "        c = mix(c * vec3(0.70, 0.88, 0.90), DEEP_WATER, 1.0 - exp(0.55 * h));\n"
    "    colour = vec4(haze(c, v_pos), 1.0);\n"
    "}\n";

static float smooth01(float t)
{
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

float riverbed_height(const riverbed *r, float x, float y)
{
    float lx = x - r->cx;
    /* A gentle meander away from the crowd; straight where the crowd is. */
    float bend = 10.0f * (1.0f - expf(-lx * lx / 3600.0f)) * sinf(lx * 0.02f);
    float off = fabsf(y - r->cy - bend) - r->half_width; /* > 0 beyond the channel */
    float bed = r->level - BED_DEPTH + 0.3f * sinf(0.31f * x + 1.3f) * sinf(0.23f * y) +
                0.12f * sinf(1.1f * x - 0.7f * y);
    float far = off - BANK_WIDTH > 0.0f ? off - BANK_WIDTH : 0.0f;
    float land = r->level + 0.7f + 0.25f * sinf(0.4f * x) * sinf(0.35f * y) +
                 (1.0f - expf(-far / 45.0f)) * (3.0f + 2.5f * sinf(0.021f * x + 1.0f) * cosf(0.017f * y));
    return bed + (land - bed) * smooth01(off / BANK_WIDTH);
}

/* Grid coordinate u in -1..1 to metres: fine near the centre, coarse far out. */
static float spread(float u)
{
    return 60.0f * u + 340.0f * u * u * u;
}

riverbed *riverbed_create(const float centre[2], float half_width, float level, char *err,
                          size_t err_len)
{
    riverbed *r = calloc(1, sizeof *r);
    float *verts = malloc(sizeof *verts * 6 * GRID * GRID);
    uint32_t *idx = malloc(sizeof *idx * 6 * (GRID - 1) * (GRID - 1));
    if (!r || !verts || !idx) {
        snprintf(err, err_len, "out of memory for the river bed");
        goto fail;
    }
    r->cx = centre[0];
    r->cy = centre[1];
    r->half_width = half_width;
    r->level = level;
    r->gpu.program = shader_program("river bed", vs, fs, err, err_len);
    if (!r->gpu.program)
        goto fail;
    const float e = 0.05f; /* finite-difference step for normals, m */
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++) {
            float x = r->cx + spread(2.0f * i / (GRID - 1) - 1.0f);
            float y = r->cy + spread(2.0f * j / (GRID - 1) - 1.0f);
            float *v = verts + 6 * (j * GRID + i);
            v[0] = x;
            v[1] = y;
            v[2] = riverbed_height(r, x, y);
            v[3] = -(riverbed_height(r, x + e, y) - riverbed_height(r, x - e, y)) / (2.0f * e);
            v[4] = -(riverbed_height(r, x, y + e) - riverbed_height(r, x, y - e)) / (2.0f * e);
            v[5] = 1.0f;
        }
    size_t k = 0;
    for (uint32_t j = 0; j + 1 < GRID; j++)
        for (uint32_t i = 0; i + 1 < GRID; i++) {
            uint32_t a = j * GRID + i, b = a + 1, c = a + GRID, d = c + 1;
            idx[k++] = a; idx[k++] = b; idx[k++] = d;
            idx[k++] = a; idx[k++] = d; idx[k++] = c;
        }
    gpu_mesh_create(&r->gpu, verts, sizeof *verts * 6 * GRID * GRID, 0, idx, k);
    gpu_mesh_layout_position_normal();
    glBindVertexArray(0);
    free(verts);
    free(idx);
    return r;
fail:
    free(verts);
    free(idx);
    riverbed_destroy(r);
    return NULL;
}

void riverbed_draw(const riverbed *r)
{
    gpu_mesh_draw(&r->gpu, -1);
}

void riverbed_destroy(riverbed *r)
{
    if (!r)
        return;
    gpu_mesh_destroy(&r->gpu);
    free(r);
}
