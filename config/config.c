/* INI and --set parsing with inih, range and consistency checks. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../physics/scene.h"
#include "params_table.h"

/* Parses a whole decimal number; rejects empty text, trailing junk, nan and inf. */
static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v) || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int config_set(dinghy_settings *p, const char *name, const char *value, const char *where,
               diag_list *d)
{
    const param_key *k = param_find(name);
    if (!k) {
        const char *dot = strchr(name, '.');
        const char *hint = param_suggest(name);
        char section[64] = "";
        if (dot && (size_t)(dot - name) < sizeof section)
            snprintf(section, sizeof section, "%.*s", (int)(dot - name), name);
        int known_section = 0;
        for (int i = 0; i < param_table_count && *section; i++)
            if (strncmp(param_table[i].name, section, strlen(section)) == 0
                && param_table[i].name[strlen(section)] == '.')
                known_section = 1;
        if (hint)
            diag_add(d, "%s: unknown key '%s'; did you mean '%s'?", where, name, hint);
        else if (*section && !known_section)
            diag_add(d, "%s: unknown section [%s] (key '%s'); sections are %s", where, section,
                     name, param_sections_text());
        else
            diag_add(d, "%s: unknown key '%s'; see dinghy --help for the keys", where, name);
        return -1;
    }
    char range[96];
    param_range_text(k, range, sizeof range);
    char *field = (char *)p + k->offset;
    if (k->type == PK_SCENE) {
        int kind = scene_kind_from_name(value);
        if (kind < 0) {
            diag_add(d, "%s: %s = '%s' is not a scene; allowed: %s", where, name, value, range);
            return -1;
        }
        *(scene_kind *)field = (scene_kind)kind;
        return 0;
    }
    if (k->type == PK_U64) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(value, &end, 10);
        if (end == value || *end != '\0' || errno == ERANGE || value[0] == '-' || value[0] == '+') {
            diag_add(d, "%s: %s = '%s' is not %s", where, name, value, range);
            return -1;
        }
        *(uint64_t *)field = (uint64_t)v;
        return 0;
    }
    double v;
    if (parse_double(value, &v) != 0) {
        diag_add(d, "%s: %s = '%s' is not a finite number; allowed: %s", where, name, value, range);
        return -1;
    }
    if (k->type == PK_INT && v != floor(v)) {
        diag_add(d, "%s: %s = '%s' is not a whole number; allowed: %s", where, name, value, range);
        return -1;
    }
    if (v < k->min || v > k->max) {
        diag_add(d, "%s: %s = %s is out of range; allowed: %s", where, name, value, range);
        return -1;
    }
    if (k->type == PK_INT)
        *(int *)field = (int)v;
    else
        *(double *)field = v;
    return 0;
}

int config_set_assignment(dinghy_settings *p, const char *assignment, diag_list *d)
{
    const char *eq = strchr(assignment, '=');
    char where[300];
    snprintf(where, sizeof where, "--set %s", assignment);
    if (!eq || eq == assignment) {
        diag_add(d, "--set '%s': expected section.key=value", assignment);
        return -1;
    }
    char name[128];
    if ((size_t)(eq - assignment) >= sizeof name) {
        diag_add(d, "--set: key too long in '%.60s...'", assignment);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - assignment), assignment);
    return config_set(p, name, eq + 1, where, d);
}

/* ---- INI files ---- */

typedef struct {
    const char *path;
    FILE *file;
    int line;               /* number of the line inih is looking at */
    dinghy_settings work;       /* applied to the caller's params only if clean */
    diag_list *d;
    int errors_before;
    unsigned char seen[64]; /* line a key was first set on, by table index (nonzero = seen) */
    int seen_line[64];
} ini_state;

/* Reads one line for inih; lines that are not blank, a comment, a [section]
 * or key = value are reported here and handed on as blank. Leading blanks
 * are dropped so that indentation never means a continuation line. */
static char *ini_read_line(char *str, int num, void *stream)
{
    ini_state *st = stream;
    char line[1024];
    if (!fgets(line, sizeof line, st->file))
        return NULL;
    st->line++;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
        int c;
        while ((c = fgetc(st->file)) != EOF && c != '\n')
            ;
        diag_add(st->d, "%s:%d: line too long (over %zu characters)", st->path, st->line,
                 sizeof line - 2);
        snprintf(str, (size_t)num, "\n");
        return str;
    }
    char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (st->line == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB
        && (unsigned char)s[2] == 0xBF)
        s += 3; /* UTF-8 byte order mark */
    char *end = s + strlen(s);
    while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    int ok = 1;
    if (*s == '\0' || *s == ';' || *s == '#')
        ok = 1;
    else if (*s == '[')
        ok = end[-1] == ']';
    else
        ok = strchr(s, '=') != NULL && s[0] != '=';
    if (!ok) {
        diag_add(st->d, "%s:%d: expected 'key = value', '[section]' or a ';' comment, got '%.60s'",
                 st->path, st->line, s);
        s = "";
    }
    if (strlen(s) + 2 > (size_t)num) {
        diag_add(st->d, "%s:%d: line too long (over %d characters)", st->path, st->line, num - 2);
        s = "";
    }
    snprintf(str, (size_t)num, "%s\n", s);
    return str;
}

static int ini_on_key(void *user, const char *section, const char *key, const char *value)
{
    ini_state *st = user;
    char where[512], name[256];
    snprintf(where, sizeof where, "%s:%d", st->path, st->line);
    if (!*section) {
        diag_add(st->d, "%s: key '%s' is outside any [section]", where, key);
        return 1;
    }
    snprintf(name, sizeof name, "%s.%s", section, key);
    const param_key *k = param_find(name);
    if (k) {
        int idx = (int)(k - param_table);
        if (st->seen[idx]) {
            diag_add(st->d, "%s: duplicate key %s (first set on line %d)", where, name,
                     st->seen_line[idx]);
            return 1;
        }
        st->seen[idx] = 1;
        st->seen_line[idx] = st->line;
    }
    config_set(&st->work, name, value, where, st->d);
    return 1;
}

int config_load_file(dinghy_settings *p, const char *path, diag_list *d)
{
    ini_state st;
    memset(&st, 0, sizeof st);
    st.path = path;
    st.d = d;
    st.work = *p;
    st.errors_before = d->count;
    st.file = fopen(path, "r");
    if (!st.file) {
        diag_add(d, "%s: cannot open config file: %s", path, strerror(errno));
        return -1;
    }
    int rc = ini_parse_stream(ini_read_line, &st, ini_on_key, &st);
    fclose(st.file);
    if (rc > 0 && d->count == st.errors_before) /* inih's own complaint, e.g. a bad header */
        diag_add(d, "%s:%d: cannot parse this line", path, rc);
    if (d->count != st.errors_before)
        return -1;
    *p = st.work;
    return 0;
}

/* ---- consistency ---- */

double config_bytes_per_vertex(void)
{
    /* two state buffers (6 floats each), forces (3), normals (3) */
    return (2 * 6 + 3 + 3) * sizeof(float);
}

int config_check(const dinghy_settings *settings, const char *where, diag_list *d)
{
    const sim_params *p = &settings->sim;
    int before = d->count;
    if (p->sides % 2 != 0)
        diag_add(d, "%s: dinghy.sides = %d must be even (the across-tube spring joins n and n + sides/2)",
                 where, p->sides);
    if (p->band % 2 == 0)
        diag_add(d, "%s: dinghy.band = %d must be odd (the neighbourhood is centred)", where, p->band);
    if (p->band > p->segments || p->band > p->sides)
        diag_add(d, "%s: dinghy.band = %d must be at most dinghy.segments (%d) and dinghy.sides (%d)",
                 where, p->band, p->segments, p->sides);
    if (p->minor_radius >= p->major_radius)
        diag_add(d, "%s: dinghy.minor_radius = %g must be less than dinghy.major_radius = %g",
                 where, p->minor_radius, p->major_radius);
    double verts = (double)scene_dinghy_count(p) * p->segments * p->sides;
    double need = verts * config_bytes_per_vertex();
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double have = (pages > 0 && page > 0) ? (double)pages * (double)page : 0.0;
    if (verts > 2e9)
        diag_add(d, "%s: %.3g vertices is more than this program supports (2e9)", where, verts);
    else if (have > 0.0 && need > 0.8 * have)
        diag_add(d, "%s: %.0f dinghies of %d x %d vertices need %.1f GiB, more than 80%% of this "
                 "machine's %.1f GiB; lower scene.count or the mesh size",
                 where, (double)scene_dinghy_count(p), p->segments, p->sides, need / 1073741824.0,
                 have / 1073741824.0);
    return d->count == before ? 0 : -1;
}

void config_write_ini(const dinghy_settings *p, FILE *out)
{
    const dinghy_settings def = settings_default();
    fprintf(out, "; dinghy configuration. Comments start with ';'. Each key: meaning; default;\n"
                 "; allowed range. Keys left out keep their defaults.\n");
    const char *section = "";
    size_t section_len = 0;
    for (int i = 0; i < param_table_count; i++) {
        const param_key *k = &param_table[i];
        const char *dot = strchr(k->name, '.');
        size_t len = (size_t)(dot - k->name);
        if (len != section_len || strncmp(section, k->name, len) != 0) {
            fprintf(out, "\n[%.*s]\n", (int)len, k->name);
            section = k->name;
            section_len = len;
        }
        char value[64], dflt[64], range[96];
        param_format(p, k, value, sizeof value);
        param_format(&def, k, dflt, sizeof dflt);
        param_range_text(k, range, sizeof range);
        fprintf(out, "; %s%s%s%s; default %s; allowed %s\n%s = %s\n", k->doc, *k->unit ? " (" : "",
                k->unit, *k->unit ? ")" : "", dflt, range, dot + 1, value);
    }
}
