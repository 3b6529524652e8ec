/* The renderer: per-frame uniforms and the order of the passes. */
#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/course_map.h"
#include "render/crowd_camera.h"
#include "render/ring_mesh.h"
#include "render/gl.h"
#include "render/glsl_common.h"
#include "render/hud.h"
#include "render/pass_timer.h"
#include "render/pen.h"
#include "render/river_water.h"
#include "render/riverbed.h"
#include "render/rocks.h"
#include "render/scene_target.h"
#include "render/sky.h"
#include "render/spray_draw.h"
#include "render/terrain.h"
#include "render/water.h"
#include "render/wave_texture.h"

#define WORLD_HALF_SIZE 400.0f /* river bed and water reach this far from the scene, m */
/* A ring drawn smaller than this across (pixels) is drawn at coarse detail. */
#define COARSE_RING_PIXELS 100.0f
/* Ground farther than this many haze distances is lost in the haze (under
 * 1e-4 of its colour shows): the sky's horizon is drawn there instead. */
#define GROUND_REACH 3.0f

/* The "Frame" uniform block of glsl_common.h, std140 layout. */
typedef struct {
    float view_proj[16];
    float eye[4], sun[4], water[4], ray_right[4], ray_up[4], ray_fwd[4];
} frame_block;

struct renderer {
    sky *sky;
    riverbed *bed;      /* still water: the painted bed and the flat sheet */
    pen *pen;           /* still water: the pen's walls, when the scene has one */
    water *water;
    course_map map;     /* a river: its course, ground, rocks and water */
    int river;
    terrain *ground;
    rocks *rocks;
    river_water *river_water;
    wave_texture *waves;    /* the wave layer's heights (none: zero) */
    crowd_camera crowd;
    ring_mesh *mesh;
    hud *hud;
    scene_target *scaled; /* the scene below the window's size (render_draw_scaled) */
    GLuint frame_ubo;
    orbit_camera camera;
    int width, height;  /* last viewport */
    int follow;         /* index of the ring followed, or RENDER_FOLLOW_CROWD / _FREE */
    sim_ring_id follow_id; /* the ring followed, by id: it stays the same ring when
                              others are taken out (valid unless follow_pick) */
    int follow_pick;    /* follow was just set by index: take its id at the next update */
    int follow_fresh;   /* just started following: move in close */
    int crowd_pending;  /* just asked to follow the crowd: start at the next frame */
    int rings;
    float ring_size;    /* outer radius of a ring, m */
    float haze_distance;
    const spray_system *spray; /* drawn when attached (render_attach_spray) */
    spray_draw *spray_gl;      /* made at the first attach, for its budget */
    pass_timer timer;          /* per-pass wall times (render_profile) */
    float view_proj[16];       /* of the frame being drawn, column-major */
    float eye[3];
};

renderer *render_create(const dinghy_sim *sim, char *err, size_t err_len)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_len, "out of memory for the renderer");
        return NULL;
    }
    const sim_def *p = sim_get_def(sim);
    const sim_ring_state *rings = sim_rings(sim);
    float level = (float)p->world.water.level;
    r->ring_size = (float)(p->ring.major_radius + p->ring.minor_radius);
    r->follow = -1;
    r->rings = sim_ring_count(sim);
    float lo[3] = {1e30f, 1e30f, level - (float)p->ring.minor_radius};
    float hi[3] = {-1e30f, -1e30f, level + (float)p->ring.minor_radius};
    for (int i = 0; i < sim_ring_count(sim); i++) {
        for (int k = 0; k < 2; k++) {
            lo[k] = fminf(lo[k], (float)rings[i].centre[k] - r->ring_size);
            hi[k] = fmaxf(hi[k], (float)rings[i].centre[k] + r->ring_size);
        }
    }
    r->camera = camera_framing(lo, hi);
    float centre[2] = {0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1])};
    float half_width = 0.5f * (hi[1] - lo[1]) + 6.0f; /* room to drift */
    const river_world *river = sim_river(sim);
    r->river = river != NULL;
    if (river) {
        course_map_init(&r->map, river);
        crowd_camera_start(&r->crowd, &r->map, sim, &r->camera, 0);
        r->follow = RENDER_FOLLOW_CROWD;
    }
    r->haze_distance = 220.0f + 3.0f * r->camera.distance;

    if (!(r->waves = wave_texture_create(sim_waves(sim), err, err_len)) ||
        !(r->sky = sky_create(err, err_len)) ||
        (river && !(r->ground = terrain_create(&r->map, err, err_len))) ||
        (river && !(r->rocks = rocks_create(river, err, err_len))) ||
        (river && !(r->river_water = river_water_create(&r->map, sim, err, err_len))) ||
        (!river && !(r->bed = riverbed_create(centre, half_width, level, err, err_len))) ||
        !(r->mesh = ring_mesh_create(sim, err, err_len)) ||
        (!river && !(r->water = water_create(centre, WORLD_HALF_SIZE, r->waves, err, err_len))) ||
        (!river && !(r->pen = pen_create(sim, err, err_len)) && err[0]) ||
        !(r->hud = hud_create(err, err_len)) ||
        !(r->scaled = scene_target_create(err, err_len))) {
        render_destroy(r);
        return NULL;
    }
    glGenBuffers(1, &r->frame_ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, r->frame_ubo);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(frame_block), NULL, GL_STREAM_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, FRAME_BLOCK_BINDING, r->frame_ubo);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    /* the tube's inside shows where the near plane cuts it open; ring_mesh
     * culls the back faces of the rings too far off to be cut */
    glDisable(GL_CULL_FACE);
    return r;
}

void render_destroy(renderer *r)
{
    if (!r)
        return;
    if (r->frame_ubo)
        glDeleteBuffers(1, &r->frame_ubo);
    hud_destroy(r->hud);
    scene_target_destroy(r->scaled);
    spray_draw_destroy(r->spray_gl);
    water_destroy(r->water);
    wave_texture_destroy(r->waves);
    ring_mesh_destroy(r->mesh);
    river_water_destroy(r->river_water);
    rocks_destroy(r->rocks);
    terrain_destroy(r->ground);
    riverbed_destroy(r->bed);
    pen_destroy(r->pen);
    sky_destroy(r->sky);
    free(r);
}

static void set4(float out[4], const float v[3], float w)
{
    out[0] = v[0];
    out[1] = v[1];
    out[2] = v[2];
    out[3] = w;
}

void render_follow_update(renderer *r, const dinghy_sim *sim)
{
    if (r->follow == RENDER_FOLLOW_CROWD) {
        if (r->crowd_pending)
            crowd_camera_start(&r->crowd, r->river ? &r->map : NULL, sim, &r->camera, 1);
        r->crowd_pending = 0;
        crowd_camera_update(&r->crowd, sim, &r->camera);
        return;
    }
    if (r->follow < 0)
        return;
    if (r->follow_pick)
        r->follow_id = sim_ring_id_at(sim, r->follow);
    r->follow_pick = 0;
    r->follow = sim_ring_index(sim, r->follow_id); /* where the rings moved to */
    if (r->follow < 0) { /* taken out: the camera stays where it is */
        r->follow = RENDER_FOLLOW_FREE;
        return;
    }
    const sim_ring_state *s = &sim_rings(sim)[r->follow];
    /* Ease toward the ring so the view does not jitter with its wobble. */
    float ease = r->follow_fresh ? 1.0f : 0.15f;
    for (int k = 0; k < 3; k++)
        r->camera.target[k] += ease * ((float)s->centre[k] - r->camera.target[k]);
    if (r->follow_fresh)
        r->camera.distance = 6.0f * r->ring_size;
    r->follow_fresh = 0;
}

static void upload_frame(renderer *r, const sim_def *p, double time_s)
{
    frame_block f;
    float aspect = (float)r->width / (float)r->height;
    mat4 vp;
    camera_view_projection(&r->camera, aspect, vp);
    memcpy(f.view_proj, vp, sizeof f.view_proj);
    memcpy(r->view_proj, vp, sizeof r->view_proj);
    float eye[3], fwd[3], right[3], up[3], z[3] = {0.0f, 0.0f, 1.0f};
    camera_eye(&r->camera, eye);
    for (int k = 0; k < 3; k++)
        fwd[k] = r->camera.target[k] - eye[k];
    glm_vec3_normalize(fwd);
    glm_vec3_crossn(fwd, z, right);
    glm_vec3_cross(right, fwd, up);
    float t = tanf(0.5f * r->camera.fovy);
    for (int k = 0; k < 3; k++) {
        right[k] *= t * aspect;
        up[k] *= t;
    }
    float sun[3] = SUN_TOWARD; /* behind the default camera's right shoulder */
    glm_vec3_normalize(sun);
    set4(f.eye, eye, 1.0f);
    memcpy(r->eye, eye, sizeof r->eye);
    set4(f.sun, sun, 0.0f);
    float level = r->river ? 0.0f : (float)p->world.water.level;
    float water[3] = {level, (float)fmod(time_s, 10000.0), 1.0f / r->haze_distance};
    set4(f.water, water, 0.0f);
    set4(f.ray_right, right, 0.0f);
    set4(f.ray_up, up, 0.0f);
    set4(f.ray_fwd, fwd, 0.0f);
    glBindBuffer(GL_UNIFORM_BUFFER, r->frame_ubo);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof f, &f);
}

/* The distance (m) beyond which a ring covers fewer than
 * COARSE_RING_PIXELS of the viewport's height. */
static float coarse_distance(const renderer *r)
{
    return 2.0f * r->ring_size * (float)r->height /
           (2.0f * tanf(0.5f * r->camera.fovy) * COARSE_RING_PIXELS);
}

static void draw_rings(renderer *r)
{
    float eye[3];
    camera_eye(&r->camera, eye);
    ring_mesh_draw(r->mesh, eye, coarse_distance(r));
}

void render_draw(renderer *r, const dinghy_sim *sim, int width, int height, double time_s)
{
    pass_timer *t = &r->timer;
    r->width = width > 0 ? width : 1;
    r->height = height > 0 ? height : 1;
    pass_timer_mark(t, "other", 1);
    render_follow_update(r, sim);
    upload_frame(r, sim_get_def(sim), time_s);
    wave_texture_update(r->waves, sim_waves(sim));
    ring_mesh_upload(r->mesh, sim);
    pass_timer_mark(t, "rings upload", 1);
    glViewport(0, 0, r->width, r->height);
    glClear(GL_DEPTH_BUFFER_BIT);
    /* Opaque things front to back (rings, rocks, ground), then the sky
     * where nothing was drawn: a CPU rasteriser shades no pixel twice
     * where the depth test can tell it is hidden. */
    if (r->river) {
        double s, n;
        orbit_camera *c = &r->camera;
        if (!river_station(r->map.w, c->target[0], c->target[1], &s, &n))
            s = 1e300; /* looking away from the river: every row in turn */
        river_water_update(r->river_water, sim, s);
        pass_timer_mark(t, "water upload", 1);
        draw_rings(r);
        pass_timer_mark(t, "rings", 1);
        rocks_draw(r->rocks);
        pass_timer_mark(t, "rocks", 1);
        terrain_draw(r->ground, r->view_proj, r->eye, GROUND_REACH * r->haze_distance);
        pass_timer_mark(t, "ground", 1);
        sky_draw(r->sky);
        pass_timer_mark(t, "sky", 1);
        river_water_draw(r->river_water, r->view_proj, r->eye, GROUND_REACH * r->haze_distance,
                         sim_time(sim), r->waves); /* translucent, last of the scene */
        pass_timer_mark(t, "water", 1);
    } else {
        draw_rings(r);
        pass_timer_mark(t, "rings", 1);
        pen_draw(r->pen);
        pass_timer_mark(t, "pen", 1);
        riverbed_draw(r->bed, r->view_proj, r->eye, GROUND_REACH * r->haze_distance);
        pass_timer_mark(t, "ground", 1);
        sky_draw(r->sky);
        pass_timer_mark(t, "sky", 1);
        water_draw(r->water, r->waves);  /* translucent, last of the scene */
        pass_timer_mark(t, "water", 1);
    }
    if (r->spray) /* over the water: the droplets are above it */
        spray_draw_draw(r->spray_gl, r->spray);
    pass_timer_mark(t, "spray", 1);
}

void render_draw_scaled(renderer *r, const dinghy_sim *sim, int width, int height, int scene_w,
                        int scene_h, double time_s)
{
    if (scene_w >= width && scene_h >= height) {
        render_draw(r, sim, width, height, time_s);
        return;
    }
    if (scene_target_bind(r->scaled, scene_w, scene_h) != 0) {
        render_draw(r, sim, width, height, time_s); /* refused: at full size */
        return;
    }
    render_draw(r, sim, scene_w, scene_h, time_s);
    scene_target_present(r->scaled, width, height);
    pass_timer_mark(&r->timer, "scale up", 1);
    /* the HUD, the panel and the pointer work in the window's pixels */
    r->width = width > 0 ? width : 1;
    r->height = height > 0 ? height : 1;
}

void render_attach_spray(renderer *r, const spray_system *sp)
{
    if (sp && r->spray_gl && spray_draw_budget(r->spray_gl) < spray_budget(sp)) {
        spray_draw_destroy(r->spray_gl); /* a bigger budget than before */
        r->spray_gl = NULL;
    }
    if (sp && !r->spray_gl) {
        char err[512];
        if (!(r->spray_gl = spray_draw_create(spray_budget(sp), err, sizeof err))) {
            fprintf(stderr, "dinghy: the spray is not drawn: %s\n", err);
            sp = NULL;
        }
    }
    r->spray = sp;
}

void render_hud(renderer *r, const char *text, float scale)
{
    pass_timer_mark(&r->timer, "other", 1);
    hud_draw(r->hud, text, 8.0f * scale, 8.0f * scale, r->width, r->height, scale);
    pass_timer_mark(&r->timer, "hud", 1);
}

void render_profile(renderer *r, int on)
{
    r->timer.on = on;
    pass_timer_start(&r->timer);
}

void render_profile_mark(renderer *r, const char *name)
{
    pass_timer_mark(&r->timer, name, 0);
}

void render_profile_frame(renderer *r)
{
    pass_timer_frame(&r->timer);
}

void render_profile_format(const renderer *r, char *buf, size_t len)
{
    pass_timer_format(&r->timer, buf, len);
}

void render_panel(renderer *r, const char *text, float scale, render_text_box *box)
{
    float x = (float)r->width - (hud_text_width(text) + 8.0f) * scale;
    x = x > 0.0f ? x : 0.0f;
    const float y = 8.0f * scale;
    hud_draw(r->hud, text, x, y, r->width, r->height, scale);
    if (box) { /* hud_draw puts the text a pad inside (x, y) and the panel a pad round it */
        box->x0 = x;
        box->y0 = y;
        box->x1 = x + hud_text_width(text) * scale;
        box->y1 = y + hud_text_height(text) * scale;
        box->first_line_y = y + HUD_PANEL_PAD * scale;
        box->line_height = HUD_LINE_HEIGHT * scale;
    }
}

int render_project(const renderer *r, const float world[3], float *px, float *py)
{
    return camera_project(&r->camera, r->width, r->height, world, px, py);
}

void render_viewport(const renderer *r, int *width, int *height)
{
    *width = r->width;
    *height = r->height;
}

orbit_camera *render_camera(renderer *r)
{
    return &r->camera;
}

void render_follow(renderer *r, int index)
{
    if (index == RENDER_FOLLOW_CROWD) {
        if (r->follow != RENDER_FOLLOW_CROWD)
            r->crowd_pending = 1; /* starts from where the camera is, at the next frame */
        r->follow = RENDER_FOLLOW_CROWD;
        return;
    }
    r->follow = index >= 0 && index < r->rings ? index : RENDER_FOLLOW_FREE;
    r->follow_fresh = r->follow >= 0;
    r->follow_pick = r->follow >= 0;
}

int render_default_follow(const renderer *r)
{
    return r->river ? RENDER_FOLLOW_CROWD : RENDER_FOLLOW_FREE;
}

int render_following(const renderer *r)
{
    return r->follow;
}

int render_coarse_rings(const renderer *r)
{
    return ring_mesh_drawn_coarse(r->mesh);
}
