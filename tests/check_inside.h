/* The skin checker's two inside counts (tests/skin_check.h): vertices
 * inside another ring's closed skin, and inside their own (the probe
 * just off the vertex). */
#ifndef DINGHY_TESTS_CHECK_INSIDE_H
#define DINGHY_TESTS_CHECK_INSIDE_H

#include "tests/check_mesh.h"
#include "tests/skin_check.h"

/* The boxes both counts cull with: ring p's box at ring + 6 p
 * (chk_ring_box), its band boxes at band + 6 M p (chk_band_boxes). */
typedef struct {
    const double *ring, *band;
} chk_boxes;

/* Vertices inside at least one other ring's skin (winding number above
 * 1/2) into *count, the first (lowest ring, then vertex; the lowest
 * other ring holding it) into *first (ring -1: none). Returns 0, or -1
 * when memory runs out. */
int chk_inside_other(const skin_mesh *mesh, const chk_boxes *boxes, long *count,
                     skin_inside *first);

/* Vertices whose own skin winds about the probe off their outward side
 * by more than 1/2 in magnitude (skin_check.h) into *count, the first
 * into *first. Returns 0, or -1 when memory runs out. */
int chk_inside_own(const skin_mesh *mesh, const chk_boxes *boxes, long *count,
                   skin_inside *first);

#endif
