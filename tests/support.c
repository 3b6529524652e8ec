#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int test_quick(void) { return getenv("DINGHY_TEST_QUICK") != NULL; }

test_params test_defaults(void)
{
    test_params p = test_physical();
    p.def.world.water.model = SIM_WATER_SEED;
    p.def.ring.inflation = SIM_INFLATION_CONSTANT;
    p.def.ring.skin = SIM_SKIN_SPRINGS; /* the seed's skin */
    p.def.ring.stiffness = 400.0;
    p.def.world.water.drag = 8.0;
    p.def.ring.contact = SIM_CONTACT_CENTRELINE; /* the seed's repulsion */
    return p;
}

sim_def test_sim_def(void)
{
    sim_def d = sim_def_default();
    const char *dt = getenv("DINGHY_TEST_DT");
    d.solver.dt = dt ? atof(dt) : 0.001;
    /* the prescribed water: the suites' closed forms and pinned hashes are
     * of it; the waves' tests put the layer on (tests/test_wave_rings.c) */
    d.world.waves_enabled = 0;
    return d;
}

void test_default_step(test_params *p) { p->def.solver.dt = sim_def_default().solver.dt; }

long test_steps(const test_params *p, double seconds)
{
    const long n = lround(seconds / p->def.solver.dt);
    return n > 0 ? n : 1;
}

test_params test_physical(void)
{
    test_params p = {test_sim_def(), scene_def_default()};
    return p;
}

dinghy_sim *test_sim(const test_params *p)
{
    char err[256];
    dinghy_sim *s = scene_create(&p->def, &p->scene, 0, err, sizeof err);
    if (!s)
        fail_msg("scene_create: %s", err);
    return s;
}

dinghy_sim *test_sim_empty(const sim_def *d, int cap)
{
    char err[256];
    dinghy_sim *s = sim_create(d, cap, err, sizeof err);
    if (!s)
        fail_msg("sim_create: %s", err);
    return s;
}

test_params test_isolated(const char *scene)
{
    test_params p = test_defaults();
    p.scene.index = scene_index(scene);
    assert_true(p.scene.index >= 0);
    p.def.world.gravity = 0.0;
    p.def.world.water.buoyancy = 0.0;
    p.def.solver.damping = 0.0;
    p.def.ring.pressure = 0.0;
    return p;
}

double test_min_tube_gap(const dinghy_sim *sim)
{
    int P = sim_ring_count(sim), M = sim_segments(sim), N = sim_sides(sim);
    sim_state_view st = sim_state(sim);
    double *c = malloc(sizeof *c * 3 * (size_t)P * M);
    for (int r = 0; r < P * M; r++) {
        double s[3] = {0, 0, 0};
        for (int n = 0; n < N; n++) {
            size_t i = (size_t)r * N + n;
            s[0] += st.x[i]; s[1] += st.y[i]; s[2] += st.z[i];
        }
        for (int k = 0; k < 3; k++)
            c[3 * r + k] = s[k] / N;
    }
    double best = INFINITY;
    for (int p = 0; p < P; p++)
        for (int q = p + 1; q < P; q++)
            for (int a = 0; a < M; a++)
                for (int b = 0; b < M; b++) {
                    const double *u = &c[3 * (p * M + a)], *v = &c[3 * (q * M + b)];
                    double d = sqrt((u[0] - v[0]) * (u[0] - v[0]) + (u[1] - v[1]) * (u[1] - v[1])
                                    + (u[2] - v[2]) * (u[2] - v[2]));
                    if (d < best)
                        best = d;
                }
    free(c);
    return best - 2.0 * sim_get_def(sim)->ring.minor_radius;
}

double test_max_speed(const dinghy_sim *sim)
{
    sim_state_view st = sim_state(sim);
    double best = 0.0;
    for (size_t i = 0; i < sim_vertex_count(sim); i++) {
        double s = sqrt((double)st.vx[i] * st.vx[i] + (double)st.vy[i] * st.vy[i]
                        + (double)st.vz[i] * st.vz[i]);
        if (s > best)
            best = s;
    }
    return best;
}

void test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static uint64_t test_rng = 0x9e3779b97f4a7c15u;

void test_seed(uint64_t seed) { test_rng = seed ? seed : 0x9e3779b97f4a7c15u; }

double test_uniform(void)
{
    test_rng ^= test_rng << 13;
    test_rng ^= test_rng >> 7;
    test_rng ^= test_rng << 17;
    return (double)(test_rng >> 11) * (1.0 / 9007199254740992.0);
}
