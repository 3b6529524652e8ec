/* The crease stop: a limp skin's hinge may fold shut to CREASE_MAX_ANGLE
 * and no further (docs/physics.md section 8, "The crease stop").
 *
 * Why: a flattened tube's rims are creases at a single hinge, folded to
 * within tenths of a radian of pi. Pressed on, such a hinge folds past pi
 * and its two triangles pass through each other edge through edge: no
 * vertex crosses a face, so no vertex-face contact sees it, and the
 * bending, periodic in the angle, drives the fold on once past pi. Real
 * rubber cannot: a crease's two walls meet. So each substep, every hinge
 * folded past the stop is projected back to it (a position change along
 * the angle's gradient, the velocities changed with it), as a contact is:
 * a constraint, no force to tune, stable at any step.
 *
 * A hinge is watched while |theta| >= CREASE_WATCH_ANGLE: its angle is
 * then tracked from substep to substep, so that a fold past pi (where the
 * measured angle wraps to -pi) is told from a fold the other way. */
#ifndef DINGHY_SKIN_CREASE_H
#define DINGHY_SKIN_CREASE_H

/* The stop, rad from flat: pi - 0.14, the fold of walls a tenth of a cell
 * apart (their contact band); above any hinge of an inflated ring. */
#define CREASE_MAX_ANGLE 3.0

/* Hinges folded at least this far (rad) are tracked. A hinge turns by a
 * few hundredths of a radian a substep; entering the watch and crossing pi
 * in one would take 0.64 rad. */
#define CREASE_WATCH_ANGLE 2.5

/* Floats of crease_track's memory for an M x N ring: one per hinge. */
#define CREASE_HINGES(M, N) (3 * (M) * (N))

/* Starts tracking an M x N ring at positions x, y, z (m): theta (3 M N
 * floats) gets each watched hinge's angle and 0 for the others. */
void crease_track(int M, int N, const float *x, const float *y, const float *z, float *theta);

/* The stop, one substep: each watched hinge's angle at x, y, z (m) is
 * followed on from theta (crease_track's, then this function's), and one
 * folded past CREASE_MAX_ANGLE either way is moved back to it, its four
 * corners moved along the angle's gradient (equal masses: momentum kept)
 * and their velocities vx, vy, vz (m/s) changed by the move over dt (s).
 * The hinges in index order (3 (m N + n) + kind): the same result
 * whatever thread runs the ring. Returns the hinges stopped. */
int crease_stop(int M, int N, float *x, float *y, float *z, float *vx, float *vy, float *vz,
                float dt, float *theta);

#endif
