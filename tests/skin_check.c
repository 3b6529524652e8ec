/* The skin checker (skin_check.h): crossed triangle pairs here, the
 * inside counts in tests/check_inside.c. */
#include "tests/skin_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_inside.h"
#include "tests/check_pairs.h"
#include "tests/check_tri_tri.h"
#include "tests/check_winding.h"

/* 1 when triangles ta and tb of one ring share a corner. */
static int share_corner(int M, int N, int ta, int tb)
{
    int a[3], b[3];
    chk_triangle_corners(M, N, ta, a);
    chk_triangle_corners(M, N, tb, b);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (a[i] == b[j])
                return 1;
    return 0;
}

/* Boxes of every triangle (global number p T + t) into boxes (6 each). */
static void triangle_boxes(const skin_mesh *mesh, double *boxes)
{
    const long T = 2L * mesh->segments * mesh->sides, all = T * mesh->rings;
#pragma omp parallel for schedule(static)
    for (long g = 0; g < all; g++) {
        double c[3][3], *b = boxes + 6 * g;
        chk_triangle(mesh, (int)(g / T), (int)(g % T), c);
        for (int k = 0; k < 3; k++) {
            b[k] = c[0][k] < c[1][k] ? c[0][k] : c[1][k];
            b[k] = c[2][k] < b[k] ? c[2][k] : b[k];
            b[3 + k] = c[0][k] > c[1][k] ? c[0][k] : c[1][k];
            b[3 + k] = c[2][k] > b[3 + k] ? c[2][k] : b[3 + k];
        }
    }
}

/* Whether candidate pair (ga, gb), ga < gb, is two crossed triangles
 * sharing no vertex. */
static int crossed(const skin_mesh *mesh, long T, long ga, long gb)
{
    const int pa = (int)(ga / T), ta = (int)(ga % T), pb = (int)(gb / T), tb = (int)(gb % T);
    if (pa == pb && share_corner(mesh->segments, mesh->sides, ta, tb))
        return 0;
    chk_tri a, b;
    chk_triangle(mesh, pa, ta, a.v);
    chk_triangle(mesh, pb, tb, b.v);
    return chk_tri_tri(&a, &b);
}

static int count_crossings(const skin_mesh *mesh, skin_report *out)
{
    const long T = 2L * mesh->segments * mesh->sides, all = T * mesh->rings;
    double *boxes = malloc(sizeof *boxes * 6 * (size_t)(all ? all : 1));
    chk_pair *pairs = NULL;
    long count = 0, total = 0, self = 0, best_a = -1, best_b = -1;
    if (!boxes)
        return -1;
    triangle_boxes(mesh, boxes);
    const int rc = chk_box_pairs(boxes, (int)all, &pairs, &count);
    free(boxes);
    if (rc != 0)
        return -1;
#pragma omp parallel
    {
        long mine_a = -1, mine_b = -1;
#pragma omp for schedule(dynamic, 4096) reduction(+ : total, self)
        for (long i = 0; i < count; i++) {
            const long ga = pairs[i].a, gb = pairs[i].b;
            if (!crossed(mesh, T, ga, gb))
                continue;
            total++;
            self += ga / T == gb / T;
            if (mine_a < 0 || ga < mine_a || (ga == mine_a && gb < mine_b))
                mine_a = ga, mine_b = gb;
        }
#pragma omp critical(skin_check_first)
        if (mine_a >= 0 && (best_a < 0 || mine_a < best_a || (mine_a == best_a && mine_b < best_b)))
            best_a = mine_a, best_b = mine_b;
    }
    free(pairs);
    out->crossed = total;
    out->crossed_self = self;
    if (best_a >= 0) {
        out->first_crossing = (skin_crossing){(int)(best_a / T), (int)(best_a % T),
                                              (int)(best_b / T), (int)(best_b % T)};
    }
    return 0;
}

/* The inside counts `what` asks for, with every ring's box and band
 * boxes made once for both. */
static int inside_counts(const skin_mesh *mesh, unsigned what, skin_report *out)
{
    const int P = mesh->rings, M = mesh->segments;
    double *ring = malloc(sizeof *ring * 6 * (size_t)(P ? P : 1));
    double *band = malloc(sizeof *band * 6 * (size_t)M * (size_t)(P ? P : 1));
    int rc = -1;
    if (ring && band) {
#pragma omp parallel for schedule(static)
        for (int p = 0; p < P; p++) {
            chk_ring_box(mesh, p, ring + 6 * p);
            chk_band_boxes(mesh, p, band + 6L * M * p);
        }
        const chk_boxes boxes = {ring, band};
        rc = 0;
        if (what & SKIN_CHECK_INSIDE)
            rc |= chk_inside_other(mesh, &boxes, &out->inside_other, &out->first_inside);
        if (what & SKIN_CHECK_OWN)
            rc |= chk_inside_own(mesh, &boxes, &out->inside_own, &out->first_own);
    }
    free(ring);
    free(band);
    return rc;
}

int skin_check(const skin_mesh *mesh, unsigned what, skin_report *out)
{
    memset(out, 0, sizeof *out);
    out->first_crossing.ring_a = -1;
    out->first_inside.ring = out->first_own.ring = -1;
    int rc = 0;
    if (what & SKIN_CHECK_CROSSINGS)
        rc |= count_crossings(mesh, out);
    if (what & (SKIN_CHECK_INSIDE | SKIN_CHECK_OWN))
        rc |= inside_counts(mesh, what, out);
    return rc;
}

void skin_report_describe(const skin_report *r, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    const skin_crossing *c = &r->first_crossing;
    if (c->ring_a >= 0 && at < len)
        at += (size_t)snprintf(buf + at, len - at, "%scrossed: ring %d triangle %d x ring %d "
                               "triangle %d", at ? "; " : "", c->ring_a, c->tri_a, c->ring_b, c->tri_b);
    const skin_inside *i = &r->first_inside;
    if (i->ring >= 0 && at < len)
        at += (size_t)snprintf(buf + at, len - at, "%sinside: ring %d vertex %d in ring %d "
                               "(winding %.3f)", at ? "; " : "", i->ring, i->vertex, i->other,
                               i->winding);
    const skin_inside *o = &r->first_own;
    if (o->ring >= 0 && at < len)
        snprintf(buf + at, len - at, "%sinside own: ring %d vertex %d (winding %.3f)",
                 at ? "; " : "", o->ring, o->vertex, o->winding);
}
