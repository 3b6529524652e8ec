/* Where each key of a configuration got its value, so that an error found
 * across keys (an even band, a scene too big for memory) can name the line
 * or the --set that caused it. Private to config/. */
#ifndef DINGHY_CONFIG_ORIGINS_H
#define DINGHY_CONFIG_ORIGINS_H

#include <stddef.h>

#include "config/build.h"
#include "config/diag.h"
#include "config/params_table.h"
#include "config/settings.h"

typedef struct {
    const char *file;                      /* name of the INI text read, or NULL */
    int line[PARAM_TABLE_MAX];             /* line of `file` that set the key; 0 = none */
    const char *set[PARAM_TABLE_MAX];      /* the --set that set it last, or NULL */
    unsigned char failed[PARAM_TABLE_MAX]; /* 1: given a bad value (cross-checks skip it) */
} config_origins;

/* Reads INI text over p, applying every good key and recording in o (may be
 * NULL) where each key was set. Not all or nothing: config_load_text and
 * config_build wrap it. Returns 0 when the text had no error. */
int config_parse_ini(dinghy_settings *p, const char *name, const char *text, size_t len,
                     config_origins *o, diag_list *d);

/* config_check, naming for each problem the origin of the first key
 * involved that has one (else `where`), and skipping checks that involve a
 * key in o->failed. o may be NULL. */
int config_check_origins(const dinghy_settings *p, const config_origins *o, const char *where,
                         diag_list *d);

/* One warning (diag_warn) for each key the user set, in the file or by
 * --set, that does nothing under the models of settings
 * (param_inert_table), naming where it was set and the key that does that
 * job. A file line that gives a key its default is not reported: it
 * changes nothing, and the shipped dinghy.ini (--print-config) lists every
 * key, whatever models the user then picks. With before (the settings a reload replaces; NULL at start-up),
 * only for keys the edit changed or made inert. */
void config_inert_warnings(const dinghy_settings *settings, const config_origins *o,
                           const dinghy_settings *before, diag_list *d);

/* config_build_text, the warnings limited as config_inert_warnings' with
 * before (may be NULL). */
int config_build_text_since(const config_source *src, const char *text, size_t len,
                            const dinghy_settings *before, dinghy_settings *out, diag_list *d);

#endif
