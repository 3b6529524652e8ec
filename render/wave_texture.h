/* The wave layer (dinghy/waves.h) as a texture the water's shaders read:
 * one float texel a cell, the heights in metres, uploaded each frame. The
 * shaders (GLSL_WAVES) lift their vertices by the waves, tilt the normal
 * by their slope at each pixel and whiten the steep faces. Without a layer
 * it is a single zero texel and the shaders read 0. */
#ifndef DINGHY_WAVE_TEXTURE_H
#define DINGHY_WAVE_TEXTURE_H

#include <stddef.h>

#include "dinghy/waves.h"

/* GLSL for both stages of a water shader: the uniforms wave_texture_use
 * sets, and
 *   waves_height(p): the waves' height at p (m, horizontal), m;
 *   waves_slope(p):  its gradient (central differences a cell apart);
 *   WAVES_LIGHT:     how many times its slope the light's normal tilts by
 *                    (25: a ring's waves, a few millimetres high with
 *                    slopes of 0.01 to 0.03, were lost in the drawn
 *                    ripples at 2.5 and hardly show at their own slope);
 *   waves_foam(s):   0..1 of white water on a face of slope s (breaking
 *                    starts about where the slope passes 0.15);
 *   waves_crest(c, h): the colour c lighter on a crest of height h (m) and
 *                    darker in a trough (the light through thinner water
 *                    at a crest, drawn 200 times stronger per metre,
 *                    at most 40% lighter and 30% darker: a millimetre of
 *                    wake shows as a band; docs/physics.md section 14). */
#define GLSL_WAVES \
"uniform sampler2D u_waves;  /* the layer's heights, m, a texel a cell */\n" \
"uniform vec4 u_waves_box;   /* xy: the grid's corner, m; zw: 1 / its size, 1/m */\n" \
"uniform float u_waves_cell; /* the cell's side, m; 0: no waves */\n" \
"float waves_height(vec2 p) {\n" \
"    vec2 uv = (p - u_waves_box.xy) * u_waves_box.zw;\n" \
"    if (u_waves_cell <= 0.0 || uv.x < 0.0 || uv.y < 0.0 || uv.x > 1.0 || uv.y > 1.0)\n" \
"        return 0.0;\n" \
"    return texture(u_waves, uv).r;\n" \
"}\n" \
"vec2 waves_slope(vec2 p) {\n" \
"    float e = max(u_waves_cell, 1e-3);\n" \
"    return vec2(waves_height(p + vec2(e, 0.0)) - waves_height(p - vec2(e, 0.0)),\n" \
"                waves_height(p + vec2(0.0, e)) - waves_height(p - vec2(0.0, e))) / (2.0 * e);\n" \
"}\n" \
"const float WAVES_LIGHT = 25.0;\n" \
"float waves_foam(vec2 s) { return smoothstep(0.15, 0.40, length(s)); }\n" \
"vec3 waves_crest(vec3 c, float h) { return c * (1.0 + clamp(200.0 * h, -0.3, 0.4)); }\n"

typedef struct wave_texture wave_texture;

/* Where a program keeps the uniforms of GLSL_WAVES. */
typedef struct {
    int sampler, box, cell;
} wave_uniforms;

/* The texture for layer w (NULL: none yet). Needs a current GL context;
 * NULL with a message in err when out of memory. */
wave_texture *wave_texture_create(const waves_field *w, char *err, size_t err_len);

/* Uploads the heights of w (NULL: no waves), remaking the texture if w's
 * grid is not the one it holds. */
void wave_texture_update(wave_texture *t, const waves_field *w);

/* The uniforms of GLSL_WAVES in program. */
wave_uniforms wave_texture_uniforms(unsigned program);

/* Binds the texture to texture unit `unit` and sets the uniforms of the
 * current program. */
void wave_texture_use(const wave_texture *t, const wave_uniforms *u, int unit);

/* The box the layer covers, m: x0, y0, x1, y1; 0 when there is none. */
int wave_texture_box(const wave_texture *t, float box[4]);
/* The layer's cell, m (0 when there is none). */
float wave_texture_cell(const wave_texture *t);

void wave_texture_destroy(wave_texture *t);

#endif
