/* Hot reload of the config file: inotify on its directory, plus the
 * file's status compared on every poll. */
#include "config/watch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "config/config.h"
#include "config/origins.h"

/* What stat says about the file; any difference means it was touched. */
typedef struct {
    int exists;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
} file_sig;

struct config_watch {
    const config_source *src;
    int fd;               /* inotify descriptor, or -1 */
    char base[256];       /* the file's name within its directory */
    file_sig sig;         /* status at the last poll */
    int pending;          /* touched, waiting for the file to be quiet */
    char *last;           /* text last read, to pass over saves that change nothing */
    size_t last_len;
    int last_ok;          /* last is set and built without errors */
};

static file_sig sig_of(const char *path)
{
    file_sig s;
    memset(&s, 0, sizeof s);
    struct stat st;
    if (stat(path, &st) == 0) {
        s.exists = 1;
        s.dev = st.st_dev;
        s.ino = st.st_ino;
        s.size = st.st_size;
        s.mtime = st.st_mtim;
        s.ctime = st.st_ctim;
    }
    return s;
}

static int sig_equal(const file_sig *a, const file_sig *b)
{
    return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino && a->size == b->size
        && a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec
        && a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

static void stop_inotify(config_watch *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
}

static void start_inotify(config_watch *w)
{
    w->fd = -1;
#ifdef __linux__
    const char *path = w->src->path;
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (w->fd < 0)
        return;
    uint32_t mask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
                  | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;
    if (inotify_add_watch(w->fd, dir, mask) < 0)
        stop_inotify(w);
#endif
}

/* Reads the pending inotify events. Sets *activity when anything happened
 * to the file and returns 1 when its last event completed a save. */
static int drain_events(config_watch *w, int *activity)
{
    int ready = 0;
#ifdef __linux__
    _Alignas(struct inotify_event) char buf[4096];
    while (w->fd >= 0) {
        ssize_t got = read(w->fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break; /* EAGAIN: no more events */
        for (char *p = buf; p < buf + got;) {
            const struct inotify_event *ev = (const struct inotify_event *)(void *)p;
            p += sizeof *ev + ev->len;
            if (ev->mask & IN_Q_OVERFLOW) {
                *activity = 1; /* events were lost: fall back on the status */
                ready = 0;
            } else if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
                *activity = 1; /* the directory went away: poll from now on */
                ready = 0;
                stop_inotify(w);
                break;
            } else if (ev->len && strcmp(ev->name, w->base) == 0) {
                *activity = 1;
                ready = (ev->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) != 0;
            }
        }
    }
#else
    (void)w;
    (void)activity;
#endif
    return ready;
}

config_watch *config_watch_open(const config_source *src)
{
    config_watch *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->src = src;
    const char *slash = strrchr(src->path, '/');
    snprintf(w->base, sizeof w->base, "%s", slash ? slash + 1 : src->path);
    start_inotify(w);
    w->sig = sig_of(src->path);
    diag_list ignored = {0};
    if (config_read_file(src->path, &w->last, &w->last_len, &ignored) == 0)
        w->last_ok = 1;
    diag_free(&ignored);
    return w;
}

void config_watch_close(config_watch *w)
{
    if (!w)
        return;
    stop_inotify(w);
    free(w->last);
    free(w);
}

const char *config_watch_path(const config_watch *w) { return w->src->path; }
int config_watch_uses_inotify(const config_watch *w) { return w->fd >= 0; }
void config_watch_force_polling(config_watch *w) { stop_inotify(w); }

config_watch_result config_watch_poll(config_watch *w, const dinghy_settings *current,
                                      dinghy_settings *next, diag_list *errors, char *changes,
                                      size_t len)
{
    int activity = 0;
    int ready = drain_events(w, &activity);
    file_sig now = sig_of(w->src->path);
    if (!sig_equal(&now, &w->sig)) {
        activity = 1;
        w->sig = now;
    }
    if (!ready) {
        if (activity || !w->pending) {
            w->pending |= activity;
            return CONFIG_WATCH_NONE;
        }
    }
    w->pending = 0;

    char *text;
    size_t text_len;
    if (config_read_file(w->src->path, &text, &text_len, errors) != 0) {
        w->last_ok = 0;
        return CONFIG_WATCH_ERROR;
    }
    if (w->last_ok && text_len == w->last_len && memcmp(text, w->last, text_len) == 0) {
        free(text);
        return CONFIG_WATCH_NONE;
    }
    free(w->last);
    w->last = text;
    w->last_len = text_len;
    dinghy_settings built;
    /* warnings only of keys this save changed (the run has told the rest) */
    if (config_build_text_since(w->src, text, text_len, current, &built, errors) != 0) {
        w->last_ok = 0;
        return CONFIG_WATCH_ERROR;
    }
    w->last_ok = 1;
    if (config_diff(current, &built, changes, len, NULL) == 0)
        return CONFIG_WATCH_SAME;
    *next = built;
    return CONFIG_WATCH_CHANGED;
}
