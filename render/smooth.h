/* GLSL's smoothstep on the CPU, for what is baked when a scene is built. */
#ifndef DINGHY_SMOOTH_H
#define DINGHY_SMOOTH_H

/* 0 below a, 1 above b, the cubic 3t^2 - 2t^3 between. */
static inline double smooth_step(double a, double b, double x)
{
    double t = (x - a) / (b - a);
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return t * t * (3.0 - 2.0 * t);
}

#endif
