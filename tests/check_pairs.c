/* Overlapping boxes through a hashed uniform grid (check_pairs.h). */
#include "tests/check_pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int cell[3];
    int box;
} entry;

typedef struct {
    double origin[3], inv; /* cell of v along k: floor((v - origin[k]) inv) */
    unsigned mask;         /* buckets - 1 */
} grid;

typedef struct {
    chk_pair *at;
    long count, room;
} pair_list;

int chk_boxes_overlap(const double a[6], const double b[6])
{
    return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5]
        && b[2] <= a[5];
}

static int push(pair_list *l, int a, int b)
{
    if (l->count == l->room) {
        long room = l->room ? 2 * l->room : 4096;
        chk_pair *at = realloc(l->at, sizeof *at * (size_t)room);
        if (!at)
            return -1;
        l->at = at, l->room = room;
    }
    l->at[l->count].a = a < b ? a : b;
    l->at[l->count].b = a < b ? b : a;
    l->count++;
    return 0;
}

static int finite_box(const double b[6])
{
    for (int k = 0; k < 6; k++)
        if (!isfinite(b[k]))
            return 0;
    return 1;
}

static int cell_of(const grid *g, double v, int k) { return (int)floor((v - g->origin[k]) * g->inv); }

static unsigned bucket_of(const grid *g, const int c[3])
{
    return ((unsigned)c[0] * 73856093u ^ (unsigned)c[1] * 19349663u ^ (unsigned)c[2] * 83492791u)
         & g->mask;
}

/* The cells box b touches (0 when it is too big for the grid). */
static long cells_of(const grid *g, const double b[6])
{
    if (!finite_box(b))
        return 0;
    long cells = 1;
    for (int k = 0; k < 3; k++) {
        const double lo = floor((b[k] - g->origin[k]) * g->inv),
                     hi = floor((b[3 + k] - g->origin[k]) * g->inv), span = hi - lo + 1.0;
        if (span > CHK_PAIRS_MAX_CELLS || fabs(lo) > 1e9 || fabs(hi) > 1e9) /* fits an int */
            return 0;
        cells *= (long)span;
    }
    return cells > CHK_PAIRS_MAX_CELLS ? 0 : cells;
}

/* The grid's origin and cell from the boxes that fit one. */
static void grid_setup(grid *g, const double *boxes, int n)
{
    double side = 0.0;
    int finite = 0;
    g->origin[0] = g->origin[1] = g->origin[2] = INFINITY;
    for (int i = 0; i < n; i++) {
        const double *b = boxes + 6 * i;
        if (!finite_box(b))
            continue;
        finite++;
        double big = 0.0;
        for (int k = 0; k < 3; k++)
            g->origin[k] = fmin(g->origin[k], b[k]), big = fmax(big, b[3 + k] - b[k]);
        side += big;
    }
    side = finite ? side / finite : 0.0;
    g->inv = side > 0.0 ? 1.0 / side : 1.0;
    if (!finite)
        g->origin[0] = g->origin[1] = g->origin[2] = 0.0;
}

/* The pairs that first meet in the cell of entries e[0 .. n-1] (one bucket). */
static int bucket_pairs(const grid *g, const double *boxes, const entry *e, int n, pair_list *l)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (memcmp(e[i].cell, e[j].cell, sizeof e[i].cell) != 0)
                continue;
            const double *a = boxes + 6 * e[i].box, *b = boxes + 6 * e[j].box;
            if (!chk_boxes_overlap(a, b))
                continue;
            int owner = 1; /* the overlap's lowest corner is in this cell */
            for (int k = 0; k < 3; k++)
                owner &= cell_of(g, fmax(a[k], b[k]), k) == e[i].cell[k];
            if (owner && push(l, e[i].box, e[j].box) != 0)
                return -1;
        }
    return 0;
}

/* Fills the entries of box i (its cells) at e; returns how many. */
static long fill_entries(const grid *g, const double *b, int i, entry *e)
{
    int lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = cell_of(g, b[k], k), hi[k] = cell_of(g, b[3 + k], k);
    long n = 0;
    for (int x = lo[0]; x <= hi[0]; x++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int z = lo[2]; z <= hi[2]; z++) {
                e[n].cell[0] = x, e[n].cell[1] = y, e[n].cell[2] = z;
                e[n++].box = i;
            }
    return n;
}

/* The boxes too big for the grid against every box. */
static int big_pairs(const double *boxes, int n, const long *cells, pair_list *l)
{
    for (int i = 0; i < n; i++) {
        if (cells[i] != 0)
            continue;
        for (int j = 0; j < n; j++)
            if (j != i && (cells[j] != 0 || j > i)
                && chk_boxes_overlap(boxes + 6 * i, boxes + 6 * j) && push(l, i, j) != 0)
                return -1;
    }
    return 0;
}

/* The pairs met in the grid's cells: the entries sorted by bucket (a
 * counting sort), then each bucket's. */
static int grid_pairs(const grid *g, const double *boxes, const entry *all, long total,
                      pair_list *l)
{
    const size_t buckets = (size_t)g->mask + 1;
    long *start = calloc(buckets + 1, sizeof *start);
    entry *sorted = malloc(sizeof *sorted * (size_t)(total ? total : 1));
    int rc = -1;
    if (!start || !sorted)
        goto out;
    for (long i = 0; i < total; i++)
        start[bucket_of(g, all[i].cell) + 1]++;
    for (size_t b = 0; b < buckets; b++)
        start[b + 1] += start[b];
    long *next = malloc(sizeof *next * buckets);
    if (!next)
        goto out;
    memcpy(next, start, sizeof *next * buckets);
    for (long i = 0; i < total; i++)
        sorted[next[bucket_of(g, all[i].cell)]++] = all[i];
    free(next);
    rc = 0;
    for (size_t b = 0; b < buckets && rc == 0; b++)
        rc = bucket_pairs(g, boxes, sorted + start[b], (int)(start[b + 1] - start[b]), l);
out:
    free(start);
    free(sorted);
    return rc;
}

int chk_box_pairs(const double *boxes, int n, chk_pair **pairs, long *count)
{
    if (n < 0)
        n = 0;
    grid g;
    grid_setup(&g, boxes, n);
    pair_list l = {NULL, 0, 0};
    long *cells = malloc(sizeof *cells * (size_t)(n > 0 ? n : 1)), total = 0;
    entry *all = NULL;
    int rc = -1;
    if (!cells)
        goto out;
    for (int i = 0; i < n; i++)
        total += cells[i] = cells_of(&g, boxes + 6 * i);
    g.mask = 1;
    while (g.mask < 2 * (unsigned long)total && g.mask < (1u << 30))
        g.mask <<= 1;
    g.mask -= 1;
    all = malloc(sizeof *all * (size_t)(total ? total : 1));
    if (!all)
        goto out;
    for (long i = 0, at = 0; i < n; i++)
        if (cells[i])
            at += fill_entries(&g, boxes + 6 * i, (int)i, all + at);
    if (grid_pairs(&g, boxes, all, total, &l) == 0 && big_pairs(boxes, n, cells, &l) == 0)
        rc = 0;
out:
    free(cells);
    free(all);
    if (rc != 0)
        free(l.at), l.at = NULL, l.count = 0;
    *pairs = l.at;
    *count = l.count;
    return rc;
}
