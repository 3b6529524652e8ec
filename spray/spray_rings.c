/* Spray against the rings: each ring's tube as the polyline of its row
 * centres (the mean of the N vertices of a segment) with the local tube
 * radius (the rows' mean vertex distance from their centre, interpolated
 * along each piece), rebuilt from the public state every step; a droplet
 * inside is moved out along the tube's normal and bounces off the skin.
 * Where a skin is squashed or pressed against another it is no round tube:
 * a droplet outside every tube but nearer a row's centre line than that
 * row's farthest vertex is tested against the skin's own triangles near
 * it (the closest one, and which side of it the droplet is) and moved out
 * through that triangle. */
#include "spray/spray_internal.h"

#include <math.h>

/* A droplet is put this far outside the surface it is pushed to, m: float
 * rounding of the stored position must not leave it inside. */
#define SKIN 1e-4
/* Push-outs per droplet and step: where the tubes of two pieces (or two
 * rings) meet, the way out of one can lead into the other. */
#define PUSH_PASSES 6

void spray_tubes_update(spray_tubes *t, const dinghy_sim *sim, int max_rows, int threads)
{
    int P = sim_ring_count(sim), M = sim_segments(sim), N = sim_sides(sim);
    int rings = P < max_rows / M ? P : max_rows / M;
    t->M = M;
    t->N = N;
    t->rings = rings;
    t->ignored = P - rings;
    sim_state_view st = sim_state(sim);
    t->skin = st;
    long rows = (long)rings * M;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long r = 0; r < rows; r++) {
        double c[3] = {0, 0, 0}, v[3] = {0, 0, 0}, rad = 0.0;
        size_t base = (size_t)r * (size_t)N;
        for (int n = 0; n < N; n++) {
            c[0] += st.x[base + n];
            c[1] += st.y[base + n];
            c[2] += st.z[base + n];
            v[0] += st.vx[base + n];
            v[1] += st.vy[base + n];
            v[2] += st.vz[base + n];
        }
        for (int k = 0; k < 3; k++) {
            c[k] /= N;
            t->row[4 * r + k] = (float)c[k];
            t->row_v[3 * r + k] = (float)(v[k] / N);
        }
        double far = 0.0;
        for (int n = 0; n < N; n++) {
            double d = sqrt((st.x[base + n] - c[0]) * (st.x[base + n] - c[0])
                            + (st.y[base + n] - c[1]) * (st.y[base + n] - c[1])
                            + (st.z[base + n] - c[2]) * (st.z[base + n] - c[2]));
            rad += d;
            far = d > far ? d : far;
        }
        t->row[4 * r + 3] = (float)(rad / N);
        t->row_max[r] = (float)far;
    }
    for (int p = 0; p < rings; p++) {
        const float *row = t->row + 4 * (size_t)p * M;
        double c[3] = {0, 0, 0}, reach = 0.0;
        for (int m = 0; m < M; m++)
            for (int k = 0; k < 3; k++)
                c[k] += row[4 * m + k] / M;
        for (int m = 0; m < M; m++) {
            const float *q = row + 4 * m;
            double d = sqrt((q[0] - c[0]) * (q[0] - c[0]) + (q[1] - c[1]) * (q[1] - c[1])
                            + (q[2] - c[2]) * (q[2] - c[2])) + t->row_max[(size_t)p * M + m];
            reach = d > reach ? d : reach;
        }
        for (int k = 0; k < 3; k++)
            t->bound[4 * p + k] = (float)c[k];
        t->bound[4 * p + 3] = (float)(reach + 0.01); /* a little over: float rounding */
    }
}

/* The deepest tube piece p lies in: depth (m, > 0 inside), the point on
 * the centre line, the tube radius and the skin's velocity there. */
typedef struct {
    double depth, centre[3], radius, v[3];
    int ring, row;
} tube_hit;

static void deepest_piece(const spray_tubes *t, int ring, const double p[3], tube_hit *best)
{
    const int M = t->M;
    const float *row = t->row + 4 * (size_t)ring * M, *rv = t->row_v + 3 * (size_t)ring * M;
    for (int m = 0; m < M; m++) {
        const float *a = row + 4 * m, *b = row + 4 * ((m + 1) % M);
        double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
        double len2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
        double s = len2 > 0.0 ? (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / len2 : 0.0;
        s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
        double q[3] = {a[0] + s * ab[0], a[1] + s * ab[1], a[2] + s * ab[2]};
        double d = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1])
                        + (p[2] - q[2]) * (p[2] - q[2]));
        double r = a[3] + s * (b[3] - a[3]);
        if (r - d > best->depth) {
            const float *va = rv + 3 * m, *vb = rv + 3 * ((m + 1) % M);
            best->depth = r - d;
            best->radius = r;
            for (int k = 0; k < 3; k++) {
                best->centre[k] = q[k];
                best->v[k] = va[k] + s * (vb[k] - va[k]);
            }
            best->ring = ring;
            best->row = m;
        }
    }
}

/* Moves p to the surface along the normal from the centre line and
 * reflects its velocity relative to the skin: normal part times
 * -restitution, tangential part times (1 - friction). */
static void bounce(const spray_tubes *t, const tube_hit *h, double p[3], double v[3],
                   double restitution, double friction)
{
    double n[3] = {p[0] - h->centre[0], p[1] - h->centre[1], p[2] - h->centre[2]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len < 1e-9) { /* on the centre line: out away from the ring's centre */
        const float *c = t->bound + 4 * h->ring;
        for (int k = 0; k < 3; k++)
            n[k] = h->centre[k] - c[k];
        len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len < 1e-9) {
            n[0] = n[1] = 0.0;
            n[2] = len = 1.0;
        }
    }
    double u[3], un = 0.0;
    for (int k = 0; k < 3; k++) {
        n[k] /= len;
        p[k] = h->centre[k] + (h->radius + SKIN) * n[k];
        u[k] = v[k] - h->v[k];
        un += u[k] * n[k];
    }
    if (un >= 0.0)
        return; /* already leaving the skin */
    for (int k = 0; k < 3; k++) {
        double ut = u[k] - un * n[k];
        v[k] = h->v[k] + (1.0 - friction) * ut - restitution * un * n[k];
    }
}

/* The point of triangle abc closest to p (Ericson, Real-Time Collision
 * Detection, 5.1.5), into q. */
static void closest_on_triangle(const double p[3], const double a[3], const double b[3],
                                const double c[3], double q[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int k = 0; k < 3; k++) {
        ab[k] = b[k] - a[k];
        ac[k] = c[k] - a[k];
        ap[k] = p[k] - a[k];
        bp[k] = p[k] - b[k];
        cp[k] = p[k] - c[k];
    }
#define DOT3(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])
    double d1 = DOT3(ab, ap), d2 = DOT3(ac, ap), d3 = DOT3(ab, bp), d4 = DOT3(ac, bp);
    double d5 = DOT3(ab, cp), d6 = DOT3(ac, cp);
#undef DOT3
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2, u, w;
    if (d1 <= 0.0 && d2 <= 0.0)
        u = 0.0, w = 0.0; /* vertex a */
    else if (d3 >= 0.0 && d4 <= d3)
        u = 1.0, w = 0.0; /* vertex b */
    else if (d6 >= 0.0 && d5 <= d6)
        u = 0.0, w = 1.0; /* vertex c */
    else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
        u = d1 / (d1 - d3), w = 0.0; /* edge ab */
    else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
        u = 0.0, w = d2 / (d2 - d6); /* edge ac */
    else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6)); /* edge bc */
        u = 1.0 - w;
    } else {
        double den = 1.0 / (va + vb + vc);
        u = vb * den;
        w = vc * den;
    }
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + u * ab[k] + w * ac[k];
}

static void vertex_at(const sim_state_view *st, size_t i, double out[3])
{
    out[0] = st->x[i];
    out[1] = st->y[i];
    out[2] = st->z[i];
}

/* The skin of ring `ring` against p near row m: the closest point of the
 * triangles of rows m-1 .. m+1 (two outward ones a quad, as the core's
 * mesh) into h->centre, and h->depth > 0 when p is inside (behind that
 * triangle), with its unit outward normal in n. */
static void skin_near_row(const spray_tubes *t, int ring, int m, const double p[3], tube_hit *h,
                          double n[3])
{
    const int M = t->M, N = t->N;
    double best = INFINITY;
    h->depth = -1.0;
    for (int dm = -1; dm <= 1; dm++)
        for (int j = 0; j < N; j++) {
            int r0 = (m + dm + M) % M, r1 = (r0 + 1) % M, j1 = (j + 1) % N;
            size_t base = (size_t)ring * M * N;
            size_t q[4] = {base + (size_t)r0 * N + j, base + (size_t)r1 * N + j,
                           base + (size_t)r1 * N + j1, base + (size_t)r0 * N + j1};
            double v[4][3];
            for (int k = 0; k < 4; k++)
                vertex_at(&t->skin, q[k], v[k]);
            for (int tri = 0; tri < 2; tri++) {
                const double *a = v[0], *b = v[1 + tri], *c = v[2 + tri];
                double on[3];
                closest_on_triangle(p, a, b, c, on);
                double d2 = (p[0] - on[0]) * (p[0] - on[0]) + (p[1] - on[1]) * (p[1] - on[1])
                            + (p[2] - on[2]) * (p[2] - on[2]);
                if (d2 >= best)
                    continue;
                double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
                double f[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                               e1[0] * e2[1] - e1[1] * e2[0]};
                double len = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
                if (len < 1e-12)
                    continue;
                /* outward: away from the row's centre line */
                const float *rc = t->row + 4 * ((size_t)ring * M + r0);
                double out = (a[0] - rc[0]) * f[0] + (a[1] - rc[1]) * f[1] + (a[2] - rc[2]) * f[2];
                double sgn = out < 0.0 ? -1.0 : 1.0, side = 0.0;
                for (int k = 0; k < 3; k++) {
                    n[k] = sgn * f[k] / len;
                    side += (p[k] - on[k]) * n[k];
                }
                best = d2;
                h->depth = -side; /* > 0 behind the triangle: inside */
                for (int k = 0; k < 3; k++)
                    h->centre[k] = on[k];
                const float *rv = t->row_v + 3 * ((size_t)ring * M + r0);
                for (int k = 0; k < 3; k++)
                    h->v[k] = rv[k];
            }
        }
}

/* The ring skin p is deepest inside, among those whose tubes it is not
 * in: 1 with the hit and its outward normal n, or 0. */
static int inside_a_skin(const spray_tubes *t, const double p[3], tube_hit *best, double n[3])
{
    const int M = t->M;
    best->depth = 0.0;
    best->ring = -1;
    for (int ring = 0; ring < t->rings; ring++) {
        const float *bd = t->bound + 4 * ring;
        double d2 = (p[0] - bd[0]) * (p[0] - bd[0]) + (p[1] - bd[1]) * (p[1] - bd[1])
                    + (p[2] - bd[2]) * (p[2] - bd[2]);
        if (d2 >= (double)bd[3] * bd[3])
            continue;
        /* the row whose centre line is nearest, and whether p is within its farthest vertex */
        int near_m = -1;
        double near_d = INFINITY;
        const float *row = t->row + 4 * (size_t)ring * M;
        for (int m = 0; m < M; m++) {
            const float *c = row + 4 * m;
            double d = sqrt((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1])
                            + (p[2] - c[2]) * (p[2] - c[2]));
            if (d < near_d && d < t->row_max[(size_t)ring * M + m] * 1.5) {
                near_d = d;
                near_m = m;
            }
        }
        if (near_m < 0)
            continue;
        tube_hit h;
        double hn[3] = {0.0, 0.0, 1.0};
        skin_near_row(t, ring, near_m, p, &h, hn);
        if (h.depth > best->depth) {
            *best = h;
            best->ring = ring;
            best->row = near_m;
            for (int k = 0; k < 3; k++)
                n[k] = hn[k];
        }
    }
    return best->ring >= 0;
}

/* Moves p out through the skin's triangle (to its closest point, SKIN
 * outside along the normal n) and bounces v off it as bounce does. */
static void bounce_off_skin(const tube_hit *h, const double n[3], double p[3], double v[3],
                            double restitution, double friction)
{
    double u[3], un = 0.0;
    for (int k = 0; k < 3; k++) {
        p[k] = h->centre[k] + SKIN * n[k];
        u[k] = v[k] - h->v[k];
        un += u[k] * n[k];
    }
    if (un >= 0.0)
        return;
    for (int k = 0; k < 3; k++)
        v[k] = h->v[k] + (1.0 - friction) * (u[k] - un * n[k]) - restitution * un * n[k];
}

int spray_tubes_push(const spray_tubes *t, double p[3], double v[3], double restitution,
                     double friction)
{
    int touched = 0;
    for (int pass = 0; pass < PUSH_PASSES; pass++) {
        tube_hit best = {0.0, {0, 0, 0}, 0.0, {0, 0, 0}, -1, -1};
        for (int ring = 0; ring < t->rings; ring++) {
            const float *b = t->bound + 4 * ring;
            double d2 = (p[0] - b[0]) * (p[0] - b[0]) + (p[1] - b[1]) * (p[1] - b[1])
                        + (p[2] - b[2]) * (p[2] - b[2]);
            if (d2 < (double)b[3] * b[3])
                deepest_piece(t, ring, p, &best);
        }
        if (best.ring >= 0) {
            bounce(t, &best, p, v, restitution, friction);
            touched = 1;
            continue;
        }
        double n[3] = {0.0, 0.0, 1.0};
        if (!inside_a_skin(t, p, &best, n))
            return touched;
        bounce_off_skin(&best, n, p, v, restitution, friction);
        touched = 1;
    }
    tube_hit last;
    double n[3];
    return inside_a_skin(t, p, &last, n) ? SPRAY_TRAPPED : touched;
}
