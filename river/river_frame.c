/* The geometry of a built river at the bottom of the river's files: the
 * centre line between stations, the channel frame of a point and the
 * plain lookups on it. Calls no other river file. */
#include "river/river_internal.h"

#include <math.h>

/* ---- the centre line between stations ---- */

static void small_cs(double d, double *c, double *s)
{
    if (fabs(d) < 0.05) {
        double d2 = d * d;
        *c = 1.0 - d2 * (1.0 / 2 - d2 * (1.0 / 24 - d2 * (1.0 / 720 - d2 * (1.0 / 40320))));
        *s = d * (1.0 - d2 * (1.0 / 6 - d2 * (1.0 / 120 - d2 * (1.0 / 5040))));
    } else {
        *c = cos(d);
        *s = sin(d);
    }
}

/* Point (X, Y) and tangent (c, s) of the piece at t, in the station's frame:
 * the heading turns by d = a t + b t^2 (a = k, b = dk / 2) and the point is
 * the integral of (cos d, sin d), as its series in t. Build and lookup use
 * this same function, so the stations lie exactly on the curve it defines. */
void river_piece(const river_stn *p, double t, double *X, double *Y, double *c, double *s)
{
    double a = p->k, b = 0.5 * p->dk;
    double a2 = a * a, t2 = t * t, t3 = t2 * t;
    *X = t - t3 * (a2 * (1.0 / 6) + t * (a * b * 0.25 + t * (b * b * 0.1 - a2 * a2 * (1.0 / 120))));
    *Y = t2 * (a * 0.5 + t * (b * (1.0 / 3) - t * (a2 * a * (1.0 / 24)
            + t * (a2 * b * 0.1 + t * (a * b * b * (1.0 / 12) - a2 * a2 * a * (1.0 / 720))))));
    small_cs(t * (a + b * t), c, s);
}

static void hermite(double f0, double d0, double f1, double d1, double u, double *f, double *d)
{
    double u2 = u * u, u3 = u2 * u;
    *f = (2 * u3 - 3 * u2 + 1) * f0 + (u3 - 2 * u2 + u) * RIVER_DS * d0 + (-2 * u3 + 3 * u2) * f1
         + (u3 - u2) * RIVER_DS * d1;
    *d = ((6 * u2 - 6 * u) * (f0 - f1)) / RIVER_DS + (3 * u2 - 4 * u + 1) * d0 + (3 * u2 - 2 * u) * d1;
}

/* river_frame_fill given the heading's turn (c, s) at t, as river_piece
 * gives it. */
static void frame_fill_cs(const river_world *w, int i, double t, double c, double s,
                          river_frame *f)
{
    const river_stn *a = &w->st[i], *b = &w->st[i + 1];
    f->i = i;
    f->s = w->s0 + i * RIVER_DS + t;
    f->tx = a->tx * c - a->ty * s;
    f->ty = a->ty * c + a->tx * s;
    f->k = a->k + a->dk * t;
    /* beyond either end of the course (the first or last piece, t outside
     * it) the width, depth and surface are held, not extrapolated by the
     * cubic: 30 m past the end it had the ground at -1458 m */
    double u = t / RIVER_DS;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    hermite(a->w, a->dw, b->w, b->dw, u, &f->w, &f->dw);
    hermite(a->h, a->dh, b->h, b->dh, u, &f->h, &f->dh);
    hermite(a->e, a->de, b->e, b->de, u, &f->e, &f->de);
}

/* Fills the frame's course quantities at piece i, offset t. */
void river_frame_fill(const river_world *w, int i, double t, river_frame *f)
{
    const river_stn *a = &w->st[i];
    double c, s;
    small_cs(t * (a->k + 0.5 * a->dk * t), &c, &s);
    frame_fill_cs(w, i, t, c, s, f);
}

int river_piece_of(const river_world *w, double s, double *t)
{
    double u = (s - w->s0) / RIVER_DS;
    int i = (int)floor(u);
    if (i < 0) i = 0;
    if (i > w->ns - 2) i = w->ns - 2;
    *t = s - (w->s0 + i * RIVER_DS);
    return i;
}

void river_curve_at(const river_world *w, double s, double c[2], double t[2])
{
    double tt, X, Y, cc, ss;
    int i = river_piece_of(w, s, &tt);
    const river_stn *a = &w->st[i];
    river_piece(a, tt, &X, &Y, &cc, &ss);
    c[0] = a->x + a->tx * X - a->ty * Y;
    c[1] = a->y + a->ty * X + a->tx * Y;
    t[0] = a->tx * cc - a->ty * ss;
    t[1] = a->ty * cc + a->tx * ss;
}

void river_point(const river_world *w, double s, double n, double xy[2])
{
    double c[2], t[2];
    river_curve_at(w, s, c, t);
    xy[0] = c[0] - t[1] * n;
    xy[1] = c[1] + t[0] * n;
}

static double along(const river_stn *a, double x, double y)
{
    return (x - a->x) * a->tx + (y - a->y) * a->ty;
}

void river_frame_at(const river_world *w, double x, double y, river_frame *f)
{
    double fx = (x - w->gx0) / RIVER_CELL, fy = (y - w->gy0) / RIVER_CELL;
    int inside = fx >= 0 && fy >= 0 && fx < w->gnx && fy < w->gny;
    int cx = fx < 0 ? 0 : fx >= w->gnx ? w->gnx - 1 : (int)fx;
    int cy = fy < 0 ? 0 : fy >= w->gny ? w->gny - 1 : (int)fy;
    int i = w->grid[cy * w->gnx + cx];
    if (i > w->ns - 2) /* the grid may name the last station, which starts no piece */
        i = w->ns - 2;
    if (i < 0)
        i = 0;
    /* walk to the piece whose normals bracket the point: s_i <= s < s_i+1 */
    for (int it = 0; it < 400; it++) {
        if (i > 0 && along(&w->st[i], x, y) < 0.0) { i--; continue; }
        if (i < w->ns - 2 && along(&w->st[i + 1], x, y) >= 0.0) { i++; continue; }
        break;
    }
    const river_stn *p = &w->st[i];
    double dx = x - p->x, dy = y - p->y;
    double a = dx * p->tx + dy * p->ty, b = -dx * p->ty + dy * p->tx;
    /* start from the osculating circle, then Newton on the piece */
    double q = 1.0 - p->k * b;
    if (q < 0.1) q = 0.1;
    double t = a / q;
    {
        double z = p->k * t, z2 = z * z;
        t *= 1.0 - z2 * (1.0 / 3 - z2 * 0.2);
    }
    /* one Newton step: the circle start is within ~1e-5 m, so the step
       leaves ~1e-12 m */
    double X, Y, c, s, n;
    river_piece(p, t, &X, &Y, &c, &s);
    {
        double ex = a - X, ey = b - Y;
        double F = ex * c + ey * s;
        n = -ex * s + ey * c;
        double den = 1.0 - (p->k + p->dk * t) * n;
        if (den < 0.1) den = 0.1;
        t += F / den;
    }
    river_piece(p, t, &X, &Y, &c, &s);
    n = -(a - X) * s + (b - Y) * c;
    /* river_piece's turn at t is the fill's own (the same expression) */
    frame_fill_cs(w, i, t, c, s, f);
    f->n = n;
    f->inside = inside && fabs(n) <= w->reach;
}

int river_station(const river_world *w, double x, double y, double *s, double *n)
{
    river_frame f;
    river_frame_at(w, x, y, &f);
    if (s) *s = f.s;
    if (n) *n = f.n;
    return f.inside;
}

double river_end_s(const river_world *w)
{
    return w->def.length;
}

const river_course *river_course_view(const river_world *w)
{
    return &w->view;
}
