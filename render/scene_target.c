/* An FBO with a colour texture, and one full-screen triangle sampling it. */
#include "render/scene_target.h"

#include <stdio.h>
#include <stdlib.h>

#include "render/gl.h"
#include "render/shader.h"

struct scene_target {
    GLuint fbo, colour_tex, depth_rb;
    int w, h;          /* size of the buffers, 0 until the first bind */
    GLint outer_fbo;   /* bound before scene_target_bind */
    GLuint program, vao;
};

static const char *vs = "#version 330 core\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
    "    v_uv = p;\n"
    "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

static const char *fs = "#version 330 core\n"
    "uniform sampler2D u_scene;\n"
    "in vec2 v_uv;\n"
    "out vec4 colour;\n"
    "void main() { colour = vec4(texture(u_scene, v_uv).rgb, 1.0); }\n";

scene_target *scene_target_create(char *err, size_t err_len)
{
    scene_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_len, "out of memory for the scene target");
        return NULL;
    }
    if (!(t->program = shader_program("scale up", vs, fs, err, err_len))) {
        free(t);
        return NULL;
    }
    glGenVertexArrays(1, &t->vao); /* core profiles draw nothing without a VAO */
    return t;
}

static void free_buffers(scene_target *t)
{
    if (t->fbo)
        glDeleteFramebuffers(1, &t->fbo);
    if (t->colour_tex)
        glDeleteTextures(1, &t->colour_tex);
    if (t->depth_rb)
        glDeleteRenderbuffers(1, &t->depth_rb);
    t->fbo = t->colour_tex = t->depth_rb = 0;
    t->w = t->h = 0;
}

/* (Re)makes the buffers at w x h. Returns 0, or -1 with none made. */
static int make_buffers(scene_target *t, int w, int h)
{
    free_buffers(t);
    glGenTextures(1, &t->colour_tex);
    glBindTexture(GL_TEXTURE_2D, t->colour_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenRenderbuffers(1, &t->depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, t->depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glGenFramebuffers(1, &t->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->colour_tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t->depth_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)t->outer_fbo);
        free_buffers(t);
        while (glGetError() != GL_NO_ERROR)
            ;
        return -1;
    }
    t->w = w;
    t->h = h;
    return 0;
}

int scene_target_bind(scene_target *t, int width, int height)
{
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &t->outer_fbo);
    if ((width != t->w || height != t->h) && make_buffers(t, width, height) != 0)
        return -1;
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glViewport(0, 0, width, height);
    return 0;
}

void scene_target_present(scene_target *t, int out_w, int out_h)
{
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)t->outer_fbo);
    glViewport(0, 0, out_w, out_h);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glUseProgram(t->program);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t->colour_tex);
    glUniform1i(shader_uniform(t->program, "u_scene"), 0);
    glBindVertexArray(t->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthMask(GL_TRUE);
    glEnable(GL_DEPTH_TEST);
}

void scene_target_destroy(scene_target *t)
{
    if (!t)
        return;
    free_buffers(t);
    glDeleteVertexArrays(1, &t->vao);
    glDeleteProgram(t->program);
    free(t);
}
