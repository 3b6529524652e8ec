/* The table of every configurable parameter: name, type, where it lives in
 * dinghy_settings, allowed range, unit and one-line meaning. --set, INI files,
 * --print-config and --help all read this one table. */
#ifndef DINGHY_PARAMS_TABLE_H
#define DINGHY_PARAMS_TABLE_H

#include <stddef.h>

#include "config/settings.h"

/* PK_CHOICE: an int (or enum) holding the index of one of the names the
 * key's `choice` function gives (scene names, models). */
typedef enum { PK_DOUBLE, PK_INT, PK_U64, PK_CHOICE } param_type;

typedef struct {
    const char *name;     /* "section.key" */
    param_type type;
    size_t offset;        /* into dinghy_settings */
    double min, max;      /* allowed range, inclusive */
    const char *unit;     /* "" when dimensionless */
    const char *doc;      /* one-line meaning */
    const char *(*choice)(int i); /* PK_CHOICE: name of choice i, NULL past the last */
} param_key;

/* A key that does nothing while a model key has a certain choice (the
 * springs' stiffness on the membrane skin), and what does its job there.
 * Read from how physics/ uses each field; tests/test_config.c runs each
 * entry and checks that the key changes no bit of the state. */
typedef struct {
    const char *key;      /* the key that does nothing ... */
    const char *model;    /* ... while this PK_CHOICE key ... */
    const char *choice;   /* ... holds this choice */
    const char *job;      /* what does its job instead, naming `instead` */
    const char *instead;  /* the key named in job */
} param_inert;

extern const param_inert param_inert_table[];
extern const int param_inert_count;

/* The entry saying that k does nothing under the models of p, or NULL. */
const param_inert *param_inert_under(const param_key *k, const dinghy_settings *p);

/* The index of the choice called name for k, or -1. */
int param_choice_index(const param_key *k, const char *name);

extern const param_key param_table[];
extern const int param_table_count;

/* Upper bound on param_table_count, for per-key arrays (a test checks it). */
#define PARAM_TABLE_MAX 128

/* The section names, in table order, as "sim, world, ..." text. */
const char *param_sections_text(void);

/* 1 when changing k needs a new scene: scene keys, and the physics
 * fields the core does not take live (sim_field_is_live). */
int param_is_structural(const param_key *k);

/* The key of a physics definition field (part, offset within it), or NULL. */
const param_key *param_for_field(sim_def_part part, size_t offset);

/* The entry for "section.key", or NULL. */
const param_key *param_find(const char *name);

/* The known name closest to `name` by edit distance, or NULL when nothing
 * is close enough to be a likely typo. */
const char *param_suggest(const char *name);

/* Levenshtein distance between a and b (1000 when either is over 64 chars). */
int param_edit_distance(const char *a, const char *b);

/* Writes the value of k in p as text that parses back to the same value. */
void param_format(const dinghy_settings *p, const param_key *k, char *buf, size_t len);

/* Writes the allowed range of k, with unit, e.g. "0 to 1e+09 N/m". */
void param_range_text(const param_key *k, char *buf, size_t len);

#endif
