/* JSON summary of a simulation's state. */
#include "app/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dinghy/river.h"

static void vec(FILE *out, const double v[3])
{
    fprintf(out, "[%.9g, %.9g, %.9g]", v[0], v[1], v[2]);
}

/* The river: its course (centre line at the surface, at most 1 m apart,
 * upstream first), widths, rocks and speed. */
static void write_river(FILE *out, const river_course *c)
{
    fprintf(out, ",\n  \"river\": {\n    \"speed\": %.9g,\n    \"course\": [", c->speed);
    for (int i = 0; i < c->count; i++)
        fprintf(out, "%s[%.6f, %.6f, %.6f]", i ? ", " : "", c->point[3 * i], c->point[3 * i + 1],
                c->point[3 * i + 2]);
    fprintf(out, "],\n    \"width\": [");
    for (int i = 0; i < c->count; i++)
        fprintf(out, "%s%.6f", i ? ", " : "", c->width[i]);
    fprintf(out, "],\n    \"rocks\": [");
    for (int r = 0; r < c->rock_count; r++) {
        const double *k = &c->rock[4 * r];
        fprintf(out, "%s{\"center\": [%.6f, %.6f, %.6f], \"radius\": %.6f}", r ? ", " : "", k[0],
                k[1], k[2], k[3]);
    }
    fprintf(out, "]\n  }");
}

void report_write_json(dinghy_sim *sim, FILE *out)
{
    double momentum[3], ke;
    sim_totals(sim, momentum, &ke);
    const sim_def *p = sim_get_def(sim);
    const sim_ring_state *rings = sim_rings(sim);
    fprintf(out, "{\n  \"steps\": %ld,\n  \"time\": %.9g,\n  \"dt\": %.9g,\n  \"substeps\": %d,\n"
            "  \"threads\": %d,\n  \"vertices\": %zu,\n  \"hash\": \"%016" PRIx64 "\",\n"
            "  \"momentum\": ", sim_steps_done(sim), sim_time(sim), p->solver.dt,
            sim_substeps(sim), sim_threads(sim), sim_vertex_count(sim), sim_hash(sim));
    vec(out, momentum);
    fprintf(out, ",\n  \"kinetic_energy\": %.9g,\n  \"dinghies\": [", ke);
    for (int i = 0; i < sim_ring_count(sim); i++) {
        const sim_ring_state *s = &rings[i];
        fprintf(out, "%s\n    {\"com\": ", i ? "," : "");
        vec(out, s->centre);
        fprintf(out, ", \"velocity\": ");
        vec(out, s->velocity);
        fprintf(out, ", \"volume\": %.9g, \"rest_volume\": %.9g, \"submerged_volume\": %.9g, "
                "\"buoyancy_centre\": ", s->volume, sim_rest_volume(sim), s->submerged_volume);
        vec(out, s->buoyancy_centre);
        if (s->pressure == s->pressure)
            fprintf(out, ", \"pressure\": %.9g", s->pressure);
        else
            fprintf(out, ", \"pressure\": null");
        fprintf(out, ", \"mean_depth\": %.9g, \"min_z\": %.9g, \"max_z\": %.9g",
                s->mean_depth, s->min_z, s->max_z);
        fprintf(out, ", \"contact_vertices\": %d, \"contact_force\": %.9g", s->contact_vertices,
                s->contact_force);
        if (sim_river(sim))
            fprintf(out, ", \"travelled\": %.9g, \"respawns\": %d", s->travelled, s->respawns);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]");
    if (sim_river(sim))
        write_river(out, river_course_view(sim_river(sim)));
    fprintf(out, "\n}\n");
}

int report_blowup(const dinghy_sim *sim)
{
    if (!sim_blowup(sim).happened)
        return 0;
    char msg[1024];
    sim_blowup_message(sim, msg, sizeof msg);
    fprintf(stderr, "dinghy: %s\n", msg);
    return 3;
}

int report_commit_tmp(FILE *f, const char *tmp, const char *path, const char *what)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        int e = bad && !errno ? EIO : errno;
        unlink(tmp);
        fprintf(stderr, "dinghy: error writing %s %s: %s\n", what, path, strerror(e));
        return -1;
    }
    if (tmp_file_rename(tmp, path) != 0) {
        fprintf(stderr, "dinghy: error writing %s %s: %s\n", what, path, strerror(errno));
        return -1;
    }
    return 0;
}

int report_check_output(const char *flag, const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "dinghy: %s %s: cannot write: it is a directory\n", flag, path);
        return -1;
    }
    char tmp[4200];
    FILE *f = tmp_file_open(path, tmp, sizeof tmp);
    if (!f) {
        fprintf(stderr, "dinghy: %s %s: cannot write: %s\n", flag, path, strerror(errno));
        return -1;
    }
    fclose(f);
    unlink(tmp);
    return 0;
}

int report_check_output_dir(const char *flag, const char *dir)
{
    if (!dir)
        return 0;
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "dinghy: %s %s: not a directory\n", flag, dir);
            return -1;
        }
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/frame", dir);
        return report_check_output(flag, probe) == 0 ? 0 : -1;
    }
    if (errno != ENOENT) {
        fprintf(stderr, "dinghy: %s %s: %s\n", flag, dir, strerror(errno));
        return -1;
    }
    /* to be created: its parent must take a new entry */
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/')
        parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == parent)
        parent[1] = '\0';
    else
        *slash = '\0';
    if (access(parent, W_OK | X_OK) != 0) {
        fprintf(stderr, "dinghy: %s %s: cannot create the directory: %s\n", flag, dir,
                strerror(errno));
        return -1;
    }
    return 0;
}

int report_dump(dinghy_sim *sim, const char *path)
{
    if (strcmp(path, "-") == 0) {
        report_write_json(sim, stdout);
        fflush(stdout);
        return 0;
    }
    char tmp[4200];
    FILE *f = tmp_file_open(path, tmp, sizeof tmp);
    if (!f) {
        fprintf(stderr, "dinghy: cannot write dump file %s: %s\n", path, strerror(errno));
        return -1;
    }
    report_write_json(sim, f);
    return report_commit_tmp(f, tmp, path, "dump file");
}
