/* Exact triangle-triangle and segment-triangle intersection for the skin
 * checker (tests/skin_check.h), from the orientation signs of
 * tests/check_predicates.h only, so every answer is exact for the
 * double coordinates given (float positions converted to double).
 *
 * Triangles are closed: touching (a corner on the other's face, two
 * edges meeting, coplanar triangles sharing a point) counts as meeting.
 * Two closed triangles meet exactly when an edge of one meets the other
 * (their intersection is convex: an end of it lies on an edge of one of
 * them), so the test is six segment-triangle tests after the plane
 * rejections of Guigue and Devillers (2003). A segment against a
 * triangle: not both ends strictly on one side of its plane, then the
 * line through the segment passes the three edges on one side (the
 * Plücker signs orient3d(p, q, edge)); a segment in the triangle's plane
 * is tested in 2-D, projected along an axis the triangle does not stand
 * on edge to. A triangle whose corners are exactly collinear has no face:
 * it meets another only through its edges, which the other direction
 * tests; two such triangles are never reported. */
#ifndef DINGHY_TESTS_CHECK_TRI_TRI_H
#define DINGHY_TESTS_CHECK_TRI_TRI_H

/* A triangle's corners v[0], v[1], v[2] (coordinates in any one unit). */
typedef struct {
    double v[3][3];
} chk_tri;

/* 1 when the closed triangles a and b meet, else 0. */
int chk_tri_tri(const chk_tri *a, const chk_tri *b);

/* 1 when the closed segment p q meets the closed triangle t, else 0. */
int chk_segment_triangle(const double p[3], const double q[3], const chk_tri *t);

#endif
