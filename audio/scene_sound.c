/* Scene motion and position for the sound, from the physics API. */
#include "scene_sound.h"

#include <math.h>

audio_scene audio_scene_of(const dinghy_sim *sim)
{
    audio_scene s = {0.0, 0.0, 0.0, 0.0, 0};
    const ring_def *p = &sim_get_def(sim)->ring;
    int P = sim_ring_count(sim);
    size_t V = (size_t)sim_segments(sim) * (size_t)sim_sides(sim);
    s.size = p->major_radius + p->minor_radius;
    s.vertices = (int)V;
    if (P == 0 || V == 0)
        return s;
    const sim_ring_state *rings = sim_rings(sim);
    double speed_sum = 0.0;
    for (int d = 0; d < P; d++) {
        const double x = rings[d].centre[0], *v = rings[d].velocity;
        speed_sum += sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (d == 0 || x < s.x_min)
            s.x_min = x;
        if (d == 0 || x > s.x_max)
            s.x_max = x;
    }
    s.mean_speed = speed_sum / P;
    return s;
}

double audio_ambience_level(double water_speed, double dinghy_speed)
{
    double v = (water_speed > 0.0 ? water_speed : 0.0) + (dinghy_speed > 0.0 ? dinghy_speed : 0.0);
    if (!(v < 1e6)) /* NaN or absurd: keep the loop at its calm level */
        v = 0.0;
    return 0.3 + 0.7 * (1.0 - exp(-v / 2.0));
}

double audio_pan_from_x(double x, const audio_scene *s)
{
    double mid = 0.5 * (s->x_min + s->x_max);
    double half = 0.5 * (s->x_max - s->x_min) + s->size;
    if (!(half > 0.0) || x != x)
        return 0.0;
    double p = (x - mid) / half;
    return 0.8 * (p < -1.0 ? -1.0 : p > 1.0 ? 1.0 : p);
}
