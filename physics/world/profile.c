/* The tick's phase timers. */
#include "physics/world/sim_internal.h"

#include <string.h>

static const char *const phase_names[SIM_PHASE_COUNT] = {
    "centres", "broadphase", "contacts", "springs", "integrate", "events", "skin_contact",
};

const char *sim_phase_name(sim_phase ph) { return ph < SIM_PHASE_COUNT ? phase_names[ph] : "?"; }

void sim_phase_times(const dinghy_sim *s, double out[SIM_PHASE_COUNT])
{
    memcpy(out, s->phase_s, sizeof s->phase_s);
}

void sim_reset_phase_times(dinghy_sim *s) { memset(s->phase_s, 0, sizeof s->phase_s); }
