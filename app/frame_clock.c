/* Fixed-step accumulator with a cost-based cap. */
#include "app/frame_clock.h"

#include <math.h>

void frame_clock_init(frame_clock *c, double dt)
{
    c->dt = dt;
    c->speed = 1.0;
    c->backlog = 0.0;
    c->step_cost = 0.0;
    c->last_physics = 0.0;
    c->last_wait = 0.0;
}

long frame_clock_steps(frame_clock *c, double elapsed)
{
    if (!(elapsed > 0.0)) /* also catches NaN */
        return 0;
    if (elapsed > FRAME_CLOCK_MAX_ELAPSED)
        elapsed = FRAME_CLOCK_MAX_ELAPSED;
    c->backlog += elapsed * c->speed;
    double wanted = floor(c->backlog / c->dt + 1e-9);
    double budget = elapsed - c->last_physics; /* what drawing and waiting took */
    double overlap = 0.9 * c->last_physics + c->last_wait; /* the renderer's time, less a tenth */
    if (budget < overlap)
        budget = overlap;
    if (budget < FRAME_CLOCK_BUDGET)
        budget = FRAME_CLOCK_BUDGET;
    /* Until a step has been timed, a 60 Hz frame's worth: the first frame
     * must not stall on a scene too big for this machine. */
    double cap = c->step_cost > 0.0 ? budget / c->step_cost : ceil(1.0 / (60.0 * c->dt));
    if (cap < 1.0)
        cap = 1.0;
    if (wanted > cap) {
        c->backlog = 0.0; /* forgive what cannot be caught up */
        return (long)cap;
    }
    c->backlog -= wanted * c->dt;
    if (c->backlog < 0.0)
        c->backlog = 0.0;
    return (long)wanted;
}

void frame_clock_measured(frame_clock *c, long steps, double seconds)
{
    c->last_physics = seconds >= 0.0 ? seconds : 0.0;
    if (steps <= 0 || !(seconds >= 0.0))
        return;
    double cost = seconds / (double)steps;
    c->step_cost = c->step_cost > 0.0 ? 0.8 * c->step_cost + 0.2 * cost : cost;
}

void frame_clock_waited(frame_clock *c, double seconds)
{
    c->last_wait = seconds >= 0.0 ? seconds : 0.0; /* also NaN */
}

void frame_clock_change_speed(frame_clock *c, int faster)
{
    c->speed *= faster > 0 ? 2.0 : 0.5;
    if (c->speed > FRAME_CLOCK_MAX_SPEED)
        c->speed = FRAME_CLOCK_MAX_SPEED;
    if (c->speed < FRAME_CLOCK_MIN_SPEED)
        c->speed = FRAME_CLOCK_MIN_SPEED;
}
