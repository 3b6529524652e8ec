/* The demo's hands on the rings. */
#include "app/pointer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846
#define PICK_RANGE 5000.0 /* m: farther than any camera sees */

void pointer_init(pointer_state *pl)
{
    memset(pl, 0, sizeof *pl); /* holds and punctured nothing: SIM_RING_NONE */
}

static int cursor_ray(const orbit_camera *camera, int w, int h, const float cursor[2],
                      double origin[3], double dir[3])
{
    float o[3], d[3];
    if (camera_ray(camera, w, h, cursor[0], cursor[1], o, d) != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        origin[k] = o[k];
        dir[k] = d[k];
    }
    return 0;
}

/* The ring under the cursor: 1 with the hit, else 0. */
static int pick(const dinghy_sim *sim, const orbit_camera *camera, int w, int h,
                const float cursor[2], sim_ray_hit *hit)
{
    double o[3], d[3];
    return cursor_ray(camera, w, h, cursor, o, d) == 0 && sim_ray_cast(sim, o, d, PICK_RANGE, hit);
}

/* Height of the ray's point at t above the water there, m. */
static double above_water(const dinghy_sim *sim, const double o[3], const double d[3], double t)
{
    dinghy_water_point wp;
    double x = o[0] + t * d[0], y = o[1] + t * d[1], z = o[2] + t * d[2];
    sim_water_at(sim, x, y, z, &wp);
    return z - wp.height;
}

int pointer_water_under(const dinghy_sim *sim, const orbit_camera *camera, int w, int h,
                     const float cursor[2], double point[3])
{
    double o[3], d[3];
    if (cursor_ray(camera, w, h, cursor, o, d) != 0 || d[2] >= 0.0)
        return -1;
    /* march to the first point below the surface, then bisect */
    double lo = 0.0, hi = 0.0, step = 0.5;
    if (above_water(sim, o, d, 0.0) <= 0.0)
        return -1; /* the eye is under water */
    for (hi = step; above_water(sim, o, d, hi) > 0.0; hi += step) {
        lo = hi;
        if (hi > PICK_RANGE)
            return -1;
        step *= 1.05; /* finer near the eye, coarser far away */
    }
    for (int i = 0; i < 40; i++) {
        double mid = 0.5 * (lo + hi);
        if (above_water(sim, o, d, mid) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    for (int k = 0; k < 3; k++)
        point[k] = o[k] + hi * d[k];
    return 0;
}

/* Where the cursor's ray meets the drag plane: 0, or -1 when it runs
 * (nearly) parallel to it or the point is behind the eye. */
static int hand_at(const pointer_state *pl, const orbit_camera *camera, int w, int h,
                   const float cursor[2], double hand[3])
{
    double o[3], d[3];
    if (cursor_ray(camera, w, h, cursor, o, d) != 0)
        return -1;
    double dn = 0.0, wn = 0.0;
    for (int k = 0; k < 3; k++) {
        dn += d[k] * pl->plane_normal[k];
        wn += (pl->plane_point[k] - o[k]) * pl->plane_normal[k];
    }
    if (fabs(dn) < 1e-3 || wn / dn <= 0.0 || wn / dn > PICK_RANGE)
        return -1;
    for (int k = 0; k < 3; k++)
        hand[k] = o[k] + wn / dn * d[k];
    return 0;
}

/* The drag plane through point p: facing the camera, or level. */
static void set_plane(pointer_state *pl, const orbit_camera *camera, const double p[3], int level)
{
    float eye[3];
    camera_eye(camera, eye);
    float n[3] = {eye[0] - camera->target[0], eye[1] - camera->target[1],
                  eye[2] - camera->target[2]};
    if (level) {
        n[0] = n[1] = 0.0f;
        n[2] = 1.0f;
    }
    float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) {
        pl->plane_point[k] = (float)p[k];
        pl->plane_normal[k] = len > 0.0f ? n[k] / len : (k == 2);
    }
    pl->along_water = level;
}

static void grab_start(pointer_state *pl, const input_actions *a, dinghy_sim *sim,
                       const orbit_camera *camera, int w, int h)
{
    sim_ray_hit hit;
    if (!pick(sim, camera, w, h, a->cursor, &hit))
        return;
    if (sim_grab(sim, hit.id, hit.vertex, hit.point) != 0)
        return;
    set_plane(pl, camera, hit.point, a->along_water);
    memcpy(pl->hand, hit.point, sizeof pl->hand);
    memset(pl->throw_velocity, 0, sizeof pl->throw_velocity);
    snprintf(pl->note, sizeof pl->note, "holding ring %d", hit.ring);
}

/* Moves the hand to the cursor over the frame's step_time. */
static void grab_drag(pointer_state *pl, const input_actions *a, dinghy_sim *sim,
                      const orbit_camera *camera, int w, int h, double step_time)
{
    if (a->along_water != pl->along_water) { /* Shift pressed or let go while dragging */
        double now[3];
        if (sim_grab_target(sim, now) == 0)
            set_plane(pl, camera, now, a->along_water);
    }
    double hand[3], v[3] = {0.0, 0.0, 0.0};
    if (hand_at(pl, camera, w, h, a->cursor, hand) != 0)
        return;
    if (step_time > 0.0) { /* from where it was to the cursor over the frame's steps */
        /* the throw's velocity: the hand's, smoothed over POINTER_THROW_TIME */
        double w = 1.0 - exp(-step_time / POINTER_THROW_TIME);
        for (int k = 0; k < 3; k++) {
            v[k] = (hand[k] - pl->hand[k]) / step_time;
            pl->throw_velocity[k] += w * (v[k] - pl->throw_velocity[k]);
        }
        sim_grab_move(sim, pl->hand, v);
    } else {
        sim_grab_move(sim, hand, v);
    }
    memcpy(pl->hand, hand, sizeof hand);
}

static void drop_in(pointer_state *pl, const input_actions *a, dinghy_sim *sim,
                    const orbit_camera *camera, int w, int h)
{
    double at[3];
    if (pointer_water_under(sim, camera, w, h, a->cursor, at) != 0) {
        snprintf(pl->note, sizeof pl->note, "drop: point the cursor at the water");
        return;
    }
    sim_ring_pose pose = {{at[0], at[1], at[2] + POINTER_DROP_HEIGHT},
                      {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.0, 0.0, 0.0}};
    /* Above any ring under it, clear of its top: skin contact holds skins
     * apart but cannot part two rings made inside each other. */
    const sim_ring_def *d = &sim_get_def(sim)->ring;
    const double across = 2.0 * (d->major_radius + d->minor_radius);
    const sim_ring_state *rs = sim_rings(sim);
    for (int q = 0; q < sim_ring_count(sim); q++) {
        double dx = rs[q].centre[0] - at[0], dy = rs[q].centre[1] - at[1];
        double clear = rs[q].max_z + d->minor_radius + 0.05;
        if (dx * dx + dy * dy < across * across && pose.centre[2] < clear)
            pose.centre[2] = clear;
    }
    int p = sim_ring_index(sim, sim_add_ring(sim, &pose));
    if (p < 0)
        snprintf(pl->note, sizeof pl->note, "no room for more rings (%d): X takes one out",
                 sim_ring_capacity(sim));
    else
        snprintf(pl->note, sizeof pl->note, "dropped ring %d in at (%.1f, %.1f) m", p, at[0],
                 at[1]);
}

static void take_out(pointer_state *pl, const input_actions *a, dinghy_sim *sim,
                     const orbit_camera *camera, int w, int h)
{
    sim_ray_hit hit;
    if (!pick(sim, camera, w, h, a->cursor, &hit))
        return;
    sim_remove_ring(sim, hit.id); /* the punctured ring's id stays valid, or goes stale */
    snprintf(pl->note, sizeof pl->note, "took ring %d out (%d left)", hit.ring,
             sim_ring_count(sim));
}

/* A hole of `diameter` (m) in the ring under the cursor. */
static void puncture(pointer_state *pl, const input_actions *a, dinghy_sim *sim,
                     const orbit_camera *camera, int w, int h, double diameter)
{
    sim_ray_hit hit;
    if (!pick(sim, camera, w, h, a->cursor, &hit))
        return;
    if (sim_get_def(sim)->ring.inflation != SIM_INFLATION_GAS) {
        snprintf(pl->note, sizeof pl->note, "puncture: constant inflation has no gas to let "
                 "out (dinghy.inflation = gas)");
        return;
    }
    const double area = 0.25 * PI * diameter * diameter;
    sim_puncture(sim, hit.id, area);
    pl->punctured = hit.id;
    pl->hole_vertex = hit.vertex;
}

/* The punctured ring's state for the HUD: how much gas is left and how
 * fast it goes. */
static void puncture_note(pointer_state *pl, const dinghy_sim *sim)
{
    const int p = sim_ring_index(sim, pl->punctured);
    if (p < 0)
        return;
    const sim_ring_state *r = &sim_rings(sim)[p];
    const sim_def *d = sim_get_def(sim);
    /* the air that was pumped in beyond the ambient amount: the gas fills
     * the inflated volume, (1 + swell) times the rest volume, at p0, so at
     * a gas fraction of p_air / (p0 (1 + swell)) the rest volume holds
     * ambient air only */
    const double ambient = d->world.air_pressure
                         / ((d->world.air_pressure + d->ring.gauge_pressure)
                            * (1.0 + sim_ring_inflated_swell(&d->ring)));
    const double extra = ambient < 1.0 ? (r->gas_fraction - ambient) / (1.0 - ambient) : 0.0;
    /* its holes as one round hole of the same area */
    snprintf(pl->note, sizeof pl->note, "ring %d punctured (%.0f mm hole): gauge %.0f Pa, "
             "%.2f g/s of air escaping, %.0f%% of the air pumped in left", p,
             1000.0 * sqrt(4.0 * r->hole_area / PI), r->pressure - d->world.air_pressure,
             1000.0 * r->leak, 100.0 * (extra > 0.0 ? extra : 0.0));
}

void pointer_frame(pointer_state *pl, const input_actions *a, dinghy_sim *sim, const orbit_camera *camera,
                int w, int h, double step_time)
{
    if (a->grab_press)
        grab_start(pl, a, sim, camera, w, h);
    if (sim_ring_valid(sim, sim_grabbed_ring(sim)) && (a->grabbing || a->grab_release))
        grab_drag(pl, a, sim, camera, w, h, step_time);
    if (a->grab_release && !a->grabbing && sim_ring_valid(sim, sim_grabbed_ring(sim))) {
        double hand[3];
        if (sim_grab_target(sim, hand) == 0)
            sim_grab_move(sim, hand, pl->throw_velocity);
        sim_grab_release(sim); /* thrown at the hand's recent velocity */
        pl->note[0] = '\0';
    }
    for (int i = 0; i < a->drop; i++)
        drop_in(pl, a, sim, camera, w, h);
    for (int i = 0; i < a->remove; i++)
        take_out(pl, a, sim, camera, w, h);
    for (int i = 0; i < a->puncture; i++)
        puncture(pl, a, sim, camera, w, h, POINTER_HOLE_DIAMETER);
    for (int i = 0; i < a->burst; i++)
        puncture(pl, a, sim, camera, w, h, POINTER_BURST_DIAMETER);
    pl->held = sim_grabbed_ring(sim);
    if (!sim_ring_valid(sim, pl->held))
        puncture_note(pl, sim);
}

/* The tuning panel's keys and mouse this frame: select, change (applied
 * like a reload of the config file: the result, or RELOAD_NONE), save. */
reload_result pointer_panel(panel *pn, const input_actions *a, const render_text_box *box,
                                dinghy_settings *settings, dinghy_sim **sim, reload_report *rep,
                                config_watch *watch)
{
    if (a->panel_move)
        panel_move(pn, a->panel_move);
    if (a->panel_click && box->line_height > 0.0f)
        panel_select_at(pn, (int)floorf((a->panel_click_y - box->first_line_y) / box->line_height));
    reload_result rr = RELOAD_NONE;
    int steps = a->panel_change + (int)lroundf(a->panel_scroll);
    if (steps)
        rr = panel_change(pn, steps, settings, sim, rep);
    if (a->panel_save) {
        char msg[1024];
        panel_save(pn, settings, watch ? config_watch_path(watch) : NULL, msg, sizeof msg);
        fprintf(stderr, "dinghy: panel: %s\n", msg);
    }
    return rr;
}
