/* Transitional: the whole public API of the core under its old path, for
 * the physics files that still include "sim.h" (physics/spray.h,
 * physics/reference.h; their owners move them to the dinghy/ headers).
 * New code includes the dinghy/ headers it needs instead. */
#ifndef DINGHY_PHYSICS_SIM_H
#define DINGHY_PHYSICS_SIM_H

#include "dinghy/events.h"
#include "dinghy/hands.h"
#include "dinghy/health.h"
#include "dinghy/profile.h"
#include "dinghy/sim.h"

#endif
