/* The step: sim_step drives the tick, the push-out of overlaps, the hands'
 * advance and the river's run, then checks the rings' health; blow-up records and their message. */
#include "physics/world/sim_internal.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

#include "physics/water/endless_run.h"
#include "physics/water/waves_couple.h"
#include "physics/hands/hands_internal.h"
#include "physics/world/measure.h"
#include "physics/world/overlap.h"
#include "physics/world/tick.h"

static void record_blowup(dinghy_sim *s)
{
    for (size_t r = 0; r < s->nrows; r++) {
        if (!s->tick->row_bad[r])
            continue;
        size_t v0 = r * (size_t)s->N;
        sim_blowup_info *info = &s->blowup;
        info->happened = 1;
        info->step = s->step;
        info->time = s->time;
        info->ring = (int)(r / (size_t)s->M);
        info->ring_id = sim_ring_id_at(s, info->ring);
        info->non_finite = s->tick->row_bad[r] == 2;
        /* the substep that flagged the row may have left it in either
         * buffer, and the flag is on the speed before the skin contact's
         * correction: the first non-finite or runaway vertex, else the
         * fastest one the contact slowed again */
        double fastest = -1.0;
        for (int k = 0; k < 2 * s->N; k++) {
            const sim_buffer *b = &s->buf[k < s->N ? s->cur : 1 - s->cur];
            size_t i = v0 + (size_t)(k % s->N);
            double s2 = (double)b->vx[i] * b->vx[i] + (double)b->vy[i] * b->vy[i]
                      + (double)b->vz[i] * b->vz[i];
            int nonfin = !isfinite(s2) || !isfinite(b->x[i] + b->y[i] + b->z[i]);
            if (nonfin || s2 > SIM_RUNAWAY_SPEED * SIM_RUNAWAY_SPEED) {
                info->vertex = (int)(i - (size_t)info->ring * s->V);
                info->speed = nonfin ? NAN : sqrt(s2);
                return;
            }
            if (s2 > fastest) {
                fastest = s2;
                info->vertex = (int)(i - (size_t)info->ring * s->V);
                info->speed = sqrt(s2);
            }
        }
        return;
    }
}

/* The events name their rings by dense index; add the ids (the order
 * does not change within a call: the endless run re-places, never removes). */
static void name_event_rings(dinghy_sim *s)
{
    for (size_t k = 0; k < s->ev.count; k++) {
        sim_event *e = &s->ev.out[k];
        e->ring_id = sim_ring_id_at(s, e->ring);
        e->other_id = sim_ring_id_at(s, e->other);
    }
}

/* A membrane stiffens as it stretches (stretch_stiffening, below), so the
 * explicit step's bound (docs/physics.md section 2,
 * measured on the rest shape with the inflated tension) shrinks by the
 * square root of that. An inflated ring stretches its skin to about 1.09
 * (the rapids never beyond 1.093 in 20 s); a burst ring, limp and pulled by
 * its folds and the water, to 1.2-1.7, and the burst rapids blew up at the
 * bound's 18 substeps (a ring at 1.66 threw a vertex to 543 m/s in 4
 * substeps). So above STRETCH_FREE a step is cut into more substeps, as the
 * stiffness at the largest stretch of any ring needs against that at
 * STRETCH_FREE (the bound's own margin covers up to it: the default rapids
 * ran at 1.1 times the bound). The stretch is measured at each step's
 * start and held as it falls by STRETCH_FALL a step, since it may grow
 * within a step. */
#define STRETCH_FREE 1.15
#define STRETCH_FALL 0.01

/* A membrane's tangent stiffness stretched lambda both ways over its
 * rest one (St. Venant-Kirchhoff): lambda^2 of the material plus (1 + nu)
 * (lambda^2 - 1) / 2 of its own stress. */
static double stretch_stiffening(double lambda, double nu)
{
    const double l2 = lambda * lambda;
    return l2 + 0.5 * (1.0 + nu) * (l2 - 1.0);
}

/* The substeps of the step about to run: base_substeps, or with automatic
 * substeps and a membrane stretched beyond STRETCH_FREE, more (above), as
 * far as the substep's headroom under the bound does not cover it. */
static int step_substeps(dinghy_sim *s)
{
    if (s->def.solver.substeps > 0 || s->def.ring.skin != SIM_SKIN_MEMBRANE)
        return s->base_substeps;
    double worst = 0.0;
    for (int p = 0; p < s->P; p++)
        worst = fmax(worst, sim_ring_max_stretch(s, p)); /* a NaN is passed over */
    /* beyond the health check's bound a ring is torn: no more substeps for it */
    worst = fmin(worst, SIM_MAX_STRETCH);
    s->stretch_held = fmax(worst, s->stretch_held - STRETCH_FALL);
    if (!(s->stretch_held > STRETCH_FREE))
        return s->base_substeps;
    const double more = sqrt(stretch_stiffening(s->stretch_held, s->def.ring.poisson_ratio)
                             / stretch_stiffening(STRETCH_FREE, s->def.ring.poisson_ratio))
                      / s->substep_headroom;
    if (!(more > 1.0))
        return s->base_substeps;
    const double n = ceil(s->base_substeps * more * (1.0 - 1e-12));
    return n > SIM_SUBSTEPS_CAP ? SIM_SUBSTEPS_CAP : (int)n;
}

long sim_step(dinghy_sim *s, long steps)
{
    long done = 0;
    s->ev.count = 0; /* a new list of events each call */
    s->ev.dropped = 0;
    if (s->blowup.happened || s->P == 0 || steps <= 0)
        return 0;
    double dt = s->def.solver.dt / s->substeps;
    for (; done < steps; done++) {
        int rc = 0;
        const long step = s->step;
        s->substeps = step_substeps(s);
        dt = s->def.solver.dt / s->substeps;
        s->step_threads = team_for_step(&s->team, s->nthreads, step);
        const double t0 = omp_get_wtime();
        for (int k = 0; k < s->substeps && rc == 0; k++)
            rc = tick_step(s, dt, k);
        if (rc == 0)
            rc = overlap_push_out(s); /* vertices inside another ring's skin, out */
        hands_advance(s, s->def.solver.dt);
        if (rc == 0) /* the water answers: the rows' displaced volume into the waves, a step */
            waves_couple_step(s, s->def.solver.dt);
        /* per base substep: a step cut finer (step_substeps) is not a slower team */
        team_record(&s->team, s->nthreads, step, s->step_threads,
                    (omp_get_wtime() - t0) * s->base_substeps / s->substeps);
        if (rc == 0 && s->river) {
            water_hit_events(s);
            water_endless_run(s);
        }
        if (rc != 0) {
            if (rc > 0) {
                done++;
                record_blowup(s);
            } else {
                /* out of memory growing the neighbour list: report as a blow-up */
                s->blowup.happened = 1;
                s->blowup.step = s->step + 1;
                s->blowup.time = s->time;
                s->blowup.speed = NAN;
                s->blowup.non_finite = 1;
            }
            break;
        }
    }
    name_event_rings(s);
    if (done > 0) {
        sim_measure_rings(s);
        if (!s->blowup.happened)
            sim_check_rings(s);
        else if (s->blowup.fault == SIM_RING_WHOLE && dt <= sim_def_stable_dt(&s->def)) {
            /* a runaway within the bound: a ring torn or crushed within
             * the step (the check runs between steps) is what it came
             * from, and what the message should name */
            const sim_blowup_info runaway = s->blowup;
            s->blowup.happened = 0;
            if (sim_check_rings(s) == 0)
                s->blowup = runaway;
        }
    }
    return done;
}

const sim_event *sim_events(const dinghy_sim *s, size_t *count, long *dropped)
{
    *count = s->ev.count;
    if (dropped)
        *dropped = s->ev.dropped;
    return s->ev.out;
}

sim_blowup_info sim_blowup(const dinghy_sim *s) { return s->blowup; }

void sim_blowup_message(const dinghy_sim *s, char *buf, size_t len)
{
    const sim_blowup_info *b = &s->blowup;
    const sim_def *d = &s->def;
    double bound = sim_def_stable_dt(d), dt = d->solver.dt / s->substeps;
    char what[96];
    if (b->non_finite)
        snprintf(what, sizeof what, "a non-finite position or velocity");
    else
        snprintf(what, sizeof what, "a runaway speed of %.3g m/s (limit %.0f)", b->speed,
                 SIM_RUNAWAY_SPEED);
    char cause[512];
    static const char *const fault_what[] = {
        "", "is turned inside out or crushed: its volume is %.3g of its rest volume",
        "is blown up like a balloon: its volume is %.3g times its rest volume",
        "is torn: a skin edge is %.3g times its rest length",
        "has flown away: a vertex is %.3g m from the origin",
        "has a membrane triangle turned inside out (triangle %.0f)",
    };
    static const char *const fault_fix[] = {
        "",
        ("the springs are too soft for the load on them (heavy rings, a hard squeeze, a low "
         "gauge pressure or a constant inflation that cannot hold the shape); raise the spring "
         "stiffness or the gauge pressure, or use the gas inflation"),
        ("the inflation is too strong for the springs; lower the inflation (gauge pressure or "
         "constant force) or raise the spring stiffness"),
        "the springs are too soft for the inflation or the load; raise the spring stiffness",
        "a force too strong for the time step threw it; use automatic substeps",
        ("a force too strong for the skin or the time step pushed a vertex through its "
         "neighbours; use automatic substeps or a stiffer membrane"),
    };
    /* a membrane has no springs to stiffen: its material is what to change */
    static const char *const membrane_fix[] = {
        "",
        ("the skin is too soft for the load on it (heavy rings, a hard squeeze, a low gauge "
         "pressure); a stiffer or thicker skin or a higher gauge pressure"),
        ("the inflation is too strong for the skin; a lower gauge pressure or a stiffer or "
         "thicker skin"),
        ("a load too strong for the skin, or a deflated skin folded sharper than the mesh "
         "resolves (seen with a burst hole on a 64 x 32 mesh); a thicker or stiffer membrane, "
         "more substeps or a coarser mesh"),
        "a force too strong for the time step threw it; use automatic substeps",
        ("a force too strong for the skin or the time step pushed a vertex through its "
         "neighbours; use automatic substeps or a stiffer membrane"),
    };
    const int membrane = d->ring.skin == SIM_SKIN_MEMBRANE;
    if (b->fault != SIM_RING_WHOLE) {
        const char *fix = membrane ? membrane_fix[b->fault] : fault_fix[b->fault];
        char what2[160];
        snprintf(what2, sizeof what2, fault_what[b->fault], b->measure);
        snprintf(buf, len, "simulation blew up at step %ld (t = %.4f s): ring %d %s (the bound "
                 "is %g to %g of the rest volume, %g times a rest length); likely cause: %s",
                 b->step, b->time, b->ring, what2, SIM_MIN_VOLUME, SIM_MAX_VOLUME,
                 SIM_MAX_STRETCH, fix);
        return;
    }
    if (dt > bound) {
        char skin[128];
        if (membrane)
            snprintf(skin, sizeof skin, "the membrane of Young's modulus %g Pa and thickness "
                     "%g m", d->ring.youngs_modulus, d->ring.thickness);
        else
            snprintf(skin, sizeof skin, "band B = %d, spring stiffness k = %g N/m", d->ring.band,
                     d->ring.stiffness);
        snprintf(cause, sizeof cause,
                 "the time step %g s is above the stability bound %.3g s = sqrt(2 m / sum k) "
                 "for vertex mass m = %.3g kg, %s and the gas and water stiffness; use more "
                 "substeps (automatic: %d), a shorter time step or a softer %s", dt, bound,
                 sim_ring_vertex_mass(&d->ring), skin, (int)ceil(d->solver.dt / (0.9 * bound)),
                 membrane ? "skin" : "spring");
    } else {
        /* the forces of the models in use that a user may have set too strong */
        char strong[200] = "";
        size_t n = 0;
        if (d->ring.contact == SIM_CONTACT_CENTRELINE)
            n += (size_t)snprintf(strong + n, sizeof strong - n, ", a repulsion strength (%g N)",
                                  d->ring.repulsion);
        if (d->ring.inflation == SIM_INFLATION_CONSTANT && n < sizeof strong)
            n += (size_t)snprintf(strong + n, sizeof strong - n, ", an inflation force (%g N)",
                                  d->ring.pressure);
        if (d->world.water.model == SIM_WATER_SEED && n < sizeof strong)
            snprintf(strong + n, sizeof strong - n, ", a seed buoyancy (%g 1/s^2)",
                     d->world.water.buoyancy);
        snprintf(cause, sizeof cause,
                 "the time step %g s is within the stability bound %.3g s, so suspect a start that "
                 "is far from rest (rings overlapping, or deep under water)%s%s", dt, bound,
                 strong[0] ? " or a force too strong for this time step: " : "",
                 strong[0] ? strong + 2 : "");
    }
    snprintf(buf, len, "simulation blew up at step %ld (t = %.4f s): ring %d vertex %d has %s; "
             "likely cause: %s", b->step, b->time, b->ring, b->vertex, what, cause);
}

