/* Reading the state: the published per-ring measurements, totals, normals
 * and the state hash. */
#include "physics/world/measure.h"

#include <math.h>
#include <string.h>

#include "dinghy/fnv.h"
#include "physics/skin/gas.h"
#include "physics/water/hydro.h"
#include "physics/water/face_loads.h"
#include "physics/water/water_rows.h"

sim_state_view sim_state(const dinghy_sim *s)
{
    const sim_buffer *b = &s->buf[s->cur];
    sim_state_view v = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    return v;
}

const sim_ring_state *sim_rings(const dinghy_sim *s) { return s->rings; }

/* Enclosed volume of ring p, its rows' tetrahedra from the centre of mass
 * (for precision), in double. */
static double ring_volume(const dinghy_sim *s, const sim_buffer *b, int p, const double com[3])
{
    const size_t v0 = (size_t)p * s->V;
    double vol = 0.0;
    for (int m = 0; m < s->M; m++)
        vol += quad_row_volume(s->M, s->N, b->x + v0, b->y + v0, b->z + v0, m, com);
    return vol;
}

/* Submerged volume, wet skin area and centre of buoyancy of ring p under the water
 * (docs/physics.md section 4; the river's surface as each row sees it),
 * relative to the ring's centre for precision, from the vertices' depths
 * measure_ring has just taken. */
static void submerged(const dinghy_sim *s, const sim_buffer *b, int p, const double com[3],
                      sim_ring_state *out)
{
    const int M = s->M, N = s->N;
    const size_t v0 = (size_t)p * s->V;
    double mom[4] = {0.0, 0.0, 0.0, 0.0}, wet_area = 0.0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            size_t q[4] = {
                v0 + (size_t)m * N + n, v0 + (size_t)((m + 1) % M) * N + n,
                v0 + (size_t)((m + 1) % M) * N + (n + 1) % N, v0 + (size_t)m * N + (n + 1) % N,
            };
            double P[4][3], d[4];
            int wet = 0;
            for (int k = 0; k < 4; k++) {
                P[k][0] = b->x[q[k]] - com[0];
                P[k][1] = b->y[q[k]] - com[1];
                P[k][2] = b->z[q[k]] - com[2];
                d[k] = s->depth[q[k]]; /* measure_ring's, a vertex once, not four times */
                wet |= d[k] > 0.0;
            }
            if (!wet)
                continue;
            double load[3][3], da[3] = {d[0], d[1], d[2]}, db[3] = {d[0], d[2], d[3]};
            wet_area += hydro_triangle_loads(P[0], P[1], P[2], da, load, mom);
            wet_area += hydro_triangle_loads(P[0], P[2], P[3], db, load, mom);
        }
    out->submerged_volume = mom[0];
    out->wet_area = wet_area;
    for (int k = 0; k < 3; k++)
        out->buoyancy_centre[k] = com[k] + (mom[0] > 0.0 ? mom[1 + k] / mom[0] : 0.0);
}

static void measure_ring(dinghy_sim *s, const sim_buffer *b, int p)
{
    const size_t v0 = (size_t)p * s->V;
    sim_ring_state out;
    memset(&out, 0, sizeof out);
    out.min_z = INFINITY;
    out.max_z = -INFINITY;
    for (size_t i = v0; i < v0 + s->V; i++) {
        out.centre[0] += b->x[i]; out.centre[1] += b->y[i]; out.centre[2] += b->z[i];
        out.velocity[0] += b->vx[i]; out.velocity[1] += b->vy[i]; out.velocity[2] += b->vz[i];
        double depth = water_height_at(s, i / (size_t)s->N, b->x[i], b->y[i]) - b->z[i];
        s->depth[i] = depth;
        out.mean_depth += depth > 0.0 ? depth : 0.0;
        if (b->z[i] < out.min_z) out.min_z = b->z[i];
        if (b->z[i] > out.max_z) out.max_z = b->z[i];
    }
    for (int k = 0; k < 3; k++) {
        out.centre[k] /= (double)s->V;
        out.velocity[k] /= (double)s->V;
    }
    out.mean_depth /= (double)s->V;
    out.volume = ring_volume(s, b, p, out.centre);
    submerged(s, b, p, out.centre, &out);
    if (s->def.ring.inflation == SIM_INFLATION_GAS) /* what the tick pushed with last */
        out.pressure = s->def.world.air_pressure + s->ring_gauge[p];
    else
        out.pressure = NAN;
    out.gas_fraction = s->gas_frac[p];
    out.hole_area = s->hole_area[p];
    out.leak = s->def.ring.inflation == SIM_INFLATION_GAS ? gas_flow(s, p, s->ring_gauge[p]) : 0.0;
    out.travelled = s->travelled[p];
    out.respawns = s->respawns[p];
    out.contact_vertices = s->contact_vertices[p];
    out.contact_force = s->contact_force[p];
    s->rings[p] = out;
}

void sim_measure_ring(dinghy_sim *s, int p)
{
    measure_ring(s, &s->buf[s->cur], p);
}

/* On the last step's threads: the team's one thread when another program
 * holds a core (two would stall here as in the tick). */
void sim_measure_rings(dinghy_sim *s)
{
    const sim_buffer *b = &s->buf[s->cur];
#pragma omp parallel for schedule(static) num_threads(s->step_threads) if (s->P > 1)
    for (int p = 0; p < s->P; p++)
        measure_ring(s, b, p);
}

void sim_totals(const dinghy_sim *s, double momentum[3], double *kinetic_energy)
{
    const sim_buffer *b = &s->buf[s->cur];
    const double m = sim_ring_vertex_mass(&s->def.ring);
    double px = 0.0, py = 0.0, pz = 0.0, v2 = 0.0;
    for (size_t i = 0; i < s->nverts; i++) {
        px += b->vx[i]; py += b->vy[i]; pz += b->vz[i];
        v2 += (double)b->vx[i] * b->vx[i] + (double)b->vy[i] * b->vy[i] + (double)b->vz[i] * b->vz[i];
    }
    momentum[0] = m * px;
    momentum[1] = m * py;
    momentum[2] = m * pz;
    *kinetic_energy = 0.5 * m * v2;
}

static void normal_row(const dinghy_sim *s, const sim_buffer *in, size_t row, float *ox,
                       float *oy, float *oz)
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
        ox[here + n] = nx * inv;
        oy[here + n] = ny * inv;
        oz[here + n] = nz * inv;
    }
}

void sim_normals(const dinghy_sim *s, float *nx, float *ny, float *nz)
{
    const sim_buffer *in = &s->buf[s->cur];
#pragma omp parallel for schedule(static) num_threads(s->nthreads)
    for (long r = 0; r < (long)s->nrows; r++)
        normal_row(s, in, (size_t)r, nx, ny, nz);
}

uint64_t sim_hash(const dinghy_sim *s)
{
    const sim_buffer *b = &s->buf[s->cur];
    uint64_t h = fnv1a_xyz(FNV1A_OFFSET, b->x, b->y, b->z, s->nverts);
    return fnv1a_xyz(h, b->vx, b->vy, b->vz, s->nverts);
}
