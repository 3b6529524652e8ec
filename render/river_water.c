/* The river's water: sampled mesh, flow-advected foam in the shader. */
#include "render/river_water.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"
#include "render/smooth.h"
#include "render/terrain.h"

#define COLS 29        /* vertices across */
#define ROW_STEP 0.5   /* m between sampled rows */
#define MARGIN 1.2     /* m the mesh reaches over the banks past the water line */
#define FLOATS 10      /* x y z, normal, flow vx vy, white, depth */
#define ROUND 4        /* far rows are asked every ROUND-th frame */

struct river_water {
    gpu_mesh gpu;
    int u_time, u_speed;
    const river_course *c;
    int rows, first, last;  /* rows; the sampled ones are first..last */
    double *row_s;          /* arc length of each row, m */
    float *ground;          /* ground height under each vertex, m */
    float *white_fixed;     /* white water from rocks and drops, per vertex */
    float *staging;         /* FLOATS per vertex, uploaded whole */
    long frame;
    int samples;
};

static const char *vs = "#version 330 core\n" GLSL_COMMON
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in vec2 a_flow;\n"
    "layout(location = 3) in vec2 a_white_depth;\n"
    "out vec3 v_pos;\n"
    "out vec3 v_normal;\n"
    "out vec2 v_flow;\n"
    "out float v_white;\n"
    "out float v_depth;\n"
    "void main() {\n"
    "    v_pos = a_pos;\n"
    "    v_normal = a_normal;\n"
    "    v_flow = a_flow;\n"
    "    v_white = a_white_depth.x;\n"
    "    v_depth = a_white_depth.y;\n"
    "    gl_Position = view_proj * vec4(a_pos, 1.0);\n"
    "}\n";

/* Flow-map foam: a streaky noise (stretched along the flow) moved by the
 * local flow velocity in two phases that fade into each other, so it
 * keeps running downstream without smearing. Its height bumps the
 * normal (ripples); where the vertices say white water, it turns to foam. */
static const char *fs_head = "#version 330 core\n" GLSL_COMMON
    "uniform float u_time;  /* simulated time, s */\n"
    "uniform float u_speed; /* river speed, m/s */\n"
    "in vec3 v_pos;\n"
    "in vec3 v_normal;\n"
    "in vec2 v_flow;\n"
    "in float v_white;\n"
    "in float v_depth;\n"
    "out vec4 colour;\n"
    "float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }\n"
    "float vnoise(vec2 p) {\n"
    "    vec2 i = floor(p), f = fract(p), u = f * f * (3.0 - 2.0 * f);\n"
    "    return mix(mix(hash(i), hash(i + vec2(1.0, 0.0)), u.x),\n"
    "               mix(hash(i + vec2(0.0, 1.0)), hash(i + vec2(1.0, 1.0)), u.x), u.y);\n"
    "}\n"
    "float streaks(vec2 p, vec2 dir) {\n"
    "    vec2 q = vec2(dot(p, dir), dot(p, vec2(-dir.y, dir.x)));\n"
    "    return 0.65 * vnoise(q * vec2(0.8, 2.6)) + 0.35 * vnoise(q * vec2(2.2, 6.5) + 3.1);\n"
    "}\n";

static const char *fs_body =
    "void main() {\n"
    "    vec3 to_eye = eye.xyz - v_pos;\n"
    "    float dist = length(to_eye);\n"
    "    vec3 v = to_eye / dist;\n"
    "    float speed = length(v_flow);\n"
    "    vec2 dir = speed > 1e-3 ? v_flow / speed : vec2(1.0, 0.0);\n"
    "    const float T = 1.5;\n"
    "    float ph0 = fract(u_time / T), ph1 = fract(u_time / T + 0.5);\n"
    "    float w0 = 1.0 - abs(2.0 * ph0 - 1.0);\n"
    "    float n0 = streaks(v_pos.xy - v_flow * (ph0 * T), dir);\n"
    "    float n1 = streaks(v_pos.xy - v_flow * (ph1 * T) + vec2(17.3, 5.1), dir);\n"
    "    float pat = mix(n1, n0, w0);\n"
    "    pat = 0.5 + (pat - 0.5) * (1.0 + 0.8 * (1.0 - abs(2.0 * w0 - 1.0))); /* keep the contrast */\n"
    "    /* ripples: the pattern as a small height over the surface (bump mapping) */\n"
    "    vec3 n = normalize(v_normal);\n"
    "    float rel = u_speed > 0.0 ? speed / u_speed : 0.0;\n"
    "    float amp = (0.010 + 0.030 * clamp(rel, 0.0, 1.5) + 0.04 * v_white) * exp(-dist * 0.025);\n"
    "    float bump = amp * pat;\n"
    "    vec3 dpdx = dFdx(v_pos), dpdy = dFdy(v_pos);\n"
    "    vec3 r1 = cross(dpdy, n), r2 = cross(n, dpdx);\n"
    "    float det = dot(dpdx, r1);\n"
    "    vec3 grad = sign(det) * (dFdx(bump) * r1 + dFdy(bump) * r2);\n"
    "    n = normalize(abs(det) * n - grad * 2.0);\n"
    "    n = normalize(n + vec3(0.0, 0.0, 1e-4));\n"
    "    if (v.z < 0.0) n = -n; /* seen from below */\n"
    "    float facing = max(dot(n, v), 0.0);\n"
    "    float fresnel = 0.02 + 0.98 * pow(1.0 - facing, 5.0);\n"
    "    vec3 r = reflect(-v, n);\n"
    "    r.z = abs(r.z);\n"
    "    float deep = 1.0 - exp(-1.6 * max(v_depth, 0.0));\n"
    "    vec3 body = mix(vec3(0.16, 0.40, 0.36), vec3(0.06, 0.33, 0.40), deep) * (0.55 + 0.45 * max(sun.z, 0.0));\n"
    "    vec3 c = mix(body, sky_colour(r), fresnel);\n"
    "    vec3 h = normalize(sun.xyz + v);\n"
    "    float glint = pow(max(dot(n, h), 0.0), 400.0) * 2.5;\n"
    "    c += SUN_LIGHT * glint;\n"
    "    float alpha = mix(mix(0.30, 0.62, deep), 1.0, fresnel) + glint;\n"
    "    /* faint streaks wherever the water runs, foam where it is white */\n"
    "    float streak = 0.16 * smoothstep(0.62, 0.9, pat) * clamp(rel, 0.0, 1.2);\n"
    "    float wht = clamp(v_white, 0.0, 1.0);\n"
    "    float foam = smoothstep(0.68 - 0.42 * wht, 0.84 - 0.38 * wht, pat) * smoothstep(0.02, 0.2, wht);\n"
    "    /* far off the streaks get finer than a pixel: show their cover instead */\n"
    "    foam = mix(foam, smoothstep(0.1, 0.7, wht), 0.8 * smoothstep(12.0, 50.0, dist));\n"
    "    vec3 foam_c = vec3(0.93, 0.96, 0.98) * (0.78 + 0.25 * max(dot(normalize(v_normal), sun.xyz), 0.0));\n"
    "    c = mix(c, foam_c, clamp(foam + streak, 0.0, 1.0));\n"
    "    alpha = max(alpha, foam) + streak;\n"
    "    colour = vec4(haze(c, v_pos), clamp(alpha, 0.0, 1.0));\n"
    "}\n";

/* White water that stays where it is: round and behind each rock, at the
 * lip of each drop and in the jump below it. */
static double fixed_white(const course_map *m, double s, double x, double y)
{
    const river_course *c = m->c;
    double white = 0.0;
    for (int k = 0; k < c->rock_count; k++) {
        const double *r = &c->rock[4 * k];
        double dx = x - r[0], dy = y - r[1], d = sqrt(dx * dx + dy * dy) - r[3];
        if (d > 4.0 * r[3] + 4.0)
            continue;
        double t[2], rs, rn;
        river_station(m->w, r[0], r[1], &rs, &rn);
        course_map_tangent(m, rs, t);
        double along = dx * t[0] + dy * t[1], across = -dx * t[1] + dy * t[0];
        white += 1.1 * exp(-fmax(d, 0.0) / 0.35);
        if (along > 0.0) /* the wake */
            white += 0.9 * exp(-along / (2.5 * r[3] + 1.5)) *
                     exp(-across * across / ((r[3] + 0.3) * (r[3] + 0.3)));
    }
    for (int k = 0; k < c->drop_count; k++) {
        double u = s - c->drop_s[k];
        white += 0.35 * exp(-u * u / 0.5) + 0.65 * exp(-(u - 1.6) * (u - 1.6) / 2.2);
    }
    return white;
}

river_water *river_water_create(const course_map *m, const dinghy_sim *sim, char *err, size_t err_len)
{
    river_water *rw = calloc(1, sizeof *rw);
    int rows = course_rows(m, ROW_STEP, NULL, 0);
    size_t nv = (size_t)rows * COLS, ni = (size_t)(rows - 1) * (COLS - 1) * 6;
    uint32_t *idx = malloc(sizeof *idx * ni);
    if (rw) {
        rw->row_s = malloc(sizeof *rw->row_s * (size_t)rows);
        rw->ground = malloc(sizeof *rw->ground * nv);
        rw->white_fixed = malloc(sizeof *rw->white_fixed * nv);
        rw->staging = malloc(sizeof *rw->staging * FLOATS * nv);
    }
    if (!rw || !idx || !rw->row_s || !rw->ground || !rw->white_fixed || !rw->staging) {
        snprintf(err, err_len, "out of memory for the river's water");
        free(idx);
        river_water_destroy(rw);
        return NULL;
    }
    rw->gpu.program = shader_program_split("river water", vs, fs_head, fs_body, err, err_len);
    if (!rw->gpu.program) {
        free(idx);
        river_water_destroy(rw);
        return NULL;
    }
    rw->u_time = shader_uniform(rw->gpu.program, "u_time");
    rw->u_speed = shader_uniform(rw->gpu.program, "u_speed");
    rw->c = m->c;
    rw->rows = rows;
    course_rows(m, ROW_STEP, rw->row_s, rows);
    rw->first = rows;
    rw->last = -1;
    for (int i = 0; i < rows; i++)
        if (rw->row_s[i] >= m->s_lo && rw->row_s[i] <= m->s_hi) {
            rw->first = i < rw->first ? i : rw->first;
            rw->last = i;
        }
    for (int i = 0; i < rows; i++) {
        double s = rw->row_s[i], sc = course_map_clamp(m, s);
        double half = 0.5 * course_map_width(m, sc) + MARGIN;
        for (int j = 0; j < COLS; j++) {
            double n = (2.0 * j / (COLS - 1) - 1.0) * half, xy[2], at[2];
            course_map_point(m, s, n, xy);
            course_map_point(m, sc, n, at);
            size_t v = (size_t)i * COLS + j;
            float *o = rw->staging + FLOATS * v;
            o[0] = (float)xy[0];
            o[1] = (float)xy[1];
            rw->ground[v] = (float)river_ground(m->w, at[0], at[1], NULL);
            rw->white_fixed[v] = (float)fixed_white(m, sc, at[0], at[1]);
        }
    }
    size_t k = 0;
    for (uint32_t i = 0; i + 1 < (uint32_t)rows; i++)
        for (uint32_t j = 0; j + 1 < COLS; j++) {
            uint32_t a = i * COLS + j, b = a + 1, cc = a + COLS, d = cc + 1;
            idx[k++] = a; idx[k++] = cc; idx[k++] = d;
            idx[k++] = a; idx[k++] = d; idx[k++] = b;
        }
    gpu_mesh_create(&rw->gpu, NULL, sizeof(float) * FLOATS * nv, 1, idx, k);
    static const int layout[] = {3, 3, 2, 2}; /* the FLOATS of a vertex */
    gpu_mesh_layout_floats(layout, 4);
    glBindVertexArray(0);
    free(idx);
    /* every sampled row once, then the continuations */
    rw->frame = -1;
    river_water_update(rw, sim, 1e300);
    return rw;
}

/* Asks the water at every vertex of row i and fills its staging. */
static void sample_row(river_water *rw, const dinghy_sim *sim, int i)
{
    double speed = rw->c->speed;
    for (int j = 0; j < COLS; j++) {
        size_t v = (size_t)i * COLS + j;
        float *o = rw->staging + FLOATS * v;
        dinghy_water_point wp;
        /* above the surface: the surface's own velocity */
        sim_water_at(sim, o[0], o[1], 50.0, &wp);
        double nz = wp.normal[2] > 1e-3 ? wp.normal[2] : 1e-3;
        double slope = sqrt(wp.normal[0] * wp.normal[0] + wp.normal[1] * wp.normal[1]) / nz;
        double u = sqrt(wp.velocity[0] * wp.velocity[0] + wp.velocity[1] * wp.velocity[1]);
        double depth = wp.height - rw->ground[v];
        double white = rw->white_fixed[v] + smooth_step(0.06, 0.22, slope) +
                       (speed > 0.0 ? 0.8 * smooth_step(1.2, 1.8, u / speed) : 0.0);
        white *= smooth_step(0.0, 0.15, depth) * (speed > 0.0 ? smooth_step(0.0, 0.5, u / speed) : 0.0);
        o[2] = (float)wp.height;
        o[3] = (float)wp.normal[0];
        o[4] = (float)wp.normal[1];
        o[5] = (float)wp.normal[2];
        o[6] = (float)wp.velocity[0];
        o[7] = (float)wp.velocity[1];
        o[8] = (float)(white > 1.0 ? 1.0 : white);
        o[9] = (float)depth;
    }
    rw->samples += COLS;
}

void river_water_update(river_water *rw, const dinghy_sim *sim, double focus_s)
{
    rw->samples = 0;
    int all = rw->frame < 0;
    rw->frame++;
    for (int i = rw->first; i <= rw->last; i++) {
        double s = rw->row_s[i];
        if (all || fabs(s - focus_s) < RIVER_WATER_NEAR || i % ROUND == rw->frame % ROUND)
            sample_row(rw, sim, i);
    }
    if (rw->last < rw->first)
        return;
    /* the continuations carry the end rows' water on */
    for (int i = 0; i < rw->rows; i++) {
        if (i >= rw->first && i <= rw->last)
            continue;
        int from = i < rw->first ? rw->first : rw->last;
        for (int j = 0; j < COLS; j++) {
            float *o = rw->staging + FLOATS * ((size_t)i * COLS + j);
            const float *e = rw->staging + FLOATS * ((size_t)from * COLS + j);
            for (int q = 2; q < FLOATS; q++)
                o[q] = e[q];
        }
    }
    size_t bytes = sizeof(float) * FLOATS * (size_t)rw->rows * COLS;
    gpu_mesh_stream(&rw->gpu, rw->staging, bytes, bytes);
}

void river_water_draw(const river_water *rw, double time_s)
{
    glUseProgram(rw->gpu.program);
    glUniform1f(rw->u_time, (float)fmod(time_s, 3000.0));
    glUniform1f(rw->u_speed, (float)rw->c->speed);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); /* keep alpha 1 */
    glDepthMask(GL_FALSE);
    gpu_mesh_draw(&rw->gpu, -1);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

int river_water_samples(const river_water *rw)
{
    return rw->samples;
}

float river_water_white_at(const river_water *rw, double x, double y)
{
    double best = 1e300;
    float white = -1.0f;
    for (size_t v = 0; v < (size_t)rw->rows * COLS; v++) {
        const float *o = rw->staging + FLOATS * v;
        double d = (o[0] - x) * (o[0] - x) + (o[1] - y) * (o[1] - y);
        if (d < best) {
            best = d;
            white = o[8];
        }
    }
    return best < 1.0 ? white : -1.0f;
}

void river_water_destroy(river_water *rw)
{
    if (!rw)
        return;
    gpu_mesh_destroy(&rw->gpu);
    free(rw->row_s);
    free(rw->ground);
    free(rw->white_fixed);
    free(rw->staging);
    free(rw);
}
