/* Real time before frames on a CPU rasteriser: the demo's drawing threads
 * (its own thread and llvmpipe's) run at a lower priority than the
 * physics, so that the physics thread keeps real time and the drawing
 * takes the rest of the cores, its resolution following (resolution.h).
 * On a GPU the drawing costs the cores little and this is not called. */
#ifndef DINGHY_RASTERISER_PRIORITY_H
#define DINGHY_RASTERISER_PRIORITY_H

/* Nice steps the drawing threads go below the physics. Measured on the
 * rapids demo (AMD EPYC Zen 5, 2 cores, llvmpipe, 4 runs each in turn):
 * 3 cut the physics thread's step from 16.2-20.5 ms to 15.4-18.4 and gave
 * as much real time or more (0.92x-0.97x against 0.79x-0.97x) at the same
 * frame rate; 6 took frames away without more real time. */
#define RASTERISER_NICE_STEP 3

/* Lowers the priority of the calling thread and of every llvmpipe
 * rasteriser thread of this process (named "llvmpipe-N" by Mesa) by
 * `step` nice levels from where each is. Call it from the drawing thread
 * after the physics thread has started (threads started later by the
 * caller inherit the lower priority; the physics thread's do not).
 * Returns the threads lowered; 0 where the system has no per-thread
 * priorities to set (no /proc/self/task). */
int rasteriser_priority_lower(int step);

#endif
