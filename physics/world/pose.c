/* Writing a ring into the state whole and at rest (a membrane with gas at
 * its inflated shape, sim_inflate): the one way a ring
 * gets its place, for a new ring, a re-drop by the caller and the river's
 * endless run alike. */
#include "physics/world/pose.h"

#include "dinghy/river.h"

#include <string.h>

#include "physics/skin/gas.h"
#include "physics/water/water_rows.h"

void ring_write_pose(dinghy_sim *s, int p, const sim_ring_pose *d)
{
    sim_buffer *b = &s->buf[s->cur];
    for (int m = 0; m < s->M; m++)
        for (int n = 0; n < s->N; n++) {
            double c[3];
            profile_point(s->profile, s->profile + s->N, s->M, m, n, c);
            size_t i = (size_t)p * s->V + (size_t)m * s->N + n;
            b->x[i] = (float)(d->centre[0] + d->rot[0] * c[0] + d->rot[1] * c[1] + d->rot[2] * c[2]);
            b->y[i] = (float)(d->centre[1] + d->rot[3] * c[0] + d->rot[4] * c[1] + d->rot[5] * c[2]);
            b->z[i] = (float)(d->centre[2] + d->rot[6] * c[0] + d->rot[7] * c[1] + d->rot[8] * c[2]);
            b->vx[i] = (float)d->velocity[0];
            b->vy[i] = (float)d->velocity[1];
            b->vz[i] = (float)d->velocity[2];
        }
    memset(s->tick->row_bad + (size_t)p * s->M, 0, (size_t)s->M);
    /* whole: as full of gas as its undeformed skin, with the definition's
     * hole only (dinghy.hole_diameter), not turned inside out. A burst
     * ring's little gas in a skin put back undeformed pulled the skin flat
     * within one step, harder than its creases could take (issue 31) */
    s->gas_frac[p] = 1.0;
    s->hole_area[p] = 0.25 * 3.14159265358979323846 * s->def.ring.hole_diameter
                    * s->def.ring.hole_diameter;
    s->inverted_since[p] = -1.0;
    gas_ring_volumes(s, p);
    /* its rows' centres, the ring's centre, and the water they sit in */
    double c[3] = {0.0, 0.0, 0.0};
    for (int m = 0; m < s->M; m++) {
        size_t row = (size_t)p * s->M + m, v0 = row * (size_t)s->N;
        double r[3] = {0.0, 0.0, 0.0};
        for (int n = 0; n < s->N; n++) {
            r[0] += b->x[v0 + n];
            r[1] += b->y[v0 + n];
            r[2] += b->z[v0 + n];
        }
        s->tick->cx[row] = (float)(r[0] / s->N);
        s->tick->cy[row] = (float)(r[1] / s->N);
        s->tick->cz[row] = (float)(r[2] / s->N);
        s->tick->row_hit[row] = 0.0f;
        water_sample_row(s, row);
        for (int k = 0; k < 3; k++)
            c[k] += r[k] / s->V;
    }
    for (int k = 0; k < 3; k++) {
        s->c0[3 * p + k] = c[k];
        s->v0[3 * p + k] = d->velocity[k];
    }
    double n;
    s->ring_s[p] = 0.0;
    if (s->river)
        river_station(s->river, c[0], c[1], &s->ring_s[p], &n);
}
