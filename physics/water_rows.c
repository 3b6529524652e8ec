/* The water as the rows see it: samples of the surface and current at
 * each row's centre, contacts with rocks, banks and bed, and the endless
 * run of the river scene (physics.md section 6). */
#include "sim_internal.h"

#include <math.h>

#include "dinghy/river.h"

/* Rows whose centre is closer than this to a solid, beyond the tube
 * radius, check every vertex for contact (a ring moves a few centimetres
 * between two samples). */
#define NEAR_MARGIN 0.5
/* Coulomb friction coefficient of wet rubber on rock and gravel. */
#define FRICTION 0.5

void water_sample_row(dinghy_sim *s, size_t r)
{
    if (!s->river) {
        s->weta[r] = (float)s->def.world.water.level;
        s->wsx[r] = s->wsy[r] = s->wpx[r] = s->wpy[r] = 0.0f;
        s->wu[r] = s->wv[r] = s->ww[r] = 0.0f;
        s->wnear[r] = 0;
        return;
    }
    double x = s->cx[r], y = s->cy[r], z = s->cz[r];
    water_point wp;
    river_sample(s->river, x, y, z, s->time, &wp);
    double nz = wp.normal[2] > 0.05 ? wp.normal[2] : 0.05;
    s->weta[r] = (float)wp.height;
    s->wsx[r] = (float)(-wp.normal[0] / nz);
    s->wsy[r] = (float)(-wp.normal[1] / nz);
    s->wpx[r] = (float)x;
    s->wpy[r] = (float)y;
    s->wu[r] = (float)wp.velocity[0];
    s->wv[r] = (float)wp.velocity[1];
    s->ww[r] = (float)wp.velocity[2];
    double d = river_solid_distance(s->river, x, y, z, NULL);
    s->wnear[r] = d < s->def.ring.minor_radius + NEAR_MARGIN;
}

double water_height_at(const dinghy_sim *s, size_t r, double x, double y)
{
    if (!s->river)
        return s->def.world.water.level;
    return s->weta[r] + s->wsx[r] * (x - s->wpx[r]) + s->wsy[r] * (y - s->wpy[r]);
}

float water_contacts_row(const dinghy_sim *s, float *x, float *y, float *z, float *vx,
                         float *vy, float *vz, size_t r)
{
    if (!s->river || !s->wnear[r])
        return 0.0f;
    float hit = 0.0f;
    const int N = s->N;
    for (int n = 0; n < N; n++) {
        double g[3];
        double d = river_solid_distance(s->river, x[n], y[n], z[n], g);
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

/* A seeded place upstream clear of every other ring, as a pose at rest
 * in the current. */
static ring_pose spawn_pose(dinghy_sim *s, int p)
{
    const ring_def *r = &s->def.ring;
    const double reach = r->major_radius + r->minor_radius, clear = 2.0 * reach + 0.3;
    ring_pose d = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    for (int tries = 0; tries < 16; tries++) {
        river_spawn_point(s->river, &s->river_rng, 0.5, d.centre);
        int free = 1;
        for (int q = 0; q < s->P && free; q++) {
            double dx = s->c0[3 * q] - d.centre[0], dy = s->c0[3 * q + 1] - d.centre[1];
            double dz = s->c0[3 * q + 2] - d.centre[2];
            free = q == p || dx * dx + dy * dy + dz * dz > clear * clear;
        }
        if (free)
            break;
    }
    water_point wp;
    river_sample(s->river, d.centre[0], d.centre[1], d.centre[2], s->time, &wp);
    d.velocity[0] = wp.velocity[0];
    d.velocity[1] = wp.velocity[1];
    return d;
}

void water_endless_run(dinghy_sim *s)
{
    const double end = river_end_s(s->river);
    const river_course *c = river_course_view(s->river);
    for (int p = 0; p < s->P; p++) {
        double st, n;
        int mapped = river_station(s->river, s->c0[3 * p], s->c0[3 * p + 1], &st, &n);
        double half = 0.5 * c->width[0] + 2.0; /* out of the channel: on a bank */
        if (mapped && st < end && fabs(n) < 2.0 * half && s->c0[3 * p + 2] > -50.0) {
            s->travelled[p] += st - s->ring_s[p];
            s->ring_s[p] = st;
            continue;
        }
        if (mapped && st >= end)
            s->travelled[p] += st - s->ring_s[p];
        ring_pose pose = spawn_pose(s, p);
        sim_place_ring(s, p, &pose);
        s->respawns[p]++;
    }
}

void water_hit_events(dinghy_sim *s)
{
    for (int p = 0; p < s->P; p++) {
        float hit = 0.0f;
        for (int m = 0; m < s->M; m++)
            hit = fmaxf(hit, s->row_hit[(size_t)p * s->M + m]);
        if (hit > SIM_HIT_SPEED && !s->hitting[p]) {
            sim_event ev = {SIM_EVENT_OBSTACLE, p, -1, s->step, hit,
                            {(float)s->c0[3 * p], (float)s->c0[3 * p + 1],
                             (float)s->c0[3 * p + 2]}, 1};
            events_add(&s->ev, &ev);
        }
        s->hitting[p] = hit > 0.05f; /* still touching: no new event */
    }
}
