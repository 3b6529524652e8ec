/* Wavefront OBJ of the ring meshes; see obj_export.h. */
#include "app/obj_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/report.h"

static int write_obj(const dinghy_sim *sim, FILE *f, const float *nx, const float *ny,
                     const float *nz)
{
    const int P = sim_ring_count(sim), M = sim_segments(sim), N = sim_sides(sim);
    const size_t V = (size_t)M * N;
    sim_state_view st = sim_state(sim);
    fprintf(f, "# dinghy: %d rings of %d x %d vertices at t = %.6f s (step %ld); units m\n", P,
            M, N, sim_time(sim), sim_steps_done(sim));
    for (int p = 0; p < P; p++) {
        fprintf(f, "o ring_%d\n", p);
        for (size_t i = (size_t)p * V; i < (size_t)(p + 1) * V; i++)
            fprintf(f, "v %.6f %.6f %.6f\n", st.x[i], st.y[i], st.z[i]);
        for (size_t i = (size_t)p * V; i < (size_t)(p + 1) * V; i++)
            fprintf(f, "vn %.5f %.5f %.5f\n", nx[i], ny[i], nz[i]);
        /* OBJ indices are 1-based and count from the first vertex of the file;
         * two triangles per grid quad, counter-clockwise seen from outside */
        for (int a = 0; a < M; a++)
            for (int b = 0; b < N; b++) {
                size_t base = (size_t)p * V + 1;
                size_t i00 = base + (size_t)a * N + b, i10 = base + (size_t)((a + 1) % M) * N + b;
                size_t i11 = base + (size_t)((a + 1) % M) * N + (b + 1) % N;
                size_t i01 = base + (size_t)a * N + (b + 1) % N;
                fprintf(f, "f %zu//%zu %zu//%zu %zu//%zu\n", i00, i00, i10, i10, i11, i11);
                fprintf(f, "f %zu//%zu %zu//%zu %zu//%zu\n", i00, i00, i11, i11, i01, i01);
            }
    }
    return ferror(f) ? -1 : 0;
}

int obj_export(const dinghy_sim *sim, const char *path)
{
    size_t n = sim_vertex_count(sim);
    float *nrm = malloc(3 * (n ? n : 1) * sizeof *nrm);
    if (!nrm) {
        fprintf(stderr, "dinghy: out of memory writing %s\n", path);
        return -1;
    }
    sim_normals(sim, nrm, nrm + n, nrm + 2 * n);
    char tmp[4200];
    FILE *f = tmp_file_open(path, tmp, sizeof tmp);
    if (!f) {
        fprintf(stderr, "dinghy: --obj %s: cannot write: %s\n", path, strerror(errno));
        free(nrm);
        return -1;
    }
    int bad = write_obj(sim, f, nrm, nrm + n, nrm + 2 * n);
    free(nrm);
    if (bad) {
        fclose(f);
        remove(tmp);
        fprintf(stderr, "dinghy: --obj %s: write error\n", path);
        return -1;
    }
    return report_commit_tmp(f, tmp, path, "OBJ file");
}
