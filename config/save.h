/* Settings back to text: rewrites a config file's INI text so that it
 * loads as given settings, keeping everything else of it (comments, order,
 * spacing, line ends, inline comments) byte for byte; writes that text
 * back to the file safely; and the --set flags that reproduce settings
 * without a file. The other direction of config.h. */
#ifndef DINGHY_CONFIG_SAVE_H
#define DINGHY_CONFIG_SAVE_H

#include <stddef.h>

#include "config/build.h"
#include "config/diag.h"
#include "config/settings.h"

/* Rewrites INI text (len bytes; need not end in a newline) so that loading
 * it over the defaults (config_load_text) gives s in every key. Only keys
 * whose value differs change: an existing `key = value` line gets the new
 * value in place (what precedes the value and an inline "; comment" stay);
 * a key the text lacks goes after the last key of its section, or into a
 * new [section] at the end. Values are written so that they read back
 * exactly (param_format). `name` stands for the text in messages.
 * The text must load cleanly: with errors (each added to d) nothing is
 * written, since a file that does not load cannot be rewritten safely.
 * On success *out (malloc'd, caller frees, NUL-terminated) and *out_len get
 * the new text, changed (may be NULL) gets the changed keys as
 * "dinghy.stiffness 1500 -> 1600, ..." (see config_diff), and the number
 * of keys changed is returned (0: *out equals the text). Returns -1 on
 * errors or when out of memory (message in d). */
int config_save_text(const char *name, const char *text, size_t len, const dinghy_settings *s,
                     char **out, size_t *out_len, char *changed, size_t changed_len,
                     diag_list *d);

/* Saves s into the config file at config_path (created when missing):
 * rewrites its text with config_save_text (comments, order and layout
 * kept; only the keys whose values differ change, missing ones are added)
 * and writes it whole to a temporary file beside it (or beside the target
 * of a symbolic link, which stays a link), given the file's permissions,
 * synced and renamed over it; on any error the file is left as it was and
 * no temporary file stays. A key that a --set of src (may be NULL) fixes
 * at the value s has keeps the file's value, so that the file does not
 * collect one run's flags; a --set key s moved away from is written, and
 * msg says that flag still overrides the file. Writes one line into msg
 * ("saved PATH: KEY OLD -> NEW, ...", "PATH already holds these values",
 * or "not saved: why"). Returns 0 when saved or nothing to change, -1 on
 * error. */
int config_save_file(const char *config_path, const dinghy_settings *s, const config_source *src,
                     char *msg, size_t len);

/* Writes "--set key=value" for every key in which s differs from the
 * defaults, space-separated in table order, into buf ("" when none; cut
 * short with " ..." when len is too small). Returns how many keys differ. */
int config_set_flags(const dinghy_settings *s, char *buf, size_t len);

#endif
