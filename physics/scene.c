/* Scene builders: single, pair, grid, rapids, packed. */
#include "scene.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* splitmix64: a tiny, well-mixed generator; the layout depends only on the seed. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}

static void identity(double rot[9])
{
    memset(rot, 0, 9 * sizeof *rot);
    rot[0] = rot[4] = rot[8] = 1.0;
}

/* Rotation by `tilt` about the horizontal axis at angle `yaw` from x. */
static void tilt_rotation(double rot[9], double yaw, double tilt)
{
    double ax = cos(yaw), ay = sin(yaw); /* unit axis (ax, ay, 0) */
    double c = cos(tilt), s = sin(tilt), t = 1.0 - c;
    double m[9] = {
        t * ax * ax + c, t * ax * ay,      ay * s,
        t * ax * ay,     t * ay * ay + c, -ax * s,
        -ay * s,         ax * s,           c,
    };
    memcpy(rot, m, sizeof m);
}

int scene_dinghy_count(const sim_params *p)
{
    switch (p->scene) {
    case SCENE_SINGLE: return 1;
    case SCENE_PAIR: return 2;
    default: return p->count;
    }
}

double scene_packed_spacing(const sim_params *p)
{
    return 2.0 * (p->major_radius + p->minor_radius) + 0.25 * p->contact_range;
}

/* Square grid of n places, `spacing` apart, centred on the origin. */
static void grid_place(int i, int n, double spacing, double *x, double *y)
{
    int cols = (int)ceil(sqrt((double)n));
    int rows = (n + cols - 1) / cols;
    *x = ((i % cols) - 0.5 * (cols - 1)) * spacing;
    *y = ((i / cols) - 0.5 * (rows - 1)) * spacing;
}

void scene_build(const sim_params *p, dinghy_pose *poses)
{
    int n = scene_dinghy_count(p);
    double z = p->water_level + p->height;
    uint64_t rng = p->seed;
    for (int i = 0; i < n; i++) {
        dinghy_pose *d = &poses[i];
        memset(d, 0, sizeof *d);
        identity(d->rot);
        d->centre[2] = z;
        switch (p->scene) {
        case SCENE_SINGLE:
            break;
        case SCENE_PAIR:
            d->centre[0] = (i == 0 ? -0.5 : 0.5) * p->spacing;
            if (i == 0)
                d->velocity[0] = p->speed;
            break;
        case SCENE_GRID:
            grid_place(i, n, p->spacing, &d->centre[0], &d->centre[1]);
            break;
        case SCENE_PACKED:
            grid_place(i, n, scene_packed_spacing(p), &d->centre[0], &d->centre[1]);
            break;
        case SCENE_RAPIDS: {
            /* Jitter stays inside the free space between bounding spheres,
             * so nothing starts overlapping; heights spread the drops out. */
            double free_gap = p->spacing - 2.0 * (p->major_radius + p->minor_radius);
            double jitter = free_gap > 0.0 ? 0.45 * free_gap : 0.0;
            grid_place(i, n, p->spacing, &d->centre[0], &d->centre[1]);
            d->centre[0] += uniform(&rng, -jitter, jitter);
            d->centre[1] += uniform(&rng, -jitter, jitter);
            d->centre[2] = p->water_level + p->height * uniform(&rng, 0.5, 2.0);
            tilt_rotation(d->rot, uniform(&rng, 0.0, 2.0 * PI), uniform(&rng, 0.0, PI / 5.0));
            double heading = uniform(&rng, 0.0, 2.0 * PI);
            double speed = p->speed * uniform(&rng, 0.3, 1.0);
            d->velocity[0] = speed * cos(heading);
            d->velocity[1] = speed * sin(heading);
            break;
        }
        default:
            break;
        }
    }
}
