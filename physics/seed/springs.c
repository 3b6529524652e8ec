/* The blocked, half-evaluated spring kernel; see springs.h. */
#include "physics/seed/springs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Target size of one thread's scratch, bytes: blocks stay cache-sized. */
#define SCRATCH_TARGET (192 * 1024)

size_t spring_plan_dims(spring_plan *p, int M, int N, int B)
{
    memset(p, 0, sizeof *p);
    p->M = M;
    p->N = N;
    p->h = B / 2;
    p->W = N + 2 * p->h;
    const int h = p->h, W = p->W;
    p->slack = h + N / 2; /* the farthest reach: h W + h or N/2, less the h W rows of halo */
    /* rows per block: a whole ring when it fits, else as many as fit
     * (9 floats per grid position), never fewer than the halo needs */
    long fit = SCRATCH_TARGET / (long)(9 * sizeof(float) * W) - 2 * h;
    p->max_rows = fit >= M ? M : fit > h + 1 ? (int)fit : h + 1;
    if (p->max_rows > M)
        p->max_rows = M;
    p->noff = (B * B - 1) / 2 + 1;
    p->src_len = (size_t)(p->max_rows + h) * W;
    return spring_scratch_floats(p);
}

size_t spring_plan_bytes(int M, int N, int B)
{
    spring_plan p;
    spring_plan_dims(&p, M, N, B);
    return (size_t)p.noff * (sizeof *p.D + sizeof *p.mask + p.src_len * sizeof(float))
         + 2 * p.src_len * sizeof(float);
}

int spring_plan_init(spring_plan *p, const torus_shape *s)
{
    spring_plan_dims(p, s->M, s->N, s->B);
    const int h = p->h, W = p->W, N = s->N;
    p->D = malloc(sizeof *p->D * (size_t)p->noff);
    p->mask = malloc(sizeof *p->mask * (size_t)p->noff);
    p->rest = calloc((size_t)p->noff * p->src_len, sizeof *p->rest);
    p->mask_src = calloc(p->src_len, sizeof *p->mask_src);
    p->mask_across = calloc(p->src_len, sizeof *p->mask_across);
    if (!p->D || !p->mask || !p->rest || !p->mask_src || !p->mask_across) {
        spring_plan_free(p);
        return -1;
    }
    for (size_t L = 0; L < p->src_len; L++) {
        int col = (int)(L % (size_t)W) - h;
        p->mask_src[L] = col >= 0 && col < N ? 1.0f : 0.0f;
        p->mask_across[L] = col >= 0 && col < N / 2 ? 1.0f : 0.0f;
    }
    int o = 0;
    for (int i = 0; i <= h; i++)
        for (int j = (i == 0 ? 1 : -h); j <= h; j++, o++) {
            p->D[o] = i * W + j;
            p->mask[o] = p->mask_src;
            const float *rest = s->rest + (size_t)((i + h) * s->B + (j + h)) * N;
            for (size_t L = 0; L < p->src_len; L++)
                if (p->mask_src[L] != 0.0f)
                    p->rest[(size_t)o * p->src_len + L] = rest[L % (size_t)W - (size_t)h];
        }
    /* across the tube: n -> n + N/2 for the first half of the tube */
    p->D[o] = N / 2;
    p->mask[o] = p->mask_across;
    const float *rest = s->rest + (size_t)(h * s->B + h) * N;
    for (size_t L = 0; L < p->src_len; L++)
        if (p->mask_across[L] != 0.0f)
            p->rest[(size_t)o * p->src_len + L] = rest[L % (size_t)W - (size_t)h];
    return 0;
}

void spring_plan_free(spring_plan *p)
{
    free(p->D);
    free((void *)p->mask);
    free(p->rest);
    free(p->mask_src);
    free(p->mask_across);
    memset(p, 0, sizeof *p);
}

/* Layout of one thread's scratch, in floats, each array 16-float aligned:
 * grid positions (max_rows + 2h) W + slack, spring forces tf_lead + src_len
 * (leading zeros), block forces max_rows W; three of each. */
static size_t round16(size_t n) { return (n + 15) / 16 * 16; }
static size_t grid_len(const spring_plan *p) { return round16((size_t)(p->max_rows + 2 * p->h) * p->W + (size_t)p->slack); }
/* Zeros before a block's spring forces: at least the slack, and as many
 * more as put the first interior position (h W further on) on a 64-byte
 * line, so the accumulation reads its own forces aligned. */
static size_t tf_lead(const spring_plan *p)
{
    size_t first = (size_t)p->slack + (size_t)p->h * (size_t)p->W;
    return (size_t)p->slack + (16 - first % 16) % 16;
}
static size_t tf_len(const spring_plan *p) { return round16(tf_lead(p) + p->src_len); }
static size_t f_len(const spring_plan *p) { return round16((size_t)p->max_rows * p->W); }

size_t spring_scratch_floats(const spring_plan *p)
{
    return 3 * (grid_len(p) + tf_len(p) + f_len(p));
}

/* Copies ring rows a-h .. a+nb+h-1 of v (wrapped) into the padded grid g. */
static void pad_block(const spring_plan *p, const float *v, int a, int nb, float *g)
{
    const int M = p->M, N = p->N, h = p->h, W = p->W;
    for (int r = 0; r < nb + 2 * h; r++) {
        const float *row = v + (size_t)(((a - h + r) % M + M) % M) * N;
        float *out = g + (size_t)r * W;
        memcpy(out, row + N - h, sizeof *out * (size_t)h);
        memcpy(out + h, row, sizeof *out * (size_t)N);
        memcpy(out + h + N, row, sizeof *out * (size_t)h);
    }
}

/* tf = k (|d| - L) d/|d| for every source position of one offset, where d
 * runs from the source to the target D further on; 0 where mask is 0. */
static void spring_forces(const float *restrict x, const float *restrict y,
                          const float *restrict z, const float *restrict rest,
                          const float *restrict mask, float k, int D, size_t n,
                          float *restrict tx, float *restrict ty, float *restrict tz)
{
    for (size_t L = 0; L < n; L++) {
        float dx = x[L + D] - x[L], dy = y[L + D] - y[L], dz = z[L + D] - z[L];
        float len = sqrtf(dx * dx + dy * dy + dz * dz);
        /* |d| = 0 means d = 0: any finite divisor gives zero force */
        float safe = len > 0.0f ? len : 1.0f;
        float s = k * mask[L] * (len - rest[L]) / safe;
        tx[L] = s * dx;
        ty[L] = s * dy;
        tz[L] = s * dz;
    }
}

/* f += (pull of my own spring) - (pull of the spring that ends on me). */
static void accumulate(float *restrict f, const float *restrict t, const float *restrict t_back,
                       size_t n)
{
    for (size_t L = 0; L < n; L++)
        f[L] = (f[L] + t[L]) - t_back[L];
}

void spring_block(const spring_plan *p, float k, const float *x, const float *y,
                  const float *z, int a, int nb, float *scratch, float *f[3])
{
    const int h = p->h, W = p->W, N = p->N;
    const size_t G = grid_len(p), T = tf_len(p), F = f_len(p);
    const size_t src = (size_t)(nb + h) * W;     /* source rows: a-h .. a+nb-1 */
    const size_t inner = (size_t)h * W;          /* first interior position */
    const size_t n_inner = (size_t)nb * W;
    float *g[3] = {scratch, scratch + G, scratch + 2 * G};
    const size_t lead = tf_lead(p);
    float *t[3] = {scratch + 3 * G + lead, scratch + 3 * G + T + lead,
                   scratch + 3 * G + 2 * T + lead};
    f[0] = scratch + 3 * (G + T);
    f[1] = f[0] + F;
    f[2] = f[1] + F;

    const float *v[3] = {x, y, z};
    for (int c = 0; c < 3; c++) {
        pad_block(p, v[c], a, nb, g[c]);
        /* finite values beyond the grid, read only for masked sources */
        memset(g[c] + (size_t)(nb + 2 * h) * W, 0, sizeof(float) * (size_t)p->slack);
        memset(t[c] - lead, 0, sizeof(float) * lead); /* nothing before the first source */
        memset(f[c], 0, sizeof(float) * n_inner);
    }
    for (int o = 0; o < p->noff; o++) {
        const int D = p->D[o];
        spring_forces(g[0], g[1], g[2], p->rest + (size_t)o * p->src_len, p->mask[o], k, D, src,
                      t[0], t[1], t[2]);
        for (int c = 0; c < 3; c++)
            accumulate(f[c], t[c] + inner, t[c] + inner - D, n_inner);
    }
    /* fold the ghost columns onto the vertices they stand for */
    for (int r = 0; r < nb; r++)
        for (int c = 0; c < 3; c++) {
            float *row = f[c] + (size_t)r * W;
            for (int i = 0; i < h; i++) {
                row[h + i] += row[h + N + i];
                row[N + i] += row[i];
            }
        }
}
