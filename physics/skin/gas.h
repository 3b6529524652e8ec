/* The gas inside a ring (docs/physics.md section 6b): its enclosed volume, the
 * law p V = gas_frac p0 V0, and the leak through punctures. Private to the
 * physics core. */
#ifndef DINGHY_GAS_H
#define DINGHY_GAS_H

#include "physics/world/sim_internal.h"

/* Gauge pressure (Pa) of ring p's gas at volume v (m^3): gas_frac p0 V0 / v
 * - p_air, the volume floored at 1/1000 of rest (a ring squashed flat
 * pushes hard, but finitely). */
double gas_gauge(const dinghy_sim *sim, int p, double v);

/* Mass flow out of ring p's punctures at gauge pressure `gauge` (Pa), kg/s
 * (docs/physics.md 6b; negative: air flows in); 0 without holes. */
double gas_flow(const dinghy_sim *sim, int p, double gauge);

/* Lets that flow out of ring p over dt (s): lowers its gas fraction. */
void gas_leak(dinghy_sim *sim, int p, double gauge, double dt);

/* Sets ring p's row volumes (m^3), its volume and its gas pressure from
 * the current state (the tick then keeps them up to date). */
void gas_ring_volumes(dinghy_sim *sim, int p);

/* gas_ring_volumes of every ring (after the state was replaced, as by a
 * checkpoint). */
void gas_refresh_volumes(dinghy_sim *sim);

#endif
