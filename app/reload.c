/* Hot reload: a good save reaches the running simulation, a bad one nothing. */
#include "reload.h"

#include <string.h>

#include "../scenes/scene.h"
#include "../config/build.h"
#include "../config/config.h"

static void clear(reload_report *r)
{
    diag_free(&r->errors);
    r->result = RELOAD_NONE;
    r->summary[0] = '\0';
    r->warning[0] = '\0';
}

static reload_result reject(reload_report *r, const char *path, const char *why)
{
    snprintf(r->summary, sizeof r->summary, "%s not applied (%s); still running the previous "
             "configuration", path, why);
    return r->result = RELOAD_REJECTED;
}

reload_result reload_poll(config_watch *w, dinghy_settings *current, dinghy_sim **sim,
                          reload_report *r)
{
    clear(r);
    const char *path = config_watch_path(w);
    dinghy_settings next;
    char changes[768];
    switch (config_watch_poll(w, current, &next, &r->errors, changes, sizeof changes)) {
    case CONFIG_WATCH_NONE:
        return r->result = RELOAD_NONE;
    case CONFIG_WATCH_SAME:
        snprintf(r->summary, sizeof r->summary, "reloaded %s: no changes", path);
        return r->result = RELOAD_SAME;
    case CONFIG_WATCH_ERROR: {
        char why[64];
        snprintf(why, sizeof why, "%d error%s", r->errors.count, r->errors.count == 1 ? "" : "s");
        return reject(r, path, why);
    }
    case CONFIG_WATCH_CHANGED:
        break;
    }
    int structural = 0;
    config_diff(current, &next, NULL, 0, &structural);
    if (structural) {
        char err[256];
        dinghy_sim *fresh = scene_create(&next.sim, &next.scene, 0, err, sizeof err);
        if (!fresh) {
            char why[320];
            snprintf(why, sizeof why, "cannot build the new scene: %s", err);
            return reject(r, path, why);
        }
        sim_destroy(*sim);
        *sim = fresh;
        r->result = RELOAD_REBUILT;
    } else {
        sim_set_live(*sim, &next.sim);
        r->result = RELOAD_APPLIED;
    }
    *current = next;
    snprintf(r->summary, sizeof r->summary, "reloaded %s: %s%s", path, changes,
             structural ? "; scene rebuilt" : "");
    config_stability_advice(&next.sim, r->warning, sizeof r->warning);
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
