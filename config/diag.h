/* A list of error messages, reported all at once. */
#ifndef DINGHY_DIAG_H
#define DINGHY_DIAG_H

#include <stdio.h>

typedef struct {
    int count;    /* messages added, including any dropped for lack of memory */
    int stored;   /* messages kept in lines[] */
    int cap;
    char **lines;
} diag_list;

/* Appends a printf-formatted message (truncated at 511 bytes). */
void diag_add(diag_list *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints every stored message, one per line. */
void diag_print(const diag_list *d, FILE *out);
void diag_free(diag_list *d);

#endif
