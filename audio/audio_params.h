/* Settings of the sound, filled by config/ from the [audio] section. */
#ifndef DINGHY_AUDIO_PARAMS_H
#define DINGHY_AUDIO_PARAMS_H

typedef struct {
    int enabled;            /* 0: no sound at all */
    double volume;          /* master volume, 0..1 */
    double contact_volume;  /* ring-ring squeaks, 0..1 */
    double splash_volume;   /* water entries, 0..1 */
    double ambience_volume; /* rushing-water loop, 0..1 */
} audio_params;

static inline audio_params audio_params_default(void)
{
    audio_params a = {1, 0.8, 0.8, 0.7, 0.5};
    return a;
}

#endif
