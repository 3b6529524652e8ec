/* The particle store at the bottom of the spray's files: the generator and
 * the appending and writing of particles. Calls no other spray file. */
#include "spray/spray_internal.h"

double spray_uniform(spray_system *sp, double lo, double hi)
{
    /* splitmix64: a full-period generator from a 64-bit counter */
    uint64_t z = (sp->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

void spray_store(spray_system *sp, size_t i, const double p[3], const double v[3])
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
    spray_store(sp, i, pos, vel);
    sp->age[i] = 0.0f;
    sp->ttl[i] = (float)ttl;
    sp->life[i] = 1.0f;
    sp->dead[i] = 0;
    return 1;
}
