/* A growable list of error messages. */
#include "config/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_add(diag_list *d, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    d->count++;
    if (d->stored >= DIAG_MAX_STORED)
        return;
    if (d->stored == d->cap) {
        int cap = d->cap ? 2 * d->cap : 8;
        char **lines = realloc(d->lines, sizeof *lines * (size_t)cap);
        if (!lines)
            return;
        d->lines = lines;
        d->cap = cap;
    }
    size_t n = strlen(buf) + 1;
    char *copy = malloc(n);
    if (!copy)
        return;
    memcpy(copy, buf, n);
    d->lines[d->stored++] = copy;
}

void diag_print(const diag_list *d, FILE *out)
{
    diag_print_prefixed(d, "", out);
}

void diag_print_prefixed(const diag_list *d, const char *prefix, FILE *out)
{
    int shown = d->stored < DIAG_MAX_PRINTED ? d->stored : DIAG_MAX_PRINTED;
    for (int i = 0; i < shown; i++)
        fprintf(out, "%s%s\n", prefix, d->lines[i]);
    if (d->count > shown)
        fprintf(out, "%sand %d more problem%s (fix these first)\n", prefix, d->count - shown,
                d->count - shown == 1 ? "" : "s");
}

void diag_free(diag_list *d)
{
    for (int i = 0; i < d->stored; i++)
        free(d->lines[i]);
    free(d->lines);
    memset(d, 0, sizeof *d);
}
