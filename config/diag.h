/* A list of error messages, reported all at once, and of warnings: lines
 * that are printed with them but stop nothing (a key that does nothing
 * under the models chosen). count counts errors only, so "no new errors"
 * stays d->count == before. */
#ifndef DINGHY_DIAG_H
#define DINGHY_DIAG_H

#include <stdio.h>

/* Messages kept at most; a file of garbage reports its first ones and a count. */
#define DIAG_MAX_STORED 100

typedef struct {
    int count;    /* errors added, including any not stored (over the cap, out of memory) */
    int stored;   /* messages kept in lines[], errors and warnings in the order added */
    int cap;
    char **lines;
    unsigned char *warning; /* per line of lines[]: 1 for a warning */
    int warnings; /* warnings added (not in count) */
} diag_list;

/* Appends a printf-formatted message (truncated at 511 bytes); past
 * DIAG_MAX_STORED it is only counted. */
void diag_add(diag_list *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends a warning: stored and printed like an error, not counted in count. */
void diag_warn(diag_list *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Moves the warnings of from to the end of to (from keeps its errors). */
void diag_move_warnings(diag_list *to, diag_list *from);
/* Removes the warnings of d (its errors stay). */
void diag_drop_warnings(diag_list *d);
/* Messages printed at most: a file of garbage is told by its first ones. */
#define DIAG_MAX_PRINTED 5

/* Prints the first DIAG_MAX_PRINTED errors and every warning, one per line,
 * in the order added, then "and N more problems" for the errors left out. */
void diag_print(const diag_list *d, FILE *out);
/* The same with `prefix` ("dinghy: ") before every line. */
void diag_print_prefixed(const diag_list *d, const char *prefix, FILE *out);
void diag_free(diag_list *d);

#endif
