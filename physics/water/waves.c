/* The wave layer's life and the ways in and out: making it, adding
 * water, and reading it (waves_sample, the grid, volume, energy). The
 * grid is waves_grid.c's, the step waves_step.c's. */
#include "physics/water/waves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/water/waves_internal.h"

waves_field *waves_create(const waves_def *def, const river_world *river, char *err,
                          size_t err_len)
{
    return waves_create_like(def, river, NULL, err, err_len);
}

waves_field *waves_create_like(const waves_def *def, const river_world *river,
                               const waves_field *like, char *err, size_t err_len)
{
    dinghy_problem p;
    if (waves_def_check(def, &p, 1) > 0) {
        snprintf(err, err_len, "%s", p.reason);
        return NULL;
    }
    waves_field *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_len, "out of memory for the wave layer");
        return NULL;
    }
    if (waves_grid_build(w, def, river, like ? &like->kernel : NULL, err, err_len) != 0) {
        waves_destroy(w);
        return NULL;
    }
    if (waves_step_prepare(w) != 0) { /* (the step then never stands still for want of it) */
        snprintf(err, err_len, "out of memory for the wave layer's step");
        waves_destroy(w);
        return NULL;
    }
    return w;
}

void waves_destroy(waves_field *w)
{
    if (!w)
        return;
    waves_grid_free(w);
    waves_step_free(w);
    free(w);
}

void waves_reset(waves_field *w)
{
    const size_t n = w->stride * (size_t)(w->ny + 2 * w->pad);
    memset(w->h, 0, n * sizeof(float));
    memset(w->phi, 0, n * sizeof(float));
    memset(w->row_sum, 0, (size_t)w->ny * sizeof(double));
}

void waves_set_damping(waves_field *w, double damping) { w->def.damping = damping; }

float *waves_heights(waves_field *w, size_t *count)
{
    *count = w->stride * (size_t)(w->ny + 2 * w->pad);
    return w->h;
}

size_t waves_state_bytes(const waves_field *w)
{
    size_t cells;
    waves_heights((waves_field *)w, &cells);
    return 2 * cells * sizeof(float) + (size_t)w->ny * sizeof(double);
}

void waves_state_save(const waves_field *w, unsigned char *out)
{
    size_t cells;
    waves_heights((waves_field *)w, &cells);
    memcpy(out, w->h, cells * sizeof(float));
    memcpy(out + cells * sizeof(float), w->phi, cells * sizeof(float));
    memcpy(out + 2 * cells * sizeof(float), w->row_sum, (size_t)w->ny * sizeof(double));
}

void waves_state_load(waves_field *w, const unsigned char *in)
{
    size_t cells;
    waves_heights(w, &cells);
    memcpy(w->h, in, cells * sizeof(float));
    memcpy(w->phi, in + cells * sizeof(float), cells * sizeof(float));
    memcpy(w->row_sum, in + 2 * cells * sizeof(float), (size_t)w->ny * sizeof(double));
}

/* Cell coordinates of (x, y): cell (i, j)'s centre is at (i, j). */
static void cell_of(const waves_field *w, double x, double y, double *fx, double *fy)
{
    *fx = (x - w->x0) / w->cell - 0.5;
    *fy = (y - w->y0) / w->cell - 0.5;
}

/* Spreads volume over the four cells round (fx, fy), bilinearly, those
 * that are wet; returns the volume added. */
static double add_bilinear(waves_field *w, double fx, double fy, double volume)
{
    const int i0 = (int)floor(fx), j0 = (int)floor(fy);
    const double tx = fx - i0, ty = fy - j0;
    double weight[4], total = 0.0;
    int cells[4][2];
    for (int k = 0; k < 4; k++) {
        const int i = i0 + (k & 1), j = j0 + (k >> 1);
        cells[k][0] = i;
        cells[k][1] = j;
        const int in = i >= 0 && i < w->nx && j >= 0 && j < w->ny;
        weight[k] = in && w->s[waves_index(w, i, j)] > 0.0f
                        ? ((k & 1) ? tx : 1.0 - tx) * ((k >> 1) ? ty : 1.0 - ty) : 0.0;
        total += weight[k];
    }
    if (!(total > 0.0))
        return 0.0;
    const double per_area = volume / (total * w->cell * w->cell);
    for (int k = 0; k < 4; k++)
        if (weight[k] > 0.0)
            w->h[waves_index(w, cells[k][0], cells[k][1])] += (float)(weight[k] * per_area);
    return volume;
}

/* Footprints of at most this many cells in their bounding box are
 * weighed once into a footprint (below); larger ones twice, a cell at a
 * time. */
#define KEPT_CELLS 256
#define KEPT_ROW 64

/* A row of a footprint all of whose cells are wet, as s would say: read
 * instead of s (a constant, not a filled array: a vector read of what
 * was just stored a float at a time waits for the stores). */
#define ONES8 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f
static const float all_wet_row[KEPT_ROW] = {ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8};

/* A footprint's cells [i0, i1] x [j0, j1] (on the grid) and their weights
 * (1 - r^2/radius^2)^2, 0 on dry cells and past the radius, row-major, in
 * floats (the shape of a spread needs no more; its total, which sets the
 * volume, is kept in double: eight float lanes of a few weights each,
 * summed in double). */
typedef struct {
    int i0, i1, j0, j1;
    int width;                 /* weights a row: i1 - i0 + 1 up to a multiple of 8 (the
                                  cells past i1 weigh 0; they lie in the padded row) */
    double total;              /* the sum of the weights */
    float weight[KEPT_CELLS];
} footprint;

/* The cells within r cells of (fx, fy) clipped to the grid; 1 when they
 * are KEPT_CELLS or fewer (then their weights are in fp), else 0. The
 * squared distance over r^2 is a column's term plus a row's, each worked
 * out once, and each row's weights come in one loop without branches
 * (it vectorises, 8 floats at a time): no division or root per cell. */
static int weigh(const waves_field *w, double fx, double fy, double r, footprint *fp)
{
    int i0 = (int)ceil(fx - r), i1 = (int)floor(fx + r);
    int j0 = (int)ceil(fy - r), j1 = (int)floor(fy + r);
    fp->i0 = i0 < 0 ? 0 : i0, fp->j0 = j0 < 0 ? 0 : j0;
    fp->i1 = i1 >= w->nx ? w->nx - 1 : i1, fp->j1 = j1 >= w->ny ? w->ny - 1 : j1;
    fp->total = 0.0;
    const int width = fp->i1 - fp->i0 + 1;
    if (width <= 0 || fp->j1 < fp->j0) { /* off the grid: no cells */
        fp->width = 0;
        fp->j1 = fp->j0 - 1;
        return 1;
    }
    fp->width = (width + 7) & ~7;
    if (fp->width > KEPT_ROW || (long)fp->width * (fp->j1 - fp->j0 + 1) > KEPT_CELLS)
        return 0;
    /* every cell wet (the tiles say so): no need to read s */
    int wet = 1;
    for (int b = fp->j0 / WAVES_TILE; b <= fp->j1 / WAVES_TILE; b++)
        for (int a = fp->i0 / WAVES_TILE; a <= fp->i1 / WAVES_TILE; a++)
            wet &= w->all_wet[b * w->tiles_x + a];
    const double inv = 1.0 / (r * r);
    float column[KEPT_ROW];
    for (int k = 0; k < fp->width; k++) /* past the box: 2, no weight */
        column[k] = k < width ? (float)((fp->i0 + k - fx) * (fp->i0 + k - fx) * inv) : 2.0f;
    float *restrict out = fp->weight, lane[8] = {0.0f};
    for (int j = fp->j0; j <= fp->j1; j++) {
        const float row = (float)((j - fy) * (j - fy) * inv);
        const float *restrict s = wet ? all_wet_row : w->s + waves_index(w, fp->i0, j);
        for (int k = 0; k < fp->width; k += 8, out += 8)
            for (int l = 0; l < 8; l++) { /* a vector of 8, no branch */
                const float a = 1.0f - (column[k + l] + row), c = a > 0.0f ? a : 0.0f;
                out[l] = s[k + l] != 0.0f ? c * c : 0.0f;
                lane[l] += out[l]; /* eight lanes: a fixed order */
            }
    }
    double total[8];
    for (int l = 0; l < 8; l++)
        total[l] = lane[l];
    fp->total = ((total[0] + total[1]) + (total[2] + total[3]))
              + ((total[4] + total[5]) + (total[6] + total[7]));
    return 1;
}

/* waves_add_volume over a footprint of more than KEPT_CELLS: weighed
 * twice, a cell at a time. */
static double add_wide(waves_field *w, const footprint *fp, double fx, double fy, double r,
                       double volume)
{
    double total = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        const double per_area = pass ? volume / (total * w->cell * w->cell) : 0.0;
        for (int j = fp->j0; j <= fp->j1; j++)
            for (int i = fp->i0; i <= fp->i1; i++) {
                const size_t q = waves_index(w, i, j);
                const double d2 = ((i - fx) * (i - fx) + (j - fy) * (j - fy)) / (r * r);
                const double weight = d2 < 1.0 && w->s[q] != 0.0f ? (1.0 - d2) * (1.0 - d2) : 0.0;
                if (pass && weight > 0.0)
                    w->h[q] += (float)(weight * per_area);
                total += pass ? 0.0 : weight;
            }
        if (!(total > 0.0))
            return add_bilinear(w, fx, fy, volume);
    }
    return volume;
}

double waves_add_volume_kept(waves_field *w, double x, double y, double radius, double volume,
                             waves_print *kept)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    const double r = radius / w->cell; /* cells */
    if (kept)
        kept->rows = 0;
    if (!(r >= 1.0))
        return add_bilinear(w, fx, fy, volume);
    footprint fp;
    if (!weigh(w, fx, fy, r, &fp))
        return add_wide(w, &fp, fx, fy, r, volume);
    if (!(fp.total > 0.0))
        return add_bilinear(w, fx, fy, volume);
    const double per_area = volume / (fp.total * w->cell * w->cell);
    const int width = fp.width, rows = fp.j1 - fp.j0 + 1;
    const float *weight = fp.weight;
    for (int j = fp.j0; j <= fp.j1; j++) {
        float *restrict h = w->h + waves_index(w, fp.i0, j);
        for (int k = 0; k < width; k += 8, weight += 8)
            for (int l = 0; l < 8; l++)
                h[k + l] = weight[l] > 0.0f ? h[k + l] + (float)(weight[l] * per_area) : h[k + l];
    }
    if (kept && width * rows <= WAVES_PRINT_CELLS) {
        *kept = (waves_print){.i0 = fp.i0, .j0 = fp.j0, .width = width, .rows = rows,
                              .total = fp.total};
        memcpy(kept->weight, fp.weight, (size_t)(width * rows) * sizeof(float));
    }
    return volume;
}

double waves_add_volume(waves_field *w, double x, double y, double radius, double volume)
{
    return waves_add_volume_kept(w, x, y, radius, volume, NULL);
}

void waves_prefetch(const waves_field *w, double x, double y, double radius)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    const double r = radius / w->cell;
    const int i0 = (int)fmax(fx - r, 0.0), i1 = (int)fmin(fx + r, w->nx - 1.0);
    const int j0 = (int)fmax(fy - r, 0.0), j1 = (int)fmin(fy + r, w->ny - 1.0);
    const float *a[4] = {w->h, w->s, w->u, w->v};
    enum { LINE = 16 }; /* floats a 64-byte line */
    for (int j = j0; j <= j1; j++)
        for (int k = 0; k < (w->u ? 4 : 2); k++)
            for (int i = i0; i <= i1 + LINE - 1; i += LINE)
                __builtin_prefetch(a[k] + waves_index(w, i < i1 ? i : i1, j), 0, 2);
}

/* The bilinear value of the padded array a at (x, y), 0 off the grid. */
static double bilinear(const waves_field *w, const float *a, double x, double y)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    if (!(fx > -1.0 && fy > -1.0 && fx < w->nx && fy < w->ny))
        return 0.0;
    const int i0 = (int)floor(fx), j0 = (int)floor(fy);
    const double tx = fx - i0, ty = fy - j0;
    double v = 0.0;
    for (int k = 0; k < 4; k++) {
        const int i = i0 + (k & 1), j = j0 + (k >> 1);
        if (i >= 0 && i < w->nx && j >= 0 && j < w->ny)
            v += ((k & 1) ? tx : 1.0 - tx) * ((k >> 1) ? ty : 1.0 - ty) * a[waves_index(w, i, j)];
    }
    return v;
}

double waves_height(const waves_field *w, double x, double y) { return bilinear(w, w->h, x, y); }

/* The sum of h by a footprint's weights (rows of `width` from cell (i0,
 * j0)), in eight lanes: a fixed order. */
static double weighted_sum(const waves_field *w, const float *weight, int i0, int j0, int width,
                           int rows)
{
    float lane[8] = {0.0f};
    for (int j = j0; j < j0 + rows; j++) {
        const float *restrict h = w->h + waves_index(w, i0, j);
        for (int k = 0; k < width; k += 8, weight += 8)
            for (int l = 0; l < 8; l++)
                lane[l] += weight[l] * h[k + l];
    }
    return (((double)lane[0] + lane[1]) + ((double)lane[2] + lane[3]))
         + (((double)lane[4] + lane[5]) + ((double)lane[6] + lane[7]));
}

double waves_print_mean(const waves_field *w, const waves_print *kept)
{
    return weighted_sum(w, kept->weight, kept->i0, kept->j0, kept->width, kept->rows) / kept->total;
}

double waves_mean_height(const waves_field *w, double x, double y, double radius)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    const double r = radius / w->cell; /* cells */
    double sum = 0.0, total = 0.0;
    footprint fp;
    if (r >= 1.0 && weigh(w, fx, fy, r, &fp)) {
        sum = weighted_sum(w, fp.weight, fp.i0, fp.j0, fp.width, fp.j1 - fp.j0 + 1);
        total = fp.total;
    } else if (r >= 1.0) {
        for (int j = fp.j0; j <= fp.j1; j++)
            for (int i = fp.i0; i <= fp.i1; i++) {
                const size_t q = waves_index(w, i, j);
                const double d2 = ((i - fx) * (i - fx) + (j - fy) * (j - fy)) / (r * r);
                if (!(d2 < 1.0) || w->s[q] == 0.0f)
                    continue;
                const double weight = (1.0 - d2) * (1.0 - d2);
                sum += weight * w->h[q];
                total += weight;
            }
    }
    if (total > 0.0)
        return sum / total;
    const int i0 = (int)floor(fx), j0 = (int)floor(fy); /* the bilinear four, wet ones */
    const double tx = fx - i0, ty = fy - j0;
    for (int k = 0; k < 4; k++) {
        const int i = i0 + (k & 1), j = j0 + (k >> 1);
        if (i < 0 || i >= w->nx || j < 0 || j >= w->ny || w->s[waves_index(w, i, j)] == 0.0f)
            continue;
        const double weight = ((k & 1) ? tx : 1.0 - tx) * ((k >> 1) ? ty : 1.0 - ty);
        sum += weight * w->h[waves_index(w, i, j)];
        total += weight;
    }
    return total > 0.0 ? sum / total : 0.0;
}

void waves_carry(const waves_field *w, double dt, double *x, double *y)
{
    const double scale = waves_flow_scale(w);
    if (!w->u || !(scale > 0.0))
        return;
    /* bilinear() of u and of v, the cells and weights found once */
    double fx, fy, u = 0.0, v = 0.0;
    cell_of(w, *x, *y, &fx, &fy);
    if (fx > -1.0 && fy > -1.0 && fx < w->nx && fy < w->ny) {
        const int i0 = (int)floor(fx), j0 = (int)floor(fy);
        const double tx = fx - i0, ty = fy - j0;
        for (int k = 0; k < 4; k++) {
            const int i = i0 + (k & 1), j = j0 + (k >> 1);
            if (i < 0 || i >= w->nx || j < 0 || j >= w->ny)
                continue;
            const double wk = ((k & 1) ? tx : 1.0 - tx) * ((k >> 1) ? ty : 1.0 - ty);
            const size_t q = waves_index(w, i, j);
            u += wk * w->u[q];
            v += wk * w->v[q];
        }
    }
    *x += scale * u * dt;
    *y += scale * v * dt;
}

/* The array a's value and slope (per cell) at cell (i, j): its own value
 * and central differences, 0 off the grid. */
static void value_slope(const waves_field *w, const float *a, int i, int j, double out[3])
{
    if (i < 0 || i >= w->nx || j < 0 || j >= w->ny) {
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
    const size_t q = waves_index(w, i, j);
    out[0] = a[q];
    out[1] = 0.5 * ((double)a[q + 1] - a[q - 1]);
    out[2] = 0.5 * ((double)a[q + w->stride] - a[q - w->stride]);
}

void waves_sample(const waves_field *w, double x, double y, waves_point *out)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    memset(out, 0, sizeof *out);
    if (!(fx > -1.0 && fy > -1.0 && fx < w->nx && fy < w->ny))
        return;
    const int i0 = (int)floor(fx), j0 = (int)floor(fy);
    const double tx = fx - i0, ty = fy - j0;
    double h[3] = {0.0, 0.0, 0.0}, p[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 4; k++) {
        const double wk = ((k & 1) ? tx : 1.0 - tx) * ((k >> 1) ? ty : 1.0 - ty);
        double hv[3], pv[3];
        value_slope(w, w->h, i0 + (k & 1), j0 + (k >> 1), hv);
        value_slope(w, w->phi, i0 + (k & 1), j0 + (k >> 1), pv);
        for (int c = 0; c < 3; c++) {
            h[c] += wk * hv[c];
            p[c] += wk * pv[c];
        }
    }
    out->height = h[0];
    out->slope[0] = h[1] / w->cell;
    out->slope[1] = h[2] / w->cell;
    out->velocity[0] = p[1] / w->cell;
    out->velocity[1] = p[2] / w->cell;
}

waves_grid waves_grid_view(const waves_field *w)
{
    return (waves_grid){.nx = w->nx, .ny = w->ny, .x0 = w->x0, .y0 = w->y0, .cell = w->cell,
                        .stride = w->stride, .height = w->h + waves_index(w, 0, 0)};
}

double waves_volume(const waves_field *w)
{
    double v = 0.0;
    for (int j = 0; j < w->ny; j++) {
        double row = 0.0;
        for (int i = w->lo[j]; i < w->hi[j]; i++)
            row += w->h[waves_index(w, i, j)];
        v += row;
    }
    return v * w->cell * w->cell;
}

double waves_energy(const waves_field *w, double gravity)
{
    /* potential g/2 h^2; kinetic 1/2 phi K phi = 1/2 sum over pairs W s_i s_j
     * (phi_i - phi_j)^2, each pair once (half of the sum over i and o) */
    double potential = 0.0, kinetic = 0.0;
    const waves_taps *t = &w->taps;
    for (int j = 0; j < w->ny; j++)
        for (int i = w->lo[j]; i < w->hi[j]; i++) {
            const size_t q = waves_index(w, i, j);
            potential += (double)w->h[q] * w->h[q];
            if (w->s[q] == 0.0f)
                continue;
            for (int c = 0; c < t->classes; c++)
                for (int o = t->first[c]; o < t->first[c + 1]; o++) {
                    const size_t r = (size_t)((ptrdiff_t)q + t->off[o]);
                    const double d = (double)w->phi[q] - w->phi[r];
                    kinetic += 0.25 * t->weight[c] * (double)w->s[q] * w->s[r] * d * d;
                }
        }
    return (0.5 * gravity * potential + kinetic) * w->cell * w->cell;
}

double waves_model_depth(const waves_field *w)
{
    return w->depth0;
}

double waves_model_error(const waves_field *w)
{
    return w->kernel.worst_error;
}

double waves_model_speed(const waves_field *w, double k, double angle, double gravity)
{
    return sqrt(gravity * waves_kernel_symbol(&w->kernel, k * cos(angle), k * sin(angle))) / k;
}
