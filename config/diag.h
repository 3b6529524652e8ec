/* A list of error messages, reported all at once. */
#ifndef DINGHY_DIAG_H
#define DINGHY_DIAG_H

#include <stdio.h>

/* Messages kept at most; a file of garbage reports its first ones and a count. */
#define DIAG_MAX_STORED 100

typedef struct {
    int count;    /* messages added, including any not stored (over the cap, out of memory) */
    int stored;   /* messages kept in lines[] */
    int cap;
    char **lines;
} diag_list;

/* Appends a printf-formatted message (truncated at 511 bytes); past
 * DIAG_MAX_STORED it is only counted. */
void diag_add(diag_list *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Messages printed at most: a file of garbage is told by its first ones. */
#define DIAG_MAX_PRINTED 5

/* Prints the first DIAG_MAX_PRINTED messages, one per line, then "and N
 * more problems" for the rest. */
void diag_print(const diag_list *d, FILE *out);
/* The same with `prefix` ("dinghy: ") before every line. */
void diag_print_prefixed(const diag_list *d, const char *prefix, FILE *out);
void diag_free(diag_list *d);

#endif
