/* River ground: a band along the course plus the land round it. */
#include "render/terrain.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/ground_look.h"
#include "render/gpu_mesh.h"

#define FLOATS GROUND_SOURCE_FLOATS /* position, normal, water level */
#define FAR_FINE 3.0      /* far-land grid spacing over the course, m */
#define FAR_MAX_CELL 12.0 /* largest far-land cell, m */
#define FAR_REACH 700.0   /* far land reaches this far past the course, m */
#define FAR_AXIS 400      /* most grid lines along one axis */
#define ROW_STEP 1.0      /* m between the band's rows along the course */
#define SUNK 4.0          /* land this far inside the band lies under it, m */
#define BAND_CHUNK 8      /* rows of the band a chunk (mesh_chunks.h), even */
#define FAR_CHUNK 12      /* cells of the land each way a chunk */

struct terrain {
    ground_look look;
};

int course_rows(const course_map *m, double fine, double *rows, int max)
{
    int k = 0;
#define PUT(v) do { if (rows && k < max) rows[k] = (v); k++; } while (0)
    /* distances of the continuation rows past an end, growing apart */
    double far[256], step = fine, d = 0.0;
    int nf = 0;
    while (d < COURSE_MAP_EXTENSION && nf < 256) {
        step = fmin(step * 1.18, 12.0);
        d += step;
        far[nf++] = d;
    }
    for (int i = nf - 1; i >= 0; i--)
        PUT(m->s_lo - far[i]);
    int n = (int)ceil((m->s_hi - m->s_lo) / fine);
    for (int i = 0; i <= n; i++)
        PUT(i == n ? m->s_hi : m->s_lo + i * fine);
    for (int i = 0; i < nf; i++)
        PUT(m->s_hi + far[i]);
#undef PUT
    return k;
}

/* Offsets across the band, one side: fine over the channel and banks,
 * coarser on the flat margin. */
static int band_offsets(const course_map *m, double *out, int max)
{
    double wmax = 0.0;
    for (int i = 0; i < m->c->count; i++)
        wmax = fmax(wmax, m->c->width[i]);
    double fine_to = 0.5 * wmax + 2.0 * m->c->bank_height + 1.0, n = 0.0;
    int k = 0;
    while (n < m->band - 0.2 && k < max - 1) {
        out[k++] = n;
        n += n < fine_to ? 0.5 : fmin(2.0, 0.5 + 0.4 * (n - fine_to));
    }
    out[k++] = m->band;
    return k;
}

/* Half-width of the drawn band at s: the world's band over the course,
 * widening along the straight continuations so the coarser land far out
 * never reaches over the channel. */
static double band_at(const course_map *m, double s)
{
    double out = s < m->s_lo ? m->s_lo - s : s > m->s_hi ? s - m->s_hi : 0.0;
    return m->band + 0.1 * out;
}

/* Grid lines of the land along one axis: every FAR_FINE m over [lo, hi],
 * then cells growing to FAR_MAX_CELL out to FAR_REACH beyond. */
static int far_axis(double lo, double hi, double *out)
{
    double side[FAR_AXIS / 2];
    int ns = 0;
    double step = FAR_FINE, d = 0.0;
    while (d < FAR_REACH && ns < FAR_AXIS / 4) {
        step = fmin(step * 1.15, FAR_MAX_CELL);
        d += step;
        side[ns++] = d;
    }
    int n = 0, fine = (int)ceil((hi - lo) / FAR_FINE);
    if (fine > FAR_AXIS / 2)
        fine = FAR_AXIS / 2;
    for (int i = ns - 1; i >= 0; i--)
        out[n++] = lo - side[i];
    for (int i = 0; i <= fine; i++)
        out[n++] = lo + (hi - lo) * i / fine;
    for (int i = 0; i < ns; i++)
        out[n++] = hi + side[i];
    return n;
}

static float smooth01(float t)
{
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

/* Distance (m) from (x, y) to the polyline of `count` points, the arc
 * length of its nearest point, and a water level blended over the nearby
 * points (a soft minimum of distance) so the land has no step where the
 * nearest point jumps from one reach of the course to another; the band's
 * half-width blended the same way. */
static double polyline_distance(const double *xy, const double *s, const double *e,
                                const double *b, int count, double x, double y, double *s_near,
                                double *level, double *band)
{
    double best = 1e300;
    *s_near = s[0];
    for (int i = 0; i + 1 < count; i++) {
        double ax = xy[2 * i], ay = xy[2 * i + 1];
        double bx = xy[2 * i + 2] - ax, by = xy[2 * i + 3] - ay;
        double px = x - ax, py = y - ay;
        double len2 = bx * bx + by * by;
        double f = len2 > 0.0 ? (px * bx + py * by) / len2 : 0.0;
        f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
        double dx = px - f * bx, dy = py - f * by, d2 = dx * dx + dy * dy;
        if (d2 < best) {
            best = d2;
            *s_near = s[i] + f * (s[i + 1] - s[i]);
        }
    }
    double d = sqrt(best), sw = 0.0, se = 0.0, sb = 0.0;
    for (int i = 0; i < count; i++) {
        double dx = x - xy[2 * i], dy = y - xy[2 * i + 1], di = sqrt(dx * dx + dy * dy) - d;
        if (di > 40.0)
            continue;
        double wgt = exp(-di / 4.0);
        sw += wgt;
        se += wgt * e[i];
        sb += wgt * b[i];
    }
    *level = sw > 0.0 ? se / sw : e[0];
    *band = sw > 0.0 ? sb / sw : b[0];
    return d;
}

static void put(float *v, double x, double y, double z, const double nrm[3], double level)
{
    v[0] = (float)x;
    v[1] = (float)y;
    v[2] = (float)z;
    v[3] = (float)nrm[0];
    v[4] = (float)nrm[1];
    v[5] = (float)nrm[2];
    v[6] = (float)level;
}

terrain *terrain_create(const course_map *m, char *err, size_t err_len)
{
    terrain *t = calloc(1, sizeof *t);
    int ok = 0;
    double offs[256];
    int half = band_offsets(m, offs, 256);
    int cols = 2 * half - 1;
    int rows = course_rows(m, ROW_STEP, NULL, 0);
    double *row_s = malloc(sizeof *row_s * (size_t)rows);
    double *line = malloc(sizeof *line * 2 * (size_t)rows), *line_s = malloc(sizeof *line_s * (size_t)rows);
    double *line_e = malloc(sizeof *line_e * (size_t)rows), *line_b = malloc(sizeof *line_b * (size_t)rows);
    double *ax = malloc(sizeof *ax * FAR_AXIS), *ay = malloc(sizeof *ay * FAR_AXIS);
    size_t band_v = (size_t)rows * (size_t)cols, far_v = (size_t)FAR_AXIS * FAR_AXIS;
    float *verts = malloc(sizeof *verts * FLOATS * (band_v + far_v));
    /* the band at full and coarse detail, then the land */
    uint32_t *idx = malloc(sizeof *idx * 6 * (2 * band_v + far_v));
    unsigned char *sunk = malloc(far_v);
    if (!t || !row_s || !line || !line_s || !line_e || !line_b || !ax || !ay || !verts || !idx || !sunk) {
        snprintf(err, err_len, "out of memory for the river's ground");
        goto fail;
    }
    if (!ground_look_create(&t->look, GROUND_RIVER, "river ground", err, err_len))
        goto fail;
    course_rows(m, ROW_STEP, row_s, rows);

    /* The band: ground heights from the world; past the ends the end's
     * cross-section carried straight on, the band widening; flat bank top
     * beyond the world's band. */
    double bank = m->c->bank_height, fine_to = offs[half - 1];
    for (int j = 0; j < half; j++)
        if (offs[j] > 0.5 * m->c->width[0] + 2.0 * bank + 1.0) {
            fine_to = offs[j];
            break;
        }
    int nline = 0;
    double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
    for (int i = 0; i < rows; i++) {
        double s = row_s[i], sc = course_map_clamp(m, s), level = course_map_level(m, sc);
        double grow = (band_at(m, s) - fine_to) / (m->band - fine_to);
        for (int j = 0; j < cols; j++) {
            double o = j < half ? offs[half - 1 - j] : offs[j - half + 1], sg = j < half ? -1.0 : 1.0;
            double n = o <= fine_to ? o : fine_to + (o - fine_to) * grow;
            double xy[2], at[2], g[2];
            course_map_point(m, s, sg * n, xy);
            course_map_point(m, sc, sg * (n < m->band ? n : m->band), at);
            double z = river_ground(m->w, at[0], at[1], g);
            if (n >= m->band)
                g[0] = g[1] = 0.0;
            double nl = 1.0 / sqrt(1.0 + g[0] * g[0] + g[1] * g[1]);
            double nrm[3] = {-g[0] * nl, -g[1] * nl, nl};
            put(verts + FLOATS * ((size_t)i * cols + j), xy[0], xy[1], z, nrm, level);
        }
        double c[2];
        course_map_point(m, s, 0.0, c);
        /* the centre line for the land's distances: every 2 m is plenty */
        if (i == 0 || i == rows - 1 || s < m->s_lo || s > m->s_hi || (i % 2) == 0) {
            line[2 * nline] = c[0];
            line[2 * nline + 1] = c[1];
            line_e[nline] = level;
            line_b[nline] = band_at(m, s);
            line_s[nline++] = s;
        }
        if (s >= m->s_lo && s <= m->s_hi)
            for (int k = 0; k < 2; k++) {
                lo[k] = fmin(lo[k], c[k] - m->band - 4.0);
                hi[k] = fmax(hi[k], c[k] + m->band + 4.0);
            }
    }

    /* The land round it: a grid, fine over the course, coarser far out.
     * Inside the band it keeps under the band's ground (the flat bank top
     * near the band's edge, deep under the channel), so the band shows
     * there and no gap opens between the two. */
    int nx = far_axis(lo[0], hi[0], ax), ny = far_axis(lo[1], hi[1], ay);
    float *fv = verts + FLOATS * band_v;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double x = ax[i], y = ay[j], soft, edge, sn;
            double d = polyline_distance(line, line_s, line_e, line_b, nline, x, y, &sn, &soft, &edge);
            float out = (float)(d - edge);
            /* the level of the nearest point where the band meets the land,
             * blended farther out */
            double level = course_map_level(m, course_map_clamp(m, sn));
            level += (soft - level) * smooth01(out / 10.0f);
            float ramp = 1.0f - expf(-(out > 0.0f ? out : 0.0f) / 45.0f);
            float land = (float)(level + bank) - 0.05f * (1.0f - smooth01(out + 1.0f)) +
                         0.25f * sinf(0.4f * (float)x) * sinf(0.35f * (float)y) * smooth01(out / 6.0f) +
                         ramp * (3.0f + 2.5f * sinf(0.021f * (float)x + 1.0f) * cosf(0.017f * (float)y));
            sunk[(size_t)j * nx + i] = d < edge - SUNK;
            if (d < edge - SUNK)
                land = (float)(level - 3.0 * m->c->depth[0] - 4.0);
            double up[3] = {0.0, 0.0, 1.0};
            put(fv + FLOATS * ((size_t)j * nx + i), x, y, land, up, level);
        }
    for (int j = 0; j < ny; j++) /* normals from the grid's neighbours */
        for (int i = 0; i < nx; i++) {
            int i0 = i > 0 ? i - 1 : i, i1 = i + 1 < nx ? i + 1 : i;
            int j0 = j > 0 ? j - 1 : j, j1 = j + 1 < ny ? j + 1 : j;
            /* the land's own slope: sunk neighbours left out */
            size_t here = (size_t)j * nx + i;
            if (!sunk[here]) {
                i0 = sunk[(size_t)j * nx + i0] ? i : i0;
                i1 = sunk[(size_t)j * nx + i1] ? i : i1;
                j0 = sunk[(size_t)j0 * nx + i] ? j : j0;
                j1 = sunk[(size_t)j1 * nx + i] ? j : j1;
            }
            if (i0 == i1 || j0 == j1) {
                float *v = fv + FLOATS * here;
                v[3] = v[4] = 0.0f;
                v[5] = 1.0f;
                continue;
            }
            const float *a = fv + FLOATS * ((size_t)j * nx + i0), *b = fv + FLOATS * ((size_t)j * nx + i1);
            const float *c = fv + FLOATS * ((size_t)j0 * nx + i), *d = fv + FLOATS * ((size_t)j1 * nx + i);
            double gx = (b[2] - a[2]) / (b[0] - a[0]), gy = (d[2] - c[2]) / (d[1] - c[1]);
            double nl = 1.0 / sqrt(1.0 + gx * gx + gy * gy);
            float *v = fv + FLOATS * ((size_t)j * nx + i);
            v[3] = (float)(-gx * nl);
            v[4] = (float)(-gy * nl);
            v[5] = (float)nl;
        }

    /* in chunks: BAND_CHUNK rows of the band, FAR_CHUNK x FAR_CHUNK cells of the land */
    size_t k = 0;
    int chunked = mesh_chunks_grid(&t->look.chunks, idx, &k, verts, FLOATS, rows, cols, BAND_CHUNK);
    size_t first = k;
    uint32_t o = (uint32_t)band_v;
    for (uint32_t tj = 0; tj + 1 < (uint32_t)ny; tj += FAR_CHUNK)
        for (uint32_t ti = 0; ti + 1 < (uint32_t)nx; ti += FAR_CHUNK) {
            for (uint32_t j = tj; j + 1 < (uint32_t)ny && j < tj + FAR_CHUNK; j++)
                for (uint32_t i = ti; i + 1 < (uint32_t)nx && i < ti + FAR_CHUNK; i++) {
                    uint32_t a = o + j * (uint32_t)nx + i, b = a + 1, c = a + (uint32_t)nx, d = c + 1;
                    /* wholly under the band: hidden, not drawn */
                    if (sunk[a - o] && sunk[b - o] && sunk[c - o] && sunk[d - o])
                        continue;
                    idx[k++] = a; idx[k++] = b; idx[k++] = d;
                    idx[k++] = a; idx[k++] = d; idx[k++] = c;
                }
            chunked |= mesh_chunks_add(&t->look.chunks, idx, first, k, verts, FLOATS);
            first = k;
        }
    size_t used_v = band_v + (size_t)nx * (size_t)ny;
    float *look = malloc(sizeof *look * GROUND_LOOK_FLOATS * used_v);
    if (!look || chunked) {
        snprintf(err, err_len, "out of memory for the river's ground");
        goto fail;
    }
    ground_look_bake(verts, used_v, look);
    gpu_mesh_create(&t->look.near, look, sizeof *look * GROUND_LOOK_FLOATS * used_v, 0, idx, k);
    ground_look_layout();
    glBindVertexArray(0);
    free(look);
    ok = 1;
fail: /* the working arrays go either way; the terrain only on failure */
    free(row_s);
    free(line);
    free(line_s);
    free(line_e);
    free(line_b);
    free(ax);
    free(ay);
    free(verts);
    free(idx);
    free(sunk);
    if (ok)
        return t;
    terrain_destroy(t);
    return NULL;
}

void terrain_draw(terrain *t, const float view_proj[16], const float eye[3], float reach)
{
    ground_look_draw(&t->look, view_proj, eye, reach);
}

void terrain_destroy(terrain *t)
{
    if (!t)
        return;
    ground_look_destroy(&t->look);
    free(t);
}
