/* Spray: the life cycle, the motion of the droplets and the views
 * (spray.h). Sources are in spray_sources.c, ring tubes in spray_rings.c. */
#include "spray_internal.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"

/* Checks of one field: name, value, allowed range. */
typedef struct {
    char *msg;
    size_t len, used;
    int problems;
} spray_check;

static void range(spray_check *c, const char *name, double v, double lo, double hi)
{
    if (v >= lo && v <= hi) /* NaN fails both */
        return;
    c->problems++;
    if (c->len > c->used) {
        int n = snprintf(c->msg + c->used, c->len - c->used, "%s = %g: allowed %g .. %g\n",
                         name, v, lo, hi);
        c->used = n > 0 ? c->used + (size_t)n : c->used;
        c->used = c->used < c->len ? c->used : c->len;
    }
}

spray_def spray_def_default(void)
{
    spray_def d = {
        .budget = 4096,
        .drag_rate = 1.5,   /* droplets of a few mm: terminal speed about 6.5 m/s */
        .restitution = 0.3, /* water beads off a wet skin with little bounce */
        .friction = 0.2,
        .lifetime = 3.0,
        .size = 0.05,       /* a billboard stands for a puff of droplets: seen from afar */
        .splash_gain = 0.5,
        .hit_gain = 20.0,
        .event_max = 200,
        .throw_ratio = 0.8,
        .river_rate = 8.0,
        .spot_spacing = 1.0,
        .max_spots = 512,
        .max_rows = 65536,
    };
    return d;
}

int spray_def_check(const spray_def *d, char *msg, size_t len)
{
    spray_check c = {msg, len, 0, 0};
    if (msg && len)
        msg[0] = '\0';
    range(&c, "budget", d->budget, 1, 1 << 24);
    range(&c, "drag_rate (1/s)", d->drag_rate, 0.0, 100.0);
    range(&c, "restitution", d->restitution, 0.0, 1.0);
    range(&c, "friction", d->friction, 0.0, 1.0);
    range(&c, "lifetime (s)", d->lifetime, 1e-3, 600.0);
    range(&c, "size (m)", d->size, 0.0, 1.0);
    range(&c, "splash_gain (1/(m/s))", d->splash_gain, 0.0, 1e3);
    range(&c, "hit_gain (1/(m/s))", d->hit_gain, 0.0, 1e4);
    range(&c, "event_max", d->event_max, 0, 1 << 20);
    range(&c, "throw_ratio", d->throw_ratio, 0.0, 10.0);
    range(&c, "river_rate (1/s/(m/s))", d->river_rate, 0.0, 1e4);
    range(&c, "spot_spacing (m)", d->spot_spacing, 0.05, 100.0);
    range(&c, "max_spots", d->max_spots, 0, 1 << 20);
    range(&c, "max_rows", d->max_rows, 3, 1 << 24);
    return c.problems;
}

spray_system *spray_create(const spray_def *def, uint64_t seed)
{
    if (spray_def_check(def, NULL, 0) != 0)
        return NULL;
    spray_system *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->def = *def;
    sp->seed = sp->rng = seed;
    size_t B = (size_t)def->budget, R = (size_t)def->max_rows, S = (size_t)def->max_spots;
    float **f[] = {&sp->x, &sp->y, &sp->z, &sp->vx, &sp->vy, &sp->vz, &sp->age, &sp->ttl,
                   &sp->life};
    int ok = 1;
    for (size_t k = 0; k < sizeof f / sizeof *f; k++)
        ok &= (*f[k] = malloc(sizeof(float) * B)) != NULL;
    ok &= (sp->dead = malloc(B)) != NULL;
    ok &= (sp->tubes.row = malloc(sizeof(float) * 4 * R)) != NULL;
    ok &= (sp->tubes.row_v = malloc(sizeof(float) * 3 * R)) != NULL;
    ok &= (sp->tubes.bound = malloc(sizeof(float) * 4 * (R / 3 + 1))) != NULL;
    ok &= (sp->spots.xy = malloc(sizeof(double) * 2 * (S + 1))) != NULL;
    ok &= (sp->spots.carry = malloc(sizeof(double) * (S + 1))) != NULL;
    if (!ok) {
        spray_destroy(sp);
        return NULL;
    }
    return sp;
}

void spray_destroy(spray_system *sp)
{
    if (!sp)
        return;
    float *f[] = {sp->x, sp->y, sp->z, sp->vx, sp->vy, sp->vz, sp->age, sp->ttl, sp->life};
    for (size_t k = 0; k < sizeof f / sizeof *f; k++)
        free(f[k]);
    free(sp->dead);
    free(sp->tubes.row);
    free(sp->tubes.row_v);
    free(sp->tubes.bound);
    free(sp->spots.xy);
    free(sp->spots.carry);
    free(sp);
}

double spray_uniform(spray_system *sp, double lo, double hi)
{
    /* splitmix64: a full-period generator from a 64-bit counter */
    uint64_t z = (sp->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

/* Writes particle i's position (m) and velocity (m/s). */
static void store(spray_system *sp, size_t i, const double p[3], const double v[3])
{
    sp->x[i] = (float)p[0];
    sp->y[i] = (float)p[1];
    sp->z[i] = (float)p[2];
    sp->vx[i] = (float)v[0];
    sp->vy[i] = (float)v[1];
    sp->vz[i] = (float)v[2];
}

int spray_add(spray_system *sp, const double pos[3], const double vel[3], double ttl)
{
    if (sp->count >= (size_t)sp->def.budget) {
        sp->dropped++;
        return 0;
    }
    size_t i = sp->count++;
    store(sp, i, pos, vel);
    sp->age[i] = 0.0f;
    sp->ttl[i] = (float)ttl;
    sp->life[i] = 1.0f;
    sp->dead[i] = 0;
    return 1;
}

int spray_emit(spray_system *sp, const double pos[3], const double vel[3], int n)
{
    int added = 0;
    for (int k = 0; k < n; k++)
        added += spray_add(sp, pos, vel, sp->def.lifetime);
    return added;
}

void spray_clear(spray_system *sp)
{
    sp->count = 0;
    sp->dropped = 0;
    sp->rng = sp->seed;
    sp->spots.count = 0;
    sp->spots.of = NULL;
    sp->tubes.rings = sp->tubes.ignored = 0;
}

/* Free flight over dt: dv/dt = g - k v in still air. The velocity takes
 * the exact solution v' = v e^{-k dt} + g (1 - e^{-k dt}) / k (stable for
 * any k dt, like the tick's exp damping), the position moves with the new
 * velocity (symplectic Euler). */
typedef struct {
    double decay, gain, dt, g;  /* e^{-k dt}; (1 - e^{-k dt}) / k, s; dt, s; gravity, m/s^2 */
} flight;

static flight flight_of(double k, double g, double dt)
{
    flight f = {exp(-k * dt), k > 0.0 ? -expm1(-k * dt) / k : dt, dt, g};
    return f;
}

/* Moves particle i, pushes it out of the rings and marks it dead when it
 * is back in the water, in a solid, out of the world or out of time. */
static void move_one(spray_system *sp, const dinghy_sim *sim, const river_world *river,
                     const flight *f, size_t i)
{
    double v[3] = {sp->vx[i] * f->decay, sp->vy[i] * f->decay,
                   sp->vz[i] * f->decay - f->g * f->gain};
    double p[3] = {sp->x[i] + f->dt * v[0], sp->y[i] + f->dt * v[1], sp->z[i] + f->dt * v[2]};
    spray_tubes_push(&sp->tubes, p, v, sp->def.restitution, sp->def.friction);
    float age = sp->age[i] + (float)f->dt;
    water_point w;
    sim_water_at(sim, p[0], p[1], p[2], &w);
    int dead = !(age < sp->ttl[i]) || !(p[2] >= w.height) /* NaN dies too */
               || fabs(p[0]) + fabs(p[1]) > SIM_WORLD_SIZE
               || (river && river_solid_distance(river, p[0], p[1], p[2], NULL) < 0.0);
    store(sp, i, p, v);
    sp->age[i] = age;
    sp->life[i] = 1.0f - age / sp->ttl[i];
    sp->dead[i] = (unsigned char)dead;
}

/* Removes the dead, keeping the order of the living (serial: the same
 * result for any thread count). */
static void sweep(spray_system *sp)
{
    float *f[] = {sp->x, sp->y, sp->z, sp->vx, sp->vy, sp->vz, sp->age, sp->ttl, sp->life};
    size_t kept = 0;
    for (size_t i = 0; i < sp->count; i++) {
        if (sp->dead[i])
            continue;
        if (kept != i)
            for (size_t k = 0; k < sizeof f / sizeof *f; k++)
                f[k][kept] = f[k][i];
        sp->dead[kept++] = 0;
    }
    sp->count = kept;
}

void spray_step(spray_system *sp, const dinghy_sim *sim, double dt, int threads)
{
    if (!(dt > 0.0))
        return; /* paused: nothing is thrown, moves or dies */
    int nt = threads > 0 ? threads : omp_get_max_threads();
    spray_tubes_update(&sp->tubes, sim, sp->def.max_rows, nt);
    spray_emit_events(sp, sim);
    spray_emit_river(sp, sim, dt);
    flight f = flight_of(sp->def.drag_rate, sim_get_def(sim)->world.gravity, dt);
    const river_world *river = sim_river(sim);
    long n = (long)sp->count;
#pragma omp parallel for schedule(static) num_threads(nt)
    for (long i = 0; i < n; i++)
        move_one(sp, sim, river, &f, (size_t)i);
    sweep(sp);
}

size_t spray_count(const spray_system *sp) { return sp->count; }
size_t spray_budget(const spray_system *sp) { return (size_t)sp->def.budget; }
long spray_dropped(const spray_system *sp) { return sp->dropped; }
int spray_rings_ignored(const spray_system *sp) { return sp->tubes.ignored; }
double spray_size(const spray_system *sp) { return sp->def.size; }

spray_view spray_particles(const spray_system *sp)
{
    spray_view v = {sp->x, sp->y, sp->z, sp->life, sp->count};
    return v;
}

void spray_velocity(const spray_system *sp, size_t i, double v[3])
{
    v[0] = sp->vx[i];
    v[1] = sp->vy[i];
    v[2] = sp->vz[i];
}

uint64_t spray_hash(const spray_system *sp)
{
    uint64_t h = fnv1a_xyz(FNV1A_OFFSET, sp->x, sp->y, sp->z, sp->count);
    return fnv1a_xyz(h, sp->vx, sp->vy, sp->vz, sp->count);
}
