/* The bare streams of the skins' elements; see bench_floor.h. */
#include "app/bench_floor.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

/* Elements per pass, sized so that their arrays stay in L1 (32 KiB): the
 * springs' 7 arrays of 1024 floats (28 KiB), the triangles' 23 of 256
 * floats (23 KiB). */
#define FLOOR_SPRINGS 1024
#define FLOOR_TRIANGLES 256
#define FLOOR_REPEATS 5

/* Times `passes` calls of pass(ctx) FLOOR_REPEATS times; returns the
 * fastest in ns per element (`per_pass` elements a pass). The outputs must
 * be read afterwards, or the compiler may drop the passes. */
static double fastest_ns(void (*pass)(void *), void *ctx, int passes, int per_pass)
{
    double best = INFINITY;
    for (int r = 0; r < FLOOR_REPEATS; r++) {
        double t0 = omp_get_wtime();
        for (int p = 0; p < passes; p++)
            pass(ctx);
        double t = omp_get_wtime() - t0;
        if (t < best)
            best = t;
    }
    return best * 1e9 / ((double)passes * per_pass);
}

/* ---- the springs: k (|d| - L) d / |d| per spring ---- */

/* The springs' arrays in one block (as the triangles' below: the rows
 * never overlap, and the loop vectorises). */
enum { S_DX, S_DY, S_DZ, S_REST, S_FX, S_FY, S_FZ, S_ARRAYS };
typedef struct {
    float a[S_ARRAYS][FLOOR_SPRINGS];
} spring_arrays;

static void spring_pass(void *ctx)
{
    spring_arrays *t = ctx;
    float(*const v)[FLOOR_SPRINGS] = t->a;
    const float k = 400.0f;
    for (int i = 0; i < FLOOR_SPRINGS; i++) {
        const float dx = v[S_DX][i], dy = v[S_DY][i], dz = v[S_DZ][i];
        const float len = sqrtf(dx * dx + dy * dy + dz * dz);
        const float safe = len > 0.0f ? len : 1.0f;
        const float s = k * (len - v[S_REST][i]) / safe;
        v[S_FX][i] += s * dx;
        v[S_FY][i] += s * dy;
        v[S_FZ][i] += s * dz;
    }
}

double bench_spring_floor_ns(void)
{
    spring_arrays *t = aligned_alloc(64, sizeof *t);
    if (!t)
        return NAN;
    for (int i = 0; i < FLOOR_SPRINGS; i++) {
        t->a[S_DX][i] = 0.1f + 0.001f * (float)(i % 7);
        t->a[S_DY][i] = 0.05f - 0.002f * (float)(i % 5);
        t->a[S_DZ][i] = 0.02f * (float)(i % 3);
        t->a[S_REST][i] = 0.1f;
        t->a[S_FX][i] = t->a[S_FY][i] = t->a[S_FZ][i] = 0.0f;
    }
    double ns = fastest_ns(spring_pass, t, 20000, FLOOR_SPRINGS);
    volatile float sink = t->a[S_FX][1] + t->a[S_FY][2] + t->a[S_FZ][3];
    (void)sink;
    free(t);
    return ns;
}

/* ---- the membrane: one St. Venant-Kirchhoff triangle with the tension
 * field per element (physics notes section 8), the forces on its three
 * corners: the arithmetic of tri_force in physics/skin/membrane.c, written
 * again here because the app sees only the core's public API, over plain
 * arrays (the tick's gather of rows and corners is what the floor leaves
 * out). Inputs per triangle: 9 corner coordinates, the inverse rest
 * shape (4), the rest area (1); outputs: 9 force components. ---- */

enum { T_AX, T_AY, T_AZ, T_BX, T_BY, T_BZ, T_CX, T_CY, T_CZ, T_D00, T_D01, T_D10, T_D11, T_AREA,
       T_FAX, T_FAY, T_FAZ, T_FBX, T_FBY, T_FBZ, T_FCX, T_FCY, T_FCZ, T_ARRAYS };

/* The triangles' arrays in one block: every access a fixed row apart, so
 * that the compiler sees the rows never overlap and vectorises the loop. */
typedef struct {
    float a[T_ARRAYS][FLOOR_TRIANGLES];
} triangle_arrays;

static void triangle_pass(void *ctx)
{
    triangle_arrays *t = ctx;
    float(*const v)[FLOOR_TRIANGLES] = t->a;
    const float c1 = 4.3e3f, c2 = 6.2e3f, Y = 6.4e3f, kept = 0.2f;
    for (int i = 0; i < FLOOR_TRIANGLES; i++) {
        /* the two edges from a, and F = [e1 e2] Dm^-1 (6 + 18 flops) */
        const float e1x = v[T_BX][i] - v[T_AX][i], e1y = v[T_BY][i] - v[T_AY][i];
        const float e1z = v[T_BZ][i] - v[T_AZ][i], e2x = v[T_CX][i] - v[T_AX][i];
        const float e2y = v[T_CY][i] - v[T_AY][i], e2z = v[T_CZ][i] - v[T_AZ][i];
        const float d00 = v[T_D00][i], d01 = v[T_D01][i], d10 = v[T_D10][i], d11 = v[T_D11][i];
        const float f0x = e1x * d00 + e2x * d10, f0y = e1y * d00 + e2y * d10;
        const float f0z = e1z * d00 + e2z * d10, f1x = e1x * d01 + e2x * d11;
        const float f1y = e1y * d01 + e2y * d11, f1z = e1z * d01 + e2z * d11;
        /* Green strain (20) and the SVK stress (7) */
        const float G00 = 0.5f * (f0x * f0x + f0y * f0y + f0z * f0z - 1.0f);
        const float G11 = 0.5f * (f1x * f1x + f1y * f1y + f1z * f1z - 1.0f);
        const float G01 = 0.5f * (f0x * f1x + f0y * f1y + f0z * f1z);
        const float tr = c2 * (G00 + G11);
        const float T00 = c1 * G00 + tr, T11 = c1 * G11 + tr, T01 = c1 * G01;
        /* the tension field: principal strains, the relaxed stress and the
         * kept share of compression (32, with a root and a division) */
        const float gm = 0.5f * (G00 + G11), gh = 0.5f * (G00 - G11);
        const float dd = sqrtf(gh * gh + G01 * G01), g1 = gm + dd, g2 = gm - dd;
        const float s2 = c1 * g2 + c2 * (g1 + g2);
        const float w = g1 > 0.0f ? Y * g1 / (2.0f * dd + 1e-30f) : 0.0f;
        const float R00 = w * (G00 - g2), R11 = w * (G11 - g2), R01 = w * G01;
        const float S00 = s2 >= 0.0f ? T00 : R00 + kept * (T00 - R00);
        const float S11 = s2 >= 0.0f ? T11 : R11 + kept * (T11 - R11);
        const float S01 = s2 >= 0.0f ? T01 : R01 + kept * (T01 - R01);
        /* P = -A0 F S (25), the forces on b and c, P Dm^-T (18), a's (6) */
        const float A0 = -v[T_AREA][i];
        const float p0x = A0 * (f0x * S00 + f1x * S01), p0y = A0 * (f0y * S00 + f1y * S01);
        const float p0z = A0 * (f0z * S00 + f1z * S01), p1x = A0 * (f0x * S01 + f1x * S11);
        const float p1y = A0 * (f0y * S01 + f1y * S11), p1z = A0 * (f0z * S01 + f1z * S11);
        v[T_FBX][i] = p0x * d00 + p1x * d01;
        v[T_FBY][i] = p0y * d00 + p1y * d01;
        v[T_FBZ][i] = p0z * d00 + p1z * d01;
        v[T_FCX][i] = p0x * d10 + p1x * d11;
        v[T_FCY][i] = p0y * d10 + p1y * d11;
        v[T_FCZ][i] = p0z * d10 + p1z * d11;
        v[T_FAX][i] = -(v[T_FBX][i] + v[T_FCX][i]);
        v[T_FAY][i] = -(v[T_FBY][i] + v[T_FCY][i]);
        v[T_FAZ][i] = -(v[T_FBZ][i] + v[T_FCZ][i]);
    }
}

double bench_membrane_floor_ns(void)
{
    triangle_arrays *t = aligned_alloc(64, sizeof *t);
    if (!t)
        return NAN;
    /* right triangles of 6.5 cm legs, a few stretched and a few squeezed,
     * so that both sides of the tension field's choice are taken */
    for (int i = 0; i < FLOOR_TRIANGLES; i++) {
        const float s = 0.0650f * (0.95f + 0.02f * (float)(i % 6)), h = 0.065f;
        const float a[T_FAX] = {0, 0, 0, s, 0, 0.001f * (float)(i % 3), 0, s, 0,
                                1.0f / h, 0, 0, 1.0f / h, 0.5f * h * h};
        for (int j = 0; j < T_FAX; j++)
            t->a[j][i] = a[j];
    }
    double ns = fastest_ns(triangle_pass, t, 40000, FLOOR_TRIANGLES);
    volatile float sink = t->a[T_FAX][1] + t->a[T_FBY][2] + t->a[T_FCZ][3];
    (void)sink;
    free(t);
    return ns;
}
