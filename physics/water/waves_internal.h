/* Inside the wave layer: its grid and state, shared by its files and by
 * nothing else. waves_grid.c builds the grid (extent, depth, dry cells,
 * sponge, flow), waves_step.c steps it, waves.c reads and feeds it; the
 * kernel's fit is waves_kernel.c. */
#ifndef DINGHY_WAVES_INTERNAL_H
#define DINGHY_WAVES_INTERNAL_H

#include <stddef.h>

#include "dinghy/river.h"
#include "dinghy/waves.h"
#include "physics/water/waves_kernel.h"

/* Water shallower than this is dry land to the waves, m. */
#define WAVES_DRY_DEPTH 0.05
/* The sponge's damping rate at its outer edge, 1/s; it rises as the
 * square of the depth into it (docs/physics.md section 14). */
#define WAVES_SPONGE_RATE 4.0
/* The deepest water the kernel is fitted to, in cells: a kernel of
 * reach R cells follows k tanh(k d), phase and group speed within 5% at
 * every wave number, for d up to about R / 3.5 cells (docs/physics.md
 * section 14); deeper water's waves travel as this deep's (long waves
 * at sqrt(g d_max), waves shorter than about 2 pi d_max as in deep water). */
#define WAVES_DEPTH_CELLS 2.5
/* The side of the tiles all_wet covers, cells. */
#define WAVES_TILE 8
/* Dry cells past a row's padding: the step's loops run in whole vectors
 * of 8 cells, up to 7 cells past a row's last and the kernel's reach
 * and a vector further. */
#define WAVES_ROW_SPARE 16
/* The largest grid: cells, and cells along a row. */
#define WAVES_MAX_CELLS (6L * 1024 * 1024)
#define WAVES_MAX_ROW 8192

/* The kernel as the step runs it: its non-zero classes, each a weight
 * and its offsets as distances in the padded arrays (floats). */
typedef struct {
    int classes;                            /* non-zero classes */
    float weight[WAVES_KERNEL_CLASSES];     /* W, 1/m */
    int first[WAVES_KERNEL_CLASSES + 1];    /* class c's offsets: off[first[c] .. first[c+1]) */
    ptrdiff_t off[8 * WAVES_KERNEL_CLASSES];
    /* The same sum by rows (waves_step.c): with V_b(x) = (psi(x, y + b) -
     * psi(x, y)) + (psi(x, y - b) - psi(x, y)) and H_a(x) = psi(x + a, y)
     * - psi(x, y),
     *   sum_o W_o (psi_{i+o} - psi_i) = sum over b >= 1, a >= 0 of
     *     W(a, b) (V_b(x + a) + V_b(x - a)) (once for a = 0)
     *   + sum over a >= 1 of (W(a, 0) + 2 sum_{b >= 1} W(a, b)) (H_a + H_-a):
     * the vertical terms (cols[k], rows[k], vw[k]; k < verticals) and the
     * horizontal ones (across[k], hw[k]; k < horizontals). */
    int verticals, horizontals;
    int cols[2 * WAVES_KERNEL_CLASSES], rows[2 * WAVES_KERNEL_CLASSES];
    float vw[2 * WAVES_KERNEL_CLASSES];
    int across[WAVES_KERNEL_RADIUS];
    float hw[WAVES_KERNEL_RADIUS];
} waves_taps;

struct waves_field {
    waves_def def;
    waves_kernel kernel;
    waves_taps taps;
    int nx, ny;            /* cells */
    int pad;               /* ghost cells round the grid: the kernel's reach, dry */
    size_t stride;         /* floats a padded row */
    double x0, y0, cell;   /* corner of cell (0, 0) and the cell's side, m */
    double depth0;         /* depth the kernel is fitted to, m */
    double lambda_max;     /* Gershgorin bound of K's largest eigenvalue: the
                              largest row sum of |K|, 2 s_i diag_i, 1/m */
    /* state, padded (cell (i, j) at (j + pad) * stride + i + pad) */
    float *h;              /* height of the waves, m */
    float *phi;            /* velocity potential at the surface, m^2/s */
    struct waves_ring *rings; /* two per thread of the step: its rows of psi = s phi
                              and the advected h, phi (waves_step.c) */
    int ring_count;
    /* the grid, fixed when it is built */
    float *s;              /* depth factor sqrt(min(d, depth0) / depth0); 0 dry */
    float *edge;           /* sum over the kernel's offsets o of W_o (s_{i+o} - s_i), 1/m:
                              0 where the depth is the same all round (the step's
                              sum is in differences of s phi; this puts back the
                              pairs a wall or a shallower neighbour weighs less) */
    float *sponge;         /* damping rate of the sponge, 1/s (0 outside it) */
    float *u, *v;          /* the river's surface velocity at flow_speed, m/s (NULL:
                              still water) */
    int *lo, *hi;          /* per row: the cells [lo, hi) that may be wet */
    unsigned char *all_wet;/* per tile of WAVES_TILE x WAVES_TILE cells (tile (a, b) at
                              b * tiles_x + a): 1 when every cell of it is wet, so a
                              footprint inside such tiles need not read s */
    int tiles_x, tiles_y;
    int row_lo, row_hi;    /* rows [row_lo, row_hi) that hold any */
    const river_world *river;
    double flow_speed;     /* the river's speed u, v were sampled at, m/s */
    double flow_max;       /* the largest |(u, v)| over the cells, m/s */
    double *row_sum;       /* per row: the sum of h over it after the last substep, m */
    long wet;              /* wet cells */
    double sponge_dt;      /* the step the sponge's factors below are for, s */
    float *sponge_keep;    /* exp(-sponge dt) per cell */
};

/* The padded index of cell (i, j). */
static inline size_t waves_index(const waves_field *w, int i, int j)
{
    return (size_t)(j + w->pad) * w->stride + (size_t)(i + w->pad);
}

/* The current's scale now against the speed the cells' u, v were sampled
 * at (0 on still water, or a river sampled still). */
static inline double waves_flow_scale(const waves_field *w)
{
    if (!w->river || !(w->flow_speed > 0.0))
        return 0.0;
    return river_course_view(w->river)->speed / w->flow_speed;
}

/* ---- waves_step.c ---- */

/* Makes the step's rows for one thread (its pair of rings), with the
 * layer: 0, or -1 when out of memory. The step makes more as more
 * threads step the layer, and runs on as many as there was room for
 * (the same bits on any count), so it never lacks the one. */
int waves_step_prepare(waves_field *w);

/* Frees the step's rows (rings); NULL-safe. */
void waves_step_free(waves_field *w);

/* ---- waves_grid.c ---- */

/* Lays out the grid of def (still water) or of the river's course,
 * allocates every array and fills the fixed ones; the kernel is `fitted`
 * when that was fitted to the grid's depth and cell (NULL: fitted here).
 * Returns 0, or -1 with a message in err. */
int waves_grid_build(waves_field *w, const waves_def *def, const river_world *river,
                     const waves_kernel *fitted, char *err, size_t err_len);
void waves_grid_free(waves_field *w);

/* Samples the river's surface velocity into u, v again (after its speed
 * changed from flow_speed to one that does not scale it: from 0). */
void waves_grid_sample_flow(waves_field *w);

#endif
