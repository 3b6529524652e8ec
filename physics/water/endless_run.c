/* The river's endless run: rings past the downstream end are dropped in
 * again upstream (through ring_write_pose, below the public API, so that
 * nothing here calls back up into the ring table), and obstacle events
 * (docs/physics.md section 6). */
#include "physics/water/endless_run.h"

#include "dinghy/river.h"

#include <math.h>

#include "physics/world/measure.h"
#include "physics/world/overlap.h"
#include "physics/world/pose.h"

/* A random place upstream clear of every other ring, as a pose at rest
 * in the current, into d; 0 when there is none this step (the ring waits
 * where it is and tries again at the next). A place must be clear of the
 * other rings' bounding spheres by 0.3 m (room to be carried on), and of
 * their skins by the contact thickness (sim_pose_clear); when sixteen
 * random places are not, the last is raised by steps of the tube radius,
 * up to 2 m, until it is clear of their skins. */
static int spawn_pose(dinghy_sim *s, int p, sim_ring_pose *d)
{
    const sim_ring_def *r = &s->def.ring;
    const double reach = r->major_radius + r->minor_radius, clear = 2.0 * reach + 0.3;
    const double margin = r->contact_thickness;
    *d = (sim_ring_pose){{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    int free = 0;
    for (int tries = 0; tries < 16 && !free; tries++) {
        river_spawn_point(s->river, &s->river_rng, 0.5, d->centre);
        free = 1;
        for (int q = 0; q < s->P && free; q++) {
            double dx = s->c0[3 * q] - d->centre[0], dy = s->c0[3 * q + 1] - d->centre[1];
            double dz = s->c0[3 * q + 2] - d->centre[2];
            free = q == p || dx * dx + dy * dy + dz * dz > clear * clear;
        }
        free = free && overlap_pose_clear(s, d, margin, p);
    }
    for (int k = 0; k < 8 && !free; k++) {
        d->centre[2] += r->minor_radius;
        free = overlap_pose_clear(s, d, margin, p);
    }
    if (!free)
        return 0;
    dinghy_water_point wp;
    river_sample(s->river, d->centre[0], d->centre[1], d->centre[2], s->time, &wp);
    d->velocity[0] = wp.velocity[0];
    d->velocity[1] = wp.velocity[1];
    return 1;
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
        sim_ring_pose pose;
        if (!spawn_pose(s, p, &pose))
            continue; /* no room upstream: again at the next step */
        if (mapped && st >= end)
            s->travelled[p] += st - s->ring_s[p];
        ring_write_pose(s, p, &pose);
        sim_measure_ring(s, p);
        s->respawns[p]++;
    }
}

void water_hit_events(dinghy_sim *s)
{
    for (int p = 0; p < s->P; p++) {
        float hit = 0.0f;
        for (int m = 0; m < s->M; m++)
            hit = fmaxf(hit, s->tick->row_hit[(size_t)p * s->M + m]);
        if (hit > SIM_HIT_SPEED && !s->hitting[p]) {
            sim_event ev = {.kind = SIM_EVENT_OBSTACLE, .ring = p, .other = -1,
                            .step = s->step, .speed = hit,
                            .position = {(float)s->c0[3 * p], (float)s->c0[3 * p + 1],
                                         (float)s->c0[3 * p + 2]},
                            .count = 1};
            events_add(&s->ev, &ev);
        }
        s->hitting[p] = hit > 0.05f; /* still touching: no new event */
    }
}
