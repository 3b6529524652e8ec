/* Hot reload: notices when the config file is saved and builds the new
 * settings from it, without blocking. Uses inotify on the file's directory
 * (editors that save by writing a new file and renaming it over the old one
 * replace the inode, so watching the file itself would go deaf), and also
 * compares the file's status (inode, size, times) on every poll, which
 * alone serves where inotify is missing and catches a symlink's target. */
#ifndef DINGHY_CONFIG_WATCH_H
#define DINGHY_CONFIG_WATCH_H

#include <stddef.h>

#include "config/build.h"
#include "config/diag.h"
#include "config/settings.h"

typedef struct config_watch config_watch;

/* Starts watching src->path (not NULL). src is kept by pointer: it must
 * outlive the watch; its --set overrides are applied on every reload. The
 * file as it is now is the baseline: open the watch before the first
 * config_build, so that no save is missed. Returns NULL when out of memory. */
config_watch *config_watch_open(const config_source *src);
void config_watch_close(config_watch *w);

typedef enum {
    CONFIG_WATCH_NONE,     /* no new save (or one still being written) */
    CONFIG_WATCH_SAME,     /* saved, but the settings equal *current */
    CONFIG_WATCH_CHANGED,  /* saved with new settings: *next holds them */
    CONFIG_WATCH_ERROR     /* saved with errors, all in *errors; *next untouched */
} config_watch_result;

/* Looks once for a save since the last look. On a save that is complete
 * (closed after writing, or renamed into place; otherwise on the first poll
 * that sees the file quiet again) builds the settings from src and compares
 * them with *current: on CONFIG_WATCH_CHANGED writes the new settings to
 * *next and the changed keys to changes ("dinghy.stiffness 400 -> 800", see
 * config_diff). A save that leaves the bytes as they were last read (touch)
 * is NONE after a good read. Call it once per frame. */
config_watch_result config_watch_poll(config_watch *w, const dinghy_settings *current,
                                      dinghy_settings *next, diag_list *errors, char *changes,
                                      size_t len);

/* The file watched (src->path). */
const char *config_watch_path(const config_watch *w);

/* 1 while inotify serves the watch, 0 when it polls the file's status. */
int config_watch_uses_inotify(const config_watch *w);

/* Drops inotify and polls the file's status only (for tests of that path). */
void config_watch_force_polling(config_watch *w);

#endif
