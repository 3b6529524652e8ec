/* The moving water: stream function (channel, rocks, wake eddies), the
 * sigma-layer 3-D velocity, and the surface (drops, standing waves, chop). */
#include "river/river_internal.h"

#include <math.h>

#define PI 3.14159265358979323846

/* rock and wake shape, in rock radii a */
#define ROCK_WINDOW 3.0   /* the cylinder's potential flow fades out by here */
#define WAKE_X 2.0        /* wake centre behind the rock centre */
#define WAKE_E 0.45       /* half the spacing of the two eddies */
#define WAKE_RC 0.4       /* eddy core radius */
#define WAKE_R 2.2        /* wake window radius round its centre */

/* Ein'(x) = (1 - e^-x) / x */
static double ein_d(double x)
{
    return x < 1e-8 ? 1.0 - 0.5 * x : -expm1(-x) / x;
}

void river_ein_init(river_world *w)
{
    static const double xg[4] = { -0.86113631159405257522, -0.33998104358485626480,
                                  0.33998104358485626480, 0.86113631159405257522 };
    static const double wg[4] = { 0.34785484513745385737, 0.65214515486254614263,
                                  0.65214515486254614263, 0.34785484513745385737 };
    const double h = 1.0 / RIVER_EIN_STEP;
    int n = RIVER_EIN_STEP * RIVER_EIN_MAX + 1;
    w->ein[0] = 0.0;
    for (int m = 0; m + 1 <= n; m++) {
        double sum = 0.0;
        for (int q = 0; q < 4; q++) sum += wg[q] * ein_d((m + 0.5 * (1.0 + xg[q])) * h);
        w->ein[m + 1] = w->ein[m] + 0.5 * h * sum;
    }
}

/* Ein(x) = E1(x) + ln x + gamma, by Hermite interpolation of the table */
static double ein(const river_world *w, double x)
{
    const double h = 1.0 / RIVER_EIN_STEP;
    double u = x * RIVER_EIN_STEP;
    int m = (int)u;
    if (m >= RIVER_EIN_STEP * RIVER_EIN_MAX) return log(x) + 0.57721566490153286061;
    u -= m;
    double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * w->ein[m] + (u3 - 2 * u2 + u) * h * ein_d(m * h)
           + (-2 * u3 + 3 * u2) * w->ein[m + 1] + (u3 - u2) * h * ein_d((m + 1) * h);
}

/* psi per unit Q of a Lamb-Oseen eddy of circulation gam (per unit Q)
 * centred at offset (dx, dy) from the point; gradient added to g */
static double eddy(const river_world *w, double gam, double rc2, double dx, double dy, double g[2])
{
    double x = (dx * dx + dy * dy) / rc2;
    double c = -gam / (2.0 * PI * rc2) * ein_d(x);
    g[0] = c * dx;
    g[1] = c * dy;
    return -gam / (4.0 * PI) * ein(w, x);
}

int river_psi(const river_world *w, const river_frame *f, double x, double y, int nrock,
              double *psi, double g[2], int *rocky)
{
    double xi = f->n / f->w, y2 = 2.0 * xi, y4 = y2 * y2 * y2 * y2;
    double jac = 1.0 - f->k * f->n;
    jac = 1.0 / (jac > 0.05 ? jac : 0.05);
    /* grad xi = (L - xi W' grad s) / W, grad s = T / (1 - k n) */
    double c = xi * f->dw * jac;
    double gx = (-f->ty - c * f->tx) / f->w, gy = (f->tx - c * f->ty) / f->w;
    double gp = 1.25 * (1.0 - y4);
    *psi = 1.25 * (xi - y4 * y2 / 10.0);
    g[0] = gp * gx;
    g[1] = gp * gy;
    int hi = w->rock_hi[f->i] < nrock ? w->rock_hi[f->i] : nrock;
    for (int r = w->rock_lo[f->i]; r < hi; r++) {
        const river_rock *k = &w->rock[r];
        double dx = x - k->x, dy = y - k->y;
        double X = dx * k->tx + dy * k->ty, Y = -dx * k->ty + dy * k->tx;
        double r2 = X * X + Y * Y;
        if (r2 >= k->reach * k->reach) continue;
        *rocky = 1;
        double a = k->a;
        if (r2 < a * a) return 1;
        double p = *psi;
        double pX = g[0] * k->tx + g[1] * k->ty, pY = -g[0] * k->ty + g[1] * k->tx;
        /* wake: two counter-rotating eddies, windowed round their centre */
        double wx = X - WAKE_X * a, rho = hypot(wx, Y);
        double R2 = WAKE_R * a, r1 = (WAKE_E + WAKE_RC) * a;
        if (rho < R2) {
            double rc2 = WAKE_RC * a * WAKE_RC * a, e = WAKE_E * a;
            double gb[2], gt[2];
            double pb = eddy(w, k->gam, rc2, wx, Y + e, gb);   /* lower: anticlockwise */
            double pt = eddy(w, k->gam, rc2, wx, Y - e, gt);   /* upper: clockwise */
            double pair = pb - pt, qX = gb[0] - gt[0], qY = gb[1] - gt[1];
            double v = (rho - r1) / (R2 - r1);
            double win = 1.0 - river_s5(v), dwin = -river_s5d(v) / (R2 - r1);
            double wX = 0.0, wY = 0.0;
            if (rho > 0.0) { wX = dwin * wx / rho; wY = dwin * Y / rho; }
            p += pair * win;
            pX += win * qX + pair * wX;
            pY += win * qY + pair * wY;
        }
        /* cylinder: psi_c + (psi - psi_c) (1 - a^2/r^2 window): r = a is a streamline */
        double rr = sqrt(r2), Rw = ROCK_WINDOW * a;
        double v = (rr - a) / (Rw - a);
        double win = 1.0 - river_s5(v), dwin = -river_s5d(v) / (Rw - a);
        double a2r2 = a * a / r2;
        double F = 1.0 - a2r2 * win, dF = 2.0 * a2r2 / rr * win - a2r2 * dwin;
        double dp = p - k->g_c;
        p = k->g_c + dp * F;
        pX = F * pX + dp * dF * X / rr;
        pY = F * pY + dp * dF * Y / rr;
        *psi = p;
        g[0] = pX * k->tx - pY * k->ty;
        g[1] = pX * k->ty + pY * k->tx;
    }
    return 0;
}

void river_live_update(river_world *w)
{
    for (int j = 0; j < w->ndrops; j++) {
        river_drop *d = &w->drop[j];
        double U = fmax(0.5, w->speed * d->ufac);
        d->wk = RIVER_G / (U * U);
        d->wlen = fmin(30.0, fmax(3.0, 2.5 * 2.0 * PI / d->wk));
    }
    for (int r = 0; r < w->nrocks; r++) {
        river_rock *k = &w->rock[r];
        double U = fmax(0.5, w->speed * k->ufac);
        k->wk = RIVER_G / (U * U);
        k->wlen = fmin(15.0, fmax(2.0, 2.0 * 2.0 * PI / k->wk));
    }
    for (int c = 0; c < RIVER_CHOP_N; c++) {
        river_chop *h = &w->chop[c];
        h->amp = h->amp1 * w->waves;
        h->q = h->amp > 0.0 ? fmin(1.0, 0.25 / (h->amp * h->k)) : 0.0;
    }
    w->view.speed = w->speed;
    w->view.waves = w->waves;
}

/* skewed bump on u in [0, 1]: u^2 (1-u)^3, peak 1 at u = 0.4; slope per u */
static double train(double u, double *d)
{
    const double norm = 1.0 / 0.03456;
    double v = 1.0 - u, v2 = v * v;
    *d = norm * (2.0 * u * v2 * v - 3.0 * u * u * v2);
    return norm * u * u * v2 * v;
}

/* sin and cos of a small angle (|d| < 0.2: series to d^8, error < 2e-12) */
static void small_sc(double d, double *sn, double *cs)
{
    if (fabs(d) >= 0.2) {
        *sn = sin(d);
        *cs = cos(d);
        return;
    }
    double d2 = d * d;
    *sn = d * (1.0 - d2 * (1.0 / 6 - d2 * (1.0 / 120 - d2 * (1.0 / 5040))));
    *cs = 1.0 - d2 * (0.5 - d2 * (1.0 / 24 - d2 * (1.0 / 720 - d2 * (1.0 / 40320))));
}

/* Gerstner chop: height at world (x, y) by the fixed-point iteration of
 * docs/physics.md (x0 <- x + sum Q A d sin th(x0), 4 steps), and its slope.
 * The phases at x0 come from those at x by angle addition: one sin/cos
 * pair per component. */
static double chop(const river_world *w, double x, double y, double t, double grad[2])
{
    double s0[RIVER_CHOP_N], c0[RIVER_CHOP_N], sn[RIVER_CHOP_N], cs[RIVER_CHOP_N];
    for (int c = 0; c < RIVER_CHOP_N; c++) {
        const river_chop *h = &w->chop[c];
        double th = h->k * (h->dx * x + h->dy * y) - h->omega * t + h->phase;
        s0[c] = sin(th);
        c0[c] = cos(th);
        sn[c] = s0[c];
        cs[c] = c0[c];
    }
    for (int it = 0; it < 4; it++) {
        double ox = 0.0, oy = 0.0;
        for (int c = 0; c < RIVER_CHOP_N; c++) {
            const river_chop *h = &w->chop[c];
            double qs = h->q * h->amp * sn[c];
            ox += qs * h->dx;
            oy += qs * h->dy;
        }
        /* x0 = x + (ox, oy): phase th(x0) = th(x) + k d . (ox, oy) */
        for (int c = 0; c < RIVER_CHOP_N; c++) {
            const river_chop *h = &w->chop[c];
            double ds, dc;
            small_sc(h->k * (h->dx * ox + h->dy * oy), &ds, &dc);
            sn[c] = s0[c] * dc + c0[c] * ds;
            cs[c] = c0[c] * dc - s0[c] * ds;
        }
    }
    double eta = 0.0, j00 = 1.0, j01 = 0.0, j11 = 1.0, zx = 0.0, zy = 0.0;
    for (int c = 0; c < RIVER_CHOP_N; c++) {
        const river_chop *h = &w->chop[c];
        eta += h->amp * cs[c];
        double m = h->q * h->amp * h->k * cs[c];
        j00 -= m * h->dx * h->dx;
        j01 -= m * h->dx * h->dy;
        j11 -= m * h->dy * h->dy;
        double z = -h->amp * h->k * sn[c];
        zx += z * h->dx;
        zy += z * h->dy;
    }
    double det = j00 * j11 - j01 * j01;
    grad[0] = (j11 * zx - j01 * zy) / det;
    grad[1] = (-j01 * zx + j00 * zy) / det;
    return eta;
}

void river_sample(const river_world *w, double x, double y, double z, double t, dinghy_water_point *out)
{
    river_frame f;
    river_frame_at(w, x, y, &f);
    river_sample_frame(w, &f, x, y, z, t, out);
}

void river_sample_solid(const river_world *w, double x, double y, double z, double t,
                        dinghy_water_point *out, double *solid)
{
    river_frame f;
    river_frame_at(w, x, y, &f);
    river_sample_frame(w, &f, x, y, z, t, out);
    *solid = river_solid_frame(w, &f, x, y, z, NULL);
}

void river_sample_frame(const river_world *w, const river_frame *fp, double x, double y, double z,
                        double t, dinghy_water_point *out)
{
    const river_frame f = *fp;
    double xi = f.n / f.w, y2 = 2.0 * xi, y4 = y2 * y2 * y2 * y2;
    double jac = 1.0 - f.k * f.n;
    jac = 1.0 / (jac > 0.05 ? jac : 0.05);
    double sx = f.tx * jac, sy = f.ty * jac;   /* grad s */
    double lx = -f.ty, ly = f.tx;              /* grad n */
    out->velocity[0] = out->velocity[1] = out->velocity[2] = 0.0;
    out->normal[0] = out->normal[1] = 0.0;
    out->normal[2] = 1.0;
    out->height = f.e;
    if (y4 >= 1.0) return;   /* beyond the water line: land */

    /* ---- flow ---- */
    double psi, g[2];
    int rocky = 0;
    int in_rock = river_psi(w, &f, x, y, w->nrocks, &psi, g, &rocky);
    double Q = w->speed * w->q1;
    double c = xi * f.dw;
    double xgx = (lx - c * sx) / f.w, xgy = (ly - c * sy) / f.w;   /* grad xi */
    double p = 1.0 - y4 * y4, hh = f.h * p;
    double ux, uy;
    if (!rocky) {
        /* g'(xi) / p(xi) = 1.25 (1 - y^4) / (1 - y^8) = 1.25 / (1 + y^4): finite at the bank */
        double m = Q * w->def.depth / f.h * 1.25 / (1.0 + y4);
        ux = m * xgy;
        uy = -m * xgx;
    } else {
        double m = Q * w->def.depth / hh;
        ux = m * g[1];
        uy = -m * g[0];
    }
    if (!in_rock) {
        /* sigma layers: u(z) = u_s (1 - 0.3 (1 - sigma)^2), no flow across them */
        double bed = f.e - hh;
        double sig = (z - bed) / hh;
        sig = sig < 0.0 ? 0.0 : sig > 1.0 ? 1.0 : sig;
        double d = 1.0 - sig, P = 1.0 - 0.3 * d * d;
        ux *= P;
        uy *= P;
        /* grad h = p h' grad s + h p'(xi) grad xi */
        double dp = -16.0 * y4 * y2 * y2 * y2;
        double hx = p * f.dh * sx + f.h * dp * xgx, hy = p * f.dh * sy + f.h * dp * xgy;
        double zx = f.de * sx - d * hx, zy = f.de * sy - d * hy;
        out->velocity[0] = ux;
        out->velocity[1] = uy;
        out->velocity[2] = ux * zx + uy * zy;
    }

    /* ---- surface ---- */
    double eta = f.e, es = f.de, en = 0.0;   /* height and its s, n slopes */
    if (w->waves > 0.0) {
        for (int j = 0; j < w->ndrops; j++) {
            const river_drop *d = &w->drop[j];
            double u = f.s - (d->s + 2.0 * w->def.drop_length);
            if (!(u > 0.0 && u < d->wlen) || d->height <= 0.0) continue;
            double de, env = train(u / d->wlen, &de);
            de /= d->wlen;
            double lat = 1.0 - y4, lat_n = -8.0 * y2 * y2 * y2 / f.w, lat_s = 4.0 * y4 * f.dw / f.w;
            double sn = sin(d->wk * u), cs = cos(d->wk * u), A = w->waves;
            eta += A * env * sn * lat;
            es += A * lat * (de * sn + env * d->wk * cs) + A * env * sn * lat_s;
            en += A * env * sn * lat_n;
        }
        int hi = w->rock_hi[f.i];
        for (int r = w->rock_lo[f.i]; r < hi; r++) {
            const river_rock *k = &w->rock[r];
            double u = f.s - k->s - WAKE_X * k->a;
            if (!(u > 0.0 && u < k->wlen)) continue;
            double bw = 1.5 * k->a, dn = (f.n - k->n) / bw;
            if (dn * dn > 40.0) continue;
            double de, env = train(u / k->wlen, &de);
            de /= k->wlen;
            double G = exp(-dn * dn), A = 0.6 * w->waves;
            double cs = cos(k->wk * u), sn = sin(k->wk * u);
            eta += A * env * cs * G;
            es += A * G * (de * cs - env * k->wk * sn);
            en += A * env * cs * G * (-2.0 * dn / bw);
        }
    }
    double gx = es * sx + en * lx, gy = es * sy + en * ly;
    if (w->waves > 0.0 && w->def.chop > 0.0) {
        double cg[2];
        eta += chop(w, x, y, t, cg);
        gx += cg[0];
        gy += cg[1];
    }
    double nl = 1.0 / sqrt(1.0 + gx * gx + gy * gy);
    out->height = eta;
    out->normal[0] = -gx * nl;
    out->normal[1] = -gy * nl;
    out->normal[2] = nl;
}
