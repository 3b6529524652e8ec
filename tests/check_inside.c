/* Vertices inside a skin, by winding numbers (check_inside.h). */
#include "tests/check_inside.h"

#include <math.h>
#include <stdlib.h>

#include "tests/check_pairs.h"
#include "tests/check_winding.h"

/* Keeps the lower of two first offenders (by ring, then vertex). */
static void keep_first(skin_inside *best, const skin_inside *c)
{
    if (c->ring < 0)
        return;
    if (best->ring < 0 || c->ring < best->ring
        || (c->ring == best->ring && c->vertex < best->vertex))
        *best = *c;
}

/* Ring p's vertices against the skins of the other rings whose boxes
 * overlap its own (their indices in near[0 .. n-1]). */
static long ring_inside_other(const skin_mesh *mesh, const chk_boxes *boxes, int p,
                              const int *near, int n, skin_inside *first)
{
    const int MN = mesh->segments * mesh->sides;
    long count = 0;
    for (int v = 0; v < MN; v++) {
        double pt[3];
        chk_vertex(mesh, (long)p * MN + v, pt);
        for (int i = 0; i < n; i++) {
            const int q = near[i];
            if (!chk_in_box(boxes->ring + 6 * q, pt))
                continue;
            const double w = chk_winding(mesh, q, boxes->band + 6L * mesh->segments * q, pt);
            if (w > 0.5) {
                skin_inside c = {p, v, q, w};
                keep_first(first, &c);
                count++;
                break;
            }
        }
    }
    return count;
}

int chk_inside_other(const skin_mesh *mesh, const chk_boxes *boxes, long *count,
                     skin_inside *first)
{
    const int P = mesh->rings;
    long total = 0;
    int failed = 0;
    first->ring = -1;
#pragma omp parallel
    {
        skin_inside mine = {-1, 0, 0, 0.0};
        int *near = malloc(sizeof *near * (size_t)(P ? P : 1));
#pragma omp for schedule(dynamic, 1) reduction(+ : total, failed)
        for (int p = 0; p < P; p++) {
            if (!near) {
                failed++;
                continue;
            }
            int n = 0;
            for (int q = 0; q < P; q++)
                if (q != p && chk_boxes_overlap(boxes->ring + 6 * p, boxes->ring + 6 * q))
                    near[n++] = q;
            total += ring_inside_other(mesh, boxes, p, near, n, &mine);
        }
        free(near);
#pragma omp critical(chk_inside_first)
        keep_first(first, &mine);
    }
    *count = total;
    return failed ? -1 : 0;
}

/* Area-weighted outward normals of ring p's vertices into nrm (3 M N). */
static void ring_normals(const skin_mesh *mesh, int p, double *nrm)
{
    const int M = mesh->segments, N = mesh->sides;
    for (int i = 0; i < 3 * M * N; i++)
        nrm[i] = 0.0;
    for (int t = 0; t < 2 * M * N; t++) {
        double c[3][3], e1[3], e2[3];
        int idx[3];
        chk_triangle(mesh, p, t, c);
        chk_triangle_corners(M, N, t, idx);
        for (int k = 0; k < 3; k++)
            e1[k] = c[1][k] - c[0][k], e2[k] = c[2][k] - c[0][k];
        const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                nrm[3 * idx[i] + k] += n[k];
    }
}

/* Shortest edge (m) from vertex (m, n) of ring p to its six neighbours. */
static double shortest_edge(const skin_mesh *mesh, int p, int m, int n)
{
    static const int step[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}};
    const int M = mesh->segments, N = mesh->sides;
    const long base = (long)p * M * N;
    double v[3], best = INFINITY;
    chk_vertex(mesh, base + (long)m * N + n, v);
    for (int i = 0; i < 6; i++) {
        double u[3];
        chk_vertex(mesh, base + (long)((m + step[i][0] + M) % M) * N + (n + step[i][1] + N) % N, u);
        best = fmin(best, sqrt((u[0] - v[0]) * (u[0] - v[0]) + (u[1] - v[1]) * (u[1] - v[1])
                               + (u[2] - v[2]) * (u[2] - v[2])));
    }
    return best;
}

/* Ring p's vertices against its own skin, probed off their outward side
 * (nrm: scratch of 3 M N doubles). */
static long ring_inside_own(const skin_mesh *mesh, const chk_boxes *boxes, int p, double *nrm,
                            skin_inside *first)
{
    const int M = mesh->segments, N = mesh->sides;
    const double *band = boxes->band + 6L * M * p;
    long count = 0;
    ring_normals(mesh, p, nrm);
    for (int v = 0; v < M * N; v++) {
        const double *n = nrm + 3 * v, len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 0.0))
            continue;
        const double eps = SKIN_CHECK_OWN_PROBE * shortest_edge(mesh, p, v / N, v % N) / len;
        double pt[3];
        chk_vertex(mesh, (long)p * M * N + v, pt);
        for (int k = 0; k < 3; k++)
            pt[k] += eps * n[k];
        const double w = chk_winding(mesh, p, band, pt);
        if (fabs(w) > 0.5) {
            skin_inside c = {p, v, p, w};
            keep_first(first, &c);
            count++;
        }
    }
    return count;
}

int chk_inside_own(const skin_mesh *mesh, const chk_boxes *boxes, long *count,
                   skin_inside *first)
{
    const int P = mesh->rings;
    long total = 0;
    int failed = 0;
    first->ring = -1;
#pragma omp parallel
    {
        skin_inside mine = {-1, 0, 0, 0.0};
        double *nrm = malloc(sizeof *nrm * 3 * (size_t)mesh->segments * (size_t)mesh->sides);
#pragma omp for schedule(dynamic, 1) reduction(+ : total, failed)
        for (int p = 0; p < P; p++) {
            if (!nrm) {
                failed++;
                continue;
            }
            total += ring_inside_own(mesh, boxes, p, nrm, &mine);
        }
        free(nrm);
#pragma omp critical(chk_inside_first)
        keep_first(first, &mine);
    }
    *count = total;
    return failed ? -1 : 0;
}
