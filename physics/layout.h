/* Sizes of a simulation: what sim_create allocates and what
 * sim_memory_estimate says it will, from one place. Private. */
#ifndef DINGHY_LAYOUT_H
#define DINGHY_LAYOUT_H

#include <stddef.h>

/* Floats of one thread's scratch for rings of M x N with band B: the
 * spring kernel's, then the skin's (from *skin_offset when not NULL). */
size_t layout_scratch_floats(int M, int N, int B, size_t *skin_offset);

#endif
