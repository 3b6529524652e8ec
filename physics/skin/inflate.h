/* The inflated shape of a membrane ring: the equilibrium of its skin
 * (membrane.h) with a gauge pressure inside, in air, found once when a
 * simulation is made, so that rings start there with their gas at the
 * gauge (not at the rest shape with the gas of the inflated one, which
 * overshoots: a soft skin, 0.4 MPa at 2 kPa, then tore within 64 ms). */
#ifndef DINGHY_SKIN_INFLATE_H
#define DINGHY_SKIN_INFLATE_H

#include "physics/skin/membrane.h"

/* The ring's cross-section inflated to `gauge` (Pa), from the rest torus
 * of radii R and r (m) of `rest` (M x N, blocks of at least one row):
 * rho[n], z[n] (m), the distance from the axis and the height of vertex n
 * of every row (the shape is round its axis as the rest one is); *volume
 * (m^3) the closed mesh's volume there. Dynamic relaxation of row 0 (the
 * other rows its rotations) with kinetic damping, vertex mass `mass` (kg),
 * in float as the tick's membrane, until the largest unbalanced force is
 * below 1e-4 of the gauge's load on a vertex or moves it by less than 1e-6
 * of r against the skin's stiffness. 0, or -1 when out of memory or not
 * settled within its iterations (rho, z then the rest torus). About 1 ms
 * at 32 x 16; a tube of 4096 vertices at most about a second. */
int membrane_inflated_profile(const membrane_rest *rest, const membrane_material *mat, double R,
                              double r, double gauge, double mass, double *rho, double *z,
                              double *volume);

#endif
