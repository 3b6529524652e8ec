/* Turns text (INI files, --set overrides) into validated settings.
 * The result is a dinghy_settings (physics, render and audio sections).
 * Every problem is collected into a diag_list as one line
 * "WHERE: message"; callers apply nothing unless the list stays empty. */
#ifndef DINGHY_CONFIG_H
#define DINGHY_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "config/settings.h"
#include "config/diag.h"

/* Sets the parameter `name` ("section.key") from `value`. `where` starts
 * each message ("dinghy.ini:12", "--set"). Returns 0 when set. */
int config_set(dinghy_settings *p, const char *name, const char *value, const char *where,
               diag_list *d);

/* Applies "section.key=value" (the --set form). Returns 0 when set. */
int config_set_assignment(dinghy_settings *p, const char *assignment, diag_list *d);

/* Reads an INI file over p. All or nothing: p changes only when the file
 * has no error. Returns 0 on success. An empty file changes nothing. */
int config_load_file(dinghy_settings *p, const char *path, diag_list *d);

/* The same for INI text of len bytes (need not end in a newline or a NUL;
 * any byte may occur). `name` stands for the file in messages. The file
 * loader reads the file and calls this: one parsing path for both. */
int config_load_text(dinghy_settings *p, const char *name, const char *text, size_t len,
                     diag_list *d);

/* Largest config file read, bytes. */
#define CONFIG_MAX_FILE_BYTES (1024 * 1024)

/* Reads a whole file into *text (malloc'd, caller frees; not NUL-terminated)
 * and its size into *len. Returns 0, or -1 with a message in d. */
int config_read_file(const char *path, char **text, size_t *len, diag_list *d);

/* Checks what single keys cannot, through the core's own check
 * (sim_def_check: an even number of sides, an odd band no larger than the
 * grid, a tube thinner than the ring, a scene that fits in memory), naming
 * each problem's key. `where` starts each message. Returns 0 when all is well. */
int config_check(const dinghy_settings *p, const char *where, diag_list *d);

/* A live edit from current to next (the tuning panel, a reload): one
 * warning (diag_warn) for each key it changed that does nothing under the
 * models of next, after `source`, naming the key that does that job. */
void config_edit_warnings(const dinghy_settings *current, const dinghy_settings *next,
                          const char *source, diag_list *d);

/* When a fixed sim.substeps cuts p->dt into substeps above the explicit
 * stability bound (docs/physics.md section 2: springs, gas, buoyancy), writes a
 * one-line warning giving the bound and the substeps needed into buf and
 * returns 1; else (automatic substeps, or within the bound) returns 0. */
int config_stability_advice(const sim_def *p, char *buf, size_t len);

/* Writes p as an INI file: every key in its section, each after a comment
 * giving its meaning, default and allowed range. Reading the output back
 * gives p again, and writing that gives the same bytes. */
void config_write_ini(const dinghy_settings *p, FILE *out);

#endif
