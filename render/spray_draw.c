/* Spray billboards: a unit quad (4 corners) drawn once per droplet; the
 * droplets' x, y, z and life go into one instance buffer as four blocks
 * of `budget` floats (the spray's own arrays, copied as they are: no
 * staging on the CPU). */
#include "render/spray_draw.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/gpu_mesh.h"
#include "render/shader.h"

struct spray_draw {
    gpu_mesh quad;      /* the corners; its VAO also holds the instance attributes */
    GLuint instances;   /* 4 blocks of `budget` floats: x, y, z, life */
    size_t budget;
    int u_size;
};

/* The quad faces the eye: spanned by the view plane's right and up. */
static const char *vs = "#version 330 core\n" GLSL_COMMON
    "layout(location = 0) in vec2 a_corner; /* -1 .. 1 */\n"
    "layout(location = 1) in float a_x;\n"
    "layout(location = 2) in float a_y;\n"
    "layout(location = 3) in float a_z;\n"
    "layout(location = 4) in float a_life; /* 1 at birth .. 0 */\n"
    "uniform float u_size; /* billboard radius, m */\n"
    "out vec2 v_corner;\n"
    "out vec3 v_pos;\n"
    "out float v_life;\n"
    "void main() {\n"
    "    vec3 right = normalize(ray_right.xyz), up = normalize(ray_up.xyz);\n"
    "    float r = u_size * (0.55 + 0.45 * a_life); /* droplets shrink as they age */\n"
    "    v_pos = vec3(a_x, a_y, a_z) + r * (a_corner.x * right + a_corner.y * up);\n"
    "    v_corner = a_corner;\n"
    "    v_life = a_life;\n"
    "    gl_Position = view_proj * vec4(v_pos, 1.0);\n"
    "}\n";

/* A sphere's normal from the corner (right, up, toward the eye), lit like
 * the rings (sun diffuse, sky ambient, a sharp glint), white water fading
 * with life and at the rim. */
static const char *fs = "#version 330 core\n" GLSL_COMMON
    "in vec2 v_corner;\n"
    "in vec3 v_pos;\n"
    "in float v_life;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "    float r2 = dot(v_corner, v_corner);\n"
    "    if (r2 > 1.0) discard;\n"
    "    vec3 right = normalize(ray_right.xyz), up = normalize(ray_up.xyz);\n"
    "    vec3 v = normalize(eye.xyz - v_pos);\n"
    "    vec3 n = normalize(v_corner.x * right + v_corner.y * up + sqrt(1.0 - r2) * v);\n"
    "    float diffuse = max(dot(n, sun.xyz), 0.0);\n"
    "    float spec = pow(max(dot(n, normalize(sun.xyz + v)), 0.0), 60.0);\n"
    "    /* white water scatters light: a bright sky ambient, a softer sun */\n"
    "    vec3 ambient = mix(vec3(0.76, 0.80, 0.85), vec3(0.86, 0.90, 0.96), 0.5 + 0.5 * n.z);\n"
    "    vec3 c = vec3(0.90, 0.95, 0.99) * (ambient + 0.55 * diffuse * SUN_LIGHT)\n"
    "             + 0.6 * spec * SUN_LIGHT;\n"
    "    float alpha = 0.9 * smoothstep(0.0, 0.35, v_life) * (1.0 - smoothstep(0.6, 1.0, r2));\n"
    "    colour = vec4(haze(c, v_pos), alpha);\n"
    "}\n";

spray_draw *spray_draw_create(size_t budget, char *err, size_t err_len)
{
    spray_draw *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, err_len, "out of memory for the spray");
        return NULL;
    }
    d->quad.program = shader_program("spray", vs, fs, err, err_len);
    if (!d->quad.program) {
        free(d);
        return NULL;
    }
    d->u_size = shader_uniform(d->quad.program, "u_size");
    d->budget = budget;
    static const float corners[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    gpu_mesh_create(&d->quad, corners, sizeof corners, 0, idx, 6);
    static const int sizes[] = {2};
    gpu_mesh_layout_floats(sizes, 1);
    glGenBuffers(1, &d->instances);
    glBindBuffer(GL_ARRAY_BUFFER, d->instances);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(4 * budget * sizeof(float)), NULL, GL_STREAM_DRAW);
    for (GLuint k = 0; k < 4; k++) {
        glEnableVertexAttribArray(1 + k);
        glVertexAttribPointer(1 + k, 1, GL_FLOAT, GL_FALSE, sizeof(float),
                              (void *)(k * budget * sizeof(float)));
        glVertexAttribDivisor(1 + k, 1);
    }
    glBindVertexArray(0);
    return d;
}

size_t spray_draw_budget(const spray_draw *d)
{
    return d->budget;
}

void spray_draw_draw(spray_draw *d, const spray_system *sp)
{
    spray_view v = spray_particles(sp);
    size_t n = v.count < d->budget ? v.count : d->budget;
    if (n == 0)
        return;
    const float *block[4] = {v.x, v.y, v.z, v.life};
    glBindBuffer(GL_ARRAY_BUFFER, d->instances);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(4 * d->budget * sizeof(float)), NULL,
                 GL_STREAM_DRAW); /* orphaned: no wait for the last frame's draw */
    for (size_t k = 0; k < 4; k++)
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(k * d->budget * sizeof(float)),
                        (GLsizeiptr)(n * sizeof(float)), block[k]);
    glUseProgram(d->quad.program);
    glUniform1f(d->u_size, (float)spray_size(sp));
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); /* keep alpha 1 */
    glDepthMask(GL_FALSE);
    glBindVertexArray(d->quad.vao);
    glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_INT, (void *)0, (GLsizei)n);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void spray_draw_destroy(spray_draw *d)
{
    if (!d)
        return;
    if (d->instances)
        glDeleteBuffers(1, &d->instances);
    gpu_mesh_destroy(&d->quad);
    free(d);
}
