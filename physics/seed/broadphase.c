/* Uniform-grid broad phase; see broadphase.h. */
#include "physics/seed/broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cells further out than this are clamped: a runaway ring still bins. */
#define CELL_LIMIT 1000000.0

int broadphase_init(broadphase *bp, int P)
{
    memset(bp, 0, sizeof *bp);
    bp->P = P;
    bp->table_size = 1;
    while (bp->table_size < 2 * (size_t)P)
        bp->table_size *= 2;
    bp->cell = malloc(sizeof *bp->cell * 3 * (size_t)P);
    bp->bucket = malloc(sizeof *bp->bucket * (size_t)P);
    bp->bucket_start = malloc(sizeof *bp->bucket_start * (bp->table_size + 1));
    bp->order = malloc(sizeof *bp->order * (size_t)P);
    bp->nb_start = calloc((size_t)P + 1, sizeof *bp->nb_start);
    bp->nb_cap = 8 * (size_t)P;
    bp->nb = malloc(sizeof *bp->nb * bp->nb_cap);
    if (!bp->cell || !bp->bucket || !bp->bucket_start || !bp->order || !bp->nb_start || !bp->nb) {
        broadphase_free(bp);
        return -1;
    }
    return 0;
}

size_t broadphase_bytes(int P)
{
    size_t table = 1;
    while (table < 2 * (size_t)P)
        table *= 2;
    return (size_t)P * (3 * sizeof(int) + sizeof(unsigned) + sizeof(int))
         + (table + 1) * sizeof(int) + ((size_t)P + 1) * sizeof(int);
}

void broadphase_free(broadphase *bp)
{
    free(bp->cell); free(bp->bucket); free(bp->bucket_start);
    free(bp->order); free(bp->nb_start); free(bp->nb);
    memset(bp, 0, sizeof *bp);
}

static unsigned cell_hash(const broadphase *bp, int ix, int iy, int iz)
{
    unsigned h = (unsigned)ix * 73856093u ^ (unsigned)iy * 19349663u ^ (unsigned)iz * 83492791u;
    return h & (unsigned)(bp->table_size - 1);
}

static int cell_of(double v, double size)
{
    double c = floor(v / size);
    if (!(c > -CELL_LIMIT)) /* also catches NaN */
        c = -CELL_LIMIT;
    if (c > CELL_LIMIT)
        c = CELL_LIMIT;
    return (int)c;
}

void broadphase_bin(broadphase *bp, const double *c0, int p)
{
    int *c = &bp->cell[3 * p];
    for (int k = 0; k < 3; k++)
        c[k] = cell_of(c0[3 * p + k], bp->cell_size);
    bp->bucket[p] = cell_hash(bp, c[0], c[1], c[2]);
}

void broadphase_sort(broadphase *bp)
{
    int *start = bp->bucket_start;
    size_t T = bp->table_size;
    memset(start, 0, sizeof *start * (T + 1));
    for (int p = 0; p < bp->P; p++)
        start[bp->bucket[p] + 1]++;
    for (size_t b = 0; b < T; b++)
        start[b + 1] += start[b];
    /* Place in index order (a stable sort); this advances each start[b] to
     * the end of its bucket, so shift them back afterwards. */
    for (int p = 0; p < bp->P; p++)
        bp->order[start[bp->bucket[p]]++] = p;
    for (size_t b = T; b > 0; b--)
        start[b] = start[b - 1];
    start[0] = 0;
}

/* Finds every ring q != p whose centre lies within `reach` of p's; writes
 * them ascending to out (when not NULL) and returns how many there are. */
static int gather_neighbours(const broadphase *bp, const double *c0, int p, double reach, int *out)
{
    const int *cp = &bp->cell[3 * p];
    double r2 = reach * reach;
    int n = 0;
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dz = -1; dz <= 1; dz++) {
                int ix = cp[0] + dx, iy = cp[1] + dy, iz = cp[2] + dz;
                unsigned b = cell_hash(bp, ix, iy, iz);
                for (int k = bp->bucket_start[b]; k < bp->bucket_start[b + 1]; k++) {
                    int q = bp->order[k];
                    const int *cq = &bp->cell[3 * q];
                    if (q == p || cq[0] != ix || cq[1] != iy || cq[2] != iz)
                        continue;
                    double ex = c0[3 * p] - c0[3 * q];
                    double ey = c0[3 * p + 1] - c0[3 * q + 1];
                    double ez = c0[3 * p + 2] - c0[3 * q + 2];
                    if (!(ex * ex + ey * ey + ez * ez < r2))
                        continue;
                    if (out) { /* insertion keeps the list ascending */
                        int i = n;
                        while (i > 0 && out[i - 1] > q) {
                            out[i] = out[i - 1];
                            i--;
                        }
                        out[i] = q;
                    }
                    n++;
                }
            }
    return n;
}

void broadphase_count(broadphase *bp, const double *c0, int p, double reach)
{
    bp->nb_start[p] = gather_neighbours(bp, c0, p, reach, NULL);
}

int broadphase_reserve(broadphase *bp)
{
    int total = 0;
    for (int p = 0; p < bp->P; p++) {
        int c = bp->nb_start[p];
        bp->nb_start[p] = total;
        total += c;
    }
    bp->nb_start[bp->P] = total;
    if ((size_t)total > bp->nb_cap) {
        size_t cap = bp->nb_cap;
        while (cap < (size_t)total)
            cap *= 2;
        int *nb = realloc(bp->nb, sizeof *nb * cap);
        if (!nb)
            return -1;
        bp->nb = nb;
        bp->nb_cap = cap;
    }
    return 0;
}

void broadphase_fill(broadphase *bp, const double *c0, int p, double reach)
{
    gather_neighbours(bp, c0, p, reach, &bp->nb[bp->nb_start[p]]);
}
