/* Spray: the life cycle, the motion of the droplets and the views
 * (spray.h), on top of the spray's files: sources are in spray_sources.c,
 * ring tubes in spray_rings.c, the particle store in spray_store.c and the
 * definition in spray_def.c. */
#include "spray/spray_internal.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dinghy/fnv.h"

spray_system *spray_create(const spray_def *def, uint64_t random_seed)
{
    if (spray_def_check(def, NULL, 0) != 0)
        return NULL;
    spray_system *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->def = *def;
    sp->random_seed = sp->rng = random_seed;
    size_t B = (size_t)def->budget, R = (size_t)def->max_rows, S = (size_t)def->max_spots;
    float **f[] = {&sp->x, &sp->y, &sp->z, &sp->vx, &sp->vy, &sp->vz, &sp->age, &sp->ttl,
                   &sp->life};
    int ok = 1;
    for (size_t k = 0; k < sizeof f / sizeof *f; k++)
        ok &= (*f[k] = malloc(sizeof(float) * B)) != NULL;
    ok &= (sp->dead = malloc(B)) != NULL;
    ok &= (sp->tubes.row = malloc(sizeof(float) * 4 * R)) != NULL;
    ok &= (sp->tubes.row_max = malloc(sizeof(float) * R)) != NULL;
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
    free(sp->tubes.row_max);
    free(sp->tubes.row_v);
    free(sp->tubes.bound);
    free(sp->spots.xy);
    free(sp->spots.carry);
    free(sp);
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
    sp->rng = sp->random_seed;
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
    /* still inside a skin after every push-out (caught between two pressed
     * skins): it wets the skin and is gone */
    int trapped = spray_tubes_push(&sp->tubes, p, v, sp->def.restitution, sp->def.friction) ==
                  SPRAY_TRAPPED;
    float age = sp->age[i] + (float)f->dt;
    dinghy_water_point w;
    sim_water_at(sim, p[0], p[1], p[2], &w);
    int dead = trapped || !(age < sp->ttl[i]) || !(p[2] >= w.height) /* NaN dies too */
               || fabs(p[0]) + fabs(p[1]) > SIM_WORLD_SIZE
               || (river && river_solid_distance(river, p[0], p[1], p[2], NULL) < 0.0);
    spray_store(sp, i, p, v);
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
