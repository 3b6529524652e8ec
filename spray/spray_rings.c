/* Spray against the rings: each ring's tube as the polyline of its row
 * centres (the mean of the N vertices of a segment) with the local tube
 * radius (the rows' mean vertex distance from their centre, interpolated
 * along each piece), rebuilt from the public state every step; a droplet
 * inside is moved out along the tube's normal and bounces off the skin. */
#include "spray/spray_internal.h"

#include <math.h>

/* A droplet is put this far outside the surface it is pushed to, m: float
 * rounding of the stored position must not leave it inside. */
#define SKIN 1e-4
/* Push-outs per droplet and step: where the tubes of two pieces (or two
 * rings) meet, the way out of one can lead into the other. */
#define PUSH_PASSES 4

void spray_tubes_update(spray_tubes *t, const dinghy_sim *sim, int max_rows, int threads)
{
    int P = sim_ring_count(sim), M = sim_segments(sim), N = sim_sides(sim);
    int rings = P < max_rows / M ? P : max_rows / M;
    t->M = M;
    t->rings = rings;
    t->ignored = P - rings;
    sim_state_view st = sim_state(sim);
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
        for (int n = 0; n < N; n++)
            rad += sqrt((st.x[base + n] - c[0]) * (st.x[base + n] - c[0])
                        + (st.y[base + n] - c[1]) * (st.y[base + n] - c[1])
                        + (st.z[base + n] - c[2]) * (st.z[base + n] - c[2]));
        t->row[4 * r + 3] = (float)(rad / N);
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
                            + (q[2] - c[2]) * (q[2] - c[2])) + q[3];
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
        if (best.ring < 0)
            return touched;
        bounce(t, &best, p, v, restitution, friction);
        touched = 1;
    }
    return touched;
}
