/* Headless runs with sound: the simulation feeds the sound frame by frame. */
#include "app/audio_run.h"

#include <math.h>
#include <stdio.h>

#include "audio/audio.h"
#include "audio/scene_sound.h"
#include "app/headless.h"

#define TAIL_SECONDS 0.7 /* the longest sound, a splash, is 0.6 s */

typedef struct {
    audio *sound;
    long dropped;                    /* events the physics could not keep */
    float pan[SIM_EVENT_CAPACITY];
} run_state;

static void on_frame(dinghy_sim *sim, void *ctx)
{
    run_state *r = ctx;
    size_t n;
    long dropped;
    const sim_event *ev = sim_events(sim, &n, &dropped);
    audio_scene sc = audio_scene_of(sim);
    for (size_t i = 0; i < n && i < SIM_EVENT_CAPACITY; i++)
        r->pan[i] = (float)audio_pan_from_x(ev[i].position[0], &sc);
    audio_frame_info f = {sim_time(sim), sc.size, sc.vertices, audio_ambience_level(0.0, sc.mean_speed),
                          audio_hiss_level(sc.leak)};
    audio_frame(r->sound, &f, ev, r->pan, n < SIM_EVENT_CAPACITY ? n : SIM_EVENT_CAPACITY);
    r->dropped += dropped; /* the next sim_step call starts a new list */
}

static void print_stats(const audio_stats *s, long dropped, int muted)
{
    char first[64] = "";
    if (s->first_squeak >= 0.0)
        snprintf(first, sizeof first, " (first at %.3f s)", s->first_squeak);
    fprintf(stderr, "audio: %s %d Hz %d ch%s: %ld squeak%s%s, %ld splash%s; %ld of %ld events not "
            "sounded, %ld voices stolen, %ld dropped by the physics\n", s->driver ? s->driver : "?", s->rate, s->channels, muted ? " muted" : "",
            s->squeaks, s->squeaks == 1 ? "" : "s", first, s->splashes, s->splashes == 1 ? "" : "es",
            s->skipped, s->events, s->stolen, dropped);
}

int audio_headless_run(const dinghy_settings *settings, long steps, const char *dump, int muted)
{
    static run_state r; /* the pan buffer is large; one run at a time */
    r.sound = audio_open(&settings->audio, AUDIO_PACED, muted);
    r.dropped = 0;
    if (!r.sound)
        return headless_run_hooked(&settings->sim, &settings->scene, steps, dump, NULL);
    long per = lround(1.0 / (AUDIO_RUN_FPS * settings->sim.solver.dt));
    headless_hooks hooks = {per > 0 ? per : 1, on_frame, &r};
    int rc = headless_run_hooked(&settings->sim, &settings->scene, steps, dump, &hooks);
    audio_drain(r.sound, TAIL_SECONDS);
    audio_stats s = audio_get_stats(r.sound);
    print_stats(&s, r.dropped, muted);
    audio_close(r.sound);
    return rc;
}
