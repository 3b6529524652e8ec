/* Sound through SDL2_mixer: squeaks for ring-ring contacts,
 * splashes for water entries and a rushing-water loop, all synthesised at
 * start (audio/synth.h), never loaded from files.
 *
 * How a caller uses it (one thread; the demo loop or a headless run):
 *
 *   audio *a = audio_open(&settings.audio, AUDIO_REALTIME, muted);  // NULL: silent, reason printed
 *   each frame, after sim_step:
 *       events = sim_events(sim, &n, &dropped);
 *       pan[i] = -1 (left) .. 1 (right) for each event, from its screen position;
 *       audio_scene sc = audio_scene_of(sim);           // audio/scene_sound.h
 *       audio_frame_info f = {sim_time(sim), sc.size, sc.vertices,
 *                             audio_ambience_level(0.0, sc.mean_speed),
 *                             audio_hiss_level(sc.leak)};
 *       audio_frame(a, &f, events, pan, n);   // the next sim_step starts a new list
 *   audio_close(a);
 *
 * All SDL_mixer calls after audio_open are made on the audio thread, from
 * a queue that audio_frame fills: the caller never waits on the audio
 * device's lock, and the physics is never touched. Every function accepts
 * a NULL handle and does nothing, so callers need no "if (sound)". */
#ifndef DINGHY_AUDIO_H
#define DINGHY_AUDIO_H

#include <stddef.h>

#include "dinghy/events.h"
#include "dinghy/sim.h"
#include "audio/audio_params.h"

typedef struct audio audio;

typedef enum {
    /* The demo: the caller keeps real time itself. audio_frame never waits;
     * sounds start at the next audio buffer (about 23 ms). */
    AUDIO_REALTIME,
    /* Headless: the run follows the device's clock so that each sound lands
     * at its simulated time in the output. audio_frame waits while the
     * simulation is more than about 60 ms ahead of the device (so a sound
     * card plays in real time); with SDL's disk driver (a file, no clock of
     * its own) the device also waits for the simulation, so the file lines
     * up exactly and, with SDL_DISKAUDIODELAY=0, is written as fast as the
     * simulation runs. A simulation slower than real time on a sound card
     * makes sounds late, never stops the device. */
    AUDIO_PACED,
} audio_timing;

/* What one frame hands to the sound. */
typedef struct {
    double time;        /* simulated time at the end of the frame, s (sim_time) */
    double ring_size;   /* outer radius R + r of the rings, m: bigger ones squeak lower */
    int vertices;       /* vertices per ring (M*N), to size splashes; 0 = unknown */
    double ambience;    /* how hard the water rushes, 0..1 (audio_ambience_level) */
    double hiss;        /* how hard punctured rings hiss, 0..1 (audio_hiss_level) */
} audio_frame_info;

/* Opens the default sound device (SDL picks the driver; SDL_AUDIODRIVER
 * overrides), synthesises the sounds in the format the device reports
 * (Mix_QuerySpec) and starts the water loop. Returns NULL when sound is
 * disabled (p->enabled == 0, silently) or cannot start: then one line
 * "dinghy: sound off: <reason>" goes to stderr and the caller carries on
 * without sound. The device's own chatter on stderr (ALSA's) is
 * suppressed while opening. muted: start silent (see audio_set_muted). */
audio *audio_open(const audio_params *p, audio_timing timing, int muted);

/* Hands over one frame: the events since the last frame (from sim_events),
 * their stereo pans (-1 left .. 1 right; NULL = all centred) and the frame
 * info. Chooses what to play: at most AUDIO_VOICES sounds at once, the same
 * sound restarted at most every PLAN_RESTART_SECONDS, a contact pair or a
 * splashing ring retriggered only after a hold-off, the loudest first.
 * Loudness and pitch follow impact speed and ring size; the volumes of
 * the [audio] settings scale everything. */
void audio_frame(audio *a, const audio_frame_info *f, const sim_event *events,
                 const float *pan, size_t n);

/* Silences everything at once (1) or lets the next frame sound again (0). */
void audio_set_muted(audio *a, int muted);
int audio_muted(const audio *a);

/* New volumes take effect with the next frame (enabled is ignored here). */
void audio_set_params(audio *a, const audio_params *p);

/* AUDIO_PACED: waits until the device has played `seconds` of sound past
 * the last frame, so the tails of the last sounds are heard (or written).
 * AUDIO_REALTIME: returns at once. */
void audio_drain(audio *a, double seconds);

typedef struct {
    const char *driver;      /* SDL's audio driver, e.g. "alsa", "disk" */
    int rate, channels;      /* device frames per second and channels */
    long frames;             /* audio_frame calls */
    long events;             /* events handed in */
    long squeaks, splashes;  /* sounds started */
    long skipped;            /* events not sounded: too soft, too soon, too many at once */
    long stolen;             /* voices cut short to make room for a new sound */
    long late;               /* frames applied after their time (simulation behind the device) */
    double first_squeak;     /* simulated time of the first squeak / splash played, s; -1 none */
    double first_splash;
    double start_seconds;    /* device time at which simulated time 0 plays, s, counted from
                                the first buffer SDL_mixer mixed (a driver may output silence
                                before that); -1 before the first frame */
} audio_stats;
audio_stats audio_get_stats(const audio *a);

/* Stops the sound and frees everything; NULL is fine. */
void audio_close(audio *a);

#endif
