/* The wave layer's operator: the weights of its pair kernel, fitted to the
 * dispersion of water waves of finite depth (docs/physics.md section 14).
 * Private to the wave layer.
 *
 * The operator K acts on the surface's velocity potential phi: the waves'
 * height rises at h_t = K phi. On a grid of square cells it is a sum over
 * pairs of cells at the offsets o = (a, b) (|o| <= WAVES_KERNEL_RADIUS cells),
 *   (K phi)_i = sum_o W_o (phi_i - phi_{i+o}),
 * with W_o = W_{-o} >= 0: a weighted graph Laplacian. Such an operator
 * takes no volume (sum_i (K phi)_i = 0: the pairs cancel) and is
 * positive semi-definite whatever pairs are taken out (a wall, a dry
 * cell), so the explicit step's bound holds with walls anywhere. Its
 * symbol, lambda(k) = sum_o W_o (1 - cos(k . o c)), is fitted to the
 * linear dispersion of water of depth d, omega^2 = g k tanh(k d): the
 * weights are non-negative least squares of the relative error of the
 * symbol and of its slope (the group speed) over the wave numbers the
 * grid carries, with the long-wave limit held exactly (lambda = d k^2 as
 * k -> 0: long waves travel at sqrt(g d)). */
#ifndef DINGHY_WAVES_KERNEL_H
#define DINGHY_WAVES_KERNEL_H

/* The kernel's reach, in cells: offsets with a^2 + b^2 <= R^2. A dense
 * disc: offsets farther out, alone, make the symbol ripple in k and the
 * group speed with it (docs/physics.md section 14). */
#define WAVES_KERNEL_RADIUS 9
/* Offsets (a, b) with a >= b >= 0 in that disc, (0, 0) left out: the
 * classes of offsets that share a weight (the grid's eight symmetries). */
#define WAVES_KERNEL_CLASSES 39

typedef struct {
    int count;                           /* classes used */
    double weight[WAVES_KERNEL_CLASSES]; /* W of each class, 1/m (>= 0) */
    int a[WAVES_KERNEL_CLASSES];         /* the class's offset (a, b), a >= b >= 0, cells */
    int b[WAVES_KERNEL_CLASSES];
    int members[WAVES_KERNEL_CLASSES];   /* offsets in the class: 4 or 8 */
    double depth;                        /* d the kernel is fitted to, m */
    double cell;                         /* c, m */
    double sum;                          /* sum over all offsets of W_o, 1/m: a
                                            Gershgorin bound of K is 2 sum */
    double worst_error;                  /* largest relative error of the phase
                                            speed over the fitted wave numbers */
} waves_kernel;

/* The kernel's reach: the largest |a| or |b| of its offsets, cells. */
int waves_kernel_reach(void);

/* Fits the kernel for water of depth `depth` (m, > 0) on cells of `cell`
 * (m, > 0). Deterministic: the same inputs give the same bits. */
void waves_kernel_fit(double depth, double cell, waves_kernel *k);

/* The kernel's symbol lambda(k) at the wave vector (kx, ky), 1/m: what
 * K does to exp(i k . x) on an open grid (omega^2 = g lambda). */
double waves_kernel_symbol(const waves_kernel *k, double kx, double ky);

/* The water's own: k tanh(k d), 1/m, for |k| = kn (1/m) and depth d (m). */
double waves_dispersion(double kn, double depth);

/* The largest wave number the fit is asked to match, 1/m: FIT_NYQUIST of
 * the grid's pi / c (shorter waves are too few cells long to follow). */
double waves_kernel_fitted_k(double cell);

#endif
