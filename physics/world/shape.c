/* Rest geometry of the torus: spring offsets and rest lengths. */
#include "physics/world/shape.h"

#include <math.h>
#include <stdlib.h>

static const double TWO_PI = 6.283185307179586476925286766559;

void torus_point(double R, double r, int M, int N, int m, int n, double out[3])
{
    double phi = TWO_PI * m / M, theta = TWO_PI * n / N;
    double rho = R + r * cos(theta);
    out[0] = rho * cos(phi);
    out[1] = rho * sin(phi);
    out[2] = r * sin(theta);
}

void torus_profile(double R, double r, int N, double *rho, double *z)
{
    for (int n = 0; n < N; n++) {
        double theta = TWO_PI * n / N;
        rho[n] = R + r * cos(theta);
        z[n] = r * sin(theta);
    }
}

void profile_point(const double *rho, const double *z, int M, int m, int n, double out[3])
{
    double phi = TWO_PI * m / M;
    out[0] = rho[n] * cos(phi);
    out[1] = rho[n] * sin(phi);
    out[2] = z[n];
}

static int wrap(int i, int n) { return ((i % n) + n) % n; }

double torus_distance(double R, double r, int M, int N, int m1, int n1, int m2, int n2)
{
    /* |X1 - X2|^2 = rho1^2 + rho2^2 - 2 rho1 rho2 cos(dphi) + r^2 (sin t1 - sin t2)^2,
     * every term symmetric in the two points. */
    int dm = wrap(m1 - m2, M);
    if (dm > M - dm)
        dm = M - dm;
    double t1 = TWO_PI * wrap(n1, N) / N, t2 = TWO_PI * wrap(n2, N) / N;
    double rho1 = R + r * cos(t1), rho2 = R + r * cos(t2);
    double ds = sin(t1) - sin(t2);
    double d2 = rho1 * rho1 + rho2 * rho2 - 2.0 * (rho1 * rho2) * cos(TWO_PI * dm / M)
              + r * r * (ds * ds);
    return d2 > 0.0 ? sqrt(d2) : 0.0;
}

int torus_shape_init(torus_shape *s, int M, int N, int B, double R, double r)
{
    s->M = M; s->N = N; s->B = B; s->R = R; s->r = r;
    s->noff = B * B;
    s->di = malloc(sizeof *s->di * (size_t)s->noff);
    s->dj = malloc(sizeof *s->dj * (size_t)s->noff);
    s->rest = malloc(sizeof *s->rest * (size_t)s->noff * (size_t)N);
    if (!s->di || !s->dj || !s->rest) {
        torus_shape_free(s);
        return -1;
    }
    int h = B / 2, o = 0;
    for (int i = -h; i <= h; i++)
        for (int j = -h; j <= h; j++, o++) {
            s->di[o] = i;
            s->dj[o] = (i == 0 && j == 0) ? N / 2 : j;
            for (int n = 0; n < N; n++)
                s->rest[(size_t)o * N + n] =
                    (float)torus_distance(R, r, M, N, 0, n, s->di[o], n + s->dj[o]);
        }
    return 0;
}

void torus_shape_free(torus_shape *s)
{
    free(s->di); free(s->dj); free(s->rest);
    s->di = s->dj = NULL;
    s->rest = NULL;
}
