/* The drawing threads' priority, through Linux's per-thread nice values. */
#define _DEFAULT_SOURCE /* syscall(SYS_gettid), setpriority */
#include "app/rasteriser_priority.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Nice value of thread tid raised by step; 1 when done. */
static int lower(pid_t tid, int step)
{
    errno = 0;
    int now = getpriority(PRIO_PROCESS, (id_t)tid);
    if (now == -1 && errno != 0)
        return 0;
    return setpriority(PRIO_PROCESS, (id_t)tid, now + step) == 0;
}

/* 1 when thread `name` (a decimal id in /proc/self/task) is llvmpipe's. */
static int is_rasteriser(const char *name)
{
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", name);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int got = fgets(comm, sizeof comm, f) != NULL;
    fclose(f);
    return got && strncmp(comm, "llvmpipe", 8) == 0;
}

int rasteriser_priority_lower(int step)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return 0;
    const pid_t me = (pid_t)syscall(SYS_gettid);
    int lowered = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (end == e->d_name || *end || tid <= 0)
            continue;
        if ((pid_t)tid == me || is_rasteriser(e->d_name))
            lowered += lower((pid_t)tid, step);
    }
    closedir(dir);
    return lowered;
}
