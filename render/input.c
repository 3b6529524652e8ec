/* The window's callbacks become input events; every event, the window's
 * or a script's, goes through input_feed: drags move the camera, presses
 * queue actions. */
#include "render/input.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render/gl.h"

#define ORBIT_RAD_PER_UNIT 0.008f /* per pixel of drag */

struct input {
    GLFWwindow *window;
    orbit_camera *camera;
    int orbiting, panning, grabbing, shift;
    float last_x, last_y;
    int viewport_h;
    float panel[4];   /* x0, y0, x1, y1 of the tuning panel, pixels */
    input_actions pending;
};

static input *of(GLFWwindow *w)
{
    return glfwGetWindowUserPointer(w);
}

/* ---- the window's callbacks ---- */

static input_key key_of(int glfw_key)
{
    if (glfw_key >= GLFW_KEY_A && glfw_key <= GLFW_KEY_Z)
        return (input_key)(INPUT_KEY_A + (glfw_key - GLFW_KEY_A));
    switch (glfw_key) {
    case GLFW_KEY_ESCAPE: return INPUT_KEY_ESCAPE;
    case GLFW_KEY_SPACE: return INPUT_KEY_SPACE;
    case GLFW_KEY_TAB: return INPUT_KEY_TAB;
    case GLFW_KEY_UP: return INPUT_KEY_UP;
    case GLFW_KEY_DOWN: return INPUT_KEY_DOWN;
    case GLFW_KEY_LEFT: return INPUT_KEY_LEFT;
    case GLFW_KEY_RIGHT: return INPUT_KEY_RIGHT;
    case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD: return INPUT_KEY_PLUS; /* '+' is shift + '=' */
    case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT: return INPUT_KEY_MINUS;
    case GLFW_KEY_F1: return INPUT_KEY_F1;
    case GLFW_KEY_LEFT_SHIFT: case GLFW_KEY_RIGHT_SHIFT: return INPUT_KEY_SHIFT;
    default: return INPUT_KEY_NONE;
    }
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    input_event ev = {action == GLFW_PRESS     ? INPUT_EVENT_KEY_DOWN
                      : action == GLFW_REPEAT ? INPUT_EVENT_KEY_REPEAT
                                              : INPUT_EVENT_KEY_UP,
                      key_of(key), 0.0f, 0.0f};
    if (ev.code != INPUT_KEY_NONE)
        input_feed(of(w), &ev);
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    int code = button == GLFW_MOUSE_BUTTON_LEFT    ? INPUT_BUTTON_LEFT
             : button == GLFW_MOUSE_BUTTON_RIGHT   ? INPUT_BUTTON_RIGHT
             : button == GLFW_MOUSE_BUTTON_MIDDLE  ? INPUT_BUTTON_MIDDLE : -1;
    if (code < 0)
        return;
    input_event ev = {action == GLFW_PRESS ? INPUT_EVENT_BUTTON_DOWN : INPUT_EVENT_BUTTON_UP, code,
                      0.0f, 0.0f};
    input_feed(of(w), &ev);
}

/* The window's cursor is in screen units; the viewport's pixels may be
 * more (a high-density screen). */
static void on_cursor(GLFWwindow *w, double x, double y)
{
    int ww, wh, fw, fh;
    glfwGetWindowSize(w, &ww, &wh);
    glfwGetFramebufferSize(w, &fw, &fh);
    float sx = ww > 0 ? (float)fw / (float)ww : 1.0f, sy = wh > 0 ? (float)fh / (float)wh : 1.0f;
    input_event ev = {INPUT_EVENT_CURSOR, 0, (float)x * sx, (float)y * sy};
    input_feed(of(w), &ev);
}

static void on_scroll(GLFWwindow *w, double xoff, double yoff)
{
    (void)xoff;
    input_event ev = {INPUT_EVENT_SCROLL, 0, 0.0f, (float)yoff};
    input_feed(of(w), &ev);
}

/* ---- one path for every event ---- */

static void key_pressed(input *in, input_key key, int repeat)
{
    input_actions *a = &in->pending;
    const int letter = key >= INPUT_KEY_A && key <= INPUT_KEY_Z ? 'a' + (key - INPUT_KEY_A) : 0;
    if (letter == 'n') { /* held: keeps stepping */
        a->single_step++;
        return;
    }
    switch (key) { /* these repeat while held */
    case INPUT_KEY_PLUS: a->faster++; return;
    case INPUT_KEY_MINUS: a->slower++; return;
    case INPUT_KEY_UP: a->panel_move--; return;
    case INPUT_KEY_DOWN: a->panel_move++; return;
    case INPUT_KEY_LEFT: a->panel_change -= in->shift ? 10 : 1; return;
    case INPUT_KEY_RIGHT: a->panel_change += in->shift ? 10 : 1; return;
    default: break;
    }
    if (repeat)
        return;
    switch (key) {
    case INPUT_KEY_ESCAPE: a->quit++; break;
    case INPUT_KEY_SPACE: a->toggle_pause++; break;
    case INPUT_KEY_TAB: a->toggle_panel++; break;
    case INPUT_KEY_F1: a->toggle_help++; break;
    case INPUT_KEY_SHIFT: in->shift = 1; break;
    default:
        switch (letter) {
        case 'r': a->reset++; break;
        case 'p': a->screenshot++; break;
        case 'h': a->toggle_help++; break;
        case 'f': a->follow_next++; break;
        case 'c': a->free_camera++; break;
        case 'd': a->drop++; break;
        case 'x': a->remove++; break;
        case 'k': /* Shift: burst it */
            if (in->shift)
                a->burst++;
            else
                a->puncture++;
            break;
        case 's': a->panel_save++; break;
        default: break;
        }
    }
}

static int over_panel(const input *in)
{
    return in->last_x >= in->panel[0] && in->last_x < in->panel[2] && in->last_y >= in->panel[1]
        && in->last_y < in->panel[3];
}

static void button(input *in, int code, int down)
{
    if (code == INPUT_BUTTON_LEFT && down && over_panel(in)) {
        in->pending.panel_click++;
        in->pending.panel_click_y = in->last_y;
    } else if (code == INPUT_BUTTON_LEFT) {
        in->grabbing = down;
        if (down)
            in->pending.grab_press++;
        else
            in->pending.grab_release++;
    } else if (code == INPUT_BUTTON_RIGHT) { /* orbit, or with Shift pan */
        in->orbiting = down && !in->shift;
        in->panning = down && in->shift;
    } else {
        in->panning = down;
    }
}

static void cursor(input *in, float x, float y)
{
    float dx = x - in->last_x, dy = y - in->last_y;
    in->last_x = x;
    in->last_y = y;
    if (in->orbiting) {
        camera_orbit(in->camera, -dx * ORBIT_RAD_PER_UNIT, dy * ORBIT_RAD_PER_UNIT);
    } else if (in->panning) {
        camera_pan(in->camera, dx, dy, (float)in->viewport_h);
        in->pending.panned = 1;
    }
}

void input_feed(input *in, const input_event *ev)
{
    switch (ev->kind) {
    case INPUT_EVENT_KEY_DOWN:
    case INPUT_EVENT_KEY_REPEAT:
        key_pressed(in, (input_key)ev->code, ev->kind == INPUT_EVENT_KEY_REPEAT);
        break;
    case INPUT_EVENT_KEY_UP:
        if (ev->code == INPUT_KEY_SHIFT)
            in->shift = 0;
        break;
    case INPUT_EVENT_BUTTON_DOWN:
    case INPUT_EVENT_BUTTON_UP:
        button(in, ev->code, ev->kind == INPUT_EVENT_BUTTON_DOWN);
        break;
    case INPUT_EVENT_CURSOR:
        cursor(in, ev->x, ev->y);
        break;
    case INPUT_EVENT_SCROLL:
        if (over_panel(in))
            in->pending.panel_scroll += ev->y;
        else
            camera_zoom(in->camera, ev->y);
        break;
    }
}

input_key input_key_named(const char *name)
{
    static const struct { const char *name; input_key key; } names[] = {
        {"escape", INPUT_KEY_ESCAPE}, {"space", INPUT_KEY_SPACE}, {"tab", INPUT_KEY_TAB},
        {"up", INPUT_KEY_UP}, {"down", INPUT_KEY_DOWN}, {"left", INPUT_KEY_LEFT},
        {"right", INPUT_KEY_RIGHT}, {"plus", INPUT_KEY_PLUS}, {"minus", INPUT_KEY_MINUS},
        {"f1", INPUT_KEY_F1}, {"shift", INPUT_KEY_SHIFT},
    };
    if (name[0] && !name[1]) {
        char c = (char)(name[0] | 0x20); /* lower case */
        return c >= 'a' && c <= 'z' ? (input_key)(INPUT_KEY_A + (c - 'a')) : INPUT_KEY_NONE;
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(name, names[i].name) == 0)
            return names[i].key;
    return INPUT_KEY_NONE;
}

input *input_create(orbit_camera *camera, int viewport_h)
{
    input *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->camera = camera;
    in->viewport_h = viewport_h;
    return in;
}

input *input_attach(render_window *w, orbit_camera *camera)
{
    GLFWwindow *gw = window_handle(w);
    int fw, fh;
    glfwGetFramebufferSize(gw, &fw, &fh);
    input *in = input_create(camera, fh);
    if (!in)
        return NULL;
    in->window = gw;
    glfwSetWindowUserPointer(in->window, in);
    glfwSetKeyCallback(in->window, on_key);
    glfwSetMouseButtonCallback(in->window, on_button);
    glfwSetCursorPosCallback(in->window, on_cursor);
    glfwSetScrollCallback(in->window, on_scroll);
    return in;
}

void input_set_panel(input *in, float x0, float y0, float x1, float y1)
{
    in->panel[0] = x0;
    in->panel[1] = y0;
    in->panel[2] = x1;
    in->panel[3] = y1;
}

void input_set_viewport(input *in, int width, int height)
{
    (void)width;
    in->viewport_h = height;
}

input_actions input_take(input *in)
{
    input_actions a = in->pending;
    a.grabbing = in->grabbing;
    a.along_water = in->shift;
    a.cursor[0] = in->last_x;
    a.cursor[1] = in->last_y;
    memset(&in->pending, 0, sizeof in->pending);
    return a;
}

void input_detach(input *in)
{
    if (!in)
        return;
    if (!in->window) {
        free(in);
        return;
    }
    glfwSetKeyCallback(in->window, NULL);
    glfwSetMouseButtonCallback(in->window, NULL);
    glfwSetCursorPosCallback(in->window, NULL);
    glfwSetScrollCallback(in->window, NULL);
    glfwSetWindowUserPointer(in->window, NULL);
    free(in);
}
