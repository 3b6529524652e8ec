/* The face loads, face by face; see face_loads.h.
 *
 * Laid out for SIMD: the block's vertex rows a-1 .. a+nb are padded once
 * into arrays of stride S = N + 2 (n at 1 + n, slot 0 a copy of n = N-1,
 * slot N + 1 a copy of n = 0), one after another, so that in them a
 * triangle's corners are a constant distance apart (0, S, S + 1 and 0,
 * S + 1, 1): each triangle type over the whole block is then one long
 * branch-free loop gcc vectorises, with many independent iterations to
 * overlap (a loop over one row of 16 faces would be a single vector: a
 * chain of divisions and square roots, all latency). The face at slot 0
 * of each row is the wrapped face n = N-1, computed there from the copies
 * (the same bits); the face at slot N + 1 is junk, never read. Triangles
 * cut by the water surface are few (a band at the waterline); they are
 * marked and computed again afterwards, gathered into one vectorised
 * pass, with the exact clipped pressure in closed form. The outputs are
 * stored component-major (18 arrays: triangle, corner, component, each
 * over the block with stride S), and the gather loops over n again. */
#include "physics/water/face_loads.h"

#include <math.h>
#include <string.h>

#include "physics/world/corner_gather.h"
#include "physics/water/hydro.h"
#include "physics/world/always_inline.h"


/* Per quad: two triangles, three corners each, three components. Face n
 * of quad row q is at q S + 1 + n of each of these arrays, and slot q S
 * holds the face n = N-1 again, so the gather's wrap round the tube needs
 * no special case and, in the membrane's force layout (rows of S, n at
 * 1 + n), runs over the whole block as one loop. */
#define QUAD_FLOATS 18
/* Arrays of the padded vertex rows: x, y, z, vx, vy, vz, then the water
 * surface's height at each vertex. (The flow's velocity is one per ring
 * row: each face's mean of its corners' is kept per face instead,
 * FACE_WATER arrays per triangle type.) */
#define ROW_ARRAYS 7
#define STATE_ARRAYS 6
#define FACE_WATER 3

/* Floats of one padded vertex array of a block of nb rows (its rows a-1
 * .. a+nb, and one more read by the last junk face), and of one array of
 * corner forces (nb + 1 quad rows). */
static size_t rows_len(int N, int nb) { return (size_t)(nb + 2) * (size_t)(N + 2) + 1; }
static size_t quads_len(int N, int nb) { return (size_t)(nb + 1) * (size_t)(N + 2); }

size_t face_loads_scratch_floats(int N, int max_rows)
{
    return QUAD_FLOATS * quads_len(N, max_rows)               /* corner forces */
         + ROW_ARRAYS * rows_len(N, max_rows)                 /* padded rows */
         + 2 * (size_t)(max_rows + 1) * (size_t)(N + 2)       /* cut flags */
         + 2 * FACE_WATER * quads_len(N, max_rows)            /* faces' flow velocity */
         + 2 * quads_len(N, max_rows)                         /* faces' drag coefficients */
         + 2 * quads_len(N, max_rows);                        /* faces' buoyancy stiffness */
}

/* Padded vertex rows: r[j][1 + n] for j = x, y, z, vx, vy, vz, eta, n =
 * 0 .. N-1, with copies of n = N-1 at 0 and of n = 0 at N + 1 (and on
 * into the rows after it). */
typedef struct {
    float *r[ROW_ARRAYS];
} padded_row;

/* Row m of the ring into out: the state, and the water at each vertex. */
static void pad_row(const face_loads_consts *k, const padded_row *out, int N,
                    const float *const src[STATE_ARRAYS], int m)
{
    const size_t first = (size_t)m * (size_t)N;
    for (int j = 0; j < STATE_ARRAYS; j++) {
        float *restrict to = out->r[j] + 1;
        const float *restrict from = src[j] + first;
        for (int n = 0; n < N; n++) /* inline: see INLINE_COPIES in the Makefile */
            to[n] = from[n];
        out->r[j][0] = src[j][first + (size_t)N - 1];
        out->r[j][N + 1] = src[j][first];
    }
    if (!k->flow) /* still water: the kernel reads the level instead */
        return;
    float *eta = out->r[6];
    const float e = k->eta[m], sx = k->sx[m], sy = k->sy[m], px = k->px[m], py = k->py[m];
    const float *x = out->r[0], *y = out->r[1];
    for (int n = 0; n <= N + 1; n++)
        eta[n] = e + sx * (x[n] - px) + sy * (y[n] - py);
}

/* The flow's velocity at each face of quad rows a-1 .. a+nb-1 (ring rows
 * m and m+1), the mean of its corners' as the faces sum them: T1 has one
 * corner in row m, T2 two. wf[t][j][q S + i], i = 0 .. S-1 (the pads too). */
static void face_water(const face_loads_consts *k, int M, int a, int nb, size_t S,
                       float *const wf[2][FACE_WATER])
{
    for (int q = 0; q <= nb; q++) {
        const int m = ((a - 1 + q) % M + M) % M, m1 = m + 1 == M ? 0 : m + 1;
        for (int j = 0; j < FACE_WATER; j++) {
            const float *w = j == 0 ? k->u : j == 1 ? k->v : k->w;
            const float t1 = ((w[m] + w[m1]) + w[m1]) * (1.0f / 3.0f);
            const float t2 = ((w[m] + w[m1]) + w[m]) * (1.0f / 3.0f);
            float *o1 = wf[0][j] + (size_t)q * S, *o2 = wf[1][j] + (size_t)q * S;
            for (size_t i = 0; i < S; i++) {
                o1[i] = t1;
                o2[i] = t2;
            }
        }
    }
}

/* Row r of the padded block whose row 0 is base. */
static padded_row row_of(const padded_row *base, size_t S, int r)
{
    padded_row p;
    for (int j = 0; j < ROW_ARRAYS; j++)
        p.r[j] = base->r[j] + (size_t)r * S;
    return p;
}

/* Adds a third of the drag and lift (docs/physics.md section 5) on a face of
 * unit normal n and (wet or dry) area A moving at u relative to a fluid of
 * density rho, clamped so that one step never reverses u (scaled so the
 * drag part alone would just stop it; the lift is across u); branch-free,
 * for the vectorised loop. Returns the drag's part as a coefficient, kg/s:
 * a third of the drag is -(that) u. */
static inline float face_drag(float nx, float ny, float nz, float A, float ux, float uy,
                              float uz, float rho, float cd, float cl, float clamp, float *dx,
                              float *dy, float *dz)
{
    float u2 = ux * ux + uy * uy + uz * uz, ul = sqrtf(u2);
    float iu = 1.0f / (ul > 0.0f ? ul : 1.0f);
    float c = (nx * ux + ny * uy + nz * uz) * iu;
    float q = c > 0.0f ? rho * A * u2 * c : 0.0f;
    float dv = cd * q * clamp; /* speed one step of the drag takes off u */
    float f = (dv > ul ? ul / dv : 1.0f) * -q * (1.0f / 3.0f);
    *dx += f * (cd * ux * iu + cl * (nx - c * ux * iu));
    *dy += f * (cd * uy * iu + cl * (ny - c * uy * iu));
    *dz += f * (cd * uz * iu + cl * (nz - c * uz * iu));
    return -f * cd * iu;
}

/* The fraction of a face's area under water, exact for a depth linear over
 * the face, given its corners' depths d and wet flags w (1 or 0): a lone
 * wet corner v keeps (d_v/(d_v-d_u)) (d_v/(d_v-d_w)) of it, a lone dry
 * corner takes that much away. */
static inline float wet_fraction(float da, float db, float dc, float wa, float wb, float wc)
{
    float ka = wa + wb + wc, qab = da - db, qac = da - dc, qbc = db - dc;
    float Pa = (da / (qab != 0.0f ? qab : 1.0f)) * (da / (qac != 0.0f ? qac : 1.0f));
    float Pb = (db / (qab != 0.0f ? -qab : 1.0f)) * (db / (qbc != 0.0f ? qbc : 1.0f));
    float Pc = (dc / (qac != 0.0f ? -qac : 1.0f)) * (dc / (qbc != 0.0f ? -qbc : 1.0f));
    float lone_wet = wa > 0.0f ? Pa : (wb > 0.0f ? Pb : Pc);
    float lone_dry = wa == 0.0f ? Pa : (wb == 0.0f ? Pb : Pc);
    return ka == 3.0f ? 1.0f : ka == 2.0f ? 1.0f - lone_dry : ka == 1.0f ? lone_wet : 0.0f;
}

/* The water pressure's consistent loads on the corners of a face cut by
 * the surface, exact for a depth linear over the face (as hydro.h's
 * clipper, in float and branch-free so that it vectorises): the wet part
 * of a face with one corner i wet is the triangle (x_i, I_j, I_k), I on the
 * edges at t_j = d_i / (d_i - d_j), t_k likewise, whose area is t_j t_k of
 * the face's; its loads, -(A/12)(2 e + ...) n at its corners, carried to the
 * face's corners by the shape functions, give per unit s12 = -rho g / 12
 * and area vector n:
 *   F_i = s12 t_j t_k d_i (4 - t_j - t_k) n,  F_j = s12 t_j t_k d_i t_j n,
 *   F_k = s12 t_j t_k d_i t_k n.
 * With one corner i dry, the wet part is the face less that triangle, and
 * the same formula with d_i < 0 is the integral over the dry triangle of
 * the depth extended linearly: loads = whole face - dry triangle. Writes
 * the coefficients of n for corners a, b, c (faces with no corner or all
 * three under water get 0 or the whole face's). */
static inline void cut_face_pressure(float da, float db, float dc, float wa, float wb, float wc,
                                     float s12, float *fa, float *fb, float *fc)
{
    float ka = wa + wb + wc;
    /* the odd corner out: the lone wet one (ka = 1) or the lone dry one (ka = 2) */
    float oa = ka == 1.0f ? wa : 1.0f - wa, ob = ka == 1.0f ? wb : 1.0f - wb;
    int odd_a = oa > 0.0f, odd_b = (oa <= 0.0f) & (ob > 0.0f); /* & not &&: no branch */
    /* i, j, k in winding order from the odd corner: (a b c), (b c a), (c a b) */
    float di = odd_a ? da : odd_b ? db : dc, dj = odd_a ? db : odd_b ? dc : da;
    float dk = odd_a ? dc : odd_b ? da : db;
    float qj = di - dj, qk = di - dk;
    float tj = di / (qj != 0.0f ? qj : 1.0f), tk = di / (qk != 0.0f ? qk : 1.0f);
    float base = s12 * tj * tk * di;
    float Fi = base * (4.0f - tj - tk), Fj = base * tj, Fk = base * tk;
    float sub_a = odd_a ? Fi : odd_b ? Fk : Fj, sub_b = odd_a ? Fj : odd_b ? Fi : Fk;
    float sub_c = odd_a ? Fk : odd_b ? Fj : Fi;
    float whole = ka >= 2.0f ? 1.0f : 0.0f, sign = ka == 1.0f ? 1.0f : ka == 2.0f ? -1.0f : 0.0f;
    *fa = whole * s12 * (2.0f * da + db + dc) + sign * sub_a;
    *fb = whole * s12 * (da + 2.0f * db + dc) + sign * sub_b;
    *fc = whole * s12 * (da + db + 2.0f * dc) + sign * sub_c;
}

/* One triangle type over faces n0 .. n1-1: corners A, B, C are taken from
 * the padded rows (ra, rb, rc) at n + oa, n + ob, n + oc.
 * Writes the three corners' forces to o[corner * 3 + component][n] and
 * flags the faces cut by the water surface.
 *
 * Two variants of one body (`whole` is a constant at each call: gcc
 * compiles one of each). whole = 0, over every face of a block: a face not
 * cut by the surface is wholly wet or wholly dry, so it meets one fluid
 * only (the other's term, on zero area, is exactly zero and adding it
 * changes no bit), and the costly wet fraction is not needed; the values
 * of cut faces are wrong and redone. whole = 1, over the gathered cut faces:
 * the wet fraction, water and air in proportion, and the pressure on the
 * wet part (cut_face_pressure). `flow` is a constant too: 0 on still
 * water, whose surface is the level and whose velocity is 0 (the padded
 * rows' water arrays are then not read: the same bits, fewer loads). The
 * outputs are every one a parameter of its own: restrict tells gcc they do
 * not overlap. */
static ALWAYS_INLINE void triangle_loop(const face_loads_consts *restrict k, int n0, int n1, int whole,
                                 int flow, const padded_row *ra, int oa, const padded_row *rb, int ob,
                                 const padded_row *rc, int oc, float *restrict o0,
                                 float *restrict o1, float *restrict o2, float *restrict o3,
                                 float *restrict o4, float *restrict o5, float *restrict o6,
                                 float *restrict o7, float *restrict o8, float *restrict cut,
                                 float *restrict okd, float *restrict okz, const float *restrict fu,
                                 const float *restrict fv, const float *restrict fw)
{
    const float g = k->gauge / 3.0f, s12 = -k->rho_g / 12.0f, lift3 = k->rho_g_t / 3.0f;
    const float kz3 = k->rho_g / 3.0f;
    const float drag = k->drag ? 1.0f : 0.0f, buoy = k->rho_g > 0.0f ? 1.0f : 0.0f;
    const float cd = k->cd, cl = k->cl, rw = k->rho_water, ra_ = k->rho_air;
    const float clamp = k->dt / k->m_face, level = k->level;
    const float *restrict ax = ra->r[0] + oa, *restrict ay = ra->r[1] + oa, *restrict az = ra->r[2] + oa;
    const float *restrict bx = rb->r[0] + ob, *restrict by = rb->r[1] + ob, *restrict bz = rb->r[2] + ob;
    const float *restrict cx = rc->r[0] + oc, *restrict cy = rc->r[1] + oc, *restrict cz = rc->r[2] + oc;
    const float *restrict au = ra->r[3] + oa, *restrict av = ra->r[4] + oa, *restrict aw = ra->r[5] + oa;
    const float *restrict bu = rb->r[3] + ob, *restrict bv = rb->r[4] + ob, *restrict bw = rb->r[5] + ob;
    const float *restrict cu = rc->r[3] + oc, *restrict cv = rc->r[4] + oc, *restrict cw = rc->r[5] + oc;
    const float *restrict ae = ra->r[6] + oa, *restrict be = rb->r[6] + ob, *restrict ce = rc->r[6] + oc;
    for (int n = n0; n < n1; n++) {
        float e1x = bx[n] - ax[n], e1y = by[n] - ay[n], e1z = bz[n] - az[n];
        float e2x = cx[n] - ax[n], e2y = cy[n] - ay[n], e2z = cz[n] - az[n];
        float nx = 0.5f * (e1y * e2z - e1z * e2y);
        float ny = 0.5f * (e1z * e2x - e1x * e2z);
        float nz = 0.5f * (e1x * e2y - e1y * e2x);
        /* water pressure on a face wholly under water (cut faces: later) */
        float da = (flow ? ae[n] : level) - az[n], db = (flow ? be[n] : level) - bz[n];
        float dc = (flow ? ce[n] : level) - cz[n];
        /* branch-free (it vectorises): 1 or 0 per corner under water */
        float wa = da > 0.0f ? 1.0f : 0.0f, wb = db > 0.0f ? 1.0f : 0.0f;
        float wc = dc > 0.0f ? 1.0f : 0.0f;
        float all = wa * wb * wc, any = 1.0f - (1.0f - wa) * (1.0f - wb) * (1.0f - wc);
        cut[n] = any - all;
        float wet = all * buoy;
        float s = s12 * wet;
        float fa = s * (2.0f * da + db + dc), fb = s * (da + 2.0f * db + dc);
        float fc = s * (da + db + 2.0f * dc);
        /* drag and lift, water and air, clamped (see face_drag) */
        /* the face's velocity relative to the water and to the (still) air */
        float vfx = (au[n] + bu[n] + cu[n]) * (1.0f / 3.0f);
        float vfy = (av[n] + bv[n] + cv[n]) * (1.0f / 3.0f);
        float vfz = (aw[n] + bw[n] + cw[n]) * (1.0f / 3.0f);
        float uwx = flow ? vfx - fu[n] : vfx;
        float uwy = flow ? vfy - fv[n] : vfy;
        float uwz = flow ? vfz - fw[n] : vfz;
        float area = sqrtf(nx * nx + ny * ny + nz * nz);
        float ia = 1.0f / (area > 0.0f ? area : 1.0f);
        float dx = 0.0f, dy = 0.0f, dz = lift3 * area * all;
        float kd, wet_z = kz3 * nz * wet; /* a corner's d F_z / dz, N/m (see kz) */
        if (whole) {
            cut_face_pressure(da, db, dc, wa, wb, wc, s12 * buoy, &fa, &fb, &fc);
            float wf = wet_fraction(da, db, dc, wa, wb, wc);
            dz = lift3 * area * wf;
            wet_z = kz3 * nz * wf * buoy;
            kd = face_drag(nx * ia, ny * ia, nz * ia, area * drag * wf, uwx, uwy, uwz, rw, cd,
                           cl, clamp, &dx, &dy, &dz);
            kd += face_drag(nx * ia, ny * ia, nz * ia, area * drag * (1.0f - wf), vfx, vfy, vfz,
                            ra_, cd, cl, clamp, &dx, &dy, &dz);
        } else {
            int in_water = all > 0.0f;
            kd = face_drag(nx * ia, ny * ia, nz * ia, area * drag, in_water ? uwx : vfx,
                           in_water ? uwy : vfy, in_water ? uwz : vfz, in_water ? rw : ra_, cd,
                           cl, clamp, &dx, &dy, &dz);
        }
        okd[n] = kd;
        okz[n] = wet_z;
        float gx = g * nx + dx, gy = g * ny + dy, gz = g * nz + dz;
        o0[n] = gx + fa * nx;
        o1[n] = gy + fa * ny;
        o2[n] = gz + fa * nz;
        o3[n] = gx + fb * nx;
        o4[n] = gy + fb * ny;
        o5[n] = gz + fb * nz;
        o6[n] = gx + fc * nx;
        o7[n] = gy + fc * ny;
        o8[n] = gz + fc * nz;
    }
}

/* One triangle type over `count` faces from row ra into out (nine arrays
 * S floats apart), the fast variant; the cut faces flagged in cut; wf the
 * faces' flow velocity (FACE_WATER arrays; unread on still water). */
static void triangle_row(const face_loads_consts *k, int count, size_t S, const padded_row *ra, int oa,
                         const padded_row *rb, int ob, const padded_row *rc, int oc, float *out,
                         float *cut, float *kd, float *kz, float *const wf[FACE_WATER])
{
    if (k->flow)
        triangle_loop(k, 0, count, 0, 1, ra, oa, rb, ob, rc, oc, out, out + S, out + 2 * S,
                      out + 3 * S, out + 4 * S, out + 5 * S, out + 6 * S, out + 7 * S, out + 8 * S,
                      cut, kd, kz, wf[0], wf[1], wf[2]);
    else
        triangle_loop(k, 0, count, 0, 0, ra, oa, rb, ob, rc, oc, out, out + S, out + 2 * S,
                      out + 3 * S, out + 4 * S, out + 5 * S, out + 6 * S, out + 7 * S, out + 8 * S,
                      cut, kd, kz, NULL, NULL, NULL);
}

/* Cut faces gathered for one vectorised pass of the whole variant. */
#define CUT_CHUNK 64

/* The listed faces of one triangle type (corners at L, L + ob, L + oc of
 * the padded block rows), cut by the surface, redone whole (drag and lift
 * in proportion to the wet area, the pressure on the wet part) in one
 * vectorised pass over their gathered corners, written back to out (nine
 * arrays Q floats apart). */
static void fix_listed(const face_loads_consts *k, const padded_row *rows, int ob, int oc, size_t Q,
                       const int *list, int count, float *out, float *kd, float *kz,
                       float *const wf[FACE_WATER])
{
    float buf[(3 * ROW_ARRAYS + FACE_WATER + 12) * CUT_CHUNK];
    padded_row corner[3] = {0};
    const int off[3] = {0, ob, oc};
    const int arrays = k->flow ? ROW_ARRAYS : STATE_ARRAYS; /* still water: no water arrays */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < arrays; j++) {
            float *dst = buf + (size_t)(i * ROW_ARRAYS + j) * CUT_CHUNK;
            const float *from = rows->r[j] + off[i];
            for (int e = 0; e < count; e++)
                dst[e] = from[list[e]];
            corner[i].r[j] = dst;
        }
    float *water = buf + (size_t)3 * ROW_ARRAYS * CUT_CHUNK;
    for (int j = 0; j < FACE_WATER && k->flow; j++)
        for (int e = 0; e < count; e++)
            water[j * CUT_CHUNK + e] = wf[j][list[e]];
    float *o = water + FACE_WATER * CUT_CHUNK, *flags = o + 9 * CUT_CHUNK;
    float *okd = flags + CUT_CHUNK, *okz = okd + CUT_CHUNK;
    if (k->flow)
        triangle_loop(k, 0, count, 1, 1, &corner[0], 0, &corner[1], 0, &corner[2], 0, o,
                      o + CUT_CHUNK, o + 2 * CUT_CHUNK, o + 3 * CUT_CHUNK, o + 4 * CUT_CHUNK,
                      o + 5 * CUT_CHUNK, o + 6 * CUT_CHUNK, o + 7 * CUT_CHUNK, o + 8 * CUT_CHUNK,
                      flags, okd, okz, water, water + CUT_CHUNK, water + 2 * CUT_CHUNK);
    else
        triangle_loop(k, 0, count, 1, 0, &corner[0], 0, &corner[1], 0, &corner[2], 0, o,
                      o + CUT_CHUNK, o + 2 * CUT_CHUNK, o + 3 * CUT_CHUNK, o + 4 * CUT_CHUNK,
                      o + 5 * CUT_CHUNK, o + 6 * CUT_CHUNK, o + 7 * CUT_CHUNK, o + 8 * CUT_CHUNK,
                      flags, okd, okz, NULL, NULL, NULL);
    for (int j = 0; j < 9; j++)
        for (int e = 0; e < count; e++)
            out[(size_t)j * Q + (size_t)list[e]] = o[j * CUT_CHUNK + e];
    for (int e = 0; e < count; e++) {
        kd[list[e]] = okd[e];
        kz[list[e]] = okz[e];
    }
}

/* Redoes the faces of one triangle type flagged as cut in nq quad rows
 * (fix_listed), CUT_CHUNK at a time: faces n = 0 .. N-1 and the wrapped
 * copy of n = N-1 at slot 0. The list is built without a branch per face
 * (a branch on the flag is mispredicted about as often as a face is cut). */
static void fix_cut(const face_loads_consts *k, int N, int nq, size_t Q, const padded_row *rows, int ob,
                    int oc, const float *cut, float *out, float *kd, float *kz,
                    float *const wf[FACE_WATER])
{
    const int S = N + 2;
    int list[CUT_CHUNK], count = 0;
    for (int q = 0; q < nq; q++)
        for (int j = 0; j <= N; j++) {
            list[count] = q * S + j;
            count += cut[q * S + j] != 0.0f;
            if (count == CUT_CHUNK) {
                fix_listed(k, rows, ob, oc, Q, list, count, out, kd, kz, wf);
                count = 0;
            }
        }
    if (count)
        fix_listed(k, rows, ob, oc, Q, list, count, out, kd, kz, wf);
}

void face_loads_block(const face_loads_consts *k, int M, int N, const float *x, const float *y,
                      const float *z, const float *vx, const float *vy, const float *vz, int a,
                      int nb, float *scratch, float *const f[3], float *kd, float *kz, int W,
                      int h)
{
    const size_t S = (size_t)N + 2, Q = quads_len(N, nb), R = rows_len(N, nb);
    float *ql = scratch;     /* array j at ql + j Q: face n of quad row q at q S + 1 + n */
    padded_row rows;         /* row r of the block (ring row a - 1 + r) at r S */
    for (int j = 0; j < ROW_ARRAYS; j++)
        rows.r[j] = scratch + QUAD_FLOATS * Q + (size_t)j * R;
    float *cut[2] = {rows.r[0] + ROW_ARRAYS * R, rows.r[0] + ROW_ARRAYS * R + (size_t)(nb + 1) * S};
    float *const wf[2][FACE_WATER] = {
        {cut[1] + Q, cut[1] + 2 * Q, cut[1] + 3 * Q},
        {cut[1] + 4 * Q, cut[1] + 5 * Q, cut[1] + 6 * Q},
    };
    float *const kf[2] = {cut[1] + 7 * Q, cut[1] + 8 * Q}; /* per face, by triangle type */
    float *const zf[2] = {cut[1] + 9 * Q, cut[1] + 10 * Q}; /* the same */
    const float *const src[STATE_ARRAYS] = {x, y, z, vx, vy, vz};
    for (int r = 0; r <= nb + 1; r++) {
        padded_row row = row_of(&rows, S, r);
        pad_row(k, &row, N, src, ((a - 1 + r) % M + M) % M);
    }
    if (k->flow)
        face_water(k, M, a, nb, S, wf);
    for (int j = 0; j < (k->flow ? ROW_ARRAYS : STATE_ARRAYS); j++) /* read by the last junk face only */
        rows.r[j][R - 1] = 0.0f;
    /* every triangle of quad rows a-1 .. a+nb-1: (m,n) (m+1,n) (m+1,n+1)
     * and (m,n) (m+1,n+1) (m,n+1), in one loop over the block each */
    const int faces = (nb + 1) * (int)S;
    float *t2 = ql + 9 * Q;
    triangle_row(k, faces, Q, &rows, 0, &rows, (int)S, &rows, (int)S + 1, ql, cut[0], kf[0],
                 zf[0], wf[0]);
    triangle_row(k, faces, Q, &rows, 0, &rows, (int)S + 1, &rows, 1, t2, cut[1], kf[1], zf[1],
                 wf[1]);
    /* a face changes from the fast variant only where the surface cuts
     * it, and only with water forces on */
    if (k->rho_g > 0.0f || k->drag) {
        fix_cut(k, N, nb + 1, Q, &rows, (int)S, (int)S + 1, cut[0], ql, kf[0], zf[0], wf[0]);
        fix_cut(k, N, nb + 1, Q, &rows, (int)S + 1, 1, cut[1], t2, kf[1], zf[1], wf[1]);
    }
    /* each vertex gathers its six corners (gather_corners); quad row a + i
     * is row i + 1 of the arrays, n - 1 = -1 the wrapped slot 0 */
    for (int c = 0; c < 3; c++) {
        const float *q0 = ql + (size_t)c * Q;
        const float *t1a = q0 + S, *t2a = q0 + 9 * Q + S, *t2c = q0 + 15 * Q + S - 1;
        const float *t1b = q0 + 3 * Q, *t1c = q0 + 6 * Q - 1, *t2b = q0 + 12 * Q - 1;
        if (W == (int)S && h == 1) /* the same layout: the whole block at once */
            gather_corners(1, (size_t)nb * S - 1, t1a, t2a, t2c, t1b, t1c, t2b, f[c]);
        else /* row by row into the spring kernel's */
            for (int i = 0; i < nb; i++) {
                const size_t L = (size_t)i * S + 1;
                gather_corners(0, (size_t)N, t1a + L, t2a + L, t2c + L, t1b + L, t1c + L,
                               t2b + L, f[c] + (size_t)i * W + h);
            }
    }
    if (kd) /* each vertex's six faces' drag coefficients, as the corners above */
        for (int i = 0; i < nb; i++) {
            const size_t L = (size_t)i * S + 1;
            gather_corners(0, (size_t)N, kf[0] + S + L, kf[1] + S + L, kf[1] + S - 1 + L,
                           kf[0] + L, kf[0] - 1 + L, kf[1] - 1 + L, kd + (size_t)i * N);
        }
    if (kz) /* each vertex's six faces' buoyancy stiffness, the same way */
        for (int i = 0; i < nb; i++) {
            const size_t L = (size_t)i * S + 1;
            gather_corners(0, (size_t)N, zf[0] + S + L, zf[1] + S + L, zf[1] + S - 1 + L,
                           zf[0] + L, zf[0] - 1 + L, zf[1] - 1 + L, kz + (size_t)i * N);
        }
}

/* Twice six times the volume of the two tetrahedra from the origin to
 * the triangles of one quad (corners a = (m,n), b = (m+1,n), c =
 * (m+1,n+1), d = (m,n+1), relative to the origin): a . (b x c) + a . (c x d). */
static inline float quad_tets(float ax, float ay, float az, float bx, float by, float bz,
                              float cx, float cy, float cz, float dx, float dy, float dz)
{
    return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
         + ax * (cy * dz - cz * dy) + ay * (cz * dx - cx * dz) + az * (cx * dy - cy * dx);
}

double quad_row_volume_fast(int M, int N, const float *x, const float *y, const float *z, int m,
                            const float o[3])
{
    const float *x0 = x + (size_t)m * N, *y0 = y + (size_t)m * N, *z0 = z + (size_t)m * N;
    const size_t m1 = (size_t)((m + 1) % M) * N;
    const float *x1 = x + m1, *y1 = y + m1, *z1 = z + m1;
    /* the quads' terms in a vectorised loop, then summed in order: a float
     * sum of N terms of one row (about 1e-3 m^3 each), then double across
     * rows: the ring's volume to about 1e-7 of itself */
    float t[N];
    for (int n = 0; n + 1 < N; n++)
        t[n] = quad_tets(x0[n] - o[0], y0[n] - o[1], z0[n] - o[2],
                         x1[n] - o[0], y1[n] - o[1], z1[n] - o[2],
                         x1[n + 1] - o[0], y1[n + 1] - o[1], z1[n + 1] - o[2],
                         x0[n + 1] - o[0], y0[n + 1] - o[1], z0[n + 1] - o[2]);
    int n = N - 1; /* the quad that wraps round the tube */
    t[n] = quad_tets(x0[n] - o[0], y0[n] - o[1], z0[n] - o[2], x1[n] - o[0], y1[n] - o[1],
                     z1[n] - o[2], x1[0] - o[0], y1[0] - o[1], z1[0] - o[2],
                     x0[0] - o[0], y0[0] - o[1], z0[0] - o[2]);
    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        sum += t[i];
    return (double)sum / 6.0;
}

/* Rows per pass of quad_rows_volume_fast. */
#define VOLUME_ROWS 8

void quad_rows_volume_fast(int M, int N, const float *x, const float *y, const float *z, int m0,
                           int count, const float o[3], double *vol)
{
    float t[VOLUME_ROWS * N];
    int m = m0;
    while (m < m0 + count) {
        /* rows whose next row follows in memory (not the last: it wraps) */
        int R = m0 + count - m < VOLUME_ROWS ? m0 + count - m : VOLUME_ROWS;
        if (m + R > M - 1)
            R = M - 1 - m;
        if (R <= 0) { /* row M - 1 */
            vol[m - m0] = quad_row_volume_fast(M, N, x, y, z, m, o);
            m++;
            continue;
        }
        /* every quad of R rows in one loop, as if each row's next vertex
         * round the tube followed it in memory; the last quad of each row
         * (which wraps) is redone below (that of the last row not even
         * computed here: it would read past row m + R) */
        const size_t L0 = (size_t)m * N, NN = (size_t)N;
        const int len = R * N - 1;
        for (int i = 0; i < len; i++) {
            const size_t L = L0 + (size_t)i;
            t[i] = quad_tets(x[L] - o[0], y[L] - o[1], z[L] - o[2],
                             x[L + NN] - o[0], y[L + NN] - o[1], z[L + NN] - o[2],
                             x[L + NN + 1] - o[0], y[L + NN + 1] - o[1], z[L + NN + 1] - o[2],
                             x[L + 1] - o[0], y[L + 1] - o[1], z[L + 1] - o[2]);
        }
        for (int r = 0; r < R; r++) {
            const size_t a = L0 + (size_t)r * NN, b = a + NN, n = NN - 1;
            t[r * N + N - 1] = quad_tets(x[a + n] - o[0], y[a + n] - o[1], z[a + n] - o[2],
                                         x[b + n] - o[0], y[b + n] - o[1], z[b + n] - o[2],
                                         x[b] - o[0], y[b] - o[1], z[b] - o[2],
                                         x[a] - o[0], y[a] - o[1], z[a] - o[2]);
            float sum = 0.0f;
            for (int i = 0; i < N; i++)
                sum += t[r * N + i];
            vol[m + r - m0] = (double)sum / 6.0;
        }
        m += R;
    }
}

double quad_row_volume(int M, int N, const float *x, const float *y, const float *z, int m,
                       const double o[3])
{
    int m1 = (m + 1) % M;
    double vol = 0.0;
    for (int n = 0; n < N; n++) {
        int n1 = (n + 1) % N;
        size_t id[4] = {(size_t)m * N + n, (size_t)m1 * N + n, (size_t)m1 * N + n1,
                        (size_t)m * N + n1};
        double P[4][3];
        for (int j = 0; j < 4; j++) {
            P[j][0] = x[id[j]] - o[0];
            P[j][1] = y[id[j]] - o[1];
            P[j][2] = z[id[j]] - o[2];
        }
        vol += hydro_tet_volume(P[0], P[1], P[2]) + hydro_tet_volume(P[0], P[2], P[3]);
    }
    return vol;
}

/* The six one-ring neighbours of vertex (m, n), outward in turn: (m+1,n),
 * (m+1,n+1), (m,n+1), (m-1,n), (m-1,n-1), (m,n-1); consecutive pairs are
 * the corners after the vertex of its six outward triangles. */
void face_gas_block(float gauge, int M, int N, const float *x, const float *y, const float *z,
                    int a, int nb, float *const f[3], int W, int h)
{
    const float g6 = gauge * (1.0f / 6.0f);
    const size_t S = (size_t)N + 2;
    float pad[3][3][S]; /* rows m-1, m, m+1; x, y, z; n at 1 + n, wrapped at 0 and N + 1 */
    const float *const src[3] = {x, y, z};
    for (int i = 0; i < nb; i++) {
        const int m = (a + i) % M;
        for (int r = 0; r < 3; r++) {
            const size_t first = (size_t)((m - 1 + r + M) % M) * (size_t)N;
            for (int c = 0; c < 3; c++) {
                float *row = pad[r][c];
                for (int n = 0; n < N; n++)
                    row[1 + n] = src[c][first + (size_t)n];
                row[0] = src[c][first + (size_t)N - 1];
                row[N + 1] = src[c][first];
            }
        }
        float *fx = f[0] + (size_t)i * W + h, *fy = f[1] + (size_t)i * W + h;
        float *fz = f[2] + (size_t)i * W + h;
        const float *X0 = pad[0][0], *Y0 = pad[0][1], *Z0 = pad[0][2];
        const float *X1 = pad[1][0], *Y1 = pad[1][1], *Z1 = pad[1][2];
        const float *X2 = pad[2][0], *Y2 = pad[2][1], *Z2 = pad[2][2];
        for (int n = 0; n < N; n++) {
            const int j = n + 1;
            const float vx = X1[j], vy = Y1[j], vz = Z1[j];
            /* the neighbours relative to the vertex, in turn */
            const float px[6] = {X2[j] - vx, X2[j + 1] - vx, X1[j + 1] - vx,
                                 X0[j] - vx, X0[j - 1] - vx, X1[j - 1] - vx};
            const float py[6] = {Y2[j] - vy, Y2[j + 1] - vy, Y1[j + 1] - vy,
                                 Y0[j] - vy, Y0[j - 1] - vy, Y1[j - 1] - vy};
            const float pz[6] = {Z2[j] - vz, Z2[j + 1] - vz, Z1[j + 1] - vz,
                                 Z0[j] - vz, Z0[j - 1] - vz, Z1[j - 1] - vz};
            float sx = 0.0f, sy = 0.0f, sz = 0.0f;
            for (int k = 0; k < 6; k++) {
                const int l = k + 1 == 6 ? 0 : k + 1;
                sx += py[k] * pz[l] - pz[k] * py[l];
                sy += pz[k] * px[l] - px[k] * pz[l];
                sz += px[k] * py[l] - py[k] * px[l];
            }
            fx[n] += g6 * sx;
            fy[n] += g6 * sy;
            fz[n] += g6 * sz;
        }
    }
}
