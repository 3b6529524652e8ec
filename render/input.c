/* GLFW callbacks: mouse drags move the camera, keys queue actions. */
#include "input.h"

#include <stdlib.h>
#include <string.h>

#include "gl.h"

#define ORBIT_RAD_PER_UNIT 0.008f /* per screen unit of drag */

struct input {
    GLFWwindow *window;
    orbit_camera *camera;
    int orbiting, panning;
    double last_x, last_y;
    input_actions pending;
};

static input *of(GLFWwindow *w)
{
    return glfwGetWindowUserPointer(w);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    input_actions *a = &of(w)->pending;
    int press = action == GLFW_PRESS, repeat = action == GLFW_REPEAT;
    if (!press && !repeat)
        return;
    switch (key) {
    case GLFW_KEY_N: a->single_step++; break;                       /* held: keeps stepping */
    case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD: a->faster++; break;  /* '+' is shift + '=' */
    case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT: a->slower++; break;
    default:
        if (!press)
            return;
        switch (key) {
        case GLFW_KEY_ESCAPE: a->quit++; break;
        case GLFW_KEY_SPACE: a->toggle_pause++; break;
        case GLFW_KEY_R: a->reset++; break;
        case GLFW_KEY_P: a->screenshot++; break;
        case GLFW_KEY_H: case GLFW_KEY_F1: a->toggle_help++; break;
        case GLFW_KEY_F: a->follow_next++; break;
        case GLFW_KEY_C: a->free_camera++; break;
        default: break;
        }
    }
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    input *in = of(w);
    int down = action == GLFW_PRESS;
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        in->orbiting = down;
    else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE)
        in->panning = down;
    if (down)
        glfwGetCursorPos(w, &in->last_x, &in->last_y);
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    input *in = of(w);
    float dx = (float)(x - in->last_x), dy = (float)(y - in->last_y);
    in->last_x = x;
    in->last_y = y;
    if (in->orbiting) {
        camera_orbit(in->camera, -dx * ORBIT_RAD_PER_UNIT, dy * ORBIT_RAD_PER_UNIT);
    } else if (in->panning) {
        int ww, wh; /* cursor positions are in screen units, so is this height */
        glfwGetWindowSize(w, &ww, &wh);
        camera_pan(in->camera, dx, dy, (float)wh);
        in->pending.panned = 1;
    }
}

static void on_scroll(GLFWwindow *w, double xoff, double yoff)
{
    (void)xoff;
    camera_zoom(of(w)->camera, (float)yoff);
}

input *input_attach(render_window *w, orbit_camera *camera)
{
    input *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->window = window_handle(w);
    in->camera = camera;
    glfwSetWindowUserPointer(in->window, in);
    glfwSetKeyCallback(in->window, on_key);
    glfwSetMouseButtonCallback(in->window, on_button);
    glfwSetCursorPosCallback(in->window, on_cursor);
    glfwSetScrollCallback(in->window, on_scroll);
    return in;
}

input_actions input_take(input *in)
{
    input_actions a = in->pending;
    memset(&in->pending, 0, sizeof in->pending);
    return a;
}

void input_detach(input *in)
{
    if (!in)
        return;
    glfwSetKeyCallback(in->window, NULL);
    glfwSetMouseButtonCallback(in->window, NULL);
    glfwSetCursorPosCallback(in->window, NULL);
    glfwSetScrollCallback(in->window, NULL);
    glfwSetWindowUserPointer(in->window, NULL);
    free(in);
}
