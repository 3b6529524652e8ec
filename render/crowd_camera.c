/* Following the crowd downstream. */
#include "render/crowd_camera.h"

#include <math.h>

#define PI 3.14159265358979
#define YAW_OFFSET 0.39   /* rad: the eye a little to the side of straight upstream */

static double wrap(double a)
{
    while (a > PI)
        a -= 2.0 * PI;
    while (a < -PI)
        a += 2.0 * PI;
    return a;
}

/* Downstream direction a little ahead of s: where the view should look. */
static double course_heading(const course_map *m, double s)
{
    double a[2], b[2];
    double s0 = course_map_clamp(m, s), s1 = course_map_clamp(m, s + 12.0);
    if (s1 - s0 < 1.0)
        s0 = s1 - 1.0;
    river_point(m->w, s0, 0.0, a);
    river_point(m->w, s1, 0.0, b);
    return atan2(b[1] - a[1], b[0] - a[0]);
}

static void place_target(const crowd_camera *cc, orbit_camera *cam)
{
    double xy[2];
    course_map_point(cc->map, cc->s, cc->n, xy);
    cam->target[0] = (float)xy[0];
    cam->target[1] = (float)xy[1];
    cam->target[2] = (float)course_map_level(cc->map, course_map_clamp(cc->map, cc->s));
}

void crowd_camera_start(crowd_camera *cc, const course_map *map, const dinghy_sim *sim,
                        orbit_camera *cam, int from_target)
{
    cc->map = map;
    cc->n = 0.0;
    cc->last_time = sim_time(sim);
    cc->fresh = 1;
    if (!map)
        return;
    const river_course *c = map->c;
    double s = c->drop_count > 0 ? c->drop_s[0] - 6.0 : 10.0, n;
    double hi = c->length - CROWD_END_MARGIN - 20.0;
    int on_course = from_target && river_station(map->w, cam->target[0], cam->target[1], &s, &n);
    if (on_course)
        hi = c->length - CROWD_END_MARGIN;
    cc->s = s > hi ? hi : s < 8.0 ? 8.0 : s;
    cc->course_yaw = course_heading(map, cc->s);
    cam->yaw = (float)wrap(cc->course_yaw + PI + YAW_OFFSET);
    if (!from_target) {
        cam->pitch = 0.55f;
        cam->distance = (float)(2.6 * c->width[0] + 4.0);
    }
    place_target(cc, cam);
}

void crowd_camera_update(crowd_camera *cc, const dinghy_sim *sim, orbit_camera *cam)
{
    double now = sim_time(sim), dt = now - cc->last_time;
    cc->last_time = now;
    dt = dt < 0.0 ? 0.0 : dt > 1.0 ? 1.0 : dt; /* a long pause or a jump: at most a second */
    int P = sim_ring_count(sim);
    const sim_ring_state *rings = sim_rings(sim);
    if (!cc->map) { /* still water: the middle of the crowd */
        if (P == 0)
            return;
        double mean[3] = {0.0, 0.0, 0.0};
        for (int i = 0; i < P; i++)
            for (int k = 0; k < 3; k++)
                mean[k] += rings[i].centre[k] / P;
        mean[2] = sim_get_def(sim)->world.water.level;
        double ease = cc->fresh ? 1.0 : 1.0 - exp(-dt / 0.6);
        for (int k = 0; k < 3; k++)
            cam->target[k] += (float)(ease * (mean[k] - cam->target[k]));
        cc->fresh = 0;
        return;
    }
    const course_map *m = cc->map;
    const river_world *w = m->w;
    double t[2];
    course_map_tangent(m, cc->s, t);
    /* the rings round the target: their pace along the course and middle */
    double sum_s = 0.0, sum_n = 0.0, sum_u = 0.0;
    int near = 0;
    for (int i = 0; i < P; i++) {
        double s, n;
        if (!river_station(w, rings[i].centre[0], rings[i].centre[1], &s, &n))
            continue;
        if (fabs(s - cc->s) > CROWD_WINDOW)
            continue;
        sum_s += s;
        sum_n += n;
        sum_u += rings[i].velocity[0] * t[0] + rings[i].velocity[1] * t[1];
        near++;
    }
    double speed = m->c->speed;
    double pace = near ? sum_u / near : speed;
    if (pace < 0.3 * speed)
        pace = 0.3 * speed;
    cc->s += pace * dt;
    if (near) {
        double pull = 1.0 - exp(-dt / 4.0);
        cc->s += pull * (sum_s / near - cc->s);
        cc->n += (1.0 - exp(-dt / 1.5)) * (0.5 * sum_n / near - cc->n);
    }
    int cut = cc->fresh;
    if (cc->s > m->c->length - CROWD_END_MARGIN) { /* back upstream, where rings drop in */
        cc->s = 10.0;
        cc->n = 0.0;
        cut = 1;
    }
    /* turn with the course, keeping the user's orbit round the target */
    double heading = course_heading(m, cc->s);
    double turn = wrap(heading - cc->course_yaw) * (cut ? 1.0 : 1.0 - exp(-dt / 1.2));
    cc->course_yaw = wrap(cc->course_yaw + turn);
    cam->yaw = (float)wrap(cam->yaw + turn);
    place_target(cc, cam);
    cc->fresh = 0;
}
