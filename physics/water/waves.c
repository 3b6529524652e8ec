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
    if (waves_grid_build(w, def, river, err, err_len) != 0) {
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
    free(w);
}

void waves_reset(waves_field *w)
{
    const size_t n = w->stride * (size_t)(w->ny + 2 * w->pad);
    memset(w->h, 0, n * sizeof(float));
    memset(w->phi, 0, n * sizeof(float));
    memset(w->psi, 0, n * sizeof(float));
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
 * weighed once and kept (one pass over the cells); larger ones twice. */
#define KEPT_CELLS 256

double waves_add_volume(waves_field *w, double x, double y, double radius, double volume)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    const double r = radius / w->cell; /* cells */
    if (!(r >= 1.0))
        return add_bilinear(w, fx, fy, volume);
    int i0 = (int)ceil(fx - r), i1 = (int)floor(fx + r);
    int j0 = (int)ceil(fy - r), j1 = (int)floor(fy + r);
    i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
    i1 = i1 >= w->nx ? w->nx - 1 : i1, j1 = j1 >= w->ny ? w->ny - 1 : j1;
    const int kept = (long)(i1 - i0 + 1) * (j1 - j0 + 1) <= KEPT_CELLS;
    double total = 0.0, weights[KEPT_CELLS];
    for (int pass = kept; pass < 2 + kept; pass++) {
        /* kept: pass 1 weighs and keeps, pass 2 adds; else 0 sums, 1 adds */
        const int add = pass == (kept ? 2 : 1);
        const double per_area = add ? volume / (total * w->cell * w->cell) : 0.0;
        int n = 0;
        for (int j = j0; j <= j1; j++)
            for (int i = i0; i <= i1; i++, n++) {
                const size_t q = waves_index(w, i, j);
                double weight;
                if (add && kept) {
                    weight = weights[n];
                } else {
                    const double d2 = ((i - fx) * (i - fx) + (j - fy) * (j - fy)) / (r * r);
                    weight = d2 < 1.0 && w->s[q] != 0.0f ? (1.0 - d2) * (1.0 - d2) : 0.0;
                }
                if (add && weight > 0.0)
                    w->h[q] += (float)(weight * per_area);
                else if (!add) {
                    total += weight;
                    if (kept)
                        weights[n] = weight;
                }
            }
        if (!add && !(total > 0.0))
            return add_bilinear(w, fx, fy, volume);
    }
    return volume;
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

double waves_mean_height(const waves_field *w, double x, double y, double radius)
{
    double fx, fy;
    cell_of(w, x, y, &fx, &fy);
    const double r = radius / w->cell; /* cells */
    double sum = 0.0, total = 0.0;
    if (r >= 1.0) {
        const int i0 = (int)ceil(fx - r), i1 = (int)floor(fx + r);
        const int j0 = (int)ceil(fy - r), j1 = (int)floor(fy + r);
        for (int j = j0 < 0 ? 0 : j0; j <= j1 && j < w->ny; j++)
            for (int i = i0 < 0 ? 0 : i0; i <= i1 && i < w->nx; i++) {
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
    const double u = bilinear(w, w->u, *x, *y), v = bilinear(w, w->v, *x, *y);
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
