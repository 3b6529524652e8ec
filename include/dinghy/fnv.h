/* FNV-1a 64, the hash of states (sim_hash, spray_hash): the IEEE bytes of
 * float triples kept as three arrays (structure of arrays). */
#ifndef DINGHY_FNV_H
#define DINGHY_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_OFFSET 0xcbf29ce484222325ull

static inline uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *c = data;
    for (size_t i = 0; i < len; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Continues h over (x[i], y[i], z[i]) for i = 0 .. n-1, triple by triple. */
static inline uint64_t fnv1a_xyz(uint64_t h, const float *x, const float *y, const float *z,
                                 size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float v[3] = {x[i], y[i], z[i]};
        h = fnv1a(h, v, sizeof v);
    }
    return h;
}

#endif
