/* Values: --set and key parsing, range and consistency checks, INI output. */
#include "config/config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config/origins.h"
#include "config/params_table.h"

/* How a value's text failed to be a number. */
typedef enum { NUM_OK, NUM_EMPTY, NUM_NOT_A_NUMBER, NUM_JUNK, NUM_NOT_FINITE } num_status;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Parses a decimal number: [+-]digits[.digits][e[+-]digits], blanks around
 * it allowed. Hex, nan and inf are refused; *junk points at what follows a
 * number that is not the end of the text. */
static num_status parse_decimal(const char *s, double *out, const char **junk)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return NUM_EMPTY;
    const char *q = s;
    if (*q == '+' || *q == '-')
        q++;
    int digits = 0;
    for (; is_digit(*q); q++)
        digits++;
    if (*q == '.')
        for (q++; is_digit(*q); q++)
            digits++;
    if (!digits) {
        if (strncasecmp(q, "nan", 3) == 0 || strncasecmp(q, "inf", 3) == 0)
            return NUM_NOT_FINITE;
        return NUM_NOT_A_NUMBER;
    }
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (is_digit(*e)) {
            while (is_digit(*e))
                e++;
            q = e;
        }
    }
    const char *end = q;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end) {
        *junk = q;
        return NUM_JUNK;
    }
    double v = strtod(s, NULL);
    if (!isfinite(v)) /* overflow, e.g. 1e999 */
        return NUM_NOT_FINITE;
    *out = v;
    return NUM_OK;
}

/* The choice of k closest to `name`, or NULL when none is close. */
static const char *suggest_choice(const param_key *k, const char *name)
{
    const char *best = NULL;
    int best_d = 3;
    for (int i = 0; k->choice(i); i++) {
        int dist = param_edit_distance(name, k->choice(i));
        if (dist < best_d) {
            best_d = dist;
            best = k->choice(i);
        }
    }
    return best;
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
    if (k->type == PK_CHOICE) {
        int kind = param_choice_index(k, value);
        const char *what = k->choice == param_find("scene.name")->choice ? "a scene" : "a choice";
        if (kind < 0) {
            const char *hint = suggest_choice(k, value);
            if (hint)
                diag_add(d, "%s: %s = '%s' is not %s; did you mean '%s'? allowed: %s", where,
                         name, value, what, hint, range);
            else
                diag_add(d, "%s: %s = '%s' is not %s; allowed: %s", where, name, value, what,
                         range);
            return -1;
        }
        *(int *)field = kind;
        return 0;
    }
    if (k->type == PK_U64) {
        /* strtoull would wrap "-1" round to 2^64 - 1: insist on digits. */
        char *end;
        errno = 0;
        unsigned long long v = is_digit(value[0]) ? strtoull(value, &end, 10) : 0;
        if (!is_digit(value[0]) || *end != '\0' || errno == ERANGE) {
            diag_add(d, "%s: %s = '%s' is not %s", where, name, value, range);
            return -1;
        }
        *(uint64_t *)field = (uint64_t)v;
        return 0;
    }
    double v = 0.0;
    const char *junk = "";
    switch (parse_decimal(value, &v, &junk)) {
    case NUM_OK:
        break;
    case NUM_EMPTY:
        diag_add(d, "%s: %s has no value; allowed: %s", where, name, range);
        return -1;
    case NUM_NOT_A_NUMBER:
        diag_add(d, "%s: %s = '%s' is not a number; allowed: %s", where, name, value, range);
        return -1;
    case NUM_JUNK:
        diag_add(d, "%s: %s = '%s' has junk after the number: '%s'; allowed: %s", where, name,
                 value, junk, range);
        return -1;
    case NUM_NOT_FINITE:
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

/* ---- consistency ---- */

/* Writes where key i got its value, "--set KEY=VALUE" or "FILE:LINE", into
 * buf; 0 when it kept its default (or o is NULL). */
static int origin_of(const config_origins *o, int i, char *buf, size_t len)
{
    if (!o || i < 0)
        return 0;
    if (o->set[i])
        snprintf(buf, len, "--set %s", o->set[i]);
    else if (o->line[i] && o->file)
        snprintf(buf, len, "%s:%d", o->file, o->line[i]);
    else
        return 0;
    return 1;
}

/* Fills buf with where the problem among the n keys comes from: a --set
 * of one of them (the last layer, what was typed last), else the file
 * line of the first that has one, else `fallback`. Returns 0 when one of
 * the keys was given a bad value, so its check would only repeat that
 * error. */
static int where_of(const config_origins *o, const char *fallback, const param_key *const *keys,
                    int n, char *buf, size_t len)
{
    snprintf(buf, len, "%s", fallback);
    if (!o)
        return 1;
    for (int j = 0; j < n; j++)
        if (o->failed[keys[j] - param_table])
            return 0;
    int pick = -1;
    for (int j = 0; j < n && pick < 0; j++)
        if (o->set[keys[j] - param_table])
            pick = (int)(keys[j] - param_table);
    for (int j = 0; j < n && pick < 0; j++)
        if (o->line[keys[j] - param_table])
            pick = (int)(keys[j] - param_table);
    if (pick >= 0)
        origin_of(o, pick, buf, len);
    return 1;
}

/* The core checks its own definition; each problem is printed here with
 * the keys of its fields and their values, after where the one the user
 * set was set. */
int config_check_origins(const dinghy_settings *settings, const config_origins *o,
                         const char *fallback, diag_list *d)
{
    enum { MAX_PROBLEMS = 32 };
    dinghy_problem problems[MAX_PROBLEMS];
    int rings = scene_of(&settings->scene)->ring_count(&settings->scene);
    int n = sim_def_check(&settings->sim, rings, problems, MAX_PROBLEMS);
    int before = d->count;
    for (int i = 0; i < n && i < MAX_PROBLEMS; i++) {
        const dinghy_problem *p = &problems[i];
        /* the ring count is the scene's, its mesh the ring part's */
        const param_key *k = p->part == SIM_PART_RING_COUNT ? param_find("scene.count")
                                                            : param_for_field(p->part, p->offset);
        sim_def_part related_part = p->part == SIM_PART_RING_COUNT ? SIM_PART_RING : p->part;
        if (!k) {
            diag_add(d, "%s: %s = %g: %s", fallback, p->quantity, p->value, p->reason);
            continue;
        }
        const param_key *keys[3] = {k};
        int nkeys = 1;
        for (int j = 0; j < p->related && j < 2; j++) {
            const param_key *rk = param_for_field(related_part, p->related_offset[j]);
            int seen = !rk;
            for (int m = 0; m < nkeys && !seen; m++)
                seen = keys[m] == rk;
            if (!seen)
                keys[nkeys++] = rk;
        }
        char where[512], values[256] = "";
        if (!where_of(o, fallback, keys, nkeys, where, sizeof where))
            continue; /* a key involved already has an error */
        size_t used = 0;
        for (int j = 0; j < nkeys && used < sizeof values; j++) {
            char value[64];
            param_format(settings, keys[j], value, sizeof value);
            used += (size_t)snprintf(values + used, sizeof values - used, "%s%s = %s",
                                     j ? ", " : "", keys[j]->name, value);
        }
        diag_add(d, "%s: %s: %s", where, values, p->reason);
    }
    return d->count == before ? 0 : -1;
}

/* The warning that k, set at `where`, does nothing (entry e). */
static void warn_inert(diag_list *d, const char *where, const param_key *k, const param_inert *e)
{
    diag_warn(d, "%s: %s does nothing with %s = %s; %s", where, k->name, e->model, e->choice,
              e->job);
}

/* Whether k has the same value in a and b. */
static int same_value(const dinghy_settings *a, const dinghy_settings *b, const param_key *k)
{
    char va[64], vb[64];
    param_format(a, k, va, sizeof va);
    param_format(b, k, vb, sizeof vb);
    return strcmp(va, vb) == 0;
}

void config_edit_warnings(const dinghy_settings *current, const dinghy_settings *next,
                          const char *source, diag_list *d)
{
    for (int i = 0; i < param_table_count; i++) {
        const param_key *k = &param_table[i];
        const param_inert *e = param_inert_under(k, next);
        if (e && !same_value(current, next, k))
            warn_inert(d, source, k, e);
    }
}

void config_inert_warnings(const dinghy_settings *settings, const config_origins *o,
                           const dinghy_settings *before, diag_list *d)
{
    const dinghy_settings defaults = settings_default();
    for (int i = 0; i < param_table_count && i < PARAM_TABLE_MAX; i++) {
        const param_key *k = &param_table[i];
        const param_inert *e = param_inert_under(k, settings);
        char where[300];
        if (!e || !origin_of(o, i, where, sizeof where))
            continue; /* live, or left at its default */
        /* a file line giving the default changes nothing: the shipped
         * dinghy.ini and --print-config list every key */
        if (!o->set[i] && same_value(settings, &defaults, k))
            continue;
        /* already inert before this edit: warn again only for a new value */
        if (before && param_inert_under(k, before) && same_value(settings, before, k))
            continue;
        warn_inert(d, where, k, e);
    }
}

int config_check(const dinghy_settings *settings, const char *where, diag_list *d)
{
    return config_check_origins(settings, NULL, where, d);
}

int config_stability_advice(const sim_def *p, char *buf, size_t len)
{
    int n = p->solver.substeps;
    if (n == 0)
        return 0; /* automatic substeps: always within the bound */
    double bound = sim_def_stable_dt(p), sub = p->solver.dt / n;
    if (!(sub > bound))
        return 0;
    sim_def automatic = *p;
    automatic.solver.substeps = 0;
    char skin[160];
    if (p->ring.skin == SIM_SKIN_MEMBRANE)
        snprintf(skin, sizeof skin, "the membrane of dinghy.youngs_modulus %g Pa and "
                 "dinghy.thickness %g m", p->ring.youngs_modulus, p->ring.thickness);
    else
        snprintf(skin, sizeof skin, "band %d, dinghy.stiffness %g N/m", p->ring.band,
                 p->ring.stiffness);
    snprintf(buf, len, "warning: sim.dt = %g s in sim.substeps = %d is above the explicit "
             "stability bound %.3g s (sqrt(2 m / sum k) for vertex mass %.3g kg, %s, "
             "and the gas, water and skin contact stiffness); use sim.substeps = 0 "
             "(automatic: %d) or at least %d", p->solver.dt, n, bound,
             sim_ring_vertex_mass(&p->ring), skin,
             sim_def_substeps(&automatic), sim_def_substeps(&automatic));
    return 1;
}

/* Writes key k of p with its comment; with `off` (the entry saying it does
 * nothing) commented out, after why. */
static void write_key(const dinghy_settings *p, const dinghy_settings *def, const param_key *k,
                      const param_inert *off, FILE *out)
{
    char value[64], dflt[64], range[96];
    param_format(p, k, value, sizeof value);
    param_format(def, k, dflt, sizeof dflt);
    param_range_text(k, range, sizeof range);
    fprintf(out, "; %s%s%s%s; default %s; allowed %s%s\n", k->doc, *k->unit ? " (" : "", k->unit,
            *k->unit ? ")" : "", dflt, range, param_is_structural(k) ? "; rebuilds the scene" : "");
    if (off)
        fprintf(out, "; does nothing with %s = %s: %s\n", off->model, off->choice, off->job);
    fprintf(out, "%s%s = %s\n", off ? ";" : "", strchr(k->name, '.') + 1, value);
}

/* Whether k is left out of the INI output: it does nothing under p's
 * models and keeps its default (a value the user chose stays, and warns). */
static int left_out(const dinghy_settings *p, const dinghy_settings *def, const param_key *k)
{
    if (!param_inert_under(k, p))
        return 0;
    char value[64], dflt[64];
    param_format(p, k, value, sizeof value);
    param_format(def, k, dflt, sizeof dflt);
    return strcmp(value, dflt) == 0;
}

void config_write_ini(const dinghy_settings *p, FILE *out)
{
    const dinghy_settings def = settings_default();
    fprintf(out, "; dinghy configuration, as written by 'dinghy --print-config'.\n"
                 "; dinghy reads --config FILE, else ./dinghy.ini, else\n"
                 "; $XDG_CONFIG_HOME/dinghy/dinghy.ini (~/.config/dinghy/dinghy.ini).\n"
                 "; Comments start with ';'. Each key: meaning (unit); default; allowed range.\n"
                 "; Keys left out keep their defaults. Saving the file while dinghy runs\n"
                 "; applies it at once; keys marked 'rebuilds the scene' restart the scene.\n"
                 "; Keys of the models not chosen (the seed's springs, constant inflation,\n"
                 "; centre-line repulsion and water) are commented out at the end of their\n"
                 "; section: set one without its model and dinghy warns that it does nothing.\n");
    for (int i = 0; i < param_table_count;) {
        /* one section: its keys in table order, then the ones left out */
        const char *name = param_table[i].name;
        size_t len = (size_t)(strchr(name, '.') - name);
        int end = i;
        while (end < param_table_count && strncmp(param_table[end].name, name, len + 1) == 0)
            end++;
        fprintf(out, "\n[%.*s]\n", (int)len, name);
        int off = 0;
        for (int j = i; j < end; j++) {
            if (left_out(p, &def, &param_table[j]))
                off++;
            else
                write_key(p, &def, &param_table[j], NULL, out);
        }
        if (off)
            fprintf(out, "\n; ---- keys of the models not chosen: each does nothing until its "
                         "model is ----\n");
        for (int j = i; j < end && off; j++)
            if (left_out(p, &def, &param_table[j]))
                write_key(p, &def, &param_table[j], param_inert_under(&param_table[j], p), out);
        i = end;
    }
}
