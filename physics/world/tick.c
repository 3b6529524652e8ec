/* The parallel tick: one substep (sim_step cuts a step of sim.dt into
 * substeps at the stability bound, docs/physics.md sections 1 and 2).
 *
 * Work is cut into rows: one row is one segment (N vertices) of one ring,
 * so even a single ring splits across threads. Every phase is a gather:
 * each thread computes the force on the rows it works on from the state it
 * reads, and writes only those rows of the next buffer. Every sum runs in
 * a fixed order (springs by offset, neighbours by ring index), so the
 * result does not depend on how rows are shared among threads.
 *
 * Phases, with barriers only where data flows between threads:
 *   centres    segment centres (with the defaults only on the substeps
 *              that read them: step_context.centres), the gas's row
 *              volumes                                   | barrier
 *              ring centres, volume, gauge, leak (rings) | (end of for)
 *   broadphase (centre-line model) bin, sort, count, reserve, fill
 *   contacts   (centre-line model) repulsion on each segment
 *   move       the skin (springs or membrane; the bending refreshed on a
 *              step's first substep, held between), the water's loads
 *              (refreshed every WATER_HOLD_S, held between), the gas
 *              (every substep), the hand, then integration: chunks of
 *              rows taken as threads come free (whole rings)
 *   skin contact (the default; docs/physics.md section 9): the integration
 *              leaves predicted velocities v* in the next buffer | on a
 *              search substep: setup, bound (rings), plan (serial), grid
 *              (rings), find (points) | every substep with pairs found:
 *              setup and link (serial; with few pairs the 8 iterations
 *              too, else 8 x (gather own vertices | add f dt / m to own
 *              v*)) | positions x' = x + dt v', the pen's walls
 *   creases    (membrane) the crease stop on limp rings (own rings, or
 *              after a barrier when rows are split)
 *   events     per ring, after the region (the centre-line model's in it)
 * A search looks ahead to the step's end (contact_setup) and runs again
 * only when a row speeds up beyond what it allowed (search_due). With
 * skin contact the centre-line repulsion is off.
 */
#include "physics/world/tick.h"

#include "physics/skin/crease.h"
#include "physics/skin/cross.h"
#include "physics/skin/gas.h"
#include "physics/hands/hands_internal.h"
#include "physics/skin/membrane.h"
#include "physics/water/face_loads.h"
#include "physics/seed/springs.h"
#include "physics/water/water_rows.h"
#include "physics/world/always_inline.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Vertices in a contact pair up to which one thread runs the contact's
 * iterations alone: 2 barriers an iteration cost more than the gathers of
 * a few thousand vertices (about 1 ns each). */
#define SERIAL_CONTACT_VERTICES 4096

/* Closest gap the repulsion law is evaluated at (docs/physics.md section 1), m. */
#define MIN_GAP 0.01f

static void centre_row(dinghy_sim *s, const sim_buffer *in, size_t row)
{
    const int N = s->N;
    const size_t v0 = row * (size_t)N;
    float sx = 0.0f, sy = 0.0f, sz = 0.0f, su = 0.0f, sv = 0.0f, sw = 0.0f;
    for (int n = 0; n < N; n++) {
        sx += in->x[v0 + n];
        sy += in->y[v0 + n];
        sz += in->z[v0 + n];
        su += in->vx[v0 + n];
        sv += in->vy[v0 + n];
        sw += in->vz[v0 + n];
    }
    s->tick->cx[row] = sx / (float)N;
    s->tick->cy[row] = sy / (float)N;
    s->tick->cz[row] = sz / (float)N;
    s->tick->cvx[row] = su / (float)N;
    s->tick->cvy[row] = sv / (float)N;
    s->tick->cvz[row] = sw / (float)N;
}

/* The gas: the enclosed volume of each of rows [r0, r1), a ring's rows
 * at a time (from the ring's vertex 0). */
static void volume_rows(dinghy_sim *s, const sim_buffer *in, size_t r0, size_t r1)
{
    const size_t M = (size_t)s->M;
    for (size_t r = r0; r < r1;) {
        const size_t p = r / M, end = (p + 1) * M < r1 ? (p + 1) * M : r1;
        const size_t base = p * s->V;
        const float origin[3] = {in->x[base], in->y[base], in->z[base]};
        quad_rows_volume_fast(s->M, s->N, in->x + base, in->y + base, in->z + base,
                              (int)(r - p * M), (int)(end - r), origin, s->row_vol + r);
        r = end;
    }
}

/* Ring centre and mean velocity from its rows, in row order; with gas,
 * the enclosed volume and the pressure p0 V0 / V of this substep. (A
 * pressure one substep behind the volume makes the ring's breathing mode
 * grow, so the volume has its own pass and barrier.) */
static void ring_centre(dinghy_sim *s, int p, double dt)
{
    if (s->def.ring.inflation == SIM_INFLATION_GAS) {
        double vol = 0.0;
        for (int m = 0; m < s->M; m++)
            vol += s->row_vol[(size_t)p * s->M + m];
        s->ring_vol[p] = vol;
        double gauge = gas_gauge(s, p, vol);
        if (s->hole_area[p] > 0.0) {
            /* punctures: the gas this substep loses, and the skin feels the
             * pressure after it (implicit: a wide hole keeps the gauge near
             * 0 however fast the skin folds, where the pressure before it
             * spikes by tens of kPa in one substep and blows the ring up) */
            gas_leak(s, p, gauge, dt);
            gauge = gas_gauge(s, p, vol);
        }
        s->ring_gauge[p] = (float)gauge;
    }
    double sx = 0.0, sy = 0.0, sz = 0.0, su = 0.0, sv = 0.0, sw = 0.0;
    for (int m = 0; m < s->M; m++) {
        size_t row = (size_t)p * s->M + m;
        sx += s->tick->cx[row];
        sy += s->tick->cy[row];
        sz += s->tick->cz[row];
        su += s->tick->cvx[row];
        sv += s->tick->cvy[row];
        sw += s->tick->cvz[row];
    }
    s->c0[3 * p] = sx / s->M;
    s->c0[3 * p + 1] = sy / s->M;
    s->c0[3 * p + 2] = sz / s->M;
    s->v0[3 * p] = su / s->M;
    s->v0[3 * p + 1] = sv / s->M;
    s->v0[3 * p + 2] = sw / s->M;
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

/* Repulsion on segment a of ring p from every segment of its broad-phase
 * neighbours: S (gap^-e - range^-e) along the centre-line separation, for
 * tube gaps below the contact range. The same for each vertex of the row. */
typedef struct {
    float S, e, range, tubes; /* strength N, exponent, contact range m, 2r m */
    int int_e;                /* e when a small whole number (no powf), else 0 */
    float shift;              /* range^-e: the law is zero at the range */
} repulsion_consts;

/* The repulsion law's constants, once per step. */
static repulsion_consts repulsion_consts_of(const sim_ring_def *ring)
{
    repulsion_consts c;
    c.S = (float)ring->repulsion;
    c.e = (float)ring->repulsion_exponent;
    c.range = (float)ring->contact_range;
    c.tubes = (float)(2.0 * ring->minor_radius);
    c.int_e = (c.e == floorf(c.e) && c.e >= 1.0f && c.e <= 16.0f) ? (int)c.e : 0;
    c.shift = gap_power(c.range, c.e, c.int_e);
    return c;
}

static void repulsion_row(dinghy_sim *s, const repulsion_consts *c, size_t row)
{
    const int M = s->M, p = (int)(row / (size_t)M);
    const float S = c->S, e = c->e, range = c->range, tubes = c->tubes, shift = c->shift;
    const int int_e = c->int_e;
    const float ax = s->tick->cx[row], ay = s->tick->cy[row], az = s->tick->cz[row];
    const int m = (int)(row % (size_t)M);
    float gx = 0.0f, gy = 0.0f, gz = 0.0f;
    const broadphase *bp = &s->bp;
    const float reach = tubes + range, reach2 = reach * reach;
    for (int k = bp->nb_start[p]; k < bp->nb_start[p + 1]; k++) {
        size_t q0 = (size_t)bp->nb[k] * M;
        /* Most neighbours' segments are all out of range: count the close
         * ones in a branch-free (vectorised) pass before any real work. */
        const float *qx = s->tick->cx + q0, *qy = s->tick->cy + q0, *qz = s->tick->cz + q0;
        int close = 0;
        for (int b = 0; b < M; b++) {
            float dx = ax - qx[b], dy = ay - qy[b], dz = az - qz[b];
            close += dx * dx + dy * dy + dz * dz < reach2;
        }
        s->ev.touch[(size_t)k * M + m] = close > 0;
        if (!close)
            continue;
        for (int b = 0; b < M; b++) {
            float dx = ax - s->tick->cx[q0 + b], dy = ay - s->tick->cy[q0 + b], dz = az - s->tick->cz[q0 + b];
            float dist = sqrtf(dx * dx + dy * dy + dz * dz);
            float gap = dist - tubes;
            if (!(gap < range) || !(dist > 0.0f))
                continue;
            float f = S * (gap_power(gap > MIN_GAP ? gap : MIN_GAP, e, int_e) - shift) / dist;
            gx += f * dx;
            gy += f * dy;
            gz += f * dz;
        }
    }
    s->tick->gx[row] = gx;
    s->tick->gy[row] = gy;
    s->tick->gz[row] = gz;
}

/* Constants of the integration step, in float. */
typedef struct {
    float dt, inv_m, damp, damp_water, grav, buoy, level, pressure;
    int flow;          /* 1: the river (the row's water below), 0: still water at level */
    float cx, cy, cz;  /* the row's segment centre, m */
    float gx, gy, gz;  /* the row's repulsion force per vertex, N */
    float eta, sx, sy, px, py; /* the row's water surface: a plane, m and slopes */
    float wu, wv, ww;  /* the row's flow velocity, m/s */
    int held_drag;     /* 1: the water's drag is held as a coefficient (euler_run's kd) */
} euler_consts;

/* a = (f_springs + pressure unit(x - c) + g_contact)/m - g z^ - buoyancy min(0, z - level) z^;
 * v = (v + a dt) exp(-beta dt) (beta + water_drag under water); x += v dt.
 * With held, the force is f + h (f + h + kz z up): the held bending and
 * water loads added here, in the order the move's own passes over f
 * added them, so the same bits without those passes. Every array is its
 * own (restrict parameters let the compiler vectorise without alias
 * checks). */
static ALWAYS_INLINE void euler_run(const euler_consts *k, int N, int push, int held,
                      const float *restrict x, const float *restrict y, const float *restrict z,
                      const float *restrict vx, const float *restrict vy, const float *restrict vz,
                      const float *restrict fx, const float *restrict fy, const float *restrict fz,
                      const float *restrict implicit_drag,
                      const float *restrict hx, const float *restrict hy,
                      const float *restrict hz, const float *restrict kz,
                      float *restrict ox, float *restrict oy, float *restrict oz,
                      float *restrict ovx, float *restrict ovy, float *restrict ovz)
{
    const float dt = k->dt, inv_m = k->inv_m, grav = k->grav, buoy = k->buoy;
    const float damp_air = k->damp, drag_step = k->damp - k->damp_water;
    const float level = k->level, pr = k->pressure, cx = k->cx, cy = k->cy, cz = k->cz;
    const float gx = k->gx, gy = k->gy, gz = k->gz;
    const int flow = k->flow;
    const float er = k->eta, sx = k->sx, sy = k->sy, wpx = k->px, wpy = k->py;
    const float wu = k->wu, wv = k->wv, ww = k->ww;
    for (int n = 0; n < N; n++) {
        float px = x[n] - cx, py = y[n] - cy, pz = z[n] - cz;
        /* + 1e-30 changes no length above 1e-11 m and keeps p = 0 finite
         * (then pf p = 0) without a branch, which would stop vectorising */
        float pf = push ? pr / sqrtf(px * px + py * py + pz * pz + 1e-30f) : 0.0f;
        float depth = z[n] - (flow ? er + sx * (x[n] - wpx) + sy * (y[n] - wpy) : level);
        /* 1 under water, else 0, from the sign bit: gcc stops vectorising
         * this loop at a second select on depth < 0 */
        float wet = 0.5f - 0.5f * copysignf(1.0f, depth);
        const float fxn = held ? fx[n] + hx[n] : fx[n], fyn = held ? fy[n] + hy[n] : fy[n];
        const float fzn = held ? (fz[n] + hz[n]) + kz[n] * z[n] : fz[n];
        float ax = ((fxn + pf * px) + gx) * inv_m;
        float ay = ((fyn + pf * py) + gy) * inv_m;
        float az = ((fzn + pf * pz) + gz) * inv_m - grav - buoy * (depth * wet);
        float damp = damp_air - drag_step * wet; /* the water drags */
        /* the faces' drag -kd v at the new velocity (backward Euler: f
         * holds kd times the refresh's velocity; the factor 1 / (1 + dt
         * kd / m) is kept from the refresh; without it, 1 exactly) */
        float implicit = k->held_drag ? implicit_drag[n] : 1.0f;
        float nvx = ((vx[n] + ax * dt) * implicit) * damp;
        float nvy = ((vy[n] + ay * dt) * implicit) * damp;
        float nvz = ((vz[n] + az * dt) * implicit) * damp;
        if (flow) { /* damped toward the water's flow, not to rest: (v - w) damp + w */
            float toward = 1.0f - damp;
            nvx += toward * wu;
            nvy += toward * wv;
            nvz += toward * ww;
        }
        ovx[n] = nvx;
        ovy[n] = nvy;
        ovz[n] = nvz;
        ox[n] = x[n] + nvx * dt;
        oy[n] = y[n] + nvy * dt;
        oz[n] = z[n] + nvz * dt;
    }
}

/* Pressure, gravity, buoyancy, damping and the symplectic Euler step for
 * one row, given its spring forces fx, fy, fz (N), and with held (no
 * constant push) the held forces and kz of the move's fused substep
 * (euler_run). Flags the row when a speed is non-finite or runaway, and
 * counts splashes. */
static void integrate_row(dinghy_sim *s, const sim_buffer *in, sim_buffer *out, size_t row,
                          const euler_consts *step, const float *fx, const float *fy,
                          const float *fz, int held)
{
    const int N = s->N;
    const size_t v0 = row * (size_t)N; /* rows are contiguous: row r starts at r*N */
    euler_consts k = *step;
    k.cx = s->tick->cx[row];
    k.cy = s->tick->cy[row];
    k.cz = s->tick->cz[row];
    const int repelled = s->P > 1 && !s->tick->contact; /* else no repulsion ran */
    k.gx = repelled ? s->tick->gx[row] : 0.0f;
    k.gy = repelled ? s->tick->gy[row] : 0.0f;
    k.gz = repelled ? s->tick->gz[row] : 0.0f;
    k.eta = s->tick->weta[row];
    k.sx = s->tick->wsx[row];
    k.sy = s->tick->wsy[row];
    k.px = s->tick->wpx[row];
    k.py = s->tick->wpy[row];
    k.wu = s->tick->wu[row];
    k.wv = s->tick->wv[row];
    k.ww = s->tick->ww[row];
    const float level = k.flow ? k.eta : k.level;
    const float splash = (float)-SIM_SPLASH_SPEED;
    const float limit2 = (float)(SIM_RUNAWAY_SPEED * SIM_RUNAWAY_SPEED);
    const float *z = in->z + v0;
    const float *ox = out->x + v0, *oy = out->y + v0, *oz = out->z + v0;
    const float *ovx = out->vx + v0, *ovy = out->vy + v0, *ovz = out->vz + v0;
    /* (fx stands in when unread: a valid address for a vectorised load) */
    const float *kd = k.held_drag ? s->tick->wimp + v0 : fx;
    /* with the seed's constant push, or without (its square root and
     * division not computed: the same bits, pf = 0) */
    if (held)
        euler_run(&k, N, 0, 1, in->x + v0, in->y + v0, z, in->vx + v0, in->vy + v0, in->vz + v0,
                  fx, fy, fz, kd, s->tick->bfx + v0, s->tick->bfy + v0, s->tick->bfz + v0,
                  s->tick->wkz + v0, out->x + v0, out->y + v0, out->z + v0, out->vx + v0,
                  out->vy + v0, out->vz + v0);
    else if (k.pressure != 0.0f)
        euler_run(&k, N, 1, 0, in->x + v0, in->y + v0, z, in->vx + v0, in->vy + v0, in->vz + v0,
                  fx, fy, fz, kd, fx, fx, fx, fx, out->x + v0, out->y + v0, out->z + v0,
                  out->vx + v0, out->vy + v0, out->vz + v0);
    else
        euler_run(&k, N, 0, 0, in->x + v0, in->y + v0, z, in->vx + v0, in->vy + v0, in->vz + v0,
                  fx, fy, fz, kd, fx, fx, fx, fx, out->x + v0, out->y + v0, out->z + v0,
                  out->vx + v0, out->vy + v0, out->vz + v0);
    s->tick->row_hit[row] = water_contacts_row(s, out->x + v0, out->y + v0, out->z + v0, out->vx + v0,
                                         out->vy + v0, out->vz + v0, row);
    if (s->pen.on && !s->tick->contact) /* with skin contact: after it */
        pen_contacts(&s->pen, N, out->x + v0, out->y + v0, out->z + v0, out->vx + v0,
                     out->vy + v0, out->vz + v0);
    if (s->has_floor && !s->tick->contact) /* with skin contact: after it */
        floor_contacts((float)s->floor_z, N, out->z + v0, out->vz + v0);
    /* Health and splashes, in a loop of their own so the one above stays
     * simple enough to vectorise. NaN fails the speed comparison too. */
    int entries = 0, bad = 0;
    int32_t v2max_bits = 0; /* the largest v2 by its bits: for floats >= +0 their order */
    for (int n = 0; n < N; n++) {
        const float v2 = ovx[n] * ovx[n] + ovy[n] * ovy[n] + ovz[n] * ovz[n];
        int32_t bits;
        memcpy(&bits, &v2, sizeof bits);
        bits = v2 == v2 ? bits : 0; /* NaN is never the largest, as with > */
        bad += !(v2 <= limit2); /* counted, not or-ed: gcc vectorises the sum */
        v2max_bits = bits > v2max_bits ? bits : v2max_bits;
        entries += (z[n] > level) & (oz[n] <= level) & (ovz[n] < splash);
    }
    float v2max;
    memcpy(&v2max, &v2max_bits, sizeof v2max);
    float entry_speed = 0.0f;
    if (entries) /* rare: find the fastest entry */
        for (int n = 0; n < N; n++)
            if (z[n] > level && oz[n] <= level && -ovz[n] > entry_speed)
                entry_speed = -ovz[n];
    s->tick->row_v2[row] = v2max;
    s->ev.row_splash_count[row] = entries;
    s->ev.row_splash_speed[row] = entry_speed;
    unsigned char flag = 0;
    for (int n = 0; n < N && bad && !flag; n++) {
        float s2 = ovx[n] * ovx[n] + ovy[n] * ovy[n] + ovz[n] * ovz[n];
        if (!isfinite(s2) || !isfinite(ox[n] + oy[n] + oz[n]))
            flag = 2;
        else if (s2 > limit2)
            flag = 1;
    }
    s->tick->row_bad[row] = flag;
}

/* The water's pressure, drag and lift are refreshed at least every
 * WATER_HOLD_S seconds of substeps (once a step at the default 1/60 s) and
 * held between (the gas, stiff, is not). Each is held with how it answers
 * the state between refreshes: the drag as a force at the refresh's
 * velocity and a coefficient kd (kg/s) applied implicitly at the current
 * one (held as a bare force it was a damper acting late, and at 3.9 ms it
 * let a ring falling through the water flap: its terminal speed 8% low);
 * the pressure's up component with its stiffness kz (N/m) times the
 * vertex's rise since the refresh (held bare, a spring acting late: a
 * floating ring of springs held 16.7 ms bobbed out to a third of its
 * displacement; with kz it settles within 0.01% of Archimedes, and the
 * terminal speed is within 0.6%; tests/test_water.c); docs/physics.md
 * section 1. */
#define WATER_HOLD_S (1.0 / 60.0)

/* Substeps of dt between refreshes of the water's loads (>= 1). */
static int water_substeps(const dinghy_sim *s, double dt)
{
    const double n = floor(WATER_HOLD_S / dt * (1.0 + 1e-9));
    return n < 1.0 ? 1 : n > (double)s->substeps ? s->substeps : (int)n;
}

/* Bytes a vertex's move reads and writes in a substep (17 floats: the
 * state in and out, the held bending and the buoyancy's kz and the drag's
 * factor), and the streams' total from which the move prefetches the next
 * ring: twice a Zen 3 core's 512 KB L2, past which a substep's state comes
 * from the L3 or memory and the 17 streams outrun the hardware's
 * prefetchers. 4096 rings of 32 x 16 took 12-16% less time, 16 and 64
 * rings none (AMD EPYC Zen 5, 1 MB of L2); the default rapids' 64 rings
 * (2.2 MB) about 4% less, faster in 19 of 31 pairs of runs (1 thread, a
 * shared AMD EPYC Zen 3, 2026-12-07: docs/benchmarks.md). */
#define MOVE_STREAM_BYTES (17.0 * sizeof(float))
#define PREFETCH_FROM_BYTES (1024.0 * 1024)

/* Asks the caches for the vertex streams the move reads and writes, for
 * count vertices from v0, while the ring before them is computed: a substep
 * of 4096 rings streams its state from memory. */
static void prefetch_vertices(const dinghy_sim *s, const sim_buffer *in, const sim_buffer *out,
                              size_t v0, size_t count, int merged)
{
    const float *rd[] = {in->x, in->y, in->z, in->vx, in->vy, in->vz, s->tick->bfx,
                         s->tick->bfy, s->tick->bfz, s->tick->wkz, s->tick->wimp};
    float *wr[] = {out->x, out->y, out->z, out->vx, out->vy, out->vz};
    const size_t line = 64 / sizeof(float);
    const int nrd = merged ? 11 : 6;
    for (size_t i = 0; i < count; i += line) {
        for (int k = 0; k < nrd; k++)
            __builtin_prefetch(rd[k] + v0 + i, 0, 2);
        for (int k = 0; k < 6; k++)
            __builtin_prefetch(wr[k] + v0 + i, 1, 2);
    }
}

/* Springs and integration for rows [r0, r1) (global row indices), block by
 * block within each ring. */
static void move_rows(dinghy_sim *s, const sim_buffer *in, sim_buffer *out, size_t r0, size_t r1,
                      double dt, int substep, float *scratch, double *t_springs,
                      double *t_integrate)
{
    const int first_substep = substep == 0;
    /* the water's loads: refreshed on this substep, held for `held` substeps */
    const int water_every = water_substeps(s, dt), water_now = substep % water_every == 0;
    const int held_for = water_every < s->substeps - substep ? water_every : s->substeps - substep;
    const size_t M = (size_t)s->M;
    const sim_def *d = &s->def;
    const float k = (float)d->ring.stiffness;
    const spring_plan *plan = &s->springs;
    const double beta = d->solver.damping;
    const sim_water_def *w = &d->world.water;
    const int exact = w->model == SIM_WATER_EXACT, gas = d->ring.inflation == SIM_INFLATION_GAS;
    face_loads_consts loads = {
        .rho_g = exact ? (float)(w->density * d->world.gravity) : 0.0f,
        .rho_g_t = exact && d->ring.skin == SIM_SKIN_MEMBRANE
                       ? (float)(w->density * d->world.gravity * d->ring.thickness) : 0.0f,
        .level = (float)w->level,
        .drag = exact,
        .rho_water = (float)w->density,
        .rho_air = (float)d->world.air_density,
        .cd = (float)w->drag_coefficient,
        .cl = (float)w->lift_coefficient,
        .dt = (float)(dt * held_for), /* the drag clamp: the time the force is held */
        .m_face = (float)(0.5 * sim_ring_vertex_mass(&d->ring)),
        .flow = s->river != NULL || s->waves != NULL,
    };
    const euler_consts step = { /* the same for every row of this step */
        .dt = (float)dt,
        .inv_m = (float)(1.0 / sim_ring_vertex_mass(&d->ring)),
        .damp = (float)exp(-beta * dt),
        .damp_water = (float)exp(-(beta + w->drag) * dt),
        .grav = (float)d->world.gravity,
        .buoy = exact ? 0.0f : (float)w->buoyancy,
        .level = (float)w->level,
        .pressure = gas ? 0.0f : (float)d->ring.pressure,
        .flow = s->river != NULL || s->waves != NULL,
        .held_drag = exact,
    };
    /* the membrane skin: its constants from the material, once per call
     * (the material is live) */
    const int membrane = d->ring.skin == SIM_SKIN_MEMBRANE;
    const membrane_material mat = {d->ring.youngs_modulus, d->ring.thickness,
                                   d->ring.poisson_ratio};
    const membrane_consts mk = membrane_consts_of(&mat);
    /* The water's loads folded into the held bending when both are taken
     * on the step's first substep only (the default step): each later
     * substep then reads one held force a vertex, not two, and the
     * buoyancy's kz z alone (its -kz z0 held too). Bytes are what a
     * substep of 4096 rings costs, whose state no longer fits the caches. */
    const int merged = membrane && s->bend_held && mk.bend != 0.0f && exact
                    && water_every >= s->substeps;
    const size_t ff = s->tick->force_floats;
    /* whether the move's streams outgrow the caches (then each ring's are
     * asked for while the ring before it is computed) */
    const int streamed = (double)s->P * (double)s->V * MOVE_STREAM_BYTES > PREFETCH_FROM_BYTES;
    /* the force block's layout: the spring kernel's rows of W with h ghost
     * columns, or the membrane's rows of N + 2 with one pad each side */
    const int W = membrane ? MEMBRANE_FORCE_STRIDE(s->N) : plan->W, h = membrane ? 1 : plan->h;
    size_t r = r0;
    while (r < r1) {
        size_t p = r / M, a = r % M;
        size_t end = (p + 1) * M < r1 ? (p + 1) * M : r1; /* this ring's part */
        size_t nb = end - r;
        if (nb > (size_t)plan->max_rows)
            nb = (size_t)plan->max_rows;
        const size_t base = p * s->V;
        float *f[3];
        double t0 = t_springs ? omp_get_wtime() : 0.0;
        /* The default step's later substeps: the held bending (with the
         * water's loads merged in) and kz z added by the integration as
         * it reads the membrane's forces (euler_run's held), not by two
         * passes over them first; not under a hand, whose pull comes
         * after them in f. */
        const int fused = merged && !water_now && !first_substep && step.pressure == 0.0f
                      && sim_ring_index(s, s->grab.held) != (int)p;
        if (membrane) {
            /* the membrane's block layout (W above): rows of N + 2 from 1 */
            for (int c = 0; c < 3; c++) {
                f[c] = scratch + (size_t)c * ff;
                memset(f[c], 0, sizeof(float) * nb * (size_t)W);
            }
            float *const held[3] = {s->tick->bfx + base, s->tick->bfy + base,
                                    s->tick->bfz + base};
            /* the gas in the membrane's pass over the triangles; fused:
             * no bending (its held sums the integration's to add) */
            membrane_consts mkb = mk;
            if (fused)
                mkb.bend = 0.0f;
            membrane_block(&s->membrane, &mkb, in->x + base, in->y + base, in->z + base, (int)a,
                           (int)nb, scratch + s->tick->membrane_offset, f, held,
                           first_substep || !s->bend_held, gas ? (float)s->ring_gauge[p] : 0.0f);
        } else
            spring_block(plan, k, in->x + base, in->y + base, in->z + base, (int)a, (int)nb,
                         scratch, f);
        if (exact && water_now) { /* the water's loads, into the held arrays */
            loads.gauge = 0.0f;
            const size_t rows = p * M; /* this ring's rows' water */
            loads.eta = s->tick->weta + rows;
            loads.sx = s->tick->wsx + rows;
            loads.sy = s->tick->wsy + rows;
            loads.px = s->tick->wpx + rows;
            loads.py = s->tick->wpy + rows;
            loads.u = s->tick->wu + rows;
            loads.v = s->tick->wv + rows;
            loads.w = s->tick->ww + rows;
            const size_t first = base + a * s->N, count = nb * (size_t)s->N;
            float *const wf[3] = {s->tick->wfx + first, s->tick->wfy + first,
                                  s->tick->wfz + first};
            /* the drag's coefficients kd land in wimp, which then holds
             * the integration's factor made from them (below) */
            float *kd = s->tick->wimp + first, *kz = s->tick->wkz + first;
            for (int c = 0; c < 3; c++)
                memset(wf[c], 0, sizeof(float) * count);
            memset(kd, 0, sizeof(float) * count);
            memset(kz, 0, sizeof(float) * count);
            face_loads_block(&loads, s->M, s->N, in->x + base, in->y + base, in->z + base,
                             in->vx + base, in->vy + base, in->vz + base, (int)a, (int)nb,
                             scratch + s->tick->face_loads_offset, wf, kd, kz, s->N, 0);
            /* the heights the pressure was taken at: the held pressure
             * follows each vertex's rise and fall from there (kz) */
            memcpy(s->tick->wz0 + first, in->z + first, sizeof(float) * count);
            /* held: the drag at the refresh's velocity plus kd times it, so
             * that the integration's -kd v at the new velocity answers at
             * once (a held drag, a damper acting late, let a falling ring
             * flap: WATER_HOLD_S) */
            const float *const v[3] = {in->vx + first, in->vy + first, in->vz + first};
            for (int c = 0; c < 3; c++)
                for (size_t i = 0; i < count; i++)
                    wf[c][i] += kd[i] * v[c][i];
            /* the integration's factor for -kd v at the new velocity */
            for (size_t i = 0; i < count; i++)
                kd[i] = 1.0f / (1.0f + step.dt * step.inv_m * kd[i]);
            if (merged) { /* held with the bending: F + kz (z - z0) = (F - kz z0) + kz z */
                float *const bent[3] = {s->tick->bfx + first, s->tick->bfy + first,
                                        s->tick->bfz + first};
                const float *z0 = in->z + first;
                for (int c = 0; c < 2; c++)
                    for (size_t i = 0; i < count; i++)
                        bent[c][i] += wf[c][i];
                for (size_t i = 0; i < count; i++)
                    bent[2][i] += wf[2][i] - kz[i] * z0[i];
            }
        }
        if (fused) { /* the integration adds them */
        } else if (merged && !water_now) { /* the loads came with the held bending: kz z */
            for (size_t i = 0; i < nb; i++) {
                const size_t v = base + (a + i) * (size_t)s->N;
                float *restrict row = f[2] + i * (size_t)W + (size_t)h;
                const float *restrict kz = s->tick->wkz + v, *restrict z = in->z + v;
                for (int n = 0; n < s->N; n++)
                    row[n] += kz[n] * z[n];
            }
        } else if (exact) { /* held, or just refreshed (then z = z0) */
            const float *const wf[3] = {s->tick->wfx + base, s->tick->wfy + base,
                                        s->tick->wfz + base};
            for (int c = 0; c < 2; c++)
                for (size_t i = 0; i < nb; i++) {
                    float *restrict row = f[c] + i * (size_t)W + (size_t)h;
                    const float *restrict w = wf[c] + (a + i) * (size_t)s->N;
                    for (int n = 0; n < s->N; n++)
                        row[n] += w[n];
                }
            /* up: the held force plus kz times the rise since the refresh */
            for (size_t i = 0; i < nb; i++) {
                const size_t v = base + (a + i) * (size_t)s->N;
                float *restrict row = f[2] + i * (size_t)W + (size_t)h;
                const float *restrict w = s->tick->wfz + v, *restrict kz = s->tick->wkz + v;
                const float *restrict z = in->z + v, *restrict z0 = s->tick->wz0 + v;
                for (int n = 0; n < s->N; n++)
                    row[n] += w[n] + kz[n] * (z[n] - z0[n]);
            }
        }
        if (gas && !membrane) /* the gas every substep: its breathing mode is stiff */
            face_gas_block(s->ring_gauge[p], s->M, s->N, in->x + base, in->y + base,
                           in->z + base, (int)a, (int)nb, f, W, h);
        hands_forces(s, in, p, a, nb, f, W, h);
        double t1 = t_springs ? omp_get_wtime() : 0.0;
        const int ahead = streamed && end < r1 && nb == M; /* a whole ring, one more after */
        for (size_t i = 0; i < nb; i++) {
            size_t off = i * (size_t)W + (size_t)h;
            integrate_row(s, in, out, r + i, &step, f[0] + off, f[1] + off, f[2] + off, fused);
            if (ahead) /* the next ring's row i on its way */
                prefetch_vertices(s, in, out, base + s->V + i * (size_t)s->N, (size_t)s->N,
                                  merged);
        }
        if (t_springs) {
            *t_springs += t1 - t0;
            *t_integrate += omp_get_wtime() - t1;
        }
        r += nb;
    }
}

/* The margin a search that looks ahead more than a substep keeps, in
 * contact thicknesses h: for the speeds' change within the look-ahead
 * (gravity adds 1.4 mm in 1/60 s). */
#define SEARCH_MARGIN 0.25

/* Whether a search is due on this substep: on a step's first, and when
 * some row has sped up by more than the last search allows (search_dv)
 * since it ran (a ring hit or thrown within the step: its box and its
 * pairs' closing speeds were measured at the slower speed). */
static int search_due(const dinghy_sim *s, int substep)
{
    const tick_context *t = s->tick;
    if (substep == 0 || !t->contact || t->search_every_substep)
        return 1;
    const float dv = t->search_dv;
    int due = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        const float v = sqrtf(t->row_v2_found[r]) + dv;
        due |= !(t->row_v2[r] <= v * v); /* NaN too */
    }
    return due;
}

/* Skin contact, serial: this substep's parameters and state (x current,
 * v the predicted v* of the next buffer), which the kernel's phases read.
 * A search looks ahead to the step's end, its boxes grown by each
 * vertex's travel, with a margin (SEARCH_MARGIN) for the speeds' change
 * within that time; each substep then links and
 * resolves what it found. A row that gains more than 2 margin / ahead of
 * speed (a displacement of the margin, spread evenly over the look-ahead)
 * calls a new search (search_due). */
static void contact_setup(dinghy_sim *s, const sim_buffer *in, const sim_buffer *out, double dt,
                          int substep, int search)
{
    tick_context *t = s->tick;
    if (search) {
        t->searches++;
        t->search_substep = substep;
        t->search_ahead = (s->substeps - substep) * dt;
        memcpy(t->row_v2_found, t->row_v2, sizeof *t->row_v2 * s->nrows);
        t->search_dv = (float)(2.0 * SEARCH_MARGIN * s->def.ring.contact_thickness / t->search_ahead);
    }
    const sim_ring_def *ring = &s->def.ring;
    t->contact_params = contact_params_default(dt);
    t->contact_params.h = (float)ring->contact_thickness;
    t->contact_params.mu = (float)ring->friction;
    t->contact_params.edges = ring->edge_contact;
    if (t->search_ahead > dt * 1.5) { /* a look-ahead of more than this substep */
        t->contact_params.ahead = (float)t->search_ahead;
        t->contact_params.margin = (float)SEARCH_MARGIN * t->contact_params.h;
    }
    t->contact_params.since = (float)((substep - t->search_substep) * dt);
    const float m = (float)sim_ring_vertex_mass(ring);
    for (int p = 0; p < s->P; p++)
        t->contact_mass[p] = m;
    contact_state st = {s->P, in->x, in->y, in->z, out->vx, out->vy, out->vz, t->contact_mass, s->v0};
    t->contact_state = st;
}

/* Skin contact, serial, after link: room for the forces of the vertices in
 * a pair (the compact arrays, by their places in link's list); -1 when out
 * of memory. */
static int contact_reserve(tick_context *t)
{
    const size_t need = (size_t)contact_active_count(t->contact);
    if (need <= t->contact_cap)
        return 0;
    const size_t cap = need * 2 > 256 ? need * 2 : 256;
    for (int c = 0; c < 3; c++) {
        float *f = realloc(t->cf[c], sizeof *f * cap), *g = f ? realloc(t->cs[c], sizeof *g * cap) : NULL;
        if (f)
            t->cf[c] = f;
        if (!g)
            return -1;
        t->cs[c] = g;
    }
    t->contact_cap = cap;
    return 0;
}

/* Skin contact, the vertices in a pair among [a, b): the Jacobi
 * iteration's forces (gathered before this) added to v* as f dt / m, and
 * summed for the substep. Only the vertices in a pair have a force. */
static void contact_apply(dinghy_sim *s, sim_buffer *out, size_t a, size_t b, int iter, float dt)
{
    tick_context *t = s->tick;
    const float im = dt / t->contact_mass[0]; /* every ring's vertices weigh the same */
    int first;
    const int na = contact_active(t->contact, (int)a, (int)b, &first);
    const int *act = contact_active_list(t->contact);
    float *const cf[3] = {t->cf[0], t->cf[1], t->cf[2]}, *const cs[3] = {t->cs[0], t->cs[1], t->cs[2]};
    for (int k = first; k < first + na; k++) {
        const int i = act[k];
        out->vx[i] += cf[0][k] * im;
        out->vy[i] += cf[1][k] * im;
        out->vz[i] += cf[2][k] * im;
        for (int c = 0; c < 3; c++)
            cs[c][k] = iter == 0 ? cf[c][k] : cs[c][k] + cf[c][k];
    }
}

/* Skin contact, rows [r0, r1) after the iterations: the positions follow
 * the corrected velocities (x' = x + dt v*, already there, plus dt times
 * the contact's change of v), then the pen's walls. */
static void contact_positions(dinghy_sim *s, sim_buffer *out, size_t r0, size_t r1, int any, float dt)
{
    tick_context *t = s->tick;
    const size_t a = r0 * (size_t)s->N, b = r1 * (size_t)s->N;
    if (any) {
        const float im = dt * dt / t->contact_mass[0];
        int first;
        const int na = contact_active(t->contact, (int)a, (int)b, &first);
        const int *act = contact_active_list(t->contact);
        for (int k = first; k < first + na; k++) {
            const int i = act[k];
            out->x[i] += t->cs[0][k] * im;
            out->y[i] += t->cs[1][k] * im;
            out->z[i] += t->cs[2][k] * im;
        }
    }
    if (s->pen.on)
        pen_contacts(&s->pen, (int)(b - a), out->x + a, out->y + a, out->z + a, out->vx + a,
                     out->vy + a, out->vz + a);
    if (s->has_floor)
        floor_contacts((float)s->floor_z, (int)(b - a), out->z + a, out->vz + a);
}

/* Ring p's skin contact outputs: its vertices pushed and the sum of |F| over
 * them in index order (any: the substep had pairs; else none was pushed). */
static void contact_ring_outputs(dinghy_sim *s, int p, int any)
{
    const tick_context *t = s->tick;
    int n = 0;
    const double sum = any ? contact_ring_force(t->contact, p, t->cs[0], t->cs[1], t->cs[2], &n)
                           : 0.0;
    s->contact_vertices[p] = n;
    s->contact_force[p] = n ? (float)sum : 0.0f;
}

/* The skin contact's starts of this substep as contact events (after the
 * step's other events), at the midpoint of the two rings' centres. */
static void contact_events(dinghy_sim *s, int n)
{
    for (int k = 0; k < n && k < SIM_CONTACT_STARTS; k++) {
        const contact_start *st = &s->tick->starts[k];
        sim_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = SIM_EVENT_CONTACT;
        ev.ring = st->p;
        ev.other = st->q;
        ev.step = s->step + 1;
        ev.speed = st->speed;
        for (int i = 0; i < 3; i++)
            ev.position[i] = (float)(0.5 * (s->c0[3 * st->p + i] + s->c0[3 * st->q + i]));
        ev.count = 1;
        events_add(&s->ev, &ev);
    }
}

/* ---- the substep in stages (as Box2D's solver stages) ---- */

/* What one substep reads, built once before the threads start (as Box2D's
 * b2StepContext) and read only within the parallel region. */
typedef struct {
    dinghy_sim *s;         /* its per-row and per-ring arrays are written by the stages */
    const sim_buffer *in;  /* the state */
    sim_buffer *out;       /* the next state */
    double dt;             /* the substep, s */
    int substep;           /* 0 .. substeps - 1 within the step */
    int first, last;       /* the step's first, last substep */
    int search;            /* the skin contact searches on this substep */
    int sample;            /* the river is sampled at the rows on this substep */
    int centres;           /* the rows' and rings' centres are taken on this substep */
    int gas;               /* gas inflation: the rings' volumes, gauges and leaks */
    int membrane;          /* the membrane skin: the crease stop on limp rings */
    int window_first;      /* the first substep of the stops' window (crease_window_steps) */
    int window_last;       /* its last substep */
    int P;                 /* rings */
    int by_rings;          /* each thread owns whole rings (P >= threads): the
                              stages up to the move need no barrier */
    contact_kernel *contact; /* skin contact (NULL: the centre-line model) */
    repulsion_consts repulsion; /* the centre-line model's law */
    double reach;          /* the centre-line model's broad-phase reach, m */
} step_context;

/* What the serial parts of a substep decide for every thread: written in a
 * single construct, read after its barrier (a stage reads at its start
 * only what earlier stages wrote: each out-of-memory flag has one writer). */
typedef struct {
    int oom_neighbours; /* out of memory in the centre-line model's broad phase */
    int oom_search;     /* ... in the skin contact's search */
    int oom_link;       /* ... in its link */
    int any_contact;    /* the skin contact has pairs this substep */
    int nstarts;        /* the skin contact's contact starts this substep */
    int serial_contact; /* the link's thread ran the iterations */
    /* threads done with what comes before: the search's setup, its plan,
     * the solve's link (last_here) */
    int at_setup, at_plan, at_solve;
} step_shared;

/* Whether the calling thread is the last of the T to get here (counter:
 * one of step_shared's, 0 at the substep's start). The last one does the
 * serial work at once, then a barrier: it is running, so no sleeping
 * thread is woken for the work, and the threads meet once, not twice (a
 * barrier, then a single's); the others' writes before they got here are
 * seen (the atomic orders them). */
static int last_here(int *counter, int T)
{
    int arrived;
#pragma omp atomic capture seq_cst
    arrived = ++*counter;
    return arrived == T;
}

/* One thread's part: its id, its fixed rows, its scratch, its timings. */
typedef struct {
    int tid, T;
    size_t r0, r1;        /* its rows in the static stages */
    float *scratch;
    double t_springs, t_integrate; /* thread 0's split of the move stage, s */
} tick_thread;

/* Segment centres and mean velocities, the river at the rows, the gas's
 * row volumes: own rows. */
static void stage_centres(const step_context *c, step_shared *sh, tick_thread *th)
{
    (void)sh;
    if (c->centres)
        for (size_t r = th->r0; r < th->r1; r++) {
            centre_row(c->s, c->in, r);
            if (c->sample)
                water_sample_row(c->s, r);
        }
    if (c->gas)
        volume_rows(c->s, c->in, th->r0, th->r1);
}

/* A thread's own rings [own_first, own_end) when it owns whole rings. */
static int own_first(const step_context *c, const tick_thread *th)
{
    return (int)(th->r0 / (size_t)c->s->M);
}
static int own_end(const step_context *c, const tick_thread *th)
{
    return (int)(th->r1 / (size_t)c->s->M);
}

/* Ring centres, volumes, gauges and leaks: rings. */
static void stage_ring_centres(const step_context *c, step_shared *sh, tick_thread *th)
{
    (void)sh;
    if (c->by_rings) { /* own rings, from own rows: no barrier either side */
        for (int p = own_first(c, th); p < own_end(c, th); p++)
            ring_centre(c->s, p, c->dt);
        return;
    }
#pragma omp for schedule(static)
    for (int p = 0; p < c->P; p++)
        ring_centre(c->s, p, c->dt);
}

/* The centre-line model's neighbours: bin, sort, count, reserve, fill. */
static void stage_broadphase(const step_context *c, step_shared *sh, tick_thread *th)
{
    (void)th;
    dinghy_sim *s = c->s;
#pragma omp for schedule(static)
    for (int p = 0; p < c->P; p++)
        broadphase_bin(&s->bp, s->c0, p);
#pragma omp single
    broadphase_sort(&s->bp);
#pragma omp for schedule(static)
    for (int p = 0; p < c->P; p++)
        broadphase_count(&s->bp, s->c0, p, c->reach);
#pragma omp single
    sh->oom_neighbours = broadphase_reserve(&s->bp)
                      || events_reserve(&s->ev, (size_t)s->bp.nb_start[c->P]);
    if (!sh->oom_neighbours) {
#pragma omp for schedule(static)
        for (int p = 0; p < c->P; p++)
            broadphase_fill(&s->bp, s->c0, p, c->reach);
    }
}

/* The centre-line repulsion on own rows (from own rows' centres and the
 * neighbours found before a barrier). */
static void stage_repulsion(const step_context *c, step_shared *sh, tick_thread *th)
{
    if (!sh->oom_neighbours)
        for (size_t r = th->r0; r < th->r1; r++)
            repulsion_row(c->s, &c->repulsion, r);
}

/* The skin, the water, the gas, the hand and the integration: each
 * thread's own rings when there are at least as many rings as threads
 * (their centres and gauges it found itself: no barrier since the step's
 * start; a core taken by another program is the team's to answer, team.h),
 * else chunks of rows taken as threads come free. Any split gives the same
 * bits. */
static void stage_move(const step_context *c, step_shared *sh, tick_thread *th)
{
    dinghy_sim *s = c->s;
    if (c->by_rings) { /* own rings, whose centres and gauges this thread found */
        if (!sh->oom_neighbours)
            move_rows(s, c->in, c->out, th->r0, th->r1, c->dt, c->substep, th->scratch,
                      th->tid == 0 ? &th->t_springs : NULL, &th->t_integrate);
        return;
    }
    const size_t T = (size_t)th->T, nrows = s->nrows;
    const size_t chunk = (size_t)c->P >= 4 * T ? (size_t)s->M
                       : (nrows / (4 * T) > 0 ? nrows / (4 * T) : 1);
    const long chunks = sh->oom_neighbours ? 0 : (long)((nrows + chunk - 1) / chunk);
#pragma omp for schedule(dynamic, 1) nowait
    for (long k = 0; k < chunks; k++) {
        const size_t c0 = (size_t)k * chunk, c1 = c0 + chunk < nrows ? c0 + chunk : nrows;
        move_rows(s, c->in, c->out, c0, c1, c->dt, c->substep, th->scratch,
                  th->tid == 0 ? &th->t_springs : NULL, &th->t_integrate);
    }
}

/* The skin contact's search: setup (the last thread done with the move),
 * bound (rings), plan (the last thread done with its bounds), grid
 * (rings), find (points, shares of equal work). */
static void stage_contact_search(const step_context *c, step_shared *sh, tick_thread *th)
{
    dinghy_sim *s = c->s;
    contact_kernel *contact = c->contact;
    if (last_here(&sh->at_setup, th->T))
        contact_setup(s, c->in, c->out, c->dt, c->substep, 1);
#pragma omp barrier
    const contact_params *kp = &s->tick->contact_params;
    const contact_state *ks = &s->tick->contact_state;
    if (c->by_rings) { /* own rings, timed for the split */
        const double t0 = omp_get_wtime();
        contact_bound(contact, kp, ks, own_first(c, th), own_end(c, th));
        balance_add(&s->tick->balance, th->tid, omp_get_wtime() - t0);
    } else {
#pragma omp for schedule(static) nowait
        for (int p = 0; p < c->P; p++)
            contact_bound(contact, kp, ks, p, p + 1);
    }
    if (last_here(&sh->at_plan, th->T)) {
        sh->oom_search = contact_plan(contact, kp, ks);
        s->tick->contact_found = !sh->oom_search && contact_any(contact);
        if (!sh->oom_search && !s->tick->contact_found) { /* nothing can touch */
            sh->oom_search = contact_link(contact); /* retires the last step's touches */
            sh->nstarts = sh->oom_search ? 0
                        : contact_starts(contact, s->tick->starts, SIM_CONTACT_STARTS);
        }
    }
#pragma omp barrier
    if (!sh->oom_search && s->tick->contact_found) {
        if (c->by_rings) { /* own rings, timed for the split; move is done with the scratch */
            const double t0 = omp_get_wtime();
            contact_grid(contact, own_first(c, th), own_end(c, th), th->scratch);
            balance_add(&s->tick->balance, th->tid, omp_get_wtime() - t0);
#pragma omp barrier
        } else {
#pragma omp for schedule(static)
            for (int p = 0; p < c->P; p++)
                contact_grid(contact, p, p + 1, th->scratch);
        }
        int v0, v1;
        contact_find_share(contact, th->tid, th->T, &v0, &v1);
        contact_find(contact, v0, v1);
    }
}

/* The skin contact's solve on what the last search found: setup and link
 * (serial; with few pairs the iterations too), else 8 x (gather own
 * vertices | add f dt / m to own v*). The last thread done with the
 * stages before links (last_here). */
static void stage_contact_solve(const step_context *c, step_shared *sh, tick_thread *th)
{
    dinghy_sim *s = c->s;
    contact_kernel *contact = c->contact;
    if (sh->oom_search || !s->tick->contact_found) {
        /* the positions' rows may be others' in the move (rows taken as
         * threads come free when the rings are fewer than the threads) */
#pragma omp barrier
        return;
    }
    if (last_here(&sh->at_solve, th->T)) {
        if (!c->search) /* this substep's state (the search set it up itself) */
            contact_setup(s, c->in, c->out, c->dt, c->substep, 0);
        sh->oom_link = contact_link(contact) || contact_reserve(s->tick);
        if (!sh->oom_link) {
            sh->any_contact = contact_pairs(contact) > 0;
            sh->nstarts = contact_starts(contact, s->tick->starts, SIM_CONTACT_STARTS);
        }
        /* few vertices in a pair: the iterations here, at once, cost less
         * than the two barriers each would need */
        if (!sh->oom_link && sh->any_contact
            && contact_active_count(contact) <= SERIAL_CONTACT_VERTICES) {
            for (int it = 0; it < SIM_CONTACT_ITERATIONS; it++) {
                contact_gather_active(contact, it, 0, contact_active_count(contact),
                                      s->tick->cf[0], s->tick->cf[1], s->tick->cf[2]);
                contact_apply(s, c->out, 0, s->nverts, it, (float)c->dt);
            }
            sh->serial_contact = 1;
        }
    }
#pragma omp barrier
    if (sh->oom_link || !sh->any_contact || sh->serial_contact)
        return;
    const size_t a = th->r0 * (size_t)s->N, b = th->r1 * (size_t)s->N;
    for (int it = 0; it < SIM_CONTACT_ITERATIONS; it++) {
        int first;
        const int na = contact_active(contact, (int)a, (int)b, &first);
        contact_gather_active(contact, it, first, first + na, s->tick->cf[0], s->tick->cf[1],
                              s->tick->cf[2]);
#pragma omp barrier
        contact_apply(s, c->out, a, b, it, (float)c->dt);
#pragma omp barrier
    }
}

/* The positions from the contact's corrections, the pen's walls, the
 * floor: own rows. */
static void stage_positions(const step_context *c, step_shared *sh, tick_thread *th)
{
    if (!sh->oom_search && !sh->oom_link)
        contact_positions(c->s, c->out, th->r0, th->r1, sh->any_contact, (float)c->dt);
}

/* A ring is limp enough for the crease stop (crease.h) below this share
 * of its rest volume: one at its working pressure cannot fold a hinge
 * near shut, and is spared the stop's cost. */
#define CREASE_LIMP_VOLUME 0.9

/* Whether ring p's skin is limp: shrunk below CREASE_LIMP_VOLUME (a
 * punctured ring still near full is not: a 1 cm hole takes a minute to
 * empty it), or held up by nothing. The gas's volume is this substep's;
 * a constant push keeps no volume, so it is measured here from `in` (a
 * crushed tube is limp too: its push does not grow as it flattens, and
 * a 16 x 8 ring under two others folded a hinge through itself and tore
 * at 4 s with the stop off). */
static int ring_limp(dinghy_sim *s, const sim_buffer *in, int p)
{
    const sim_ring_def *r = &s->def.ring;
    if (r->inflation == SIM_INFLATION_GAS)
        return s->ring_vol[p] < CREASE_LIMP_VOLUME * s->rest_volume;
    if (!(r->pressure > 0.0))
        return 1;
    volume_rows(s, in, (size_t)p * s->M, (size_t)(p + 1) * s->M); /* own rows only */
    double vol = 0.0;
    for (int m = 0; m < s->M; m++)
        vol += s->row_vol[(size_t)p * s->M + m];
    return vol < CREASE_LIMP_VOLUME * s->rest_volume;
}

/* The stops' window (s): which rings are limp and the crease stop's
 * angles are taken at its start, the self-crossing stop runs from its
 * start to its end. One step at the default 1/60 s; shorter steps share
 * one (the stop's cost is per call, and a window's motion is as small as
 * one 1/60 s step's). */
#define CREASE_WINDOW_S (1.0 / 60.0)

/* Steps of sim.dt a window spans (>= 1). */
static long crease_window_steps(const dinghy_sim *s)
{
    const double n = floor(CREASE_WINDOW_S / s->def.solver.dt * (1.0 + 1e-9));
    return n < 1.0 ? 1 : (long)n;
}

/* The crease stop on ring p: which rings and their hinges' angles decided
 * on the step's first substep, the stop on every substep; and the
 * self-crossing stop (cross.h) from the step's start to its last
 * substep's end. */
static void crease_ring(const step_context *c, int p, float *scratch)
{
    dinghy_sim *s = c->s;
    const size_t v0 = (size_t)p * s->V;
    float *theta = s->tick->crease_theta + 3 * v0;
    tick_context *t = s->tick;
    if (c->first && !c->window_first) /* within a window: no ring starts, a firm one stops */
        t->crease_on[p] = t->crease_on[p] && ring_limp(s, c->in, p);
    if (c->window_first) {
        t->crease_on[p] = (unsigned char)ring_limp(s, c->in, p);
        if (t->crease_on[p]) {
            crease_track(s->M, s->N, c->in->x + v0, c->in->y + v0, c->in->z + v0, theta);
            memcpy(t->cross_x0 + v0, c->in->x + v0, sizeof(float) * s->V);
            memcpy(t->cross_y0 + v0, c->in->y + v0, sizeof(float) * s->V);
            memcpy(t->cross_z0 + v0, c->in->z + v0, sizeof(float) * s->V);
        }
    }
    sim_buffer *o = c->out;
    if (!t->crease_on[p])
        return;
    /* the crease stop before the crossings: its opening moves a crease's
     * edge along the angle's gradient, into a flattened tube's facing
     * wall when it lies on it, and only a move within the window is
     * looked at; a hinge the crossings' moves fold past the stop is
     * opened on the next window's first substep (a move the next window
     * looks at) */
    crease_stop(s->M, s->N, o->x + v0, o->y + v0, o->z + v0, o->vx + v0, o->vy + v0, o->vz + v0,
                (float)c->dt, theta);
    if (c->window_last)
        cross_stop(s->M, s->N, t->cross_x0 + v0, t->cross_y0 + v0, t->cross_z0 + v0, o->x + v0,
                   o->y + v0, o->z + v0, o->vx + v0, o->vy + v0, o->vz + v0,
                   (float)s->def.ring.contact_thickness, CROSS_PASSES, scratch);
}

/* The crease stop: own rings, or rings shared out after a barrier when
 * their rows were split. */
static void stage_creases(const step_context *c, step_shared *sh, tick_thread *th)
{
    (void)sh;
    if (c->by_rings) {
        for (int p = own_first(c, th); p < own_end(c, th); p++)
            crease_ring(c, p, th->scratch);
        return;
    }
#pragma omp for schedule(static)
    for (int p = 0; p < c->P; p++)
        crease_ring(c, p, th->scratch);
}

/* The centre-line model's events, per ring (its neighbours' touches). */
static void stage_events(const step_context *c, step_shared *sh, tick_thread *th)
{
    (void)th;
    if (sh->oom_neighbours)
        return;
#pragma omp for schedule(static)
    for (int p = 0; p < c->P; p++)
        events_ring(&c->s->ev, &c->s->bp, p);
}

static int always(const step_context *c) { (void)c; return 1; }
static int with_rings_or_gas(const step_context *c) { return c->P > 1 || c->gas; }
static int with_repulsion(const step_context *c) { return c->P > 1 && !c->contact; }
static int with_search(const step_context *c) { return c->contact && c->search; }
static int with_contact(const step_context *c) { return c->contact != NULL; }
static int with_membrane(const step_context *c) { return c->membrane; }
/* The move stage reads rows' centres and repulsion other threads wrote:
 * after a barrier, unless the ring centres' stage ended with one and no
 * repulsion ran since. */
static int move_waits(const step_context *c)
{
    return with_repulsion(c) || (!c->by_rings && !with_rings_or_gas(c));
}
/* The crease stop reads whole rings: after a barrier unless each thread
 * owns its rings. */
static int creases_wait(const step_context *c) { return !c->by_rings; }
/* Rings' centres from rows other threads found, unless each owns its rings. */
static int ring_centres_wait(const step_context *c) { return !c->by_rings; }
/* The broad phase reads every ring's centre: after a barrier when the ring
 * centres' stage ended without one. */
static int broadphase_waits(const step_context *c) { return c->by_rings; }

/* A stage: what it is, where its time counts, whether it runs this
 * substep and whether a barrier comes first (it reads what other threads
 * wrote before it with no barrier since): the same answers on every
 * thread, from the context only. */
typedef struct {
    const char *name;
    sim_phase phase;
    int (*runs)(const step_context *c);           /* NULL: always */
    int (*barrier_before)(const step_context *c); /* NULL: never */
    void (*run)(const step_context *c, step_shared *sh, tick_thread *th);
    int own_rings;      /* works on the thread's own rings: timed for the split (balance.h) */
} tick_stage;

/* The substep, in order. One ring without gas needs no barrier after the
 * centres: each thread goes on with its own rows, and the ring's centre is
 * taken after the region. */
static const tick_stage TICK_STAGES[] = {
    {"centres", SIM_PHASE_CENTRES, NULL, NULL, stage_centres, 1},
    {"ring centres", SIM_PHASE_CENTRES, with_rings_or_gas, ring_centres_wait, stage_ring_centres, 1},
    {"broadphase", SIM_PHASE_BROADPHASE, with_repulsion, broadphase_waits, stage_broadphase, 0},
    {"repulsion", SIM_PHASE_CONTACTS, with_repulsion, NULL, stage_repulsion, 1},
    {"move", SIM_PHASE_SPRINGS, NULL, move_waits, stage_move, 1},
    {"contact search", SIM_PHASE_SKIN_CONTACT, with_search, NULL, stage_contact_search, 0},
    {"contact solve", SIM_PHASE_SKIN_CONTACT, with_contact, NULL, stage_contact_solve, 0},
    {"positions", SIM_PHASE_SKIN_CONTACT, with_contact, NULL, stage_positions, 1},
    {"creases", SIM_PHASE_SPRINGS, with_membrane, creases_wait, stage_creases, 1},
    {"events", SIM_PHASE_EVENTS, with_repulsion, always, stage_events, 0},
};
#define TICK_STAGE_COUNT ((int)(sizeof TICK_STAGES / sizeof TICK_STAGES[0]))

int tick_step(dinghy_sim *s, double dt, int substep)
{
    const sim_ring_def *ring = &s->def.ring;
    step_context ctx = { /* read as const by the stages */
        .s = s,
        .in = &s->buf[s->cur],
        .out = &s->buf[1 - s->cur],
        .dt = dt,
        .substep = substep,
        .first = substep == 0,
        .last = substep == s->substeps - 1,
        .search = search_due(s, substep),
        /* the river or the waves at the rows every RIVER_SAMPLE_S seconds
         * (still water alone needs no samples: the tick reads its level
         * from the definition) */
        .sample = (s->river || s->waves) && water_sample_due(s->step, s->substeps, substep, dt),
        .gas = ring->inflation == SIM_INFLATION_GAS,
        .membrane = ring->skin == SIM_SKIN_MEMBRANE,
        /* with gas, the membrane and skin contact nothing reads the
         * centres within a step but the search (each ring's mean velocity,
         * its self test), the river's samples (at the rows' centres) and
         * the step's end (events, re-drops, the push-out): 6 sums a vertex
         * saved on the other substeps; the seed's push and repulsion read
         * them every substep */
        .centres = substep == 0 || substep == s->substeps - 1 || ring->inflation != SIM_INFLATION_GAS
                || ring->skin != SIM_SKIN_MEMBRANE || !s->tick->contact,
        .P = s->P,
        .by_rings = s->P >= s->step_threads,
        .contact = s->tick->contact,
        .repulsion = repulsion_consts_of(ring),
        .reach = 2.0 * (ring->major_radius + ring->minor_radius) + ring->contact_range,
    };
    ctx.centres |= ctx.search || ctx.sample;
    if (ctx.membrane && ctx.first) { /* the stops' window: a new one after any break */
        const long k = crease_window_steps(s), w = s->tick->crease_window - 1;
        const int starts = w < 0 || s->step < w || s->step >= w + k;
        if (starts)
            s->tick->crease_window = s->step + 1;
        ctx.window_first = starts;
    }
    ctx.window_last = ctx.membrane && ctx.last
                   && s->step == s->tick->crease_window - 1 + crease_window_steps(s) - 1;
    step_shared shared = {0};
    s->bp.cell_size = ctx.reach;
    if (ctx.P == 1 || ctx.contact) /* no neighbours to look for: no centre-line repulsion */
        memset(s->bp.nb_start, 0, sizeof *s->bp.nb_start * ((size_t)ctx.P + 1));

    ring_balance *balance = &s->tick->balance;
    if (ctx.by_rings)
        balance_prepare(balance, s->step_threads, ctx.P);

#pragma omp parallel num_threads(s->step_threads)
    {
        tick_thread th = {.tid = omp_get_thread_num(), .T = omp_get_num_threads()};
        if (ctx.by_rings) { /* whole rings, shared by the threads' speeds (balance.h) */
            int p0, p1;
            balance_rings(balance, th.tid, &p0, &p1);
            th.r0 = (size_t)p0 * (size_t)s->M;
            th.r1 = (size_t)p1 * (size_t)s->M;
        } else {
            th.r0 = s->nrows * (size_t)th.tid / (size_t)th.T;
            th.r1 = s->nrows * (size_t)(th.tid + 1) / (size_t)th.T;
        }
        th.scratch = s->tick->scratch + (size_t)th.tid * s->tick->scratch_stride;
        double t = th.tid == 0 ? omp_get_wtime() : 0.0;
        for (int k = 0; k < TICK_STAGE_COUNT; k++) {
            const tick_stage *st = &TICK_STAGES[k];
            if (st->runs && !st->runs(&ctx))
                continue;
            if (st->barrier_before && st->barrier_before(&ctx)) {
#pragma omp barrier
            }
            const double started = ctx.by_rings && st->own_rings ? omp_get_wtime() : 0.0;
            st->run(&ctx, &shared, &th);
            if (ctx.by_rings && st->own_rings)
                balance_add(balance, th.tid, omp_get_wtime() - started);
            if (th.tid == 0) { /* thread 0's clock, as the bench reports it */
                const double now = omp_get_wtime();
                if (st->run == stage_move) {
                    s->phase_s[SIM_PHASE_SPRINGS] += th.t_springs;
                    s->phase_s[SIM_PHASE_INTEGRATE] += now - t - th.t_springs;
                } else
                    s->phase_s[st->phase] += now - t;
                t = now;
            }
        }
    }
    if (shared.oom_neighbours || shared.oom_search || shared.oom_link)
        return -1;
    if (ctx.by_rings && ctx.last) /* the next step's split from this step's times */
        balance_record(balance);
    if (ctx.P == 1) {
        if (!ctx.gas)
            ring_centre(s, 0, dt);
        events_ring(&s->ev, &s->bp, 0);
    } else if (ctx.contact) /* no neighbours' touches: little to do, no barrier */
        for (int p = 0; p < ctx.P; p++)
            events_ring(&s->ev, &s->bp, p);
    if (ctx.contact && ctx.last) /* the pushes of the step's last substep, per ring */
        for (int p = 0; p < ctx.P; p++)
            contact_ring_outputs(s, p, shared.any_contact);
    events_merge(&s->ev, &s->bp, s->c0, s->v0, s->step + 1);
    if (ctx.contact)
        contact_events(s, shared.nstarts);
    s->cur = 1 - s->cur;
    if (ctx.last)
        s->tick->window_ended = ctx.window_last;
    s->step += ctx.last;
    s->time += dt;
    for (size_t r = 0; r < s->nrows; r++)
        if (s->tick->row_bad[r])
            return 1;
    return 0;
}
