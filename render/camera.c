/* Orbit camera math. */
#include "render/camera.h"

#include <math.h>

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

orbit_camera camera_framing(const float lo[3], const float hi[3])
{
    orbit_camera c;
    for (int i = 0; i < 3; i++)
        c.target[i] = 0.5f * (lo[i] + hi[i]);
    float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    float radius = 0.5f * sqrtf(dx * dx + dy * dy + dz * dz);
    if (radius < 1.0f)
        radius = 1.0f;
    c.fovy = 0.85f;  /* about 49 degrees */
    c.yaw = -2.75f;  /* from upstream (-x) and a little to the side, looking down the river */
    c.pitch = 0.36f; /* low enough that the sky shows above the far banks */
    /* The bounding sphere just fills the height of the view; the crowd is
     * wider than tall, so it overfills a wide window a little, which looks closer. */
    c.distance = clampf(0.72f * radius / sinf(0.5f * c.fovy), CAMERA_MIN_DISTANCE, CAMERA_MAX_DISTANCE);
    return c;
}

void camera_eye(const orbit_camera *c, float eye[3])
{
    float cp = cosf(c->pitch);
    eye[0] = c->target[0] + c->distance * cp * cosf(c->yaw);
    eye[1] = c->target[1] + c->distance * cp * sinf(c->yaw);
    eye[2] = c->target[2] + c->distance * sinf(c->pitch);
}

void camera_orbit(orbit_camera *c, float dyaw, float dpitch)
{
    c->yaw = fmodf(c->yaw + dyaw, 6.28318531f);
    c->pitch = clampf(c->pitch + dpitch, CAMERA_MIN_PITCH, CAMERA_MAX_PITCH);
}

/* Right and up unit vectors of the view plane. */
static void view_axes(const orbit_camera *c, float right[3], float up[3])
{
    float eye[3], f[3], z[3] = {0.0f, 0.0f, 1.0f};
    camera_eye(c, eye);
    for (int i = 0; i < 3; i++)
        f[i] = c->target[i] - eye[i];
    glm_vec3_normalize(f);
    glm_vec3_crossn(f, z, right);
    glm_vec3_cross(right, f, up);
}

void camera_pan(orbit_camera *c, float dx, float dy, float viewport_h)
{
    if (viewport_h <= 0.0f)
        return;
    float right[3], up[3];
    view_axes(c, right, up);
    float metres_per_px = 2.0f * c->distance * tanf(0.5f * c->fovy) / viewport_h;
    for (int i = 0; i < 3; i++)
        c->target[i] += metres_per_px * (-dx * right[i] + dy * up[i]);
}

void camera_zoom(orbit_camera *c, float steps)
{
    c->distance = clampf(c->distance * powf(0.88f, steps), CAMERA_MIN_DISTANCE, CAMERA_MAX_DISTANCE);
}

void camera_view(const orbit_camera *c, mat4 out)
{
    vec3 eye, target = {c->target[0], c->target[1], c->target[2]}, up = {0.0f, 0.0f, 1.0f};
    camera_eye(c, eye);
    glm_lookat(eye, target, up, out);
}

void camera_projection(const orbit_camera *c, float aspect, mat4 out)
{
    /* Near plane scaled with the distance keeps depth precision where the
     * rings are; the far plane reaches the horizon of the water. */
    float znear = clampf(0.02f * c->distance, 0.05f, 5.0f);
    glm_perspective(c->fovy, aspect, znear, 3000.0f, out);
}

void camera_view_projection(const orbit_camera *c, float aspect, mat4 out)
{
    mat4 view, proj;
    camera_view(c, view);
    camera_projection(c, aspect, proj);
    glm_mat4_mul(proj, view, out);
}

int camera_project(const orbit_camera *c, int w, int h, const float world[3], float *px, float *py)
{
    if (w <= 0 || h <= 0)
        return -1;
    mat4 vp;
    camera_view_projection(c, (float)w / (float)h, vp);
    vec4 point = {world[0], world[1], world[2], 1.0f}, clip;
    glm_mat4_mulv(vp, point, clip);
    if (clip[3] <= 1e-6f)
        return -1;
    *px = (0.5f + 0.5f * clip[0] / clip[3]) * (float)w;
    *py = (0.5f - 0.5f * clip[1] / clip[3]) * (float)h;
    return 0;
}

int camera_ray(const orbit_camera *c, int w, int h, float px, float py, float origin[3],
               float dir[3])
{
    if (w <= 0 || h <= 0)
        return -1;
    mat4 vp, inv;
    camera_view_projection(c, (float)w / (float)h, vp);
    glm_mat4_inv(vp, inv);
    float ndc_x = 2.0f * px / (float)w - 1.0f, ndc_y = 1.0f - 2.0f * py / (float)h;
    vec4 near_clip = {ndc_x, ndc_y, -1.0f, 1.0f}, far_clip = {ndc_x, ndc_y, 1.0f, 1.0f}, a, b;
    glm_mat4_mulv(inv, near_clip, a);
    glm_mat4_mulv(inv, far_clip, b);
    if (fabsf(a[3]) < 1e-12f || fabsf(b[3]) < 1e-12f)
        return -1;
    float len = 0.0f;
    for (int k = 0; k < 3; k++) {
        origin[k] = a[k] / a[3];
        dir[k] = b[k] / b[3] - origin[k];
        len += dir[k] * dir[k];
    }
    len = sqrtf(len);
    if (!(len > 0.0f))
        return -1;
    for (int k = 0; k < 3; k++)
        dir[k] /= len;
    return 0;
}
