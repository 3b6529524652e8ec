/* Headless runs with sound (--audio). */
#ifndef DINGHY_AUDIO_RUN_H
#define DINGHY_AUDIO_RUN_H

#include "config/settings.h"

/* Frames of the sound in a headless run: about 1/60 s of simulated time. */
#define AUDIO_RUN_FPS 60.0

/* Like headless_run, with sound: every 1/60 s of simulated time the frame's
 * events go to the sound, panned by their x in the scene, the water loop
 * following the rings' speed. Paced by the sound device (AUDIO_PACED):
 * real time on a sound card, as fast as it goes on SDL's disk driver with
 * SDL_DISKAUDIODELAY=0. Afterwards the last sounds ring out (0.7 s) and a
 * line "audio: ..." on stderr says what was played. When sound cannot
 * start, one line says so and the run goes on silent. The physics, and so
 * the hash, is the same as without sound. muted: play silence. */
int audio_headless_run(const dinghy_settings *settings, long steps, const char *dump, int muted);

#endif
