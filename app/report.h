/* Reports of a simulation's state: the JSON dump of headless runs. */
#ifndef DINGHY_REPORT_H
#define DINGHY_REPORT_H

#include <stdio.h>

#include "config/tmp_file.h"
#include "dinghy/health.h"
#include "dinghy/sim.h"

/* Writes the state summary as JSON (format in docs/guide/headless.md) to out. */
void report_write_json(dinghy_sim *sim, FILE *out);

/* When sim has blown up, prints its one-line explanation on stderr and
 * returns 3 (the exit code); returns 0 for a healthy simulation. */
int report_blowup(const dinghy_sim *sim);

/* Writes the JSON summary to path ("-" = stdout). Returns 0, or -1 with a
 * message on stderr when the file cannot be written. */
int report_dump(dinghy_sim *sim, const char *path);

/* Outputs are written whole or not at all (config/tmp_file.h). */

/* Closes f and renames tmp over path; on any error removes tmp, prints
 * "dinghy: error writing WHAT PATH: reason" and returns -1. */
int report_commit_tmp(FILE *f, const char *tmp, const char *path, const char *what);


/* Checks, before any work, that path can be written: creates its temporary
 * file in the same directory and removes it again; path itself is neither
 * created nor truncated. "-" (stdout) and NULL pass. Returns 0, or -1 after
 * printing "dinghy: FLAG PATH: cannot write: reason". */
int report_check_output(const char *flag, const char *path);

/* The same for a directory of numbered files (--record DIR): DIR must be a
 * writable directory, or not exist yet in a writable directory. */
int report_check_output_dir(const char *flag, const char *dir);

#endif
