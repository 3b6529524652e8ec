/* The wave layer's step (docs/physics.md section 14): per substep of
 * length dt,
 *   1. advection (river only): h and phi carried by the current U,
 *      semi-Lagrangian: each cell takes the bilinear value at x - U dt
 *      (at most a cell away: the substeps see to it);
 *   2. h += dt K phi, with (K phi)_i = s_i sum_o W_o s_{i+o} (phi_i - phi_{i+o})
 *      (summed as stage_waves says), then phi = exp(-damping dt) (phi - dt
 *      g (h - h_ref)) with the new h, and the sponge's exp(-sigma dt) on
 *      both (0 on dry cells).
 * h_ref is the mean height of the water at the step's start: a constant
 * added to phi changes neither K phi nor the surface's velocity grad phi,
 * and without it phi would drift as -g h_mean t wherever the water holds
 * volume (a closed basin, a ring's displacement).
 * Stage 1 (a row's advection and psi = s phi) reads neighbours of the
 * old h and phi, stage 2 (a row's new h and phi) neighbours of psi. They
 * go down a thread's rows together, stage 1 R rows ahead, into a ring of
 * 2 R + 1 rows (the rows stage 2 reads, in the second-level cache), and
 * stage 2 writes a row's new h and phi in place, after stage 1 of the
 * rows round it has read the old: per cell h, phi, u, v, s, edge and the
 * sponge are read and h and phi written, about 44 bytes, where stage 1
 * writing whole arrays of psi and the advected h and phi for stage 2 to
 * read back took about 80. Before the threads' barrier each does stage 1
 * on the rows at its range's ends whose old values the next thread or
 * the one before will overwrite (the same numbers that thread works
 * out); then each goes down its own rows, and every cell's sum runs in
 * the same order whatever the split: the same bits on any thread count. */
#include "physics/water/waves.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "physics/water/waves_internal.h"

/* The substep's share of the stability bound: g dt^2 lambda_max <= 4
 * SAFETY^2 (symplectic Euler on a positive semi-definite K is stable
 * below 4). */
#define SAFETY 0.9
/* Columns of a band of stage 2: a row's wet span (about 270 cells on
 * the default river) in one piece or two, so that the V_b rows' margins
 * (the kernel's reach each side) are a small part of it. */
#define CHUNK 512
/* The kernel's reach, cells. */
#define R WAVES_KERNEL_RADIUS
/* Rows a thread's ring holds: the rows stage 2 reads psi from. */
#define RING (2 * R + 1)
/* Floats before a ring's first row and after its last: stage 2 reads V_b
 * from up to 16 cells before a row's first wet cell (the padding is 11). */
#define RING_MARGIN 32

/* A thread's rows round the one stage 2 is on: row r in slot r mod RING,
 * each slot a padded row laid out as the grid's (cell i at i + pad), 0
 * but for the cells [lo, hi) of its row stage 1 wrote. */
struct waves_ring {
    float *psi, *h, *phi; /* s phi, and h and phi advected (river only) */
    int lo[RING], hi[RING];
};

int waves_substeps(const waves_field *w, double dt, double gravity)
{
    if (!(dt > 0.0))
        return 1;
    double n = 1.0;
    if (gravity > 0.0 && w->lambda_max > 0.0)
        n = ceil(dt * sqrt(gravity * w->lambda_max) / (2.0 * SAFETY) * (1.0 - 1e-12));
    /* the advection moves a cell at most a substep */
    n = fmax(n, ceil(dt * w->flow_max * waves_flow_scale(w) / w->cell * (1.0 - 1e-12)));
    return n < 1.0 ? 1 : n > 1e6 ? 1000000 : (int)n;
}

/* exp(-sponge dt) on wet cells, 0 on dry ones, for substeps of dt. */
static void sponge_factors(waves_field *w, double dt)
{
    if (w->sponge_dt == dt)
        return;
    for (int j = 0; j < w->ny; j++)
        for (int i = 0; i < w->nx; i++) {
            const size_t q = waves_index(w, i, j);
            w->sponge_keep[q] = w->s[q] > 0.0f ? (float)exp(-(double)w->sponge[q] * dt) : 0.0f;
        }
    w->sponge_dt = dt;
}

/* Bilinear values of n cells at their departure points, -carry (u, v)
 * cells away (clamped to one cell): rows m, z, p are the rows above, at
 * and below from the cell before the first on, for h and phi; the
 * results into h_adv, phi_adv and psi = s phi_adv. A shift d in [-1, 1]
 * has the tent weights max(-d, 0), 1 - |d|, max(d, 0) on the cells at -1,
 * 0, +1: the bilinear interpolation's. */
static void advect_cells(int n, float carry, const float *restrict u, const float *restrict v,
                         const float *restrict hm, const float *restrict hz,
                         const float *restrict hp, const float *restrict pm,
                         const float *restrict pz, const float *restrict pp,
                         const float *restrict s, float *restrict h_adv,
                         float *restrict phi_adv, float *restrict psi)
{
    for (int x = 0; x < n; x++) {
        float dx = -carry * u[x], dy = -carry * v[x];
        dx = dx > 1.0f ? 1.0f : dx < -1.0f ? -1.0f : dx;
        dy = dy > 1.0f ? 1.0f : dy < -1.0f ? -1.0f : dy;
        const float xm = dx < 0.0f ? -dx : 0.0f, xp = dx > 0.0f ? dx : 0.0f;
        const float ym = dy < 0.0f ? -dy : 0.0f, yp = dy > 0.0f ? dy : 0.0f;
        const float x0 = 1.0f - (xm + xp), y0 = 1.0f - (ym + yp);
        const float h_m = (xm * hm[x] + x0 * hm[x + 1]) + xp * hm[x + 2];
        const float h_z = (xm * hz[x] + x0 * hz[x + 1]) + xp * hz[x + 2];
        const float h_p = (xm * hp[x] + x0 * hp[x + 1]) + xp * hp[x + 2];
        const float p_m = (xm * pm[x] + x0 * pm[x + 1]) + xp * pm[x + 2];
        const float p_z = (xm * pz[x] + x0 * pz[x + 1]) + xp * pz[x + 2];
        const float p_p = (xm * pp[x] + x0 * pp[x + 1]) + xp * pp[x + 2];
        const float pa = (ym * p_m + y0 * p_z) + yp * p_p;
        h_adv[x] = (ym * h_m + y0 * h_z) + yp * h_p;
        phi_adv[x] = pa;
        psi[x] = s[x] * pa;
    }
}

static int slot(int r)
{
    return ((r % RING) + RING) % RING;
}

/* Ring g's slot k back to 0 over the cells its last row wrote, and
 * empty. */
static void clear_slot(const waves_field *w, struct waves_ring *g, int k)
{
    if (g->hi[k] > g->lo[k]) {
        const size_t at = (size_t)k * w->stride + (size_t)w->pad + (size_t)g->lo[k];
        const size_t bytes = (size_t)(g->hi[k] - g->lo[k]) * sizeof(float);
        memset(g->psi + at, 0, bytes);
        memset(g->h + at, 0, bytes);
        memset(g->phi + at, 0, bytes);
    }
    g->lo[k] = g->hi[k] = 0;
}

/* Stage 1 on row r (any row: one off the grid or without water leaves
 * its slot 0): h and phi (old) into the ring, advected (flow) or as they
 * are, and psi = s phi. `carry` is the substep over the cell times the current's scale:
 * the shift, in cells, per m/s. */
static void carry_row(const waves_field *w, struct waves_ring *g, int r, int flow, float carry,
                      const float *h, const float *phi)
{
    const int k = slot(r);
    const size_t row = (size_t)k * w->stride + (size_t)w->pad, S = w->stride;
    clear_slot(w, g, k);
    if (r < 0 || r >= w->ny || w->hi[r] <= w->lo[r])
        return;
    const int lo = w->lo[r], n = w->hi[r] - lo;
    g->lo[k] = lo;
    g->hi[k] = lo + n;
    const size_t q = waves_index(w, lo, r), at = row + (size_t)lo;
    if (!flow) { /* h and phi as they are, for stage 2 to read */
        const float *restrict s = w->s + q, *restrict p = phi + q;
        float *restrict psi = g->psi + at;
        for (int x = 0; x < n; x++)
            psi[x] = s[x] * p[x];
        memcpy(g->h + at, h + q, (size_t)n * sizeof(float));
        memcpy(g->phi + at, p, (size_t)n * sizeof(float));
        return;
    }
    advect_cells(n, carry, w->u + q, w->v + q, h + q - S - 1, h + q - 1, h + q + S - 1,
                 phi + q - S - 1, phi + q - 1, phi + q + S - 1, w->s + q, g->h + at, g->phi + at,
                 g->psi + at);
}

/* The new h and phi of n cells from K's sum acc (sum_o W_o (psi_{i+o} -
 * psi_i)) and the cells' h and phi before (hz, p, from the ring: the
 * advected ones on a river), into h and phi. A function of its own so that its pointers'
 * restrict holds (gcc ignores it on a block's locals, checks aliasing
 * at run time past its limit and leaves the loop scalar). */
static void update_cells(int n, const float *restrict acc, const float *restrict s,
                         const float *restrict edge, const float *restrict keep,
                         const float *restrict hz, const float *restrict p, float *restrict h,
                         float *restrict phi, float dt, float g_dt, float h_ref, float damp)
{
    for (int x = 0; x < n; x++) {
        const float k_phi = s[x] * (edge[x] * p[x] - acc[x]); /* K phi, m/s */
        const float hn = hz[x] + dt * k_phi;
        const float pn = damp * (p[x] - g_dt * (hn - h_ref));
        h[x] = keep[x] * hn;
        phi[x] = keep[x] * pn;
    }
}

/* What a substep reads and writes, and its numbers. */
typedef struct {
    float *h, *phi;        /* the state (padded): stage 1 reads a row's old values
                              before stage 2 writes its new ones there */
    int flow;              /* advected (else stage 1 copies h and phi) */
    float carry;           /* the advection's shift, cells per m/s */
    float dt, g_dt, h_ref, damp;
} substep;

/* Stage 2 on cells [i0, i1) of row j: the kernel's sum over psi, then h
 * and phi; returns the sum of the new h over those cells. In floats, 8
 * lanes, and in differences so that nothing large cancels:
 *   (K phi)_i = s_i (e_i phi_i - sum_o W_o (psi_{i+o} - psi_i)),
 * e_i = sum_o W_o (s_{i+o} - s_i) (the grid's `edge`, 0 wherever the
 * depth is the same all round); each psi_{i+o} - psi_i is the waves'
 * difference, exact when the two are within a factor 2 (Sterbenz), so a
 * large level of phi (a pen's drift, the mean) cancels before the sum
 * and the float error is relative to the waves, not to the level. The
 * sum by rows (waves_taps): the vertical differences V_b once a row, then
 * each weight on a pair of them. */
static double stage_waves(const waves_field *w, const struct waves_ring *g, const substep *u,
                          int j, int i0, int i1)
{
    /* whole vectors of 8 (i0 is a multiple of 8): the cells added either
     * side are dry (their sponge factor 0 keeps them 0), and in this
     * band; past the grid's last column they are the row's spare */
    const int lo = i0 > (w->lo[j] & ~7) ? i0 : (w->lo[j] & ~7);
    const int n = ((i1 < w->hi[j] ? i1 : w->hi[j]) - lo + 7) & ~7;
    if (n <= 0 || w->hi[j] <= w->lo[j])
        return 0.0;
    const size_t base = waves_index(w, lo, j), S = w->stride, col = (size_t)(w->pad + lo);
    const waves_taps *t = &w->taps;
    const float *restrict c = g->psi + (size_t)slot(j) * S + col, *restrict s = w->s + base;
    /* V_b over the cells and R more each side (to whole vectors) */
    enum { SIDE = (R + 7) & ~7 };
    float vert[R][CHUNK + 2 * SIDE], acc[CHUNK];
    for (int b = 1; b <= R; b++) {
        float *restrict v = vert[b - 1] + SIDE;
        const float *restrict up = g->psi + (size_t)slot(j + b) * S + col;
        const float *restrict down = g->psi + (size_t)slot(j - b) * S + col;
        for (int x = -SIDE; x < n + SIDE; x++)
            v[x] = (up[x] - c[x]) + (down[x] - c[x]);
    }
    for (int x = 0; x < n; x++)
        acc[x] = 0.0f;
    for (int k = 0; k < t->verticals; k++) {
        const float wk = t->vw[k];
        const int a = t->cols[k];
        const float *restrict v = vert[t->rows[k] - 1] + SIDE;
        if (a == 0) {
            for (int x = 0; x < n; x++)
                acc[x] += wk * v[x];
            continue;
        }
        for (int x = 0; x < n; x++)
            acc[x] += wk * (v[x + a] + v[x - a]);
    }
    for (int k = 0; k < t->horizontals; k++) {
        const float wk = t->hw[k];
        const int a = t->across[k];
        for (int x = 0; x < n; x++)
            acc[x] += wk * ((c[x + a] - c[x]) + (c[x - a] - c[x]));
    }
    const size_t own = (size_t)slot(j) * S + col;
    float *h = u->h + base;
    update_cells(n, acc, s, w->edge + base, w->sponge_keep + base, g->h + own, g->phi + own, h,
                 u->phi + base, u->dt, u->g_dt, u->h_ref, u->damp);
    /* the sum of h in eight lanes (a fixed order that vectorises) */
    float lane[8] = {0.0f};
    int x = 0;
    for (; x + 8 <= n; x += 8)
        for (int l = 0; l < 8; l++)
            lane[l] += h[x + l];
    for (; x < n; x++)
        lane[0] += h[x];
    return (((double)lane[0] + lane[1]) + ((double)lane[2] + lane[3]))
         + (((double)lane[4] + lane[5]) + ((double)lane[6] + lane[7]));
}

/* The mean height of the wet cells, from the rows' sums in row order. */
static double mean_height(const waves_field *w)
{
    double sum = 0.0;
    for (int j = w->row_lo; j < w->row_hi; j++)
        sum += w->row_sum[j];
    return w->wet > 0 ? sum / (double)w->wet : 0.0;
}

void waves_step_free(waves_field *w)
{
    for (int k = 0; k < w->ring_count; k++)
        free(w->rings[k].psi - RING_MARGIN);
    free(w->rings);
    w->rings = NULL;
    w->ring_count = 0;
}

/* Rings for `threads` threads (made once, 0 throughout); the number
 * there is room for (fewer only when memory ran out, at least 1 unless
 * none could be made). */
static int rings_for(waves_field *w, int threads)
{
    if (threads <= w->ring_count)
        return threads;
    struct waves_ring *more = realloc(w->rings, (size_t)threads * sizeof *more);
    if (!more)
        return w->ring_count;
    w->rings = more;
    const size_t row = (size_t)RING * w->stride + 2 * RING_MARGIN;
    for (; w->ring_count < threads; w->ring_count++) {
        float *f = calloc(3 * row, sizeof(float));
        if (!f)
            break;
        struct waves_ring *g = &w->rings[w->ring_count];
        *g = (struct waves_ring){.psi = f + RING_MARGIN, .h = f + row + RING_MARGIN,
                                 .phi = f + 2 * row + RING_MARGIN};
    }
    return w->ring_count;
}

int waves_step_prepare(waves_field *w) { return rings_for(w, 2) >= 2 ? 0 : -1; }

/* Row r's slot of ring `from` into ring `to` (what it held there
 * before cleared). */
static void copy_row(const waves_field *w, const struct waves_ring *from, struct waves_ring *to,
                     int r)
{
    const int k = slot(r), lo = from->lo[k], n = from->hi[k] - lo;
    const size_t row = (size_t)k * w->stride + (size_t)w->pad;
    clear_slot(w, to, k);
    to->lo[k] = lo;
    to->hi[k] = lo + (n > 0 ? n : 0);
    if (n <= 0)
        return;
    const size_t at = row + (size_t)lo, bytes = (size_t)n * sizeof(float);
    memcpy(to->psi + at, from->psi + at, bytes);
    memcpy(to->h + at, from->h + at, bytes);
    memcpy(to->phi + at, from->phi + at, bytes);
}

/* Before the threads' barrier, a thread's stage 1 on the rows round its
 * range [a, b) whose old values a neighbouring thread's stage 2 will
 * overwrite: the R rows before a and the first R (into g, for its first
 * rows), and from b - 1 on (into tail, for its last: their advection
 * reads the next thread's rows). */
static void substep_ends(waves_field *w, struct waves_ring *g, struct waves_ring *tail,
                         const substep *u, int a, int b)
{
    for (int r = a - R; r < a + R; r++)
        carry_row(w, g, r, u->flow, u->carry, u->h, u->phi);
    for (int r = b - 1 > a + R ? b - 1 : a + R; r < b + R; r++)
        carry_row(w, tail, r, u->flow, u->carry, u->h, u->phi);
}

/* After the barrier, a thread's substep over rows [a, b): stage 1 R rows
 * ahead of stage 2 (or its row from tail), stage 2 on a row in place, a
 * band of CHUNK columns at a time (the order changes no bit). A row's
 * old h and phi are read (by stage 1 of the rows round it) before stage
 * 2 writes the new ones. */
static void substep_rows(waves_field *w, struct waves_ring *g, const struct waves_ring *tail,
                         const substep *u, int a, int b)
{
    for (int j = a; j < b; j++) {
        if (j + R >= b - 1)
            copy_row(w, tail, g, j + R);
        else
            carry_row(w, g, j + R, u->flow, u->carry, u->h, u->phi);
        w->row_sum[j] = 0.0;
        for (int i0 = 0; i0 < w->nx; i0 += CHUNK)
            w->row_sum[j] += stage_waves(w, g, u, j, i0, i0 + CHUNK);
    }
}

void waves_step(waves_field *w, double dt, double gravity, int threads)
{
    if (!(dt > 0.0) || w->row_hi <= w->row_lo)
        return;
    const int substeps = waves_substeps(w, dt, gravity);
    const double h = dt / substeps;
    sponge_factors(w, h);
    const double speed = w->river ? river_course_view(w->river)->speed : 0.0;
    if (w->river && speed > 0.0 && !(w->flow_speed > 0.0))
        waves_grid_sample_flow(w); /* from still: nothing to scale */
    const int flow = w->river && speed > 0.0;
    /* a pair of rings a thread: as many threads as there is room for, at
     * least the one whose pair was made with the layer */
    const int rings = rings_for(w, 2 * (threads > 0 ? threads : omp_get_max_threads())) / 2;
    const substep u = {.h = w->h, .phi = w->phi, .flow = flow,
                       .carry = flow ? (float)(h / w->cell * waves_flow_scale(w)) : 0.0f,
                       .dt = (float)h, .g_dt = (float)(gravity * h), .h_ref = (float)mean_height(w),
                       .damp = (float)exp(-w->def.damping * h)};
    const int r0 = w->row_lo, r1 = w->row_hi;
#pragma omp parallel num_threads(rings)
    {
        /* each thread a fixed range of rows, its main ring and its tail's */
        const int nth = omp_get_num_threads(), me = omp_get_thread_num();
        const int a = r0 + (int)((long)(r1 - r0) * me / nth);
        const int b = r0 + (int)((long)(r1 - r0) * (me + 1) / nth);
        struct waves_ring *g = &w->rings[2 * me], *tail = &w->rings[2 * me + 1];
        for (int k = 0; k < substeps; k++) {
            substep_ends(w, g, tail, &u, a, b);
#pragma omp barrier
            substep_rows(w, g, tail, &u, a, b);
#pragma omp barrier
        }
    }
}
