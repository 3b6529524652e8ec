/* The solids: ground (bed, banks, land) as a height field over channel
 * coordinates, rocks as vertical capsules, and the signed distance to them. */
#include "river/river_internal.h"

#include <math.h>

double river_ground_frame(const river_world *w, const river_frame *f, double grad[2])
{
    double jac = 1.0 - f->k * f->n;
    jac = 1.0 / (jac > 0.05 ? jac : 0.05);
    double an = fabs(f->n), sg = f->n < 0.0 ? -1.0 : 1.0;
    double y = 2.0 * an / f->w;
    double G, Gs, Gn;
    if (y < 1.0) {
        /* bed: depth h (1 - y^8), flat mid-channel, steep at the water line */
        double y4 = y * y * y * y, y8 = y4 * y4, p = 1.0 - y8;
        G = f->e - f->h * p;
        Gs = f->de - f->dh * p - f->h * 8.0 * y8 * f->dw / f->w;
        Gn = sg * 16.0 * f->h * y4 * y * y * y / f->w;
    } else {
        /* bank: rises on from the water line with the bed's slope S and
           levels off bank_height above the water */
        double B = w->def.bank_height, S = 16.0 * f->h / f->w;
        double dS = 16.0 * (f->dh / f->w - f->h * f->dw / (f->w * f->w));
        double m = an - 0.5 * f->w, th = tanh(S * m / B), sech2 = 1.0 - th * th;
        G = f->e + B * th;
        Gs = f->de + sech2 * (S * (-0.5 * f->dw) + m * dS);
        Gn = sg * S * sech2;
    }
    if (grad) {
        grad[0] = Gs * f->tx * jac - Gn * f->ty;
        grad[1] = Gs * f->ty * jac + Gn * f->tx;
    }
    return G;
}

double river_ground(const river_world *w, double x, double y, double grad[2])
{
    river_frame f;
    river_frame_at(w, x, y, &f);
    return river_ground_frame(w, &f, grad);
}

double river_solid_distance(const river_world *w, double x, double y, double z, double grad[3])
{
    river_frame f;
    river_frame_at(w, x, y, &f);
    return river_solid_frame(w, &f, x, y, z, grad);
}

double river_solid_frame(const river_world *w, const river_frame *fp, double x, double y,
                         double z, double grad[3])
{
    const river_frame f = *fp;
    double gg[2];
    double G = river_ground_frame(w, &f, gg);
    double nl = 1.0 / sqrt(1.0 + gg[0] * gg[0] + gg[1] * gg[1]);
    double best = (z - G) * nl;
    double bx = -gg[0] * nl, by = -gg[1] * nl, bz = nl;
    int hi = w->rock_hi[f.i];
    for (int r = w->rock_lo[f.i]; r < hi; r++) {
        const river_rock *k = &w->rock[r];
        double dx = x - k->x, dy = y - k->y;
        double h2 = dx * dx + dy * dy;
        if (sqrt(h2) - k->a >= best) continue;   /* cannot be nearer */
        double dz = z < k->zbot ? z - k->zbot : z > k->z ? z - k->z : 0.0;
        double len = sqrt(h2 + dz * dz), d = len - k->a;
        if (d < best) {
            best = d;
            if (len > 0.0) { bx = dx / len; by = dy / len; bz = dz / len; }
            else { bx = 0.0; by = 0.0; bz = 1.0; }
        }
    }
    if (grad) { grad[0] = bx; grad[1] = by; grad[2] = bz; }
    return best;
}
