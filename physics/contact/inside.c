/* Whether a point is inside a closed ring mesh: the winding number of the
 * mesh about the point, the sum of its triangles' signed solid angles
 * (Van Oosterom and Strackee's formula) over 4 pi. */
#include "physics/contact/inside.h"

#include <math.h>

#define DOT(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])

/* Signed solid angle of triangle abc seen from the origin (the a, b, c
 * relative to the point), steradians. */
static double solid_angle(const double a[3], const double b[3], const double cc[3])
{
    double la = sqrt(DOT(a, a)), lb = sqrt(DOT(b, b)), lc = sqrt(DOT(cc, cc));
    double bxc[3] = {b[1] * cc[2] - b[2] * cc[1], b[2] * cc[0] - b[0] * cc[2],
                     b[0] * cc[1] - b[1] * cc[0]};
    double num = DOT(a, bxc);
    double den = la * lb * lc + DOT(a, b) * lc + DOT(a, cc) * lb + DOT(b, cc) * la;
    return 2.0 * atan2(num, den);
}

double mesh_winding_number(int M, int N, const float *x, const float *y, const float *z,
                           const double pt[3])
{
    double sum = 0.0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int m1 = (m + 1) % M, n1 = (n + 1) % N;
            int q[4] = {m * N + n, m1 * N + n, m1 * N + n1, m * N + n1};
            double r[4][3];
            for (int j = 0; j < 4; j++)
                r[j][0] = x[q[j]] - pt[0], r[j][1] = y[q[j]] - pt[1], r[j][2] = z[q[j]] - pt[2];
            sum += solid_angle(r[0], r[1], r[2]) + solid_angle(r[0], r[2], r[3]);
        }
    return sum / (4.0 * 3.14159265358979323846);
}
