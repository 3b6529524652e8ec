/* The effective settings of a run: built-in defaults, then a config file,
 * then --set overrides, then the checks across keys. Used at start-up and
 * again on every hot reload, so both see the same layers. */
#ifndef DINGHY_CONFIG_BUILD_H
#define DINGHY_CONFIG_BUILD_H

#include <stddef.h>

#include "config/diag.h"
#include "config/settings.h"

typedef struct {
    const char *path;          /* INI file, NULL = none (built-in defaults) */
    const char *const *sets;   /* "section.key=value" overrides, applied after the file */
    int nsets;
} config_source;

/* Builds the settings src describes into *out. Every problem goes to d, as
 * "FILE:LINE: message" or "--set key=value: message" (a problem across keys,
 * like an even band, names where the first key involved was set). All or
 * nothing: *out changes only when there is no error. Returns 0 when clean. */
int config_build(const config_source *src, dinghy_settings *out, diag_list *d);

/* The same with the file's text already read (len bytes; text NULL = no
 * file); messages name it src->path. */
int config_build_text(const config_source *src, const char *text, size_t len,
                      dinghy_settings *out, diag_list *d);

/* Compares two settings key by key, in table order. Returns how many keys
 * differ; writes "dinghy.stiffness 400 -> 800, sim.dt 0.001 -> 0.0005" into
 * text (may be NULL; cut short with "... (N more)" when len is too small)
 * and sets *structural (may be NULL) to 1 when a key that needs a new scene
 * changed, else 0. */
int config_diff(const dinghy_settings *from, const dinghy_settings *to, char *text, size_t len,
                int *structural);

#endif
