/* Files written whole or not at all: into a temporary file next to the
 * final one ("PATH.PID.tmp", same directory, so the rename cannot cross
 * file systems), renamed over PATH only once complete. A run that fails or
 * is killed half-way leaves an earlier PATH as it was. Config saves, the
 * dump, the bench's tables and the pictures all write this way. */
#ifndef DINGHY_TMP_FILE_H
#define DINGHY_TMP_FILE_H

#include <stddef.h>
#include <stdio.h>

/* The temporary name for path into tmp. */
void tmp_file_name(const char *path, char *tmp, size_t tmp_len);

/* Opens the temporary file of path for writing (mode 0666 less the umask;
 * one left by a killed run of this pid is replaced). Returns NULL with
 * errno set (and no temporary file left). tmp receives its name. */
FILE *tmp_file_open(const char *path, char *tmp, size_t tmp_len);

/* Renames tmp (already closed) over path; on failure removes tmp and
 * returns -1 with errno set. */
int tmp_file_rename(const char *tmp, const char *path);

#endif
