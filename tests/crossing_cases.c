/* The crossing scenarios' scenes (crossing_cases.h). */
#include "tests/crossing_cases.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dinghy/hands.h"
#include "dinghy/overlap.h"
#include "dinghy/scene.h"

const crossing_case crossing_cases[] = {
    {"head-on", CROSSING_PAIR, "pair", 2, 1, 0.0, 20.0, 3.0},
    {"drag", CROSSING_DRAG, "pair", 2, 1, 0.0, 5.0, 2.5},
    {"throw", CROSSING_THROW, "pile", 64, 1, 0.0, 30.0, 6.0},
    {"pile", CROSSING_SCENE, "pile", 64, 1, 0.0, 0.0, 10.0},
    {"rapids-1", CROSSING_SCENE, "rapids", 64, 1, 0.0, 0.0, 20.0},
    {"rapids-2", CROSSING_SCENE, "rapids", 64, 2, 0.0, 0.0, 20.0},
    {"rapids-3", CROSSING_SCENE, "rapids", 64, 3, 0.0, 0.0, 20.0},
    {"rapids-4", CROSSING_SCENE, "rapids", 64, 4, 0.0, 0.0, 20.0},
    {"rapids-5", CROSSING_SCENE, "rapids", 64, 5, 0.0, 0.0, 20.0},
    {"burst-pile", CROSSING_SCENE, "pile", 64, 1, 0.3, 0.0, 20.0},
    {"burst-rapids", CROSSING_SCENE, "rapids", 64, 1, 0.3, 0.0, 20.0},
};
const int crossing_case_count = (int)(sizeof crossing_cases / sizeof crossing_cases[0]);

const crossing_case *crossing_find(const char *name)
{
    for (int i = 0; i < crossing_case_count; i++)
        if (strcmp(crossing_cases[i].name, name) == 0)
            return &crossing_cases[i];
    return NULL;
}

/* The scene layout and the room for rings of case c on definition d. */
static scene_def layout_of(const crossing_case *c, const sim_def *d, int *capacity)
{
    const double across = 2.0 * (d->ring.major_radius + d->ring.minor_radius);
    scene_def s = scene_def_default();
    s.index = scene_index(c->kind == CROSSING_PAIR || c->kind == CROSSING_DRAG ? "pair"
                                                                               : c->scene);
    s.count = c->count;
    s.seed = c->seed;
    *capacity = c->kind == CROSSING_THROW ? c->count + 1 : 0;
    if (c->kind == CROSSING_PAIR) { /* in the air, 0.2 m between the skins */
        s.spacing = across + 0.2;
        s.height = 0.3;
        s.speed = c->speed;
    } else if (c->kind == CROSSING_DRAG) { /* on the water, 0.3 m between the skins */
        s.spacing = across + 0.3;
        s.height = 0.0;
        s.speed = 0.0;
    }
    return s;
}

int crossing_start(crossing_run *run, const crossing_case *c, double seconds, int threads,
                   char *err, size_t len)
{
    memset(run, 0, sizeof *run);
    run->c = c;
    run->seconds = seconds > 0.0 ? seconds : c->seconds;
    run->event_at = c->kind == CROSSING_THROW  ? 0.5 * run->seconds
                  : c->kind == CROSSING_DRAG   ? fmin(0.5, 0.2 * run->seconds)
                                               : -1.0;
    sim_def d = sim_def_default();
    d.solver.threads = threads;
    d.ring.hole_diameter = c->hole;
    int capacity;
    const scene_def s = layout_of(c, &d, &capacity);
    if (s.index < 0) {
        snprintf(err, len, "%s: no scene called %s", c->name, c->scene);
        return -1;
    }
    run->sim = scene_create(&d, &s, capacity, err, len);
    return run->sim ? 0 : -1;
}

/* Throws one more ring into the pile: from above its top, tilted 0.5 rad
 * (rim first), at c->speed along (0.3, 0, -1) at the pile's middle. */
static void throw_ring(crossing_run *run)
{
    dinghy_sim *sim = run->sim;
    const sim_ring_def *r = &sim_get_def(sim)->ring;
    double top = -INFINITY;
    for (int i = 0; i < sim_ring_count(sim); i++)
        top = fmax(top, sim_rings(sim)[i].max_z);
    const double h = 1.0 + r->major_radius + r->minor_radius, dir[3] = {0.3, 0.0, -1.0};
    const double norm = sqrt(dir[0] * dir[0] + dir[2] * dir[2]), c = cos(0.5), s = sin(0.5);
    sim_ring_pose pose = {{-0.3 * h, 0.0, top + h}, {c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c},
                          {0.0, 0.0, 0.0}};
    for (int k = 0; k < 3; k++)
        pose.velocity[k] = run->c->speed * dir[k] / norm;
    for (int k = 0; k < 100 && !sim_pose_clear(sim, &pose, 0.05); k++)
        pose.centre[2] += 0.25;
    sim_add_ring(sim, &pose);
}

/* Grabs ring 0 at its vertex nearest ring 1 (the largest x); the hand
 * then moves along +x at c->speed. */
static void grab_ring(crossing_run *run)
{
    dinghy_sim *sim = run->sim;
    const sim_state_view st = sim_state(sim);
    const int MN = sim_segments(sim) * sim_sides(sim);
    int best = 0;
    for (int v = 1; v < MN; v++)
        if (st.x[v] > st.x[best])
            best = v;
    run->hand0[0] = st.x[best], run->hand0[1] = st.y[best], run->hand0[2] = st.z[best];
    run->hand_v[0] = run->c->speed, run->hand_v[1] = run->hand_v[2] = 0.0;
    run->held = sim_ring_id_at(sim, 0);
    sim_grab(sim, run->held, best, run->hand0);
}

long crossing_step(crossing_run *run)
{
    dinghy_sim *sim = run->sim;
    const double t = sim_time(sim);
    if (run->event_at >= 0.0 && !run->event_done && t >= run->event_at - 1e-9) {
        run->event_at = t;
        run->event_done = 1;
        if (run->c->kind == CROSSING_THROW)
            throw_ring(run);
        else
            grab_ring(run);
    }
    if (run->c->kind == CROSSING_DRAG && run->event_done && sim_ring_valid(sim, run->held)) {
        double hand[3];
        for (int k = 0; k < 3; k++)
            hand[k] = run->hand0[k] + run->hand_v[k] * (t - run->event_at);
        sim_grab_move(sim, hand, run->hand_v);
    }
    return sim_step(sim, 1);
}

long crossing_steps(const crossing_run *run, double seconds)
{
    const long n = lround(seconds / sim_get_def(run->sim)->solver.dt);
    return n > 0 ? n : 1;
}

void crossing_finish(crossing_run *run)
{
    sim_destroy(run->sim);
    run->sim = NULL;
}

void crossing_describe(const crossing_run *run, char *buf, size_t len)
{
    const crossing_case *c = run->c;
    char hole[64] = "";
    if (c->hole > 0.0)
        snprintf(hole, sizeof hole, ", burst (%.2f m holes)", c->hole);
    switch (c->kind) {
    case CROSSING_PAIR:
        snprintf(buf, len, "the pair in the air, ring 0 flat at ring 1 at %.0f m/s, %.1f s",
                 c->speed, run->seconds);
        break;
    case CROSSING_THROW:
        snprintf(buf, len, "%s of %d%s, a ring thrown in from above at %.0f m/s at %.1f s, "
                 "%.1f s", c->scene, c->count, hole, c->speed, run->event_at, run->seconds);
        break;
    case CROSSING_DRAG:
        snprintf(buf, len, "the pair on the water, ring 0 grabbed at %.1f s and dragged through "
                 "ring 1 at %.0f m/s, %.1f s", run->event_at, c->speed, run->seconds);
        break;
    default:
        snprintf(buf, len, "%s of %d, seed %u%s, %.1f s", c->scene, c->count, c->seed, hole,
                 run->seconds);
    }
}

skin_mesh crossing_mesh(const dinghy_sim *sim)
{
    const sim_state_view st = sim_state(sim);
    skin_mesh m = {st.x, st.y, st.z, sim_ring_count(sim), sim_segments(sim), sim_sides(sim)};
    return m;
}
