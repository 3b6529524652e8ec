/* The lookup order of the configuration file. */
#include "config/find.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The per-user file: XDG base directory rules, or "" without a home. */
static void user_file(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(buf, len, "%s/dinghy/dinghy.ini", xdg);
    else if (home && home[0])
        snprintf(buf, len, "%s/.config/dinghy/dinghy.ini", home);
    else
        buf[0] = '\0';
}

static int exists(const char *path)
{
    struct stat st;
    return path[0] && stat(path, &st) == 0;
}

config_file_kind config_find_file(const char *flag, char *path, size_t path_len, char *note,
                                  size_t note_len)
{
    if (flag) {
        snprintf(path, path_len, "%s", flag);
        snprintf(note, note_len, "using config file %s (--config)", flag);
        return CONFIG_FILE_FLAG;
    }
    if (exists("dinghy.ini")) {
        snprintf(path, path_len, "dinghy.ini");
        snprintf(note, note_len, "using config file dinghy.ini (current directory)");
        return CONFIG_FILE_CWD;
    }
    char user[4096];
    user_file(user, sizeof user);
    if (exists(user)) {
        snprintf(path, path_len, "%s", user);
        snprintf(note, note_len, "using config file %s", user);
        return CONFIG_FILE_XDG;
    }
    path[0] = '\0';
    snprintf(note, note_len, "no config file (looked for ./dinghy.ini%s%s); using the built-in "
             "defaults", user[0] ? " and " : "", user);
    return CONFIG_FILE_NONE;
}
