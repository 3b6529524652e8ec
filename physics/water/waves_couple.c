/* The wave layer in a simulation: making it as the definition says
 * (waves_follow_def, sim_enable_waves), keeping it (checkpoints), the rows'
 * displaced volumes and their changes fed to it each step, and the waves
 * at a row for its water plane; see waves_couple.h. */
#include "physics/water/waves_couple.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/water/water_rows.h"
#include "physics/water/waves.h"

void waves_coupling_free(waves_coupling *c)
{
    if (!c)
        return;
    waves_destroy(c->layer);
    free(c->now);
    free(c->before);
    free(c->where);
    free(c->outward);
    free(c->plane);
    free(c->slot);
    free(c->generation);
    free(c->read);
    free(c->print);
    free(c);
}

/* A coupling of a new layer over the simulation's water (its river or
 * its still water), with room for every row of its capacity, its kernel
 * the layer like's when that fits (NULL: fitted); NULL with err when the
 * definition fails or memory runs out. */
static waves_coupling *coupling_new(const dinghy_sim *s, const waves_field *like, char *err,
                                    size_t err_len)
{
    waves_coupling *c = calloc(1, sizeof *c);
    const size_t rows = (size_t)s->cap * (size_t)s->M;
    if (c) {
        c->rows = rows;
        c->now = calloc(rows, sizeof *c->now);
        c->before = calloc(rows, sizeof *c->before);
        c->where = calloc(2 * rows, sizeof *c->where);
        c->outward = calloc(2 * rows, sizeof *c->outward);
        c->plane = calloc(3 * rows, sizeof *c->plane);
        c->slot = malloc(rows * sizeof *c->slot);
        c->generation = calloc(rows, sizeof *c->generation);
        c->read = malloc(rows * sizeof *c->read);
        c->print = malloc(2 * rows * sizeof *c->print);
    }
    if (!c || !c->now || !c->before || !c->where || !c->outward || !c->plane || !c->slot
        || !c->generation || !c->read || !c->print) {
        waves_coupling_free(c);
        snprintf(err, err_len, "out of memory for the wave layer's rows");
        return NULL;
    }
    for (size_t r = 0; r < rows; r++) {
        c->slot[r] = -1;
        c->read[r] = NAN;
    }
    if (!(c->layer = waves_create_like(&s->def.world.waves, s->river, like, err, err_len))) {
        waves_coupling_free(c);
        return NULL;
    }
    return c;
}

void waves_coupling_reset(waves_coupling *c)
{
    waves_reset(c->layer);
    for (size_t r = 0; r < c->rows; r++) {
        c->slot[r] = -1;
        c->read[r] = NAN;
    }
}

int waves_follow_def(dinghy_sim *s, int rebuild, char *err, size_t err_len)
{
    const int on = s->def.world.waves_enabled, had = s->waves != NULL;
    waves_coupling *old = s->waves; /* kept until the new layer has its kernel */
    if (!on || rebuild)
        s->waves = NULL;
    int rc = 0;
    if (on && !s->waves && !(s->waves = coupling_new(s, old ? old->layer : NULL, err, err_len))) {
        s->def.world.waves_enabled = 0;
        rc = -1;
    }
    if (old != s->waves)
        waves_coupling_free(old);
    if (s->waves)
        waves_set_damping(s->waves->layer, s->def.world.waves.damping);
    if (rebuild || had != (s->waves != NULL)) /* the rows' water with the new layer, or none */
        for (size_t r = 0; r < s->nrows; r++)
            water_sample_row(s, r);
    return rc;
}

int sim_enable_waves(dinghy_sim *s, const waves_def *def, char *err, size_t err_len)
{
    s->def.world.waves = *def;
    s->def.world.waves_enabled = 1;
    return waves_follow_def(s, 1, err, err_len);
}

void sim_disable_waves(dinghy_sim *s)
{
    s->def.world.waves_enabled = 0;
    waves_follow_def(s, 0, NULL, 0);
}

/* The coupling's per-row arrays a step reads: where each lies and its
 * bytes a row. */
#define ROW_ARRAYS 6
static void row_arrays(const waves_coupling *c, void *at[ROW_ARRAYS], size_t size[ROW_ARRAYS])
{
    at[0] = c->before, size[0] = sizeof *c->before;
    at[1] = c->where, size[1] = 2 * sizeof *c->where;
    at[2] = c->outward, size[2] = 2 * sizeof *c->outward;
    at[3] = c->slot, size[3] = sizeof *c->slot;
    at[4] = c->generation, size[4] = sizeof *c->generation;
    at[5] = c->read, size[5] = sizeof *c->read;
}

size_t waves_coupling_bytes(const waves_coupling *c)
{
    void *at[ROW_ARRAYS];
    size_t size[ROW_ARRAYS], n = waves_state_bytes(c->layer);
    row_arrays(c, at, size);
    for (int k = 0; k < ROW_ARRAYS; k++)
        n += size[k] * c->rows;
    return n;
}

void waves_coupling_save(const waves_coupling *c, unsigned char *out)
{
    void *at[ROW_ARRAYS];
    size_t size[ROW_ARRAYS];
    row_arrays(c, at, size);
    waves_state_save(c->layer, out);
    out += waves_state_bytes(c->layer);
    for (int k = 0; k < ROW_ARRAYS; k++) {
        memcpy(out, at[k], size[k] * c->rows);
        out += size[k] * c->rows;
    }
}

void waves_coupling_load(waves_coupling *c, const unsigned char *in)
{
    void *at[ROW_ARRAYS];
    size_t size[ROW_ARRAYS];
    row_arrays(c, at, size);
    waves_state_load(c->layer, in);
    in += waves_state_bytes(c->layer);
    for (int k = 0; k < ROW_ARRAYS; k++) {
        memcpy(at[k], in, size[k] * c->rows);
        in += size[k] * c->rows;
    }
}

const waves_field *sim_waves(const dinghy_sim *s)
{
    return s->waves ? s->waves->layer : NULL;
}

waves_field *sim_waves_layer(dinghy_sim *s)
{
    return s->waves ? s->waves->layer : NULL;
}

/* The water column over a face's wet part, m^3: minus the integral over
 * it of depth times n_z dA, the depth linear over the face (da, db, dc at
 * its corners (a, b, c); > 0 under water). The wet part of a face with
 * one corner i wet is the triangle (x_i, I_ij, I_ik), I at t_j = d_i /
 * (d_i - d_j) along its edges, over which the integral is t_j t_k A d_i /
 * 3; with one corner dry it is the whole face's A (da + db + dc) / 3 less
 * the same over the dry corner's triangle. Every case worked out and the
 * face's one chosen, without a branch: the row's faces go 4 at a time
 * (a case not chosen may divide by 0; its lane is dropped). */
static inline double face_column(double ax, double ay, double bx, double by, double cx,
                                 double cy, double da, double db, double dc)
{
    const int wa = da > 0.0, wb = db > 0.0, wc = dc > 0.0, wet = wa + wb + wc;
    /* the z component of the area vector (b - a) x (c - a) / 2, m^2 */
    const double az = 0.5 * ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    const double whole = (da + db + dc) / 3.0;
    /* the odd corner out: the lone wet one (wet = 1) or the lone dry one */
    const int odd_a = wet == 1 ? wa : !wa, odd_b = wet == 1 ? wb : !wb;
    const double di = odd_a ? da : odd_b ? db : dc;
    const double dj = odd_a ? db : odd_b ? dc : da, dk = odd_a ? dc : odd_b ? da : db;
    const double part = di / (di - dj) * (di / (di - dk)) * di / 3.0;
    const double cut = wet == 3 ? whole : wet == 1 ? part : whole - part;
    return wet == 0 ? 0.0 : -az * cut;
}

/* Row m of ring p: its centre, the mean of its vertices' x and y, m. */
static void row_centre(const dinghy_sim *s, size_t p, int m, double centre[2])
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = p * s->V + (size_t)m * (size_t)s->N;
    double cx = 0.0, cy = 0.0;
    for (int n = 0; n < s->N; n++) {
        cx += b->x[v0 + (size_t)n];
        cy += b->y[v0 + (size_t)n];
    }
    centre[0] = cx / s->N;
    centre[1] = cy / s->N;
}

/* The prescribed water as row r sees it: its water plane less what the
 * waves added to it at its last sample; the height (m) at (x, y) is
 * base + (sx - wx) (x - px) + (sy - wy) (y - py) less the waves' base,
 * worked out as water_height_at and the waves' plane would, term by term
 * (the same bits), with the row's numbers fetched once. */
typedef struct {
    int still;                 /* no river: the level */
    double level;
    double eta, sx, sy, px, py; /* the row's water plane (water_height_at) */
    const double *waves;       /* what the waves added: height and slope */
} row_water;

static row_water prescribed(const dinghy_sim *s, size_t r)
{
    const tick_context *t = s->tick;
    return (row_water){.still = !s->river, .level = s->def.world.water.level,
                       .eta = t->weta[r], .sx = t->wsx[r], .sy = t->wsy[r], .px = t->wpx[r],
                       .py = t->wpy[r], .waves = s->waves->plane + 3 * r};
}

static double prescribed_height(const row_water *p, double x, double y)
{
    if (p->still)
        return p->level;
    const double *w = p->waves;
    return (p->eta + p->sx * (x - p->px) + p->sy * (y - p->py))
         - (w[0] + w[1] * (x - p->px) + w[2] * (y - p->py));
}

/* Row r's displaced volume, m^3: each vertex's depth below the prescribed
 * water (the row's plane without the waves: the rings' own waves must not
 * feed what they displace) once (its two rings of N), then the 2N faces. */
static double row_volume(const dinghy_sim *s, size_t r)
{
    const sim_buffer *b = &s->buf[s->cur];
    const int M = s->M, N = s->N, m = (int)(r % (size_t)M);
    const size_t ring = (r / (size_t)M) * s->V;
    const size_t first[2] = {ring + (size_t)m * N, ring + (size_t)((m + 1) % M) * N};
    const row_water water = prescribed(s, r);
    /* per ring of N vertices: x, y and the depth, vertex N again the first */
    double x[2][N + 1], y[2][N + 1], d[2][N + 1], face[2 * N];
    int wet = 0;
    for (int k = 0; k < 2; k++) {
        for (int n = 0; n < N; n++) {
            const size_t i = first[k] + (size_t)n;
            x[k][n] = b->x[i];
            y[k][n] = b->y[i];
            d[k][n] = prescribed_height(&water, x[k][n], y[k][n]) - (double)b->z[i];
            wet |= d[k][n] > 0.0;
        }
        x[k][N] = x[k][0], y[k][N] = y[k][0], d[k][N] = d[k][0];
    }
    if (!wet)
        return 0.0;
    /* the quad's two outward faces: (m,n) (m+1,n) (m+1,n+1), (m,n) (m+1,n+1) (m,n+1) */
    for (int n = 0; n < N; n++) {
        face[2 * n] = face_column(x[0][n], y[0][n], x[1][n], y[1][n], x[1][n + 1], y[1][n + 1],
                                  d[0][n], d[1][n], d[1][n + 1]);
        face[2 * n + 1] = face_column(x[0][n], y[0][n], x[1][n + 1], y[1][n + 1], x[0][n + 1],
                                      y[0][n + 1], d[0][n], d[1][n + 1], d[0][n + 1]);
    }
    double v = 0.0; /* in the faces' order */
    for (int k = 0; k < 2 * N; k++)
        v += face[k];
    return v;
}

void waves_row_volumes(const dinghy_sim *s, double *vol, int threads)
{
    const long rows = (long)s->nrows;
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : 1)
    for (long r = 0; r < rows; r++)
        vol[r] = row_volume(s, (size_t)r);
}

/* Adds volume beside row r, whose centre is at c, half on each side of
 * the tube along u (the unit horizontal from the ring's centre to c);
 * the two spreads into kept[0], kept[1] (NULL: not kept). */
static void add_beside(const dinghy_sim *s, waves_field *layer, const double c[2],
                       const double u[2], double volume, waves_print *kept)
{
    const double off = WAVES_BESIDE * s->def.ring.minor_radius;
    const double spread = WAVES_SPREAD * s->def.ring.minor_radius;
    waves_add_volume_kept(layer, c[0] + off * u[0], c[1] + off * u[1], spread, 0.5 * volume,
                          kept);
    waves_add_volume_kept(layer, c[0] - off * u[0], c[1] - off * u[1], spread, 0.5 * volume,
                          kept ? kept + 1 : NULL);
}

/* Asks for the layer's cells ring p will use (round where its rows were
 * at the last step), while the ring before it is fed: the layer is
 * cold by then, the tick's step having run since. */
static void prefetch_ring(const dinghy_sim *s, const waves_coupling *c, size_t p)
{
    const size_t M = (size_t)s->M, r = p * M;
    if (r + M > s->nrows || r + M > c->rows)
        return;
    const double *a = c->where + 2 * r, *b = c->where + 2 * (r + M / 2);
    const double x = 0.5 * (a[0] + b[0]), y = 0.5 * (a[1] + b[1]);
    const double reach = 0.5 * hypot(a[0] - b[0], a[1] - b[1])
                       + (WAVES_BESIDE + WAVES_SPREAD) * s->def.ring.minor_radius;
    waves_prefetch(c->layer, x, y, reach);
}

/* Row r's group: its first row and how many (WAVES_GROUP consecutive
 * rows of a ring, fewer at a ring's last when M is not a multiple). */
static size_t group_of(const dinghy_sim *s, size_t r, size_t *count)
{
    const size_t M = (size_t)s->M, m = r % M, first = r - m % WAVES_GROUP;
    const size_t end = r - m + M; /* one division: the ring's rows end there */
    *count = first + WAVES_GROUP < end ? WAVES_GROUP : end - first;
    return first;
}

/* After the layer's step: each group of rows whose water went in by
 * spreads it kept reads the waves by them (waves_row_height's mean, the
 * same number), the rest NaN (groups in parallel: each on its own). */
static void read_rows(dinghy_sim *s, waves_coupling *c)
{
    const long rows = (long)(s->nrows < c->rows ? s->nrows : c->rows);
    const waves_field *layer = c->layer;
#pragma omp parallel for schedule(static) num_threads(s->step_threads > 0 ? s->step_threads : 1)
    for (long r = 0; r < rows; r++) {
        size_t k;
        if (group_of(s, (size_t)r, &k) != (size_t)r)
            continue; /* its group's first row reads for it */
        const waves_print *p = c->print + 2 * r;
        const double read = p[0].rows > 0 && p[1].rows > 0
                                ? 0.5 * (waves_print_mean(layer, &p[0]) + waves_print_mean(layer, &p[1]))
                                : NAN;
        for (size_t q = (size_t)r; q < (size_t)r + k && q < (size_t)rows; q++)
            c->read[q] = read;
    }
}

/* The centres of ring p's M rows into rows (2 each), and the ring's
 * centre, the mean of its rows', into c, m. */
static void ring_centre(const dinghy_sim *s, int p, double *rows, double c[2])
{
    double mx = 0.0, my = 0.0;
    for (int m = 0; m < s->M; m++) {
        double *cm = rows + 2 * m;
        row_centre(s, (size_t)p, m, cm);
        mx += cm[0];
        my += cm[1];
    }
    c[0] = mx / s->M;
    c[1] = my / s->M;
}

/* The unit horizontal from a ring's centre g to a row's centre c; x when
 * they coincide. */
static void outward(const double g[2], const double c[2], double u[2])
{
    const double dx = c[0] - g[0], dy = c[1] - g[1], l = hypot(dx, dy);
    u[0] = l > 0.0 ? dx / l : 1.0;
    u[1] = l > 0.0 ? dy / l : 0.0;
}

/* Group [r, r + k) of a ring (rows m .. of it, their centres now at
 * centres, 2 each; the ring's centre at ring): its change of displaced
 * volume into the layer, and what the next step needs of it kept. */
static void feed_group(dinghy_sim *s, waves_coupling *c, double dt, size_t r, size_t k,
                       const double *centres, const double ring[2])
{
    /* the group's centre, volume now and at the last step, and its
     * centre then: its rows', summed in order */
    double centre[2] = {0.0, 0.0}, from[2] = {0.0, 0.0}, now = 0.0, before = 0.0, u[2];
    for (size_t q = r; q < r + k; q++) {
        centre[0] += centres[2 * (q - r)];
        centre[1] += centres[2 * (q - r) + 1];
        from[0] += c->where[2 * q];
        from[1] += c->where[2 * q + 1];
        now += c->now[q];
        before += c->before[q];
    }
    for (int d = 0; d < 2; d++) {
        centre[d] /= (double)k;
        from[d] /= (double)k;
    }
    outward(ring, centre, u);
    /* what it displaced at the last step taken away where the current
     * has carried it since, what it displaces now put where it is: a
     * change of volume, a move (a wake), or both; a ring not seen
     * here before starts from what it displaces */
    for (size_t q = r; q < r + k; q++)
        c->print[2 * q].rows = c->print[2 * q + 1].rows = 0;
    if (waves_row_seen(s, c, r) && (before != 0.0 || now != 0.0)) {
        waves_carry(c->layer, dt, &from[0], &from[1]);
        add_beside(s, c->layer, from, c->outward + 2 * r, -before, NULL);
        add_beside(s, c->layer, centre, u, now, c->print + 2 * r);
    }
    /* the ring's id, as sim_ring_id_at gives it: its slot and generation */
    const int slot = s->ring_slot[r / (size_t)s->M];
    for (size_t q = r; q < r + k; q++) {
        c->slot[q] = slot;
        c->generation[q] = s->slot_gen[slot];
        c->outward[2 * q] = u[0];
        c->outward[2 * q + 1] = u[1];
        c->before[q] = c->now[q];
        c->where[2 * q] = centres[2 * (q - r)];
        c->where[2 * q + 1] = centres[2 * (q - r) + 1];
    }
}

void waves_couple_step(dinghy_sim *s, double dt)
{
    waves_coupling *c = s->waves;
    if (!c)
        return;
    waves_row_volumes(s, c->now, s->step_threads);
    const size_t M = (size_t)s->M, n = s->nrows < c->rows ? s->nrows : c->rows;
    double ring[2], rows[2 * s->M];
    /* ring by ring, a group of WAVES_GROUP rows at a time (fewer at a
     * ring's last when M is not a multiple) */
    for (size_t p = 0; p * M < n; p++) {
        ring_centre(s, (int)p, rows, ring);
        prefetch_ring(s, c, p + 1);
        for (size_t m = 0; m < M && p * M + m < n; m += WAVES_GROUP) {
            const size_t r = p * M + m;
            size_t k = m + WAVES_GROUP < M ? WAVES_GROUP : M - m;
            k = r + k > n ? n - r : k;
            feed_group(s, c, dt, r, k, rows + 2 * m, ring);
        }
    }
    waves_step(c->layer, dt, s->def.world.gravity, s->step_threads);
    read_rows(s, c);
}
