/* Sky gradient: one full-screen triangle, the colour from the view ray. */
#include "render/sky.h"

#include <stdlib.h>

#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/shader.h"

struct sky {
    GLuint program, vao;
};

static const char *vs = "#version 330 core\n" GLSL_COMMON
    "out vec3 v_ray;\n"
    "void main() {\n"
    "    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;\n"
    "    v_ray = ray_fwd.xyz + p.x * ray_right.xyz + p.y * ray_up.xyz;\n"
    "    gl_Position = vec4(p, 1.0, 1.0);\n"
    "}\n";

static const char *fs = "#version 330 core\n" GLSL_COMMON
    "in vec3 v_ray;\n"
    "out vec4 colour;\n"
    "void main() { colour = vec4(sky_colour(normalize(v_ray)), 1.0); }\n";

sky *sky_create(char *err, size_t err_len)
{
    sky *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->program = shader_program("sky", vs, fs, err, err_len);
    if (!s->program) {
        free(s);
        return NULL;
    }
    glGenVertexArrays(1, &s->vao); /* core profiles draw nothing without a VAO */
    return s;
}

void sky_draw(const sky *s)
{
    glDepthFunc(GL_LEQUAL); /* at the far plane: only where nothing was drawn */
    glDepthMask(GL_FALSE);
    glUseProgram(s->program);
    glBindVertexArray(s->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
}

void sky_destroy(sky *s)
{
    if (!s)
        return;
    glDeleteVertexArrays(1, &s->vao);
    glDeleteProgram(s->program);
    free(s);
}
