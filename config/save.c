/* Settings back into a config file's text, changing only the values.
 *
 * The line scanner reads lines as the loader (ini.c) does: a byte order
 * mark on line 1, CRLF ends, indentation, `[section]`, ';' or '#'
 * comments, `key = value` with an inline comment after " ;". The text is
 * required to load cleanly first, so every key line it finds is one the
 * loader took; the result is loaded again and compared before it is
 * handed out. */
#include "config/save.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/build.h"
#include "config/config.h"
#include "config/params_table.h"
#include "config/tmp_file.h"

#define SECTIONS_MAX 16

/* A line of the text: [start, end) without its line end. */
typedef struct {
    const char *start, *end;
} line_span;

typedef struct {
    char *buf;
    size_t used, cap;
} out_text;

static int put(out_text *o, const char *data, size_t n)
{
    if (o->used + n + 1 > o->cap) {
        size_t cap = (o->used + n + 1) * 2;
        char *b = realloc(o->buf, cap);
        if (!b)
            return -1;
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->used, data, n);
    o->used += n;
    o->buf[o->used] = '\0';
    return 0;
}

static int put_str(out_text *o, const char *s) { return put(o, s, strlen(s)); }

/* Ends the text so far with a line end, unless it is empty or ends so. */
static int end_line(out_text *o, const char *eol)
{
    return o->used && o->buf[o->used - 1] != '\n' ? put_str(o, eol) : 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* The section of key k ("dinghy" of "dinghy.stiffness") into buf. */
static void section_of(const param_key *k, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)strcspn(k->name, "."), k->name);
}

/* What a line is, as the loader reads it. */
typedef struct {
    int is_section;           /* a [section] header: `name` is its name */
    const param_key *key;     /* a known `key = value` line, else NULL */
    const char *value, *value_end; /* the value's bytes in the line */
    char name[64];
} line_kind;

static void scan_line(const char *b, const char *e, const char *section, line_kind *out)
{
    memset(out, 0, sizeof *out);
    if (e - b >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0)
        b += 3;
    while (b < e && is_blank(*b))
        b++;
    while (e > b && is_blank(e[-1]))
        e--;
    if (b == e || *b == ';' || *b == '#')
        return;
    if (*b == '[') {
        const char *close = memchr(b, ']', (size_t)(e - b));
        if (close) {
            out->is_section = 1;
            snprintf(out->name, sizeof out->name, "%.*s", (int)(close - b - 1), b + 1);
        }
        return;
    }
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq || eq == b)
        return;
    const char *kend = eq;
    while (kend > b && is_blank(kend[-1]))
        kend--;
    char full[160];
    snprintf(full, sizeof full, "%s.%.*s", section, (int)(kend - b), b);
    out->key = param_find(full);
    const char *v = eq + 1;
    while (v < e && is_blank(*v))
        v++;
    const char *ve = v;
    while (ve < e && !(*ve == ';' && ve > v && is_blank(ve[-1]))) /* inih's inline comment */
        ve++;
    while (ve > v && is_blank(ve[-1]))
        ve--;
    out->value = v;
    out->value_end = ve;
}

/* Splits text into lines; returns how many (the spans malloc'd into *lines). */
static int split_lines(const char *text, size_t len, line_span **lines, int *crlf)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    n += len && text[len - 1] != '\n';
    *lines = malloc(((size_t)n + 1) * sizeof **lines);
    if (!*lines)
        return -1;
    *crlf = 0;
    const char *p = text, *end = text + len;
    for (int i = 0; i < n; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (i == 0 && nl && e > p && e[-1] == '\r')
            *crlf = 1;
        (*lines)[i].start = p;
        (*lines)[i].end = e > p && e[-1] == '\r' ? e - 1 : e;
        p = nl ? nl + 1 : end;
    }
    return n;
}

/* Index of section `name` in the list, added when new; -1 when full. */
static int section_index(char names[][64], int *count, const char *name)
{
    for (int i = 0; i < *count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    if (*count == SECTIONS_MAX)
        return -1;
    snprintf(names[*count], 64, "%s", name);
    return (*count)++;
}

/* Writes `key = value` lines for the keys of section sec that differ and
 * are not in the text. */
static int put_missing(out_text *o, const char *sec, const unsigned char *missing,
                       const dinghy_settings *s, const char *eol)
{
    for (int i = 0; i < param_table_count; i++) {
        char ks[64], value[64];
        section_of(&param_table[i], ks, sizeof ks);
        if (!missing[i] || strcmp(ks, sec) != 0)
            continue;
        param_format(s, &param_table[i], value, sizeof value);
        if (end_line(o, eol) || put_str(o, strchr(param_table[i].name, '.') + 1) || put_str(o, " = ")
            || put_str(o, value) || put_str(o, eol))
            return -1;
    }
    return 0;
}

/* The rewrite itself, given the text's own settings `old`. */
static int rewrite(const char *text, size_t len, const dinghy_settings *old,
                   const dinghy_settings *s, out_text *o)
{
    line_span *lines;
    int crlf, n = split_lines(text, len, &lines, &crlf);
    if (n < 0)
        return -1;
    const char *eol = crlf ? "\r\n" : "\n";
    unsigned char differs[PARAM_TABLE_MAX] = {0}, missing[PARAM_TABLE_MAX] = {0};
    for (int i = 0; i < param_table_count; i++) {
        char a[64], b[64];
        param_format(old, &param_table[i], a, sizeof a);
        param_format(s, &param_table[i], b, sizeof b);
        differs[i] = missing[i] = strcmp(a, b) != 0;
    }
    /* Pass 1: which changed keys the text has, and the line after which
     * each section's missing keys go (its last key, else its header). */
    char names[SECTIONS_MAX][64];
    int nsec = 0, after[SECTIONS_MAX];
    char section[64] = "";
    line_kind lk;
    for (int i = 0; i < n; i++) {
        scan_line(lines[i].start, lines[i].end, section, &lk);
        if (lk.is_section) {
            snprintf(section, sizeof section, "%s", lk.name);
            int si = section_index(names, &nsec, section);
            if (si >= 0)
                after[si] = i;
        } else if (lk.key) {
            missing[lk.key - param_table] = 0;
            int si = section_index(names, &nsec, section);
            if (si >= 0)
                after[si] = i;
        }
    }
    /* Pass 2: the lines, with new values and the missing keys. */
    int rc = 0;
    section[0] = '\0';
    for (int i = 0; i < n && rc == 0; i++) {
        const line_span *l = &lines[i];
        scan_line(l->start, l->end, section, &lk);
        if (lk.is_section)
            snprintf(section, sizeof section, "%s", lk.name);
        if (lk.key && differs[lk.key - param_table]) {
            char value[64];
            param_format(s, lk.key, value, sizeof value);
            rc |= put(o, l->start, (size_t)(lk.value - l->start));
            rc |= put_str(o, value);
            rc |= put(o, lk.value_end, (size_t)(l->end - lk.value_end));
        } else {
            rc |= put(o, l->start, (size_t)(l->end - l->start));
        }
        const char *next = i + 1 < n ? lines[i + 1].start : text + len;
        rc |= put(o, l->end, (size_t)(next - l->end)); /* the line end as it was */
        for (int si = 0; si < nsec && rc == 0; si++)
            if (after[si] == i)
                rc |= put_missing(o, names[si], missing, s, eol);
    }
    free(lines);
    /* Sections the text lacks: new ones at the end, in table order. */
    for (int i = 0; i < param_table_count && rc == 0; i++) {
        char sec[64];
        section_of(&param_table[i], sec, sizeof sec);
        int known = 0;
        for (int si = 0; si < nsec; si++)
            known |= strcmp(names[si], sec) == 0;
        if (!missing[i] || known)
            continue;
        rc |= section_index(names, &nsec, sec) < 0;
        rc |= end_line(o, eol) || put_str(o, o->used ? eol : "") || put_str(o, "[") || put_str(o, sec)
              || put_str(o, "]") || put_str(o, eol) || put_missing(o, sec, missing, s, eol);
    }
    return rc ? -1 : 0;
}

int config_save_text(const char *name, const char *text, size_t len, const dinghy_settings *s,
                     char **out, size_t *out_len, char *changed, size_t changed_len,
                     diag_list *d)
{
    *out = NULL;
    *out_len = 0;
    dinghy_settings old = settings_default();
    int before = d->count;
    if (config_load_text(&old, name, text, len, d) != 0) {
        diag_add(d, "%s has %d error%s; not rewritten (fix it first)", name, d->count - before,
                 d->count - before == 1 ? "" : "s");
        return -1;
    }
    int count = config_diff(&old, s, changed, changed_len, NULL);
    out_text o = {0};
    if (rewrite(text, len, &old, s, &o) != 0) {
        free(o.buf);
        diag_add(d, "%s: out of memory", name);
        return -1;
    }
    /* The proof: the new text loads as s, or it is not handed out. */
    dinghy_settings back = settings_default();
    char diff[256];
    if (config_load_text(&back, name, o.buf ? o.buf : "", o.used, d) != 0
        || config_diff(&back, s, diff, sizeof diff, NULL) != 0) {
        if (d->count == before)
            diag_add(d, "%s: the rewritten text would load differently (%s); not rewritten",
                     name, diff);
        free(o.buf);
        return -1;
    }
    *out = o.buf ? o.buf : calloc(1, 1);
    *out_len = o.used;
    if (!*out) {
        diag_add(d, "%s: out of memory", name);
        return -1;
    }
    return count;
}

int config_set_flags(const dinghy_settings *s, char *buf, size_t len)
{
    const dinghy_settings def = settings_default();
    int count = 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < param_table_count; i++) {
        char a[64], b[64];
        param_format(&def, &param_table[i], a, sizeof a);
        param_format(s, &param_table[i], b, sizeof b);
        if (strcmp(a, b) == 0)
            continue;
        count++;
        char item[160];
        int n = snprintf(item, sizeof item, "%s--set %s=%s", used ? " " : "", param_table[i].name, b);
        if (used + (size_t)n + 5 < len) {
            memcpy(buf + used, item, (size_t)n + 1);
            used += (size_t)n;
        } else if (used + 5 <= len && !strstr(buf, " ...")) {
            snprintf(buf + used, len - used, " ...");
            used += 4;
        }
    }
    return count;
}

/* ---- the file ---- */

/* Writes text to path whole or not at all: into a temporary file beside
 * it (PATH.PID.tmp), with mode's permissions, synced, then renamed over
 * path. Returns 0, or -1 with errno (and no temporary file left). */
static int write_whole(const char *path, const char *text, size_t len, const struct stat *mode)
{
    char tmp[PATH_MAX + 32];
    FILE *f = tmp_file_open(path, tmp, sizeof tmp);
    if (!f)
        return -1;
    int bad = fwrite(text, 1, len, f) != len || fflush(f) != 0
              || (mode && fchmod(fileno(f), mode->st_mode & 07777) != 0) || fsync(fileno(f)) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad)
        return tmp_file_rename(tmp, path);
    unlink(tmp);
    errno = e ? e : EIO;
    return -1;
}

/* When path is a symbolic link (or a chain of them), the file it names in
 * the end, into out; returns 1, or 0 when path is no link (or a loop). */
static int link_target(const char *path, char *out, size_t len)
{
    char cur[PATH_MAX], next[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    struct stat st;
    int hops = 0;
    for (; hops < 40 && lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
        ssize_t n = readlink(cur, next, sizeof next - 1);
        if (n < 0)
            return 0;
        next[n] = '\0';
        const char *slash = strrchr(cur, '/');
        if (next[0] == '/' || !slash) /* absolute, or relative to the current directory */
            snprintf(cur, sizeof cur, "%s", next);
        else /* relative to the link's directory */
            snprintf(cur + (slash - cur) + 1, sizeof cur - (size_t)(slash - cur) - 1, "%s", next);
    }
    if (hops == 0 || hops == 40)
        return 0;
    snprintf(out, len, "%s", cur);
    return 1;
}

static size_t field_size(const param_key *k)
{
    return k->type == PK_DOUBLE ? sizeof(double) : k->type == PK_U64 ? sizeof(uint64_t)
                                                                       : sizeof(int);
}

/* What to write into a file whose text loads as `file`: s, but for keys
 * that a --set of src fixes at the value s has (those keep the file's
 * value). Names the --set keys s moved away from in `overridden`. */
static dinghy_settings to_write(const dinghy_settings *s, const dinghy_settings *file,
                                const config_source *src, char *overridden, size_t len)
{
    dinghy_settings want = *s, flags = *s;
    diag_list d = {0};
    size_t used = 0;
    overridden[0] = '\0';
    for (int i = 0; src && i < src->nsets; i++)
        config_set_assignment(&flags, src->sets[i], &d);
    diag_free(&d);
    for (int i = 0; src && i < src->nsets; i++) {
        char name[128], a[64], b[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(src->sets[i], "="), src->sets[i]);
        const param_key *k = param_find(name);
        if (!k)
            continue;
        param_format(s, k, a, sizeof a);
        param_format(&flags, k, b, sizeof b);
        if (strcmp(a, b) == 0)
            memcpy((char *)&want + k->offset, (const char *)file + k->offset, field_size(k));
        else if (used + strlen(src->sets[i]) + 10 < len)
            used += (size_t)snprintf(overridden + used, len - used, " --set %s", src->sets[i]);
    }
    return want;
}

/* The settings the text gives (defaults where it fails: then
 * config_save_text reports why). */
static void file_settings(const char *name, const char *text, size_t len, dinghy_settings *out)
{
    diag_list d = {0};
    *out = settings_default();
    config_load_text(out, name, text ? text : "", len, &d);
    diag_free(&d);
}

int config_save_file(const char *config_path, const dinghy_settings *s, const config_source *src,
                     char *msg, size_t len)
{
    /* A link stays a link: the file it points to is rewritten. */
    char target[PATH_MAX];
    const char *path = link_target(config_path, target, sizeof target) ? target : config_path;
    struct stat st;
    int exists = stat(path, &st) == 0;
    char *text = NULL, *out = NULL;
    size_t text_len = 0, out_len = 0;
    diag_list d = {0};
    char changed[400], overridden[256];
    int rc = -1;
    if (exists && config_read_file(path, &text, &text_len, &d) != 0) {
        snprintf(msg, len, "not saved: %s", d.stored ? d.lines[0] : "cannot read the file");
        diag_free(&d);
        return -1;
    }
    dinghy_settings file;
    file_settings(config_path, text, text_len, &file);
    dinghy_settings want = to_write(s, &file, src, overridden, sizeof overridden);
    if (config_save_text(config_path, text ? text : "", text_len, &want, &out, &out_len,
                         changed, sizeof changed, &d) < 0) {
        snprintf(msg, len, "not saved: %s", d.stored ? d.lines[0] : "out of memory");
    } else if (exists && out_len == text_len && memcmp(out, text, out_len) == 0) {
        rc = 0;
        snprintf(msg, len, "%s already holds these values%s%s", config_path,
                 overridden[0] ? "; still overridden by" : "", overridden);
    } else if (write_whole(path, out, out_len, exists ? &st : NULL) != 0) {
        snprintf(msg, len, "not saved: cannot write %s: %s; the file is as it was", path,
                 strerror(errno));
    } else {
        rc = 0;
        snprintf(msg, len, "saved %s%s%s: %s%s%s", config_path, path == target ? " -> " : "",
                 path == target ? target : "", changed,
                 overridden[0] ? "; still overridden by" : "", overridden);
    }
    free(text);
    free(out);
    diag_free(&d);
    return rc;
}
