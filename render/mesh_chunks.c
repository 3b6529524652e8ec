/* Chunks of a static mesh, culled by box against the view. */
#include "render/mesh_chunks.h"

#include <stdlib.h>

#include "render/gl.h"

int mesh_chunks_add(mesh_chunks *c, const uint32_t *idx, size_t first, size_t end,
                    const float *verts, int stride)
{
    if (end <= first)
        return 0;
    if (c->n == c->room) {
        int room = c->room ? 2 * c->room : 64;
        mesh_chunk *m = realloc(c->chunk, sizeof *m * (size_t)room);
        int *counts = m ? realloc(c->counts, sizeof *counts * (size_t)room) : NULL;
        if (m)
            c->chunk = m;
        if (counts)
            c->counts = counts;
        const void **offsets = counts ? realloc(c->offsets, sizeof *offsets * (size_t)room) : NULL;
        if (!offsets)
            return -1;
        c->offsets = offsets;
        c->room = room;
    }
    mesh_chunk *m = &c->chunk[c->n++];
    m->first = first;
    m->count = end - first;
    m->coarse_first = m->coarse_count = 0;
    for (int k = 0; k < 3; k++) {
        m->lo[k] = 1e30f;
        m->hi[k] = -1e30f;
    }
    for (size_t i = first; i < end; i++) {
        const float *v = verts + (size_t)stride * idx[i];
        for (int k = 0; k < 3; k++) {
            m->lo[k] = v[k] < m->lo[k] ? v[k] : m->lo[k];
            m->hi[k] = v[k] > m->hi[k] ? v[k] : m->hi[k];
        }
    }
    return 0;
}

void mesh_chunks_set_coarse(mesh_chunks *c, int i, size_t first, size_t end)
{
    c->chunk[i].coarse_first = first;
    c->chunk[i].coarse_count = end > first ? end - first : 0;
}

/* The quads between vertex rows r0 and r1 of a grid of cols vertices a
 * row, two triangles each, into idx from k. Returns the new k. */
static size_t grid_quads(uint32_t *idx, size_t k, int r0, int r1, int cols)
{
    for (int j = 0; j + 1 < cols; j++) {
        uint32_t a = (uint32_t)(r0 * cols + j), b = a + 1;
        uint32_t c = (uint32_t)(r1 * cols + j), d = c + 1;
        idx[k++] = a; idx[k++] = c; idx[k++] = d;
        idx[k++] = a; idx[k++] = d; idx[k++] = b;
    }
    return k;
}

int mesh_chunks_grid(mesh_chunks *c, uint32_t *idx, size_t *k, const float *verts, int stride,
                     int rows, int cols, int chunk_rows)
{
    int chunk = c->n;
    for (int r0 = 0; r0 + 1 < rows; r0 += chunk_rows) {
        int end = r0 + chunk_rows < rows - 1 ? r0 + chunk_rows : rows - 1;
        size_t first = *k;
        for (int r = r0; r < end; r++)
            *k = grid_quads(idx, *k, r, r + 1, cols);
        if (mesh_chunks_add(c, idx, first, *k, verts, stride) != 0)
            return -1;
    }
    for (int r0 = 0; r0 + 1 < rows; r0 += chunk_rows, chunk++) {
        int end = r0 + chunk_rows < rows - 1 ? r0 + chunk_rows : rows - 1;
        size_t first = *k;
        for (int r = r0; r < end; r += 2)
            *k = grid_quads(idx, *k, r, r + 2 < end ? r + 2 : end, cols);
        mesh_chunks_set_coarse(c, chunk, first, *k);
    }
    return 0;
}

/* 1 when the box is wholly outside one plane of the view's frustum. */
static int outside(const mesh_chunk *m, const float *vp)
{
    unsigned all = 63u;
    for (int corner = 0; corner < 8; corner++) {
        float p[3] = {corner & 1 ? m->hi[0] : m->lo[0], corner & 2 ? m->hi[1] : m->lo[1],
                      corner & 4 ? m->hi[2] : m->lo[2]};
        float clip[4];
        for (int r = 0; r < 4; r++)
            clip[r] = vp[r] * p[0] + vp[4 + r] * p[1] + vp[8 + r] * p[2] + vp[12 + r];
        unsigned out = (clip[0] < -clip[3]) | (clip[0] > clip[3]) << 1 |
                       (clip[1] < -clip[3]) << 2 | (clip[1] > clip[3]) << 3 |
                       (clip[2] < -clip[3]) << 4 | (clip[2] > clip[3]) << 5;
        all &= out;
        if (!all)
            return 0;
    }
    return all != 0;
}

/* Squared distance (m^2) from p to the box. */
static float box_distance2(const mesh_chunk *m, const float p[3])
{
    float d2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        float d = p[k] < m->lo[k] ? m->lo[k] - p[k] : p[k] > m->hi[k] ? p[k] - m->hi[k] : 0.0f;
        d2 += d * d;
    }
    return d2;
}

void mesh_chunks_draw(mesh_chunks *c, const gpu_mesh *g, const float view_proj[16],
                      const float eye[3], float from, float reach, int coarse)
{
    int n = 0;
    size_t run_end = 0; /* where the last run drawn ends, indices */
    for (int i = 0; i < c->n; i++) {
        const mesh_chunk *m = &c->chunk[i];
        float d2 = box_distance2(m, eye);
        if (d2 < from * from || d2 >= reach * reach || outside(m, view_proj))
            continue;
        int lod = coarse && m->coarse_count > 0;
        size_t first = lod ? m->coarse_first : m->first, count = lod ? m->coarse_count : m->count;
        if (n > 0 && run_end == first) /* the next in the index buffer: one longer run */
            c->counts[n - 1] += (int)count;
        else {
            c->counts[n] = (int)count;
            c->offsets[n++] = (const void *)(sizeof(uint32_t) * first);
        }
        run_end = first + count;
    }
    c->drawn = n;
    if (n == 0)
        return;
    glUseProgram(g->program);
    glBindVertexArray(g->vao);
    glMultiDrawElements(GL_TRIANGLES, c->counts, GL_UNSIGNED_INT, c->offsets, n);
}

void mesh_chunks_free(mesh_chunks *c)
{
    free(c->chunk);
    free(c->counts);
    free(c->offsets);
    *c = (mesh_chunks){0};
}
