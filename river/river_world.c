/* The river world on top of the river's files: the design of the course,
 * building its tables, the lookup grid from (x, y) to channel coordinates,
 * rocks, drops and the view; the live change and spawning. Uses the frame
 * (river_frame.c), the flow (river_flow.c), the solids (river_solid.c) and
 * the definition's check (river_def.c); none of them calls back. */
#include "river/river_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* ---- the design: curvature, width, depth and surface as functions of s ---- */

typedef struct {
    double L, W, H, ld, lt;
    int nb;
    double bc[2], bhalf[2], bramp[2], bkap[2];
    int nd;
    double ds_[8], dh[8], fmax[8];
} design;

/* 1 on |s - c| <= half, smoothly down to 0 at half + ramp */
static double plateau(double s, double c, double half, double ramp)
{
    return river_s5((half + ramp - fabs(s - c)) / ramp);
}

static double d_kappa(const design *g, double s)
{
    double k = 0.0;
    for (int b = 0; b < g->nb; b++) k += g->bkap[b] * plateau(s, g->bc[b], g->bhalf[b], g->bramp[b]);
    return k;
}

static double d_width(const design *g, double s)
{
    double L = g->L;
    return g->W * (1.0 - 0.25 * plateau(s, 0.25 * L, 0.02 * L, 0.04 * L)
                        + 0.35 * plateau(s, 0.53 * L, 0.02 * L, 0.04 * L));
}

/* chute bump: rises just above the drop, holds through it, ends lt below */
static double chute(const design *g, double u)
{
    return 0.25 * (1.0 + tanh(u / g->ld + 1.0)) * (1.0 - tanh((u - g->lt) / g->ld));
}

static double d_depth(const design *g, double s)
{
    double f = 1.0;
    for (int j = 0; j < g->nd; j++) f += (g->fmax[j] - 1.0) * chute(g, s - g->ds_[j]);
    return g->H / f;
}

static double d_surface(const design *g, double s)
{
    double e = 0.0;
    for (int j = 0; j < g->nd; j++) e -= g->dh[j] * 0.5 * (1.0 + tanh((s - g->ds_[j]) / g->ld));
    return e;
}

static double deriv(const design *g, double (*f)(const design *, double), double s)
{
    const double h = 1e-3;
    return (f(g, s - 2 * h) - 8.0 * f(g, s - h) + 8.0 * f(g, s + h) - f(g, s + 2 * h)) / (12.0 * h);
}

int river_set_live(river_world *w, double speed, double waves)
{
    if (!(speed >= 0.0 && speed <= 8.0) || !(waves >= 0.0 && waves <= 1.0)) return -1;
    w->speed = speed;
    w->waves = waves;
    river_live_update(w);
    return 0;
}

/* ---- building ---- */

static int build_design(const river_def *d, design *g, uint64_t *rng, double lead)
{
    memset(g, 0, sizeof *g);
    g->L = d->length;
    g->W = d->width;
    g->H = d->depth;
    g->ld = d->drop_length;
    g->lt = 2.0 * d->drop_length + 1.0;
    double R = d->bend * d->width;
    double sign = river_rng_u(rng) < 0.5 ? 1.0 : -1.0;
    g->nb = 2;
    const double centre[2] = { 0.42, 0.76 };
    for (int b = 0; b < 2; b++) {
        double turn = (35.0 + 20.0 * river_rng_u(rng)) * PI / 180.0;
        double arc = turn * R;
        if (arc > 0.28 * g->L) arc = 0.28 * g->L;
        double ramp = fmin(6.0, 0.3 * arc);
        g->bc[b] = centre[b] * g->L;
        g->bramp[b] = ramp;
        g->bhalf[b] = 0.5 * (arc - ramp);
        g->bkap[b] = sign / R;
        sign = -sign;
    }
    (void)lead;
    g->nd = d->drops;
    double Ud = d->speed > 1.0 ? d->speed : 1.0;
    for (int j = 0; j < g->nd; j++) {
        g->ds_[j] = g->nd == 1 ? 0.6 * g->L : g->L * (0.36 + 0.5 * j / (g->nd - 1));
        g->dh[j] = d->drop_height;
        /* Bernoulli over the fall at the design speed: the chute thins so */
        g->fmax[j] = sqrt(1.0 + 2.0 * RIVER_G * g->dh[j] / (Ud * Ud));
    }
    return 0;
}

static int build_tables(river_world *w, const design *g, double pad)
{
    double L = g->L;
    w->s0 = -pad;
    w->ns = (int)ceil((L + 2.0 * pad) / RIVER_DS) + 1;
    w->st = calloc((size_t)w->ns, sizeof *w->st);
    if (!w->st) return -1;
    for (int i = 0; i < w->ns; i++) {
        double s = w->s0 + i * RIVER_DS;
        river_stn *p = &w->st[i];
        p->k = d_kappa(g, s);
        p->w = d_width(g, s);
        p->dw = deriv(g, d_width, s);
        p->h = d_depth(g, s);
        p->dh = deriv(g, d_depth, s);
        p->e = d_surface(g, s);
        p->de = deriv(g, d_surface, s);
    }
    double th = 0.0;
    w->st[0].x = w->st[0].y = 0.0;
    for (int i = 0; i < w->ns; i++) {
        river_stn *p = &w->st[i];
        p->dk = i + 1 < w->ns ? (w->st[i + 1].k - p->k) / RIVER_DS : 0.0;
        p->tx = cos(th);
        p->ty = sin(th);
        if (i + 1 < w->ns) {
            double X, Y, c, s;
            river_piece(p, RIVER_DS, &X, &Y, &c, &s);
            w->st[i + 1].x = p->x + p->tx * X - p->ty * Y;
            w->st[i + 1].y = p->y + p->ty * X + p->tx * Y;
            th += RIVER_DS * (p->k + 0.5 * p->dk * RIVER_DS);
        }
    }
    /* start (s = 0) at the origin, heading +x */
    double ox = w->st[(int)lround(pad / RIVER_DS)].x, oy = w->st[(int)lround(pad / RIVER_DS)].y;
    for (int i = 0; i < w->ns; i++) {
        w->st[i].x -= ox;
        w->st[i].y -= oy;
    }
    return 0;
}

static int build_grid(river_world *w)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < w->ns; i++) {
        x0 = fmin(x0, w->st[i].x); x1 = fmax(x1, w->st[i].x);
        y0 = fmin(y0, w->st[i].y); y1 = fmax(y1, w->st[i].y);
    }
    double m = w->reach + 2.0 * RIVER_CELL;
    w->gx0 = floor(x0 - m);
    w->gy0 = floor(y0 - m);
    w->gnx = (int)ceil((x1 + m - w->gx0) / RIVER_CELL);
    w->gny = (int)ceil((y1 + m - w->gy0) / RIVER_CELL);
    size_t nc = (size_t)w->gnx * (size_t)w->gny;
    w->grid = malloc(nc * sizeof *w->grid);
    float *best = malloc(nc * sizeof *best);
    if (!w->grid || !best) { free(best); return -1; }
    for (size_t c = 0; c < nc; c++) { w->grid[c] = -1; best[c] = INFINITY; }
    int r = (int)ceil(m / RIVER_CELL);
    for (int i = 0; i < w->ns; i++) {
        int ci = (int)((w->st[i].x - w->gx0) / RIVER_CELL), cj = (int)((w->st[i].y - w->gy0) / RIVER_CELL);
        for (int v = cj - r; v <= cj + r; v++) {
            if (v < 0 || v >= w->gny) continue;
            for (int u = ci - r; u <= ci + r; u++) {
                if (u < 0 || u >= w->gnx) continue;
                double cx = w->gx0 + (u + 0.5) * RIVER_CELL - w->st[i].x;
                double cy = w->gy0 + (v + 0.5) * RIVER_CELL - w->st[i].y;
                float d2 = (float)(cx * cx + cy * cy);
                size_t c = (size_t)v * w->gnx + u;
                if (d2 < best[c]) { best[c] = d2; w->grid[c] = i; }
            }
        }
    }
    /* cells out of reach take a neighbour's station (two raster sweeps) */
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < w->gnx * w->gny; k++) {
            int c = pass == 0 ? k : w->gnx * w->gny - 1 - k;
            if (w->grid[c] >= 0) continue;
            int u = c % w->gnx, v = c / w->gnx;
            int nb[4] = { u > 0 ? c - 1 : -1, u + 1 < w->gnx ? c + 1 : -1,
                          v > 0 ? c - w->gnx : -1, v + 1 < w->gny ? c + w->gnx : -1 };
            for (int q = 0; q < 4; q++)
                if (nb[q] >= 0 && w->grid[nb[q]] >= 0) { w->grid[c] = w->grid[nb[q]]; break; }
        }
    }
    for (size_t c = 0; c < nc; c++) if (w->grid[c] < 0) w->grid[c] = 0;
    free(best);
    return 0;
}

static double min_width(const river_world *w, double s0, double s1)
{
    double m = INFINITY, t;
    for (double s = s0; s <= s1 + 0.5 * RIVER_DS; s += RIVER_DS) m = fmin(m, w->st[river_piece_of(w, s, &t)].w);
    return m;
}

static int rock_cmp(const void *a, const void *b)
{
    const river_rock *p = a, *q = b;
    return (p->s > q->s) - (p->s < q->s);
}

/* wake geometry in radii: must match river_flow.c */
#define WAKE_X 2.0
#define REACH_A 4.2

static int place_rocks(river_world *w, const design *g, uint64_t *rng)
{
    const river_def *d = &w->def;
    w->rock = calloc((size_t)(d->rocks > 0 ? d->rocks : 1), sizeof *w->rock);
    if (!w->rock) return -1;
    double amax = fmin(0.65, 0.095 * d->width);
    int n = 0;
    for (int r = 0; r < d->rocks; r++) {
        for (int attempt = 0; attempt < 400; attempt++) {
            double a = amax * (0.6 + 0.4 * river_rng_u(rng));
            double R = REACH_A * a;
            double slo = w->lead + R + 1.0, shi = d->length - R - 1.0;
            double s = slo + (shi - slo) * river_rng_u(rng);
            double u = river_rng_u(rng);
            if (shi <= slo) break;
            int ok = 1;
            for (int j = 0; j < g->nd; j++)
                if (fabs(s - g->ds_[j]) < 2.0 * g->ld + R) ok = 0;
            if (!ok) continue;
            double nmax = 0.42 * min_width(w, s - R, s + R) - R;
            if (nmax < 0.0) continue;
            double nn = (2.0 * u - 1.0) * nmax;
            double c[2], t[2];
            river_curve_at(w, s, c, t);
            double x = c[0] - t[1] * nn, y = c[1] + t[0] * nn;
            for (int q = 0; q < n && ok; q++) {
                const river_rock *o = &w->rock[q];
                double dd = hypot(x - o->x, y - o->y);
                if (dd < fmax(R + o->a, o->reach + a) + 0.3) ok = 0;
            }
            if (!ok) continue;
            river_rock *k = &w->rock[n++];
            k->x = x; k->y = y; k->a = a; k->s = s; k->n = nn;
            k->tx = t[0]; k->ty = t[1]; k->reach = R;
            break;
        }
    }
    w->nrocks = n;
    qsort(w->rock, (size_t)n, sizeof *w->rock, rock_cmp);
    /* each rock's streamline value and wake strength from the flow the
       rocks upstream of it leave (they are applied in this order) */
    for (int r = 0; r < n; r++) {
        river_rock *k = &w->rock[r];
        river_frame f;
        river_frame_at(w, k->x, k->y, &f);
        double psi, gr[2];
        int rocky = 0;
        river_psi(w, &f, k->x, k->y, r, &psi, gr, &rocky);
        k->g_c = psi;
        double u1 = hypot(gr[0], gr[1]);   /* 2-D speed per unit Q */
        k->gam = 2.95 * k->a * u1;         /* upstream flow of half the stream on the wake axis */
        double p = 1.0 - pow(2.0 * f.n / f.w, 8.0);
        k->ufac = w->q1 * d->depth / (f.h * p) * u1;
        k->z = f.e;
        double gmin = INFINITY;
        for (int q = 0; q < 8; q++) {
            double ang = q * PI / 4;
            gmin = fmin(gmin, river_ground(w, k->x + k->a * cos(ang), k->y + k->a * sin(ang), NULL));
        }
        gmin = fmin(gmin, river_ground(w, k->x, k->y, NULL));
        k->zbot = gmin - k->a;
    }
    return 0;
}

static int rock_ranges(river_world *w)
{
    w->rock_lo = malloc((size_t)w->ns * sizeof(int));
    w->rock_hi = malloc((size_t)w->ns * sizeof(int));
    if (!w->rock_lo || !w->rock_hi) return -1;
    double amax = 0.0, rmax = 0.0;
    for (int r = 0; r < w->nrocks; r++) { amax = fmax(amax, w->rock[r].a); rmax = fmax(rmax, w->rock[r].reach); }
    double back = WAKE_X * amax + 16.0 + RIVER_DS, fwd = 1.5 * rmax + 1.0 + RIVER_DS;
    int lo = 0, hi = 0;
    for (int i = 0; i < w->ns; i++) {
        double s = w->s0 + i * RIVER_DS;
        while (lo < w->nrocks && w->rock[lo].s < s - back) lo++;
        while (hi < w->nrocks && w->rock[hi].s <= s + fwd) hi++;
        w->rock_lo[i] = lo;
        w->rock_hi[i] = hi < lo ? lo : hi;
    }
    return 0;
}

static void setup_chop(river_world *w, uint64_t *rng)
{
    static const double lambda[RIVER_CHOP_N] = { 1.3, 2.1, 3.3 };
    static const double dir[RIVER_CHOP_N] = { 0.0, 1.1, -1.3 };
    double sum = lambda[0] + lambda[1] + lambda[2];
    for (int c = 0; c < RIVER_CHOP_N; c++) {
        river_chop *h = &w->chop[c];
        double ang = dir[c] + 0.6 * (river_rng_u(rng) - 0.5);
        h->dx = cos(ang);
        h->dy = sin(ang);
        h->k = 2.0 * PI / lambda[c];
        h->omega = sqrt(RIVER_G * h->k);
        h->phase = 2.0 * PI * river_rng_u(rng);
        h->amp1 = w->def.chop * lambda[c] / sum;
    }
}

static int build_view(river_world *w, const design *g)
{
    const river_def *d = &w->def;
    int np = (int)ceil(d->length - 1e-9) + 1;
    w->vpoint = malloc((size_t)np * 3 * sizeof(double));
    w->vs = malloc((size_t)np * sizeof(double));
    w->vwidth = malloc((size_t)np * sizeof(double));
    w->vdepth = malloc((size_t)np * sizeof(double));
    w->vrock = malloc((size_t)(w->nrocks + 1) * 4 * sizeof(double));
    w->vdrop = malloc((size_t)(g->nd + 1) * sizeof(double));
    if (!w->vpoint || !w->vs || !w->vwidth || !w->vdepth || !w->vrock || !w->vdrop) return -1;
    for (int k = 0; k < np; k++) {
        double s = k < np - 1 ? (double)k : d->length;
        double c[2], t[2], tt;
        river_curve_at(w, s, c, t);
        river_frame f;
        int pi = river_piece_of(w, s, &tt);
        river_frame_fill(w, pi, tt, &f);
        w->vpoint[3 * k] = c[0];
        w->vpoint[3 * k + 1] = c[1];
        w->vpoint[3 * k + 2] = f.e;
        w->vs[k] = s;
        w->vwidth[k] = f.w;
        w->vdepth[k] = f.h;
    }
    for (int r = 0; r < w->nrocks; r++) {
        w->vrock[4 * r] = w->rock[r].x;
        w->vrock[4 * r + 1] = w->rock[r].y;
        w->vrock[4 * r + 2] = w->rock[r].z;
        w->vrock[4 * r + 3] = w->rock[r].a;
    }
    for (int j = 0; j < g->nd; j++) w->vdrop[j] = g->ds_[j];
    river_course *v = &w->view;
    v->count = np;
    v->point = w->vpoint;
    v->s = w->vs;
    v->width = w->vwidth;
    v->depth = w->vdepth;
    v->rock_count = w->nrocks;
    v->rock = w->vrock;
    v->drop_count = g->nd;
    v->drop_s = w->vdrop;
    v->length = d->length;
    v->bank_height = d->bank_height;
    return 0;
}

river_world *river_create(const river_def *d)
{
    if (!d || river_def_check(d, NULL, 0) != 0) return NULL;
    river_world *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->def = *d;
    w->speed = d->speed;
    w->waves = d->waves;
    w->q1 = d->width * 4.0 / 5.0;   /* g'(0) = 5/4 for k = 4: mid speed = Q / W * 5/4 */
    uint64_t rng = d->seed ^ 0x5249564552ull;  /* "RIVER" */
    w->lead = fmin(RIVER_LEAD_MAX, 0.2 * d->length);
    double R = d->bend * d->width;
    w->reach = fmin(0.5 * 1.35 * d->width + fmax(12.0, 3.0 * d->bank_height), 0.7 * R);
    design g;
    build_design(d, &g, &rng, w->lead);
    river_ein_init(w);
    if (build_tables(w, &g, ceil((w->reach + 10.0) / RIVER_DS) * RIVER_DS) != 0 || build_grid(w) != 0) goto fail;
    /* no rocks yet: empty ranges let river_psi run while placing them */
    w->nrocks = 0;
    if (rock_ranges(w) != 0) goto fail;
    if (place_rocks(w, &g, &rng) != 0) goto fail;
    free(w->rock_lo); free(w->rock_hi);
    w->rock_lo = w->rock_hi = NULL;
    if (rock_ranges(w) != 0) goto fail;
    /* drops */
    w->ndrops = g.nd;
    w->drop = calloc((size_t)(g.nd > 0 ? g.nd : 1), sizeof *w->drop);
    if (!w->drop) goto fail;
    for (int j = 0; j < g.nd; j++) {
        river_drop *p = &w->drop[j];
        p->s = g.ds_[j];
        p->height = g.dh[j];
        double tt;
        river_frame f;
        int pi = river_piece_of(w, p->s + g.lt + 4.0 * g.ld, &tt);
        river_frame_fill(w, pi, tt, &f);
        p->ufac = d->width * d->depth / (f.w * f.h);
    }
    setup_chop(w, &rng);
    if (build_view(w, &g) != 0) goto fail;
    river_live_update(w);
    return w;
fail:
    river_destroy(w);
    return NULL;
}

void river_destroy(river_world *w)
{
    if (!w) return;
    free(w->st);
    free(w->rock_lo);
    free(w->rock_hi);
    free(w->grid);
    free(w->rock);
    free(w->drop);
    free(w->vpoint);
    free(w->vs);
    free(w->vwidth);
    free(w->vdepth);
    free(w->vrock);
    free(w->vdrop);
    free(w);
}

void river_spawn_point(const river_world *w, uint64_t *rng, double clearance, double out[3])
{
    if (clearance < 0.0) clearance = 0.0;
    double s0 = fmin(2.0, 0.2 * w->lead), s1 = fmax(s0, w->lead - 2.0);
    double half = 0.5 * w->def.width;
    for (int attempt = 0; attempt < 64; attempt++) {
        double s = s0 + (s1 - s0) * river_rng_u(rng);
        double nn = (2.0 * river_rng_u(rng) - 1.0) * fmax(0.0, half - clearance);
        double c[2], t[2];
        river_curve_at(w, s, c, t);
        double x = c[0] - t[1] * nn, y = c[1] + t[0] * nn;
        river_frame f;
        river_frame_at(w, x, y, &f);
        if (river_solid_distance(w, x, y, f.e, NULL) >= clearance) {
            out[0] = x;
            out[1] = y;
            out[2] = f.e + clearance;
            return;
        }
    }
    /* no free place found: the centre line */
    double c[2], t[2];
    river_curve_at(w, 0.5 * (s0 + s1), c, t);
    out[0] = c[0];
    out[1] = c[1];
    out[2] = clearance;
}
