/* GLSL shared by every 3-D shader: the per-frame uniform block, the sky
 * colour, distance haze and the animated ripples of the water surface.
 * Used as a C string prefix: "#version 330 core\n" GLSL_COMMON "...". */
#ifndef DINGHY_GLSL_COMMON_H
#define DINGHY_GLSL_COMMON_H

/* Binding point of the "Frame" uniform block (see render.c). */
#define FRAME_BLOCK_BINDING 0

/* Toward the sun, not normalised (the frame block's sun; the ground bakes
 * its light from it), and the C side's copies of SUN_LIGHT and DEEP_WATER
 * below. */
#define SUN_TOWARD {0.42f, -0.50f, 0.76f}
#define GLSL_SUN_LIGHT {1.00, 0.95, 0.86}
#define GLSL_DEEP_WATER {0.03, 0.20, 0.26}

#define GLSL_COMMON \
"layout(std140) uniform Frame {\n" \
"    mat4 view_proj;\n" \
"    vec4 eye;       /* xyz: eye position, m */\n" \
"    vec4 sun;       /* xyz: unit direction toward the sun */\n" \
"    vec4 water;     /* x: water level m, y: time s, z: 1 / haze distance 1/m */\n" \
"    vec4 ray_right; /* xyz: view-plane right * tan(fovy/2) * aspect */\n" \
"    vec4 ray_up;    /* xyz: view-plane up * tan(fovy/2) */\n" \
"    vec4 ray_fwd;   /* xyz: view direction */\n" \
"};\n" \
"const vec3 HORIZON = vec3(0.80, 0.87, 0.93);\n" \
"const vec3 ZENITH = vec3(0.20, 0.43, 0.78);\n" \
"const vec3 SUN_LIGHT = vec3(1.00, 0.95, 0.86);\n" \
"const vec3 DEEP_WATER = vec3(0.03, 0.20, 0.26);\n" \
"vec3 sky_colour(vec3 d) {\n" \
"    float e = clamp(d.z, 0.0, 1.0);\n" \
"    vec3 c = mix(HORIZON, ZENITH, pow(e, 0.55));\n" \
"    float s = max(dot(d, sun.xyz), 0.0);\n" \
"    return c + SUN_LIGHT * (3.0 * pow(s, 900.0) + 0.30 * pow(s, 10.0));\n" \
"}\n" \
"vec3 haze(vec3 c, vec3 p) {\n" \
"    float d = length(p - eye.xyz) * water.z;\n" \
"    return mix(HORIZON, c, exp(-d * d));\n" \
"}\n" \
"/* Ripples for the eye only (the physics water is flat): height, m. */\n" \
"const vec4 WAVE_DIR[6] = vec4[6](vec4(0.92, 0.39, 1.7, 1.9), vec4(-0.31, 0.95, 2.6, 2.3),\n" \
"    vec4(0.60, -0.80, 4.1, 3.1), vec4(-0.86, -0.51, 7.3, 4.2), vec4(0.20, 0.98, 13.0, 5.9),\n" \
"    vec4(0.99, -0.12, 21.0, 7.7));\n" \
"const float WAVE_AMP[6] = float[6](0.012, 0.008, 0.005, 0.003, 0.0024, 0.0015);\n" \
"float wave_height(vec2 p) {\n" \
"    float h = 0.0;\n" \
"    for (int i = 0; i < 4; i++)\n" \
"        h += WAVE_AMP[i] * sin(dot(p, WAVE_DIR[i].xy) * WAVE_DIR[i].z - water.y * WAVE_DIR[i].w);\n" \
"    return h;\n" \
"}\n" \
"/* Surface normal of the ripples; fine detail fades with distance (no shimmer). */\n" \
"vec3 wave_normal(vec2 p, float dist) {\n" \
"    vec2 g = vec2(0.0);\n" \
"    for (int i = 0; i < 6; i++) {\n" \
"        float fade = exp(-dist * WAVE_DIR[i].z * 0.004);\n" \
"        g += fade * WAVE_AMP[i] * WAVE_DIR[i].z * WAVE_DIR[i].xy\n" \
"             * cos(dot(p, WAVE_DIR[i].xy) * WAVE_DIR[i].z - water.y * WAVE_DIR[i].w);\n" \
"    }\n" \
"    return normalize(vec3(-2.5 * g, 1.0));\n" \
"}\n"

/* The vertex shader of the river's static meshes (ground, rocks): a
 * position, a normal and the water level of the place, passed on. */
#define GLSL_VS_POS_NORMAL_LEVEL "#version 330 core\n" GLSL_COMMON \
"layout(location = 0) in vec3 a_pos;\n" \
"layout(location = 1) in vec3 a_normal;\n" \
"layout(location = 2) in float a_level;\n" \
"out vec3 v_pos;\n" \
"out vec3 v_normal;\n" \
"out float v_level;\n" \
"void main() {\n" \
"    v_pos = a_pos;\n" \
"    v_normal = a_normal;\n" \
"    v_level = a_level;\n" \
"    gl_Position = view_proj * vec4(a_pos, 1.0);\n" \
"}\n"

/* The start of their fragment shaders: what that vertex shader passes on. */
#define GLSL_FS_POS_NORMAL_LEVEL "#version 330 core\n" GLSL_COMMON \
"in vec3 v_pos;\n" \
"in vec3 v_normal;\n" \
"in float v_level;\n" \
"out vec4 colour;\n"

#endif
