/* The water-physics kernels (physics/water/hydro.h) against docs/physics.md sections
 * 3-5 and 7: exact clipped buoyancy on cubes and tori, the gas identities,
 * drag, lift, the clamp and a terminal speed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/water/hydro.h"
#include "tests/support.h"
#include "physics/water/face_loads.h"

static const double PI = 3.14159265358979323846;


/* ---- helpers: a seeded generator, rotations, meshes ---- */


/* A uniformly random rotation matrix (Shoemake's quaternion). */
static void random_rotation(double R[3][3])
{
    const double u1 = test_uniform(), u2 = 2 * PI * test_uniform(), u3 = 2 * PI * test_uniform();
    const double a = sqrt(1 - u1), b = sqrt(u1);
    const double w = a * sin(u2), x = a * cos(u2), y = b * sin(u3), z = b * cos(u3);
    R[0][0] = 1 - 2 * (y * y + z * z), R[0][1] = 2 * (x * y - z * w), R[0][2] = 2 * (x * z + y * w);
    R[1][0] = 2 * (x * y + z * w), R[1][1] = 1 - 2 * (x * x + z * z), R[1][2] = 2 * (y * z - x * w);
    R[2][0] = 2 * (x * z - y * w), R[2][1] = 2 * (y * z + x * w), R[2][2] = 1 - 2 * (x * x + y * y);
}

/* x <- R x + t for the nv vertices. */
static void transform(int nv, double *x, double R[3][3], const double t[3])
{
    for (int i = 0; i < nv; i++) {
        double *p = x + 3 * i, q[3];
        for (int r = 0; r < 3; r++)
            q[r] = R[r][0] * p[0] + R[r][1] * p[1] + R[r][2] * p[2] + t[r];
        memcpy(p, q, sizeof q);
    }
}

/* The unit cube [0,1]^3: 8 vertices (bit k of i is coordinate k), 12
 * outward triangles. */
enum { CUBE_NV = 8, CUBE_NT = 12 };
static const int cube_tri[3 * CUBE_NT] = {
    0, 2, 3, 0, 3, 1, /* z = 0 */ 4, 5, 7, 4, 7, 6, /* z = 1 */
    0, 1, 5, 0, 5, 4, /* y = 0 */ 2, 6, 7, 2, 7, 3, /* y = 1 */
    0, 4, 6, 0, 6, 2, /* x = 0 */ 1, 3, 7, 1, 7, 5, /* x = 1 */
};
static void cube_vertices(double *x)
{
    for (int i = 0; i < CUBE_NV; i++)
        for (int k = 0; k < 3; k++)
            x[3 * i + k] = (double)((i >> k) & 1);
}

/* A torus M x N (m round the ring, n round the tube), ring radius R, tube
 * radius r, axis z, centre at the origin: vertex m N + n, two outward
 * triangles per grid quad. x: 3 M N doubles, tri: 6 M N ints. */
static void torus_mesh(int M, int N, double R, double r, double *x, int *tri)
{
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            const double th = 2 * PI * m / M, ph = 2 * PI * n / N;
            double *p = x + 3 * (m * N + n);
            p[0] = (R + r * cos(ph)) * cos(th);
            p[1] = (R + r * cos(ph)) * sin(th);
            p[2] = r * sin(ph);
            const int a = m * N + n, b = ((m + 1) % M) * N + n;
            const int c = ((m + 1) % M) * N + (n + 1) % N, d = m * N + (n + 1) % N;
            int *t = tri + 6 * (m * N + n);
            t[0] = a, t[1] = b, t[2] = c, t[3] = a, t[4] = c, t[5] = d;
        }
}

/* Total force and torque about p of per-vertex loads. */
static void resultant(int nv, const double *x, const double *f, const double p[3],
                      double F[3], double T[3])
{
    F[0] = F[1] = F[2] = T[0] = T[1] = T[2] = 0;
    for (int i = 0; i < nv; i++) {
        const double *fi = f + 3 * i;
        const double r[3] = {x[3 * i] - p[0], x[3 * i + 1] - p[1], x[3 * i + 2] - p[2]};
        for (int k = 0; k < 3; k++)
            F[k] += fi[k];
        T[0] += r[1] * fi[2] - r[2] * fi[1];
        T[1] += r[2] * fi[0] - r[0] * fi[2];
        T[2] += r[0] * fi[1] - r[1] * fi[0];
    }
}

/* Volume centroid of a closed mesh, from its tetrahedra on the origin. */
static void mesh_centroid(int nt, const int *tri, const double *x, double c[3])
{
    double V = 0, s[3] = {0, 0, 0};
    for (int f = 0; f < nt; f++) {
        const double *a = x + 3 * tri[3 * f], *b = x + 3 * tri[3 * f + 1], *d = x + 3 * tri[3 * f + 2];
        const double v = hydro_tet_volume(a, b, d);
        V += v;
        for (int k = 0; k < 3; k++)
            s[k] += v * (a[k] + b[k] + d[k]) / 4;
    }
    for (int k = 0; k < 3; k++)
        c[k] = s[k] / V;
}

/* The part of the unit cube where n . x <= d (no n_i = 0, any signs):
 * its volume (docs/physics.md section 4) and S1 = int (n . x) dV. A negative n_i
 * is made positive by the reflection x_i -> 1 - x_i, which moves the plane
 * to d' = d - n_i; then V(d') = sum_v (-1)^|v| max(0, d' - n.v)^3 / (6 n1 n2 n3)
 * and, with s = n . x measured from the reflected corner,
 * int s dV = int_0^d' s V'(s) ds = d' V - int_0^d' V = d' V - W(d'). */
static void cube_cut(const double n[3], double d, double *V, double *S1)
{
    double m[3], shift = 0;
    for (int k = 0; k < 3; k++) {
        m[k] = fabs(n[k]);
        if (n[k] < 0)
            shift += n[k];
    }
    const double dp = d - shift, prod = m[0] * m[1] * m[2];
    double v3 = 0, v4 = 0;
    for (int v = 0; v < 8; v++) {
        const int bits = (v & 1) + ((v >> 1) & 1) + ((v >> 2) & 1);
        const double e = fmax(0.0, dp - (m[0] * (v & 1) + m[1] * ((v >> 1) & 1) + m[2] * ((v >> 2) & 1)));
        const double sign = bits % 2 ? -1.0 : 1.0;
        v3 += sign * e * e * e;
        v4 += sign * e * e * e * e;
    }
    *V = v3 / (6 * prod);
    *S1 = dp * *V - v4 / (24 * prod) + shift * *V;
}

/* ---- section 4: exact buoyancy ---- */

/* Unit cube under planes n . x <= d with all n_i > 0 (and n unit), d swept
 * across the cube: the loads add up to exactly V_sub n, V_sub the closed form. */
static void test_cube_cut_planes(void **state)
{
    (void)state;
    double x[3 * CUBE_NV], depth[CUBE_NV];
    cube_vertices(x);
    for (int trial = 0; trial < 60; trial++) {
        double n[3], len = 0;
        for (int k = 0; k < 3; k++)
            n[k] = 0.1 + 0.9 * test_uniform(), len += n[k] * n[k];
        for (int k = 0; k < 3; k++)
            n[k] /= sqrt(len);
        const double top = n[0] + n[1] + n[2];
        for (int s = 0; s <= 40; s++) {
            const double d = -0.05 * top + 1.1 * top * s / 40.0;
            for (int i = 0; i < CUBE_NV; i++)
                depth[i] = d - (n[0] * x[3 * i] + n[1] * x[3 * i + 1] + n[2] * x[3 * i + 2]);
            double load[3 * CUBE_NV] = {0}, V, S1;
            const double wet = hydro_mesh_loads(CUBE_NT, cube_tri, x, depth, load, NULL);
            cube_cut(n, d, &V, &S1);
            double F[3], T[3];
            const double o[3] = {0, 0, 0};
            resultant(CUBE_NV, x, load, o, F, T);
            for (int k = 0; k < 3; k++)
                assert_close(F[k], V * n[k], 1e-9);
            assert_true(wet >= 0 && wet <= 6 + 1e-12);
            if (d <= 0)
                assert_true(wet == 0);
            if (d >= top)
                assert_close(wet, 6, 1e-12);
        }
    }
}

/* Randomly rotated and moved unit cubes under a horizontal surface at
 * random levels: force = V_sub up, moments[0] = V_sub, moments[3] = int z dV
 * (closed form), and the torque of the loads about the origin equals that of
 * the buoyancy at the centre of buoyancy, (int x dV) x e_z: consistent loads
 * and moments agree on where it acts. */
static void test_cube_rotated_horizontal(void **state)
{
    (void)state;
    int cases = 0;
    while (cases < 200) {
        double R[3][3], x[3 * CUBE_NV], depth[CUBE_NV];
        random_rotation(R);
        if (fabs(R[2][0]) < 0.05 || fabs(R[2][1]) < 0.05 || fabs(R[2][2]) < 0.05)
            continue; /* the closed form divides by n1 n2 n3 */
        const double t[3] = {test_uniform() - 0.5, test_uniform() - 0.5, test_uniform() - 0.5};
        cube_vertices(x);
        transform(CUBE_NV, x, R, t);
        double zlo = INFINITY, zhi = -INFINITY;
        for (int i = 0; i < CUBE_NV; i++)
            zlo = fmin(zlo, x[3 * i + 2]), zhi = fmax(zhi, x[3 * i + 2]);
        const double eta = zlo + (zhi - zlo) * (0.02 + 0.96 * test_uniform());
        for (int i = 0; i < CUBE_NV; i++)
            depth[i] = eta - x[3 * i + 2];
        double load[3 * CUBE_NV] = {0}, mom[4] = {0}, V, S1, F[3], T[3];
        const double o[3] = {0, 0, 0};
        hydro_mesh_loads(CUBE_NT, cube_tri, x, depth, load, mom);
        resultant(CUBE_NV, x, load, o, F, T);
        const double n[3] = {R[2][0], R[2][1], R[2][2]}; /* world z in cube coordinates */
        cube_cut(n, eta - t[2], &V, &S1);
        assert_true(V > 0);
        assert_close(F[0], 0, 1e-9);
        assert_close(F[1], 0, 1e-9);
        assert_close(F[2], V, 1e-9);
        assert_close(mom[0], V, 1e-9);
        assert_close(mom[3], S1 + t[2] * V, 1e-9); /* int z dV, z = n . x' + t_z */
        assert_close(T[0], mom[2], 1e-9);           /* (Mx, My, Mz) x e_z = (My, -Mx, 0) */
        assert_close(T[1], -mom[1], 1e-9);
        assert_close(T[2], 0, 1e-9);
        cases++;
    }
}

/* Closed meshes (a cube, a torus) wholly under water, in random
 * orientations and with random "up" directions: force V_mesh up, zero torque
 * about the volume centroid; with up = +z the moments give V_mesh and the
 * centroid. */
static void test_submerged_closed_mesh(void **state)
{
    (void)state;
    enum { M = 24, N = 12 };
    static double x[3 * M * N], load[3 * M * N], depth[M * N];
    static int tri[6 * M * N];
    for (int shape = 0; shape < 2; shape++)
        for (int trial = 0; trial < 20; trial++) {
            int nv, nt;
            const int *t;
            double size;
            if (shape == 0) {
                cube_vertices(x);
                nv = CUBE_NV, nt = CUBE_NT, t = cube_tri, size = 1;
            } else {
                torus_mesh(M, N, 1.0, 0.3, x, tri);
                nv = M * N, nt = 2 * M * N, t = tri, size = 1.3;
            }
            double R[3][3], c[3];
            const double shift[3] = {4 * test_uniform() - 2, 4 * test_uniform() - 2, 4 * test_uniform() - 2};
            random_rotation(R);
            transform(nv, x, R, shift);
            const double V = hydro_mesh_volume(nt, t, x);
            assert_true(V > 0);
            mesh_centroid(nt, t, x, c);
            /* up = +z (trial even) or a random unit vector */
            double up[3] = {0, 0, 1};
            if (trial % 2) {
                double Q[3][3];
                random_rotation(Q);
                up[0] = Q[0][2], up[1] = Q[1][2], up[2] = Q[2][2];
            }
            const double level = 10.0; /* above everything */
            for (int i = 0; i < nv; i++)
                depth[i] = level - (up[0] * x[3 * i] + up[1] * x[3 * i + 1] + up[2] * x[3 * i + 2]);
            double mom[4] = {0}, F[3], T[3];
            memset(load, 0, sizeof load);
            hydro_mesh_loads(nt, t, x, depth, load, mom);
            resultant(nv, x, load, c, F, T);
            for (int k = 0; k < 3; k++) {
                assert_close(F[k], V * up[k], 1e-9 * V);
                assert_close(T[k], 0, 1e-9 * V * size);
            }
            if (trial % 2 == 0) {
                assert_close(mom[0], V, 1e-9 * V);
                for (int k = 0; k < 3; k++)
                    assert_close(mom[1 + k] / mom[0], c[k], 1e-9 * size);
            }
        }
}

/* A fine flat torus (axis vertical), tube centre-plane h below the surface:
 * V_sub = 2 pi R A_seg(s), s = r + h, within the mesh deficit, and the
 * centre of buoyancy on the axis at the depth of the segment's centroid
 * (each vertical cross-section is the same segment, symmetric about the
 * tube centre, so the z of the centroid is the segment's). */
static void test_flat_torus_floats(void **state)
{
    (void)state;
    enum { M = 256, N = 128 };
    const double R = 1.0, r = 0.25;
    static double x[3 * M * N], load[3 * M * N], depth[M * N];
    static int tri[6 * M * N];
    const double hs[] = {-0.2, -0.1, 0.0, 0.05, 0.15, 0.22};
    for (size_t q = 0; q < sizeof hs / sizeof hs[0]; q++) {
        const double h = hs[q], s = r + h;
        torus_mesh(M, N, R, r, x, tri);
        for (int i = 0; i < M * N; i++) {
            x[3 * i + 2] -= h;
            depth[i] = 0.0 - x[3 * i + 2]; /* surface at z = 0 */
        }
        double mom[4] = {0};
        memset(load, 0, sizeof load);
        const double wet = hydro_mesh_loads(2 * M * N, tri, x, depth, load, mom);
        const double al = acos((r - s) / r); /* half-angle of the wet segment */
        const double Aseg = r * r * al - (r - s) * sqrt(2 * r * s - s * s);
        const double Vexact = 2 * PI * R * Aseg;
        const double zB = -h - 4 * r * pow(sin(al), 3) / (3 * (2 * al - sin(2 * al)));
        assert_close(mom[0], Vexact, 5e-3 * Vexact);
        double Fz = 0;
        for (int i = 0; i < M * N; i++)
            Fz += load[3 * i + 2];
        assert_close(Fz, mom[0], 1e-9 * mom[0]);
        assert_true(mom[3] / mom[0] < 0);
        assert_close(mom[3] / mom[0], zB, 5e-3 * r);
        assert_close(mom[1] / mom[0], 0, 1e-9);
        assert_close(mom[2] / mom[0], 0, 1e-9);
        /* wet area: the wet arc 2 al r round the ring, by Pappus */
        assert_close(wet, 2 * PI * R * 2 * al * r, 5e-3 * 2 * PI * R * 2 * al * r);
    }
}

/* One triangle by hand, cut with one and with two wet vertices: the loads
 * are those of the wet part computed directly, force and torque. */
static void test_triangle_cut_by_hand(void **state)
{
    (void)state;
    /* right triangle in the plane x = 0, normal +x; depth = -z (surface z = 0):
     * a = (0,0,-1) depth 1, b = (0,1,-1) depth 1, c = (0,0,1) depth -1. */
    const double a[3] = {0, 0, -1}, b[3] = {0, 1, -1}, c[3] = {0, 0, 1};
    const double depth[3] = {1, 1, -1};
    double load[3][3] = {{0}};
    const double wet = hydro_triangle_loads(a, b, c, depth, load, NULL);
    /* Wet part: z in [-1, 0], width y in [0, (1 - z)/2]. Pressure -z.
     * Area = int_{-1}^0 (1-z)/2 dz = 3/4. Force_x = -int (-z)(1-z)/2 dz = -5/12. */
    assert_close(wet, 0.75, 1e-14);
    double F = load[0][0] + load[1][0] + load[2][0];
    assert_close(F, -5.0 / 12.0, 1e-14);
    /* Torque about the origin of a force along x at (0, y, z): (0, z F, -y F).
     * int over the wet part of (-z) z dA and (-z) y dA. */
    double Ty = 0, Tz = 0;
    for (int i = 0; i < 3; i++) {
        const double *p = i == 0 ? a : i == 1 ? b : c;
        Ty += p[2] * load[i][0];
        Tz -= p[1] * load[i][0];
    }
    /* int_{-1}^0 (-z) z (1-z)/2 dz = -7/24; int (-z) (1-z)^2/8 dz = 17/96 */
    assert_close(Ty, -(-7.0 / 24.0), 1e-14);
    assert_close(Tz, 17.0 / 96.0, 1e-14);
    /* the same with one wet vertex: flip the depths, surface side swaps */
    const double d2[3] = {-1, -1, 1};
    double l2[3][3] = {{0}};
    const double w2 = hydro_triangle_loads(a, b, c, d2, l2, NULL);
    /* wet part z in [0, 1], width (1 - z)/2, pressure z: area 1/4, force -1/12 */
    assert_close(w2, 0.25, 1e-14);
    assert_close(l2[0][0] + l2[1][0] + l2[2][0], -1.0 / 12.0, 1e-14);
    /* all dry: nothing added */
    const double d3[3] = {-1, -2, 0};
    double l3[3][3] = {{0}};
    assert_true(hydro_triangle_loads(a, b, c, d3, l3, NULL) == 0);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            assert_true(l3[i][k] == 0);
}


/* The tick's face loads kernel (float, vectorised, the cut faces in closed form)
 * gives every vertex the load of the exact double clipper, on rings cut by
 * the surface at random tilts and depths: every face type (wet, dry, one
 * corner wet, one dry) occurs. A wrong cut-face formula is off by a good
 * part of a face's load, far more than float rounding. */
static void test_face_loads_cut_faces_match_clipper(void **state)
{
    (void)state;
    enum { M = 16, N = 8, NV = M * N };
    static double x[3 * NV], load[3 * NV];
    static int tri[6 * NV];
    static float fx[NV], fy[NV], fz[NV], zero[NV], px[NV], py[NV], pz[NV];
    static float scratch[8192];
    assert_true(face_loads_scratch_floats(N, M) <= sizeof scratch / sizeof scratch[0]);
    const double rho_g = 1000.0 * 9.81;
    int cut_faces = 0;
    for (int trial = 0; trial < 20; trial++) {
        torus_mesh(M, N, 0.5, 0.15, x, tri);
        double R[3][3], t[3] = {0.0, 0.0, 0.3 * (test_uniform() - 0.5)};
        random_rotation(R);
        transform(NV, x, R, t);
        double depth[NV];
        for (int v = 0; v < NV; v++) {
            px[v] = (float)x[3 * v], py[v] = (float)x[3 * v + 1], pz[v] = (float)x[3 * v + 2];
            x[3 * v] = px[v], x[3 * v + 1] = py[v], x[3 * v + 2] = pz[v]; /* the same points */
            depth[v] = 0.0 - x[3 * v + 2];
        }
        for (int f = 0; f < 2 * NV; f++) {
            int wet = 0;
            for (int c = 0; c < 3; c++)
                wet += depth[tri[3 * f + c]] > 0.0;
            cut_faces += wet == 1 || wet == 2;
        }
        memset(load, 0, sizeof load);
        hydro_mesh_loads(2 * NV, tri, x, depth, load, NULL);
        face_loads_consts k = {0};
        k.rho_g = (float)rho_g;
        k.rho_water = 1000.0f;
        k.rho_air = 1.2f;
        k.dt = 1e-3f;
        k.m_face = 0.01f;
        memset(fx, 0, sizeof fx), memset(fy, 0, sizeof fy), memset(fz, 0, sizeof fz);
        float *const f[3] = {fx, fy, fz};
        face_loads_block(&k, M, N, px, py, pz, zero, zero, zero, 0, M, scratch, f, NULL, NULL, N, 0);
        double worst = 0.0, largest = 0.0;
        for (int v = 0; v < NV; v++) {
            const double got[3] = {fx[v], fy[v], fz[v]};
            for (int c = 0; c < 3; c++) {
                worst = fmax(worst, fabs(got[c] - rho_g * load[3 * v + c]));
                largest = fmax(largest, fabs(rho_g * load[3 * v + c]));
            }
        }
        if (!(worst <= 1e-4 * largest)) {
            print_error("trial %d: worst |face loads - clipper| %.3g N of loads up to %.3g N\n", trial,
                        worst, largest);
            fail();
        }
    }
    assert_true(cut_faces > 100);
}

/* ---- section 3: gas ---- */

static void test_gas_helpers(void **state)
{
    (void)state;
    const double e1[3] = {1, 0, 0}, e2[3] = {0, 1, 0}, e3[3] = {0, 0, 1}, o[3] = {0, 0, 0};
    assert_close(hydro_tet_volume(e1, e2, e3), 1.0 / 6.0, 1e-16);
    assert_close(hydro_tet_volume(e2, e1, e3), -1.0 / 6.0, 1e-16);
    double an[3];
    hydro_area_normal(o, e1, e2, an);
    assert_close(an[0], 0, 0);
    assert_close(an[1], 0, 0);
    assert_close(an[2], 0.5, 0);
    /* compressing by 10% raises the pressure by 11.1% */
    const double p0 = 101325.0 + 2000.0, V0 = 0.1;
    const double p = gas_pressure(p0, V0, 0.9 * V0);
    assert_close(p / p0, 1.0 / 0.9, 1e-14);
    assert_close(100 * (p / p0 - 1), 11.1, 0.05);
    assert_close(gas_pressure(p0, V0, V0), p0, 1e-9);
}

/* A randomly deformed torus: dV/dx_i from the face identity matches the
 * finite difference of the mesh volume (exact: V is linear in each vertex
 * coordinate), and the gauge-pressure forces (p - p_air) dV/dx_i sum to zero
 * force and zero torque to round-off. */
static void test_gas_forces_balance(void **state)
{
    (void)state;
    enum { M = 32, N = 16 };
    static double x[3 * M * N], grad[3 * M * N];
    static int tri[6 * M * N];
    torus_mesh(M, N, 1.0, 0.3, x, tri);
    const double V0 = hydro_mesh_volume(2 * M * N, tri, x);
    for (int i = 0; i < 3 * M * N; i++)
        x[i] += 0.05 * (test_uniform() - 0.5);
    const double V = hydro_mesh_volume(2 * M * N, tri, x);
    memset(grad, 0, sizeof grad);
    hydro_mesh_volume_gradient(2 * M * N, tri, x, grad);
    double gmax = 0;
    for (int i = 0; i < 3 * M * N; i++)
        gmax = fmax(gmax, fabs(grad[i]));
    for (int trial = 0; trial < 40; trial++) {
        const int i = (int)(test_uniform() * 3 * M * N);
        const double eps = 1e-4, keep = x[i];
        x[i] = keep + eps;
        const double Vp = hydro_mesh_volume(2 * M * N, tri, x);
        x[i] = keep - eps;
        const double Vm = hydro_mesh_volume(2 * M * N, tri, x);
        x[i] = keep;
        assert_close((Vp - Vm) / (2 * eps), grad[i], 1e-9 * gmax);
    }
    const double p_air = 101325.0, p = gas_pressure(p_air + 3000.0, V0, V);
    double f[3 * M * N], F[3], T[3], fsum = 0;
    for (int i = 0; i < 3 * M * N; i++)
        f[i] = (p - p_air) * grad[i], fsum += fabs(f[i]);
    const double o[3] = {0.3, -0.2, 0.1};
    resultant(M * N, x, f, o, F, T);
    for (int k = 0; k < 3; k++) {
        assert_close(F[k], 0, 1e-13 * fsum);
        assert_close(T[k], 0, 1e-13 * fsum * 1.5);
    }
}

/* ---- section 5: drag and lift ---- */

static void test_drag_trailing_and_still(void **state)
{
    (void)state;
    const double an[3] = {0, 0, 0.2};
    double f[3] = {1, 1, 1};
    const double back[3] = {0.3, 0, -1}, side[3] = {1, 0.5, 0}, zero[3] = {0, 0, 0};
    hydro_face_drag(an, back, 1000, 1, 0.5, 0, 1, f);
    assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
    f[0] = 1;
    hydro_face_drag(an, side, 1000, 1, 0.5, 0, 1, f); /* c = 0: edge-on */
    assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
    f[0] = 1;
    hydro_face_drag(an, zero, 1000, 1, 0.5, 0, 1, f);
    assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
}

/* A face-on plate: F = -C_D rho A |u|^2 along u; obliquely the component
 * along -u is C_D rho A |u|^2 c. */
static void test_drag_law(void **state)
{
    (void)state;
    const double A = 0.2, U = 3.0, rho = 1000, cd = 1.2;
    const double an[3] = {0, 0, A}, u[3] = {0, 0, U};
    double f[3];
    hydro_face_drag(an, u, rho, cd, 0.7, 0, 1, f);
    assert_close(f[0], 0, 1e-12);
    assert_close(f[1], 0, 1e-12);
    assert_close(f[2], -cd * rho * A * U * U, 1e-9);
    const double th = 0.6, u2[3] = {U * sin(th), 0, U * cos(th)};
    hydro_face_drag(an, u2, rho, cd, 0.0, 0, 1, f);
    const double along = (f[0] * u2[0] + f[2] * u2[2]) / U;
    assert_close(along, -cd * rho * A * U * U * cos(th), 1e-9);
    assert_close(f[1], 0, 1e-12);
    assert_close(f[0] * u2[2] - f[2] * u2[0], 0, 1e-9); /* parallel to u */
}

/* Lift alone (C_D = 0): perpendicular to u, zero face-on (c = 1) and
 * edge-on (c -> 0), largest at 45 degrees. */
static void test_lift(void **state)
{
    (void)state;
    const double an[3] = {0, 0, 1}, U = 2.0;
    double f[3], best = -1;
    int best_deg = -1;
    for (int deg = 0; deg <= 90; deg++) {
        const double th = deg * PI / 180, u[3] = {U * sin(th), 0, U * cos(th)};
        hydro_face_drag(an, u, 1000, 0.0, 1.0, 0, 1, f);
        const double mag = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        assert_close((f[0] * u[0] + f[2] * u[2]) / U, 0, 1e-9 * 4000);
        if (deg == 0 || deg == 90)
            assert_close(mag, 0, 1e-9 * 4000);
        else /* along -(n - c u/|u|): away from the side the face looks to */
            assert_true(f[0] * (an[0] - cos(th) * u[0] / U) + f[2] * (an[2] - cos(th) * u[2] / U) < 0);
        /* |F_L| = C_L rho A |u|^2 c sqrt(1 - c^2) */
        assert_close(mag, 1000 * U * U * cos(th) * sin(th), 1e-9 * 4000);
        if (mag > best)
            best = mag, best_deg = deg;
    }
    assert_int_equal(best_deg, 45);
}

/* The clamp: with steps far too long for the drag, one step of the force
 * on m_face brings the relative velocity at most to rest along u, never
 * past it; short steps are not clamped. */
static void test_drag_clamp(void **state)
{
    (void)state;
    for (int trial = 0; trial < 500; trial++) {
        double an[3], u[3], f[3], g[3];
        for (int k = 0; k < 3; k++)
            an[k] = test_uniform() - 0.5, u[k] = 10 * (test_uniform() - 0.5);
        const double m = 0.01 + test_uniform(), dt = 0.1 * test_uniform();
        const double cd = 2 * test_uniform(), cl = 2 * test_uniform();
        hydro_face_drag(an, u, 1000, cd, cl, dt, m, f);
        hydro_face_drag(an, u, 1000, cd, cl, 0, m, g); /* unclamped */
        const double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        double after = 0, gdu = 0;
        for (int k = 0; k < 3; k++)
            after += (u[k] + f[k] * dt / m) * u[k], gdu += g[k] * u[k];
        assert_true(after >= -1e-12 * uu);
        if (-gdu * dt / m < uu) { /* the free step would not stop it: untouched */
            for (int k = 0; k < 3; k++)
                assert_true(f[k] == g[k]);
        } else { /* clamped: stops along u exactly, same direction */
            assert_close(after, 0, 1e-12 * uu);
            const double gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
            const double fg = f[0] * g[0] + f[1] * g[1] + f[2] * g[2];
            const double ff = f[0] * f[0] + f[1] * f[1] + f[2] * f[2];
            assert_close(fg * fg, ff * gg, 1e-9 * ff * gg);
        }
    }
}

/* A face-on plate (mass m, area A) dropped in still water, integrated by
 * symplectic Euler, reaches sqrt(m g / (C_D rho A)). */
static void test_terminal_speed(void **state)
{
    (void)state;
    const double m = 1.0, A = 0.01, cd = 1.0, rho = 1000, g = 9.81, dt = 1e-4;
    const double an[3] = {0, 0, -A}; /* its leading face looks down */
    double v[3] = {0, 0, 0}, z = 0;
    for (int step = 0; step < 30000; step++) {
        double f[3];
        hydro_face_drag(an, v, rho, cd, 0.5, dt, m, f);
        for (int k = 0; k < 3; k++)
            v[k] += dt * ((k == 2 ? -g : 0) + f[k] / m);
        z += v[2] * dt;
    }
    const double vt = sqrt(m * g / (cd * rho * A));
    assert_close(-v[2], vt, 0.03 * vt);
    assert_close(v[0], 0, 1e-12);
    assert_true(z < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_cut_planes),
        cmocka_unit_test(test_cube_rotated_horizontal),
        cmocka_unit_test(test_submerged_closed_mesh),
        cmocka_unit_test(test_flat_torus_floats),
        cmocka_unit_test(test_triangle_cut_by_hand),
        cmocka_unit_test(test_face_loads_cut_faces_match_clipper),
        cmocka_unit_test(test_gas_helpers),
        cmocka_unit_test(test_gas_forces_balance),
        cmocka_unit_test(test_drag_trailing_and_still),
        cmocka_unit_test(test_drag_law),
        cmocka_unit_test(test_lift),
        cmocka_unit_test(test_drag_clamp),
        cmocka_unit_test(test_terminal_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
