/* The window and its OpenGL 3.3 core context (GLFW + GLEW).
 *
 * A GLFW error callback is installed before anything else, so every GLFW
 * error is reported: errors while opening become part of the one-line
 * message window_open returns; later ones are printed to stderr at once. */
#ifndef DINGHY_WINDOW_H
#define DINGHY_WINDOW_H

#include <stddef.h>

typedef struct render_window render_window;

typedef enum {
    WINDOW_OK = 0,
    WINDOW_NO_DISPLAY, /* no X display to connect to (exit code 4) */
    WINDOW_GL_FAILED,  /* a display, but no usable OpenGL 3.3 core context (exit code 4) */
} window_status;

/* Opens a window of width x height screen units (on HiDPI screens the
 * framebuffer has more pixels) with a GL 3.3 core context made current on
 * this thread and GLEW loaded. visible = 0 gives a hidden window for
 * offscreen rendering; visible windows are resizable, scaled to the
 * monitor's content scale and swap with vsync. On failure *out is NULL and
 * err holds one line saying what went wrong and what to do instead. */
window_status window_open(render_window **out, const char *title, int width, int height, int visible,
                          char *err, size_t err_len);
void window_close(render_window *w);

int window_should_close(const render_window *w);
void window_request_close(render_window *w);
/* Shows the frame drawn into the default framebuffer (waits for vsync). */
void window_swap(render_window *w);
/* Hands the drawing issued so far to the GL driver to work on while the
 * caller goes on (glFlush); window_swap then shows it. */
void window_flush(void);
/* Handles pending window and input events (calls the input callbacks). */
void window_poll(void);
/* Size of the drawable framebuffer, pixels. */
void window_framebuffer_size(const render_window *w, int *width, int *height);
/* The monitor's content scale (2 on a typical HiDPI screen): how much to
 * enlarge text and other fixed-size drawing. */
float window_ui_scale(const render_window *w);
/* The OpenGL renderer's name (GL_RENDERER) of the current context. */
const char *window_renderer_name(void);
/* 1 when the current context renders on the CPU (Mesa's llvmpipe,
 * softpipe, swrast): drawing then competes with the physics for cores. */
int window_software_renderer(void);
/* Seconds on a monotonic clock. */
double window_time(void);
/* The underlying GLFWwindow, for the input module (as void * so that this
 * header needs no GL headers). */
void *window_handle(render_window *w);

#endif
