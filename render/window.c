/* GLFW window, GL 3.3 core context, GLEW. */
#include "render/window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/gl.h"

struct render_window {
    GLFWwindow *glfw;
};

/* While opening, GLFW errors are kept to go into the one-line message;
 * afterwards they are printed as they happen. */
static int keep_errors;
static char last_error[512];

static void on_glfw_error(int code, const char *description)
{
    if (keep_errors) {
        snprintf(last_error, sizeof last_error, "%s", description ? description : "unknown error");
        return;
    }
    fprintf(stderr, "dinghy: GLFW error 0x%x: %s\n", (unsigned)code, description ? description : "?");
}

static window_status fail(window_status status, char *err, size_t len, const char *what)
{
    if (status == WINDOW_NO_DISPLAY)
        snprintf(err, len, "no display to open a window on (%s); run the demo in a desktop session, "
                 "or render offscreen with 'xvfb-run -a ./dinghy --screenshot out.png --steps 90', "
                 "or simulate without graphics with './dinghy --headless'",
                 last_error[0] ? last_error : "GLFW could not initialise");
    else
        snprintf(err, len, "%s: %s; dinghy needs OpenGL 3.3 (update the graphics driver, or use Mesa: "
                 "'xvfb-run -a ./dinghy --screenshot out.png --steps 90')", what,
                 last_error[0] ? last_error : "no details from the driver");
    keep_errors = 0;
    return status;
}

window_status window_open(render_window **out, const char *title, int width, int height, int visible,
                          char *err, size_t err_len)
{
    *out = NULL;
    last_error[0] = '\0';
    keep_errors = 1;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        return fail(WINDOW_NO_DISPLAY, err, err_len, NULL);

    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, visible ? 4 : 0); /* offscreen targets bring their own samples */
    GLFWwindow *g = glfwCreateWindow(width, height, title, NULL, NULL);
    if (!g) {
        window_status s = fail(WINDOW_GL_FAILED, err, err_len,
                               "cannot create an OpenGL 3.3 core context");
        glfwTerminate();
        return s;
    }
    glfwMakeContextCurrent(g);
    if (visible && window_software_renderer()) {
        /* Multisampling costs a CPU renderer about half its frame rate, and
         * the CPU is what the physics needs: open the window again without. */
        glfwDestroyWindow(g);
        glfwWindowHint(GLFW_SAMPLES, 0);
        if (!(g = glfwCreateWindow(width, height, title, NULL, NULL))) {
            window_status s = fail(WINDOW_GL_FAILED, err, err_len,
                                   "cannot create an OpenGL 3.3 core context");
            glfwTerminate();
            return s;
        }
        glfwMakeContextCurrent(g);
    }
    glewExperimental = GL_TRUE; /* needed for core profiles with GLEW 2.x */
    GLenum e = glewInit();
    if (e != GLEW_OK) {
        snprintf(err, err_len, "cannot load OpenGL functions (GLEW): %s",
                 (const char *)glewGetErrorString(e));
        keep_errors = 0;
        glfwDestroyWindow(g);
        glfwTerminate();
        return WINDOW_GL_FAILED;
    }
    while (glGetError() != GL_NO_ERROR) /* glewInit leaves GL_INVALID_ENUM in core profiles */
        ;
    glfwSwapInterval(visible ? 1 : 0);
    render_window *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_len, "out of memory");
        keep_errors = 0;
        glfwDestroyWindow(g);
        glfwTerminate();
        return WINDOW_GL_FAILED;
    }
    w->glfw = g;
    keep_errors = 0;
    if (last_error[0]) /* something went wrong on the way but did not stop us */
        fprintf(stderr, "dinghy: GLFW warning: %s\n", last_error);
    *out = w;
    return WINDOW_OK;
}

const char *window_renderer_name(void)
{
    /* glGetString is core GL 1.0, exported by libGL itself: usable before glewInit. */
    const GLubyte *name = glGetString(GL_RENDERER);
    return name ? (const char *)name : "unknown";
}

int window_software_renderer(void)
{
    const char *name = window_renderer_name();
    return strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "swrast") ||
           strstr(name, "Software Rasterizer");
}

void window_close(render_window *w)
{
    if (!w)
        return;
    glfwDestroyWindow(w->glfw);
    free(w);
    glfwTerminate();
}

int window_should_close(const render_window *w)
{
    return glfwWindowShouldClose(w->glfw);
}

void window_request_close(render_window *w)
{
    glfwSetWindowShouldClose(w->glfw, GLFW_TRUE);
}

void window_swap(render_window *w)
{
    glfwSwapBuffers(w->glfw);
}

void window_flush(void)
{
    glFlush();
}

void window_poll(void)
{
    glfwPollEvents();
}

void window_framebuffer_size(const render_window *w, int *width, int *height)
{
    glfwGetFramebufferSize(w->glfw, width, height);
}

float window_ui_scale(const render_window *w)
{
    float sx = 1.0f, sy = 1.0f;
    glfwGetWindowContentScale(w->glfw, &sx, &sy);
    return sx > 0.5f ? sx : 1.0f;
}

double window_time(void)
{
    return glfwGetTime();
}

void *window_handle(render_window *w)
{
    return w->glfw;
}
