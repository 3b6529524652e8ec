/* The river's water: sampled mesh, flow-advected foam in the shader. */
#include "render/river_water.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/mesh_chunks.h"
#include "render/shader.h"
#include "render/tiling_texture.h"
#include "render/smooth.h"
#include "render/terrain.h"
#include "render/wave_texture.h"

#define COLS 29        /* vertices across */
#define ROW_STEP 0.5   /* m between sampled rows */
#define MARGIN 1.2     /* m the mesh reaches over the banks past the water line */
#define FLOATS 10      /* x y z, normal, flow vx vy, white, depth */
#define ROUND 4        /* far rows are asked every ROUND-th frame */
#define CHUNK_ROWS 8   /* rows a chunk culled against the view (mesh_chunks.h) */
#define COARSE_BEYOND 60.0 /* m: chunks farther off drawn at coarse detail */
#define CHUNK_RISE 2.0 /* m a chunk's box reaches above and below its first
                          heights: the surface moves with the waves and the drops */

struct river_water {
    gpu_mesh gpu;
    mesh_chunks chunks;     /* CHUNK_ROWS rows each: only those in view are drawn */
    unsigned noise;         /* the streaks' texture */
    int u_time, u_speed;
    wave_uniforms u_waves;  /* the wave layer's (wave_texture.h) */
    const river_course *c;
    int rows, first, last;  /* rows; the sampled ones are first..last */
    double *row_s;          /* arc length of each row, m */
    float *ground;          /* ground height under each vertex, m */
    float *white_fixed;     /* white water from rocks and drops, per vertex */
    float *staging;         /* FLOATS per vertex, uploaded whole */
    long frame;
    int samples;
};

#define STR2(x) #x
#define STR(x) STR2(x)
#define NOISE_TEXELS 512  /* a side of the streak texture */
#define NOISE_ALONG 40.0  /* m along the flow the streak texture repeats over */
#define NOISE_ACROSS 10.0 /* m across it */

/* What changes slowly over the surface is worked out per vertex (how deep
 * the colour, how high the ripples, the haze); only the streaks, their
 * bump and the light on it are per pixel. */
static const char *vs = "#version 330 core\n" GLSL_COMMON GLSL_WAVES
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in vec2 a_flow;\n"
    "layout(location = 3) in vec2 a_white_depth;\n"
    "uniform float u_speed; /* river speed, m/s */\n"
    "out vec3 v_pos;\n"
    "out vec3 v_normal;\n"
    "out vec2 v_flow;\n"
    "out float v_white;\n"
    "out vec4 v_look; /* deep, ripple height m, far (0..0.8), clear (1 - haze) */\n"
    "void main() {\n"
    "    v_pos = a_pos + vec3(0.0, 0.0, waves_height(a_pos.xy)); /* the waves lift the river */\n"
    "    v_normal = a_normal;\n"
    "    v_flow = a_flow;\n"
    "    v_white = a_white_depth.x;\n"
    "    float dist = length(eye.xyz - v_pos);\n"
    "    float rel = u_speed > 0.0 ? length(a_flow) / u_speed : 0.0;\n"
    "    float amp = (0.010 + 0.030 * clamp(rel, 0.0, 1.5) + 0.04 * a_white_depth.x) * exp(-dist * 0.025);\n"
    "    float d = dist * water.z;\n"
    "    v_look = vec4(1.0 - exp(-1.6 * max(a_white_depth.y, 0.0)), amp,\n"
    "                  0.8 * smoothstep(12.0, 50.0, dist), exp(-d * d));\n"
    "    gl_Position = view_proj * vec4(v_pos, 1.0);\n"
    "}\n";

/* Flow-map foam: a streaky noise (stretched along the flow, read from a
 * tiling texture) moved by the local flow velocity in two phases that fade
 * into each other, so it keeps running downstream without smearing. Its
 * height bumps the normal (ripples); where the vertices say white water,
 * it turns to foam. */
static const char *fs_head = "#version 330 core\n" GLSL_COMMON GLSL_WAVES
    "uniform float u_time;  /* simulated time, s */\n"
    "uniform float u_speed; /* river speed, m/s */\n"
    "uniform sampler2D u_noise; /* the streaks, repeating over NOISE_ALONG x NOISE_ACROSS m */\n"
    "in vec3 v_pos;\n"
    "in vec3 v_normal;\n"
    "in vec2 v_flow;\n"
    "in float v_white;\n"
    "in vec4 v_look;\n"
    "out vec4 colour;\n"
    "float streaks(vec2 p, vec2 dir) {\n"
    "    vec2 q = vec2(dot(p, dir), dot(p, vec2(-dir.y, dir.x)));\n"
    "    return texture(u_noise, q * vec2(1.0 / " STR(NOISE_ALONG) ", 1.0 / " STR(NOISE_ACROSS) ")).r;\n"
    "}\n";

static const char *fs_body =
    "void main() {\n"
    "    vec3 v = normalize(eye.xyz - v_pos);\n"
    "    float speed = length(v_flow);\n"
    "    vec2 dir = speed > 1e-3 ? v_flow / speed : vec2(1.0, 0.0);\n"
    "    const float T = 1.5;\n"
    "    float ph0 = fract(u_time / T), ph1 = fract(u_time / T + 0.5);\n"
    "    float w0 = 1.0 - abs(2.0 * ph0 - 1.0);\n"
    "    float n0 = streaks(v_pos.xy - v_flow * (ph0 * T), dir);\n"
    "    float n1 = streaks(v_pos.xy - v_flow * (ph1 * T) + vec2(17.3, 5.1), dir);\n"
    "    float pat = mix(n1, n0, w0);\n"
    "    pat = 0.5 + (pat - 0.5) * (1.0 + 0.8 * (1.0 - abs(2.0 * w0 - 1.0))); /* keep the contrast */\n"
    "    /* the river's slope and the waves' on it, at this pixel */\n"
    "    vec3 nr = normalize(v_normal);\n"
    "    vec2 ws = waves_slope(v_pos.xy);\n"
    "    vec3 n = normalize(vec3(nr.xy / max(nr.z, 0.05) - WAVES_LIGHT * ws, 1.0));\n"
    "    /* ripples: the pattern as a small height over the surface (bump mapping) */\n"
    "    float rel = u_speed > 0.0 ? speed / u_speed : 0.0;\n"
    "    float bump = v_look.y * pat;\n"
    "    vec3 dpdx = dFdx(v_pos), dpdy = dFdy(v_pos);\n"
    "    vec3 r1 = cross(dpdy, n), r2 = cross(n, dpdx);\n"
    "    float det = dot(dpdx, r1);\n"
    "    vec3 grad = sign(det) * (dFdx(bump) * r1 + dFdy(bump) * r2);\n"
    "    n = normalize(abs(det) * n - grad * 2.0 + vec3(0.0, 0.0, 1e-4));\n"
    "    if (v.z < 0.0) n = -n; /* seen from below */\n"
    "    float rim = 1.0 - max(dot(n, v), 0.0), rim2 = rim * rim;\n"
    "    float fresnel = 0.02 + 0.98 * rim2 * rim2 * rim;\n"
    "    vec3 r = reflect(-v, n);\n"
    "    vec3 sky = mix(HORIZON, ZENITH, sqrt(abs(r.z))); /* the sky's gradient; its sun is the glint */\n"
    "    vec3 body = mix(vec3(0.16, 0.40, 0.36), vec3(0.06, 0.33, 0.40), v_look.x) * (0.55 + 0.45 * max(sun.z, 0.0));\n"
    "    vec3 c = mix(body, sky, fresnel);\n"
    "    vec3 h = normalize(sun.xyz + v);\n"
    "    float glint = pow(max(dot(n, h), 0.0), 400.0) * 2.5;\n"
    "    c += SUN_LIGHT * glint;\n"
    "    c = waves_crest(c, waves_height(v_pos.xy));\n"
    "    float alpha = mix(mix(0.30, 0.62, v_look.x), 1.0, fresnel) + glint;\n"
    "    /* faint streaks wherever the water runs, foam where it is white */\n"
    "    float streak = 0.16 * smoothstep(0.62, 0.9, pat) * clamp(rel, 0.0, 1.2);\n"
    "    float wht = clamp(v_white + waves_foam(ws), 0.0, 1.0); /* and where the waves break */\n"
    "    float foam = smoothstep(0.68 - 0.42 * wht, 0.84 - 0.38 * wht, pat) * smoothstep(0.02, 0.2, wht);\n"
    "    /* far off the streaks get finer than a pixel: show their cover instead */\n"
    "    foam = mix(foam, smoothstep(0.1, 0.7, wht), v_look.z);\n"
    "    vec3 foam_c = vec3(0.93, 0.96, 0.98) * (0.78 + 0.25 * max(dot(normalize(v_normal), sun.xyz), 0.0));\n"
    "    c = mix(c, foam_c, clamp(foam + streak, 0.0, 1.0));\n"
    "    alpha = max(alpha, foam) + streak;\n"
    "    colour = vec4(mix(HORIZON, c, v_look.w), clamp(alpha, 0.0, 1.0));\n"
    "}\n";

/* A hash of lattice point (i, j), 0..1. */
static double lattice(unsigned i, unsigned j)
{
    unsigned h = i * 374761393u + j * 668265263u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return (double)((h ^ (h >> 16)) & 0xffffu) / 65535.0;
}

/* Value noise of cells nx x ny that repeats over the unit square, at (u, v) in it. */
static double periodic_noise(double u, double v, int nx, int ny, unsigned seed)
{
    double x = u * nx, y = v * ny, fx = x - floor(x), fy = y - floor(y);
    int i = (int)floor(x), j = (int)floor(y);
    unsigned i0 = (unsigned)(((i % nx) + nx) % nx), i1 = (i0 + 1) % (unsigned)nx;
    unsigned j0 = (unsigned)(((j % ny) + ny) % ny) + seed, j1 = (j0 - seed + 1) % (unsigned)ny + seed;
    double sx = fx * fx * (3.0 - 2.0 * fx), sy = fy * fy * (3.0 - 2.0 * fy);
    double a = lattice(i0, j0) + (lattice(i1, j0) - lattice(i0, j0)) * sx;
    double b = lattice(i0, j1) + (lattice(i1, j1) - lattice(i0, j1)) * sx;
    return a + (b - a) * sy;
}

/* The streaks: two octaves of value noise, stretched across the flow
 * (cells of 1/0.8 x 1/2.6 m and 1/2.2 x 1/6.5 m), repeating over
 * NOISE_ALONG x NOISE_ACROSS m; mipmapped, so that far off they fade to
 * their mean instead of shimmering. Returns the texture, or 0. */
static unsigned make_noise(void)
{
    unsigned char *texels = malloc(NOISE_TEXELS * NOISE_TEXELS);
    if (!texels)
        return 0;
    int ax = (int)lround(0.8 * NOISE_ALONG), ay = (int)lround(2.6 * NOISE_ACROSS);
    int bx = (int)lround(2.2 * NOISE_ALONG), by = (int)lround(6.5 * NOISE_ACROSS);
    for (int j = 0; j < NOISE_TEXELS; j++)
        for (int i = 0; i < NOISE_TEXELS; i++) {
            double u = (i + 0.5) / NOISE_TEXELS, v = (j + 0.5) / NOISE_TEXELS;
            double n = 0.65 * periodic_noise(u, v, ax, ay, 0u) + 0.35 * periodic_noise(u, v, bx, by, 7919u);
            texels[j * NOISE_TEXELS + i] = (unsigned char)lround(255.0 * n);
        }
    unsigned tex = tiling_texture(texels, NOISE_TEXELS, 1);
    free(texels);
    return tex;
}

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

static void sample(river_water *rw, const dinghy_sim *sim, double focus_s);

/* The triangles in chunks of CHUNK_ROWS rows at full and coarse detail
 * (mesh_chunks_grid), boxed round the heights sampled and CHUNK_RISE over
 * and under them. Returns the index count, or 0 when out of memory. */
static size_t add_chunks(river_water *rw, uint32_t *idx)
{
    size_t k = 0;
    if (mesh_chunks_grid(&rw->chunks, idx, &k, rw->staging, FLOATS, rw->rows, COLS, CHUNK_ROWS) != 0)
        return 0;
    for (int i = 0; i < rw->chunks.n; i++) {
        rw->chunks.chunk[i].lo[2] -= (float)CHUNK_RISE;
        rw->chunks.chunk[i].hi[2] += (float)CHUNK_RISE;
    }
    return k;
}

river_water *river_water_create(const course_map *m, const dinghy_sim *sim, char *err, size_t err_len)
{
    river_water *rw = calloc(1, sizeof *rw);
    int rows = course_rows(m, ROW_STEP, NULL, 0);
    size_t nv = (size_t)rows * COLS, ni = (size_t)(rows - 1) * (COLS - 1) * 12; /* 2 details */
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
    rw->u_waves = wave_texture_uniforms(rw->gpu.program);
    glUseProgram(rw->gpu.program);
    glUniform1i(shader_uniform(rw->gpu.program, "u_noise"), 0);
    if (!(rw->noise = make_noise())) {
        snprintf(err, err_len, "out of memory for the river's water");
        free(idx);
        river_water_destroy(rw);
        return NULL;
    }
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
    /* every sampled row once, then the continuations: the chunks' heights */
    rw->frame = -1;
    sample(rw, sim, 1e300);
    size_t k = add_chunks(rw, idx);
    if (k == 0) {
        snprintf(err, err_len, "out of memory for the river's water");
        free(idx);
        river_water_destroy(rw);
        return NULL;
    }
    gpu_mesh_create(&rw->gpu, rw->staging, sizeof(float) * FLOATS * nv, 1, idx, k);
    static const int layout[] = {3, 3, 2, 2}; /* the FLOATS of a vertex */
    gpu_mesh_layout_floats(layout, 4);
    glBindVertexArray(0);
    free(idx);
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

/* Asks the water again into the staging (rows within RIVER_WATER_NEAR of
 * focus_s, the rest in turn; every row the first time). */
static void sample(river_water *rw, const dinghy_sim *sim, double focus_s)
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
}

void river_water_update(river_water *rw, const dinghy_sim *sim, double focus_s)
{
    sample(rw, sim, focus_s);
    size_t bytes = sizeof(float) * FLOATS * (size_t)rw->rows * COLS;
    gpu_mesh_stream(&rw->gpu, rw->staging, bytes, bytes);
}

void river_water_draw(river_water *rw, const float view_proj[16], const float eye[3], float reach,
                      double time_s, const wave_texture *waves)
{
    glUseProgram(rw->gpu.program);
    glUniform1f(rw->u_time, (float)fmod(time_s, 3000.0));
    glUniform1f(rw->u_speed, (float)rw->c->speed);
    wave_texture_use(waves, &rw->u_waves, 1);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, rw->noise);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); /* keep alpha 1 */
    glDepthMask(GL_FALSE);
    /* the rows far off at coarse detail: a row is a pixel or less there */
    mesh_chunks_draw(&rw->chunks, &rw->gpu, view_proj, eye, 0.0f, COARSE_BEYOND, 0);
    mesh_chunks_draw(&rw->chunks, &rw->gpu, view_proj, eye, COARSE_BEYOND, reach, 1);
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
    mesh_chunks_free(&rw->chunks);
    if (rw->noise)
        glDeleteTextures(1, &rw->noise);
    free(rw->row_s);
    free(rw->ground);
    free(rw->white_fixed);
    free(rw->staging);
    free(rw);
}
