/* Exact orientation signs (check_predicates.h). The filter's bounds are
 * Shewchuk's "A" bounds for a determinant evaluated in double from
 * rounded differences; they assume each operation is rounded once
 * (the build's -ffp-contract=off: no fused multiply-add by the compiler).
 *
 * The exact path: each difference a - d is a two-term expansion (hi, lo)
 * by two-diff; each product of three differences is expanded into the
 * products of their parts (at most 8, only the non-zero ones), each
 * written exactly as four doubles by two two-products; all of them are
 * summed into one non-overlapping expansion by grow-expansion, whose
 * largest component has the sign of the sum. */
#include "tests/check_predicates.h"

#include <math.h>

#define EPS 1.1102230246251565e-16 /* 2^-53: half an ulp of 1 */
#define O3D_BOUND ((7.0 + 56.0 * EPS) * EPS)
#define O2D_BOUND ((3.0 + 16.0 * EPS) * EPS)
#define MAX_TERMS 200 /* 6 products x 8 part products x 4 doubles, and room */

/* a - b = hi + lo exactly. */
static void two_diff(double a, double b, double out[2])
{
    double x = a - b, bv = a - x, av = x + bv, br = bv - b, ar = a - av;
    out[0] = x;
    out[1] = ar + br;
}

/* a + b = x + y exactly. */
static void two_sum(double a, double b, double *x, double *y)
{
    *x = a + b;
    double bv = *x - a, av = *x - bv, br = b - bv, ar = a - av;
    *y = ar + br;
}

/* Adds b to the expansion e (n components, non-overlapping, increasing
 * magnitude, no zeros) in place; returns the new length. */
static int grow(double *e, int n, double b)
{
    double q = b;
    int k = 0;
    for (int i = 0; i < n; i++) {
        double hi, lo;
        two_sum(q, e[i], &hi, &lo);
        q = hi;
        if (lo != 0.0)
            e[k++] = lo;
    }
    if (q != 0.0)
        e[k++] = q;
    return k;
}

/* Sign of the exact sum of terms[0 .. n-1]. */
static int sum_sign(const double *terms, int n)
{
    double e[MAX_TERMS + 1];
    int len = 0;
    for (int i = 0; i < n; i++)
        if (terms[i] != 0.0)
            len = grow(e, len, terms[i]);
    return len == 0 ? 0 : e[len - 1] > 0.0 ? 1 : -1;
}

/* Appends s * x * y * z exactly (four doubles) to terms. */
static int push_product3(double *terms, int n, double s, double x, double y, double z)
{
    double p = x * y, pe = fma(x, y, -p);
    double q1 = p * z, f1 = fma(p, z, -q1);
    double q2 = pe * z, f2 = fma(pe, z, -q2);
    terms[n++] = s * q1, terms[n++] = s * f1, terms[n++] = s * q2, terms[n++] = s * f2;
    return n;
}

/* Appends s * u * v * w exactly, each factor a two-term expansion. */
static int push_expanded3(double *terms, int n, double s, const double u[2], const double v[2],
                          const double w[2])
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++)
                if (u[i] != 0.0 && v[j] != 0.0 && w[k] != 0.0)
                    n = push_product3(terms, n, s, u[i], v[j], w[k]);
    return n;
}

int chk_orient3d_exact(const double a[3], const double b[3], const double c[3],
                       const double d[3])
{
    double ad[3][2], bd[3][2], cd[3][2], terms[MAX_TERMS];
    for (int k = 0; k < 3; k++) {
        two_diff(a[k], d[k], ad[k]);
        two_diff(b[k], d[k], bd[k]);
        two_diff(c[k], d[k], cd[k]);
    }
    /* det = adx bdy cdz - adx bdz cdy + bdx cdy adz - bdx cdz ady
     *     + cdx ady bdz - cdx adz bdy */
    int n = 0;
    n = push_expanded3(terms, n, 1.0, ad[0], bd[1], cd[2]);
    n = push_expanded3(terms, n, -1.0, ad[0], bd[2], cd[1]);
    n = push_expanded3(terms, n, 1.0, bd[0], cd[1], ad[2]);
    n = push_expanded3(terms, n, -1.0, bd[0], cd[2], ad[1]);
    n = push_expanded3(terms, n, 1.0, cd[0], ad[1], bd[2]);
    n = push_expanded3(terms, n, -1.0, cd[0], ad[2], bd[1]);
    return sum_sign(terms, n);
}

int chk_orient3d(const double a[3], const double b[3], const double c[3], const double d[3])
{
    const double adx = a[0] - d[0], ady = a[1] - d[1], adz = a[2] - d[2];
    const double bdx = b[0] - d[0], bdy = b[1] - d[1], bdz = b[2] - d[2];
    const double cdx = c[0] - d[0], cdy = c[1] - d[1], cdz = c[2] - d[2];
    const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
    const double cdxady = cdx * ady, adxcdy = adx * cdy;
    const double adxbdy = adx * bdy, bdxady = bdx * ady;
    const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    const double permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * fabs(adz)
                           + (fabs(cdxady) + fabs(adxcdy)) * fabs(bdz)
                           + (fabs(adxbdy) + fabs(bdxady)) * fabs(cdz);
    const double bound = O3D_BOUND * permanent;
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    return chk_orient3d_exact(a, b, c, d);
}

int chk_orient2d_exact(const double a[2], const double b[2], const double c[2])
{
    double ac[2][2], bc[2][2], terms[16];
    for (int k = 0; k < 2; k++) {
        two_diff(a[k], c[k], ac[k]);
        two_diff(b[k], c[k], bc[k]);
    }
    /* det = acx bcy - acy bcx, each product of parts as two doubles */
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double p = ac[0][i] * bc[1][j], q = ac[1][i] * bc[0][j];
            terms[n++] = p, terms[n++] = fma(ac[0][i], bc[1][j], -p);
            terms[n++] = -q, terms[n++] = -fma(ac[1][i], bc[0][j], -q);
        }
    return sum_sign(terms, n);
}

int chk_orient2d(const double a[2], const double b[2], const double c[2])
{
    const double left = (a[0] - c[0]) * (b[1] - c[1]), right = (a[1] - c[1]) * (b[0] - c[0]);
    const double det = left - right, bound = O2D_BOUND * (fabs(left) + fabs(right));
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    return chk_orient2d_exact(a, b, c);
}
