/* GLSL programs: compile, link, report the driver's message. */
#ifndef DINGHY_SHADER_H
#define DINGHY_SHADER_H

#include <stddef.h>

/* Compiles a vertex and a fragment shader (GLSL 330 core sources) and links
 * them. Returns the program name, or 0 with one line in err naming the
 * program (`name`), the stage and the driver's log. A uniform block named
 * "Frame" (glsl_common.h) is bound to FRAME_BLOCK_BINDING. Needs a current
 * context. */
unsigned shader_program(const char *name, const char *vertex_src, const char *fragment_src,
                        char *err, size_t err_len);

/* The same with the fragment shader in two pieces, fragment_head then
 * fragment_body (C99 compilers need only take string literals of 4095
 * characters). */
unsigned shader_program_split(const char *name, const char *vertex_src, const char *fragment_head,
                              const char *fragment_body, char *err, size_t err_len);

/* Location of a uniform; -1 (ignored by glUniform*) when the driver
 * optimised it away. */
int shader_uniform(unsigned program, const char *uniform);

#endif
