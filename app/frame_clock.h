/* The demo's physics clock: how many fixed steps each frame takes so that
 * simulated time keeps pace with real time (times the chosen speed), with
 * a cap so that a slow frame cannot make the next one slower still.
 *
 * The cap gives the physics FRAME_CLOCK_BUDGET of wall time a frame, or as
 * much as the rest of the frame (drawing, waiting) took when that is
 * longer: with a slow (software) renderer the physics still gets half the
 * time, and a frame is never more than twice as long as its drawing.
 * When the frame is drawn while the physics steps (the demo hands the
 * frame to the GL driver first), the physics may also take the time the
 * frame then waited for the driver, less a tenth: it fills the renderer's
 * time without stretching the frame. */
#ifndef DINGHY_FRAME_CLOCK_H
#define DINGHY_FRAME_CLOCK_H

#define FRAME_CLOCK_MAX_ELAPSED 0.25  /* s: longer gaps (a dragged window) count as this */
#define FRAME_CLOCK_BUDGET 0.030      /* s of wall time per frame the physics may use at least */
#define FRAME_CLOCK_MIN_SPEED 0.0625
#define FRAME_CLOCK_MAX_SPEED 8.0

typedef struct {
    double dt;        /* physics time step, s */
    double speed;     /* simulated seconds per real second (1 = real time) */
    double backlog;   /* simulated time owed to real time, s (0 <= backlog < dt normally) */
    double step_cost; /* smoothed wall time of one step, s (0 = not yet measured) */
    double last_physics; /* wall time the last frame's steps took, s */
    double last_wait;    /* wall time the last frame then waited for the renderer, s */
} frame_clock;

void frame_clock_init(frame_clock *c, double dt);

/* Steps to take now, `elapsed` wall seconds after the previous frame. When
 * real time needs more steps than the cap allows at the measured step cost
 * (before any measurement: a 60 Hz frame's worth), it takes that many and
 * forgives the rest (the simulation then runs slower than real time
 * instead of spiralling). */
long frame_clock_steps(frame_clock *c, double elapsed);

/* Tells the clock that this frame's `steps` steps took `seconds` of wall
 * time (call once a frame, also with 0 steps). */
void frame_clock_measured(frame_clock *c, long steps, double seconds);

/* Tells the clock that, after its steps, the frame waited `seconds` for a
 * renderer drawing at the same time (the swap). */
void frame_clock_waited(frame_clock *c, double seconds);

/* Doubles (faster > 0) or halves the speed, within the limits above. */
void frame_clock_change_speed(frame_clock *c, int faster);

#endif
