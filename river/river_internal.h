/* Inside the river world: the tables river_world.c builds and the other
 * river files read. Not part of the public API. The files call each other
 * one way only: river_frame.c (geometry) at the bottom; river_flow.c and
 * river_solid.c on it; river_world.c (building, live change, spawning) on
 * top, with river_def.c (defaults and check) beside. */
#ifndef DINGHY_RIVER_INTERNAL_H
#define DINGHY_RIVER_INTERNAL_H

#include <stdint.h>

#include "dinghy/river.h"

#define RIVER_G 9.81          /* gravity, m/s^2 */
#define RIVER_DS 0.25         /* station spacing along the course, m */
#define RIVER_CELL 1.0        /* lookup grid cell, m */
#define RIVER_LEAD_MAX 20.0   /* longest straight lead-in (spawn reach), m */
#define RIVER_CHOP_N 3        /* Gerstner components of the chop */
#define RIVER_EIN_STEP 32     /* Ein table points per unit argument */
#define RIVER_EIN_MAX 48      /* Ein table range, argument 0 .. this */

/* One station of the centre line; the piece from station i to i+1 has
 * curvature k + dk t (t = s - s_i), and W, h, e are cubic Hermite pieces. */
typedef struct {
    double x, y;    /* centre line point, m */
    double tx, ty;  /* unit tangent (downstream) */
    double k, dk;   /* curvature (1/m, positive turning left) and dk/ds (1/m^2) */
    double w, dw;   /* water-line width (m) and dW/ds */
    double h, dh;   /* water depth mid-channel (m) and dh/ds */
    double e, de;   /* mean surface height (m) and de/ds */
} river_stn;

/* Where a point is in channel coordinates, with the course quantities
 * there (all at arc length s). */
typedef struct {
    double s, n;    /* channel coordinates, m */
    double tx, ty;  /* unit tangent at s */
    double k;       /* curvature at s, 1/m */
    double w, dw;   /* width (m) and dW/ds */
    double h, dh;   /* mid-channel depth (m) and dh/ds */
    double e, de;   /* mean surface height (m) and de/ds */
    int i;          /* station whose piece holds s */
    int inside;     /* 1 within the mapped band */
} river_frame;

typedef struct {
    double x, y, z;   /* centre at the mean surface, m */
    double a;         /* radius, m */
    double s, n;      /* channel coordinates of the centre, m */
    double tx, ty;    /* course tangent at the rock (its wake axis) */
    double reach;     /* radius of the disc the rock's flow changes, m */
    double g_c;       /* psi per unit Q at the centre (the rock streamline) */
    double gam;       /* wake vortex circulation per unit Q, m (G / Q) */
    double ufac;      /* surface speed at the rock per unit speed */
    double zbot;      /* bottom of the capsule axis (below the bed), m */
    double wk, wlen;  /* live: standing-wave number (1/m) and train length (m) */
} river_rock;

typedef struct {
    double s;         /* middle of the drop, m */
    double height;    /* fall, m */
    double ufac;      /* mid-channel surface speed below it per unit speed */
    double wk, wlen;  /* live: standing-wave number (1/m) and train length (m) */
} river_drop;

typedef struct {
    double dx, dy;    /* unit travel direction */
    double k, omega;  /* wave number (1/m), angular frequency (rad/s) */
    double phase;     /* rad */
    double amp1;      /* amplitude per metre of waves */
    double amp, q;    /* live: amplitude (m) and Gerstner steepness */
} river_chop;

struct river_world {
    river_def def;
    double speed, waves;  /* live values */
    double q1;            /* Q per unit speed: psi scale, m */
    double reach;         /* half-width of the mapped band, m */
    double lead;          /* length of the straight lead-in, m */

    int ns;               /* stations */
    double s0;            /* arc length of station 0 (negative: the pad), m */
    river_stn *st;
    int *rock_lo, *rock_hi; /* per station: rocks [lo, hi) that can matter */

    double gx0, gy0;      /* grid origin, m */
    int gnx, gny;
    int *grid;            /* nearest station of each cell centre */

    int nrocks;
    river_rock *rock;
    int ndrops;
    river_drop *drop;
    river_chop chop[RIVER_CHOP_N];

    double ein[RIVER_EIN_STEP * RIVER_EIN_MAX + 2]; /* Ein(x) = int_0^x (1-e^-t)/t dt */

    /* the view */
    river_course view;
    double *vpoint, *vs, *vwidth, *vdepth, *vrock, *vdrop;
};

/* ---- river_frame.c: the geometry ---- */

/* Point (X, Y) and tangent (c, s) of station p's piece at offset t (m), in
 * the station's frame. Build and lookup use this same function, so the
 * stations lie exactly on the curve it defines. */
void river_piece(const river_stn *p, double t, double *X, double *Y, double *c, double *s);

/* The piece (station index) holding arc length s, and the offset t (m) into it. */
int river_piece_of(const river_world *w, double s, double *t);

/* Fills the frame's course quantities at piece i, offset t (m). */
void river_frame_fill(const river_world *w, int i, double t, river_frame *f);

/* Channel frame of (x, y). */
void river_frame_at(const river_world *w, double x, double y, river_frame *f);

/* Centre line point and unit tangent at arc length s. */
void river_curve_at(const river_world *w, double s, double c[2], double t[2]);

/* ---- river_solid.c and river_flow.c ---- */

/* Ground height at the frame's point and its horizontal gradient. */
double river_ground_frame(const river_world *w, const river_frame *f, double grad[2]);

/* river_sample and river_solid_distance at (x, y, z), given the frame
 * river_frame_at gives at (x, y): what both compute after it. */
void river_sample_frame(const river_world *w, const river_frame *f, double x, double y, double z,
                        double t, dinghy_water_point *out);
double river_solid_frame(const river_world *w, const river_frame *f, double x, double y,
                         double z, double grad[3]);

/* Recomputes the live-derived wave quantities (river_flow.c). */
void river_live_update(river_world *w);

/* Fills w->ein (river_flow.c). */
void river_ein_init(river_world *w);

/* Stream function per unit Q at (x, y) in frame f with only rocks
 * [0, nrock) applied: value, gradient (1/m) into g; returns 1 inside a
 * rock, and sets *rocky when a rock changed the value (river_flow.c). */
int river_psi(const river_world *w, const river_frame *f, double x, double y, int nrock,
              double *psi, double g[2], int *rocky);

/* Smootherstep 6x^5 - 15x^4 + 10x^3 clamped to [0, 1], and its slope. */
static inline double river_s5(double x)
{
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    return x * x * x * (10.0 + x * (-15.0 + 6.0 * x));
}
static inline double river_s5d(double x)
{
    if (x <= 0.0 || x >= 1.0) return 0.0;
    double u = x * (1.0 - x);
    return 30.0 * u * u;
}

/* splitmix64 */
static inline uint64_t river_rng(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* uniform in [0, 1) */
static inline double river_rng_u(uint64_t *state)
{
    return (double)(river_rng(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
