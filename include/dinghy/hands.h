/* Hands on the rings (the demo's, the tests' scripts'): grab, move and
 * throw, ray casts to pick a ring under a cursor, punctures. Taking a ring
 * out is sim_remove_ring (dinghy/sim.h). */
#ifndef DINGHY_HANDS_H
#define DINGHY_HANDS_H

#include <stddef.h>

#include "dinghy/sim.h"


/* A held ring follows the hand through a stiff damped spring on a patch
 * of its skin: the vertices within SIM_GRAB_RADIUS of the picked one (at
 * most SIM_GRAB_MAX_VERTICES) are each pulled toward the hand's point plus
 * their offset from it at the grab. The spring's total stiffness is
 * m_ring (2 pi SIM_GRAB_HZ)^2 (N/m) and its damping 2 m_ring 2 pi
 * SIM_GRAB_HZ (N s/m) against the hand's velocity: critically damped at
 * SIM_GRAB_HZ for the whole ring, whatever its mesh, so a 15 kg ring hangs
 * 2.8 cm below the hand. */
#define SIM_GRAB_HZ 3.0
/* The hand's pull on a held vertex is capped at its spring's pull at this
 * stretch (m): at most m_ring (2 pi SIM_GRAB_HZ)^2 0.25, about 9 g for the
 * whole ring, so a cursor flung far away drags the ring instead of tearing
 * it; a throw leaves at most SIM_GRAB_MAX_THROW (m/s). */
#define SIM_GRAB_REACH 0.25
#define SIM_GRAB_MAX_THROW 20.0
#define SIM_GRAB_RADIUS 0.15 /* m */
#define SIM_GRAB_MAX_VERTICES 64

/* Grabs the ring at its vertex `vertex` (index within the ring); the
 * hand starts at `hand` (m), still. Replaces an earlier grab. Returns 0,
 * or -1 when the ring or vertex does not exist. */
int sim_grab(dinghy_sim *sim, sim_ring_id ring, int vertex, const double hand[3]);
/* The hand is at `hand` (m) now and moves at `velocity` (m/s) until the
 * next call: the spring's target moves on by velocity * dt every step, so
 * a hand moved once per frame pulls smoothly. */
void sim_grab_move(dinghy_sim *sim, const double hand[3], const double velocity[3]);
/* Lets go: a throw. The ring's centre of mass leaves at the hand's
 * velocity (an even impulse on its vertices); its spin and wobble about
 * the centre stay as they were. */
void sim_grab_release(dinghy_sim *sim);
/* The held ring, or SIM_RING_NONE. */
sim_ring_id sim_grabbed_ring(const dinghy_sim *sim);
/* Where the hand's spring pulls now (m); 0, or -1 when nothing is held. */
int sim_grab_target(const dinghy_sim *sim, double hand[3]);

/* The nearest point where a ray meets a ring's skin. */
typedef struct {
    sim_ring_id id;     /* which ring */
    int ring;           /* its dense index now */
    int vertex;         /* the ring's vertex nearest the point (index within the ring) */
    double point[3];    /* m */
    double distance;    /* along the ray from its origin, m */
} sim_ray_hit;
/* Casts a ray from origin (m) along the unit vector dir against the
 * triangles of every ring's skin (both faces), up to max_distance (m).
 * Returns 1 with the nearest hit, 0 when it meets none. */
int sim_ray_cast(const dinghy_sim *sim, const double origin[3], const double dir[3],
                 double max_distance, sim_ray_hit *hit);

/* Discharge coefficient of a puncture (docs/physics.md section 6b). */
#define SIM_HOLE_DISCHARGE 0.6

/* Punctures the ring with a hole of `area` m^2 (added to any earlier
 * holes). Gas escapes at mdot = C_d A sqrt(2 rho_gas (p - p_air)) kg/s
 * (docs/physics.md 6b; air flows back in when squeezed below p_air), with
 * rho_gas = air_density p / air_pressure: the ring deflates fast at
 * first, then ever slower as its gauge pressure falls. Constant inflation
 * has no gas: nothing happens. Returns 0, or -1 for a bad ring or area. */
int sim_puncture(dinghy_sim *sim, sim_ring_id ring, double area);

#endif
