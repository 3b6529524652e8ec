/* Exact orientation predicates for the skin checker (tests/skin_check.h):
 * the sign of a determinant of point coordinates, right for any double
 * input whose products do not underflow (any float positions, as the
 * simulation's are, converted to double). A double evaluation with
 * Shewchuk's error bound (Shewchuk 1997, "Adaptive precision
 * floating-point arithmetic and fast robust geometric predicates")
 * answers when it can; otherwise the determinant is summed exactly as a
 * floating-point expansion (two-sum, two-product by fma). Written for
 * the checker alone, so that it shares no code with the physics'
 * contact. */
#ifndef DINGHY_TESTS_CHECK_PREDICATES_H
#define DINGHY_TESTS_CHECK_PREDICATES_H

/* Sign (-1, 0, +1) of det[a - d; b - d; c - d] (3 x 3, rows): +1 when d
 * lies below the plane through a, b, c seen with a, b, c counter-
 * clockwise from above, 0 when the four points are exactly coplanar.
 * Coordinates in any one unit (m here). */
int chk_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);

/* Sign of det[a - c; b - c] (2 x 2): +1 when a, b, c turn counter-
 * clockwise, 0 when exactly collinear. */
int chk_orient2d(const double a[2], const double b[2], const double c[2]);

/* The same signs always from the exact expansion (no filter): for the
 * unit tests, to check the filter's answers against. */
int chk_orient3d_exact(const double a[3], const double b[3], const double c[3],
                       const double d[3]);
int chk_orient2d_exact(const double a[2], const double b[2], const double c[2]);

#endif
