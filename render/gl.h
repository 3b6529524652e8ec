/* The GL headers in the one order that works: GLEW before any other GL
 * header, GLFW told not to include its own. Only render/ includes this. */
#ifndef DINGHY_GL_H
#define DINGHY_GL_H

#include <GL/glew.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#endif
