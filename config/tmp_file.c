/* Files written whole or not at all; see tmp_file.h. */
#include "config/tmp_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

void tmp_file_name(const char *path, char *tmp, size_t tmp_len)
{
    snprintf(tmp, tmp_len, "%s.%ld.tmp", path, (long)getpid());
}

FILE *tmp_file_open(const char *path, char *tmp, size_t tmp_len)
{
    tmp_file_name(path, tmp, tmp_len);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0) /* left by a killed run of this pid */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

int tmp_file_rename(const char *tmp, const char *path)
{
    if (rename(tmp, path) == 0)
        return 0;
    int e = errno;
    unlink(tmp);
    errno = e;
    return -1;
}
