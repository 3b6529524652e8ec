/* Rest geometry of the torus, shared by every ring of one shape. */
#ifndef DINGHY_SHAPE_H
#define DINGHY_SHAPE_H

typedef struct {
    int M, N, B;        /* segments, sides, band */
    double R, r;        /* major and minor radius, m */
    int noff;           /* B*B spring offsets per vertex */
    int *di, *dj;       /* offsets round the ring and round the tube; the
                           centre offset (0,0) stands for the across-tube
                           spring, stored as (0, N/2) */
    float *rest;        /* rest length [o*N + n] of offset o from tube index n, m */
} torus_shape;

/* Builds the offsets and rest lengths; returns 0 on success, -1 when out of memory. */
int torus_shape_init(torus_shape *s, int M, int N, int B, double R, double r);
void torus_shape_free(torus_shape *s);

/* Position of grid point (m, n) of the undeformed torus centred at the
 * origin with its axis along z, m. Exact in double. */
void torus_point(double R, double r, int M, int N, int m, int n, double out[3]);

/* The rest torus's cross-section: rho[n] = R + r cos(2 pi n / N) and
 * z[n] = r sin(2 pi n / N) (m), as torus_point computes them. */
void torus_profile(double R, double r, int N, double *rho, double *z);

/* Grid point (m, n) of a ring round the z axis whose every row has the
 * cross-section rho, z (m): torus_point's bits for torus_profile's. */
void profile_point(const double *rho, const double *z, int M, int m, int n, double out[3]);

/* Distance between grid points (m1, n1) and (m2, n2) of the undeformed
 * torus, computed symmetrically so that swapping the points gives the same
 * bits (the spring seen from either end has the same rest length). */
double torus_distance(double R, double r, int M, int N, int m1, int n1, int m2, int n2);

#endif
