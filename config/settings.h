/* Everything a configuration sets: the physics parameters and the settings
 * of the renderer and the sound, each defined by the module that uses it. */
#ifndef DINGHY_SETTINGS_H
#define DINGHY_SETTINGS_H

#include "../audio/audio_params.h"
#include "../physics/params.h"
#include "../render/render_params.h"

typedef struct {
    sim_params sim;
    render_params render;
    audio_params audio;
} dinghy_settings;

/* The built-in defaults of every section. */
static inline dinghy_settings settings_default(void)
{
    dinghy_settings s;
    s.sim = sim_params_default();
    s.render = render_params_default();
    s.audio = audio_params_default();
    return s;
}

#endif
