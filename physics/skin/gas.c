/* The gas inside a ring: enclosed volume, the isothermal law and the
 * orifice flow through punctures (docs/physics.md section 6b). */
#include "physics/skin/gas.h"

#include <math.h>

#include "physics/water/face_loads.h"

/* The volume V0 at which the full gas is at p0 = p_air + gauge (m^3): the
 * rest volume, or for a membrane its inflated volume (sim_inflate), so
 * that an inflated ring is at its gauge. */
static double fill_volume(const dinghy_sim *s) { return s->fill_volume; }

double gas_gauge(const dinghy_sim *s, int p, double v)
{
    const double air = s->def.world.air_pressure;
    const double p0 = air + s->def.ring.gauge_pressure;
    if (v < 1e-3 * s->rest_volume)
        v = 1e-3 * s->rest_volume;
    return s->gas_frac[p] * p0 * fill_volume(s) / v - air;
}

double gas_flow(const dinghy_sim *s, int p, double gauge)
{
    const double area = s->hole_area[p];
    if (area <= 0.0 || gauge == 0.0)
        return 0.0;
    const sim_world_def *w = &s->def.world;
    /* isothermal: the gas inside is the air compressed to p; air coming
     * in (gauge < 0) has the ambient density */
    const double rho = gauge > 0.0 ? w->air_density * (w->air_pressure + gauge) / w->air_pressure
                                   : w->air_density;
    return copysign(SIM_HOLE_DISCHARGE * area * sqrt(2.0 * rho * fabs(gauge)), gauge);
}

void gas_leak(dinghy_sim *s, int p, double gauge, double dt)
{
    const double mdot = gas_flow(s, p, gauge);
    if (mdot == 0.0)
        return;
    const sim_world_def *w = &s->def.world;
    const double air = w->air_pressure;
    const double p0v0 = (air + s->def.ring.gauge_pressure) * fill_volume(s);
    /* the amount is proportional to the mass (rho_air p / p_air) V = rho_air
     * pV / p_air with pV = gas_frac p0 V0, so d(gas_frac)/dt = -mdot p_air /
     * (rho_air p0 V0) */
    const double df = -mdot * air / (w->air_density * p0v0) * dt;
    /* never past equilibrium in one substep: the flow stops at p = p_air */
    const double f_eq = s->gas_frac[p] * air / (air + gauge);
    double f = s->gas_frac[p] + df;
    if ((df < 0.0 && f < f_eq) || (df > 0.0 && f > f_eq))
        f = f_eq;
    s->gas_frac[p] = f;
}

void gas_ring_volumes(dinghy_sim *s, int p)
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t base = (size_t)p * s->V;
    const double origin[3] = {b->x[base], b->y[base], b->z[base]};
    double vol = 0.0;
    for (int m = 0; m < s->M; m++) {
        double v = quad_row_volume(s->M, s->N, b->x + base, b->y + base, b->z + base, m, origin);
        s->row_vol[(size_t)p * s->M + m] = v;
        vol += v;
    }
    s->ring_vol[p] = vol;
    s->ring_gauge[p] = (float)gas_gauge(s, p, vol);
}

void gas_refresh_volumes(dinghy_sim *s)
{
    for (int p = 0; p < s->P; p++)
        gas_ring_volumes(s, p);
}
