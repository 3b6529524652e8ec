/* An orbit camera: an eye on a sphere round a target point, z up.
 * Pure math, no GL: the renderer turns it into matrices, the input handler
 * moves it. Angles in radians, lengths in metres. */
#ifndef DINGHY_CAMERA_H
#define DINGHY_CAMERA_H

#include <cglm/cglm.h>

typedef struct {
    float target[3]; /* point looked at, m */
    float yaw;       /* azimuth of the eye round the target, from +x toward +y, rad */
    float pitch;     /* elevation of the eye above the target's horizon, rad */
    float distance;  /* eye to target, m */
    float fovy;      /* vertical field of view, rad */
} orbit_camera;

/* Limits the input keeps the camera within. */
#define CAMERA_MIN_PITCH 0.03f  /* rad: just above the water */
#define CAMERA_MAX_PITCH 1.50f  /* rad: almost straight down */
#define CAMERA_MIN_DISTANCE 0.5f
#define CAMERA_MAX_DISTANCE 2000.0f

/* A camera that sees the whole box lo..hi (m) from above and to one side. */
orbit_camera camera_framing(const float lo[3], const float hi[3]);

/* Eye position, m. */
void camera_eye(const orbit_camera *c, float eye[3]);

/* Turns the eye round the target by dyaw and raises it by dpitch (rad),
 * keeping the pitch within CAMERA_MIN_PITCH..CAMERA_MAX_PITCH. */
void camera_orbit(orbit_camera *c, float dyaw, float dpitch);

/* Moves the target within the view plane so that a point at the target's
 * depth follows a drag of (dx, dy) pixels (x right, y down) on a viewport
 * `viewport_h` pixels tall. */
void camera_pan(orbit_camera *c, float dx, float dy, float viewport_h);

/* Zooms by `steps` wheel notches (positive = closer); each notch changes
 * the distance by 12%, kept within CAMERA_MIN/MAX_DISTANCE. */
void camera_zoom(orbit_camera *c, float steps);

/* View and projection matrices (cglm, column-major, OpenGL clip space)
 * for a viewport of aspect width / height. */
void camera_view(const orbit_camera *c, mat4 out);
void camera_projection(const orbit_camera *c, float aspect, mat4 out);
/* Their product: projection * view. */
void camera_view_projection(const orbit_camera *c, float aspect, mat4 out);

/* Projects a world point onto a viewport of w x h pixels: (*px, *py) with
 * the origin at the top-left, y down. Returns 0 when the point is in front
 * of the eye (then the pixel may still lie outside the viewport), -1 when
 * it is behind. */
int camera_project(const orbit_camera *c, int w, int h, const float world[3], float *px, float *py);

/* The ray under pixel (px, py) of a w x h viewport (origin top-left, y
 * down): from the near plane (origin, m) along the unit vector dir.
 * Returns 0, or -1 for an empty viewport. */
int camera_ray(const orbit_camera *c, int w, int h, float px, float py, float origin[3],
               float dir[3]);

#endif
