/* Everything a configuration sets: the physics parameters and the settings
 * of the scene, the renderer and the sound, each defined by the module
 * that uses it. */
#ifndef DINGHY_SETTINGS_H
#define DINGHY_SETTINGS_H

#include "audio/audio_params.h"
#include "dinghy/defs.h"
#include "dinghy/spray.h"
#include "dinghy/scene.h"
#include "render/render_params.h"

typedef struct {
    sim_def sim;        /* the physics core's definition */
    scene_def scene;    /* which scene and its layout */
    render_params render;
    audio_params audio;
    spray_def spray;    /* the droplets thrown up by splashes, hits and the river */
} dinghy_settings;

/* The built-in defaults of every section. */
static inline dinghy_settings settings_default(void)
{
    dinghy_settings s;
    s.sim = sim_def_default();
    s.scene = scene_def_default();
    s.render = render_params_default();
    s.audio = audio_params_default();
    s.spray = spray_def_default();
    return s;
}

#endif
