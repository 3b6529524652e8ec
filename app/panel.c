/* The tuning panel: rows from the key table, steps, apply, save. */
#include "app/panel.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/params_table.h"
#include "config/save.h"

/* The keys to use, as the demo maps them (app/demo.c). */
#define PANEL_KEYS_HELP "Up/Down select, Left/Right change (Shift x10), S saves, Tab hides;\n" \
    "mouse: click a row, wheel changes it"

/* Real keys that move by a fixed amount: 1/per per step. Every other real
 * key is a scale quantity (x1.25 per step). */
static const struct {
    const char *key;
    double per;
} additive[] = {
    {"sim.damping", 10}, {"world.gravity", 10}, {"world.air_density", 10},
    {"water.level", 20}, {"water.drag_coefficient", 20}, {"water.lift_coefficient", 20},
    {"water.drag", 10}, {"river.speed", 4}, {"river.waves", 20},
    {"dinghy.repulsion_exponent", 4}, {"dinghy.friction", 20},
    {"dinghy.repulsion_exponent", 4}, {"dinghy.poisson_ratio", 100},
};

struct panel {
    int count, selected;
    int key_width;                      /* longest key name, characters */
    const param_key *rows[PARAM_TABLE_MAX];
    char message[512];                  /* the footer: last change or save */
    const config_source *src;           /* --set flags over the file, or NULL */
};

/* A key of the physics definition that a running simulation takes. */
static int is_live_physics(const param_key *k)
{
    size_t start = offsetof(dinghy_settings, sim);
    return k->offset >= start && k->offset < start + sizeof(sim_def) && !param_is_structural(k);
}

panel *panel_create(void)
{
    panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    for (int i = 0; i < param_table_count && p->count < PARAM_TABLE_MAX; i++)
        if (is_live_physics(&param_table[i])) {
            p->rows[p->count++] = &param_table[i];
            int w = (int)strlen(param_table[i].name);
            p->key_width = w > p->key_width ? w : p->key_width;
        }
    return p;
}

void panel_destroy(panel *p) { free(p); }

void panel_set_source(panel *p, const config_source *src) { p->src = src; }

int panel_rows(const panel *p) { return p->count; }

const char *panel_row_key(const panel *p, int i)
{
    return i >= 0 && i < p->count ? p->rows[i]->name : NULL;
}

int panel_selected(const panel *p) { return p->selected; }

void panel_move(panel *p, int delta)
{
    long s = (long)p->selected + delta;
    p->selected = s < 0 ? 0 : s >= p->count ? p->count - 1 : (int)s;
}

int panel_select_at(panel *p, int line)
{
    int row = line - PANEL_HEADER_LINES;
    if (row < 0 || row >= p->count)
        return -1;
    return p->selected = row;
}

/* ---- steps ---- */

/* 10^n, exact for 0 <= n <= 22. */
static double pow10_exact(int n)
{
    double v = 1.0;
    while (n-- > 0)
        v *= 10.0;
    return v;
}

/* Preferred number k: R10[k mod 10] x 10^(k div 10 - 2), correctly rounded. */
static double preferred(int k)
{
    static const int r10[10] = {100, 125, 160, 200, 250, 315, 400, 500, 630, 800};
    int e = (k >= 0 ? k / 10 : -((-k + 9) / 10)) - 2, i = k - (e + 2) * 10;
    return e >= 0 ? r10[i] * pow10_exact(e) : r10[i] / pow10_exact(-e);
}

/* The preferred number next above (dir > 0) or below (dir < 0) v > 0. */
static double preferred_next(double v, int dir)
{
    int k = (int)floor(log10(v)) * 10;
    if (dir > 0) {
        for (k -= 10; preferred(k) <= v * (1.0 + 1e-9); k++) {}
    } else {
        for (k += 20; preferred(k) >= v * (1.0 - 1e-9); k--) {}
    }
    return preferred(k);
}

static double additive_per(const param_key *k)
{
    for (size_t i = 0; i < sizeof additive / sizeof additive[0]; i++)
        if (strcmp(additive[i].key, k->name) == 0)
            return additive[i].per;
    return 0.0;
}

/* A real key's value after `steps` steps, clamped to its range. */
static double step_double(const param_key *k, double v, int steps)
{
    double per = additive_per(k);
    if (per > 0.0) {
        v = (round(v * per) + steps) / per; /* on multiples of 1/per */
    } else {
        /* A range from 0 ends in 0 below floor_v: the preferred number at or
         * below 1/100 of the default (a millionth of the maximum if that is 0). */
        dinghy_settings def = settings_default();
        double d = *(const double *)((const char *)&def + k->offset);
        double floor_v = k->min > 0.0 ? k->min
                         : preferred_next((d > 0.0 ? d / 100.0 : k->max * 1e-6) * 1.000001, -1);
        for (int i = 0; i < abs(steps); i++) {
            if (steps > 0)
                v = v < floor_v ? floor_v : preferred_next(v, 1);
            else
                v = v <= floor_v ? k->min : preferred_next(v, -1);
        }
    }
    return v < k->min ? k->min : v > k->max ? k->max : v;
}

/* Sets the selected key of s `steps` steps on. */
static void step_key(const param_key *k, dinghy_settings *s, int steps)
{
    char *field = (char *)s + k->offset;
    switch (k->type) {
    case PK_DOUBLE:
        *(double *)field = step_double(k, *(double *)field, steps);
        break;
    case PK_INT: {
        long v = (long)*(int *)field + steps;
        *(int *)field = (int)(v < k->min ? k->min : v > k->max ? k->max : v);
        break;
    }
    case PK_CHOICE: {
        int n = 0;
        while (k->choice(n))
            n++;
        int v = (*(int *)field + steps % n + n) % n; /* choices go round */
        *(int *)field = v;
        break;
    }
    case PK_U64: /* only sim.seed, which is structural: never a row */
        break;
    }
}

reload_result panel_change(panel *p, int steps, dinghy_settings *settings, dinghy_sim **sim,
                           reload_report *rep)
{
    const param_key *k = p->rows[p->selected];
    dinghy_settings next = *settings;
    step_key(k, &next, steps);
    char from[64], to[64], range[96];
    param_format(settings, k, from, sizeof from);
    param_format(&next, k, to, sizeof to);
    reload_result rr = reload_apply(settings, &next, sim, rep, "panel");
    switch (rr) {
    case RELOAD_SAME:
        param_range_text(k, range, sizeof range);
        snprintf(p->message, sizeof p->message, "%s stays %s (allowed: %s)", k->name, from, range);
        break;
    case RELOAD_REJECTED:
        snprintf(p->message, sizeof p->message, "%s %s not applied: %.400s", k->name, to,
                 rep->errors.stored ? rep->errors.lines[0] : rep->summary);
        break;
    default: {
        /* a key that does nothing under the models chosen: reload_apply's warning */
        const char *inert = rep->errors.warnings && rep->errors.stored ? rep->errors.lines[0] : "";
        if (strncmp(inert, "panel: ", 7) == 0)
            inert += 7;
        snprintf(p->message, sizeof p->message, "%s %s -> %s%s%.200s%s%.250s", k->name, from, to,
                 *inert ? "; " : "", inert, rep->warning[0] ? "; " : "", rep->warning);
        break;
    }
    }
    return rr;
}

/* ---- text ---- */

/* Appends printf text to buf at *used, stopping at len. */
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

/* Footer lines wrap at spaces past this many characters. */
#define FOOTER_COLUMNS 72

void panel_format(const panel *p, const dinghy_settings *s, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    add(buf, len, &used, "TUNING (live: changes act at once)\n%s\n", PANEL_KEYS_HELP);
    for (int i = 0; i < p->count; i++) {
        char value[64];
        param_format(s, p->rows[i], value, sizeof value);
        const char *unit = p->rows[i]->unit;
        add(buf, len, &used, "%s%-*s %10s%s%s\n", i == p->selected ? "> " : "  ", p->key_width,
            p->rows[i]->name, value, *unit ? " " : "", unit);
    }
    /* the message, wrapped; at most 600 bytes of it */
    const char *m = p->message;
    for (int lines = 0; *m && lines < 8; lines++) {
        size_t n = strlen(m);
        if (n > FOOTER_COLUMNS) {
            const char *cut = m + FOOTER_COLUMNS;
            while (cut > m && *cut != ' ')
                cut--;
            if (cut - m > 6 && strncmp(cut - 5, "--set", 5) == 0)
                cut -= 6; /* a flag and its value stay on one line */
            n = cut > m ? (size_t)(cut - m) : FOOTER_COLUMNS;
        }
        add(buf, len, &used, "%.*s\n", (int)n, m);
        m += n;
        while (*m == ' ')
            m++;
    }
    if (used && buf[used - 1] == '\n')
        buf[--used] = '\0';
}

/* ---- save ---- */

/* Writes the message into msg and the footer; returns rc. */
static int say(panel *p, char *msg, size_t len, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int say(panel *p, char *msg, size_t len, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->message, sizeof p->message, fmt, ap);
    va_end(ap);
    if (msg && len) {
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return rc;
}

int panel_save(panel *p, const dinghy_settings *s, const char *config_path, char *msg,
               size_t len)
{
    if (!config_path) {
        char flags[4096];
        if (config_set_flags(s, flags, sizeof flags) == 0)
            return say(p, msg, len, 0, "no config file in use; the values are the defaults");
        return say(p, msg, len, 0, "no config file in use; these flags give the values: %s",
                   flags);
    }
    char line[2048];
    int rc = config_save_file(config_path, s, p->src, line, sizeof line);
    return say(p, msg, len, rc, "%s", line);
}
