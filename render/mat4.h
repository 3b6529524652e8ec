/* Small column-major 4x4 matrix and 3-vector helpers for the renderer
 * (OpenGL conventions: clip space x, y, z in -1..1, right-handed world). */
#ifndef DINGHY_MAT4_H
#define DINGHY_MAT4_H

typedef struct {
    float m[16]; /* column-major: element (row r, column c) is m[4 * c + r] */
} mat4;

mat4 mat4_identity(void);
mat4 mat4_mul(mat4 a, mat4 b); /* a * b: b applies first */

/* Perspective projection: vertical field of view fovy (radians), aspect =
 * width / height, near and far clip distances (m, 0 < znear < zfar). */
mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar);

/* Orthographic projection of the box l..r, b..t, n..f onto clip space. */
mat4 mat4_ortho(float l, float r, float b, float t, float n, float f);

/* View matrix of an eye at `eye` looking at `target` with `up` roughly up. */
mat4 mat4_look_at(const float eye[3], const float target[3], const float up[3]);

/* out = m * (v[0], v[1], v[2], w). */
void mat4_apply(const mat4 *m, const float v[3], float w, float out[4]);

float vec3_dot(const float a[3], const float b[3]);
void vec3_cross(const float a[3], const float b[3], float out[3]);
/* Scales v to unit length in place; leaves a zero vector alone. */
void vec3_normalize(float v[3]);

#endif
