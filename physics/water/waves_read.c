/* The waves' height a row reads for its water plane (waves_row_height,
 * waves_couple.h): apart from the coupling's step, which samples the
 * rows' water (water_rows.c) that reads this. */
#include "physics/water/waves_couple.h"

#include <math.h>

#include "physics/water/waves.h"

double waves_row_height(const dinghy_sim *s, size_t r, double x, double y)
{
    const waves_coupling *c = s->waves;
    if (!waves_row_seen(s, c, r))
        return waves_height(c->layer, x, y);
    const double *at = c->where + 2 * r;
    if (!isnan(c->read[r]) && fabs(x - at[0]) <= WAVES_READ_MOVE && fabs(y - at[1]) <= WAVES_READ_MOVE)
        return c->read[r];
    const double off = WAVES_BESIDE * s->def.ring.minor_radius, *u = c->outward + 2 * r;
    const double spread = WAVES_SPREAD * s->def.ring.minor_radius;
    return 0.5 * (waves_mean_height(c->layer, x + off * u[0], y + off * u[1], spread)
                  + waves_mean_height(c->layer, x - off * u[0], y - off * u[1], spread));
}
