/* Ring meshes: one VBO (position + normal interleaved), one index
 * buffer holding one ring's triangles at full and at coarse detail, and
 * one draw call for all rings. */
#include "render/ring_mesh.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/palette.h"
#include "render/shader.h"

#define FLOATS 7 /* position, normal, height of the water there */

struct ring_mesh {
    size_t vertices;   /* of the rings there are now */
    size_t room;       /* vertices the buffers hold: the simulation's capacity */
    int per_ring;       /* vertices per ring */
    int river;          /* the water is the river: its height per vertex */
    int u_river;
    float *staging; /* FLOATS per vertex, allocated once */
    float *nx, *ny, *nz; /* normals from the core, one float each per vertex */
    float *centre;      /* each ring's centre, 3 floats, as last uploaded */
    int full, coarse;   /* indices of one ring at full and at coarse detail */
    float closed_beyond; /* m: a ring whose centre is farther from the eye than this
                            cannot be cut open by the near plane */
    int drawn_coarse;   /* rings drawn coarse by the last draw */
    GLsizei *counts;    /* per ring, for glMultiDrawElementsBaseVertex */
    const void **offsets;
    GLint *bases;
    gpu_mesh gpu;
};

#define STR2(x) #x
#define STR(x) STR2(x)
static const char *vs = "#version 330 core\n" GLSL_COMMON
    "#define PALETTE_SIZE " STR(PALETTE_SIZE) "\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in float a_water;\n"
    "uniform int u_per_ring; /* vertices per ring */\n"
    "uniform vec3 u_palette[PALETTE_SIZE];\n"
    "out vec3 v_pos;\n"
    "out vec3 v_normal;\n"
    "out float v_water; /* the water's height over the vertex, ripples included, m */\n"
    "flat out vec3 v_base;\n"
    "uniform int u_river; /* 1: the water's height is a_water, 0: the level water.x */\n"
    PALETTE_INDEX_GLSL
    "void main() {\n"
    "    v_pos = a_pos;\n"
    "    v_normal = a_normal;\n"
    "    /* the ripples per vertex: their shortest wave spans several vertices */\n"
    "    v_water = (u_river != 0 ? a_water : water.x) + wave_height(a_pos.xy) - a_pos.z;\n"
    "    v_base = u_palette[palette_index(gl_VertexID / u_per_ring)];\n"
    "    gl_Position = view_proj * vec4(a_pos, 1.0);\n"
    "}\n";

/* Blinn-Phong with a broad, soft highlight (rubber, not metal), sky and
 * water-bounce ambient, a rim sheen, absorption below the waterline and a
 * thin foam line where the surface cuts the tube. */
static const char *fs = "#version 330 core\n" GLSL_COMMON
    "in vec3 v_pos;\n"
    "in vec3 v_normal;\n"
    "in float v_water;\n"
    "flat in vec3 v_base;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    if (!gl_FrontFacing && dot(n, eye.xyz - v_pos) < 0.0) n = -n;\n"
    "    vec3 v = normalize(eye.xyz - v_pos);\n"
    "    vec3 l = sun.xyz;\n"
    "    float diffuse = max(dot(n, l), 0.0);\n"
    "    float spec = pow(max(dot(n, normalize(l + v)), 0.0), 36.0) * 0.55 * step(0.0, dot(n, l));\n"
    "    vec3 ambient = mix(vec3(0.16, 0.24, 0.26), vec3(0.36, 0.42, 0.52), 0.5 + 0.5 * n.z);\n"
    "    vec3 c = v_base * (ambient + 0.80 * diffuse * SUN_LIGHT) + spec * SUN_LIGHT;\n"
    "    c += 0.12 * pow(1.0 - max(dot(n, v), 0.0), 3.0) * HORIZON;\n"
    "    float depth = v_water;\n"
    "    if (depth > 0.0)\n"
    "        c = mix(c * vec3(0.75, 0.92, 0.95), DEEP_WATER, 1.0 - exp(-1.4 * depth));\n"
    "    float foam = 1.0 - smoothstep(0.0, 0.035, abs(depth));\n"
    "    c = mix(c, vec3(0.96, 0.98, 1.0), 0.75 * foam);\n"
    "    colour = vec4(haze(c, v_pos), 1.0);\n"
    "}\n";

/* The triangles of one ring (vertex m N + n) over every sm-th vertex
 * round the ring and sn-th round the tube (sm, sn divide M, N): two per
 * quad, wrapping round both ways. Returns the index count. */
static size_t ring_triangles(int M, int N, int sm, int sn, uint32_t *idx)
{
    size_t k = 0;
    for (int a = 0; a < M; a += sm)
        for (int b = 0; b < N; b += sn) {
            uint32_t i00 = (uint32_t)(a * N + b);
            uint32_t i10 = (uint32_t)(((a + sm) % M) * N + b);
            uint32_t i01 = (uint32_t)(a * N + (b + sn) % N);
            uint32_t i11 = (uint32_t)(((a + sm) % M) * N + (b + sn) % N);
            idx[k++] = i00; idx[k++] = i10; idx[k++] = i11;
            idx[k++] = i00; idx[k++] = i11; idx[k++] = i01;
        }
    return k;
}

ring_mesh *ring_mesh_create(const dinghy_sim *sim, char *err, size_t err_len)
{
    /* room for every ring the simulation can hold: rings dropped in later
     * draw without new buffers */
    int P = sim_ring_capacity(sim), M = sim_segments(sim), N = sim_sides(sim);
    size_t nv = (size_t)P * (size_t)M * (size_t)N, ni = nv * 6;
    if (nv > UINT32_MAX / 6 || ni > 0x7fffffff) { /* 32-bit indices, GLsizei counts */
        snprintf(err, err_len, "too many vertices to draw (%zu)", nv);
        return NULL;
    }
    ring_mesh *m = calloc(1, sizeof *m);
    /* one ring's triangles twice: full, then coarse (at most as many) */
    uint32_t *idx = malloc(sizeof *idx * 12 * (size_t)M * (size_t)N);
    if (m) {
        m->staging = malloc(sizeof *m->staging * FLOATS * nv);
        m->nx = malloc(sizeof *m->nx * nv);
        m->ny = malloc(sizeof *m->ny * nv);
        m->nz = malloc(sizeof *m->nz * nv);
        m->centre = calloc(3 * (size_t)P, sizeof *m->centre);
        m->counts = malloc(sizeof *m->counts * (size_t)P);
        m->offsets = malloc(sizeof *m->offsets * (size_t)P);
        m->bases = malloc(sizeof *m->bases * (size_t)P);
    }
    if (!m || !idx || !m->staging || !m->nx || !m->ny || !m->nz || !m->centre || !m->counts ||
        !m->offsets || !m->bases) {
        snprintf(err, err_len, "out of memory for the ring meshes (%zu vertices)", nv);
        free(idx);
        ring_mesh_destroy(m);
        return NULL;
    }
    m->vertices = nv;
    m->room = nv;
    m->per_ring = M * N;
    m->river = sim_river(sim) != NULL;
    const sim_def *def = sim_get_def(sim);
    /* twice the ring's outer radius: room for a squashed ring */
    m->closed_beyond = (float)(2.0 * (def->ring.major_radius + def->ring.minor_radius));
    m->gpu.program = shader_program("ring", vs, fs, err, err_len);
    if (!m->gpu.program) {
        free(idx);
        ring_mesh_destroy(m);
        return NULL;
    }
    glUseProgram(m->gpu.program);
    glUniform1i(shader_uniform(m->gpu.program, "u_per_ring"), M * N);
    glUniform1i(shader_uniform(m->gpu.program, "u_river"), m->river);
    float palette[PALETTE_SIZE][3];
    for (int i = 0; i < PALETTE_SIZE; i++)
        palette_colour(i, palette[i]);
    glUniform3fv(shader_uniform(m->gpu.program, "u_palette"), PALETTE_SIZE, &palette[0][0]);

    /* full detail, then every other vertex round the ring and the tube
     * (where that leaves at least 4 round the tube and 3 round the ring) */
    size_t k = ring_triangles(M, N, 1, 1, idx);
    m->full = (int)k;
    int sm = M % 2 == 0 && M >= 6 ? 2 : 1, sn = N % 2 == 0 && N >= 8 ? 2 : 1;
    m->coarse = (int)ring_triangles(M, N, sm, sn, idx + k);
    gpu_mesh_create(&m->gpu, NULL, sizeof(float) * FLOATS * nv, 1, idx, k + (size_t)m->coarse);
    static const int layout[] = {3, 3, 1}; /* position, normal, water level: FLOATS */
    gpu_mesh_layout_floats(layout, 3);
    glBindVertexArray(0);
    free(idx);
    return m;
}

void ring_mesh_upload(ring_mesh *m, const dinghy_sim *sim)
{
    sim_state_view s = sim_state(sim);
    sim_normals(sim, m->nx, m->ny, m->nz);
    const sim_ring_state *rings = sim_rings(sim);
    float *o = m->staging;
    m->vertices = sim_vertex_count(sim);
    /* The water's height under each vertex: the plane of the surface at
     * its ring's centre (one question per ring, not per vertex). */
    double h = 0.0, gx = 0.0, gy = 0.0, cx = 0.0, cy = 0.0;
    for (size_t i = 0; i < m->vertices; i++, o += FLOATS) {
        if (m->river && i % (size_t)m->per_ring == 0) {
            const sim_ring_state *r = &rings[i / (size_t)m->per_ring];
            dinghy_water_point wp;
            cx = r->centre[0];
            cy = r->centre[1];
            sim_water_at(sim, cx, cy, r->centre[2], &wp);
            double nz = wp.normal[2] > 0.3 ? wp.normal[2] : 0.3;
            h = wp.height;
            gx = -wp.normal[0] / nz;
            gy = -wp.normal[1] / nz;
        }
        o[0] = s.x[i];
        o[1] = s.y[i];
        o[2] = s.z[i];
        o[3] = m->nx[i];
        o[4] = m->ny[i];
        o[5] = m->nz[i];
        o[6] = (float)(h + gx * (s.x[i] - cx) + gy * (s.y[i] - cy));
    }
    /* where each ring is, for the detail it is drawn at */
    for (size_t p = 0; p < m->vertices / (size_t)m->per_ring; p++)
        for (int c = 0; c < 3; c++)
            m->centre[3 * p + (size_t)c] = (float)rings[p].centre[c];
    size_t bytes = sizeof(float) * FLOATS * m->vertices;
    gpu_mesh_stream(&m->gpu, m->staging, bytes, sizeof(float) * FLOATS * m->room);
}

/* Draws `n` rings listed from `at` in the per-ring arrays. */
static void draw_list(const ring_mesh *m, int at, int n)
{
    if (n > 0)
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, m->counts + at, GL_UNSIGNED_INT,
                                      m->offsets + at, n, m->bases + at);
}

void ring_mesh_draw(ring_mesh *m, const float eye[3], float coarse_beyond)
{
    int rings = (int)(m->vertices / (size_t)m->per_ring);
    /* Listed from the front the rings the near plane may cut open (their
     * inside shows there: both faces drawn), from the back the closed
     * ones, whose back faces are hidden behind their front: culled, so a
     * CPU rasteriser neither sets them up nor shades them. */
    int open = 0, closed = rings;
    m->drawn_coarse = 0;
    for (int p = 0; p < rings; p++) {
        const float *c = m->centre + 3 * p;
        float dx = c[0] - eye[0], dy = c[1] - eye[1], dz = c[2] - eye[2];
        float d2 = dx * dx + dy * dy + dz * dz;
        int coarse = d2 > coarse_beyond * coarse_beyond;
        int slot = d2 > m->closed_beyond * m->closed_beyond ? --closed : open++;
        m->drawn_coarse += coarse;
        m->counts[slot] = coarse ? m->coarse : m->full;
        m->offsets[slot] = (const void *)(coarse ? sizeof(uint32_t) * (size_t)m->full : 0);
        m->bases[slot] = p * m->per_ring; /* gl_VertexID counts from it: the palette's ring */
    }
    glUseProgram(m->gpu.program);
    glBindVertexArray(m->gpu.vao);
    draw_list(m, 0, open);
    glEnable(GL_CULL_FACE);
    draw_list(m, closed, rings - closed);
    glDisable(GL_CULL_FACE);
}

int ring_mesh_drawn_coarse(const ring_mesh *m)
{
    return m->drawn_coarse;
}

void ring_mesh_destroy(ring_mesh *m)
{
    if (!m)
        return;
    gpu_mesh_destroy(&m->gpu);
    free(m->staging);
    free(m->nx);
    free(m->ny);
    free(m->nz);
    free(m->centre);
    free(m->counts);
    free(m->offsets);
    free(m->bases);
    free(m);
}
