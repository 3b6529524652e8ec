/* Defaults, file, --set, checks: the effective settings; and their diff. */
#include "config/build.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/origins.h"
#include "config/params_table.h"

/* The line number a message "PATH:LINE: ..." names, or INT_MAX. */
static int line_of(const char *msg, const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (!path || strncmp(msg, path, n) != 0 || msg[n] != ':')
        return INT_MAX;
    char *end;
    long line = strtol(msg + n + 1, &end, 10);
    return *end == ':' && line > 0 && line < INT_MAX ? (int)line : INT_MAX;
}

/* Puts the messages from index `from` on in file line order (stable): the
 * checks across keys run last but speak of lines anywhere in the file. */
static void sort_by_line(diag_list *d, int from, const char *path)
{
    for (int i = from + 1; i < d->stored; i++) {
        char *m = d->lines[i];
        unsigned char warning = d->warning[i];
        int line = line_of(m, path), j = i;
        for (; j > from && line_of(d->lines[j - 1], path) > line; j--) {
            d->lines[j] = d->lines[j - 1];
            d->warning[j] = d->warning[j - 1];
        }
        d->lines[j] = m;
        d->warning[j] = warning;
    }
}

int config_build_text(const config_source *src, const char *text, size_t len,
                      dinghy_settings *out, diag_list *d)
{
    return config_build_text_since(src, text, len, NULL, out, d);
}

int config_build_text_since(const config_source *src, const char *text, size_t len,
                            const dinghy_settings *before, dinghy_settings *out, diag_list *d)
{
    config_origins *o = calloc(1, sizeof *o);
    if (!o) {
        diag_add(d, "out of memory");
        return -1;
    }
    dinghy_settings work = settings_default();
    int errors = d->count, from = d->stored;
    if (text)
        config_parse_ini(&work, src->path, text, len, o, d);
    for (int i = 0; i < src->nsets; i++) {
        const char *a = src->sets[i];
        int rc = config_set_assignment(&work, a, d);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
        const param_key *k = param_find(name);
        if (k && k - param_table < PARAM_TABLE_MAX) {
            int idx = (int)(k - param_table);
            o->set[idx] = a;
            o->line[idx] = 0;
            o->failed[idx] = rc != 0;
        }
    }
    work.sim.world.river.seed = work.scene.seed; /* sim.seed lays out the river too */
    config_check_origins(&work, o, src->path ? src->path : "parameters", d);
    if (d->count == errors) /* warnings only of settings that will run */
        config_inert_warnings(&work, o, before, d);
    free(o);
    sort_by_line(d, from, text ? src->path : NULL);
    if (d->count != errors)
        return -1;
    *out = work;
    return 0;
}

int config_build(const config_source *src, dinghy_settings *out, diag_list *d)
{
    char *text = NULL;
    size_t len = 0;
    if (src->path && config_read_file(src->path, &text, &len, d) != 0)
        return -1;
    /* An empty file still counts as a file: text must not be NULL then. */
    int rc = config_build_text(src, src->path ? (text ? text : "") : NULL, len, out, d);
    free(text);
    return rc;
}

int config_diff(const dinghy_settings *from, const dinghy_settings *to, char *text, size_t len,
                int *structural)
{
    int changed = 0, left_out = 0;
    size_t used = 0;
    if (structural)
        *structural = 0;
    if (text && len)
        text[0] = '\0';
    for (int i = 0; i < param_table_count; i++) {
        const param_key *k = &param_table[i];
        char a[64], b[64];
        param_format(from, k, a, sizeof a);
        param_format(to, k, b, sizeof b);
        if (strcmp(a, b) == 0)
            continue;
        changed++;
        if (structural && param_is_structural(k))
            *structural = 1;
        if (!text)
            continue;
        char item[192];
        int n = snprintf(item, sizeof item, "%s%s %s -> %s", used ? ", " : "", k->name, a, b);
        /* keep room for the "... (N more)" tail */
        if (!left_out && used + (size_t)n + 20 < len) {
            memcpy(text + used, item, (size_t)n + 1);
            used += (size_t)n;
        } else {
            left_out++;
        }
    }
    if (text && left_out && used + 20 <= len)
        snprintf(text + used, len - used, "%s... (%d more)", used ? ", " : "", left_out);
    return changed;
}
