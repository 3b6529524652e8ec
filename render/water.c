/* Translucent water sheet: a large square at the level, and over the
 * wave layer's box (when there is one) a grid lifted by the waves, the
 * square leaving that box to it. */
#include "render/water.h"

#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

/* The waves' grid: a vertex every WAVE_VERTEX_CELLS cells of the layer,
 * at most WAVE_MESH_MAX vertices along a side. */
#define WAVE_VERTEX_CELLS 2
#define WAVE_MESH_MAX 512

struct water {
    gpu_mesh sheet;      /* the large square (its program draws both) */
    gpu_mesh waves;      /* the grid over the layer's box; vao 0: none */
    int u_hole;
    wave_uniforms u_waves;
    float box[4];        /* the layer's box, m; x0 > x1: none */
};

static const char *vs = "#version 330 core\n" GLSL_COMMON GLSL_WAVES
    "layout(location = 0) in vec2 a_xy;\n"
    "out vec3 v_pos;\n"
    "void main() {\n"
    "    v_pos = vec3(a_xy, water.x + waves_height(a_xy));\n"
    "    gl_Position = view_proj * vec4(v_pos, 1.0);\n"
    "}\n";

/* In two parts: one string literal may be at most 4095 characters. */
static const char *fs_head = "#version 330 core\n" GLSL_COMMON GLSL_WAVES;
static const char *fs_body =
    "uniform vec4 u_hole; /* x0 y0 x1 y1, m: left to the waves' grid (x0 > x1: none) */\n"
    "in vec3 v_pos;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    if (v_pos.x > u_hole.x && v_pos.y > u_hole.y && v_pos.x < u_hole.z && v_pos.y < u_hole.w)\n"
    "        discard;\n"
    "    vec3 to_eye = eye.xyz - v_pos;\n"
    "    float dist = length(to_eye);\n"
    "    vec3 v = to_eye / dist;\n"
    "    vec3 r0 = wave_normal(v_pos.xy, dist);\n"
    "    vec2 ws = waves_slope(v_pos.xy); /* the waves' slope on the ripples' */\n"
    "    vec3 n = normalize(vec3(r0.xy / r0.z - WAVES_LIGHT * ws, 1.0));\n"
    "    if (v.z < 0.0) n = -n; /* seen from below */\n"
    "    float facing = max(dot(n, v), 0.0);\n"
    "    float fresnel = 0.02 + 0.98 * pow(1.0 - facing, 5.0);\n"
    "    vec3 r = reflect(-v, n);\n"
    "    r.z = abs(r.z);\n"
    "    vec3 body = vec3(0.06, 0.33, 0.40) * (0.55 + 0.45 * max(sun.z, 0.0));\n"
    "    vec3 c = mix(body, sky_colour(r), fresnel);\n"
    "    vec3 h = normalize(sun.xyz + v);\n"
    "    float glint = pow(max(dot(n, h), 0.0), 400.0) * 2.5;\n"
    "    c += SUN_LIGHT * glint;\n"
    "    c = waves_crest(c, v_pos.z - water.x);\n"
    "    float alpha = clamp(mix(0.62, 1.0, fresnel) + glint, 0.0, 1.0);\n"
    "    float foam = waves_foam(ws); /* where the waves break */\n"
    "    c = mix(c, vec3(0.93, 0.96, 0.98) * (0.78 + 0.25 * max(n.z * sun.z, 0.0)), foam);\n"
    "    alpha = max(alpha, foam);\n"
    "    colour = vec4(haze(c, v_pos), alpha);\n"
    "}\n";

/* The grid of vertices over box, a vertex every `step` m (at most
 * WAVE_MESH_MAX a side); 0 when out of memory. */
static int wave_grid(water *w, const float box[4], float step)
{
    int nx = (int)((box[2] - box[0]) / step) + 1, ny = (int)((box[3] - box[1]) / step) + 1;
    nx = nx < 2 ? 2 : nx > WAVE_MESH_MAX ? WAVE_MESH_MAX : nx;
    ny = ny < 2 ? 2 : ny > WAVE_MESH_MAX ? WAVE_MESH_MAX : ny;
    const size_t nv = (size_t)nx * ny, ni = (size_t)(nx - 1) * (ny - 1) * 6;
    float *xy = malloc(sizeof *xy * 2 * nv);
    uint32_t *idx = malloc(sizeof *idx * ni);
    if (!xy || !idx) {
        free(xy);
        free(idx);
        return 0;
    }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            xy[2 * ((size_t)j * nx + i)] = box[0] + (box[2] - box[0]) * i / (nx - 1);
            xy[2 * ((size_t)j * nx + i) + 1] = box[1] + (box[3] - box[1]) * j / (ny - 1);
        }
    size_t k = 0;
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            const uint32_t a = (uint32_t)(j * nx + i), b = a + 1, c = a + (uint32_t)nx, d = c + 1;
            idx[k++] = a, idx[k++] = b, idx[k++] = d;
            idx[k++] = a, idx[k++] = d, idx[k++] = c;
        }
    w->waves.program = 0; /* the sheet's program draws it */
    gpu_mesh_create(&w->waves, xy, sizeof *xy * 2 * nv, 0, idx, ni);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void *)0);
    glBindVertexArray(0);
    free(xy);
    free(idx);
    return 1;
}

water *water_create(const float centre[2], float half_size, const wave_texture *waves, char *err,
                    size_t err_len)
{
    water *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->sheet.program = shader_program_split("water", vs, fs_head, fs_body, err, err_len);
    if (!w->sheet.program) {
        free(w);
        return NULL;
    }
    w->u_hole = shader_uniform(w->sheet.program, "u_hole");
    w->u_waves = wave_texture_uniforms(w->sheet.program);
    float x0 = centre[0] - half_size, x1 = centre[0] + half_size;
    float y0 = centre[1] - half_size, y1 = centre[1] + half_size;
    const float quad[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    gpu_mesh_create(&w->sheet, quad, sizeof quad, 0, idx, 6);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void *)0);
    glBindVertexArray(0);
    w->box[0] = 1.0f;
    w->box[2] = -1.0f;
    float box[4];
    if (waves && wave_texture_box(waves, box)) {
        if (!wave_grid(w, box, wave_texture_cell(waves) * WAVE_VERTEX_CELLS)) {
            water_destroy(w);
            return NULL;
        }
        for (int k = 0; k < 4; k++)
            w->box[k] = box[k];
    }
    return w;
}

void water_draw(const water *w, const wave_texture *waves)
{
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); /* keep alpha 1 */
    glDepthMask(GL_FALSE);
    glUseProgram(w->sheet.program);
    wave_texture_use(waves, &w->u_waves, 0);
    glUniform4f(w->u_hole, w->box[0], w->box[1], w->box[2], w->box[3]);
    gpu_mesh_draw(&w->sheet, -1);
    if (w->waves.vao) { /* the same program, no hole */
        glUniform4f(w->u_hole, 1.0f, 1.0f, -1.0f, -1.0f);
        glBindVertexArray(w->waves.vao);
        glDrawElements(GL_TRIANGLES, w->waves.index_count, GL_UNSIGNED_INT, (void *)0);
    }
    glBindVertexArray(0);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void water_destroy(water *w)
{
    if (!w)
        return;
    gpu_mesh_destroy(&w->sheet);
    gpu_mesh_destroy(&w->waves);
    free(w);
}
