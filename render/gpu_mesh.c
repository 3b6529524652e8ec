/* Indexed meshes: VAO, VBO, IBO, program. */
#include "render/gpu_mesh.h"

#include <string.h>

#include "render/gl.h"

void gpu_mesh_create(gpu_mesh *m, const void *vertices, size_t vertex_bytes, int stream,
                     const uint32_t *indices, size_t index_count)
{
    glGenVertexArrays(1, &m->vao);
    glBindVertexArray(m->vao);
    glGenBuffers(1, &m->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)vertex_bytes, vertices,
                 stream ? GL_STREAM_DRAW : GL_STATIC_DRAW);
    glGenBuffers(1, &m->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof *indices * index_count), indices,
                 GL_STATIC_DRAW);
    m->index_count = (int)index_count;
}

void gpu_mesh_layout_floats(const int *sizes, int count)
{
    int stride = 0;
    for (int i = 0; i < count; i++)
        stride += sizes[i];
    size_t at = 0;
    for (int i = 0; i < count; i++) {
        glEnableVertexAttribArray((GLuint)i);
        glVertexAttribPointer((GLuint)i, sizes[i], GL_FLOAT, GL_FALSE,
                              stride * (GLsizei)sizeof(float), (void *)(at * sizeof(float)));
        at += (size_t)sizes[i];
    }
}

void gpu_mesh_layout_position_normal(void)
{
    static const int sizes[] = {3, 3};
    gpu_mesh_layout_floats(sizes, 2);
}

void gpu_mesh_stream(const gpu_mesh *m, const void *vertices, size_t bytes, size_t buffer_bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)buffer_bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, vertices);
}

void gpu_mesh_draw(const gpu_mesh *m, int count)
{
    glUseProgram(m->program);
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, count < 0 ? m->index_count : count, GL_UNSIGNED_INT, (void *)0);
}

void gpu_mesh_destroy(gpu_mesh *m)
{
    if (m->vao) {
        glDeleteBuffers(1, &m->vbo);
        glDeleteBuffers(1, &m->ibo);
        glDeleteVertexArrays(1, &m->vao);
    }
    if (m->program)
        glDeleteProgram(m->program);
    memset(m, 0, sizeof *m);
}
