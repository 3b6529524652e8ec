/* Vertices inside another ring's closed skin: found by the winding number,
 * pushed out; see push_out.h. */
#include "physics/contact/push_out.h"

#include "physics/contact/pair_law.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FOUR_PI (4.0 * 3.14159265358979323846)
/* Slack of the segment hulls' tests against float round-off of their
 * bounds, m: a point this close to a hull is taken as in it. */
#define HULL_SLACK 1e-5
/* Room made at once for the rings whose boxes meet a ring's, per ring (as
 * the contact's ring pairs: a crowd's neighbours, each pair listed twice). */
#define RESERVED_CANDIDATES 16
/* Room made at once for the vertices found inside another skin, per ring
 * (a step allocates nothing until more are). */
#define RESERVED_HITS 8

/* Ring q's segment m (rows m and m+1): the box and the cylinder holding
 * its 2N vertices; the row centres are in push_out_work.centre. */
typedef struct {
    float lo[3], hi[3];     /* box, m */
    double a[3], u[3];      /* axis: row m's centre and the unit direction to row m+1's */
    double t0, t1, rho2;    /* the vertices' extent along the axis (m) and largest
                               squared distance from it (m^2) */
} segment_hull;

/* A ring in the sweep: its box's low x (m) and its index. */
typedef struct {
    float x;
    int ring;
} sweep_entry;

typedef struct {
    push_out_hit *hit;
    size_t n, cap;
} hit_list;

/* One pair of rings with vertices inside each other, while applying. */
typedef struct {
    int a, b;      /* rings, a < b */
    double n[3];   /* the way a leaves b: the sum of a's hits' u times their depth,
                      less b's hits' (not yet normalised) */
    double depth;  /* the deepest hit's depth, m */
    double weight; /* the sum of the hits' depths, m */
} ring_pair;

struct push_out_work {
    int P, M, N;            /* the sizes of the last find */
    int cap;                /* rings the per-ring arrays have room for */
    float *box;             /* per ring: lo x y z, hi x y z, m */
    sweep_entry *order;       /* rings sorted by box lo x, then index */
    int *cand, *cand_start; /* per ring: the rings whose boxes meet its own, ascending */
    size_t cand_cap;
    unsigned char *needed;  /* per ring: another ring may hold a vertex of it in its skin */
    segment_hull *seg;      /* per ring: M segments */
    double *centre;         /* per ring: M row centres, 3 each, m */
    hit_list *hits;         /* per ring */
    push_out_hit *all;      /* the hits in order after a find */
    size_t all_n, all_cap;
    int *share;             /* per vertex: the records it is in (apply), zero between */
    size_t share_cap;
    double *impulse;        /* per hit (then per pair): J, N s */
    ring_pair *pair;        /* the pairs of rings the hits name */
    size_t impulse_cap;     /* of both */
    int oom;
};

push_out_work *push_out_new(void) { return calloc(1, sizeof(push_out_work)); }

static void free_arrays(push_out_work *w)
{
    free(w->box);
    free(w->order);
    free(w->cand_start);
    free(w->needed);
    free(w->seg);
    free(w->centre);
    if (w->hits)
        for (int p = 0; p < w->cap; p++)
            free(w->hits[p].hit);
    free(w->hits);
    w->box = NULL, w->order = NULL, w->cand_start = NULL, w->needed = NULL;
    w->seg = NULL, w->centre = NULL, w->hits = NULL;
}

void push_out_free(push_out_work *w)
{
    if (!w)
        return;
    free_arrays(w);
    free(w->cand);
    free(w->all);
    free(w->share);
    free(w->impulse);
    free(w->pair);
    free(w);
}

/* Bytes of the per-ring arrays for P rings of M segments. */
static size_t fixed_bytes(size_t P, int M)
{
    return sizeof(push_out_work)
         + P * (6 * sizeof(float) + sizeof(sweep_entry) + sizeof(int) + 1 + sizeof(hit_list))
         + sizeof(int) + P * (size_t)M * (sizeof(segment_hull) + 3 * sizeof(double));
}

size_t push_out_bytes(const push_out_work *w)
{
    size_t b = fixed_bytes((size_t)w->cap, w->M) + w->cand_cap * sizeof(int) + w->all_cap * sizeof(push_out_hit)
             + w->share_cap * sizeof(int) + w->impulse_cap * (sizeof(double) + sizeof *w->pair);
    if (w->hits)
        for (int p = 0; p < w->cap; p++)
            b += w->hits[p].cap * sizeof(push_out_hit);
    return b;
}

size_t push_out_reserve_bytes(int rings, int M, int N)
{
    size_t P = rings > 0 ? (size_t)rings : 0;
    return fixed_bytes(P, M) + RESERVED_CANDIDATES * P * sizeof(int)
         + RESERVED_HITS * P * (2 * sizeof(push_out_hit) + sizeof(double) + sizeof(ring_pair))
         + P * (size_t)M * (size_t)N * sizeof(int);
}

/* The per-ring arrays for `rings` rings of M x N; 0, or -1 out of memory. */
static int reserve(push_out_work *w, int rings, int M, int N)
{
    free_arrays(w);
    w->cap = rings, w->M = M, w->N = N;
    size_t P = (size_t)rings, PM = P * (size_t)M;
    w->box = malloc(6 * P * sizeof *w->box);
    w->order = malloc(P * sizeof *w->order);
    w->cand_start = malloc((P + 1) * sizeof *w->cand_start);
    w->needed = malloc(P);
    w->seg = malloc(PM * sizeof *w->seg);
    w->centre = malloc(3 * PM * sizeof *w->centre);
    w->hits = calloc(P, sizeof *w->hits);
    int fail = !w->hits;
    for (size_t p = 0; p < P && !fail; p++) {
        fail = !(w->hits[p].hit = malloc(RESERVED_HITS * sizeof(push_out_hit)));
        w->hits[p].cap = fail ? 0 : RESERVED_HITS;
    }
    free(w->cand), free(w->all), free(w->share), free(w->impulse), free(w->pair);
    w->cand_cap = RESERVED_CANDIDATES * P;
    w->all_cap = w->impulse_cap = RESERVED_HITS * P;
    w->share_cap = P * (size_t)M * (size_t)N;
    w->cand = malloc(w->cand_cap * sizeof *w->cand);
    w->all = malloc(w->all_cap * sizeof *w->all);
    w->share = calloc(w->share_cap, sizeof *w->share);
    w->impulse = malloc(w->impulse_cap * sizeof *w->impulse);
    w->pair = malloc(w->impulse_cap * sizeof *w->pair);
    if (!w->cand)
        w->cand_cap = 0;
    if (!w->all)
        w->all_cap = 0;
    if (!w->share)
        w->share_cap = 0;
    if (!w->impulse || !w->pair) {
        free(w->impulse), free(w->pair);
        w->impulse = NULL, w->pair = NULL, w->impulse_cap = 0;
    }
    if (fail || !w->box || !w->order || !w->cand_start || !w->needed || !w->seg || !w->centre
        || !w->cand || !w->all || !w->share || !w->impulse) {
        free_arrays(w);
        w->cap = 0;
        return -1;
    }
    return 0;
}

push_out_work *push_out_create(int rings, int M, int N)
{
    push_out_work *w = push_out_new();
    if (w && reserve(w, rings, M, N) != 0) {
        push_out_free(w);
        return NULL;
    }
    return w;
}

/* Room for a mesh of these sizes (grown only when it has more rings or
 * another grid); 0, or -1 out of memory. */
static int fit_sizes(push_out_work *w, const push_out_mesh *m)
{
    if (!(w->box && m->P <= w->cap && w->M == m->M && w->N == m->N)
        && reserve(w, m->P, m->M, m->N) != 0)
        return -1;
    w->P = m->P;
    return 0;
}

/* Plain comparisons: fminf and fmaxf are library calls here, 2% of a
 * 1-thread rapids step. A NaN second argument is skipped, as fminf skips
 * it (a NaN state is a blow-up the tick reports anyway). */
static inline float lesser(float a, float b) { return b < a ? b : a; }
static inline float greater(float a, float b) { return b > a ? b : a; }

static void ring_box(const push_out_mesh *m, int p, float b[6])
{
    const size_t V = (size_t)m->M * m->N, v0 = (size_t)p * V;
    float lo[3] = {m->x[v0], m->y[v0], m->z[v0]}, hi[3] = {lo[0], lo[1], lo[2]};
    for (size_t i = v0; i < v0 + V; i++) {
        lo[0] = lesser(lo[0], m->x[i]), hi[0] = greater(hi[0], m->x[i]);
        lo[1] = lesser(lo[1], m->y[i]), hi[1] = greater(hi[1], m->y[i]);
        lo[2] = lesser(lo[2], m->z[i]), hi[2] = greater(hi[2], m->z[i]);
    }
    for (int k = 0; k < 3; k++)
        b[k] = lo[k], b[3 + k] = hi[k];
}

static int by_lo_x(const void *a, const void *b)
{
    const sweep_entry *i = a, *j = b;
    return i->x < j->x ? -1 : i->x > j->x ? 1 : (i->ring > j->ring) - (i->ring < j->ring);
}

static int boxes_meet(const float *a, const float *b)
{
    return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5]
        && b[2] <= a[5];
}

static int ascending(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    return (i > j) - (i < j);
}

/* The sweep: each ring's list of rings whose boxes meet its own,
 * ascending (serial). 0, or -1 out of memory. */
static int candidates(push_out_work *w)
{
    const int P = w->P;
    for (int p = 0; p < P; p++)
        w->order[p] = (sweep_entry){w->box[6 * p], p};
    qsort(w->order, (size_t)P, sizeof *w->order, by_lo_x);
    memset(w->cand_start, 0, (size_t)(P + 1) * sizeof *w->cand_start);
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        for (int a = 0; a < P; a++) {
            const int i = w->order[a].ring;
            const float *bi = w->box + 6 * i;
            for (int b = a + 1; b < P && w->order[b].x <= bi[3]; b++) {
                const int j = w->order[b].ring;
                if (!boxes_meet(bi, w->box + 6 * j))
                    continue;
                if (pass == 0) {
                    w->cand_start[i + 1]++, w->cand_start[j + 1]++;
                } else {
                    w->cand[w->cand_start[i]++] = j;
                    w->cand[w->cand_start[j]++] = i;
                }
            }
        }
        if (pass == 0) {
            for (int p = 0; p < P; p++)
                w->cand_start[p + 1] += w->cand_start[p];
            size_t need = (size_t)w->cand_start[P];
            if (need > w->cand_cap) { /* grown by doubling: seldom */
                size_t cap = w->cand_cap ? w->cand_cap : 1;
                while (cap < need)
                    cap *= 2;
                int *c = realloc(w->cand, cap * sizeof *c);
                if (!c)
                    return -1;
                w->cand = c, w->cand_cap = cap;
            }
        } else { /* the fill moved each start to its end: shift back */
            for (int p = P; p > 0; p--)
                w->cand_start[p] = w->cand_start[p - 1];
            w->cand_start[0] = 0;
        }
    }
    for (int p = 0; p < P; p++) {
        const int count = w->cand_start[p + 1] - w->cand_start[p];
        w->needed[p] = count > 0;
        if (count > 1)
            qsort(w->cand + w->cand_start[p], (size_t)count, sizeof(int), ascending);
    }
    return 0;
}

/* Ring q's row centres and segment hulls. */
static void ring_hulls(push_out_work *w, const push_out_mesh *m, int q)
{
    const int M = m->M, N = m->N;
    const size_t v0 = (size_t)q * M * N;
    double *g = w->centre + 3 * (size_t)q * M;
    for (int r = 0; r < M; r++) {
        double c[3] = {0.0, 0.0, 0.0};
        for (int n = 0; n < N; n++) {
            size_t i = v0 + (size_t)r * N + n;
            c[0] += m->x[i], c[1] += m->y[i], c[2] += m->z[i];
        }
        for (int k = 0; k < 3; k++)
            g[3 * r + k] = c[k] / N;
    }
    for (int r = 0; r < M; r++) {
        segment_hull *h = w->seg + (size_t)q * M + r;
        const double *a = g + 3 * r, *b = g + 3 * ((r + 1) % M);
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++)
            h->a[k] = a[k], h->u[k] = l > 0.0 ? d[k] / l : (k == 0);
        h->t0 = INFINITY, h->t1 = -INFINITY, h->rho2 = 0.0;
        for (int k = 0; k < 3; k++)
            h->lo[k] = INFINITY, h->hi[k] = -INFINITY;
        for (int s = 0; s < 2; s++)
            for (int n = 0; n < N; n++) {
                size_t i = v0 + (size_t)((r + s) % M) * N + n;
                float x[3] = {m->x[i], m->y[i], m->z[i]};
                double e[3] = {x[0] - a[0], x[1] - a[1], x[2] - a[2]};
                double t = e[0] * h->u[0] + e[1] * h->u[1] + e[2] * h->u[2];
                h->t0 = fmin(h->t0, t), h->t1 = fmax(h->t1, t);
                h->rho2 = fmax(h->rho2, e[0] * e[0] + e[1] * e[1] + e[2] * e[2] - t * t);
                for (int k = 0; k < 3; k++)
                    h->lo[k] = lesser(h->lo[k], x[k]), h->hi[k] = greater(h->hi[k], x[k]);
            }
    }
}

/* 1 when the point may be in the segment's hull. */
static int in_hull(const segment_hull *h, const double p[3])
{
    for (int k = 0; k < 3; k++)
        if (p[k] < h->lo[k] - HULL_SLACK || p[k] > h->hi[k] + HULL_SLACK)
            return 0;
    double e[3] = {p[0] - h->a[0], p[1] - h->a[1], p[2] - h->a[2]};
    double t = e[0] * h->u[0] + e[1] * h->u[1] + e[2] * h->u[2];
    if (t < h->t0 - HULL_SLACK || t > h->t1 + HULL_SLACK)
        return 0;
    double rho = sqrt(h->rho2) + HULL_SLACK;
    return e[0] * e[0] + e[1] * e[1] + e[2] * e[2] - t * t <= rho * rho;
}

/* Signed solid angle of the triangle a b c (relative to the point), sr:
 * Van Oosterom and Strackee, as physics/contact/inside.c. */
static double solid_angle(const double a[3], const double b[3], const double c[3])
{
    double la = sqrt(DOT(a, a)), lb = sqrt(DOT(b, b)), lc = sqrt(DOT(c, c));
    double bxc[3] = {b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2],
                     b[0] * c[1] - b[1] * c[0]};
    double den = la * lb * lc + DOT(a, b) * lc + DOT(a, c) * lb + DOT(b, c) * la;
    return 2.0 * atan2(DOT(a, bxc), den);
}

/* Vertex (row, n) of ring q relative to p. */
static void rel(const push_out_mesh *m, size_t v0, int row, int n, const double p[3], double o[3])
{
    size_t i = v0 + (size_t)(row % m->M) * m->N + (size_t)(n % m->N);
    o[0] = m->x[i] - p[0], o[1] = m->y[i] - p[1], o[2] = m->z[i] - p[2];
}

/* Winding number about p of ring q's segment r closed by its two caps. */
static double segment_winding(const push_out_work *w, const push_out_mesh *m, int q, int r,
                              const double p[3])
{
    const int N = m->N;
    const size_t v0 = (size_t)q * m->M * N;
    const double *ga = w->centre + 3 * ((size_t)q * m->M + r);
    const double *gb = w->centre + 3 * ((size_t)q * m->M + (r + 1) % m->M);
    double ca[3] = {ga[0] - p[0], ga[1] - p[1], ga[2] - p[2]};
    double cb[3] = {gb[0] - p[0], gb[1] - p[1], gb[2] - p[2]};
    double sum = 0.0;
    for (int n = 0; n < N; n++) {
        double a0[3], a1[3], b0[3], b1[3];
        rel(m, v0, r, n, p, a0);
        rel(m, v0, r, n + 1, p, a1);
        rel(m, v0, r + 1, n, p, b0);
        rel(m, v0, r + 1, n + 1, p, b1);
        sum += solid_angle(a0, b0, b1) + solid_angle(a0, b1, a1); /* the band */
        sum += solid_angle(ca, a0, a1) + solid_angle(cb, b1, b0); /* the caps */
    }
    return sum / FOUR_PI;
}

/* The corners (vertex indices within the ring) of triangle t of an M x N ring. */
static void triangle_corners(int M, int N, int t, int c[3])
{
    int quad = t / 2, mm = quad / N, n = quad % N, m1 = (mm + 1) % M, n1 = (n + 1) % N;
    c[0] = mm * N + n;
    c[1] = t % 2 ? m1 * N + n1 : m1 * N + n;
    c[2] = t % 2 ? mm * N + n1 : m1 * N + n1;
}

/* The nearest point of ring q's skin to p: triangle, weights, point, way out. */
static void nearest_on_skin(const push_out_mesh *m, int q, const double p[3], push_out_hit *h)
{
    const size_t v0 = (size_t)q * m->M * m->N;
    double best = INFINITY;
    for (int t = 0; t < 2 * m->M * m->N; t++) {
        int c[3];
        double x[3][3], wt[3], d2 = 0.0;
        triangle_corners(m->M, m->N, t, c);
        for (int k = 0; k < 3; k++) {
            size_t i = v0 + (size_t)c[k];
            x[k][0] = m->x[i], x[k][1] = m->y[i], x[k][2] = m->z[i];
        }
        closest_point(p, x[0], x[1], x[2], wt);
        double qp[3];
        for (int k = 0; k < 3; k++) {
            qp[k] = wt[0] * x[0][k] + wt[1] * x[1][k] + wt[2] * x[2][k];
            d2 += (qp[k] - p[k]) * (qp[k] - p[k]);
        }
        if (d2 < best) {
            best = d2;
            h->tri = t;
            for (int k = 0; k < 3; k++)
                h->w[k] = wt[k], h->q[k] = qp[k];
            if (d2 > 0.0) {
                double l = sqrt(d2);
                for (int k = 0; k < 3; k++)
                    h->u[k] = (qp[k] - p[k]) / l;
            } else { /* on the skin: its outward normal */
                double e1[3], e2[3];
                for (int k = 0; k < 3; k++)
                    e1[k] = x[1][k] - x[0][k], e2[k] = x[2][k] - x[0][k];
                double nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                                e1[0] * e2[1] - e1[1] * e2[0]};
                double l = sqrt(DOT(nn, nn));
                for (int k = 0; k < 3; k++)
                    h->u[k] = l > 0.0 ? nn[k] / l : (k == 2);
            }
        }
    }
}

static int add_hit(hit_list *l, const push_out_hit *h)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        push_out_hit *a = realloc(l->hit, cap * sizeof *a);
        if (!a)
            return -1;
        l->hit = a, l->cap = cap;
    }
    l->hit[l->n++] = *h;
    return 0;
}

/* Ring p's vertices inside the rings whose boxes meet its own. */
static int ring_hits(push_out_work *w, const push_out_mesh *m, int p)
{
    const int M = m->M, V = M * m->N;
    hit_list *l = &w->hits[p];
    l->n = 0;
    for (int i = 0; i < V; i++) {
        const size_t gi = (size_t)p * V + i;
        const double pt[3] = {m->x[gi], m->y[gi], m->z[gi]};
        for (int c = w->cand_start[p]; c < w->cand_start[p + 1]; c++) {
            const int q = w->cand[c];
            const float *b = w->box + 6 * q;
            if (pt[0] < b[0] || pt[0] > b[3] || pt[1] < b[1] || pt[1] > b[4] || pt[2] < b[2]
                || pt[2] > b[5])
                continue;
            double wn = 0.0;
            for (int r = 0; r < M; r++)
                if (in_hull(&w->seg[(size_t)q * M + r], pt))
                    wn += segment_winding(w, m, q, r, pt);
            if (wn > 0.5) {
                push_out_hit h = {.ring = p, .vertex = i, .other = q, .winding = wn,
                                  .p = {pt[0], pt[1], pt[2]}};
                nearest_on_skin(m, q, pt, &h);
                h.depth = sqrt((h.q[0] - pt[0]) * (h.q[0] - pt[0]) + (h.q[1] - pt[1]) * (h.q[1] - pt[1])
                               + (h.q[2] - pt[2]) * (h.q[2] - pt[2]));
                if (add_hit(l, &h) != 0)
                    return -1;
                break; /* the lowest ring holding it */
            }
        }
    }
    return 0;
}

long push_out_find(push_out_work *w, const push_out_mesh *m, int threads)
{
    w->all_n = 0;
    if (m->P < 2)
        return 0;
    if (fit_sizes(w, m) != 0)
        return -1;
    const int P = m->P;
    if (threads < 1)
        threads = 1;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int p = 0; p < P; p++)
        ring_box(m, p, w->box + 6 * p);
    if (candidates(w) != 0)
        return -1;
    int oom = 0;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic, 1)
        for (int q = 0; q < P; q++)
            if (w->needed[q])
                ring_hulls(w, m, q);
#pragma omp for schedule(dynamic, 1) reduction(| : oom)
        for (int p = 0; p < P; p++) {
            w->hits[p].n = 0;
            if (w->needed[p] && ring_hits(w, m, p) != 0)
                oom = 1;
        }
    }
    if (oom)
        return -1;
    size_t n = 0;
    for (int p = 0; p < P; p++)
        n += w->hits[p].n;
    if (n > w->all_cap) {
        push_out_hit *a = realloc(w->all, n * sizeof *a);
        if (!a)
            return -1;
        w->all = a, w->all_cap = n;
    }
    for (int p = 0; p < P; p++) {
        if (w->hits[p].n)
            memcpy(w->all + w->all_n, w->hits[p].hit, w->hits[p].n * sizeof *w->all);
        w->all_n += w->hits[p].n;
    }
    return (long)w->all_n;
}

const push_out_hit *push_out_hits(const push_out_work *w, long *count)
{
    *count = (long)w->all_n;
    return w->all;
}

/* Each hit's vertex and its nearest triangle's corners, as global indices. */
static void hit_vertices(const push_out_mesh *m, const push_out_hit *h, size_t g[4])
{
    const size_t V = (size_t)m->M * m->N;
    int c[3];
    triangle_corners(m->M, m->N, h->tri, c);
    g[0] = (size_t)h->ring * V + (size_t)h->vertex;
    for (int k = 0; k < 3; k++)
        g[k + 1] = (size_t)h->other * V + (size_t)c[k];
}


/* The vertex impulses, all from the velocities before any, and the moves. */
static void push_vertices(push_out_work *w, const push_out_mesh *m, const push_out_state *st)
{
    const size_t n = w->all_n;
    for (size_t k = 0; k < n; k++) { /* each vertex's mass split among its records */
        size_t g[4];
        hit_vertices(m, &w->all[k], g);
        w->share[g[0]]++;
        for (int c = 0; c < 3; c++)
            w->share[g[c + 1]] += w->all[k].w[c] > 0.0;
    }
    for (size_t k = 0; k < n; k++) {
        const push_out_hit *h = &w->all[k];
        size_t g[4];
        hit_vertices(m, h, g);
        double vr[3] = {st->vx[g[0]], st->vy[g[0]], st->vz[g[0]]}, inv = w->share[g[0]];
        for (int c = 0; c < 3; c++) {
            vr[0] -= h->w[c] * st->vx[g[c + 1]];
            vr[1] -= h->w[c] * st->vy[g[c + 1]];
            vr[2] -= h->w[c] * st->vz[g[c + 1]];
            if (h->w[c] > 0.0)
                inv += h->w[c] * h->w[c] * w->share[g[c + 1]];
        }
        double vn = DOT(vr, h->u); /* < 0: going deeper into the other ring */
        w->impulse[k] = vn < 0.0 ? -vn * st->mass / inv : 0.0;
    }
    for (size_t k = 0; k < n; k++) {
        const push_out_hit *h = &w->all[k];
        size_t g[4];
        hit_vertices(m, h, g);
        const double dv = w->impulse[k] / st->mass;
        st->vx[g[0]] = (float)(st->vx[g[0]] + dv * h->u[0]);
        st->vy[g[0]] = (float)(st->vy[g[0]] + dv * h->u[1]);
        st->vz[g[0]] = (float)(st->vz[g[0]] + dv * h->u[2]);
        for (int c = 0; c < 3; c++) {
            st->vx[g[c + 1]] = (float)(st->vx[g[c + 1]] - h->w[c] * dv * h->u[0]);
            st->vy[g[c + 1]] = (float)(st->vy[g[c + 1]] - h->w[c] * dv * h->u[1]);
            st->vz[g[c + 1]] = (float)(st->vz[g[c + 1]] - h->w[c] * dv * h->u[2]);
        }
        /* out onto the other skin when shallow; a deeper one waits for
         * the rings to part */
        if (h->depth <= st->max_move) {
            st->x[g[0]] = (float)(h->q[0] + st->thickness * h->u[0]);
            st->y[g[0]] = (float)(h->q[1] + st->thickness * h->u[1]);
            st->z[g[0]] = (float)(h->q[2] + st->thickness * h->u[2]);
        }
    }
    for (size_t k = 0; k < n; k++) { /* zero the shares again */
        size_t g[4];
        hit_vertices(m, &w->all[k], g);
        for (int c = 0; c < 4; c++)
            w->share[g[c]] = 0;
    }
}

/* The pairs of rings the hits deeper than h name (m), in the order they
 * first appear: within h of the other skin the vertex alone is put out,
 * its ring is not moved (a ring pressed by a crowd has such vertices). */
static size_t gather_pairs(push_out_work *w, double h_min)
{
    size_t np = 0;
    for (size_t k = 0; k < w->all_n; k++) {
        const push_out_hit *h = &w->all[k];
        if (!(h->depth > h_min))
            continue;
        int a = h->ring < h->other ? h->ring : h->other, b = h->ring ^ h->other ^ a;
        double sign = h->ring == a ? 1.0 : -1.0;
        size_t i = 0;
        while (i < np && (w->pair[i].a != a || w->pair[i].b != b))
            i++;
        if (i == np)
            w->pair[np++] = (ring_pair){a, b, {0.0, 0.0, 0.0}, 0.0, 0.0};
        for (int c = 0; c < 3; c++)
            w->pair[i].n[c] += sign * h->depth * h->u[c];
        w->pair[i].depth = fmax(w->pair[i].depth, h->depth);
        w->pair[i].weight += h->depth;
    }
    return np;
}

/* A ring's mean velocity (m/s) and mean position (m). */
static void ring_motion(const push_out_mesh *m, const push_out_state *st, int p, double v[3],
                        double x[3])
{
    const size_t V = (size_t)m->M * m->N, v0 = (size_t)p * V;
    v[0] = v[1] = v[2] = x[0] = x[1] = x[2] = 0.0;
    for (size_t i = v0; i < v0 + V; i++) {
        v[0] += st->vx[i], v[1] += st->vy[i], v[2] += st->vz[i];
        x[0] += st->x[i], x[1] += st->y[i], x[2] += st->z[i];
    }
    for (int c = 0; c < 3; c++)
        v[c] /= (double)V, x[c] /= (double)V;
}

/* Each pair of rings parted as wholes along n (the hits' depth-weighted
 * ways out plus, with their total depth, the direction between the
 * rings' centres): their approach along n stopped
 * (an impulse J n on every vertex of one ring and -J n on the other's,
 * each ring's mass split among its pairs: restitution 0), and both moved
 * apart along n, rigidly, by half of min(depth, max_speed dt) each. */
static void part_rings(push_out_work *w, const push_out_mesh *m, const push_out_state *st,
                       size_t np)
{
    const size_t V = (size_t)m->M * m->N;
    const double ring_mass = st->mass * (double)V;
    for (size_t i = 0; i < np; i++) {
        ring_pair *r = &w->pair[i];
        double va[3], vb[3], xa[3], xb[3];
        ring_motion(m, st, r->a, va, xa);
        ring_motion(m, st, r->b, vb, xb);
        /* where the ways out cancel (tubes through each other along their
         * length), the line between the centres decides */
        double e[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]}, le = sqrt(DOT(e, e));
        for (int c = 0; c < 3; c++)
            r->n[c] += le > 0.0 ? r->weight * e[c] / le : 0.0;
        double l = sqrt(DOT(r->n, r->n));
        for (int c = 0; c < 3; c++)
            r->n[c] = l > 0.0 ? r->n[c] / l : 0.0;
        int ca = 0, cb = 0; /* pairs each ring is in */
        for (size_t j = 0; j < np; j++) {
            ca += w->pair[j].a == r->a || w->pair[j].b == r->a;
            cb += w->pair[j].a == r->b || w->pair[j].b == r->b;
        }
        double vn = (va[0] - vb[0]) * r->n[0] + (va[1] - vb[1]) * r->n[1] + (va[2] - vb[2]) * r->n[2];
        w->impulse[i] = vn < 0.0 ? -vn * ring_mass / (ca + cb) : 0.0;
    }
    for (size_t i = 0; i < np; i++) {
        const ring_pair *r = &w->pair[i];
        const double dv = w->impulse[i] / ring_mass;
        const double dx = 0.5 * fmin(r->depth, st->max_speed * st->dt);
        for (int side = 0; side < 2; side++) {
            const size_t v0 = (size_t)(side ? r->b : r->a) * V;
            const double sv = side ? -dv : dv, sx = side ? -dx : dx;
            for (size_t k = v0; k < v0 + V; k++) {
                st->vx[k] = (float)(st->vx[k] + sv * r->n[0]);
                st->vy[k] = (float)(st->vy[k] + sv * r->n[1]);
                st->vz[k] = (float)(st->vz[k] + sv * r->n[2]);
                st->x[k] = (float)(st->x[k] + sx * r->n[0]);
                st->y[k] = (float)(st->y[k] + sx * r->n[1]);
                st->z[k] = (float)(st->z[k] + sx * r->n[2]);
            }
        }
    }
}

int push_out_apply(push_out_work *w, const push_out_mesh *m, const push_out_state *st)
{
    const size_t n = w->all_n, nv = (size_t)m->P * m->M * m->N;
    if (n == 0)
        return 0;
    if (nv > w->share_cap) {
        int *s = calloc(nv, sizeof *s);
        if (!s)
            return -1;
        free(w->share);
        w->share = s, w->share_cap = nv;
    }
    if (n > w->impulse_cap) {
        double *j = realloc(w->impulse, n * sizeof *j);
        ring_pair *q = j ? realloc(w->pair, n * sizeof *q) : NULL;
        if (j)
            w->impulse = j;
        if (!q)
            return -1;
        w->pair = q, w->impulse_cap = n;
    }
    push_vertices(w, m, st);
    part_rings(w, m, st, gather_pairs(w, st->thickness));
    return 0;
}
