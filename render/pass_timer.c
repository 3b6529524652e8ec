/* Per-pass wall times. */
#include "render/pass_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/gl.h"
#include "render/window.h"

/* The clock: wall time, or this thread's CPU time when the rasteriser
 * works on the calling thread (LP_NUM_THREADS=0: then it counts the work
 * and not what other processes take of the cores). */
static double now(const pass_timer *t)
{
    if (!t->cpu)
        return window_time();
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pass_timer_start(pass_timer *t)
{
    const char *lp = getenv("LP_NUM_THREADS");
    t->cpu = lp && strcmp(lp, "0") == 0;
    if (t->on)
        t->since = now(t);
}

void pass_timer_mark(pass_timer *t, const char *name, int gl)
{
    if (!t->on)
        return;
    if (gl)
        glFinish();
    double at = now(t);
    int i = 0;
    while (i < t->count && strcmp(t->name[i], name) != 0)
        i++;
    if (i == t->count && t->count < PASS_TIMER_MAX)
        t->name[t->count++] = name;
    if (i < t->count)
        t->total_s[i] += at - t->since;
    t->since = at;
}

void pass_timer_frame(pass_timer *t)
{
    t->frames += t->on;
}

void pass_timer_format(const pass_timer *t, char *buf, size_t len)
{
    int order[PASS_TIMER_MAX], n = t->count;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) /* largest first */
        for (int j = i; j > 0 && t->total_s[order[j]] > t->total_s[order[j - 1]]; j--) {
            int k = order[j];
            order[j] = order[j - 1];
            order[j - 1] = k;
        }
    int w = snprintf(buf, len, "%s", t->cpu ? "(thread CPU ms) " : "");
    size_t used = w > 0 ? (size_t)w : 0;
    double frames = t->frames > 0 ? (double)t->frames : 1.0;
    for (int i = 0; i < n && used < len; i++) {
        w = snprintf(buf + used, len - used, "%s%s %.2f", i ? "  " : "", t->name[order[i]],
                         1000.0 * t->total_s[order[i]] / frames);
        used += w > 0 ? (size_t)w : 0;
    }
}
