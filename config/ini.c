/* INI text to settings, with inih. One parsing path: files are read into
 * memory and parsed as text, the same way the fuzz target feeds it.
 *
 * inih splits lines into sections, keys and values; our line reader looks at
 * each line first and reports what inih would pass over or misread: lines
 * that are not `key = value`, control characters, unknown sections, lines
 * too long for inih's buffer. Such a line reaches inih blank, and the keys
 * under an unknown section are skipped (their section was reported once). */
#include "config/config.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "config/origins.h"
#include "config/params_table.h"

/* Longer lines are not even copied: no config line is anywhere near. */
#define RAW_LINE_MAX 4096

typedef struct {
    const char *name;       /* the file's name in messages */
    const char *text;
    size_t len, pos;        /* the text and the reader's place in it */
    int line;               /* number of the line inih is looking at */
    char section[64];       /* current section, "" before the first */
    int section_ok;         /* 0 under an unknown or malformed [section] */
    dinghy_settings *p;
    config_origins *o;
    diag_list *d;
    int seen_line[PARAM_TABLE_MAX]; /* line a key was first set on; 0 = not yet */
} ini_state;

static int section_known(const char *name)
{
    size_t len = strlen(name);
    for (int i = 0; i < param_table_count; i++)
        if (strncmp(param_table[i].name, name, len) == 0 && param_table[i].name[len] == '.')
            return 1;
    return 0;
}

/* The known section closest to `name` by edit distance, or NULL. */
static const char *suggest_section(const char *name, char *buf, size_t len)
{
    int best_d = strlen(name) < 6 ? 2 : 3;
    const char *best = NULL;
    for (int i = 0; i < param_table_count; i++) {
        const char *full = param_table[i].name;
        char section[64];
        snprintf(section, sizeof section, "%.*s", (int)strcspn(full, "."), full);
        int dist = param_edit_distance(name, section);
        if (dist < best_d) {
            best_d = dist;
            snprintf(buf, len, "%s", section);
            best = buf;
        }
    }
    return best;
}

/* Checks a "[name] ; comment" line, s without leading or trailing blanks.
 * Returns 1 and the bare "[name]" in out when the section is known. */
static int check_section(ini_state *st, const char *s, char *out, size_t out_len)
{
    const char *close = strchr(s, ']');
    if (!close) {
        diag_add(st->d, "%s:%d: section header '%.60s' has no closing ']'", st->name, st->line, s);
        return 0;
    }
    const char *rest = close + 1;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (*rest && *rest != ';' && *rest != '#') {
        diag_add(st->d, "%s:%d: unexpected text '%.60s' after the section header", st->name,
                 st->line, rest);
        return 0;
    }
    char name[64];
    size_t n = (size_t)(close - s - 1);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, s + 1, n);
    name[n] = '\0';
    if (!section_known(name)) {
        char buf[64];
        const char *hint = suggest_section(name, buf, sizeof buf);
        if (hint)
            diag_add(st->d, "%s:%d: unknown section [%s]; did you mean [%s]?", st->name, st->line,
                     name, hint);
        else
            diag_add(st->d, "%s:%d: unknown section [%s]; sections are %s", st->name, st->line,
                     name, param_sections_text());
        return 0;
    }
    snprintf(st->section, sizeof st->section, "%s", name);
    snprintf(out, out_len, "[%s]", name);
    return 1;
}

/* Is s "key = value": an '=' with a key before it and no ':' (which inih
 * would also take as the separator) or comment ahead of it? */
static int is_assignment(const char *s)
{
    size_t eq = strcspn(s, "=:;#"); /* no key has ';' or '#': a comment before the '=' */
    return s[eq] == '=' && eq > 0;
}

/* Reads one line for inih (see the top of the file). */
static char *ini_read_line(char *str, int num, void *stream)
{
    ini_state *st = stream;
    if (st->pos >= st->len)
        return NULL;
    const char *b = st->text + st->pos;
    const char *nl = memchr(b, '\n', st->len - st->pos);
    size_t n = nl ? (size_t)(nl - b) : st->len - st->pos;
    st->pos += n + (nl != NULL);
    st->line++;
    snprintf(str, (size_t)num, "\n");
    if (n > RAW_LINE_MAX) {
        diag_add(st->d, "%s:%d: line too long (over %d characters)", st->name, st->line, num - 2);
        size_t lead = 0;
        while (lead < n && (b[lead] == ' ' || b[lead] == '\t'))
            lead++;
        if (lead < n && b[lead] == '[')
            st->section_ok = 0; /* keys below belong to no known section */
        return str;
    }
    char line[RAW_LINE_MAX + 1];
    memcpy(line, b, n);
    line[n] = '\0';
    char *s = line;
    if (st->line == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3; /* UTF-8 byte order mark */
    char *end = line + n;
    if (end > s && end[-1] == '\r')
        *--end = '\0'; /* CRLF line ends */
    for (char *c = s; c < end; c++) {
        unsigned char u = (unsigned char)*c;
        if ((u < 0x20 && u != '\t') || u == 0x7f) {
            diag_add(st->d, "%s:%d: control character 0x%02x in column %d; is this a text file?",
                     st->name, st->line, u, (int)(c - line) + 1);
            return str;
        }
    }
    while (*s == ' ' || *s == '\t') /* indentation never means a continuation line */
        s++;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    if ((size_t)(end - s) + 2 > (size_t)num) {
        diag_add(st->d, "%s:%d: line too long (over %d characters)", st->name, st->line, num - 2);
        if (*s == '[')
            st->section_ok = 0; /* keys below belong to no known section */
        return str;
    }
    if (*s == '\0' || *s == ';' || *s == '#')
        return str;
    if (*s == '[') {
        char header[80];
        st->section_ok = check_section(st, s, header, sizeof header);
        if (st->section_ok)
            snprintf(str, (size_t)num, "%s\n", header);
        return str;
    }
    if (!is_assignment(s)) {
        diag_add(st->d, "%s:%d: expected 'key = value', '[section]' or a ';' comment, got '%.60s'",
                 st->name, st->line, s);
        return str;
    }
    snprintf(str, (size_t)num, "%s\n", s);
    return str;
}

static int ini_on_key(void *user, const char *section, const char *key, const char *value)
{
    (void)section; /* the reader tracks it: inih never sees a bad header */
    ini_state *st = user;
    if (!st->section_ok)
        return 1;
    char where[512], name[256];
    snprintf(where, sizeof where, "%s:%d", st->name, st->line);
    if (!st->section[0]) {
        diag_add(st->d, "%s: key '%s' is outside any [section]; put it under one of %s", where,
                 key, param_sections_text());
        return 1;
    }
    snprintf(name, sizeof name, "%s.%s", st->section, key);
    const param_key *k = param_find(name);
    int idx = k && k - param_table < PARAM_TABLE_MAX ? (int)(k - param_table) : -1;
    if (idx >= 0 && st->seen_line[idx]) {
        diag_add(st->d, "%s: duplicate key %s (first set on line %d)", where, name,
                 st->seen_line[idx]);
        return 1;
    }
    int rc = config_set(st->p, name, value, where, st->d);
    if (idx >= 0) {
        st->seen_line[idx] = st->line;
        if (st->o) {
            st->o->line[idx] = st->line;
            st->o->set[idx] = NULL;
            st->o->failed[idx] = rc != 0;
        }
    }
    return 1;
}

int config_parse_ini(dinghy_settings *p, const char *name, const char *text, size_t len,
                     config_origins *o, diag_list *d)
{
    ini_state *st = calloc(1, sizeof *st);
    if (!st) {
        diag_add(d, "%s: out of memory", name);
        return -1;
    }
    st->name = name;
    st->text = text;
    st->len = len;
    st->section_ok = 1;
    st->p = p;
    st->o = o;
    st->d = d;
    if (o)
        o->file = name;
    int before = d->count;
    int rc = ini_parse_stream(ini_read_line, st, ini_on_key, st);
    if (rc > 0 && d->count == before) /* inih's own complaint; the reader should catch all */
        diag_add(d, "%s:%d: cannot parse this line", name, rc);
    else if (rc < 0)
        diag_add(d, "%s: out of memory", name);
    free(st);
    return d->count == before ? 0 : -1;
}

int config_load_text(dinghy_settings *p, const char *name, const char *text, size_t len,
                     diag_list *d)
{
    dinghy_settings work = *p;
    if (config_parse_ini(&work, name, text, len, NULL, d) != 0)
        return -1;
    *p = work;
    return 0;
}

int config_read_file(const char *path, char **text, size_t *len, diag_list *d)
{
    *text = NULL;
    *len = 0;
    if (!path[0]) {
        diag_add(d, "config file name is empty");
        return -1;
    }
    /* O_NONBLOCK: a FIFO (or a device) must not hang the open; only a
     * regular file is read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        diag_add(d, "%s: cannot open config file: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                         : S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
        diag_add(d, "%s: is %s, not a config file; give a regular INI file", path, what);
        close(fd);
        return -1;
    }
    char *buf = malloc(CONFIG_MAX_FILE_BYTES + 1);
    if (!buf) {
        close(fd);
        diag_add(d, "%s: out of memory", path);
        return -1;
    }
    size_t used = 0;
    /* One byte more than allowed tells a file that is too large. */
    while (used <= CONFIG_MAX_FILE_BYTES) {
        ssize_t got = read(fd, buf + used, CONFIG_MAX_FILE_BYTES + 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            diag_add(d, "%s: cannot read config file: %s", path, strerror(errno));
            close(fd);
            free(buf);
            return -1;
        }
        if (got == 0)
            break;
        used += (size_t)got;
    }
    close(fd);
    if (used > CONFIG_MAX_FILE_BYTES) {
        diag_add(d, "%s: larger than %d MiB; is this a config file?", path,
                 CONFIG_MAX_FILE_BYTES / (1024 * 1024));
        free(buf);
        return -1;
    }
    *text = buf;
    *len = used;
    return 0;
}

int config_load_file(dinghy_settings *p, const char *path, diag_list *d)
{
    char *text;
    size_t len;
    if (config_read_file(path, &text, &len, d) != 0)
        return -1;
    int rc = config_load_text(p, path, text, len, d);
    free(text);
    return rc;
}
