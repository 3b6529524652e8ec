/* The water as the rows see it: samples of the surface and current at
 * each row's centre, contacts with rocks, banks and bed (docs/physics.md
 * section 6). */
#include "physics/water/water_rows.h"

#include <math.h>

#include "dinghy/river.h"
#include "physics/water/waves_couple.h"

/* Rows whose centre is closer than this to a solid, beyond the tube
 * radius, check every vertex for contact (a ring moves a few centimetres
 * between two samples). */
#define NEAR_MARGIN 0.5
/* The bound on how fast the solids' signed distance changes with
 * position (1 for an exact distance; the ground's is a height field's
 * vertical gap times its slope's cosine), and a margin for float rounding, m. */
#define SOLID_LIPSCHITZ 1.5
#define SOLID_SLACK 0.01
/* Coulomb friction coefficient of wet rubber on rock and gravel. */
#define FRICTION 0.5

int water_sample_due(long step, int substeps, int k, double h)
{
    long long every = llround(RIVER_SAMPLE_S / h);
    if (every < 1)
        every = 1;
    return ((long long)step * substeps + k) % every == 0;
}

/* Adds the waves (docs/physics.md section 14) to the row's water plane
 * and flow: their height beside its tube (waves_row_height), their slope
 * and surface velocity at its centre. */
static void add_waves(dinghy_sim *s, size_t r, double x, double y)
{
    waves_point w;
    waves_sample(s->waves->layer, x, y, &w);
    tick_context *t = s->tick;
    double *plane = s->waves->plane + 3 * r; /* what the rows' volumes leave out again */
    plane[0] = waves_row_height(s, r, x, y);
    plane[1] = w.slope[0];
    plane[2] = w.slope[1];
    t->weta[r] = (float)(t->weta[r] + plane[0]);
    t->wsx[r] = (float)(t->wsx[r] + plane[1]);
    t->wsy[r] = (float)(t->wsy[r] + plane[2]);
    t->wpx[r] = (float)x;
    t->wpy[r] = (float)y;
    t->wu[r] = (float)(t->wu[r] + w.velocity[0]);
    t->wv[r] = (float)(t->wv[r] + w.velocity[1]);
}

void water_sample_row(dinghy_sim *s, size_t r)
{
    double x = s->tick->cx[r], y = s->tick->cy[r], z = s->tick->cz[r];
    if (!s->river) {
        s->tick->weta[r] = (float)s->def.world.water.level;
        s->tick->wsx[r] = s->tick->wsy[r] = s->tick->wpx[r] = s->tick->wpy[r] = 0.0f;
        s->tick->wu[r] = s->tick->wv[r] = s->tick->ww[r] = 0.0f;
        s->tick->wdist[r] = INFINITY;
        if (s->waves)
            add_waves(s, r, x, y);
        return;
    }
    dinghy_water_point wp;
    double d;
    river_sample_solid(s->river, x, y, z, s->time, &wp, &d);
    double nz = wp.normal[2] > 0.05 ? wp.normal[2] : 0.05;
    s->tick->weta[r] = (float)wp.height;
    s->tick->wsx[r] = (float)(-wp.normal[0] / nz);
    s->tick->wsy[r] = (float)(-wp.normal[1] / nz);
    s->tick->wpx[r] = (float)x;
    s->tick->wpy[r] = (float)y;
    s->tick->wu[r] = (float)wp.velocity[0];
    s->tick->wv[r] = (float)wp.velocity[1];
    s->tick->ww[r] = (float)wp.velocity[2];
    s->tick->wdist[r] = (float)d;
    s->tick->wpz[r] = (float)z;
    if (s->waves)
        add_waves(s, r, x, y);
}

double water_height_at(const dinghy_sim *s, size_t r, double x, double y)
{
    if (!s->river && !s->waves)
        return s->def.world.water.level;
    return s->tick->weta[r] + s->tick->wsx[r] * (x - s->tick->wpx[r]) + s->tick->wsy[r] * (y - s->tick->wpy[r]);
}

float water_contacts_row(const dinghy_sim *s, float *x, float *y, float *z, float *vx,
                         float *vy, float *vz, size_t r)
{
    if (!s->river || !(s->tick->wdist[r] < s->def.ring.minor_radius + NEAR_MARGIN))
        return 0.0f;
    float hit = 0.0f;
    const int N = s->N;
    /* The row whole clear of the solids? Its vertices lie within R of the
     * centre, which lies D from where the distance d was sampled, and the
     * distance changes by at most about as much as the position (1 for a
     * rock, near it for the ground: SOLID_LIPSCHITZ allows for the bed's
     * curvature and the slope's normalisation), so the sample clears all N
     * when d > SOLID_LIPSCHITZ (R + D). Skips only vertices the loop would:
     * the bits do not change. */
    const tick_context *t = s->tick;
    const float cx = t->cx[r], cy = t->cy[r], cz = t->cz[r];
    float R2 = 0.0f;
    for (int n = 0; n < N; n++) {
        const float dx = x[n] - cx, dy = y[n] - cy, dz = z[n] - cz;
        const float d2 = dx * dx + dy * dy + dz * dz;
        R2 = d2 > R2 ? d2 : R2;
    }
    const float Dx = cx - t->wpx[r], Dy = cy - t->wpy[r], Dz = cz - t->wpz[r];
    const float reach = sqrtf(R2) + sqrtf(Dx * Dx + Dy * Dy + Dz * Dz);
    if (t->wdist[r] > SOLID_LIPSCHITZ * reach + SOLID_SLACK)
        return 0.0f;
    /* Each vertex clear of the solids since its last look? Its distance
     * then, sd, less SOLID_LIPSCHITZ times how far it has moved since:
     * again only vertices the loop would skip (the solids stand still). */
    const size_t v0 = r * (size_t)N;
    float *restrict sdx = t->sdx + v0, *restrict sdy = t->sdy + v0, *restrict sdz = t->sdz + v0;
    float *restrict sd = t->sd + v0;
    for (int n = 0; n < N; n++) {
        const float ex = x[n] - sdx[n], ey = y[n] - sdy[n], ez = z[n] - sdz[n];
        if (sd[n] > SOLID_LIPSCHITZ * sqrtf(ex * ex + ey * ey + ez * ez) + SOLID_SLACK)
            continue;
        double g[3];
        double d = river_solid_distance(s->river, x[n], y[n], z[n], g);
        sdx[n] = x[n], sdy[n] = y[n], sdz[n] = z[n];
        sd[n] = d > 0.0 ? (float)d : 0.0f; /* (NaN: 0, looked at again) */
        if (!(d < 0.0))
            continue;
        /* out along the gradient, onto the surface of the solid */
        x[n] -= (float)(d * g[0]);
        y[n] -= (float)(d * g[1]);
        z[n] -= (float)(d * g[2]);
        double vn = vx[n] * g[0] + vy[n] * g[1] + vz[n] * g[2];
        if (vn >= 0.0)
            continue;
        /* no speed into the solid; the tangential speed loses mu |vn| */
        double tx = vx[n] - vn * g[0], ty = vy[n] - vn * g[1], tz = vz[n] - vn * g[2];
        double vt = sqrt(tx * tx + ty * ty + tz * tz);
        double keep = vt > 0.0 ? fmax(0.0, 1.0 - FRICTION * -vn / vt) : 0.0;
        vx[n] = (float)(tx * keep);
        vy[n] = (float)(ty * keep);
        vz[n] = (float)(tz * keep);
        if ((float)-vn > hit)
            hit = (float)-vn;
    }
    return hit;
}

/* One wall: the coordinate c (with its speed vc) must not pass lim
 * (side +1: c <= lim, -1: c >= lim); t1, t2 the speeds along the wall. */
static void wall(float *c, float *vc, float *t1, float *t2, float lim, float side)
{
    if (!(side * (*c - lim) > 0.0f))
        return;
    *c = lim;
    float vn = side * *vc; /* speed into the wall */
    if (vn <= 0.0f)
        return;
    *vc = 0.0f;
    float vt = sqrtf(*t1 * *t1 + *t2 * *t2);
    float keep = vt > 0.0f ? fmaxf(0.0f, 1.0f - (float)FRICTION * vn / vt) : 0.0f;
    *t1 *= keep;
    *t2 *= keep;
}

void pen_contacts(const pen_walls *pen, int n, float *x, float *y, float *z, float *vx,
                  float *vy, float *vz)
{
    (void)z;
    for (int i = 0; i < n; i++) {
        wall(&x[i], &vx[i], &vy[i], &vz[i], pen->half_x, 1.0f);
        wall(&x[i], &vx[i], &vy[i], &vz[i], -pen->half_x, -1.0f);
        wall(&y[i], &vy[i], &vx[i], &vz[i], pen->half_y, 1.0f);
        wall(&y[i], &vy[i], &vx[i], &vz[i], -pen->half_y, -1.0f);
    }
}

void floor_contacts(float fz, int n, float *z, float *vz)
{
    for (int i = 0; i < n; i++) {
        const int below = z[i] < fz;
        z[i] = below ? fz : z[i];
        vz[i] = below && vz[i] < 0.0f ? 0.0f : vz[i];
    }
}
