/* 4x4 matrices and 3-vectors, column-major like OpenGL. */
#include "mat4.h"

#include <math.h>
#include <string.h>

mat4 mat4_identity(void)
{
    mat4 r;
    memset(&r, 0, sizeof r);
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
    return r;
}

mat4 mat4_mul(mat4 a, mat4 b)
{
    mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a.m[4 * k + row] * b.m[4 * c + k];
            r.m[4 * c + row] = s;
        }
    return r;
}

mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar)
{
    mat4 r;
    memset(&r, 0, sizeof r);
    float f = 1.0f / tanf(0.5f * fovy);
    r.m[0] = f / aspect;
    r.m[5] = f;
    r.m[10] = (zfar + znear) / (znear - zfar);
    r.m[11] = -1.0f;
    r.m[14] = 2.0f * zfar * znear / (znear - zfar);
    return r;
}

mat4 mat4_ortho(float l, float r, float b, float t, float n, float f)
{
    mat4 o = mat4_identity();
    o.m[0] = 2.0f / (r - l);
    o.m[5] = 2.0f / (t - b);
    o.m[10] = -2.0f / (f - n);
    o.m[12] = -(r + l) / (r - l);
    o.m[13] = -(t + b) / (t - b);
    o.m[14] = -(f + n) / (f - n);
    return o;
}

float vec3_dot(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void vec3_cross(const float a[3], const float b[3], float out[3])
{
    float x = a[1] * b[2] - a[2] * b[1];
    float y = a[2] * b[0] - a[0] * b[2];
    float z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

void vec3_normalize(float v[3])
{
    float len = sqrtf(vec3_dot(v, v));
    if (len > 0.0f)
        for (int i = 0; i < 3; i++)
            v[i] /= len;
}

mat4 mat4_look_at(const float eye[3], const float target[3], const float up[3])
{
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    vec3_normalize(f);
    float s[3], u[3];
    vec3_cross(f, up, s);
    vec3_normalize(s);
    vec3_cross(s, f, u);
    mat4 r = mat4_identity();
    for (int i = 0; i < 3; i++) {
        r.m[4 * i + 0] = s[i];
        r.m[4 * i + 1] = u[i];
        r.m[4 * i + 2] = -f[i];
    }
    r.m[12] = -vec3_dot(s, eye);
    r.m[13] = -vec3_dot(u, eye);
    r.m[14] = vec3_dot(f, eye);
    return r;
}

void mat4_apply(const mat4 *m, const float v[3], float w, float out[4])
{
    for (int row = 0; row < 4; row++)
        out[row] = m->m[row] * v[0] + m->m[4 + row] * v[1] + m->m[8 + row] * v[2] +
                   m->m[12 + row] * w;
}
