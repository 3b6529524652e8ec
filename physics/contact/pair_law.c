/* The law for one pair, what is fixed for the substep: each pair's
 * geometry, split mass and target velocity (pair_law.h has the law and
 * the per-iteration force), and the law's constants and stiffness.
 *
 * Stiffness and the substep bound (physics.md section 2). Applied to v*,
 * the velocity part is a projection (it removes approach velocity and adds
 * none), stable at any dt; only the push-out behaves as a spring, of at
 * most k = beta m / dt^2 per vertex. contact_stiffness returns that (N/m):
 * added to sum k in dt < sqrt(2 m / sum k), it takes a share beta/2 of the
 * budget (contact_dt_factor = sqrt(1 - beta/2) = 0.97 on the springs-only
 * bound). Measured: a ring dropped 2 cm onto another rests 1.00 h above
 * it, centre still to 0.2 mm, rms speed 3 mm/s. */
#include "physics/contact/pair_law.h"

contact_params contact_params_default(double dt)
{
    contact_params k = {.h = 0.01f, .mu = 0.6f, .beta = 0.1f, .v_out = 0.1f,
                        .dt = (float)dt, .self_steps = 1, .ahead = (float)dt, .margin = 0.0f,
                        .edges = 1};
    return k;
}

double contact_stiffness(const contact_params *k, double m, double dt)
{
    return k->beta * m / (dt * dt);
}

double contact_dt_factor(const contact_params *k)
{
    return sqrt(1.0 - 0.5 * k->beta);
}

/* Pair `pair` fixed for the substep, after the shares: its geometry is
 * link's (pair_fixed), then the split effective mass and the target
 * normal velocity. */
void contact_pair_fix(contact_kernel *c, int pair)
{
    pair_fixed *f = &c->fixed[pair];
    const contact_state *s = c->s;
    const int MN = c->MN, i = f->i;
    double mp = s->mass[i / MN], mt = s->mass[f->v[0] / MN];
    /* Diagonally dominant (Gershgorin) split of the masses: one Jacobi
     * iteration never overshoots, whatever the pairs around. */
    double inv = c->share[i] / mp;
    for (int j = 0; j < 3; j++)
        inv += f->w[j] * c->share[f->v[j]] / mt;
    f->meff = 1.0 / inv, f->target = pair_target(c->k, f->d);
}
