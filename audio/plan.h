/* The mixing policy: which events become sounds, how loud, how high and
 * where. Pure bookkeeping, no SDL and no allocation, so it can run on the
 * caller's thread and be tested alone. audio.c plays what it decides. */
#ifndef DINGHY_PLAN_H
#define DINGHY_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "audio/audio.h"

/* The sound bank, synthesised once at start. Index k < PLAN_SQUEAKS is a
 * squeak at plan_squeak_pitch(k); after them come the splashes, size by
 * size, PLAN_SPLASH_TAKES different takes of each. */
#define PLAN_SQUEAKS 24
#define PLAN_SPLASH_SIZES 3
#define PLAN_SPLASH_TAKES 2
#define PLAN_SOUNDS (PLAN_SQUEAKS + PLAN_SPLASH_SIZES * PLAN_SPLASH_TAKES)

/* Effect voices playing at once (the water loop has its own). */
#define AUDIO_VOICES 12
/* The same bank sound restarts at most this often, s. */
#define PLAN_RESTART_SECONDS 0.06
/* The same pair's contact, or the same ring's splash, sounds again only
 * after this long (unless it is twice as loud), s. */
#define PLAN_CONTACT_HOLD 0.25
#define PLAN_SPLASH_HOLD 0.5
/* Sustained starts per second and the burst allowed at once. */
#define PLAN_CONTACT_RATE 30.0
#define PLAN_CONTACT_BURST 4.0
#define PLAN_SPLASH_RATE 20.0
#define PLAN_SPLASH_BURST 3.0
/* Most sounds one frame can start. */
#define PLAN_MAX_STARTS 8
/* Time constant of the water loop's level, s. */
#define PLAN_AMBIENCE_TAU 0.4

/* Pitch of bank squeak k, Hz: 110 Hz * 2^(k/4), four to the octave. */
double plan_squeak_pitch(int k);
/* Size 0..1 of a splash of the given size class (0 small .. 2 big). */
double plan_splash_size(int size_class);

/* Constant-power pan: -1 all left, 0 centre (180, 180), 1 all right, as
 * the 0..255 channel levels of Mix_SetPanning. NaN counts as centre. */
void plan_pan(double pan, unsigned char *left, unsigned char *right);

/* Gain 0..1 of a contact at relative speed (m/s) between rings of
 * outer radius size (m); 0 below a brush (0.05 m/s). */
double plan_contact_gain(double speed, double size);
/* Gain 0..1 of a splash: downward speed through the surface (m/s) and the
 * fraction 0..1 of the ring's vertices that entered. */
double plan_splash_gain(double speed, double fraction);

typedef struct {
    int sound;                  /* bank index */
    int volume;                 /* 1..128 (MIX_MAX_VOLUME) */
    unsigned char left, right;  /* Mix_SetPanning levels */
} plan_start;

typedef struct {
    plan_start starts[PLAN_MAX_STARTS];
    int nstarts;
    int ambience_volume;        /* water loop, 0..128 */
    int hiss_volume;            /* puncture hiss loop, 0..128 */
    int squeaks, splashes;      /* of the starts */
    long skipped;               /* events that did not sound */
} plan_out;

#define PLAN_RECENT 1024
typedef struct {
    int started;                /* 0 until the first frame */
    double time;                /* of the last frame, s */
    double ambience;            /* smoothed level 0..1 */
    double hiss;                /* smoothed hiss level 0..1 */
    double tokens[2];           /* contact, splash start budgets */
    double sound_time[PLAN_SOUNDS]; /* last start of each bank sound, s */
    struct {
        uint64_t key;           /* pair or ring, 0 = empty */
        double time;
        double gain;
    } recent[PLAN_RECENT];      /* hold-offs, hashed; a collision only forgets one */
} audio_plan;

void plan_init(audio_plan *pl);

/* Decides one frame. muted: nothing starts and the loop is at 0, but the
 * bookkeeping goes on. A frame earlier than the last (a reset) starts the
 * bookkeeping afresh. */
void plan_frame(audio_plan *pl, const audio_params *p, int muted, const audio_frame_info *f,
                const sim_event *events, const float *pan, size_t n, plan_out *out);

#endif
