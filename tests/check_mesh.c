/* The torus grid's numbering and boxes (check_mesh.h). */
#include "tests/check_mesh.h"

#include <math.h>

void chk_triangle_corners(int M, int N, int t, int out[3])
{
    const int q = t / 2, m = q / N, n = q % N, m1 = (m + 1) % M, n1 = (n + 1) % N;
    out[0] = m * N + n;
    if (t % 2 == 0) {
        out[1] = m1 * N + n;
        out[2] = m1 * N + n1;
    } else {
        out[1] = m1 * N + n1;
        out[2] = m * N + n1;
    }
}

void chk_vertex(const skin_mesh *mesh, long i, double out[3])
{
    out[0] = mesh->x[i];
    out[1] = mesh->y[i];
    out[2] = mesh->z[i];
}

void chk_triangle(const skin_mesh *mesh, int p, int t, double out[3][3])
{
    int c[3];
    const long base = (long)p * mesh->segments * mesh->sides;
    chk_triangle_corners(mesh->segments, mesh->sides, t, c);
    for (int i = 0; i < 3; i++)
        chk_vertex(mesh, base + c[i], out[i]);
}

void chk_ring_box(const skin_mesh *mesh, int p, double box[6])
{
    const long MN = (long)mesh->segments * mesh->sides;
    box[0] = box[1] = box[2] = INFINITY;
    box[3] = box[4] = box[5] = -INFINITY;
    for (long i = p * MN; i < (p + 1) * MN; i++) {
        double v[3];
        chk_vertex(mesh, i, v);
        for (int k = 0; k < 3; k++)
            box[k] = fmin(box[k], v[k]), box[3 + k] = fmax(box[3 + k], v[k]);
    }
}

int chk_in_box(const double box[6], const double pt[3])
{
    return pt[0] >= box[0] && pt[0] <= box[3] && pt[1] >= box[1] && pt[1] <= box[4]
        && pt[2] >= box[2] && pt[2] <= box[5];
}
