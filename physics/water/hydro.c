/* Water-physics kernels: hydrostatic loads, gas helpers, drag; see hydro.h. */
#include "physics/water/hydro.h"
#include "physics/world/vec3.h"

#include <math.h>
#include <stddef.h>

double hydro_tet_volume(const double a[3], const double b[3], const double c[3])
{
    double bc[3];
    cross3(b, c, bc);
    return dot3(a, bc) / 6.0;
}

void hydro_area_normal(const double a[3], const double b[3], const double c[3], double an[3])
{
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    cross3(e1, e2, an);
    for (int k = 0; k < 3; k++)
        an[k] *= 0.5;
}

/* One wet sub-triangle p[0..2] (depths e[0..2] >= 0) of a parent triangle.
 * w[k][i] is the parent's shape function i at sub-vertex k (a row of the
 * identity for a parent vertex, (1 - t, t) on the cut edge for a cut point).
 * Its consistent loads f_k = -(A/12)(2 e_k + e_l + e_m) n go to the parent
 * vertices through w: the parent's linear shape functions restricted to the
 * sub-triangle are sum_k w[k][i] N_k, so the loads stay exactly consistent.
 * Returns the sub-triangle's area. */
static double wet_triangle(const double *const p[3], const double e[3], const double w[3][3],
                           double load[3][3], double moments[4])
{
    double an[3];
    hydro_area_normal(p[0], p[1], p[2], an);
    const double es = e[0] + e[1] + e[2];
    for (int k = 0; k < 3; k++) {
        const double s = -(e[k] + es) / 12.0; /* -(2 e_k + e_l + e_m) / 12 */
        for (int i = 0; i < 3; i++) {
            if (w[k][i] == 0.0)
                continue;
            for (int c = 0; c < 3; c++)
                load[i][c] += w[k][i] * (s * an[c]);
        }
    }
    if (moments) {
        /* Quadratic integrands, exact by the edge-midpoint rule:
         * int f dA = A/3 sum over the edge midpoints of f, and n_z A = an[2]. */
        double m[4] = {0.0, 0.0, 0.0, 0.0};
        for (int k = 0; k < 3; k++) {
            const int l = (k + 1) % 3;
            const double d = 0.5 * (e[k] + e[l]);
            const double x = 0.5 * (p[k][0] + p[l][0]);
            const double y = 0.5 * (p[k][1] + p[l][1]);
            const double z = 0.5 * (p[k][2] + p[l][2]);
            m[0] -= d;
            m[1] -= d * x;
            m[2] -= d * y;
            m[3] -= d * (z + 0.5 * d);
        }
        for (int j = 0; j < 4; j++)
            moments[j] += m[j] * (an[2] / 3.0);
    }
    return sqrt(dot3(an, an));
}

double hydro_triangle_loads(const double a[3], const double b[3], const double c[3],
                            const double depth[3], double load[3][3], double moments[4])
{
    const double *const x[3] = {a, b, c};
    int nwet = 0;
    for (int i = 0; i < 3; i++)
        nwet += depth[i] > 0.0;
    if (nwet == 0)
        return 0.0;
    if (nwet == 3) {
        static const double id[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        return wet_triangle(x, depth, id, load, moments);
    }
    /* Rotate (keeping the winding) so that vertex i is the odd one out:
     * the only wet vertex (nwet = 1) or the only dry one (nwet = 2). */
    int i = 0;
    for (int k = 0; k < 3; k++)
        if ((depth[k] > 0.0) == (nwet == 1))
            i = k;
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    /* Cut points on edges (i, j) and (i, k): t = d_i / (d_i - d_j). The
     * denominator is never 0: exactly one of the two depths is > 0. */
    const double tj = depth[i] / (depth[i] - depth[j]);
    const double tk = depth[i] / (depth[i] - depth[k]);
    double Ij[3], Ik[3];
    for (int c3 = 0; c3 < 3; c3++) {
        Ij[c3] = (1.0 - tj) * x[i][c3] + tj * x[j][c3];
        Ik[c3] = (1.0 - tk) * x[i][c3] + tk * x[k][c3];
    }
    double wi[3] = {0}, wj[3] = {0}, wk[3] = {0}, wIj[3] = {0}, wIk[3] = {0};
    wi[i] = 1.0;
    wj[j] = 1.0;
    wk[k] = 1.0;
    wIj[i] = 1.0 - tj;
    wIj[j] = tj;
    wIk[i] = 1.0 - tk;
    wIk[k] = tk;
    if (nwet == 1) {
        /* wet triangle (x_i, I_ij, I_ik) */
        const double *const p[3] = {x[i], Ij, Ik};
        const double e[3] = {depth[i], 0.0, 0.0};
        const double w[3][3] = {{wi[0], wi[1], wi[2]}, {wIj[0], wIj[1], wIj[2]}, {wIk[0], wIk[1], wIk[2]}};
        return wet_triangle(p, e, w, load, moments);
    }
    /* i dry, j and k wet: quad (x_j, x_k, I_ik, I_ij) as two triangles */
    const double *const p1[3] = {x[j], x[k], Ik};
    const double e1[3] = {depth[j], depth[k], 0.0};
    const double w1[3][3] = {{wj[0], wj[1], wj[2]}, {wk[0], wk[1], wk[2]}, {wIk[0], wIk[1], wIk[2]}};
    const double *const p2[3] = {x[j], Ik, Ij};
    const double e2[3] = {depth[j], 0.0, 0.0};
    const double w2[3][3] = {{wj[0], wj[1], wj[2]}, {wIk[0], wIk[1], wIk[2]}, {wIj[0], wIj[1], wIj[2]}};
    double area = wet_triangle(p1, e1, w1, load, moments);
    area += wet_triangle(p2, e2, w2, load, moments);
    return area;
}

double hydro_mesh_loads(int nt, const int *tri, const double *x, const double *depth,
                        double *load, double moments[4])
{
    double wet = 0.0;
    for (int f = 0; f < nt; f++) {
        const int *v = tri + 3 * f;
        const double d[3] = {depth[v[0]], depth[v[1]], depth[v[2]]};
        double l[3][3] = {{0}};
        wet += hydro_triangle_loads(x + 3 * v[0], x + 3 * v[1], x + 3 * v[2], d, l, moments);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++)
                load[3 * v[i] + c] += l[i][c];
    }
    return wet;
}

double hydro_mesh_volume(int nt, const int *tri, const double *x)
{
    double V = 0.0;
    for (int f = 0; f < nt; f++) {
        const int *v = tri + 3 * f;
        V += hydro_tet_volume(x + 3 * v[0], x + 3 * v[1], x + 3 * v[2]);
    }
    return V;
}

void hydro_mesh_volume_gradient(int nt, const int *tri, const double *x, double *grad)
{
    for (int f = 0; f < nt; f++) {
        const int *v = tri + 3 * f;
        double an[3];
        hydro_area_normal(x + 3 * v[0], x + 3 * v[1], x + 3 * v[2], an);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++)
                grad[3 * v[i] + c] += an[c] / 3.0;
    }
}

double gas_pressure(double p0_abs, double V0, double V)
{
    return p0_abs * V0 / V;
}

void hydro_face_drag(const double an[3], const double u[3], double rho, double cd, double cl,
                     double dt, double m_face, double force[3])
{
    force[0] = force[1] = force[2] = 0.0;
    const double A = sqrt(dot3(an, an));
    const double s = sqrt(dot3(u, u));
    if (A == 0.0 || s == 0.0)
        return;
    double n[3], uh[3];
    for (int k = 0; k < 3; k++) {
        n[k] = an[k] / A;
        uh[k] = u[k] / s;
    }
    const double c = dot3(n, uh);
    if (!(c > 0.0))
        return; /* trailing or edge-on face: in the wake */
    const double q = rho * A * s * s * c;
    const double fd = cd * q; /* drag magnitude, along -u */
    for (int k = 0; k < 3; k++)
        force[k] = -fd * uh[k] - cl * q * (n[k] - c * uh[k]);
    /* The clamp. Drag is stiff: its rate |dF/du| / m = 2 cd rho A |u| c / m
     * grows with |u|, so an explicit step of a light face at high speed
     * could overshoot, reversing u and feeding energy in. The velocity change
     * of one step along -u/|u| is fd dt / m_face (lift is perpendicular to
     * u and adds nothing along it); when that exceeds |u|, scale the whole
     * force (drag and lift alike, keeping its direction) so it is exactly
     * |u|: the face at most comes to rest relative to the water. */
    if (dt > 0.0) {
        const double dv = fd * dt / m_face;
        if (dv > s) {
            const double scale = s / dv;
            for (int k = 0; k < 3; k++)
                force[k] *= scale;
        }
    }
}
