/* The broad phase of the skin checker (tests/skin_check.h): every pair
 * of overlapping axis-aligned boxes among n, each once, through a hashed
 * uniform grid. The cell is the boxes' mean largest side; a box goes
 * into every cell it touches, and a pair is kept only in the cell that
 * holds the lowest corner of the two boxes' overlap, so it is found once.
 * A box touching more than CHK_PAIRS_MAX_CELLS cells (a torn, stretched
 * triangle) is instead compared with every box. */
#ifndef DINGHY_TESTS_CHECK_PAIRS_H
#define DINGHY_TESTS_CHECK_PAIRS_H

#define CHK_PAIRS_MAX_CELLS 512

/* One pair of box indices, a < b. */
typedef struct {
    int a, b;
} chk_pair;

/* Finds the pairs of overlapping closed boxes among boxes[0 .. n-1]
 * (6 doubles each: min x, y, z, max x, y, z, m). Sets *pairs to a new
 * array (free it) of *count pairs, in no set order. Returns 0, or -1
 * when memory runs out. */
int chk_box_pairs(const double *boxes, int n, chk_pair **pairs, long *count);

/* 1 when the closed boxes a and b overlap. */
int chk_boxes_overlap(const double a[6], const double b[6]);

#endif
