/* An integrity check of the rings' skins, independent of the contact's
 * code (it includes nothing of physics/ and calls nothing of it: its own
 * exact predicates, triangle test and winding numbers). The test of
 * issue 46's guarantee: no skin passes through a skin.
 *
 * On a state (tests/check_mesh.h: P rings of M x N torus grids) it finds
 *  - crossed triangle pairs: two triangles that share no vertex and meet
 *    (closed triangles, exactly: tests/check_tri_tri.h), within one ring
 *    (self) or between two; candidates by a hashed grid of triangle boxes
 *    (tests/check_pairs.h);
 *  - vertices inside another ring's closed skin: that skin's winding
 *    number about the vertex above 1/2 (tests/check_winding.h), only for
 *    vertices in the other ring's box;
 *  - vertices inside their own skin: the own skin's winding number about
 *    the point just off the vertex on its outward side, the vertex moved
 *    SKIN_CHECK_OWN_PROBE times its shortest edge along its area-weighted
 *    outward normal. At the vertex itself the own skin's winding number
 *    is 1/2 (it lies on the skin) and says nothing; just outside a whole
 *    skin it is 0, while beyond another sheet of the own skin (a fold
 *    pushed through the far wall) or where the skin is turned inside out
 *    it is 1 or -1: |w| > 1/2 counts. A vertex whose normal vanishes is
 *    skipped. It is a weaker fact than the other two (a fold sharper than
 *    the probe can turn the normal inward): reported, not a crossing.
 * It counts each kind and names the first of each (lowest ring, then
 * triangle or vertex). Parallel (OpenMP) over pairs and rings; the
 * counts and first offenders do not depend on the threads. */
#ifndef DINGHY_TESTS_SKIN_CHECK_H
#define DINGHY_TESTS_SKIN_CHECK_H

#include <stddef.h>

#include "tests/check_mesh.h"

/* The probe's distance off the vertex, in shortest incident edges. */
#define SKIN_CHECK_OWN_PROBE 0.01

/* What to look for (flags). */
enum {
    SKIN_CHECK_CROSSINGS = 1, /* crossed triangle pairs */
    SKIN_CHECK_INSIDE = 2,    /* vertices inside another ring's skin */
    SKIN_CHECK_OWN = 4,       /* vertices inside their own ring's skin */
    SKIN_CHECK_ALL = 7
};

/* Two crossed triangles: ring and triangle number (check_mesh.h) of each,
 * (ring_a, tri_a) before (ring_b, tri_b). ring_a = -1: none. */
typedef struct {
    int ring_a, tri_a, ring_b, tri_b;
} skin_crossing;

/* A vertex inside a skin: its ring, its index within the ring, the ring
 * whose skin holds it (its own for SKIN_CHECK_OWN), and that skin's
 * winding number about it (about the probe for its own). ring = -1: none. */
typedef struct {
    int ring, vertex, other;
    double winding;
} skin_inside;

typedef struct {
    long crossed;        /* crossed triangle pairs, self and between rings */
    long crossed_self;   /* of them, pairs within one ring */
    long inside_other;   /* vertices inside at least one other ring's skin */
    long inside_own;     /* vertices inside their own ring's skin (the probe) */
    skin_crossing first_crossing;
    skin_inside first_inside;
    skin_inside first_own;
} skin_report;

/* Checks the state for what `what` (SKIN_CHECK_* flags) asks; counts of
 * what was not asked for are 0. Returns 0, or -1 when memory runs out
 * (the report is then incomplete). */
int skin_check(const skin_mesh *mesh, unsigned what, skin_report *out);

/* One line naming the first offenders of a report (empty when clean),
 * into buf (len bytes). */
void skin_report_describe(const skin_report *r, char *buf, size_t len);

#endif
