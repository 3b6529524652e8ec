/* The wave layer's grid: where it lies, which cells are water and how deep,
 * the sponge along banks and open edges, the river's current, and the
 * kernel fitted to the depth (docs/physics.md section 14). Built once. */
#include "physics/water/waves_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Height of the river's mean surface (no standing waves, no chop) at arc
 * length s, m: the course's points, linearly between them, held past
 * either end. */
static double mean_surface(const river_course *c, double s)
{
    if (s <= c->s[0])
        return c->point[2];
    for (int k = 1; k < c->count; k++)
        if (s <= c->s[k]) {
            const double t = (s - c->s[k - 1]) / (c->s[k] - c->s[k - 1]);
            return c->point[3 * (k - 1) + 2] + t * (c->point[3 * k + 2] - c->point[3 * (k - 1) + 2]);
        }
    return c->point[3 * (c->count - 1) + 2];
}

/* Water-line width of the course at arc length s, m, the same way. */
static double course_width(const river_course *c, double s)
{
    if (s <= c->s[0])
        return c->width[0];
    for (int k = 1; k < c->count; k++)
        if (s <= c->s[k]) {
            const double t = (s - c->s[k - 1]) / (c->s[k] - c->s[k - 1]);
            return c->width[k - 1] + t * (c->width[k] - c->width[k - 1]);
        }
    return c->width[c->count - 1];
}

/* The rectangle the grid covers: still water's, or the river's course
 * from `sponge` before its start to `sponge` past its end with a cell to
 * spare beyond its widest water line. */
static void extent(const waves_def *d, const river_world *river, double lo[2], double hi[2])
{
    if (!river) {
        for (int k = 0; k < 2; k++) {
            lo[k] = d->centre[k] - d->half[k];
            hi[k] = d->centre[k] + d->half[k];
        }
        return;
    }
    const river_course *c = river_course_view(river);
    double wmax = 0.0;
    for (int k = 0; k < c->count; k++)
        wmax = fmax(wmax, c->width[k]);
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    const double reach = 0.5 * wmax + 2.0 * d->cell;
    for (double s = -d->sponge; s <= c->length + d->sponge + 0.25; s += 0.25)
        for (int side = -1; side <= 1; side += 2) {
            double xy[2];
            river_point(river, s, side * reach, xy);
            for (int k = 0; k < 2; k++) {
                lo[k] = fmin(lo[k], xy[k]);
                hi[k] = fmax(hi[k], xy[k]);
            }
        }
}

/* The water at the centre of cell (i, j): depth (m; 0 dry), the sponge's
 * rate (1/s) and the river's surface velocity (m/s). */
static void cell_water(const waves_field *w, int i, int j, double *depth, double *sponge,
                       double vel[2])
{
    const double x = w->x0 + (i + 0.5) * w->cell, y = w->y0 + (j + 0.5) * w->cell;
    const double L = w->def.sponge;
    double edge; /* distance to the nearest open edge or water line, m */
    vel[0] = vel[1] = 0.0;
    if (!w->river) {
        *depth = w->def.depth;
        edge = fmin(fmin(x - w->x0, w->x0 + w->nx * w->cell - x),
                    fmin(y - w->y0, w->y0 + w->ny * w->cell - y));
        if (w->def.closed)
            edge = INFINITY;
    } else {
        const river_course *c = river_course_view(w->river);
        double s, n;
        river_station(w->river, x, y, &s, &n);
        const double e = mean_surface(c, s);
        *depth = e - river_ground(w->river, x, y, NULL);
        if (s < -L || s > c->length + L || river_solid_distance(w->river, x, y, e, NULL) <= 0.0)
            *depth = 0.0;
        edge = fmin(0.5 * course_width(c, s) - fabs(n), fmin(s + L, c->length + L - s));
        if (*depth >= WAVES_DRY_DEPTH) {
            dinghy_water_point wp;
            river_sample(w->river, x, y, e + 1.0, 0.0, &wp); /* above: the surface's */
            vel[0] = wp.velocity[0];
            vel[1] = wp.velocity[1];
        }
    }
    if (!(*depth >= WAVES_DRY_DEPTH))
        *depth = 0.0;
    const double into = L > 0.0 ? 1.0 - fmax(edge, 0.0) / L : 0.0;
    *sponge = into > 0.0 ? WAVES_SPONGE_RATE * into * into : 0.0;
}

/* The kernel's non-zero classes as offsets in the padded arrays. */
static void taps(waves_field *w)
{
    const waves_kernel *k = &w->kernel;
    waves_taps *t = &w->taps;
    int n = 0;
    t->classes = 0;
    for (int c = 0; c < k->count; c++) {
        if (!(k->weight[c] > 0.0))
            continue;
        t->weight[t->classes] = (float)k->weight[c];
        t->first[t->classes] = n;
        /* the class's offsets: (+-a, +-b) and (+-b, +-a), each once */
        const int a = k->a[c], b = k->b[c];
        const int cand[8][2] = {{a, b}, {-a, b}, {a, -b}, {-a, -b},
                                {b, a}, {-b, a}, {b, -a}, {-b, -a}};
        for (int q = 0; q < 8; q++) {
            int seen = 0;
            for (int p = 0; p < q; p++)
                seen |= cand[p][0] == cand[q][0] && cand[p][1] == cand[q][1];
            if (!seen)
                t->off[n++] = (ptrdiff_t)cand[q][1] * (ptrdiff_t)w->stride + cand[q][0];
        }
        t->classes++;
    }
    t->first[t->classes] = n;
    /* by rows: each class's offsets (a, b) and (b, a) with b >= 1, a >= 0
     * once; their weight times 2 onto the horizontal term of a */
    const int R = WAVES_KERNEL_RADIUS;
    double across[WAVES_KERNEL_RADIUS + 1] = {0.0};
    t->verticals = 0;
    for (int c = 0; c < k->count; c++) {
        if (!(k->weight[c] > 0.0))
            continue;
        const double wc = (float)k->weight[c]; /* the float weight the step uses */
        const int ab[2][2] = {{k->a[c], k->b[c]}, {k->b[c], k->a[c]}};
        for (int q = 0; q < (k->a[c] == k->b[c] ? 1 : 2); q++) {
            const int a = ab[q][0], b = ab[q][1];
            if (b == 0) {
                across[a] += wc;
                continue;
            }
            t->cols[t->verticals] = a;
            t->rows[t->verticals] = b;
            t->vw[t->verticals++] = (float)wc;
            across[a] += 2.0 * wc;
        }
    }
    t->horizontals = 0;
    for (int a = 1; a <= R; a++)
        if (across[a] > 0.0) {
            t->across[t->horizontals] = a;
            t->hw[t->horizontals++] = (float)across[a];
        }
}

static float *floats(size_t n)
{
    return calloc(n, sizeof(float));
}

/* Depth, sponge and flow of every cell, rows in parallel (each cell on
 * its own: the same bits on any thread count); returns the deepest. */
static double fill_cells(waves_field *w, float *depth)
{
    double deepest = 0.0;
#pragma omp parallel for schedule(dynamic, 4) reduction(max : deepest)
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++) {
            double d, sp, vel[2];
            cell_water(w, i, j, &d, &sp, vel);
            const size_t q = waves_index(w, i, j);
            depth[q] = (float)d;
            w->sponge[q] = (float)sp;
            if (w->u) {
                w->u[q] = (float)vel[0];
                w->v[q] = (float)vel[1];
            }
            deepest = fmax(deepest, d);
        }
    return deepest;
}

/* The fastest current over the cells, m/s. */
static double fastest(const waves_field *w)
{
    double m = 0.0;
    for (int j = 0; j < w->ny && w->u; j++)
        for (int i = 0; i < w->nx; i++) {
            const size_t q = waves_index(w, i, j);
            m = fmax(m, hypot(w->u[q], w->v[q]));
        }
    return m;
}

void waves_grid_sample_flow(waves_field *w)
{
    if (!w->river)
        return;
#pragma omp parallel for schedule(dynamic, 4)
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++) {
            double d, sp, vel[2];
            cell_water(w, i, j, &d, &sp, vel);
            const size_t q = waves_index(w, i, j);
            w->u[q] = (float)vel[0];
            w->v[q] = (float)vel[1];
        }
    w->flow_speed = river_course_view(w->river)->speed;
    w->flow_max = fastest(w);
}

/* s, the rows' spans and edge from the depths. */
static void fill_scale(waves_field *w, const float *depth)
{
    w->row_lo = w->ny;
    w->row_hi = 0;
    for (int j = 0; j < w->ny; j++) {
        w->lo[j] = w->nx;
        w->hi[j] = 0;
        for (int i = 0; i < w->nx; i++) {
            const size_t q = waves_index(w, i, j);
            const double d = fmin(depth[q], w->depth0);
            w->s[q] = d > 0.0 ? (float)sqrt(d / w->depth0) : 0.0f;
            w->wet += w->s[q] > 0.0f;
            if (w->s[q] > 0.0f) {
                w->lo[j] = i < w->lo[j] ? i : w->lo[j];
                w->hi[j] = i + 1;
            }
        }
        if (w->hi[j] > w->lo[j]) {
            w->row_lo = j < w->row_lo ? j : w->row_lo;
            w->row_hi = j + 1;
        } else
            w->lo[j] = w->hi[j] = 0;
    }
    for (int j = 0; j < w->ny; j++) /* a tile is all wet until a dry cell says not */
        for (int i = 0; i < w->nx; i++)
            if (w->s[waves_index(w, i, j)] == 0.0f)
                w->all_wet[(j / WAVES_TILE) * w->tiles_x + i / WAVES_TILE] = 0;
    const waves_taps *t = &w->taps;
    for (int j = 0; j < w->ny; j++)
        for (int i = w->lo[j]; i < w->hi[j]; i++) {
            const size_t q = waves_index(w, i, j);
            if (w->s[q] == 0.0f)
                continue;
            double diag = 0.0, edge = 0.0; /* sum of W_o s_{i+o}; of W_o (s_{i+o} - s_i) */
            for (int c = 0; c < t->classes; c++) {
                double sum = 0.0, diff = 0.0;
                for (int o = t->first[c]; o < t->first[c + 1]; o++) {
                    sum += w->s[(ptrdiff_t)q + t->off[o]];
                    diff += (double)w->s[(ptrdiff_t)q + t->off[o]] - w->s[q];
                }
                diag += (double)t->weight[c] * sum;
                edge += (double)t->weight[c] * diff;
            }
            w->edge[q] = (float)edge;
            w->lambda_max = fmax(w->lambda_max, 2.0 * (double)w->s[q] * diag);
        }
}

int waves_grid_build(waves_field *w, const waves_def *def, const river_world *river,
                     const waves_kernel *fitted, char *err, size_t err_len)
{
    w->def = *def;
    w->river = river;
    w->cell = def->cell;
    double lo[2], hi[2];
    extent(def, river, lo, hi);
    w->x0 = lo[0];
    w->y0 = lo[1];
    w->nx = (int)ceil((hi[0] - lo[0]) / w->cell - 1e-9);
    w->ny = (int)ceil((hi[1] - lo[1]) / w->cell - 1e-9);
    w->pad = waves_kernel_reach() + 2; /* + 2: the advection's reach past the last wet cell */
    if ((long)w->nx * w->ny > WAVES_MAX_CELLS || w->nx + 2 * w->pad > WAVES_MAX_ROW) {
        snprintf(err, err_len,
                 "the wave grid would be %d x %d cells of %g m, more than the %ld cells "
                 "(%d a row) it may have: take larger cells (waves.cell)",
                 w->nx, w->ny, w->cell, WAVES_MAX_CELLS, WAVES_MAX_ROW - 2 * w->pad);
        return -1;
    }
    /* + WAVES_ROW_SPARE: the step's loops run to a multiple of 8 cells */
    w->stride = (size_t)(w->nx + 2 * w->pad + WAVES_ROW_SPARE);
    const size_t n = w->stride * (size_t)(w->ny + 2 * w->pad);
    float *depth = floats(n);
    w->h = floats(n);
    w->phi = floats(n);
    w->s = floats(n);
    w->edge = floats(n);
    w->sponge = floats(n);
    w->sponge_keep = floats(n);
    if (river) {
        w->u = floats(n);
        w->v = floats(n);
    }
    w->row_sum = calloc((size_t)w->ny, sizeof(double));
    w->tiles_x = (w->nx + WAVES_TILE - 1) / WAVES_TILE;
    w->tiles_y = (w->ny + WAVES_TILE - 1) / WAVES_TILE;
    w->all_wet = malloc((size_t)w->tiles_x * (size_t)w->tiles_y);
    if (w->all_wet)
        memset(w->all_wet, 1, (size_t)w->tiles_x * (size_t)w->tiles_y);
    w->lo = calloc((size_t)w->ny, sizeof(int));
    w->hi = calloc((size_t)w->ny, sizeof(int));
    if (!depth || !w->h || !w->phi || !w->s || !w->edge
        || !w->sponge || !w->sponge_keep || (river && (!w->u || !w->v)) || !w->lo || !w->hi || !w->row_sum
        || !w->all_wet) {
        free(depth);
        snprintf(err, err_len, "out of memory for the wave grid (%d x %d cells)", w->nx, w->ny);
        return -1;
    }
    const double deepest = fill_cells(w, depth);
    w->flow_speed = river ? river_course_view(river)->speed : 0.0;
    w->flow_max = fastest(w);
    w->depth0 = fmin(deepest, WAVES_DEPTH_CELLS * w->cell);
    if (!(w->depth0 >= WAVES_DRY_DEPTH))
        w->depth0 = WAVES_DRY_DEPTH;
    if (fitted && fitted->depth == w->depth0 && fitted->cell == w->cell)
        w->kernel = *fitted;
    else
        waves_kernel_fit(w->depth0, w->cell, &w->kernel);
    taps(w);
    fill_scale(w, depth);
    free(depth);
    w->sponge_dt = -1.0;
    return 0;
}

void waves_grid_free(waves_field *w)
{
    free(w->h);
    free(w->phi);
    free(w->s);
    free(w->edge);
    free(w->sponge);
    free(w->sponge_keep);
    free(w->u);
    free(w->v);
    free(w->lo);
    free(w->hi);
    free(w->row_sum);
    free(w->all_wet);
}
