/* Which configuration file a run reads. */
#ifndef DINGHY_CONFIG_FIND_H
#define DINGHY_CONFIG_FIND_H

#include <stddef.h>

typedef enum {
    CONFIG_FILE_FLAG,     /* named with --config (missing is an error later) */
    CONFIG_FILE_CWD,      /* ./dinghy.ini */
    CONFIG_FILE_XDG,      /* $XDG_CONFIG_HOME/dinghy/dinghy.ini or ~/.config/dinghy/dinghy.ini */
    CONFIG_FILE_NONE      /* none found: the built-in defaults */
} config_file_kind;

/* Finds the config file: `flag` (the --config value) when not NULL, else
 * ./dinghy.ini, else $XDG_CONFIG_HOME/dinghy/dinghy.ini (when that variable
 * is unset, empty or not absolute: $HOME/.config/dinghy/dinghy.ini), else
 * none. A candidate counts when it exists; reading it may still fail, and
 * that is reported, not passed over. Writes the path into path ("" for none)
 * and one line for the user saying which file is used, or where it looked,
 * into note. */
config_file_kind config_find_file(const char *flag, char *path, size_t path_len, char *note,
                                  size_t note_len);

#endif
