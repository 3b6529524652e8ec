/* One problem with a definition, the single form every definition check
 * (sim_def_check, river_def_check, spray_def_check) reports in: which field
 * (byte offset within the checked struct, or within one part of it), the
 * quantity in words, its value, the allowed range and why. The config
 * layer maps a field back to its INI key; nobody parses text. */
#ifndef DINGHY_PROBLEM_H
#define DINGHY_PROBLEM_H

#include <stddef.h>

typedef struct {
    int part;             /* which part of a definition made of parts (sim_def_part
                             for sim_def_check); 0 for a definition of one part */
    size_t offset;        /* offsetof(the part's struct, field) */
    const char *quantity; /* e.g. "spring band B" */
    double value;
    double min, max;      /* allowed range; NaN where there is no single range */
    char reason[200];     /* one sentence, physical quantities only */
    int related;          /* other fields of the same part involved (0 to 2) */
    size_t related_offset[2];
} dinghy_problem;

/* Where a check writes its problems: at most max into out (out may be NULL
 * when max is 0); count is how many there are in all. */
typedef struct {
    dinghy_problem *out;
    int max, count;
} dinghy_problems;

/* Counts one problem and, when there is room, fills its field, quantity,
 * value and range (no reason yet, nothing related). Returns it, for the
 * caller to write the reason into, or NULL when out is full. */
static inline dinghy_problem *dinghy_problem_add(dinghy_problems *ps, int part, size_t offset,
                                                 const char *quantity, double value,
                                                 double min, double max)
{
    dinghy_problem *p = ps->count < ps->max ? &ps->out[ps->count] : NULL;
    ps->count++;
    if (!p)
        return NULL;
    *p = (dinghy_problem){.part = part, .offset = offset, .quantity = quantity,
                          .value = value, .min = min, .max = max};
    return p;
}

#endif
