/* The pen's boards: four lit boxes. */
#include "render/pen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

#define FLOATS 7          /* position, normal, water level */
#define THICK 0.08        /* a board's thickness, outside the wall's plane, m */
#define UNDER 1.0         /* how far a board reaches under the water, m */

struct pen {
    gpu_mesh gpu;
};

static const char *vs = GLSL_VS_POS_NORMAL_LEVEL;

/* Weathered wood: grain along the board, darker where wet. */
static const char *fs = GLSL_FS_POS_NORMAL_LEVEL
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    float along = abs(n.x) > 0.5 ? v_pos.y : v_pos.x;\n"
    "    float grain = 0.5 + 0.5 * sin(37.0 * v_pos.z + 2.0 * sin(3.1 * along));\n"
    "    vec3 base = mix(vec3(0.60, 0.45, 0.30), vec3(0.74, 0.58, 0.40), grain);\n"
    "    float h = v_pos.z - v_level;\n"
    "    base *= mix(0.6, 1.0, smoothstep(-0.02, 0.12, h)); /* wet at the water line */\n"
    "    float diffuse = max(dot(n, sun.xyz), 0.0);\n"
    "    vec3 ambient = mix(vec3(0.20, 0.22, 0.24), vec3(0.40, 0.44, 0.50), 0.5 + 0.5 * n.z);\n"
    "    vec3 c = base * (ambient + 0.85 * diffuse * SUN_LIGHT);\n"
    "    if (h < 0.0)\n"
    "        c = mix(c * vec3(0.75, 0.92, 0.95), DEEP_WATER, 1.0 - exp(1.4 * h));\n"
    "    colour = vec4(haze(c, v_pos), 1.0);\n"
    "}\n";

/* Appends the box lo..hi (m): 6 faces of 4 vertices, outward normals. */
static void box(const double lo[3], const double hi[3], double level, float *v, uint32_t *idx,
                uint32_t *nv, size_t *ni)
{
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++) {
            int a = (axis + 1) % 3, b = (axis + 2) % 3;
            uint32_t base = *nv;
            for (int corner = 0; corner < 4; corner++) {
                double p[3], nrm[3] = {0.0, 0.0, 0.0};
                p[axis] = side ? hi[axis] : lo[axis];
                p[a] = (corner == 1 || corner == 2) ? hi[a] : lo[a];
                p[b] = corner >= 2 ? hi[b] : lo[b];
                nrm[axis] = side ? 1.0 : -1.0;
                float *o = v + FLOATS * (*nv)++;
                for (int k = 0; k < 3; k++) {
                    o[k] = (float)p[k];
                    o[3 + k] = (float)nrm[k];
                }
                o[6] = (float)level;
            }
            const uint32_t q[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; k++)
                idx[(*ni)++] = base + q[k];
        }
}

pen *pen_create(const dinghy_sim *sim, char *err, size_t err_len)
{
    double hx, hy;
    err[0] = '\0';
    if (!sim_pen(sim, &hx, &hy) || sim_river(sim))
        return NULL;
    const sim_def *d = sim_get_def(sim);
    double level = d->world.water.level;
    /* a little over a floating ring's top: the rings inside stay in view
     * (the walls the physics has reach up for ever) */
    double top = level + 1.5 * d->ring.minor_radius, bottom = level - UNDER;
    pen *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, err_len, "out of memory for the pen");
        return NULL;
    }
    if (!(p->gpu.program = shader_program("pen", vs, fs, err, err_len))) {
        free(p);
        return NULL;
    }
    float v[FLOATS * 4 * 24];
    uint32_t idx[4 * 36], nv = 0;
    size_t ni = 0;
    /* x walls run the pen's whole length and cover the corners */
    const double boards[4][6] = {
        {-hx - THICK, -hy - THICK, bottom, -hx, hy + THICK, top},
        {hx, -hy - THICK, bottom, hx + THICK, hy + THICK, top},
        {-hx, -hy - THICK, bottom, hx, -hy, top},
        {-hx, hy, bottom, hx, hy + THICK, top},
    };
    for (int k = 0; k < 4; k++)
        box(boards[k], boards[k] + 3, level, v, idx, &nv, &ni);
    gpu_mesh_create(&p->gpu, v, sizeof(float) * FLOATS * nv, 0, idx, ni);
    static const int layout[] = {3, 3, 1}; /* position, normal, water level: FLOATS */
    gpu_mesh_layout_floats(layout, 3);
    glBindVertexArray(0);
    return p;
}

void pen_draw(const pen *p)
{
    if (p)
        gpu_mesh_draw(&p->gpu, -1);
}

void pen_destroy(pen *p)
{
    if (!p)
        return;
    gpu_mesh_destroy(&p->gpu);
    free(p);
}
