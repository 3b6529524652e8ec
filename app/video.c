/* ffmpeg as a child process reading raw RGB frames on its stdin. */
#include "app/video.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/report.h"

struct video_pipe {
    pid_t pid;
    int fd;
    size_t frame_bytes;
    struct sigaction old_pipe; /* SIGPIPE is ignored while ffmpeg runs */
    char path[4096], tmp[4200];  /* ffmpeg writes tmp, renamed to path once it succeeds */
};

int video_ffmpeg_available(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && n < sizeof dir - 8) {
            memcpy(dir, path, n);
            memcpy(dir + n, "/ffmpeg", 8);
            if (access(dir, X_OK) == 0)
                return 1;
        }
        path += n + (path[n] == ':');
    }
    return 0;
}

video_pipe *video_open(const char *path, int width, int height, int fps, char *err, size_t err_len)
{
    video_pipe *v = calloc(1, sizeof *v);
    int fds[2];
    if (!v || pipe(fds) != 0) {
        snprintf(err, err_len, "cannot start ffmpeg: %s", strerror(errno));
        free(v);
        return NULL;
    }
    snprintf(v->path, sizeof v->path, "%s", path);
    tmp_file_name(path, v->tmp, sizeof v->tmp);
    char size[32], rate[16];
    snprintf(size, sizeof size, "%dx%d", width, height);
    snprintf(rate, sizeof rate, "%d", fps);
    /* yuv420p (what players expect) needs even sides: pad by a pixel if odd. */
    char *argv[] = {"ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                    "-s", size, "-r", rate, "-i", "-",
                    "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", v->tmp, NULL};
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_len, "cannot start ffmpeg: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        free(v);
        return NULL;
    }
    if (pid == 0) {
        dup2(fds[0], STDIN_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp("ffmpeg", argv);
        fprintf(stderr, "dinghy: cannot run ffmpeg: %s\n", strerror(errno));
        _exit(127);
    }
    close(fds[0]);
    v->pid = pid;
    v->fd = fds[1];
    v->frame_bytes = (size_t)width * (size_t)height * 3;
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &v->old_pipe);
    return v;
}

int video_write(video_pipe *v, const unsigned char *rgb, char *err, size_t err_len)
{
    size_t done = 0;
    while (done < v->frame_bytes) {
        ssize_t n = write(v->fd, rgb + done, v->frame_bytes - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(err, err_len, "ffmpeg stopped reading frames (%s); see its message above",
                     strerror(errno));
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

int video_close(video_pipe *v, char *err, size_t err_len)
{
    close(v->fd);
    int status = 0, rc = 0;
    while (waitpid(v->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, err_len, "ffmpeg failed (exit status %d); see its message above",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        rc = -1;
    }
    if (rc == 0 && tmp_file_rename(v->tmp, v->path) != 0) {
        snprintf(err, err_len, "cannot write video file '%s': %s", v->path, strerror(errno));
        rc = -1;
    } else if (rc != 0) {
        unlink(v->tmp); /* a failed encoding leaves an earlier file as it was */
    }
    sigaction(SIGPIPE, &v->old_pipe, NULL);
    free(v);
    return rc;
}
