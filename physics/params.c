/* Built-in parameter defaults and the quantities derived from them. */
#include "params.h"

#include <math.h>
#include <string.h>

sim_params sim_params_default(void)
{
    sim_params p;
    memset(&p, 0, sizeof p);
    p.dt = 0.001;
    p.threads = 0;
    p.damping = 0.5;
    p.seed = 1;
    p.gravity = 9.81;
    p.water_level = 0.0;
    p.buoyancy = 100.0;
    p.water_density = 1000.0;
    p.water_drag = 8.0;
    p.scene = SCENE_RAPIDS;
    p.count = 64;
    p.spacing = 2.4;
    p.height = 1.5;
    p.speed = 2.0;
    p.segments = 32;
    p.sides = 16;
    p.band = 5;
    p.major_radius = 0.8;
    p.minor_radius = 0.25;
    p.mass = 15.0;
    p.stiffness = 400.0;
    p.pressure = 1.0;
    p.repulsion = 0.02;
    p.repulsion_exponent = 2.0;
    p.contact_range = 0.25;
    return p;
}

double sim_params_vertex_mass(const sim_params *p)
{
    return p->mass / ((double)p->segments * (double)p->sides);
}

double sim_params_stable_dt(const sim_params *p)
{
    double k_sum = (double)p->band * (double)p->band * p->stiffness;
    if (k_sum <= 0.0)
        return INFINITY;
    return sqrt(2.0 * sim_params_vertex_mass(p) / k_sum);
}

static const char *const scene_names[SCENE_KIND_COUNT] = {
    "single", "pair", "grid", "rapids", "packed",
};

const char *scene_kind_name(scene_kind kind)
{
    if ((int)kind < 0 || kind >= SCENE_KIND_COUNT)
        return "?";
    return scene_names[kind];
}

int scene_kind_from_name(const char *name)
{
    for (int i = 0; i < SCENE_KIND_COUNT; i++)
        if (strcmp(name, scene_names[i]) == 0)
            return i;
    return -1;
}
