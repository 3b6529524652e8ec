/* Translucent water sheet. */
#include "render/water.h"

#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

struct water {
    gpu_mesh gpu;
};

static const char *vs = "#version 330 core\n" GLSL_COMMON
    "layout(location = 0) in vec2 a_xy;\n"
    "out vec3 v_pos;\n"
    "void main() {\n"
    "    v_pos = vec3(a_xy, water.x);\n"
    "    gl_Position = view_proj * vec4(v_pos, 1.0);\n"
    "}\n";

static const char *fs = "#version 330 core\n" GLSL_COMMON
    "in vec3 v_pos;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    vec3 to_eye = eye.xyz - v_pos;\n"
    "    float dist = length(to_eye);\n"
    "    vec3 v = to_eye / dist;\n"
    "    vec3 n = wave_normal(v_pos.xy, dist);\n"
    "    if (v.z < 0.0) n = -n; /* seen from below */\n"
    "    float facing = max(dot(n, v), 0.0);\n"
    "    float fresnel = 0.02 + 0.98 * pow(1.0 - facing, 5.0);\n"
    "    vec3 r = reflect(-v, n);\n"
    "    r.z = abs(r.z);\n"
    "    vec3 body = vec3(0.06, 0.33, 0.40) * (0.55 + 0.45 * max(sun.z, 0.0));\n"
    "    vec3 c = mix(body, sky_colour(r), fresnel);\n"
    "    vec3 h = normalize(sun.xyz + v);\n"
    "    float glint = pow(max(dot(n, h), 0.0), 400.0) * 2.5;\n"
    "    c += SUN_LIGHT * glint;\n"
    "    float alpha = clamp(mix(0.62, 1.0, fresnel) + glint, 0.0, 1.0);\n"
    "    colour = vec4(haze(c, v_pos), alpha);\n"
    "}\n";

water *water_create(const float centre[2], float half_size, char *err, size_t err_len)
{
    water *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->gpu.program = shader_program("water", vs, fs, err, err_len);
    if (!w->gpu.program) {
        free(w);
        return NULL;
    }
    float x0 = centre[0] - half_size, x1 = centre[0] + half_size;
    float y0 = centre[1] - half_size, y1 = centre[1] + half_size;
    const float quad[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    gpu_mesh_create(&w->gpu, quad, sizeof quad, 0, idx, 6);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void *)0);
    glBindVertexArray(0);
    return w;
}

void water_draw(const water *w)
{
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); /* keep alpha 1 */
    glDepthMask(GL_FALSE);
    gpu_mesh_draw(&w->gpu, -1);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void water_destroy(water *w)
{
    if (!w)
        return;
    gpu_mesh_destroy(&w->gpu);
    free(w);
}
