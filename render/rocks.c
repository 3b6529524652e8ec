/* Boulders: a lathe round each rock's vertical axis. */
#include "render/rocks.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

#define AROUND 28   /* vertices round the axis */
#define SIDE 4      /* rings on the cylinder, bed to surface */
#define CAP 9       /* rings on the top, surface to the pole */
#define RINGS (SIDE + CAP)
#define FLOATS 7    /* position, normal, water level */
#define PI 3.14159265358979

struct rocks {
    gpu_mesh gpu;
};

#define STONE "vec3(0.50, 0.48, 0.45)"

static const char *vs = GLSL_VS_POS_NORMAL_LEVEL;

/* Grey stone with a mottled grain, darker where the water wets it. */
static const char *fs = GLSL_FS_POS_NORMAL_LEVEL
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    vec3 p = v_pos * 6.0;\n"
    "    float grain = 0.5 + 0.22 * sin(p.x + 1.7 * sin(p.y * 1.3 + p.z)) * sin(p.y * 1.1 + 1.3 * sin(p.z * 0.9 + p.x))\n"
    "                + 0.12 * sin(p.x * 3.1 + p.z * 2.3) * sin(p.y * 2.7 - p.z * 1.9);\n"
    "    vec3 base = " STONE " * (0.82 + 0.36 * grain);\n"
    "    float h = v_pos.z - v_level;\n"
    "    base *= mix(0.62, 1.0, smoothstep(0.0, 0.25, h)); /* wet at the water line */\n"
    "    float diffuse = max(dot(n, sun.xyz), 0.0);\n"
    "    vec3 v = normalize(eye.xyz - v_pos);\n"
    "    float spec = pow(max(dot(n, normalize(sun.xyz + v)), 0.0), 24.0) * 0.12;\n"
    "    vec3 ambient = mix(vec3(0.20, 0.22, 0.24), vec3(0.40, 0.44, 0.50), 0.5 + 0.5 * n.z);\n"
    "    vec3 c = base * (ambient + 0.85 * diffuse * SUN_LIGHT) + spec * SUN_LIGHT;\n"
    "    if (h < 0.0)\n"
    "        c = mix(c * vec3(0.75, 0.92, 0.95), DEEP_WATER, 1.0 - exp(1.4 * h));\n"
    "    colour = vec4(haze(c, v_pos), 1.0);\n"
    "}\n";

void rocks_colour(float rgb[3])
{
    rgb[0] = 0.50f;
    rgb[1] = 0.48f;
    rgb[2] = 0.45f;
}

/* Inward roughness 0..1 of rock k at azimuth a and height fraction u:
 * a few smooth bumps with phases from the rock's number. */
static double rough(int k, double a, double u)
{
    double p = 1.7 * k + 0.3;
    double r = 0.5 + 0.25 * sin(2.0 * a + p) * cos(3.0 * u + 0.7 * p) + 0.15 * sin(3.0 * a + 2.1 * p + 2.0 * u) +
               0.10 * sin(5.0 * a - 1.3 * p);
    return r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
}

/* Vertex (ring i, azimuth j) of rock k. */
static void lathe_point(const double *rock, int k, double bottom, int i, int j, double out[3])
{
    double a = 2.0 * PI * j / AROUND, R = rock[3], r, z;
    if (i < SIDE) { /* the cylinder, bed to surface */
        double u = (double)i / SIDE;
        r = R;
        z = bottom + u * (rock[2] - bottom);
    } else { /* the cap, surface to pole, a little flattened */
        double lat = 0.5 * PI * (i - SIDE) / (CAP - 1);
        r = R * cos(lat);
        z = rock[2] + 0.85 * R * sin(lat);
    }
    double u = (z - bottom) / (rock[2] + R - bottom);
    r *= 1.0 - 0.12 * rough(k, a, u);
    out[0] = rock[0] + r * cos(a);
    out[1] = rock[1] + r * sin(a);
    out[2] = z;
}

rocks *rocks_create(const river_world *w, char *err, size_t err_len)
{
    const river_course *c = river_course_view(w);
    int n = c->rock_count;
    size_t per = (size_t)RINGS * AROUND, nv = per * (size_t)(n > 0 ? n : 1);
    size_t ni = (size_t)(n > 0 ? n : 1) * (size_t)(RINGS - 1) * AROUND * 6;
    rocks *r = calloc(1, sizeof *r);
    float *verts = malloc(sizeof *verts * FLOATS * nv);
    double *pos = malloc(sizeof *pos * 3 * per);
    uint32_t *idx = malloc(sizeof *idx * ni);
    if (!r || !verts || !pos || !idx) {
        snprintf(err, err_len, "out of memory for the rocks");
        goto fail;
    }
    r->gpu.program = shader_program("rocks", vs, fs, err, err_len);
    if (!r->gpu.program)
        goto fail;
    size_t k = 0;
    for (int q = 0; q < n; q++) {
        const double *rock = &c->rock[4 * q];
        double bottom = river_ground(w, rock[0], rock[1], NULL) - 0.4;
        for (int i = 0; i < RINGS; i++)
            for (int j = 0; j < AROUND; j++)
                lathe_point(rock, q, bottom, i, j, pos + 3 * ((size_t)i * AROUND + j));
        for (int i = 0; i < RINGS; i++)
            for (int j = 0; j < AROUND; j++) {
                /* normal from the neighbours round and up the lathe */
                const double *p = pos + 3 * ((size_t)i * AROUND + j);
                const double *e = pos + 3 * ((size_t)i * AROUND + (j + 1) % AROUND);
                const double *wv = pos + 3 * ((size_t)i * AROUND + (j + AROUND - 1) % AROUND);
                const double *u = pos + 3 * ((size_t)(i + 1 < RINGS ? i + 1 : i) * AROUND + j);
                const double *d = pos + 3 * ((size_t)(i > 0 ? i - 1 : i) * AROUND + j);
                double ta[3], tu[3], nn[3];
                for (int m = 0; m < 3; m++) {
                    ta[m] = e[m] - wv[m];
                    tu[m] = u[m] - d[m];
                }
                nn[0] = ta[1] * tu[2] - ta[2] * tu[1];
                nn[1] = ta[2] * tu[0] - ta[0] * tu[2];
                nn[2] = ta[0] * tu[1] - ta[1] * tu[0];
                double len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
                if (i == RINGS - 1 || len < 1e-12) { /* the pole */
                    nn[0] = nn[1] = 0.0;
                    nn[2] = len = 1.0;
                }
                float *v = verts + FLOATS * (per * (size_t)q + (size_t)i * AROUND + j);
                for (int m = 0; m < 3; m++) {
                    v[m] = (float)p[m];
                    v[3 + m] = (float)(nn[m] / len);
                }
                v[6] = (float)rock[2];
            }
        uint32_t base = (uint32_t)(per * (size_t)q);
        for (uint32_t i = 0; i + 1 < RINGS; i++)
            for (uint32_t j = 0; j < AROUND; j++) {
                uint32_t a = base + i * AROUND + j, b = base + i * AROUND + (j + 1) % AROUND;
                uint32_t cc = a + AROUND, d = b + AROUND;
                idx[k++] = a; idx[k++] = b; idx[k++] = d;
                idx[k++] = a; idx[k++] = d; idx[k++] = cc;
            }
    }
    gpu_mesh_create(&r->gpu, verts, sizeof *verts * FLOATS * nv, 0, idx, k);
    static const int layout[] = {3, 3, 1}; /* position, normal, water level: FLOATS */
    gpu_mesh_layout_floats(layout, 3);
    glBindVertexArray(0);
    free(verts);
    free(pos);
    free(idx);
    return r;
fail:
    free(verts);
    free(pos);
    free(idx);
    rocks_destroy(r);
    return NULL;
}

void rocks_draw(const rocks *r)
{
    if (r->gpu.index_count > 0)
        gpu_mesh_draw(&r->gpu, -1);
}

void rocks_destroy(rocks *r)
{
    if (!r)
        return;
    gpu_mesh_destroy(&r->gpu);
    free(r);
}
