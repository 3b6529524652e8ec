/* Exact triangle-triangle intersection (check_tri_tri.h). */
#include "tests/check_tri_tri.h"

#include <math.h>

#include "tests/check_predicates.h"

/* The axis to drop to see triangle t in 2-D with a non-zero area (the
 * normal's largest component first), or -1 when its corners are exactly
 * collinear. */
static int drop_axis(const double t[3][3])
{
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++)
        e1[k] = t[1][k] - t[0][k], e2[k] = t[2][k] - t[0][k];
    n[0] = fabs(e1[1] * e2[2] - e1[2] * e2[1]);
    n[1] = fabs(e1[2] * e2[0] - e1[0] * e2[2]);
    n[2] = fabs(e1[0] * e2[1] - e1[1] * e2[0]);
    int order[3] = {0, 1, 2};
    for (int i = 0; i < 2; i++) /* by |n_k|, largest first */
        for (int j = 0; j < 2 - i; j++)
            if (n[order[j + 1]] > n[order[j]]) {
                int s = order[j];
                order[j] = order[j + 1], order[j + 1] = s;
            }
    for (int i = 0; i < 3; i++) {
        const int k = order[i], u = (k + 1) % 3, v = (k + 2) % 3;
        const double a[2] = {t[0][u], t[0][v]}, b[2] = {t[1][u], t[1][v]},
                     c[2] = {t[2][u], t[2][v]};
        if (chk_orient2d(a, b, c) != 0)
            return k;
    }
    return -1;
}

static void project(const double p[3], int axis, double out[2])
{
    out[0] = p[(axis + 1) % 3];
    out[1] = p[(axis + 2) % 3];
}

/* x on the closed segment c d, given the three exactly collinear. */
static int on_segment(const double c[2], const double d[2], const double x[2])
{
    return fmin(c[0], d[0]) <= x[0] && x[0] <= fmax(c[0], d[0]) && fmin(c[1], d[1]) <= x[1]
        && x[1] <= fmax(c[1], d[1]);
}

/* The closed 2-D segments a b and c d meet. */
static int segments_meet_2d(const double a[2], const double b[2], const double c[2],
                            const double d[2])
{
    const int d1 = chk_orient2d(c, d, a), d2 = chk_orient2d(c, d, b);
    const int d3 = chk_orient2d(a, b, c), d4 = chk_orient2d(a, b, d);
    if (d1 * d2 < 0 && d3 * d4 < 0)
        return 1;
    return (d1 == 0 && on_segment(c, d, a)) || (d2 == 0 && on_segment(c, d, b))
        || (d3 == 0 && on_segment(a, b, c)) || (d4 == 0 && on_segment(a, b, d));
}

/* A segment in the plane of triangle t, both seen along `axis`: it meets
 * t when an end is in t or it meets an edge of t. */
static int coplanar_segment_triangle(const double p[3], const double q[3], const double t[3][3],
                                     int axis)
{
    double P[2], Q[2], T[3][2];
    project(p, axis, P);
    project(q, axis, Q);
    for (int i = 0; i < 3; i++)
        project(t[i], axis, T[i]);
    const int o = chk_orient2d(T[0], T[1], T[2]);
    int p_in = 1, q_in = 1;
    for (int i = 0; i < 3; i++) {
        p_in &= chk_orient2d(T[i], T[(i + 1) % 3], P) * o >= 0;
        q_in &= chk_orient2d(T[i], T[(i + 1) % 3], Q) * o >= 0;
    }
    if (p_in || q_in)
        return 1;
    for (int i = 0; i < 3; i++)
        if (segments_meet_2d(P, Q, T[i], T[(i + 1) % 3]))
            return 1;
    return 0;
}

/* Segment p q against triangle t, given the signs sp, sq of p and q
 * against t's plane (chk_orient3d(t0, t1, t2, .)) and t's drop axis
 * (*axis: -2 until worked out). */
static int segment_triangle_signs(const double p[3], const double q[3], int sp, int sq,
                                  const double t[3][3], int *axis)
{
    if (sp * sq > 0)
        return 0;
    if (*axis == -2)
        *axis = drop_axis(t);
    if (*axis < 0)
        return 0; /* no face: its edges are tested against the other triangle */
    if (sp == 0 && sq == 0)
        return coplanar_segment_triangle(p, q, t, *axis);
    const int s1 = chk_orient3d(p, q, t[0], t[1]), s2 = chk_orient3d(p, q, t[1], t[2]),
              s3 = chk_orient3d(p, q, t[2], t[0]);
    const int positive = s1 > 0 || s2 > 0 || s3 > 0, negative = s1 < 0 || s2 < 0 || s3 < 0;
    return !(positive && negative);
}

int chk_segment_triangle(const double p[3], const double q[3], const chk_tri *tri)
{
    const double(*t)[3] = tri->v;
    int axis = -2;
    return segment_triangle_signs(p, q, chk_orient3d(t[0], t[1], t[2], p),
                                  chk_orient3d(t[0], t[1], t[2], q), t, &axis);
}

/* The signs of the corners of `of` against the plane of `t`; 0 when all
 * are strictly on one side (the triangles cannot meet), else 1. */
static int plane_signs(const double of[3][3], const double t[3][3], int s[3])
{
    for (int i = 0; i < 3; i++)
        s[i] = chk_orient3d(t[0], t[1], t[2], of[i]);
    return !((s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0));
}

int chk_tri_tri(const chk_tri *ta, const chk_tri *tb)
{
    const double(*a)[3] = ta->v, (*b)[3] = tb->v;
    int sa[3], sb[3];
    if (!plane_signs(a, b, sa) || !plane_signs(b, a, sb))
        return 0;
    int axis_a = -2, axis_b = -2;
    for (int i = 0; i < 3; i++) {
        const int j = (i + 1) % 3;
        if (segment_triangle_signs(a[i], a[j], sa[i], sa[j], b, &axis_b)
            || segment_triangle_signs(b[i], b[j], sb[i], sb[j], a, &axis_a))
            return 1;
    }
    return 0;
}
