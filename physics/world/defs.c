/* Definition defaults, the checks the core makes of a definition, and the
 * table of fields that may change on a running simulation. */
#include "dinghy/defs.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "physics/skin/membrane.h"
#include "physics/world/shape.h"
#include "physics/contact/contact.h"
#include "dinghy/sim.h"

sim_solver_def sim_solver_def_default(void)
{
    /* one step a frame of a 60 Hz display, cut into substeps at the stability
     * bound (sim_def_substeps) */
    sim_solver_def s = {.dt = 1.0 / 60.0, .substeps = 0, .threads = 0, .damping = 0.5};
    return s;
}

sim_world_def sim_world_def_default(void)
{
    sim_world_def w = {
        .gravity = 9.81,
        .air_pressure = 101325.0,
        .air_density = 1.2,
        .water = {
            .model = SIM_WATER_EXACT, .level = 0.0, .density = 1000.0, .buoyancy = 100.0,
            .drag = 1.0, .drag_coefficient = 0.5, .lift_coefficient = 0.2,
        },
        .river = river_def_default(),
        /* off: the prescribed water, as before the layer (its hashes
         * kept); a light ring's 4 Hz bob makes waves shorter than the
         * layer's cells, which it cannot carry away, so with the layer on
         * the default ring settles slower, not faster (docs/physics.md
         * section 14); the demo puts it on with waves.enabled */
        .waves_enabled = 0,
        .waves = waves_def_default(),
    };
    return w;
}

sim_ring_def sim_ring_def_default(void)
{
    sim_ring_def r = {
        .segments = 32, .sides = 16, .band = 5,
        .major_radius = 0.8, .minor_radius = 0.25, .mass = 15.0,
        .stiffness = 1500.0, .inflation = SIM_INFLATION_GAS, .gauge_pressure = 2000.0,
        .pressure = 1.0,
        .repulsion = 0.02, .repulsion_exponent = 2.0, .contact_range = 0.25,
        /* skin contact */
        .contact = SIM_CONTACT_SKIN, .contact_thickness = 0.01, .friction = 0.6,
        /* off: the edge pairs cost the rapids 12-14% more step time, and
         * the vertex pairs alone keep every vertex out (docs/physics.md
         * section 9) */
        .edge_contact = 0,
        /* membrane skin: the classic river tube, a tractor tyre's rubber
         * inner tube (sources in dinghy.ini, docs/guide/models.md and docs/physics.md
         * section 8) */
        .skin = SIM_SKIN_MEMBRANE, .youngs_modulus = 4e6, .thickness = 1.6e-3,
        .poisson_ratio = 0.49, .hole_diameter = 0.0,
    };
    return r;
}

sim_def sim_def_default(void)
{
    sim_def d = {sim_solver_def_default(), sim_world_def_default(), sim_ring_def_default()};
    return d;
}

double sim_ring_vertex_mass(const sim_ring_def *r)
{
    return r->mass / ((double)r->segments * (double)r->sides);
}


/* The rest mesh, two outward triangles per quad, summed in double. */
static void rest_mesh(const sim_ring_def *r, double *area, double *volume)
{
    const int M = r->segments, N = r->sides;
    double A = 0.0, V = 0.0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double q[4][3];
            torus_point(r->major_radius, r->minor_radius, M, N, m, n, q[0]);
            torus_point(r->major_radius, r->minor_radius, M, N, (m + 1) % M, n, q[1]);
            torus_point(r->major_radius, r->minor_radius, M, N, (m + 1) % M, (n + 1) % N, q[2]);
            torus_point(r->major_radius, r->minor_radius, M, N, m, (n + 1) % N, q[3]);
            for (int t = 0; t < 2; t++) {
                const double *a = q[0], *b = q[1 + t], *c = q[2 + t];
                double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
                double cx = e1[1] * e2[2] - e1[2] * e2[1], cy = e1[2] * e2[0] - e1[0] * e2[2];
                double cz = e1[0] * e2[1] - e1[1] * e2[0];
                A += 0.5 * sqrt(cx * cx + cy * cy + cz * cz);
                V += (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2])
                      + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
            }
        }
    *area = A;
    *volume = V;
}

double sim_ring_rest_area(const sim_ring_def *r)
{
    double a, v;
    rest_mesh(r, &a, &v);
    return a;
}

double sim_ring_rest_volume(const sim_ring_def *r)
{
    double a, v;
    rest_mesh(r, &a, &v);
    return v;
}

/* The largest membrane tension of the inflated torus, N/m: the hoop
 * tension on the inner equator, p r (2R - r) / (2 (R - r)) (docs/physics.md
 * section 8). */
static double inflated_tension(const sim_ring_def *r)
{
    if (r->inflation != SIM_INFLATION_GAS || r->minor_radius >= r->major_radius)
        return 0.0;
    double R = r->major_radius, a = r->minor_radius;
    return r->gauge_pressure * a * (2.0 * R - a) / (2.0 * (R - a));
}

/* The stiffness the skin puts on one vertex, N/m: B*B*k for the springs;
 * for the membrane its per-vertex bound (membrane.h) at the inflated
 * tension, or a closed-form upper estimate when out of memory. */
static double skin_stiffness(const sim_ring_def *r)
{
    if (r->skin != SIM_SKIN_MEMBRANE)
        return (double)r->band * (double)r->band * r->stiffness;
    membrane_material mat = {r->youngs_modulus, r->thickness, r->poisson_ratio};
    double k = membrane_torus_max_stiffness(r->segments, r->sides, r->major_radius,
                                            r->minor_radius, &mat, inflated_tension(r));
    if (!(k >= 0.0)) /* out of memory: 10 E t / (1 - nu^2) bounds the default cells' 7.1 */
        k = 10.0 * r->youngs_modulus * r->thickness
          / (1.0 - r->poisson_ratio * r->poisson_ratio);
    return k;
}

double sim_ring_inflated_swell(const sim_ring_def *r)
{
    if (r->skin != SIM_SKIN_MEMBRANE || r->inflation != SIM_INFLATION_GAS
        || !(r->minor_radius < r->major_radius) || !(r->youngs_modulus * r->thickness > 0.0))
        return 0.0;
    const double R = r->major_radius, a = r->minor_radius, p = r->gauge_pressure;
    const double nu = r->poisson_ratio, Et = r->youngs_modulus * r->thickness;
    /* tensions averaged over the tube angle: N_theta = p a / 2 everywhere,
     * N_phi = p a (rho + R) / (2 rho), whose mean is p a (1 + R / sqrt(R^2 - a^2)) / 2 */
    const double n_theta = 0.5 * p * a;
    const double n_phi = 0.5 * p * a * (1.0 + R / sqrt(R * R - a * a));
    const double eps_phi = (n_phi - nu * n_theta) / Et, eps_theta = (n_theta - nu * n_phi) / Et;
    return 2.0 * eps_phi + eps_theta;
}

double sim_ring_gauge_strain(const sim_ring_def *r)
{
    if (r->skin != SIM_SKIN_MEMBRANE || r->inflation != SIM_INFLATION_GAS
        || !(r->minor_radius < r->major_radius) || !(r->youngs_modulus * r->thickness > 0.0))
        return 0.0;
    const double n_phi = inflated_tension(r), n_theta = 0.5 * r->gauge_pressure * r->minor_radius;
    return (n_phi - r->poisson_ratio * n_theta) / (r->youngs_modulus * r->thickness);
}

double sim_ring_weight_strain(const sim_ring_def *r, double g)
{
    if (r->skin != SIM_SKIN_MEMBRANE || !(r->minor_radius < r->major_radius)
        || !(r->youngs_modulus * r->thickness > 0.0))
        return 0.0;
    const double load = r->mass * fabs(g) / sim_ring_rest_area(r); /* Pa */
    return load * r->minor_radius / (r->youngs_modulus * r->thickness);
}

double sim_def_spring_dt(const sim_def *d)
{
    double k_sum = skin_stiffness(&d->ring);
    if (!(k_sum > 0.0))
        return INFINITY;
    return sqrt(2.0 * sim_ring_vertex_mass(&d->ring) / k_sum);
}

double sim_def_stable_dt(const sim_def *d)
{
    const sim_ring_def *r = &d->ring;
    const sim_water_def *w = &d->world.water;
    double m = sim_ring_vertex_mass(r);
    double k_sum = skin_stiffness(r);
    double verts = (double)r->segments * r->sides;
    if (r->inflation == SIM_INFLATION_GAS || w->model == SIM_WATER_EXACT) {
        double area, volume;
        rest_mesh(r, &area, &volume);
        double share = area / verts; /* a vertex's share of the surface */
        if (r->inflation == SIM_INFLATION_GAS && volume > 0.0)
            k_sum += (d->world.air_pressure + r->gauge_pressure) * share * share / volume;
        if (w->model == SIM_WATER_EXACT)
            k_sum += w->density * d->world.gravity * share;
    }
    if (w->model == SIM_WATER_SEED)
        k_sum += m * w->buoyancy;
    if (!(k_sum > 0.0))
        return INFINITY;
    double bound = sqrt(2.0 * m / k_sum);
    if (r->contact == SIM_CONTACT_SKIN) { /* room for the push-out's beta m / dt^2 */
        contact_params k = contact_params_default(bound);
        bound *= contact_dt_factor(&k);
    }
    return bound;
}

int sim_def_substeps(const sim_def *d)
{
    if (d->solver.substeps > 0)
        return d->solver.substeps;
    /* at the bound (itself a margin: half the sum of each element's
     * largest eigenvalue bounds the whole mesh's from above; the default
     * rapids ran 10 s at 1.1 times it and blew up at 1.27), and no longer
     * than SIM_MAX_SUBSTEP: the water's held loads, the drag's clamp and
     * the contact's band were checked at substeps up to 1 ms, and soft
     * heavy rings at 17 ms tore apart */
    const double sub = fmin(sim_def_stable_dt(d), SIM_MAX_SUBSTEP);
    double n = ceil(d->solver.dt / sub * (1.0 - 1e-12));
    return n < 1.0 ? 1 : n > SIM_SUBSTEPS_CAP ? SIM_SUBSTEPS_CAP : (int)n;
}

/* ---- checks ---- */

/* The rest mesh's shortest grid step, m: round the inside of the ring
 * (a chord of radius R - r over M) or round the tube (radius r over N). */
static double skin_grid_step(const sim_ring_def *r)
{
    const double pi = 3.141592653589793;
    double a = 2.0 * (r->major_radius - r->minor_radius) * sin(pi / (r->segments > 0 ? r->segments : 1));
    double b = 2.0 * r->minor_radius * sin(pi / (r->sides > 0 ? r->sides : 1));
    return a < b ? a : b;
}

static void problem(dinghy_problems *ps, sim_def_part part, size_t offset, const char *quantity,
                    double value, double min, double max, const char *fmt, ...)
{
    dinghy_problem *p = dinghy_problem_add(ps, part, offset, quantity, value, min, max);
    if (!p)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->reason, sizeof p->reason, fmt, ap);
    va_end(ap);
}

/* A field that must lie in [min, max] (NaN fails too). */
static void range(dinghy_problems *ps, sim_def_part part, size_t offset, const char *quantity,
                  double value, double min, double max, const char *why)
{
    if (!(value >= min && value <= max))
        problem(ps, part, offset, quantity, value, min, max, "%s", why);
}

#define RING(f) SIM_PART_RING, offsetof(sim_ring_def, f)

/* Names the other fields a cross-field problem involves (the last one added). */
static void relate(dinghy_problems *ps, size_t a, size_t b)
{
    if (ps->count > ps->max || ps->count == 0)
        return;
    dinghy_problem *p = &ps->out[ps->count - 1];
    p->related = 2;
    p->related_offset[0] = a;
    p->related_offset[1] = b;
}

/* A part of the world's own check's problems (n in all, the first `room`
 * of them in in[]) moved into the world part: the offset of the part
 * within sim_world_def (base) added to each field's. */
static void world_problems(dinghy_problems *ps, const dinghy_problem *in, int n, int room,
                           size_t base)
{
    for (int i = 0; i < n; i++) {
        if (i >= room) { /* counted, not described */
            ps->count++;
            continue;
        }
        dinghy_problem *p = dinghy_problem_add(ps, SIM_PART_WORLD, base + in[i].offset,
                                               in[i].quantity, in[i].value, in[i].min, in[i].max);
        if (!p)
            continue;
        memcpy(p->reason, in[i].reason, sizeof p->reason);
        p->related = in[i].related;
        for (int j = 0; j < in[i].related; j++)
            p->related_offset[j] = base + in[i].related_offset[j];
    }
}

/* The river's and the wave layer's own checks, in the world part. */
static void river_problems(dinghy_problems *ps, const river_def *r)
{
    enum { MAX_RIVER = 16 };
    dinghy_problem rp[MAX_RIVER];
    world_problems(ps, rp, river_def_check(r, rp, MAX_RIVER), MAX_RIVER,
                   offsetof(sim_world_def, river));
}
static void waves_problems(dinghy_problems *ps, const waves_def *w)
{
    enum { MAX_WAVES = 8 };
    dinghy_problem wp[MAX_WAVES];
    world_problems(ps, wp, waves_def_check(w, wp, MAX_WAVES), MAX_WAVES,
                   offsetof(sim_world_def, waves));
}
#define SOLVER(f) SIM_PART_SOLVER, offsetof(sim_solver_def, f)
#define WORLD(f) SIM_PART_WORLD, offsetof(sim_world_def, f)

int sim_def_check(const sim_def *d, int rings, dinghy_problem *out, int max)
{
    dinghy_problems ps = {out, out ? max : 0, 0};
    const sim_ring_def *r = &d->ring;
    range(&ps, SOLVER(dt), "time step", d->solver.dt, 1e-9, 1.0, "the time step must be positive");
    range(&ps, SOLVER(substeps), "substeps", d->solver.substeps, 0,
          SIM_SUBSTEPS_CAP, "substeps are 0 (automatic) or a count up to the cap");
    range(&ps, SOLVER(threads), "thread count", d->solver.threads, 0, 1024,
          "the thread count is 0 (all cores) or a positive count");
    range(&ps, SOLVER(damping), "damping rate", d->solver.damping, 0, INFINITY,
          "a damping rate cannot be negative");
    range(&ps, WORLD(gravity), "gravity", d->world.gravity, 0, INFINITY,
          "gravity points down: its size cannot be negative");
    range(&ps, WORLD(water.density), "water density", d->world.water.density, 1e-6, INFINITY,
          "a density must be positive");
    range(&ps, WORLD(air_pressure), "air pressure", d->world.air_pressure, 1.0, INFINITY,
          "the ambient pressure must be positive");
    range(&ps, WORLD(air_density), "air density", d->world.air_density, 0, INFINITY,
          "a density cannot be negative");
    range(&ps, WORLD(water.drag_coefficient), "drag coefficient",
          d->world.water.drag_coefficient, 0, INFINITY, "a drag coefficient cannot be negative");
    range(&ps, WORLD(water.lift_coefficient), "lift coefficient",
          d->world.water.lift_coefficient, 0, INFINITY, "a lift coefficient cannot be negative");
    river_problems(&ps, &d->world.river);
    waves_problems(&ps, &d->world.waves);
    if (d->world.waves_enabled != 0 && d->world.waves_enabled != 1)
        problem(&ps, WORLD(waves_enabled), "waves", d->world.waves_enabled, 0, 1,
                "the wave layer is 1 (on) or 0 (off)");
    if (d->world.water.model != SIM_WATER_EXACT && d->world.water.model != SIM_WATER_SEED)
        problem(&ps, WORLD(water.model), "water model", d->world.water.model, 0, 1,
                "unknown water model");
    if (r->inflation != SIM_INFLATION_GAS && r->inflation != SIM_INFLATION_CONSTANT)
        problem(&ps, RING(inflation), "inflation model", r->inflation, 0, 1,
                "unknown inflation model");
    range(&ps, RING(gauge_pressure), "gauge pressure", r->gauge_pressure, 0, INFINITY,
          "an inflated ring's gauge pressure cannot be negative");
    range(&ps, WORLD(water.buoyancy), "seed buoyancy", d->world.water.buoyancy, 0, INFINITY,
          "buoyancy cannot pull down");
    range(&ps, WORLD(water.drag), "water drag rate", d->world.water.drag, 0, INFINITY,
          "a damping rate cannot be negative");
    range(&ps, RING(segments), "segments round the ring M", r->segments, 3, 4096,
          "a ring needs at least 3 segments");
    range(&ps, RING(sides), "vertices round the tube N", r->sides, 2, 4096,
          "a tube needs at least 2 vertices round it");
    if (r->sides % 2 != 0)
        problem(&ps, RING(sides), "vertices round the tube N", r->sides, NAN, NAN,
                "must be even: the across-tube spring joins n and n + N/2");
    if (r->band % 2 == 0 || r->band < 1)
        problem(&ps, RING(band), "spring band B", r->band, 1, 31,
                "must be odd: the spring neighbourhood is centred on the vertex");
    else if (r->band > r->segments || r->band > r->sides)
        problem(&ps, RING(band), "spring band B", r->band, 1,
                r->segments < r->sides ? r->segments : r->sides,
                "must be at most the segments round the ring (%d) and the vertices round "
                "the tube (%d)", r->segments, r->sides);
    if (r->band > r->segments || r->band > r->sides)
        relate(&ps, offsetof(sim_ring_def, segments), offsetof(sim_ring_def, sides));
    range(&ps, RING(major_radius), "major radius R", r->major_radius, 1e-6, INFINITY,
          "the ring radius must be positive");
    range(&ps, RING(minor_radius), "tube radius r", r->minor_radius, 1e-6, INFINITY,
          "the tube radius must be positive");
    if (r->minor_radius >= r->major_radius)
        problem(&ps, RING(minor_radius), "tube radius r", r->minor_radius, 0, r->major_radius,
                "must be less than the ring radius %g m, or the ring has no hole",
                r->major_radius);
    if (r->minor_radius >= r->major_radius)
        relate(&ps, offsetof(sim_ring_def, major_radius), offsetof(sim_ring_def, major_radius));
    range(&ps, RING(mass), "ring mass", r->mass, 1e-12, INFINITY, "a ring's mass must be positive");
    range(&ps, RING(stiffness), "spring stiffness k", r->stiffness, 0, INFINITY,
          "a spring constant cannot be negative");
    range(&ps, RING(pressure), "inflation force", r->pressure, 0, INFINITY,
          "the inflation force pushes outward: it cannot be negative");
    range(&ps, RING(repulsion), "repulsion strength", r->repulsion, 0, INFINITY,
          "repulsion cannot attract");
    range(&ps, RING(repulsion_exponent), "repulsion exponent", r->repulsion_exponent, 0, 16,
          "the repulsion law's power is between 0 and 16");
    range(&ps, RING(contact_range), "contact range", r->contact_range, 1e-9, INFINITY,
          "the contact range must be positive");
    /* membrane skin */
    if (r->skin != SIM_SKIN_MEMBRANE && r->skin != SIM_SKIN_SPRINGS)
        problem(&ps, RING(skin), "skin model", r->skin, 0, 1, "unknown skin model");
    if (r->skin == SIM_SKIN_MEMBRANE) {
        /* soft rubber (0.1 MPa) to past rigid vinyl (2.4-4 GPa); every
         * value runs (a stiffer skin takes more substeps) */
        range(&ps, RING(youngs_modulus), "Young's modulus E", r->youngs_modulus, 1e5, 1e10,
              "a membrane's Young's modulus is from 1e5 Pa (soft rubber) to 1e10 Pa (past rigid "
              "vinyl's 2.4-4 GPa)");
        range(&ps, RING(thickness), "skin thickness t", r->thickness, 1e-6, 0.1,
              "the skin's thickness is positive and thin (PVC film: a fraction of a mm)");
        range(&ps, RING(poisson_ratio), "Poisson's ratio nu", r->poisson_ratio, 0.0, 0.499,
              "Poisson's ratio of an isotropic material is between 0 and 0.5 (0.5 is "
              "incompressible and has no plane-stress law)");
        if (r->sides < 3 || r->segments < 3)
            problem(&ps, RING(sides), "vertices round the tube N", r->sides, 3, 4096,
                    "a membrane tube needs at least 3 vertices round it");
        /* a skin too soft for its gauge (of a valid material and torus:
         * the strain means nothing else) */
        double strain = sim_ring_gauge_strain(r);
        if (ps.count == 0 && strain > SIM_MEMBRANE_MAX_GAUGE_STRAIN) {
            problem(&ps, RING(youngs_modulus), "gauge strain", strain, 0,
                    SIM_MEMBRANE_MAX_GAUGE_STRAIN, "the skin is too soft for its gauge: it "
                    "would stretch by %.2g round the tube (linear closed form), past %g (inflated, "
                    "1.7 times its rest size); use a lower gauge or a stiffer or thicker skin",
                    strain, SIM_MEMBRANE_MAX_GAUGE_STRAIN);
            relate(&ps, offsetof(sim_ring_def, gauge_pressure), offsetof(sim_ring_def, thickness));
        }
        /* a skin too weak to hang its ring's weight */
        double hung = sim_ring_weight_strain(r, d->world.gravity);
        if (ps.count == 0 && hung > SIM_MEMBRANE_MAX_WEIGHT_STRAIN) {
            problem(&ps, RING(thickness), "weight strain", hung, 0, SIM_MEMBRANE_MAX_WEIGHT_STRAIN,
                    "the skin is too thin or soft for the ring's weight: hung across the tube "
                    "it would stretch by %.2g, past %g; use a thicker or stiffer skin or a "
                    "lighter ring", hung, SIM_MEMBRANE_MAX_WEIGHT_STRAIN);
            relate(&ps, offsetof(sim_ring_def, mass), offsetof(sim_ring_def, youngs_modulus));
        }
    }
    range(&ps, RING(hole_diameter), "hole diameter", r->hole_diameter, 0.0,
          2.0 * r->minor_radius, "a hole is 0 (none) up to the tube's diameter");
    /* the ring count (the scene's) with the mesh: the count is named, the
     * mesh related */
    double verts = (double)rings * r->segments * r->sides;
    int counted = ps.count;
    if (rings < 1)
        problem(&ps, SIM_PART_RING_COUNT, 0, "ring count", rings, 1, NAN,
                "a simulation needs a ring");
    else if (verts > 2e9)
        problem(&ps, SIM_PART_RING_COUNT, 0, "vertex count", verts, 1, 2e9,
                "%.3g vertices is more than this program supports (2e9)", verts);
    else if (ps.count == 0) {
        double need = (double)sim_memory_estimate(d, rings);
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        double have = (pages > 0 && page > 0) ? (double)pages * (double)page : 0.0;
        if (have > 0.0 && need > 0.8 * have)
            problem(&ps, SIM_PART_RING_COUNT, 0, "memory", need, 0, 0.8 * have,
                    "%d rings of %d x %d vertices need %.1f GiB, more than 80%% of this "
                    "machine's %.1f GiB; use fewer rings or a coarser mesh", rings,
                    r->segments, r->sides, need / 1073741824.0, have / 1073741824.0);
    }
    if (ps.count > counted)
        relate(&ps, offsetof(sim_ring_def, segments), offsetof(sim_ring_def, sides));
    /* skin contact (after the sizes: a mesh too fine for the thickness
     * is told after a mesh too big for the machine) */
    if (r->contact != SIM_CONTACT_SKIN && r->contact != SIM_CONTACT_CENTRELINE)
        problem(&ps, RING(contact), "contact model", r->contact, 0, 1, "unknown contact model");
    double step = skin_grid_step(r);
    /* only of an otherwise valid mesh: its grid step means nothing else */
    if (r->contact == SIM_CONTACT_SKIN && ps.count == 0) {
        range(&ps, RING(contact_thickness), "contact thickness", r->contact_thickness, 1e-5,
              0.5 * step, "the skins' contact thickness is positive and below half the mesh's "
              "shortest grid step (else a ring's own neighbouring faces touch at rest)");
        if (!(r->contact_thickness <= 0.5 * step) && r->contact_thickness >= 1e-5)
            relate(&ps, offsetof(sim_ring_def, segments), offsetof(sim_ring_def, sides));
    }
    range(&ps, RING(friction), "friction coefficient", r->friction, 0, 10,
          "a Coulomb friction coefficient is between 0 and 10");
    if (r->edge_contact != 0 && r->edge_contact != 1)
        problem(&ps, RING(edge_contact), "edge contact", r->edge_contact, 0, 1,
                "edge contact is 1 (on) or 0 (off)");
    return ps.count;
}

/* ---- the fields that may change while a simulation runs ---- */

typedef struct {
    sim_def_part part;
    size_t offset;
    size_t size;          /* bytes of the field */
} live_field;

#define D sizeof(double)

static const live_field live_fields[] = {
    {SOLVER(dt), D}, {SOLVER(substeps), sizeof(int)}, {SOLVER(threads), sizeof(int)},
    {SOLVER(damping), D},
    {WORLD(gravity), D}, {WORLD(air_pressure), D}, {WORLD(air_density), D},
    {WORLD(water.model), sizeof(sim_water_model)}, {WORLD(water.level), D},
    {WORLD(water.buoyancy), D}, {WORLD(water.density), D}, {WORLD(water.drag), D},
    {WORLD(water.drag_coefficient), D}, {WORLD(water.lift_coefficient), D},
    {RING(stiffness), D}, {RING(inflation), sizeof(sim_inflation_model)},
    {RING(gauge_pressure), D}, {RING(pressure), D}, {RING(repulsion), D},
    {RING(repulsion_exponent), D}, {RING(contact_range), D},
    /* skin contact (the model needs a new simulation: it sizes the contact's lists) */
    {RING(contact_thickness), D}, {RING(friction), D}, {RING(edge_contact), sizeof(int)},
    {RING(youngs_modulus), D}, {RING(thickness), D}, {RING(poisson_ratio), D},
    {WORLD(river.speed), D}, {WORLD(river.waves), D},
    {WORLD(waves_enabled), sizeof(int)}, {WORLD(waves.damping), D},
};
#define LIVE_COUNT (sizeof live_fields / sizeof live_fields[0])

int sim_field_is_live(sim_def_part part, size_t offset)
{
    for (size_t i = 0; i < LIVE_COUNT; i++)
        if (live_fields[i].part == part && live_fields[i].offset == offset)
            return 1;
    return 0;
}

static char *part_of(sim_def *d, sim_def_part part)
{
    return part == SIM_PART_SOLVER ? (char *)&d->solver
         : part == SIM_PART_WORLD ? (char *)&d->world : (char *)&d->ring;
}

void sim_def_copy_live(sim_def *to, const sim_def *from)
{
    sim_def src = *from;
    for (size_t i = 0; i < LIVE_COUNT; i++) {
        const live_field *f = &live_fields[i];
        memcpy(part_of(to, f->part) + f->offset, part_of(&src, f->part) + f->offset, f->size);
    }
}
