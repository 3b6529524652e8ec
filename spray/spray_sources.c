/* What throws droplets: the frame's splash and obstacle events, and the
 * places where the river breaks over its drops and rocks. Serial, in a
 * fixed order, with the system's own generator: deterministic. */
#include "spray/spray_internal.h"

#include <math.h>

/* Droplets start this far above the water surface, m (so that the first
 * step does not count them back in). */
#define LIFT 0.02
/* Slowest upward launch, m/s: a droplet must clear the surface. */
#define MIN_UP 0.5

/* The water surface height under (x, y) now, m. */
static double surface(const dinghy_sim *sim, double x, double y)
{
    dinghy_water_point w;
    sim_water_at(sim, x, y, 0.0, &w);
    return w.height;
}

/* Throws n droplets from ring `ring`'s tube: a splash from random rows,
 * each on its outer or inner side at the water line, thrown outward from
 * that side; a hit from the row nearest the solid, at the tube's top, thrown
 * along `away`. Launch speed 0.5..1 of `speed`, mostly upward, on top of
 * the ring's velocity. */
typedef struct {
    int ring, n;
    double speed;       /* launch speed scale, m/s */
    const double *away; /* unit direction out of a solid, or NULL (splash) */
    int row;            /* the row touching the solid (hit), or -1 */
} burst;

static void throw_burst(spray_system *sp, const dinghy_sim *sim, const burst *b)
{
    const spray_tubes *t = &sp->tubes;
    const float *c = t->bound + 4 * b->ring;
    const double *rv = sim_rings(sim)[b->ring].velocity;
    for (int k = 0; k < b->n; k++) {
        int m = b->row >= 0 ? b->row : (int)spray_uniform(sp, 0.0, t->M) % t->M;
        const float *q = t->row + 4 * ((size_t)b->ring * t->M + m);
        double h[2] = {q[0] - c[0], q[1] - c[1]}, side = spray_uniform(sp, 0.0, 1.0) < 0.5 ? -1 : 1;
        if (b->away) {
            h[0] = -b->away[0];
            h[1] = -b->away[1];
            side = 1.0;
        }
        double hl = hypot(h[0], h[1]);
        if (hl < 1e-9) {
            h[0] = hl = 1.0;
            h[1] = 0.0;
        }
        h[0] *= side / hl;
        h[1] *= side / hl;
        /* a splash: the tube's side at the water line; a hit: the tube's
         * top, leaning toward the solid (its side may be in the rock) */
        double lean = b->away ? 0.5 : 1.0, top = b->away ? 0.87 * q[3] : 0.0;
        double pos[3] = {q[0] + lean * q[3] * h[0], q[1] + lean * q[3] * h[1], 0.0};
        pos[2] = fmax(q[2] + top, surface(sim, pos[0], pos[1])) + LIFT;
        double s = b->speed * spray_uniform(sp, 0.5, 1.0);
        double out = b->away ? -spray_uniform(sp, 0.3, 0.8) : spray_uniform(sp, 0.1, 0.6);
        double across = spray_uniform(sp, -0.3, 0.3);
        double vel[3] = {rv[0] + s * (out * h[0] - across * h[1]),
                         rv[1] + s * (out * h[1] + across * h[0]),
                         fmax(MIN_UP, s * spray_uniform(sp, 0.6, 1.0))};
        spray_add(sp, pos, vel, sp->def.lifetime * spray_uniform(sp, 0.5, 1.0));
    }
}

/* The row of ring p nearest a rock, bank or bed, and the way out of it. */
static int row_nearest_solid(const spray_tubes *t, const river_world *w, int p, double away[3])
{
    int best = 0;
    double best_d = INFINITY;
    for (int m = 0; m < t->M; m++) {
        const float *q = t->row + 4 * ((size_t)p * t->M + m);
        double g[3];
        double d = river_solid_distance(w, q[0], q[1], q[2], g);
        if (d < best_d) {
            best_d = d;
            best = m;
            away[0] = g[0];
            away[1] = g[1];
            away[2] = g[2];
        }
    }
    return best;
}

static int clamp_count(double n, int most)
{
    return n > most ? most : (int)lround(n);
}

void spray_emit_events(spray_system *sp, const dinghy_sim *sim)
{
    size_t count;
    const sim_event *ev = sim_events(sim, &count, NULL);
    const river_world *w = sim_river(sim);
    for (size_t e = 0; e < count; e++) {
        if (ev[e].ring < 0 || ev[e].ring >= sp->tubes.rings)
            continue; /* beyond max_rows: no tube to throw from */
        burst b = {ev[e].ring, 0, sp->def.throw_ratio * ev[e].speed, NULL, -1};
        double away[3];
        if (ev[e].kind == SIM_EVENT_SPLASH) {
            b.n = clamp_count(sp->def.splash_gain * ev[e].count * ev[e].speed, sp->def.event_max);
        } else if (ev[e].kind == SIM_EVENT_OBSTACLE && w) {
            b.n = clamp_count(sp->def.hit_gain * ev[e].speed, sp->def.event_max);
            b.row = row_nearest_solid(&sp->tubes, w, b.ring, away);
            b.away = away;
        }
        throw_burst(sp, sim, &b);
    }
}

/* Steepness of the surface at (x, y): 1 - n_z of its normal. */
static double steepness(const river_world *w, double x, double y)
{
    dinghy_water_point p;
    river_sample(w, x, y, 0.0, 0.0, &p);
    return 1.0 - p.normal[2];
}

/* Keeps a spot when it is open water (not in a rock or a bank). */
static void add_spot(spray_spots *s, const river_world *w, const double xy[2], int most)
{
    dinghy_water_point p;
    river_sample(w, xy[0], xy[1], 0.0, 0.0, &p);
    if (s->count >= most || river_solid_distance(w, xy[0], xy[1], p.height + LIFT, NULL) < 0.1)
        return;
    s->xy[2 * s->count] = xy[0];
    s->xy[2 * s->count + 1] = xy[1];
    s->carry[s->count++] = 0.0;
}

/* The break spots of a river: across each drop where its surface is
 * steepest (the crest, found within 3 m of the drop's middle), and round
 * the upstream half of each rock where the current piles onto it. */
static void find_spots(spray_spots *s, const river_world *w, double spacing, int most)
{
    const river_course *c = river_course_view(w);
    s->count = 0;
    s->of = w;
    for (int d = 0; d < c->drop_count; d++) {
        double crest = c->drop_s[d], steepest = -1.0, xy[2];
        for (double at = c->drop_s[d] - 3.0; at <= c->drop_s[d] + 3.0; at += 0.1) {
            river_point(w, at, 0.0, xy);
            double st = steepness(w, xy[0], xy[1]);
            if (st > steepest) {
                steepest = st;
                crest = at;
            }
        }
        int i = 0;
        while (i + 1 < c->count && c->s[i + 1] < crest)
            i++;
        double half = 0.5 * c->width[i] - 0.5 * spacing;
        for (double n = -half; n <= half + 1e-9; n += spacing) {
            river_point(w, crest, n, xy);
            add_spot(s, w, xy, most);
        }
    }
    for (int r = 0; r < c->rock_count; r++) {
        const double *rock = c->rock + 4 * r;
        double rs, rn, xy[2], reach = rock[3] + 0.15;
        river_station(w, rock[0], rock[1], &rs, &rn);
        for (int k = -2; k <= 2; k++) {
            double a = k * 0.5; /* rad: -57 .. 57 degrees off straight upstream */
            river_point(w, rs - reach * cos(a), rn + reach * sin(a), xy);
            add_spot(s, w, xy, most);
        }
    }
}

void spray_emit_river(spray_system *sp, const dinghy_sim *sim, double dt)
{
    const river_world *w = sim_river(sim);
    spray_spots *s = &sp->spots;
    if (!w)
        return;
    if (s->of != w)
        find_spots(s, w, sp->def.spot_spacing, sp->def.max_spots);
    for (int i = 0; i < s->count; i++) {
        double x = s->xy[2 * i], y = s->xy[2 * i + 1];
        dinghy_water_point p;
        sim_water_at(sim, x, y, 1e3, &p); /* above the surface: the surface current */
        double u = sqrt(p.velocity[0] * p.velocity[0] + p.velocity[1] * p.velocity[1]);
        s->carry[i] += sp->def.river_rate * u * dt;
        int n = (int)s->carry[i];
        s->carry[i] -= n;
        for (int k = 0; k < n; k++) {
            double a = spray_uniform(sp, 0.0, 6.283185307179586);
            double rad = 0.5 * sp->def.spot_spacing * sqrt(spray_uniform(sp, 0.0, 1.0));
            double pos[3] = {x + rad * cos(a), y + rad * sin(a), p.height + LIFT};
            double up = fmax(MIN_UP, sp->def.throw_ratio * u * spray_uniform(sp, 0.3, 0.9));
            double f = spray_uniform(sp, 0.6, 1.0);
            double vel[3] = {f * p.velocity[0] + spray_uniform(sp, -0.3, 0.3) * u,
                             f * p.velocity[1] + spray_uniform(sp, -0.3, 0.3) * u, up};
            spray_add(sp, pos, vel, sp->def.lifetime * spray_uniform(sp, 0.5, 1.0));
        }
    }
}
