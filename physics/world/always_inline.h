/* ALWAYS_INLINE: inlined into each caller whatever gcc's size heuristics
 * say, for the tick's kernels that are compiled once per variant, each
 * with its own constants (a flag passed as a literal). Private to the
 * physics core. */
#ifndef DINGHY_ALWAYS_INLINE_H
#define DINGHY_ALWAYS_INLINE_H

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

#endif
