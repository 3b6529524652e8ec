/* The dynamic-resolution controller: a median over a window, a band of
 * hysteresis, steps of RESOLUTION_STEP. */
#include "render/resolution.h"

#include <math.h>
#include <string.h>

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The nearest multiple of the step, within the automatic range. */
static float snap(float scale)
{
    if (!(scale > 0.0f)) /* also NaN */
        return RESOLUTION_MAX;
    return clampf(roundf(scale / RESOLUTION_STEP) * RESOLUTION_STEP, RESOLUTION_MIN, RESOLUTION_MAX);
}

static float median_of_window(const float *frame_s, int count)
{
    float v[RESOLUTION_WINDOW];
    memcpy(v, frame_s + (count - RESOLUTION_WINDOW), sizeof v);
    for (int i = 1; i < RESOLUTION_WINDOW; i++) { /* insertion sort: 15 values */
        float x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    return v[RESOLUTION_WINDOW / 2];
}

float resolution_next(const float *frame_s, int count, float scale, float budget_s)
{
    float s = snap(scale);
    if (count < RESOLUTION_WINDOW || !(budget_s > 0.0f))
        return s;
    float m = median_of_window(frame_s, count);
    if (m > budget_s * RESOLUTION_OVER) {
        /* pixels go as the square of the scale: the step that should fit,
         * taking the whole frame as pixels (at least one step down) */
        float fit = s * sqrtf(budget_s / m);
        float lower = floorf(fit / RESOLUTION_STEP + 1e-3f) * RESOLUTION_STEP;
        if (lower > s - RESOLUTION_STEP)
            lower = s - RESOLUTION_STEP;
        return clampf(lower, RESOLUTION_MIN, RESOLUTION_MAX);
    }
    if (s < RESOLUTION_MAX) {
        float up = s + RESOLUTION_STEP;
        float grow = (up / s) * (up / s); /* the extra pixels of the next step */
        if (m * grow < budget_s * RESOLUTION_UNDER)
            return up;
    }
    return s;
}

void resolution_init(resolution_control *c, float start)
{
    memset(c, 0, sizeof *c);
    c->scale = snap(start);
    c->settle = RESOLUTION_SETTLE; /* the first frames build shaders and buffers */
}

float resolution_frame(resolution_control *c, float frame_s, float budget_s)
{
    if (!(frame_s > 0.0f) || !(budget_s > 0.0f))
        return c->scale;
    if (c->settle > 0) {
        c->settle--;
        return c->scale;
    }
    if (c->count == RESOLUTION_WINDOW) /* keep the newest: drop the oldest */
        memmove(c->frame_s, c->frame_s + 1, sizeof c->frame_s - sizeof c->frame_s[0]);
    else
        c->count++;
    c->frame_s[c->count - 1] = frame_s;
    float next = resolution_next(c->frame_s, c->count, c->scale, budget_s);
    if (next != c->scale) {
        c->scale = next;
        c->count = 0;
        c->settle = RESOLUTION_SETTLE;
    }
    return c->scale;
}

float resolution_scale_to_use(float fixed, const resolution_control *c)
{
    if (fixed > 0.0f)
        return clampf(fixed, RESOLUTION_FIXED_MIN, 1.0f);
    return c->scale;
}

void resolution_size(float scale, int width, int height, int *out_w, int *out_h)
{
    int w = (int)lroundf((float)width * scale), h = (int)lroundf((float)height * scale);
    *out_w = w > 0 ? w : 1;
    *out_h = h > 0 ? h : 1;
}
