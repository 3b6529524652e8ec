/* River bed and banks as one static indexed grid. */
#include "render/riverbed.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/ground_look.h"
#include "render/gpu_mesh.h"

#define GRID 200            /* vertices per side */
#define BED_DEPTH 2.2f      /* channel depth below the water, m */
#define BANK_WIDTH 7.0f     /* horizontal run of a bank, m */
#define CHUNK 20            /* grid cells each way a chunk (mesh_chunks.h) */
#define FLOATS GROUND_SOURCE_FLOATS

struct riverbed {
    float cx, cy, half_width, level;
    ground_look look;
};

static float smooth01(float t)
{
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

float riverbed_height(const riverbed *r, float x, float y)
{
    float lx = x - r->cx;
    /* A gentle meander away from the crowd; straight where the crowd is. */
    float bend = 10.0f * (1.0f - expf(-lx * lx / 3600.0f)) * sinf(lx * 0.02f);
    float off = fabsf(y - r->cy - bend) - r->half_width; /* > 0 beyond the channel */
    float bed = r->level - BED_DEPTH + 0.3f * sinf(0.31f * x + 1.3f) * sinf(0.23f * y) +
                0.12f * sinf(1.1f * x - 0.7f * y);
    float far = off - BANK_WIDTH > 0.0f ? off - BANK_WIDTH : 0.0f;
    float land = r->level + 0.7f + 0.25f * sinf(0.4f * x) * sinf(0.35f * y) +
                 (1.0f - expf(-far / 45.0f)) * (3.0f + 2.5f * sinf(0.021f * x + 1.0f) * cosf(0.017f * y));
    return bed + (land - bed) * smooth01(off / BANK_WIDTH);
}

/* Grid coordinate u in -1..1 to metres: fine near the centre, coarse far out. */
static float spread(float u)
{
    return 60.0f * u + 340.0f * u * u * u;
}

riverbed *riverbed_create(const float centre[2], float half_width, float level, char *err,
                          size_t err_len)
{
    riverbed *r = calloc(1, sizeof *r);
    float *verts = malloc(sizeof *verts * FLOATS * GRID * GRID);
    float *look = malloc(sizeof *look * GROUND_LOOK_FLOATS * GRID * GRID);
    uint32_t *idx = malloc(sizeof *idx * 6 * (GRID - 1) * (GRID - 1));
    if (!r || !verts || !look || !idx) {
        snprintf(err, err_len, "out of memory for the river bed");
        goto fail;
    }
    r->cx = centre[0];
    r->cy = centre[1];
    r->half_width = half_width;
    r->level = level;
    if (!ground_look_create(&r->look, GROUND_STILL, "river bed", err, err_len))
        goto fail;
    const float e = 0.05f; /* finite-difference step for normals, m */
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++) {
            float x = r->cx + spread(2.0f * i / (GRID - 1) - 1.0f);
            float y = r->cy + spread(2.0f * j / (GRID - 1) - 1.0f);
            float *v = verts + FLOATS * (j * GRID + i);
            v[0] = x;
            v[1] = y;
            v[2] = riverbed_height(r, x, y);
            float gx = (riverbed_height(r, x + e, y) - riverbed_height(r, x - e, y)) / (2.0f * e);
            float gy = (riverbed_height(r, x, y + e) - riverbed_height(r, x, y - e)) / (2.0f * e);
            float nl = 1.0f / sqrtf(1.0f + gx * gx + gy * gy);
            v[3] = -gx * nl;
            v[4] = -gy * nl;
            v[5] = nl;
            v[6] = level;
        }
    size_t k = 0, first = 0;
    int chunked = 0;
    for (uint32_t tj = 0; tj + 1 < GRID; tj += CHUNK)
        for (uint32_t ti = 0; ti + 1 < GRID; ti += CHUNK) {
            for (uint32_t j = tj; j + 1 < GRID && j < tj + CHUNK; j++)
                for (uint32_t i = ti; i + 1 < GRID && i < ti + CHUNK; i++) {
                    uint32_t a = j * GRID + i, b = a + 1, c = a + GRID, d = c + 1;
                    idx[k++] = a; idx[k++] = b; idx[k++] = d;
                    idx[k++] = a; idx[k++] = d; idx[k++] = c;
                }
            chunked |= mesh_chunks_add(&r->look.chunks, idx, first, k, verts, FLOATS);
            first = k;
        }
    if (chunked) {
        snprintf(err, err_len, "out of memory for the river bed");
        goto fail;
    }
    ground_look_bake(verts, (size_t)GRID * GRID, look);
    gpu_mesh_create(&r->look.near, look, sizeof *look * GROUND_LOOK_FLOATS * GRID * GRID, 0, idx, k);
    ground_look_layout();
    glBindVertexArray(0);
    free(verts);
    free(look);
    free(idx);
    return r;
fail:
    free(verts);
    free(look);
    free(idx);
    riverbed_destroy(r);
    return NULL;
}

void riverbed_draw(riverbed *r, const float view_proj[16], const float eye[3], float reach)
{
    ground_look_draw(&r->look, view_proj, eye, reach);
}

void riverbed_destroy(riverbed *r)
{
    if (!r)
        return;
    ground_look_destroy(&r->look);
    free(r);
}
