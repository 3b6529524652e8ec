/* The simulated time the demo shows, when the physics steps on a thread
 * of its own: it runs at the asked speed while finished states keep up,
 * and slows smoothly to the pace the physics reaches when they do not
 * (the HUD then says the physics is behind), instead of stalling frames. */
#ifndef DINGHY_DISPLAY_CLOCK_H
#define DINGHY_DISPLAY_CLOCK_H

/* Wall time over which the pace of the finished states is averaged, s. */
#define DISPLAY_CLOCK_PACE_TIME 0.5
/* Wall time over which the shown time is pulled to one step behind the
 * newest state, s. */
#define DISPLAY_CLOCK_PULL_TIME 0.25

typedef struct {
    double shown;    /* simulated time shown, s */
    double newest;   /* the newest finished state's time at the last frame, s */
    double pace;     /* simulated seconds the physics finishes per wall second (smoothed) */
    int started;
} display_clock;

void display_clock_init(display_clock *c);

/* Advances the shown time by `elapsed` wall seconds at `speed` (simulated
 * seconds per wall second asked), no faster than the physics finishes
 * states, pulled toward one step (dt, s) behind the newest state and kept
 * between the two newest, t_a <= t_b (s; t_a = t_b when there is one).
 * Returns the fraction of the way from t_a to t_b to show (0..1). */
double display_clock_advance(display_clock *c, double elapsed, double speed, double dt,
                             double t_a, double t_b);

#endif
