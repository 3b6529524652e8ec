/* The shown time: the asked speed, capped by the physics' pace, pulled
 * toward the newest state, clamped between the two newest. */
#include "app/display_clock.h"

#include <math.h>

void display_clock_init(display_clock *c)
{
    c->shown = c->newest = c->pace = 0.0;
    c->started = 0;
}

/* How much of a quantity's way to its target a step of `elapsed` s takes
 * with time constant tau (s): exponential smoothing. */
static double share(double elapsed, double tau) { return 1.0 - exp(-elapsed / tau); }

double display_clock_advance(display_clock *c, double elapsed, double speed, double dt,
                             double t_a, double t_b)
{
    if (!(elapsed > 0.0)) /* also NaN */
        elapsed = 0.0;
    if (!c->started || t_b < c->newest) { /* the first state, or a reset: start there */
        c->shown = t_a;
        c->newest = t_b;
        c->pace = speed;
        c->started = 1;
    }
    if (elapsed > 0.0) {
        double pace = (t_b - c->newest) / elapsed;
        c->pace += share(elapsed, DISPLAY_CLOCK_PACE_TIME) * (pace - c->pace);
    }
    c->newest = t_b;
    double rate = c->pace < speed ? c->pace : speed;
    c->shown += elapsed * (rate > 0.0 ? rate : 0.0);
    double target = t_b - dt;
    c->shown += share(elapsed, DISPLAY_CLOCK_PULL_TIME) * (target - c->shown);
    if (c->shown < t_a)
        c->shown = t_a;
    if (c->shown > t_b)
        c->shown = t_b;
    return t_b > t_a ? (c->shown - t_a) / (t_b - t_a) : 1.0;
}
