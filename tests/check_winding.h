/* Winding numbers of a ring's closed skin for the skin checker
 * (tests/skin_check.h): the generalised winding number (Jacobson et al.
 * 2013), the sum of the solid angles of the skin's triangles seen from
 * the point over 4 pi. For the outward torus grid of tests/check_mesh.h
 * it is 1 inside the skin, 0 outside, and an integer wherever the point
 * is off the skin, however the skin is folded; a point it winds about
 * by more than 1/2 is inside.
 *
 * Only the nearby part of the skin is summed, exactly: cut the torus into
 * its M bands (band m: the 2 N triangles between rows m and m+1) and
 * close each band with the fans of its two rows (C(k): triangles
 * (k,0) (k,j) (k,j+1), j = 1 .. N-2, bounded by row k in increasing n).
 * The band's border is row m+1 forwards and row m backwards, so
 * S_m = band_m - C(m+1) + C(m) is closed, and the S_m sum to the skin
 * (each fan once with each sign). A closed surface winds 0 times about a
 * point outside its convex hull, and the box of rows m and m+1 holds
 * S_m's hull; so only the bands whose boxes hold the point count:
 *   w = (1 / 4 pi) sum over those m of [ O(band_m) - O(C(m+1)) + O(C(m)) ]
 * with O the solid angle, and w = 0 outside the ring's box. Inside a
 * run of consecutive bands the fans cancel: a run m0 .. m1 costs its
 * bands and the two fans C(m0) and C(m1+1). */
#ifndef DINGHY_TESTS_CHECK_WINDING_H
#define DINGHY_TESTS_CHECK_WINDING_H

#include "tests/check_mesh.h"

/* Signed solid angle (sr) of triangle a b c seen from pt (van Oosterom
 * and Strackee 1983): positive when pt lies behind the triangle's face
 * (on the side its outward normal (b - a) x (c - a) points away from);
 * 0 when pt is a corner. */
double chk_solid_angle(const double pt[3], const double a[3], const double b[3],
                       const double c[3]);

/* Winding number of ring p's closed skin about pt (m) from every one of
 * its 2 M N triangles: the reference chk_winding is tested against. */
double chk_winding_brute(const skin_mesh *mesh, int p, const double pt[3]);

/* The M band boxes of ring p into boxes (6 M doubles: box m is rows m
 * and m+1, as chk_ring_box's layout). */
void chk_band_boxes(const skin_mesh *mesh, int p, double *boxes);

/* Winding number of ring p's closed skin about pt (m), summing only the
 * bands whose boxes (chk_band_boxes of ring p) hold pt; the same number
 * as chk_winding_brute to round-off. */
double chk_winding(const skin_mesh *mesh, int p, const double *band_boxes, const double pt[3]);

#endif
