/* The sound device through SDL_mixer: chunks made by the synthesiser in the
 * device's format, and a queue from the caller's thread to the audio
 * thread.
 *
 * Threads. The caller (audio_frame) decides what to play (plan.c) and
 * pushes it on a queue under `lock`; it calls no SDL_mixer function between
 * open and close. The audio thread's post-mix hook, which SDL_mixer runs
 * after mixing each device buffer, pops the queue and starts the sounds
 * (SDL_mixer's calls lock the device, which the audio thread may do from
 * inside its own callback), so they play from the next buffer on. Hence
 * the caller never waits on the device's lock, and in the disk driver's
 * lockstep the hook can wait for the simulation while holding it.
 *
 * Time. `mixed` counts device frames (samples per channel) mixed so far.
 * The first audio_frame fixes `origin`, the device frame at which simulated
 * time 0 plays; a frame at simulated time t belongs at origin + t*rate. */
#include "audio/audio.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_mixer.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio/plan.h"
#include "audio/synth.h"

#define QUEUE 64            /* frames in flight between the threads */
#define BUFFER_FRAMES 1024  /* asked of the device: 23 ms at 44.1 kHz */
#define WAIT_MS 10000       /* a safety net on every wait: a stuck peer never hangs the run */
#define NO_ORIGIN INT64_MIN

typedef struct {
    int64_t at;    /* device frame where the frame's sounds belong */
    int halt;      /* cut every effect voice first (muting) */
    plan_out plan;
} queued;

struct audio {
    /* the caller's thread only */
    audio_params params;
    audio_timing timing;
    int muted, halt_pending;
    audio_plan plan;
    int rate, channels;
    const char *driver;
    Mix_Chunk sound[PLAN_SOUNDS], water, hiss; /* our own structs: abuf is ours to free */

    /* shared with the audio thread, under lock */
    SDL_mutex *lock;
    SDL_cond *cond;
    queued q[QUEUE];
    int q_head, q_count;
    int frame_bytes;      /* 0 until the device format is known */
    int64_t mixed_bytes;  /* mixed so far */
    int last_len;         /* bytes in the last device buffer */
    int64_t origin;       /* device frame of simulated time 0 */
    int64_t submitted;    /* `at` of the newest queued frame */
    int ready;            /* chunks made: the audio thread may set up channels */
    int set_up;           /* channels allocated and the water loop playing */
    int wait_for_sim;     /* lockstep: the audio thread waits for the simulation */
    int pace;             /* AUDIO_PACED: the caller waits for the device */
    int draining;         /* no more frames are coming */
    int closing;          /* Mix_CloseAudio is coming: the hook calls no mixer function */
    audio_stats stats;
};

/* ---- the audio thread ---- */

static int64_t mixed_frames(const audio *a)
{
    return a->frame_bytes ? a->mixed_bytes / a->frame_bytes : 0;
}

static int64_t buffer_frames(const audio *a)
{
    return a->frame_bytes && a->last_len ? a->last_len / a->frame_bytes : BUFFER_FRAMES;
}

/* Channel 0 is kept for the water loop, 1 for the puncture hiss;
 * 2..AUDIO_VOICES+1, group 1, for effects. */
static void set_up_channels(audio *a)
{
    Mix_AllocateChannels(AUDIO_VOICES + 2);
    Mix_ReserveChannels(2);
    Mix_GroupChannels(2, AUDIO_VOICES + 1, 1);
    Mix_Volume(0, 0);
    Mix_Volume(1, 0);
    Mix_PlayChannel(0, &a->water, -1);
    Mix_PlayChannel(1, &a->hiss, -1);
    a->set_up = 1;
}

static void mix_queued_frame(audio *a, const queued *f)
{
    if (f->halt)
        Mix_HaltGroup(1);
    Mix_Volume(0, f->plan.ambience_volume);
    Mix_Volume(1, f->plan.hiss_volume);
    for (int i = 0; i < f->plan.nstarts; i++) {
        const plan_start *s = &f->plan.starts[i];
        int ch = Mix_PlayChannel(-1, &a->sound[s->sound], 0);
        if (ch < 0) { /* all voices busy: the oldest makes room */
            int old = Mix_GroupOldest(1);
            if (old < 0)
                continue;
            Mix_HaltChannel(old);
            a->stats.stolen++;
            ch = Mix_PlayChannel(old, &a->sound[s->sound], 0);
            if (ch < 0)
                continue;
        }
        Mix_Volume(ch, s->volume);
        Mix_SetPanning(ch, s->left, s->right);
    }
}

/* Runs after each device buffer is mixed: brings in the frames that belong
 * to the next buffer; in lockstep first waits until the simulation has
 * delivered them. */
static void SDLCALL after_mix(void *udata, Uint8 *stream, int len)
{
    (void)stream;
    audio *a = udata;
    SDL_LockMutex(a->lock);
    a->mixed_bytes += len;
    a->last_len = len;
    if (a->closing) {
        SDL_UnlockMutex(a->lock);
        return;
    }
    while (a->wait_for_sim && !a->draining && !a->closing
           && !(a->ready && a->origin != NO_ORIGIN && a->submitted >= mixed_frames(a) + buffer_frames(a))) {
        if (SDL_CondWaitTimeout(a->cond, a->lock, WAIT_MS) == SDL_MUTEX_TIMEDOUT)
            a->wait_for_sim = 0; /* the simulation stalled: let the device run free */
    }
    if (a->ready && !a->set_up && !a->closing)
        set_up_channels(a);
    int64_t next_end = mixed_frames(a) + buffer_frames(a);
    while (a->set_up && !a->closing && a->q_count > 0
           && (a->timing == AUDIO_REALTIME || a->q[a->q_head].at <= next_end)) {
        const queued *f = &a->q[a->q_head];
        if (a->timing == AUDIO_PACED && f->at + buffer_frames(a) < mixed_frames(a))
            a->stats.late++;
        mix_queued_frame(a, f);
        a->q_head = (a->q_head + 1) % QUEUE;
        a->q_count--;
    }
    SDL_CondBroadcast(a->cond);
    SDL_UnlockMutex(a->lock);
}

/* ---- opening ---- */

/* Sends fd 2 to /dev/null (ALSA prints several lines there when it finds
 * no card); returns the saved descriptor for quiet_end, or -1. */
static int quiet_begin(void)
{
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, 2);
    if (null >= 0)
        close(null);
    return saved;
}

static void quiet_end(int saved)
{
    if (saved < 0)
        return;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* Converts interleaved stereo float into the device's format and channels. */
static int to_device(Mix_Chunk *c, float *pcm, size_t frames, int rate, Uint16 format, int channels)
{
    SDL_AudioCVT cvt;
    int need = SDL_BuildAudioCVT(&cvt, AUDIO_F32SYS, 2, rate, format, (Uint8)channels, rate);
    size_t bytes = frames * 2 * sizeof *pcm;
    if (need < 0 || bytes > INT32_MAX / 8)
        return -1;
    Uint8 *buf = SDL_malloc(bytes * (size_t)(need ? cvt.len_mult : 1));
    if (!buf)
        return -1;
    memcpy(buf, pcm, bytes);
    Uint32 len = (Uint32)bytes;
    if (need) {
        cvt.buf = buf;
        cvt.len = (int)bytes;
        if (SDL_ConvertAudio(&cvt) < 0) {
            SDL_free(buf);
            return -1;
        }
        len = (Uint32)cvt.len_cvt;
    }
    c->allocated = 0;
    c->abuf = buf;
    c->alen = len;
    c->volume = MIX_MAX_VOLUME;
    return 0;
}

/* Synthesises the bank and the water loop into chunks. */
static int make_sounds(audio *a, Uint16 format)
{
    size_t squeak = synth_frames(SYNTH_SQUEAK_SECONDS, a->rate);
    size_t splash = synth_frames(SYNTH_SPLASH_SECONDS, a->rate);
    size_t water = synth_frames(SYNTH_AMBIENCE_SECONDS, a->rate);
    size_t hiss = synth_frames(SYNTH_HISS_SECONDS, a->rate);
    size_t most = water > splash ? water : splash;
    float *pcm = malloc(sizeof *pcm * 2 * (most > squeak ? most : squeak));
    if (!pcm)
        return -1;
    int fail = 0;
    for (int k = 0; k < PLAN_SOUNDS && !fail; k++) {
        if (k < PLAN_SQUEAKS) {
            synth_squeak(pcm, squeak, a->rate, plan_squeak_pitch(k), 100u + (uint32_t)k);
            fail = to_device(&a->sound[k], pcm, squeak, a->rate, format, a->channels);
        } else {
            int j = k - PLAN_SQUEAKS;
            synth_splash(pcm, splash, a->rate, plan_splash_size(j / PLAN_SPLASH_TAKES), 200u + (uint32_t)j);
            fail = to_device(&a->sound[k], pcm, splash, a->rate, format, a->channels);
        }
    }
    if (!fail)
        fail = synth_ambience(pcm, water, a->rate, 7u) || to_device(&a->water, pcm, water, a->rate, format, a->channels);
    if (!fail) { /* hiss <= water frames: pcm has room */
        synth_hiss(pcm, hiss, a->rate, 11u);
        fail = to_device(&a->hiss, pcm, hiss, a->rate, format, a->channels);
    }
    free(pcm);
    return fail ? -1 : 0;
}

static void free_sounds(audio *a)
{
    for (int k = 0; k < PLAN_SOUNDS; k++)
        SDL_free(a->sound[k].abuf);
    SDL_free(a->water.abuf);
    SDL_free(a->hiss.abuf);
}

/* Before Mix_CloseAudio: that frees the panning effects' state before it
 * stops the device, without the device's lock, so the hook must make no
 * mixer call from here on. Holding our lock means the hook is not inside
 * one now; it also releases a hook waiting for the simulation. */
static void stop_hook(audio *a)
{
    SDL_LockMutex(a->lock);
    a->draining = 1;
    a->closing = 1;
    SDL_CondBroadcast(a->cond);
    SDL_UnlockMutex(a->lock);
}

static void free_handle(audio *a)
{
    if (a->cond)
        SDL_DestroyCond(a->cond);
    if (a->lock)
        SDL_DestroyMutex(a->lock);
    free(a);
}

audio *audio_open(const audio_params *p, audio_timing timing, int muted)
{
    if (!p || !p->enabled)
        return NULL;
    audio *a = calloc(1, sizeof *a);
    if (!a || !(a->lock = SDL_CreateMutex()) || !(a->cond = SDL_CreateCond())) {
        fprintf(stderr, "dinghy: sound off: out of memory\n");
        if (a)
            free_handle(a);
        return NULL;
    }
    a->params = *p;
    a->timing = timing;
    a->muted = muted;
    a->origin = NO_ORIGIN;
    plan_init(&a->plan);
    a->stats.first_squeak = a->stats.first_splash = a->stats.start_seconds = -1.0;

    char why[300] = "";
    int saved = quiet_begin();
    /* SDL would otherwise take over SIGINT and SIGTERM and turn them into
     * SDL_QUIT events nobody reads: Ctrl-C must still stop the program. */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
        snprintf(why, sizeof why, "SDL audio did not start (%s)", SDL_GetError());
    } else {
        a->driver = SDL_GetCurrentAudioDriver();
        /* The disk driver writes a file and has no clock worth keeping to:
         * in a paced run it waits for the simulation instead. */
        a->wait_for_sim = timing == AUDIO_PACED && a->driver && strcmp(a->driver, "disk") == 0;
        a->pace = timing == AUDIO_PACED;
        /* Hooked before opening, so the hook sees the device's first buffer. */
        Mix_SetPostMix(after_mix, a);
        if (Mix_OpenAudio(44100, MIX_DEFAULT_FORMAT, 2, BUFFER_FRAMES) != 0) {
            snprintf(why, sizeof why, "no sound device (%s)", SDL_GetError());
            Mix_SetPostMix(NULL, NULL);
            SDL_QuitSubSystem(SDL_INIT_AUDIO);
        }
    }
    quiet_end(saved);
    Uint16 format = 0;
    if (!why[0]) {
        Mix_QuerySpec(&a->rate, &format, &a->channels);
        if (a->rate < 4000 || a->channels < 1 || make_sounds(a, format) != 0) {
            snprintf(why, sizeof why, "cannot make the sounds for %d Hz, %d channels, format 0x%x",
                     a->rate, a->channels, format);
            stop_hook(a);
            Mix_CloseAudio();
            Mix_SetPostMix(NULL, NULL);
            SDL_QuitSubSystem(SDL_INIT_AUDIO);
            free_sounds(a);
        }
    }
    if (why[0]) {
        fprintf(stderr, "dinghy: sound off: %s; carrying on without sound\n", why);
        free_handle(a);
        return NULL;
    }
    a->stats.driver = a->driver;
    a->stats.rate = a->rate;
    a->stats.channels = a->channels;
    SDL_LockMutex(a->lock);
    a->frame_bytes = (int)(SDL_AUDIO_BITSIZE(format) / 8) * a->channels;
    a->ready = 1;
    SDL_CondBroadcast(a->cond);
    SDL_UnlockMutex(a->lock);
    return a;
}

/* ---- the caller's side ---- */

void audio_frame(audio *a, const audio_frame_info *f, const sim_event *events,
                 const float *pan, size_t n)
{
    if (!a || !f)
        return;
    queued item;
    item.halt = a->halt_pending;
    a->halt_pending = 0;
    plan_frame(&a->plan, &a->params, a->muted, f, events, pan, n, &item.plan);
    int64_t t = (int64_t)(f->time == f->time && f->time > -1e9 && f->time < 1e9 ? f->time * a->rate : 0.0);

    SDL_LockMutex(a->lock);
    audio_stats *s = &a->stats;
    s->frames++;
    s->events += (long)n;
    s->squeaks += item.plan.squeaks;
    s->splashes += item.plan.splashes;
    s->skipped += item.plan.skipped;
    if (item.plan.squeaks && s->first_squeak < 0.0)
        s->first_squeak = f->time;
    if (item.plan.splashes && s->first_splash < 0.0)
        s->first_splash = f->time;
    int64_t B = buffer_frames(a);
    if (a->origin == NO_ORIGIN || (a->timing == AUDIO_REALTIME && t + a->origin < a->submitted)) {
        /* first frame (or a reset in the demo): it plays with the next buffer */
        a->origin = mixed_frames(a) + B - t;
        s->start_seconds = (double)a->origin / a->rate;
    }
    item.at = a->origin + t;
    while (a->pace && a->q_count == QUEUE)
        if (SDL_CondWaitTimeout(a->cond, a->lock, WAIT_MS) == SDL_MUTEX_TIMEDOUT)
            a->pace = 0;
    if (a->q_count == QUEUE) { /* the device has stopped taking frames: drop the oldest */
        s->skipped += a->q[a->q_head].plan.nstarts;
        item.halt |= a->q[a->q_head].halt;
        a->q_head = (a->q_head + 1) % QUEUE;
        a->q_count--;
    }
    a->q[(a->q_head + a->q_count) % QUEUE] = item;
    a->q_count++;
    a->submitted = item.at;
    SDL_CondBroadcast(a->cond);
    /* Paced: stay at most two buffers and a bit ahead of the device. */
    int64_t lead = 2 * B + a->rate / 30;
    while (a->pace && mixed_frames(a) < item.at - lead)
        if (SDL_CondWaitTimeout(a->cond, a->lock, WAIT_MS) == SDL_MUTEX_TIMEDOUT)
            a->pace = 0; /* the device stopped: run on without it */
    SDL_UnlockMutex(a->lock);
}

void audio_set_muted(audio *a, int muted)
{
    if (!a)
        return;
    if (muted && !a->muted)
        a->halt_pending = 1;
    a->muted = muted != 0;
}

int audio_muted(const audio *a)
{
    return a ? a->muted : 1;
}

void audio_set_params(audio *a, const audio_params *p)
{
    if (a && p)
        a->params = *p;
}

void audio_drain(audio *a, double seconds)
{
    if (!a)
        return;
    SDL_LockMutex(a->lock);
    a->draining = 1;
    SDL_CondBroadcast(a->cond);
    if (a->pace && a->origin != NO_ORIGIN && seconds > 0.0 && seconds < 60.0) {
        int64_t until = a->submitted + (int64_t)(seconds * a->rate);
        while (a->pace && mixed_frames(a) < until)
            if (SDL_CondWaitTimeout(a->cond, a->lock, WAIT_MS) == SDL_MUTEX_TIMEDOUT)
                a->pace = 0;
    }
    SDL_UnlockMutex(a->lock);
}

audio_stats audio_get_stats(const audio *a)
{
    audio_stats s;
    memset(&s, 0, sizeof s);
    s.first_squeak = s.first_splash = s.start_seconds = -1.0;
    if (!a)
        return s;
    SDL_LockMutex(a->lock);
    s = a->stats;
    SDL_UnlockMutex(a->lock);
    return s;
}

void audio_close(audio *a)
{
    if (!a)
        return;
    stop_hook(a);
    int saved = quiet_begin();
    Mix_CloseAudio();
    quiet_end(saved);
    Mix_SetPostMix(NULL, NULL);
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    free_sounds(a);
    free_handle(a);
}
