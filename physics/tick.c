/* The parallel tick.
 *
 * Work is cut into rows: one row is one segment (N vertices) of one dinghy,
 * so even a single dinghy splits across threads. Every phase is a gather:
 * each thread computes the force on the rows it owns from the state it
 * reads, and writes only those rows of the next buffer. Every sum runs in
 * a fixed order (springs by offset, neighbours by dinghy index), so the
 * result does not depend on how rows are shared among threads.
 *
 * Phases, with barriers only where data flows between threads:
 *   centres    segment centres, then dinghy centres       | barrier
 *   broadphase bin, sort, count, reserve, fill            | barriers
 *   contacts   repulsion on each segment from neighbours  \
 *   springs    B x B neighbourhood + across-tube           | same static row
 *   pressure   constant inflation from segment centres     | split: no barrier
 *   integrate  gravity, buoyancy, damping, symplectic Euler/
 *              then per dinghy: contact starts and splashes (events)
 */
#include "tick.h"

#include <math.h>
#include <omp.h>
#include <string.h>

/* Closest gap the repulsion law is evaluated at (physics.md section 1), m. */
#define MIN_GAP 0.01f

size_t tick_scratch_floats(int N, int B)
{
    return 3 * (size_t)(N + 2 * (B / 2));
}

/* f += k (|d| - L) d/|d| for `count` vertices against their neighbours. */
static void spring_run(const float *restrict x, const float *restrict y, const float *restrict z,
                       const float *restrict nx, const float *restrict ny, const float *restrict nz,
                       const float *restrict rest, float k,
                       float *restrict fx, float *restrict fy, float *restrict fz, int count)
{
    for (int n = 0; n < count; n++) {
        float dx = nx[n] - x[n], dy = ny[n] - y[n], dz = nz[n] - z[n];
        float len = sqrtf(dx * dx + dy * dy + dz * dz);
        /* |d| = 0 means d = 0, so any finite divisor gives zero force */
        float safe = len > 0.0f ? len : 1.0f;
        float s = k * (len - rest[n]) / safe;
        fx[n] += s * dx;
        fy[n] += s * dy;
        fz[n] += s * dz;
    }
}

/* Copies a row of N values into pad[0 .. N+2h), wrapped so that
 * pad[h + n + j] is the row's value at (n + j) mod N for |j| <= h. */
static void pad_row(const float *row, int N, int h, float *pad)
{
    memcpy(pad, row + N - h, sizeof *pad * (size_t)h);
    memcpy(pad + h, row, sizeof *pad * (size_t)N);
    memcpy(pad + h + N, row, sizeof *pad * (size_t)h);
}

static void springs_row(dinghy_sim *s, const sim_buffer *in, size_t row, float *scratch)
{
    const int M = s->M, N = s->N, B = s->shape.B, h = B / 2;
    const size_t base = (row / (size_t)M) * s->V;
    const int m = (int)(row % (size_t)M);
    const float k = (float)s->prm.stiffness;
    const float *x = in->x + base + (size_t)m * N;
    const float *y = in->y + base + (size_t)m * N;
    const float *z = in->z + base + (size_t)m * N;
    float *fx = s->fx + base + (size_t)m * N;
    float *fy = s->fy + base + (size_t)m * N;
    float *fz = s->fz + base + (size_t)m * N;
    float *px = scratch, *py = px + N + 2 * h, *pz = py + N + 2 * h;

    memset(fx, 0, sizeof *fx * (size_t)N);
    memset(fy, 0, sizeof *fy * (size_t)N);
    memset(fz, 0, sizeof *fz * (size_t)N);
    for (int i = -h; i <= h; i++) {
        size_t nrow = base + (size_t)((m + i + M) % M) * N;
        pad_row(in->x + nrow, N, h, px);
        pad_row(in->y + nrow, N, h, py);
        pad_row(in->z + nrow, N, h, pz);
        for (int j = -h; j <= h; j++) {
            if (i == 0 && j == 0)
                continue; /* the across-tube spring, below */
            const float *rest = s->shape.rest + (size_t)((i + h) * B + (j + h)) * N;
            spring_run(x, y, z, px + h + j, py + h + j, pz + h + j, rest, k, fx, fy, fz, N);
        }
    }
    /* Across the tube: n and n + N/2 pull on each other. */
    const float *rest = s->shape.rest + (size_t)(h * B + h) * N;
    int H = N / 2;
    spring_run(x, y, z, x + H, y + H, z + H, rest, k, fx, fy, fz, H);
    spring_run(x + H, y + H, z + H, x, y, z, rest + H, k, fx + H, fy + H, fz + H, H);
}

static void pressure_row(dinghy_sim *s, const sim_buffer *in, size_t row)
{
    const int N = s->N;
    const size_t v0 = row * (size_t)N; /* rows are contiguous: row r starts at r*N */
    const float pr = (float)s->prm.pressure;
    const float cx = s->cx[row], cy = s->cy[row], cz = s->cz[row];
    const float *x = in->x + v0, *y = in->y + v0, *z = in->z + v0;
    float *fx = s->fx + v0, *fy = s->fy + v0, *fz = s->fz + v0;
    for (int n = 0; n < N; n++) {
        float dx = x[n] - cx, dy = y[n] - cy, dz = z[n] - cz;
        float len = sqrtf(dx * dx + dy * dy + dz * dz);
        float safe = len > 0.0f ? len : 1.0f;
        float f = pr / safe;
        fx[n] += f * dx;
        fy[n] += f * dy;
        fz[n] += f * dz;
    }
}

static void centre_row(dinghy_sim *s, const sim_buffer *in, size_t row)
{
    const int N = s->N;
    const size_t v0 = row * (size_t)N;
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int n = 0; n < N; n++) {
        sx += in->x[v0 + n];
        sy += in->y[v0 + n];
        sz += in->z[v0 + n];
    }
    s->cx[row] = sx / (float)N;
    s->cy[row] = sy / (float)N;
    s->cz[row] = sz / (float)N;
}

static void dinghy_centre(dinghy_sim *s, int p)
{
    double sx = 0.0, sy = 0.0, sz = 0.0;
    for (int m = 0; m < s->M; m++) {
        size_t row = (size_t)p * s->M + m;
        sx += s->cx[row];
        sy += s->cy[row];
        sz += s->cz[row];
    }
    s->c0[3 * p] = sx / s->M;
    s->c0[3 * p + 1] = sy / s->M;
    s->c0[3 * p + 2] = sz / s->M;
}

/* gap^-e for gap >= MIN_GAP; integer exponents avoid pow. */
static float gap_power(float gap, float e, int int_e)
{
    if (int_e > 0) {
        float inv = 1.0f / gap, r = inv;
        for (int i = 1; i < int_e; i++)
            r *= inv;
        return r;
    }
    return powf(gap, -e);
}

/* Repulsion on segment a of dinghy p from every segment of its broad-phase
 * neighbours: S (gap^-e - range^-e) along the centre-line separation, for
 * tube gaps below the contact range. The same for each vertex of the row. */
static void contacts_row(dinghy_sim *s, size_t row)
{
    const int M = s->M, p = (int)(row / (size_t)M);
    const float S = (float)s->prm.repulsion, e = (float)s->prm.repulsion_exponent;
    const float range = (float)s->prm.contact_range;
    const float tubes = (float)(2.0 * s->prm.minor_radius);
    const int int_e = (e == floorf(e) && e >= 1.0f && e <= 16.0f) ? (int)e : 0;
    const float shift = gap_power(range, e, int_e);
    const float ax = s->cx[row], ay = s->cy[row], az = s->cz[row];
    const int m = (int)(row % (size_t)M);
    float gx = 0.0f, gy = 0.0f, gz = 0.0f;
    const broadphase *bp = &s->bp;
    for (int k = bp->nb_start[p]; k < bp->nb_start[p + 1]; k++) {
        size_t q0 = (size_t)bp->nb[k] * M;
        unsigned char touched = 0;
        for (int b = 0; b < M; b++) {
            float dx = ax - s->cx[q0 + b], dy = ay - s->cy[q0 + b], dz = az - s->cz[q0 + b];
            float dist = sqrtf(dx * dx + dy * dy + dz * dz);
            float gap = dist - tubes;
            if (!(gap < range) || !(dist > 0.0f))
                continue;
            touched = 1;
            float f = S * (gap_power(gap > MIN_GAP ? gap : MIN_GAP, e, int_e) - shift) / dist;
            gx += f * dx;
            gy += f * dy;
            gz += f * dz;
        }
        s->ev.touch[(size_t)k * M + m] = touched;
    }
    s->gx[row] = gx;
    s->gy[row] = gy;
    s->gz[row] = gz;
}

/* a = f/m - g - buoyancy * min(0, z - level) z^; v = (v + a dt) exp(-beta dt);
 * x += v dt. Flags the row when a speed is non-finite or runaway. */
static void integrate_row(dinghy_sim *s, const sim_buffer *in, sim_buffer *out, size_t row)
{
    const int N = s->N;
    const size_t v0 = row * (size_t)N;
    const float dt = (float)s->prm.dt;
    const float inv_m = (float)(1.0 / sim_params_vertex_mass(&s->prm));
    const float damp = (float)exp(-s->prm.damping * s->prm.dt);
    const float grav = (float)s->prm.gravity, buoy = (float)s->prm.buoyancy;
    const float level = (float)s->prm.water_level;
    const float gx = s->gx[row] * inv_m, gy = s->gy[row] * inv_m, gz = s->gz[row] * inv_m;
    const float *x = in->x + v0, *y = in->y + v0, *z = in->z + v0;
    const float *vx = in->vx + v0, *vy = in->vy + v0, *vz = in->vz + v0;
    const float *fx = s->fx + v0, *fy = s->fy + v0, *fz = s->fz + v0;
    float *ox = out->x + v0, *oy = out->y + v0, *oz = out->z + v0;
    float *ovx = out->vx + v0, *ovy = out->vy + v0, *ovz = out->vz + v0;
    const float splash = (float)-SIM_SPLASH_SPEED;
    float speed2_sum = 0.0f, entry_speed = 0.0f;
    int entries = 0;
    for (int n = 0; n < N; n++) {
        float depth = z[n] - level;
        float ax = fx[n] * inv_m + gx;
        float ay = fy[n] * inv_m + gy;
        float az = fz[n] * inv_m + gz - grav - buoy * (depth < 0.0f ? depth : 0.0f);
        float nvx = (vx[n] + ax * dt) * damp;
        float nvy = (vy[n] + ay * dt) * damp;
        float nvz = (vz[n] + az * dt) * damp;
        ovx[n] = nvx;
        ovy[n] = nvy;
        ovz[n] = nvz;
        ox[n] = x[n] + nvx * dt;
        oy[n] = y[n] + nvy * dt;
        oz[n] = z[n] + nvz * dt;
        speed2_sum += nvx * nvx + nvy * nvy + nvz * nvz;
        /* a splash: through the surface, downward, fast */
        int entered = depth > 0.0f && oz[n] <= level && nvz < splash;
        entries += entered;
        entry_speed = entered && -nvz > entry_speed ? -nvz : entry_speed;
    }
    s->ev.row_splash_count[row] = entries;
    s->ev.row_splash_speed[row] = entry_speed;
    /* The sum is non-finite if any speed is; a sum above the limit sends us
     * to the exact per-vertex check. */
    const float limit2 = (float)(SIM_RUNAWAY_SPEED * SIM_RUNAWAY_SPEED);
    unsigned char bad = 0;
    if (!(speed2_sum <= limit2)) {
        for (int n = 0; n < N && !bad; n++) {
            float s2 = ovx[n] * ovx[n] + ovy[n] * ovy[n] + ovz[n] * ovz[n];
            float pos = ox[n] + oy[n] + oz[n];
            if (!isfinite(s2) || !isfinite(pos))
                bad = 2;
            else if (s2 > limit2)
                bad = 1;
        }
    }
    s->row_bad[row] = bad;
}

int tick_step(dinghy_sim *s)
{
    const sim_buffer *in = &s->buf[s->cur];
    sim_buffer *out = &s->buf[1 - s->cur];
    const long nrows = (long)s->nrows;
    const int P = s->P;
    const double reach = 2.0 * (s->prm.major_radius + s->prm.minor_radius) + s->prm.contact_range;
    int oom = 0;
    s->bp.cell_size = reach;
    if (P == 1) /* no neighbours to look for */
        s->bp.nb_start[0] = s->bp.nb_start[1] = 0;

#pragma omp parallel num_threads(s->nthreads)
    {
        const int tid = omp_get_thread_num();
        float *scratch = s->scratch + (size_t)tid * s->scratch_stride;
        double t = tid == 0 ? omp_get_wtime() : 0.0, t_next;
#define PHASE_END(ph)                                    \
        if (tid == 0) {                                  \
            t_next = omp_get_wtime();                    \
            s->phase_s[ph] += t_next - t;                \
            t = t_next;                                  \
        }

#pragma omp for schedule(static)
        for (long r = 0; r < nrows; r++)
            centre_row(s, in, (size_t)r);
#pragma omp for schedule(static)
        for (int p = 0; p < P; p++)
            dinghy_centre(s, p);
        PHASE_END(PHASE_CENTRES)

        if (P > 1) {
#pragma omp for schedule(static)
            for (int p = 0; p < P; p++)
                broadphase_bin(&s->bp, s->c0, p);
#pragma omp single
            broadphase_sort(&s->bp);
#pragma omp for schedule(static)
            for (int p = 0; p < P; p++)
                broadphase_count(&s->bp, s->c0, p, reach);
#pragma omp single
            oom = broadphase_reserve(&s->bp) || events_reserve(&s->ev, (size_t)s->bp.nb_start[P]);
            if (!oom) {
#pragma omp for schedule(static)
                for (int p = 0; p < P; p++)
                    broadphase_fill(&s->bp, s->c0, p, reach);
            }
        }
        PHASE_END(PHASE_BROADPHASE)

        /* From here on each thread works on the same rows in every loop
         * (static schedule, same bounds), so no barrier is needed. */
#pragma omp for schedule(static) nowait
        for (long r = 0; r < nrows; r++)
            contacts_row(s, (size_t)r);
        PHASE_END(PHASE_CONTACTS)
#pragma omp for schedule(static) nowait
        for (long r = 0; r < nrows; r++)
            springs_row(s, in, (size_t)r, scratch);
        PHASE_END(PHASE_SPRINGS)
#pragma omp for schedule(static) nowait
        for (long r = 0; r < nrows; r++)
            pressure_row(s, in, (size_t)r);
        PHASE_END(PHASE_PRESSURE)
#pragma omp for schedule(static)
        for (long r = 0; r < nrows; r++)
            integrate_row(s, in, out, (size_t)r);
#pragma omp for schedule(static)
        for (int p = 0; p < P; p++)
            events_dinghy(&s->ev, &s->bp, p);
        PHASE_END(PHASE_INTEGRATE)
#undef PHASE_END
    }
    if (oom)
        return -1;
    events_merge(&s->ev, &s->bp, s->c0, out->vx, out->vy, out->vz, s->V, s->step + 1);
    s->cur = 1 - s->cur;
    s->step++;
    s->time += s->prm.dt;
    for (size_t r = 0; r < s->nrows; r++)
        if (s->row_bad[r])
            return 1;
    return 0;
}

static void normal_row(dinghy_sim *s, const sim_buffer *in, size_t row)
{
    const int M = s->M, N = s->N;
    const size_t base = (row / (size_t)M) * s->V;
    const int m = (int)(row % (size_t)M);
    const size_t up = base + (size_t)((m + 1) % M) * N, down = base + (size_t)((m + M - 1) % M) * N;
    const size_t here = base + (size_t)m * N;
    for (int n = 0; n < N; n++) {
        size_t l = here + (size_t)((n + N - 1) % N), r = here + (size_t)((n + 1) % N);
        /* (X(m+1) - X(m-1)) x (X(n+1) - X(n-1)) points outward */
        float ax = in->x[up + n] - in->x[down + n];
        float ay = in->y[up + n] - in->y[down + n];
        float az = in->z[up + n] - in->z[down + n];
        float bx = in->x[r] - in->x[l], by = in->y[r] - in->y[l], bz = in->z[r] - in->z[l];
        float nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
        float len = sqrtf(nx * nx + ny * ny + nz * nz);
        float inv = len > 0.0f ? 1.0f / len : 0.0f;
        s->nx[here + n] = nx * inv;
        s->ny[here + n] = ny * inv;
        s->nz[here + n] = nz * inv;
    }
}

void tick_normals(dinghy_sim *s)
{
    const sim_buffer *in = &s->buf[s->cur];
    const long nrows = (long)s->nrows;
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static) num_threads(s->nthreads)
    for (long r = 0; r < nrows; r++)
        normal_row(s, in, (size_t)r);
    s->phase_s[PHASE_NORMALS] += omp_get_wtime() - t0;
}
