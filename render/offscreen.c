/* Multisampled FBO, resolve FBO, read-back buffer. */
#include "render/offscreen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/gl.h"

struct offscreen {
    int w, h;
    GLuint msaa_fbo, colour_rb, depth_rb; /* drawn into */
    GLuint resolve_fbo, resolve_rb;       /* single-sample copy, read back */
    unsigned char *rows_up, *rows_down;   /* GL order, then top-down */
};

offscreen *offscreen_create(int width, int height, char *err, size_t err_len)
{
    GLint max_rb = 0, max_tex = 0, max_vp[2] = {0, 0}, max_samples = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_tex);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_vp);
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    GLint limit = max_rb < max_vp[0] ? max_rb : max_vp[0];
    if (max_vp[1] < limit)
        limit = max_vp[1];
    if (max_tex > 0 && max_tex < limit)
        limit = max_tex;
    if (width < 1 || height < 1 || width > limit || height > limit) {
        snprintf(err, err_len, "a picture of %d x %d pixels is larger than this OpenGL driver draws "
                 "(%s: at most %d x %d); lower --width/--height (render.width/height)",
                 width, height, (const char *)glGetString(GL_RENDERER), (int)limit, (int)limit);
        return NULL;
    }
    offscreen *o = calloc(1, sizeof *o);
    size_t bytes = (size_t)width * (size_t)height * 3;
    if (o) {
        o->rows_up = malloc(bytes);
        o->rows_down = malloc(bytes);
    }
    if (!o || !o->rows_up || !o->rows_down) {
        snprintf(err, err_len, "out of memory for a %d x %d image", width, height);
        offscreen_destroy(o);
        return NULL;
    }
    o->w = width;
    o->h = height;
    GLsizei samples = max_samples < 4 ? max_samples : 4;
    glGenFramebuffers(1, &o->msaa_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, o->msaa_fbo);
    glGenRenderbuffers(1, &o->colour_rb);
    glGenRenderbuffers(1, &o->depth_rb);
    GLenum a;
    /* A driver may refuse a large multisampled buffer (memory, not the
     * size limits above): fewer samples, down to none, before giving up. */
    for (;;) {
        glBindRenderbuffer(GL_RENDERBUFFER, o->colour_rb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->colour_rb);
        glBindRenderbuffer(GL_RENDERBUFFER, o->depth_rb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, o->depth_rb);
        a = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        if (a == GL_FRAMEBUFFER_COMPLETE || samples == 0)
            break;
        samples /= 2;
        while (glGetError() != GL_NO_ERROR)
            ;
    }
    glGenFramebuffers(1, &o->resolve_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, o->resolve_fbo);
    glGenRenderbuffers(1, &o->resolve_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, o->resolve_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->resolve_rb);
    GLenum b = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (a != GL_FRAMEBUFFER_COMPLETE || b != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, err_len, "a picture of %d x %d pixels is more than this OpenGL driver can "
                 "hold (%s refused its buffers of %.1f GiB even without multisampling; status "
                 "0x%x, 0x%x); lower --width/--height (render.width/height)", width, height,
                 (const char *)glGetString(GL_RENDERER),
                 (double)width * (double)height * 8.0 / (1024.0 * 1024.0 * 1024.0), (unsigned)a,
                 (unsigned)b);
        while (glGetError() != GL_NO_ERROR)
            ;
        offscreen_destroy(o);
        return NULL;
    }
    return o;
}

void offscreen_bind(offscreen *o)
{
    glBindFramebuffer(GL_FRAMEBUFFER, o->msaa_fbo);
    glViewport(0, 0, o->w, o->h);
}

const unsigned char *offscreen_read(offscreen *o)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, o->msaa_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, o->resolve_fbo);
    glBlitFramebuffer(0, 0, o->w, o->h, 0, 0, o->w, o->h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, o->resolve_fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, o->w, o->h, GL_RGB, GL_UNSIGNED_BYTE, o->rows_up);
    glBindFramebuffer(GL_FRAMEBUFFER, o->msaa_fbo);
    size_t row = (size_t)o->w * 3;
    for (int y = 0; y < o->h; y++) /* GL rows run bottom-up */
        memcpy(o->rows_down + (size_t)y * row, o->rows_up + (size_t)(o->h - 1 - y) * row, row);
    return o->rows_down;
}

void offscreen_destroy(offscreen *o)
{
    if (!o)
        return;
    if (o->msaa_fbo) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteFramebuffers(1, &o->msaa_fbo);
        glDeleteFramebuffers(1, &o->resolve_fbo);
        GLuint rb[3] = {o->colour_rb, o->depth_rb, o->resolve_rb};
        glDeleteRenderbuffers(3, rb);
    }
    free(o->rows_up);
    free(o->rows_down);
    free(o);
}
