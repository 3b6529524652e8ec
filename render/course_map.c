/* Channel coordinates to the ground plane, with straight continuations. */
#include "render/course_map.h"

#include <math.h>

double course_map_clamp(const course_map *m, double s)
{
    return s < m->s_lo ? m->s_lo : s > m->s_hi ? m->s_hi : s;
}

/* Index i and weight f of s between course points i and i + 1. */
static void course_index(const river_course *c, double s, int *i, double *f)
{
    if (c->count < 2 || s <= c->s[0]) {
        *i = 0;
        *f = 0.0;
        return;
    }
    if (s >= c->s[c->count - 1]) {
        *i = c->count - 2;
        *f = 1.0;
        return;
    }
    int lo = 0, hi = c->count - 1; /* bisection: s[lo] <= s < s[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (c->s[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    *i = lo;
    *f = (s - c->s[lo]) / (c->s[hi] - c->s[lo]);
}

double course_map_width(const course_map *m, double s)
{
    int i;
    double f;
    course_index(m->c, s, &i, &f);
    if (m->c->count < 2)
        return m->c->count ? m->c->width[0] : 1.0;
    return m->c->width[i] + f * (m->c->width[i + 1] - m->c->width[i]);
}

double course_map_level(const course_map *m, double s)
{
    int i;
    double f;
    course_index(m->c, s, &i, &f);
    if (m->c->count < 2)
        return m->c->count ? m->c->point[2] : 0.0;
    return m->c->point[3 * i + 2] + f * (m->c->point[3 * i + 5] - m->c->point[3 * i + 2]);
}

void course_map_tangent(const course_map *m, double s, double t[2])
{
    if (s <= m->s_lo || s >= m->s_hi) {
        const double *e = m->end_t[s <= m->s_lo ? 0 : 1];
        t[0] = e[0];
        t[1] = e[1];
        return;
    }
    double a[2], b[2];
    double s0 = course_map_clamp(m, s - 0.5), s1 = course_map_clamp(m, s + 0.5);
    river_point(m->w, s0, 0.0, a);
    river_point(m->w, s1, 0.0, b);
    double dx = b[0] - a[0], dy = b[1] - a[1], len = sqrt(dx * dx + dy * dy);
    t[0] = len > 0.0 ? dx / len : 1.0;
    t[1] = len > 0.0 ? dy / len : 0.0;
}

void course_map_point(const course_map *m, double s, double n, double xy[2])
{
    if (s >= m->s_lo && s <= m->s_hi) {
        river_point(m->w, s, n, xy);
        return;
    }
    int e = s < m->s_lo ? 0 : 1;
    double d = s - (e ? m->s_hi : m->s_lo);
    const double *t = m->end_t[e], *p = m->end_xy[e];
    /* n is to the left looking downstream: (-ty, tx) */
    xy[0] = p[0] + d * t[0] - n * t[1];
    xy[1] = p[1] + d * t[1] + n * t[0];
}

void course_map_init(course_map *m, const river_world *w)
{
    m->w = w;
    m->c = river_course_view(w);
    m->s_lo = -COURSE_MAP_PAD;
    m->s_hi = m->c->length + COURSE_MAP_PAD;
    for (int e = 0; e < 2; e++) {
        double s = e ? m->s_hi : m->s_lo, a[2], b[2];
        river_point(w, s, 0.0, m->end_xy[e]);
        river_point(w, e ? s - 1.0 : s, 0.0, a);
        river_point(w, e ? s : s + 1.0, 0.0, b);
        double dx = b[0] - a[0], dy = b[1] - a[1], len = sqrt(dx * dx + dy * dy);
        m->end_t[e][0] = len > 0.0 ? dx / len : 1.0;
        m->end_t[e][1] = len > 0.0 ? dy / len : 0.0;
    }
    /* The ground band: the channel, its banks and a flat margin, as far
     * out as the world's channel coordinates reach everywhere. */
    double wmax = 0.0;
    for (int i = 0; i < m->c->count; i++)
        wmax = fmax(wmax, m->c->width[i]);
    double band = 0.5 * wmax + 4.0 * m->c->bank_height + 6.0;
    for (; band > 0.5 * wmax + 1.0; band *= 0.95) {
        int ok = 1;
        for (double s = m->s_lo; ok && s <= m->s_hi; s += 2.0)
            for (int side = -1; ok && side <= 1; side += 2) {
                double xy[2], ss, nn;
                river_point(w, s, side * band, xy);
                ok = river_station(w, xy[0], xy[1], &ss, &nn) && fabs(nn - side * band) < 0.05 &&
                     fabs(ss - s) < 0.05;
            }
        if (ok)
            break;
    }
    m->band = band;
}
