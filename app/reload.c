/* Hot reload: a good save reaches the running simulation, a bad one nothing. */
#include "app/reload.h"

#include <string.h>

#include "dinghy/scene.h"
#include "config/build.h"
#include "config/config.h"
#include "app/scene_room.h"

static void clear(reload_report *r)
{
    diag_free(&r->errors);
    r->result = RELOAD_NONE;
    r->summary[0] = '\0';
    r->warning[0] = '\0';
}

static reload_result reject(reload_report *r, const char *path, const char *why)
{
    char count[64];
    if (!why) {
        snprintf(count, sizeof count, "%d error%s", r->errors.count,
                 r->errors.count == 1 ? "" : "s");
        why = count;
    }
    snprintf(r->summary, sizeof r->summary, "%s not applied (%s); still running the previous "
             "configuration", path, why);
    return r->result = RELOAD_REJECTED;
}

reload_result reload_poll(config_watch *w, dinghy_settings *current, dinghy_sim **sim,
                          reload_report *r)
{
    dinghy_settings next;
    reload_result rr = reload_poll_look(w, current, &next, r);
    return rr == RELOAD_APPLIED ? reload_poll_finish(w, current, &next, sim, r) : rr;
}

reload_result reload_poll_look(config_watch *w, const dinghy_settings *current,
                               dinghy_settings *next, reload_report *r)
{
    clear(r);
    const char *path = config_watch_path(w);
    switch (config_watch_poll(w, current, next, &r->errors, NULL, 0)) {
    case CONFIG_WATCH_NONE:
        return r->result = RELOAD_NONE;
    case CONFIG_WATCH_SAME:
        snprintf(r->summary, sizeof r->summary, "reloaded %s: no changes", path);
        return r->result = RELOAD_SAME;
    case CONFIG_WATCH_ERROR:
        return reject(r, path, NULL);
    case CONFIG_WATCH_CHANGED:
        break;
    }
    return RELOAD_APPLIED;
}

reload_result reload_poll_finish(config_watch *w, dinghy_settings *current,
                                 const dinghy_settings *next, dinghy_sim **sim, reload_report *r)
{
    /* the save's warnings (keys that do nothing) name their lines: they
     * stand for reload_apply's, which name only the file */
    diag_list saved = {0};
    diag_move_warnings(&saved, &r->errors);
    reload_result rr = reload_apply(current, next, sim, r, config_watch_path(w));
    diag_drop_warnings(&r->errors);
    diag_move_warnings(&r->errors, &saved);
    diag_free(&saved);
    return rr;
}

reload_result reload_apply(dinghy_settings *current, const dinghy_settings *next,
                           dinghy_sim **sim, reload_report *r, const char *source)
{
    clear(r);
    if (config_check(next, source, &r->errors) != 0)
        return reject(r, source, NULL);
    char changes[768];
    int structural = 0;
    if (config_diff(current, next, changes, sizeof changes, &structural) == 0) {
        snprintf(r->summary, sizeof r->summary, "reloaded %s: no changes", source);
        return r->result = RELOAD_SAME;
    }
    if (structural) {
        char err[256];
        dinghy_sim *fresh = room_sim_create(&next->sim, &next->scene, err, sizeof err);
        if (!fresh) {
            char why[320];
            snprintf(why, sizeof why, "cannot build the new scene: %s", err);
            return reject(r, source, why);
        }
        sim_destroy(*sim);
        *sim = fresh;
        r->result = RELOAD_REBUILT;
    } else {
        sim_set_live(*sim, &next->sim);
        r->result = RELOAD_APPLIED;
    }
    config_edit_warnings(current, next, source, &r->errors); /* keys that do nothing */
    *current = *next;
    snprintf(r->summary, sizeof r->summary, "reloaded %s: %s%s", source, changes,
             structural ? "; scene rebuilt" : "");
    config_stability_advice(&next->sim, r->warning, sizeof r->warning);
    return r->result;
}

void reload_report_print(const reload_report *r, FILE *out)
{
    if (r->result == RELOAD_NONE)
        return;
    diag_print_prefixed(&r->errors, "dinghy: ", out);
    fprintf(out, "dinghy: %s\n", r->summary);
    if (r->warning[0])
        fprintf(out, "dinghy: %s\n", r->warning);
    fflush(out);
}

void reload_report_free(reload_report *r)
{
    clear(r);
}

int reload_guard_init(reload_guard *g, dinghy_sim *sim, const dinghy_settings *s)
{
    memset(g, 0, sizeof *g);
    g->cp = sim_checkpoint_new(sim);
    if (!g->cp)
        return -1;
    sim_checkpoint_save(sim, g->cp);
    g->cp_step = sim_steps_done(sim);
    g->cp_time = sim_time(sim);
    g->good = *s;
    return 0;
}

void reload_guard_free(reload_guard *g)
{
    sim_checkpoint_free(g->cp);
    g->cp = NULL;
}

/* Makes the present state of sim, run with s, the good one. */
static void guard_save(reload_guard *g, dinghy_sim *sim, const dinghy_settings *s)
{
    if (g->rebuilt) { /* a new size: a new checkpoint */
        sim_checkpoint *cp = sim_checkpoint_new(sim);
        if (!cp)
            return; /* keep the old one; a rollback then rebuilds */
        sim_checkpoint_free(g->cp);
        g->cp = cp;
        g->rebuilt = 0;
    }
    g->pending = 0;
    g->good = *s;
    sim_checkpoint_save(sim, g->cp);
    g->cp_step = sim_steps_done(sim);
    g->cp_time = sim_time(sim);
}

void reload_guard_edited(reload_guard *g, dinghy_sim *sim, const dinghy_settings *before,
                         const dinghy_settings *after, reload_result rr)
{
    if (rr != RELOAD_APPLIED && rr != RELOAD_REBUILT)
        return;
    char advice[512];
    if (g->pending && !g->unstable && rr == RELOAD_APPLIED)
        guard_save(g, sim, before); /* the earlier edit ran well until now */
    if (!g->pending)
        g->rebuilt = 0;
    g->pending = 1;
    g->rebuilt |= rr == RELOAD_REBUILT;
    g->pending_since = sim_time(sim);
    g->unstable = config_stability_advice(&after->sim, advice, sizeof advice) != 0;
}

void reload_guard_frame(reload_guard *g, dinghy_sim *sim, const dinghy_settings *s)
{
    double t = sim_time(sim);
    /* a rebuilt scene restarts its clock, a reset too: that ends probation */
    if (g->pending
        && (g->unstable || (t >= g->pending_since && t - g->pending_since < RELOAD_GUARD_PROBATION_S)))
        return;
    guard_save(g, sim, s);
}

reload_guard_result reload_guard_rollback(reload_guard *g, dinghy_sim **sim, dinghy_settings *s,
                                          int force, char *line, size_t len)
{
    if (!g->cp || (!g->pending && !force))
        return GUARD_NOT_ROLLED_BACK;
    char blowup[1024];
    sim_blowup_message(*sim, blowup, sizeof blowup);
    int edited = g->pending;
    if (edited && g->rebuilt) { /* the edit built another scene: build the old one again */
        char err[256];
        dinghy_sim *old = room_sim_create(&g->good.sim, &g->good.scene, err, sizeof err);
        if (!old)
            return GUARD_NOT_ROLLED_BACK;
        sim_destroy(*sim);
        *sim = old;
    }
    if (sim_checkpoint_restore(*sim, g->cp) != 0)
        return GUARD_NOT_ROLLED_BACK;
    char changes[512] = "";
    if (edited) {
        dinghy_settings back = *s;
        back.sim = g->good.sim;
        back.scene = g->good.scene;
        config_diff(s, &back, changes, sizeof changes, NULL);
        /* the checkpoint may hold the edit's tunables (saved as it arrived) */
        sim_set_live(*sim, &g->good.sim);
        s->sim = g->good.sim;
        s->scene = g->good.scene;
    }
    g->pending = 0;
    g->rebuilt = 0;
    if (edited)
        snprintf(line, len, "%s; rolled back to step %ld (t = %.3f s) and the settings before the "
                 "edit (%s); still running", blowup, g->cp_step, g->cp_time, changes);
    else
        snprintf(line, len, "%s; rolled back to step %ld (t = %.3f s), same settings", blowup,
                 g->cp_step, g->cp_time);
    return edited ? GUARD_ROLLED_BACK : GUARD_SAME_SETTINGS;
}
