/* Broad phase: which rings' bounding spheres overlap, in O(P).
 *
 * Ring centres are binned into a uniform grid of cells one bounding
 * diameter wide, hashed into a table and counting-sorted by bucket (stable,
 * so the order depends only on the positions). Each ring then gathers its
 * overlapping neighbours from the 27 cells around it, sorted by index, so
 * that contact forces are summed in a fixed order.
 *
 * The per-ring calls run inside an OpenMP parallel loop, one ring per
 * call; broadphase_sort and broadphase_reserve run on one thread between
 * barriers. */
#ifndef DINGHY_BROADPHASE_H
#define DINGHY_BROADPHASE_H

#include <stddef.h>

typedef struct {
    int P;
    size_t table_size;   /* power of two >= 2P */
    int *cell;           /* 3 ints per ring: grid cell of its centre */
    unsigned *bucket;    /* hash bucket of each ring */
    int *bucket_start;   /* table_size + 1 */
    int *order;          /* rings sorted by bucket, then index */
    int *nb_start;       /* P + 1: neighbours of p are nb[nb_start[p] .. nb_start[p+1]) */
    int *nb;
    size_t nb_cap;
    double cell_size;    /* m */
} broadphase;

/* Room for P rings (bp->P may then be set lower, to the ones there). */
int broadphase_init(broadphase *bp, int P);
/* Bytes broadphase_init allocates for P rings, less the neighbour list,
 * which grows with contacts: nb_cap ints. */
size_t broadphase_bytes(int P);
void broadphase_free(broadphase *bp);

/* Bins ring p, centre c0[3p..3p+2] (m), into its cell. */
void broadphase_bin(broadphase *bp, const double *c0, int p);
/* Counting sort of all rings by bucket (serial, O(P + table)). */
void broadphase_sort(broadphase *bp);
/* Counts the rings whose centres lie closer than `reach` (m) to p's. */
void broadphase_count(broadphase *bp, const double *c0, int p, double reach);
/* Turns the counts in nb_start[0..P) into offsets and grows nb; -1 when out of memory. */
int broadphase_reserve(broadphase *bp);
/* Writes p's neighbours, ascending, at nb[nb_start[p]]. */
void broadphase_fill(broadphase *bp, const double *c0, int p, double reach);

#endif
