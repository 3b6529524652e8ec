/* Shader compilation with the driver's log on failure. */
#include "render/shader.h"

#include <stdio.h>
#include <string.h>

#include "render/gl.h"
#include "render/glsl_common.h"

/* Copies a driver log into err on one line (logs end in newlines and
 * sometimes span several lines). */
static void one_line(char *err, size_t len, const char *prefix, const char *log)
{
    snprintf(err, len, "%s%s", prefix, log[0] ? log : "(the driver gave no log)");
    for (char *c = err; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    size_t n = strlen(err);
    while (n && err[n - 1] == ' ')
        err[--n] = '\0';
}

static GLuint compile(GLenum stage, const char *const *src, int parts, const char *name, char *err,
                      size_t len)
{
    GLuint s = glCreateShader(stage);
    glShaderSource(s, parts, src, NULL);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok)
        return s;
    char log[1024] = "", prefix[128];
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    snprintf(prefix, sizeof prefix, "the %s %s shader does not compile: ", name,
             stage == GL_VERTEX_SHADER ? "vertex" : "fragment");
    one_line(err, len, prefix, log);
    glDeleteShader(s);
    return 0;
}

unsigned shader_program(const char *name, const char *vertex_src, const char *fragment_src,
                        char *err, size_t err_len)
{
    return shader_program_split(name, vertex_src, fragment_src, "", err, err_len);
}

unsigned shader_program_split(const char *name, const char *vertex_src, const char *fragment_head,
                              const char *fragment_body, char *err, size_t err_len)
{
    GLuint vs = compile(GL_VERTEX_SHADER, &vertex_src, 1, name, err, err_len);
    if (!vs)
        return 0;
    const char *fragment[2] = {fragment_head, fragment_body};
    GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, 2, name, err, err_len);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs); /* flagged for deletion; freed with the program */
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (ok) {
        GLuint block = glGetUniformBlockIndex(p, "Frame");
        if (block != GL_INVALID_INDEX)
            glUniformBlockBinding(p, block, FRAME_BLOCK_BINDING);
        return p;
    }
    char log[1024] = "", prefix[128];
    glGetProgramInfoLog(p, sizeof log, NULL, log);
    snprintf(prefix, sizeof prefix, "the %s shaders do not link: ", name);
    one_line(err, err_len, prefix, log);
    glDeleteProgram(p);
    return 0;
}

int shader_uniform(unsigned program, const char *uniform)
{
    return glGetUniformLocation(program, uniform);
}
