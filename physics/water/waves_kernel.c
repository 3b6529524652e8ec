/* The wave layer's pair kernel, fitted to k tanh(k d); see waves_kernel.h.
 * Non-negative least squares by Lawson and Hanson ("Solving Least Squares
 * Problems", 1974, chapter 23), each inner least-squares problem by
 * Householder QR: a few hundred rows of at most WAVES_KERNEL_CLASSES
 * columns, once when a wave layer is made. */
#include "physics/water/waves_kernel.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

/* The fit: wave numbers up to FIT_NYQUIST of pi / c (0.7: waves 2.9 cells
 * long, far enough for the cusp waves of a wake towed at 1 m/s, k = 14.7
 * 1/m at 0.15 m cells; at 0.75 the group speed of water 1 cell deep was
 * 4.9% off), along FIT_DIRS
 * directions from the grid's x axis to its diagonal (the eight
 * symmetries cover the rest), FIT_K magnitudes each. */
#define FIT_NYQUIST 0.7
#define FIT_DIRS 5
#define FIT_K 36
#define FIT_ROWS (2 * FIT_DIRS * FIT_K + 1)
/* How much a row of the slope's relative error counts against one of the
 * value's: the group speed g lambda' / (2 omega) follows the slope. */
#define SLOPE_WEIGHT 1.0
/* How much more the long-wave row counts than a row of the relative
 * error: enough that the limit holds to about 1e-9. */
#define LONG_WAVE_WEIGHT 1e5

double waves_dispersion(double kn, double depth)
{
    return kn * tanh(kn * depth);
}

double waves_kernel_fitted_k(double cell)
{
    return FIT_NYQUIST * PI / cell;
}

/* The classes: offsets (a, b), a >= b >= 0, 0 < a^2 + b^2 <= R^2, by a then b. */
static void classes(waves_kernel *k)
{
    int n = 0;
    for (int a = 1; a <= WAVES_KERNEL_RADIUS; a++)
        for (int b = 0; b <= a; b++)
            if (a * a + b * b <= WAVES_KERNEL_RADIUS * WAVES_KERNEL_RADIUS) {
                k->a[n] = a;
                k->b[n] = b;
                k->members[n] = (b == 0 || b == a) ? 4 : 8;
                n++;
            }
    k->count = n;
}

/* Sum over the class's offsets o of 1 - cos(k . o c): one of each pair
 * o, -o (both give the same term) twice: (a, 0) and (0, a); (a, a) and
 * (a, -a); or (a, b), (a, -b), (b, a), (b, -a). */
static double class_symbol(int a, int b, double kx, double ky, double c)
{
    const int sa[4] = {a, b == 0 ? 0 : a, b, b}, sb[4] = {b, b == 0 ? a : -b, a, -a};
    const int count = (b == 0 || b == a) ? 2 : 4;
    double s = 0.0;
    for (int q = 0; q < count; q++)
        s += 2.0 * (1.0 - cos((kx * sa[q] + ky * sb[q]) * c));
    return s;
}

/* Its derivative along k, (kx, ky) = kn k^: the sum of 2 (k^ . o c)
 * sin(k . o c) over the same offsets. */
static double class_slope(int a, int b, double kx, double ky, double c)
{
    const int sa[4] = {a, b == 0 ? 0 : a, b, b}, sb[4] = {b, b == 0 ? a : -b, a, -a};
    const int count = (b == 0 || b == a) ? 2 : 4;
    const double kn = hypot(kx, ky), ux = kx / kn, uy = ky / kn;
    double s = 0.0;
    for (int q = 0; q < count; q++)
        s += 2.0 * (ux * sa[q] + uy * sb[q]) * c * sin((kx * sa[q] + ky * sb[q]) * c);
    return s;
}

int waves_kernel_reach(void)
{
    waves_kernel k;
    classes(&k);
    int reach = 0;
    for (int c = 0; c < k.count; c++)
        reach = k.a[c] > reach ? k.a[c] : reach;
    return reach;
}

double waves_kernel_symbol(const waves_kernel *k, double kx, double ky)
{
    double s = 0.0;
    for (int j = 0; j < k->count; j++)
        s += k->weight[j] * class_symbol(k->a[j], k->b[j], kx, ky, k->cell);
    return s;
}

/* Least squares min |A x - y| over the columns listed in cols (count of
 * them) of A (rows x n, row-major), by Householder QR on a copy; x gets
 * those columns' values. */
static void least_squares(const double *A, const double *y, int rows, int n, const int *cols,
                          int count, double *x)
{
    double Q[FIT_ROWS][WAVES_KERNEL_CLASSES], r[FIT_ROWS];
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < count; j++)
            Q[i][j] = A[i * n + cols[j]];
        r[i] = y[i];
    }
    for (int j = 0; j < count; j++) {
        double norm = 0.0;
        for (int i = j; i < rows; i++)
            norm += Q[i][j] * Q[i][j];
        norm = sqrt(norm);
        if (norm == 0.0)
            continue;
        const double alpha = Q[j][j] > 0.0 ? -norm : norm;
        double v[FIT_ROWS];
        for (int i = j; i < rows; i++)
            v[i] = Q[i][j];
        v[j] -= alpha;
        double vv = 0.0;
        for (int i = j; i < rows; i++)
            vv += v[i] * v[i];
        for (int l = j; l < count; l++) {
            double d = 0.0;
            for (int i = j; i < rows; i++)
                d += v[i] * Q[i][l];
            d = 2.0 * d / vv;
            for (int i = j; i < rows; i++)
                Q[i][l] -= d * v[i];
        }
        double d = 0.0;
        for (int i = j; i < rows; i++)
            d += v[i] * r[i];
        d = 2.0 * d / vv;
        for (int i = j; i < rows; i++)
            r[i] -= d * v[i];
    }
    for (int j = count - 1; j >= 0; j--) {
        double s = r[j];
        for (int l = j + 1; l < count; l++)
            s -= Q[j][l] * x[l];
        x[j] = Q[j][j] != 0.0 ? s / Q[j][j] : 0.0;
    }
}

/* Lawson-Hanson: min |A x - y| subject to x >= 0. */
static void nnls(const double *A, const double *y, int rows, int n, double *x)
{
    int passive[WAVES_KERNEL_CLASSES] = {0};
    double z[WAVES_KERNEL_CLASSES], w[WAVES_KERNEL_CLASSES];
    for (int j = 0; j < n; j++)
        x[j] = 0.0;
    for (int outer = 0; outer < 3 * n; outer++) {
        /* the gradient A^T (y - A x) */
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int i = 0; i < rows; i++) {
                double res = y[i];
                for (int l = 0; l < n; l++)
                    res -= A[i * n + l] * x[l];
                s += A[i * n + j] * res;
            }
            w[j] = s;
        }
        int t = -1;
        for (int j = 0; j < n; j++)
            if (!passive[j] && w[j] > 1e-12 && (t < 0 || w[j] > w[t]))
                t = j;
        if (t < 0)
            return;
        passive[t] = 1;
        for (int inner = 0; inner < 3 * n; inner++) {
            int cols[WAVES_KERNEL_CLASSES], count = 0;
            for (int j = 0; j < n; j++)
                if (passive[j])
                    cols[count++] = j;
            double zp[WAVES_KERNEL_CLASSES];
            least_squares(A, y, rows, n, cols, count, zp);
            for (int j = 0; j < n; j++)
                z[j] = 0.0;
            int feasible = 1;
            for (int q = 0; q < count; q++) {
                z[cols[q]] = zp[q];
                feasible &= zp[q] > 0.0;
            }
            if (feasible) {
                memcpy(x, z, sizeof(double) * (size_t)n);
                break;
            }
            /* step from x toward z as far as x stays >= 0 */
            double alpha = 1.0;
            for (int j = 0; j < n; j++)
                if (passive[j] && z[j] <= 0.0 && x[j] - z[j] > 0.0)
                    alpha = fmin(alpha, x[j] / (x[j] - z[j]));
            for (int j = 0; j < n; j++) {
                x[j] += alpha * (z[j] - x[j]);
                if (passive[j] && x[j] <= 1e-15) {
                    x[j] = 0.0;
                    passive[j] = 0;
                }
            }
        }
    }
}

void waves_kernel_fit(double depth, double cell, waves_kernel *k)
{
    memset(k, 0, sizeof *k);
    classes(k);
    k->depth = depth;
    k->cell = cell;
    const int n = k->count;
    double A[FIT_ROWS * WAVES_KERNEL_CLASSES], y[FIT_ROWS];
    const double kfit = waves_kernel_fitted_k(cell);
    int row = 0;
    for (int d = 0; d < FIT_DIRS; d++) {
        const double th = 0.25 * PI * d / (FIT_DIRS - 1);
        for (int q = 0; q < FIT_K; q++, row++) {
            const double kn = kfit * (q + 1) / FIT_K, kx = kn * cos(th), ky = kn * sin(th);
            const double target = waves_dispersion(kn, depth);
            for (int j = 0; j < n; j++)
                A[row * n + j] = class_symbol(k->a[j], k->b[j], kx, ky, cell) / target;
            y[row] = 1.0;
        }
    }
    const int values = row;
    for (int d = 0; d < FIT_DIRS; d++) {
        const double th = 0.25 * PI * d / (FIT_DIRS - 1);
        for (int q = 0; q < FIT_K; q++, row++) {
            const double kn = kfit * (q + 1) / FIT_K, kx = kn * cos(th), ky = kn * sin(th);
            const double t = tanh(kn * depth), slope = t + kn * depth * (1.0 - t * t);
            for (int j = 0; j < n; j++)
                A[row * n + j] = SLOPE_WEIGHT * class_slope(k->a[j], k->b[j], kx, ky, cell) / slope;
            y[row] = SLOPE_WEIGHT;
        }
    }
    /* long waves: lambda -> (1/2) sum_o W_o (o_x c)^2 k^2 = d k^2 */
    for (int j = 0; j < n; j++) {
        const double moment = 0.5 * (0.5 * k->members[j]) * (k->a[j] * k->a[j] + k->b[j] * k->b[j])
                            * cell * cell;
        A[row * n + j] = LONG_WAVE_WEIGHT * moment / depth;
    }
    y[row++] = LONG_WAVE_WEIGHT;
    nnls(A, y, row, n, k->weight);
    k->sum = 0.0;
    for (int j = 0; j < n; j++)
        k->sum += k->members[j] * k->weight[j];
    /* the phase speed's error, sqrt(lambda / target) - 1, at every row */
    double worst = 0.0;
    for (int i = 0; i < values; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * k->weight[j];
        worst = fmax(worst, fabs(sqrt(s) - 1.0));
    }
    k->worst_error = worst;
}
