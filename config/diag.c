/* A growable list of error messages and warnings. */
#include "config/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Stores a copy of text as a line of d; 0 when there was no room. */
static void store(diag_list *d, const char *text, unsigned char warning)
{
    if (d->stored >= DIAG_MAX_STORED)
        return;
    if (d->stored == d->cap) {
        int cap = d->cap ? 2 * d->cap : 8;
        char **lines = realloc(d->lines, sizeof *lines * (size_t)cap);
        if (!lines)
            return;
        d->lines = lines;
        unsigned char *kinds = realloc(d->warning, (size_t)cap);
        if (!kinds)
            return;
        d->warning = kinds;
        d->cap = cap;
    }
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (!copy)
        return;
    memcpy(copy, text, n);
    d->warning[d->stored] = warning;
    d->lines[d->stored++] = copy;
}

/* Formats a line (truncated at 511 bytes), counts it as an error or a
 * warning and stores it. */
static void add(diag_list *d, unsigned char warning, const char *fmt, va_list ap)
{
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (warning)
        d->warnings++;
    else
        d->count++;
    store(d, buf, warning);
}

void diag_add(diag_list *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, 0, fmt, ap);
    va_end(ap);
}

void diag_warn(diag_list *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, 1, fmt, ap);
    va_end(ap);
}

void diag_move_warnings(diag_list *to, diag_list *from)
{
    int kept = 0;
    for (int i = 0; i < from->stored; i++) {
        if (from->warning[i]) {
            to->warnings++;
            store(to, from->lines[i], 1);
            free(from->lines[i]);
        } else {
            from->warning[kept] = 0;
            from->lines[kept++] = from->lines[i];
        }
    }
    from->stored = kept;
    from->warnings = 0;
}

void diag_drop_warnings(diag_list *d)
{
    diag_list dropped = {0};
    diag_move_warnings(&dropped, d);
    diag_free(&dropped);
}

void diag_print(const diag_list *d, FILE *out)
{
    diag_print_prefixed(d, "", out);
}

void diag_print_prefixed(const diag_list *d, const char *prefix, FILE *out)
{
    int shown = 0;
    for (int i = 0; i < d->stored; i++) {
        if (!d->warning[i] && shown == DIAG_MAX_PRINTED)
            continue;
        shown += !d->warning[i];
        fprintf(out, "%s%s\n", prefix, d->lines[i]);
    }
    if (d->count > shown)
        fprintf(out, "%sand %d more problem%s (fix these first)\n", prefix, d->count - shown,
                d->count - shown == 1 ? "" : "s");
}

void diag_free(diag_list *d)
{
    for (int i = 0; i < d->stored; i++)
        free(d->lines[i]);
    free(d->lines);
    free(d->warning);
    memset(d, 0, sizeof *d);
}
