/* Scene motion and position for the sound, from the physics API. */
#include "audio/scene_sound.h"

#include <math.h>

audio_scene audio_scene_of(const dinghy_sim *sim)
{
    audio_scene s = {0.0, 0.0, 0.0, 0.0, 0, 0.0};
    const sim_ring_def *p = &sim_get_def(sim)->ring;
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
        if (rings[d].leak > 0.0)
            s.leak += rings[d].leak;
        if (d == 0 || x < s.x_min)
            s.x_min = x;
        if (d == 0 || x > s.x_max)
            s.x_max = x;
    }
    s.mean_speed = speed_sum / P;
    return s;
}

double audio_ambience_level(double water_speed, double ring_speed)
{
    double v = (water_speed > 0.0 ? water_speed : 0.0) + (ring_speed > 0.0 ? ring_speed : 0.0);
    if (!(v < 1e6)) /* NaN or absurd: keep the loop at its calm level */
        v = 0.0;
    return 0.3 + 0.7 * (1.0 - exp(-v / 2.0));
}

double audio_hiss_level(double leak)
{
    double level = leak / AUDIO_HISS_FULL_LEAK;
    return level > 0.0 ? (level < 1.0 ? level : 1.0) : 0.0; /* NaN: silent */
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

double audio_water_rush(const dinghy_sim *sim, const double at[3])
{
    double c[3] = {0.0, 0.0, 0.0};
    if (at) {
        c[0] = at[0];
        c[1] = at[1];
        c[2] = at[2];
    } else {
        int P = sim_ring_count(sim);
        const sim_ring_state *rings = sim_rings(sim);
        for (int i = 0; i < P; i++)
            for (int k = 0; k < 3; k++)
                c[k] += rings[i].centre[k] / P;
    }
    const double off[5][2] = {{0.0, 0.0}, {2.5, 0.0}, {-2.5, 0.0}, {0.0, 2.5}, {0.0, -2.5}};
    double speed = 0.0, slope = 0.0;
    for (int i = 0; i < 5; i++) {
        dinghy_water_point wp;
        /* above the surface: the surface's own velocity */
        sim_water_at(sim, c[0] + off[i][0], c[1] + off[i][1], c[2] + 50.0, &wp);
        speed += 0.2 * sqrt(wp.velocity[0] * wp.velocity[0] + wp.velocity[1] * wp.velocity[1]);
        double nz = wp.normal[2] > 1e-3 ? wp.normal[2] : 1e-3;
        double sl = sqrt(wp.normal[0] * wp.normal[0] + wp.normal[1] * wp.normal[1]) / nz;
        slope = sl > slope ? sl : slope;
    }
    if (!(speed < 1e6) || !(slope < 1e6)) /* NaN or absurd */
        return 0.0;
    double steep = slope / 0.25;
    return speed * (1.0 + 2.0 * (steep < 1.0 ? steep : 1.0));
}

double audio_water_level(const dinghy_sim *sim, const double at[3], const audio_scene *sc)
{
    if (!sim_river(sim))
        return audio_ambience_level(0.0, sc->mean_speed);
    return audio_ambience_level(audio_water_rush(sim, at), 0.0);
}
