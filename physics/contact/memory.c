/* The kernel's memory: create, free, what it holds and how its lists grow.
 *
 * What does not grow is about 21 B per vertex: the reference shape 12, the
 * shares 4, the pair counts 2 (of both kinds), the patches' boxes 6. The
 * slots grow with the patches that are on (an eighth of them at first,
 * doubling, at most one per patch): 13 kB each, 812 B per vertex of those
 * patches (the triangle boxes 48, 6 floats a triangle, no index: a lane's
 * place gives it; the edges' boxes, ends and reach 124; each point's 8
 * pairs 64; its quad's 48 edge pairs 576, most of it: a search a step
 * ahead keeps many, each with its wake). The link's lists grow with the
 * pairs. */
#include "physics/contact/contact_internal.h"


/* Ring pairs per ring the pair and neighbour lists have room for from the
 * start (more grow them, rarely). */
#define RING_PAIRS_PER_RING 8

/* Bytes of what does not grow: per ring, patch and vertex (find's pair
 * counts, the shares, the reference shapes). */
static size_t fixed_bytes(int P, int M, int N)
{
    size_t nv = (size_t)P * M * N, np = (size_t)((M + PATCH - 1) / PATCH) * ((N + PATCH - 1) / PATCH);
    return np * sizeof(uint32_t)
         + (size_t)P * 3 * sizeof(int)
         + (size_t)P * np * sizeof(int) /* each patch's slot */
         + nv * (2 + sizeof(float)) /* find's pair counts (both kinds), the shares */
         + (size_t)P * sizeof(int)
         + nv * 3 * sizeof(float) + (size_t)P * (sizeof(double) * 21 + sizeof(int) + 3)
         + (size_t)P * (sizeof(sweep_key) + sizeof(int))
         + (size_t)P * np * (12 * sizeof(double) + 1);
}

/* Bytes of n slots: their triangle and union boxes, patches, and the pairs
 * of their points. */
static size_t slot_bytes(size_t n)
{
    return n * (SLOT_FLOATS * sizeof(float) + sizeof(int)
                + PATCH * PATCH * K * (sizeof(int) + sizeof(float))
                + PATCH * PATCH * KE * (2 * sizeof(int) + sizeof(float)))
         + 6 * (n + MASK_BITS) * sizeof(float);
}

/* The slots there is room for at first: an eighth of the patches (more
 * grow them, doubling up to one per patch). */
static size_t first_slots(int P, int np)
{
    const size_t n = (size_t)P * (size_t)np / 8;
    return n > 64 ? n : 64;
}

size_t contact_create_bytes(int P, int M, int N)
{
    const int np = ((M + PATCH - 1) / PATCH) * ((N + PATCH - 1) / PATCH);
    return fixed_bytes(P, M, N) + slot_bytes(first_slots(P, np))
         + (size_t)P * (4 * RING_PAIRS_PER_RING + 1) * sizeof(int); /* pairs, neighbours */
}

size_t contact_heap_bytes(const contact_kernel *c)
{
    return fixed_bytes(c->P_cap, c->M, c->N) + slot_bytes(c->nslot)
         + (c->ring_pair_cap + c->nbr_cap) * sizeof(int)
         + c->by_tri_cap * sizeof(uint64_t) + c->fixed_cap * sizeof(pair_fixed)
         + (c->pts_cap + c->cand_cap + c->ecand_cap + 2 * c->pair_base_cap) * sizeof(int)
         + c->ckey_cap * sizeof(uint64_t)
         + c->act_cap * 7 * sizeof(int) + c->crec_cap * sizeof(corner_rec)
         + c->acc_cap * 2 * 4 * sizeof(float)
         + c->efix_cap * sizeof(edge_fixed) + c->ekey_cap * sizeof(uint64_t)
         + c->eacc_cap * 2 * 4 * sizeof(float)
         + (c->touch_cap + c->touch_prev_cap) * sizeof(ring_touch);
}

/* Each patch's lanes that are triangles of the mesh: all but where M or N
 * is not a multiple of PATCH (the last row or column of patches). */
static void lanes_of_patches(contact_kernel *c)
{
    for (int a = 0; a < c->pm; a++)
        for (int b = 0; b < c->pn; b++) {
            uint32_t on = 0;
            for (int j = 0; j < LANES; j++) {
                const int dm = j / PATCH % PATCH, dn = j % PATCH;
                if (a * PATCH + dm < c->M && b * PATCH + dn < c->N)
                    on |= (uint32_t)1 << j;
            }
            c->lane_on[a * c->pn + b] = on;
        }
}

/* Room for n slots: their triangle boxes, union boxes, patches and the
 * pairs of their points (contents rebuilt every substep, not kept). */
int contact_reserve_slots(contact_kernel *c, size_t n)
{
    if (n <= c->nslot && c->tbox)
        return 0;
    /* n at first, then doubling, but never past one slot per patch (every
     * patch on) */
    const size_t all = (size_t)c->P_cap * (size_t)c->np > 64 ? (size_t)c->P_cap * (size_t)c->np : 64;
    size_t cap = !c->tbox ? n : n > c->nslot ? n * 2 : c->nslot;
    cap = cap < all ? cap : all;
    const size_t places = cap * PATCH * PATCH * K;
    float *tbox = aligned_alloc(64, sizeof *tbox * SLOT_FLOATS * cap);
    float *ubox = calloc(6 * (cap + MASK_BITS), sizeof *ubox); /* zeros past the slots */
    int *slot_patch = malloc(sizeof *slot_patch * cap), *tri = malloc(sizeof *tri * places);
    float *wake = malloc(sizeof *wake * places);
    const size_t eplaces = cap * PATCH * PATCH * KE;
    int *pe_a = malloc(sizeof *pe_a * eplaces), *pe_b = malloc(sizeof *pe_b * eplaces);
    float *pe_wake = malloc(sizeof *pe_wake * eplaces);
    if (!tbox || !ubox || !slot_patch || !tri || !wake || !pe_a || !pe_b || !pe_wake) {
        free(tbox), free(ubox), free(slot_patch), free(tri), free(wake), free(pe_a), free(pe_b);
        free(pe_wake);
        return -1;
    }
    free(c->tbox), free(c->ubox), free(c->slot_patch), free(c->pt_tri), free(c->pt_wake);
    free(c->pe_a), free(c->pe_b), free(c->pe_wake);
    c->tbox = tbox, c->ubox = ubox, c->slot_patch = slot_patch, c->pt_tri = tri, c->pt_wake = wake;
    c->pe_a = pe_a, c->pe_b = pe_b, c->pe_wake = pe_wake;
    c->nslot = cap, c->ustride = cap + MASK_BITS;
    return 0;
}

contact_kernel *contact_create(int P, int M, int N)
{
    contact_kernel *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->P_cap = P, c->M = M, c->N = N, c->MN = M * N;
    size_t nv = (size_t)P * M * N;
    c->eoff = calloc((size_t)P + 1, sizeof *c->eoff);
    c->nbr_start = malloc(sizeof *c->nbr_start * ((size_t)P + 1));
    c->npt = calloc(nv, 1);
    c->nep = calloc(nv, 1);
    c->share = calloc(nv, sizeof *c->share);
    c->ring_pairs = calloc((size_t)P, sizeof *c->ring_pairs);
    c->ref = malloc(sizeof *c->ref * 3 * nv);
    c->ref_gap = calloc((size_t)P, sizeof *c->ref_gap);
    c->ref_extent = calloc((size_t)P, sizeof *c->ref_extent);
    c->ref_steps = malloc(sizeof *c->ref_steps * (size_t)P);
    c->fit = calloc(13 * (size_t)P, sizeof *c->fit);
    c->fresh = calloc((size_t)P, 1);
    c->rbox = malloc(sizeof *c->rbox * 6 * (size_t)P);
    c->self_on = calloc((size_t)P, 1);
    c->ring_on = calloc((size_t)P, 1);
    c->sweep = malloc(sizeof *c->sweep * (size_t)(P > 0 ? P : 1));
    /* room for 8 ring pairs per ring, so that frames do not allocate */
    c->ring_pair_cap = 2 * RING_PAIRS_PER_RING * (size_t)(P > 0 ? P : 1);
    c->ring_pair = malloc(sizeof *c->ring_pair * c->ring_pair_cap);
    c->nbr_cap = (2 * RING_PAIRS_PER_RING + 1) * (size_t)(P > 0 ? P : 1);
    c->nbr = malloc(sizeof *c->nbr * c->nbr_cap);
    c->fill = malloc(sizeof *c->fill * (size_t)(P > 0 ? P : 1));
    c->pm = (M + PATCH - 1) / PATCH, c->pn = (N + PATCH - 1) / PATCH, c->np = c->pm * c->pn;
    c->pbox = malloc(sizeof *c->pbox * 6 * (size_t)P * c->np);
    c->patch_on = calloc((size_t)P * c->np, 1);
    c->preach = malloc(sizeof *c->preach * 6 * (size_t)P * c->np);
    c->pslot = calloc((size_t)P + 1, sizeof *c->pslot);
    c->patch_slot = malloc(sizeof *c->patch_slot * ((size_t)P * c->np > 0 ? (size_t)P * c->np : 1));
    c->lane_on = malloc(sizeof *c->lane_on * (size_t)(c->np > 0 ? c->np : 1));
    if (!c->ref || !c->ref_gap || !c->ref_extent || !c->ref_steps || !c->fit || !c->fresh || !c->rbox
        || !c->self_on || !c->ring_on || !c->sweep || !c->fill || !c->ring_pair || !c->nbr || !c->pbox || !c->patch_on || !c->preach
        || !c->pslot || !c->patch_slot || !c->lane_on || contact_reserve_slots(c, first_slots(P, c->np))) {
        contact_free(c);
        return NULL;
    }
    for (int p = 0; p < P; p++)
        c->ref_steps[p] = -1;
    lanes_of_patches(c);
    if (!c->eoff || !c->nbr_start || !c->npt || !c->nep || !c->share || !c->ring_pairs) {
        contact_free(c);
        return NULL;
    }
    return c;
}

void contact_free(contact_kernel *c)
{
    if (!c)
        return;
    free(c->eoff); free(c->nbr_start); free(c->nbr);
    free(c->pslot); free(c->slot_patch); free(c->patch_slot); free(c->tbox); free(c->ubox);
    free(c->lane_on);
    free(c->npt); free(c->pt_tri); free(c->pt_wake); free(c->share); free(c->pair_base); free(c->pbase);
    free(c->pair_count); free(c->pcount);
    free(c->acc[0]); free(c->acc[1]); free(c->by_tri); free(c->fixed); free(c->crec);
    free(c->pts); free(c->cand); free(c->ckey); free(c->act); free(c->cbeg); free(c->cend);
    free(c->nep); free(c->pe_a); free(c->pe_b); free(c->pe_wake); free(c->ecand); free(c->efix);
    free(c->ekey); free(c->ebeg); free(c->eend); free(c->eacc[0]); free(c->eacc[1]);
    free(c->ring_pairs); free(c->touch); free(c->touch_prev);
    free(c->ref); free(c->ref_gap); free(c->ref_extent); free(c->fit); free(c->fresh); free(c->ref_steps);
    free(c->rbox); free(c->self_on);
    free(c->ring_on); free(c->sweep); free(c->fill); free(c->ring_pair); free(c->pbox); free(c->patch_on); free(c->preach);
    free(c);
}

int contact_grow(void **arr, size_t *cap, size_t need, size_t size)
{
    /* amortised: at least twice the need, so a growing scene reallocates rarely */
    if (need <= *cap)
        return 0;
    size_t n = need * 2 > 64 ? need * 2 : 64;
    void *q = realloc(*arr, n * size);
    if (!q)
        return -1;
    *arr = q, *cap = n;
    return 0;
}


int contact_grow_acc(float *acc[2], size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    for (int b = 0; b < 2; b++) {
        float *q = realloc(acc[b], sizeof *q * 4 * n * 2);
        if (!q)
            return -1;
        acc[b] = q;
    }
    *cap = n * 2;
    return 0;
}
