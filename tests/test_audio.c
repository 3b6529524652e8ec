/* Sound: the synthesiser, the mixing policy, the scene helpers, and the
 * device glue on SDL's disk driver. */
#include "tests/support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio/audio.h"
#include "audio/plan.h"
#include "audio/scene_sound.h"
#include "audio/synth.h"

#define RATE 44100

static float *make(size_t frames)
{
    float *b = calloc(2 * frames, sizeof *b);
    assert_non_null(b);
    return b;
}

/* RMS of the left channel over [t0, t1) s. */
static double rms_between(const float *b, size_t frames, int rate, double t0, double t1)
{
    size_t i0 = (size_t)(t0 * rate), i1 = (size_t)(t1 * rate);
    if (i1 > frames)
        i1 = frames;
    double s = 0.0;
    for (size_t i = i0; i < i1; i++)
        s += (double)b[2 * i] * b[2 * i];
    return i1 > i0 ? sqrt(s / (double)(i1 - i0)) : 0.0;
}

static double peak_of(const float *b, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(b[i]));
    return m;
}

/* The strongest period of the left channel over [t0, t1), by
 * autocorrelation over lags for 50..2000 Hz; returns its frequency, Hz. */
static double pitch_between(const float *b, int rate, double t0, double t1)
{
    size_t i0 = (size_t)(t0 * rate), n = (size_t)((t1 - t0) * rate);
    double best = -1e30;
    int best_lag = 0;
    for (int lag = rate / 2000; lag <= rate / 50; lag++) {
        double s = 0.0;
        for (size_t i = i0; i < i0 + n; i++)
            s += (double)b[2 * i] * b[2 * (i + (size_t)lag)];
        if (s > best) {
            best = s;
            best_lag = lag;
        }
    }
    return (double)rate / best_lag;
}

static double crossings_per_second(const float *b, int rate, double t0, double t1)
{
    size_t i0 = (size_t)(t0 * rate), i1 = (size_t)(t1 * rate), c = 0;
    for (size_t i = i0 + 1; i < i1; i++)
        c += (b[2 * i - 2] < 0.0f) != (b[2 * i] < 0.0f);
    return c / (t1 - t0);
}

/* ---- synth ---- */

static void test_squeak_pitch_and_shape(void **state)
{
    (void)state;
    const double pitches[] = {220.0, 440.0, 880.0};
    const int rates[] = {44100, 22050, 48000};
    for (int k = 0; k < 3; k++) {
        size_t n = synth_frames(SYNTH_SQUEAK_SECONDS, rates[k]);
        float *b = make(n);
        synth_squeak(b, n, rates[k], pitches[k], 1);
        double f = pitch_between(b, rates[k], 0.08, 0.16);
        assert_true(fabs(f / pitches[k] - 1.0) < 0.05);
        assert_true(fabs(peak_of(b, 2 * n) - SYNTH_PEAK) < 1e-6);
        assert_true(fabs(b[0]) < 0.05 * SYNTH_PEAK);  /* no click at the start */
        assert_true(b[2 * n - 2] == 0.0f && b[2 * n - 1] == 0.0f); /* nor at the end */
        /* a hit: loud early, faded late */
        assert_true(rms_between(b, n, rates[k], 0.0, 0.1) > 10.0 * rms_between(b, n, rates[k], 0.22, 0.32));
        free(b);
    }
}

static void test_splash_is_noisy_and_decays(void **state)
{
    (void)state;
    size_t n = synth_frames(SYNTH_SPLASH_SECONDS, RATE);
    float *small = make(n), *big = make(n), *again = make(n);
    synth_splash(small, n, RATE, 0.0, 5);
    synth_splash(big, n, RATE, 1.0, 5);
    synth_splash(again, n, RATE, 0.0, 5);
    assert_memory_equal(small, again, 2 * n * sizeof *small); /* repeatable */
    for (int k = 0; k < 2; k++) {
        const float *b = k ? big : small;
        assert_true(fabs(peak_of(b, 2 * n) - SYNTH_PEAK) < 1e-6);
        assert_true(crossings_per_second(b, RATE, 0.0, 0.1) > 1000.0); /* noise, not a tone */
        assert_true(rms_between(b, n, RATE, 0.0, 0.1) > 5.0 * rms_between(b, n, RATE, 0.45, 0.6));
        assert_true(b[2 * n - 2] == 0.0f && b[2 * n - 1] == 0.0f);
    }
    /* the big one is duller (lower) and lasts longer */
    assert_true(crossings_per_second(big, RATE, 0.0, 0.1) < crossings_per_second(small, RATE, 0.0, 0.1));
    assert_true(rms_between(big, n, RATE, 0.25, 0.4) / rms_between(big, n, RATE, 0.0, 0.1)
                > rms_between(small, n, RATE, 0.25, 0.4) / rms_between(small, n, RATE, 0.0, 0.1));
    free(small);
    free(big);
    free(again);
}

static void test_ambience_loops_steadily(void **state)
{
    (void)state;
    size_t n = synth_frames(SYNTH_AMBIENCE_SECONDS, RATE);
    float *b = make(n), *c = make(n);
    assert_int_equal(synth_ambience(b, n, RATE, 3), 0);
    assert_int_equal(synth_ambience(c, n, RATE, 4), 0);
    assert_memory_not_equal(b, c, 2 * n * sizeof *b);
    double sum = 0.0, lr = 0.0, ll = 0.0, rr = 0.0, step = 0.0;
    for (size_t i = 0; i < n; i++) {
        sum += (double)b[2 * i] * b[2 * i] + (double)b[2 * i + 1] * b[2 * i + 1];
        lr += (double)b[2 * i] * b[2 * i + 1];
        ll += (double)b[2 * i] * b[2 * i];
        rr += (double)b[2 * i + 1] * b[2 * i + 1];
        if (i + 1 < n)
            for (int ch = 0; ch < 2; ch++)
                step = fmax(step, fabs(b[2 * i + 2 + ch] - b[2 * i + ch]));
    }
    assert_true(fabs(sqrt(sum / (2.0 * n)) / SYNTH_AMBIENCE_RMS - 1.0) < 1e-3);
    assert_true(lr / sqrt(ll * rr) < 0.9); /* left and right differ: a wide sound */
    /* the seam (last frame -> first) is no bigger a jump than any inside */
    for (int ch = 0; ch < 2; ch++)
        assert_true(fabs(b[ch] - b[2 * (n - 1) + ch]) <= step);
    /* steady: every quarter second within a factor 1.6 of the whole */
    for (double t = 0.0; t + 0.25 <= SYNTH_AMBIENCE_SECONDS; t += 0.25) {
        double r = rms_between(b, n, RATE, t, t + 0.25) / SYNTH_AMBIENCE_RMS;
        assert_true(r > 1.0 / 1.6 && r < 1.6);
    }
    free(b);
    free(c);
}

/* ---- plan ---- */

static audio_frame_info frame_at(double t)
{
    audio_frame_info f = {t, 1.05, 512, 0.3, 0.0};
    return f;
}

static sim_event contact(int p, int q, float speed)
{
    sim_event e;
    memset(&e, 0, sizeof e);
    e.kind = SIM_EVENT_CONTACT;
    e.ring = p;
    e.other = q;
    e.speed = speed;
    e.count = 1;
    return e;
}

static sim_event splash(int p, float speed, int count)
{
    sim_event e = contact(p, -1, speed);
    e.kind = SIM_EVENT_SPLASH;
    e.count = count;
    return e;
}

static void test_pan_law(void **state)
{
    (void)state;
    unsigned char l, r;
    plan_pan(-1.0, &l, &r);
    assert_true(l == 255 && r == 0);
    plan_pan(1.0, &l, &r);
    assert_true(l == 0 && r == 255);
    plan_pan(0.0, &l, &r);
    assert_true(l == 180 && r == 180); /* constant power: -3 dB each */
    plan_pan(7.0, &l, &r);
    assert_true(l == 0 && r == 255);
    plan_pan(NAN, &l, &r);
    assert_true(l == 180 && r == 180);
    plan_pan(-0.5, &l, &r);
    assert_true(l > r);
}

static void test_gains_follow_speed_and_size(void **state)
{
    (void)state;
    assert_true(plan_contact_gain(0.01, 1.05) == 0.0);
    assert_true(plan_contact_gain(NAN, 1.05) == 0.0);
    double prev = 0.0;
    for (double v = 0.1; v < 10.0; v *= 1.5) {
        double g = plan_contact_gain(v, 1.05);
        assert_true(g >= prev && g <= 1.0);
        prev = g;
    }
    assert_true(plan_contact_gain(1.0, 2.0) > plan_contact_gain(1.0, 0.5));
    assert_true(plan_splash_gain(0.2, 1.0) == 0.0);
    assert_true(plan_splash_gain(3.0, 0.5) > plan_splash_gain(1.0, 0.5));
    assert_true(plan_splash_gain(3.0, 0.25) > plan_splash_gain(3.0, 0.01));
    assert_true(plan_splash_gain(100.0, 1.0) <= 1.0);
}

/* The bank index of the one squeak a fresh plan starts for this contact. */
static int squeak_for(double size, float speed)
{
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    audio_frame_info f = frame_at(1.0);
    f.ring_size = size;
    sim_event e = contact(0, 1, speed);
    plan_out out;
    plan_frame(&pl, &p, 0, &f, &e, NULL, 1, &out);
    assert_int_equal(out.nstarts, 1);
    assert_true(out.starts[0].sound < PLAN_SQUEAKS);
    return out.starts[0].sound;
}

static void test_pitch_follows_size_and_speed(void **state)
{
    (void)state;
    assert_true(squeak_for(0.4, 2.0f) > squeak_for(1.05, 2.0f));
    assert_true(squeak_for(1.05, 2.0f) > squeak_for(3.0, 2.0f));
    assert_true(squeak_for(1.05, 5.0f) > squeak_for(1.05, 0.5f));
    /* loudness too */
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    audio_frame_info f = frame_at(1.0);
    sim_event ev[2] = {contact(0, 1, 0.5f), contact(2, 3, 4.0f)};
    plan_out out;
    plan_frame(&pl, &p, 0, &f, ev, NULL, 2, &out);
    assert_int_equal(out.nstarts, 2);
    assert_true(out.starts[0].volume > out.starts[1].volume); /* loudest first: the 4 m/s one */
}

/* 100 rings in a pile-up: every frame 200 contacts and 100 splashes. */
static void test_crowd_stays_within_limits(void **state)
{
    (void)state;
    static sim_event ev[300];
    static float pan[300];
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    double last[PLAN_SOUNDS];
    for (int k = 0; k < PLAN_SOUNDS; k++)
        last[k] = -1.0;
    long squeaks = 0, splashes = 0;
    int frames = 120;
    for (int fr = 1; fr <= frames; fr++) {
        for (int i = 0; i < 200; i++)
            ev[i] = contact(i % 100, (i * 37 + fr) % 100, (float)(0.5 + 0.02 * ((i * 13 + fr) % 150)));
        for (int i = 0; i < 100; i++)
            ev[200 + i] = splash(i, (float)(1.0 + 0.03 * ((i * 7 + fr) % 100)), 40);
        for (int i = 0; i < 300; i++)
            pan[i] = (float)(i % 21 - 10) / 10.0f;
        audio_frame_info f = frame_at(fr / 60.0);
        plan_out out;
        plan_frame(&pl, &p, 0, &f, ev, pan, 300, &out);
        assert_true(out.nstarts <= PLAN_MAX_STARTS);
        assert_int_equal(out.squeaks + out.splashes, out.nstarts);
        assert_int_equal(out.skipped, 300 - out.nstarts);
        for (int i = 0; i < out.nstarts; i++) {
            int k = out.starts[i].sound;
            assert_true(k >= 0 && k < PLAN_SOUNDS);
            assert_true(out.starts[i].volume >= 1 && out.starts[i].volume <= 128);
            /* the same sound never restarts sooner than the limit */
            assert_true(last[k] < 0.0 || f.time - last[k] >= PLAN_RESTART_SECONDS - 1e-9);
            last[k] = f.time;
        }
        squeaks += out.squeaks;
        splashes += out.splashes;
    }
    double seconds = frames / 60.0;
    assert_true(squeaks <= PLAN_CONTACT_BURST + PLAN_CONTACT_RATE * seconds + 1);
    assert_true(splashes <= PLAN_SPLASH_BURST + PLAN_SPLASH_RATE * seconds + 1);
    assert_true(squeaks > 10 && splashes > 10); /* but the crowd is heard */
}

static void test_holdoffs(void **state)
{
    (void)state;
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    plan_out out;
    sim_event e = contact(3, 4, 2.0f);
    audio_frame_info f = frame_at(1.0);
    plan_frame(&pl, &p, 0, &f, &e, NULL, 1, &out);
    assert_int_equal(out.squeaks, 1);
    f.time = 1.1; /* the same pair again, soon: held */
    plan_frame(&pl, &p, 0, &f, &e, NULL, 1, &out);
    assert_int_equal(out.nstarts, 0);
    f.time = 1.0 + PLAN_CONTACT_HOLD + 0.05;
    plan_frame(&pl, &p, 0, &f, &e, NULL, 1, &out);
    assert_int_equal(out.squeaks, 1);

    /* one ring splashing over many steps of a frame: one splash */
    sim_event s[10];
    for (int i = 0; i < 10; i++)
        s[i] = splash(7, 1.0f + 0.1f * (float)i, 32);
    f.time = 2.0;
    plan_frame(&pl, &p, 0, &f, s, NULL, 10, &out);
    assert_int_equal(out.splashes, 1);
    f.time = 2.1; /* a little harder soon after: held */
    sim_event s2 = splash(7, 2.2f, 32);
    plan_frame(&pl, &p, 0, &f, &s2, NULL, 1, &out);
    assert_int_equal(out.nstarts, 0);
    f.time = 2.2; /* far harder: heard */
    sim_event s3 = splash(7, 5.0f, 200);
    plan_frame(&pl, &p, 0, &f, &s3, NULL, 1, &out);
    assert_int_equal(out.splashes, 1);
}

static void test_volumes_and_mute(void **state)
{
    (void)state;
    audio_params p = audio_params_default();
    sim_event ev[2] = {contact(0, 1, 2.0f), splash(2, 3.0f, 100)};
    audio_frame_info f = frame_at(1.0);
    f.ambience = 1.0;
    audio_plan pl;
    plan_out loud, half, none, muted;
    plan_init(&pl);
    plan_frame(&pl, &p, 0, &f, ev, NULL, 2, &loud);
    assert_int_equal(loud.nstarts, 2);
    assert_true(loud.ambience_volume == (int)lround(128 * p.volume * p.ambience_volume));
    p.volume *= 0.5;
    plan_init(&pl);
    plan_frame(&pl, &p, 0, &f, ev, NULL, 2, &half);
    assert_int_equal(half.nstarts, 2);
    for (int i = 0; i < 2; i++)
        assert_true(abs(2 * half.starts[i].volume - loud.starts[i].volume) <= 1);
    p = audio_params_default();
    p.contact_volume = 0.0;
    p.ambience_volume = 0.0;
    plan_init(&pl);
    plan_frame(&pl, &p, 0, &f, ev, NULL, 2, &none);
    assert_int_equal(none.squeaks, 0);
    assert_int_equal(none.splashes, 1);
    assert_int_equal(none.ambience_volume, 0);
    p = audio_params_default();
    plan_init(&pl);
    plan_frame(&pl, &p, 1, &f, ev, NULL, 2, &muted);
    assert_int_equal(muted.nstarts, 0);
    assert_int_equal(muted.ambience_volume, 0);
}

static void test_ambience_follows_level_smoothly(void **state)
{
    (void)state;
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    plan_out out;
    audio_frame_info f = frame_at(0.0);
    plan_frame(&pl, &p, 0, &f, NULL, NULL, 0, &out);
    int calm = out.ambience_volume;
    assert_true(calm == (int)lround(128 * p.volume * p.ambience_volume * 0.3));
    f.ambience = 1.0;
    f.time = 1.0 / 60.0;
    plan_frame(&pl, &p, 0, &f, NULL, NULL, 0, &out);
    assert_true(out.ambience_volume > calm && out.ambience_volume < calm + 5); /* no jump */
    for (int i = 2; i <= 60; i++) {
        f.time = i / 60.0;
        plan_frame(&pl, &p, 0, &f, NULL, NULL, 0, &out);
    }
    int full = (int)lround(128 * p.volume * p.ambience_volume);
    assert_true(out.ambience_volume > calm + (full - calm) * 0.85); /* 1 s = 2.5 time constants */
    f.time = 0.0; /* a reset starts afresh at the new level */
    f.ambience = 0.3;
    plan_frame(&pl, &p, 0, &f, NULL, NULL, 0, &out);
    assert_int_equal(out.ambience_volume, calm);
}

/* A puncture hisses in proportion to the escaping flow: silent without
 * holes, full at a 1 cm hole at 500 Pa, fading smoothly as the ring goes
 * soft, and silent when muted. */
static void test_hiss_follows_the_leak(void **state)
{
    (void)state;
    assert_true(audio_hiss_level(0.0) == 0.0);
    assert_true(audio_hiss_level(NAN) == 0.0);
    assert_true(audio_hiss_level(-1.0) == 0.0);
    assert_true(audio_hiss_level(AUDIO_HISS_FULL_LEAK) == 1.0);
    assert_true(fabs(audio_hiss_level(0.5 * AUDIO_HISS_FULL_LEAK) - 0.5) < 1e-12);
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    plan_out out;
    audio_frame_info f = frame_at(0.0);
    plan_frame(&pl, &p, 0, &f, NULL, NULL, 0, &out);
    assert_int_equal(out.hiss_volume, 0);
    f.hiss = 1.0;
    int last = 0;
    for (int i = 1; i <= 60; i++) { /* rises without a jump */
        f.time = i / 60.0;
        plan_frame(&pl, &p, 0, &f, NULL, NULL, 0, &out);
        assert_true(out.hiss_volume >= last && out.hiss_volume <= last + 10);
        last = out.hiss_volume;
    }
    assert_true(last > (int)(0.85 * 128 * p.volume));
    plan_frame(&pl, &p, 1, &f, NULL, NULL, 0, &out);
    assert_int_equal(out.hiss_volume, 0);
    /* the loop itself: bright noise at the ambience's RMS */
    enum { HISS_RATE = 48000 };
    static float pcm[2 * HISS_RATE];
    synth_hiss(pcm, HISS_RATE, HISS_RATE, 3u);
    double sum = 0.0, lag = 0.0;
    for (size_t i = 0; i < 2 * (size_t)HISS_RATE; i++)
        sum += (double)pcm[i] * pcm[i];
    for (size_t i = 1; i < (size_t)HISS_RATE; i++)
        lag += (double)pcm[2 * i] * pcm[2 * i - 2];
    assert_true(fabs(sqrt(sum / (2.0 * HISS_RATE)) - SYNTH_AMBIENCE_RMS) < 1e-3);
    assert_true(lag < 0.0); /* differenced noise: neighbours anti-correlated, no rumble */
}

static void test_bad_numbers_are_harmless(void **state)
{
    (void)state;
    audio_plan pl;
    plan_init(&pl);
    audio_params p = audio_params_default();
    sim_event ev[3] = {contact(0, 1, NAN), splash(1, INFINITY, 1 << 30), contact(2, 3, -4.0f)};
    float pan[3] = {NAN, INFINITY, -INFINITY};
    audio_frame_info f = {NAN, NAN, 0, NAN, NAN};
    plan_out out;
    plan_frame(&pl, &p, 0, &f, ev, pan, 3, &out);
    for (int i = 0; i < out.nstarts; i++) {
        assert_true(out.starts[i].sound >= 0 && out.starts[i].sound < PLAN_SOUNDS);
        assert_true(out.starts[i].volume >= 1 && out.starts[i].volume <= 128);
    }
    assert_true(out.ambience_volume >= 0 && out.ambience_volume <= 128);
}

/* ---- scene helpers ---- */

static void test_scene_sound(void **state)
{
    (void)state;
    assert_true(fabs(audio_ambience_level(0.0, 0.0) - 0.3) < 1e-12);
    assert_true(audio_ambience_level(0.0, 2.0) > audio_ambience_level(0.0, 1.0));
    assert_true(audio_ambience_level(1.0, 1.0) == audio_ambience_level(0.0, 2.0));
    assert_true(audio_ambience_level(0.0, 1e9) <= 1.0);
    assert_true(fabs(audio_ambience_level(NAN, NAN) - 0.3) < 1e-12);

    test_params sp = test_defaults();
    sp.scene.index = scene_index("pair");
    sp.def.solver.threads = 1;
    dinghy_sim *sim = test_sim(&sp);
    audio_scene sc = audio_scene_of(sim);
    const sim_ring_def *ring = &sp.def.ring;
    assert_int_equal(sc.vertices, ring->segments * ring->sides);
    assert_true(fabs(sc.size - (ring->major_radius + ring->minor_radius)) < 1e-12);
    assert_true(fabs(sc.x_max - sc.x_min - sp.scene.spacing) < 1e-3);
    assert_true(fabs(sc.mean_speed - sp.scene.speed / 2.0) < 1e-3); /* one moving, one still */
    assert_true(fabs(audio_pan_from_x(0.5 * (sc.x_min + sc.x_max), &sc)) < 1e-9);
    assert_true(audio_pan_from_x(sc.x_min, &sc) < -0.2);
    assert_true(audio_pan_from_x(sc.x_max, &sc) > 0.2);
    assert_true(fabs(audio_pan_from_x(1e9, &sc) - 0.8) < 1e-12);
    assert_true(audio_pan_from_x(NAN, &sc) == 0.0);
    sim_destroy(sim);
}

/* ---- the device, on SDL's disk driver ---- */

static void test_no_device_is_not_an_error(void **state)
{
    (void)state;
    setenv("SDL_AUDIODRIVER", "nonexistent", 1);
    audio_params p = audio_params_default();
    assert_null(audio_open(&p, AUDIO_PACED, 0)); /* prints "sound off: ..." */
    p.enabled = 0;
    assert_null(audio_open(&p, AUDIO_REALTIME, 0)); /* silently */
    /* a NULL handle is a silent sound */
    audio_frame_info f = frame_at(0.1);
    audio_frame(NULL, &f, NULL, NULL, 0);
    audio_set_muted(NULL, 1);
    audio_drain(NULL, 1.0);
    assert_true(audio_get_stats(NULL).first_squeak < 0.0);
    audio_close(NULL);
    unsetenv("SDL_AUDIODRIVER");
}

/* Reads S16 stereo; returns frames, fills *pcm (caller frees). */
static size_t read_raw(const char *path, short **pcm)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long bytes = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    *pcm = malloc((size_t)bytes + 4);
    assert_non_null(*pcm);
    size_t got = fread(*pcm, 1, (size_t)bytes, fp);
    fclose(fp);
    return got / 4;
}

/* Points SDL at its disk driver, writing as fast as it can to a new
 * temporary file named from the template in path. */
static void use_disk_driver(char *path)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", path, 1);
    setenv("SDL_DISKAUDIODELAY", "0", 1);
}

/* First frame at or after `from` with a non-zero sample in channel ch. */
static size_t onset(const short *pcm, size_t frames, size_t from, int ch)
{
    size_t i = from;
    while (i < frames && pcm[2 * i + (size_t)ch] == 0)
        i++;
    return i;
}

/* Lockstep on the disk driver: sounds land at their simulated times. The
 * file's absolute offset is not ours to know (SDL writes silence while it
 * holds a new device paused, a varying amount when SDL_DISKAUDIODELAY=0),
 * so the check is the interval between two sounds 0.3 s apart. */
static void test_disk_lockstep(void **state)
{
    (void)state;
    char path[] = "/tmp/dinghy-test-audio-XXXXXX";
    use_disk_driver(path);
    audio_params p = audio_params_default();
    p.ambience_volume = 0.0; /* only the squeaks make sound */
    audio *a = audio_open(&p, AUDIO_PACED, 0);
    assert_non_null(a);
    sim_event left = contact(0, 1, 3.0f), right = contact(2, 3, 3.0f);
    float pan_left = -1.0f, pan_right = 1.0f;
    for (int fr = 1; fr <= 60; fr++) {
        audio_frame_info f = frame_at(fr / 60.0);
        if (fr == 18)
            audio_frame(a, &f, &left, &pan_left, 1);       /* t = 0.3 s */
        else if (fr == 36)
            audio_frame(a, &f, &right, &pan_right, 1);     /* t = 0.6 s */
        else
            audio_frame(a, &f, NULL, NULL, 0);
    }
    audio_drain(a, 0.5);
    audio_stats s = audio_get_stats(a);
    audio_close(a);
    unsetenv("SDL_AUDIODRIVER");
    assert_int_equal(s.squeaks, 2);
    assert_true(fabs(s.first_squeak - 0.3) < 1e-9);
    assert_int_equal(s.rate, RATE);
    short *pcm;
    size_t frames = read_raw(path, &pcm);
    unlink(path);
    /* the left squeak first, alone on the left; the right one 0.3 s later
     * (each lands on an audio buffer boundary: within 1024 frames) */
    size_t l = onset(pcm, frames, 0, 0), r = onset(pcm, frames, 0, 1);
    assert_true(l < frames && r < frames && l < r);
    double gap = (double)(r - l) / RATE;
    assert_true(fabs(gap - 0.3) < 1024.0 / RATE + 1e-9);
    /* nothing after the drained tail but silence: both squeaks are over */
    size_t end = r + (size_t)(SYNTH_SQUEAK_SECONDS * RATE) + 2048;
    assert_true(end < frames);
    assert_true(onset(pcm, frames, end, 0) == frames && onset(pcm, frames, end, 1) == frames);
    assert_true(frames - l > (size_t)(0.9 * RATE)); /* drained: 0.3 s of frames + 0.5 s tail after */
    free(pcm);
}

/* The demo's mode: nothing waits; frames pushed faster than the device
 * takes them are dropped oldest first; muting takes effect; all without a
 * hang, a leak or a race (this suite also runs under ASan and TSan). */
static void test_realtime_never_waits(void **state)
{
    (void)state;
    char path[] = "/tmp/dinghy-test-audio-XXXXXX";
    use_disk_driver(path);
    audio_params p = audio_params_default();
    audio *a = audio_open(&p, AUDIO_REALTIME, 0);
    assert_non_null(a);
    sim_event ev[4] = {contact(0, 1, 2.0f), contact(2, 3, 3.0f), splash(4, 3.0f, 100), splash(5, 2.0f, 50)};
    for (int fr = 1; fr <= 600; fr++) {
        audio_frame_info f = frame_at(fr / 60.0);
        if (fr == 300)
            audio_set_muted(a, 1);
        if (fr == 301)
            assert_true(audio_muted(a));
        if (fr == 400)
            audio_set_muted(a, 0);
        if (fr == 450) { /* a reset: time starts again */
            audio_params q = p;
            q.volume = 0.3;
            audio_set_params(a, &q);
        }
        f.time = fr < 450 ? fr / 60.0 : (fr - 450) / 60.0;
        audio_frame(a, &f, ev, NULL, 4);
    }
    audio_drain(a, 1.0); /* returns at once in this mode */
    audio_stats s = audio_get_stats(a);
    audio_close(a);
    unsetenv("SDL_AUDIODRIVER");
    unlink(path);
    assert_int_equal(s.frames, 600);
    assert_int_equal(s.events, 2400);
    assert_true(s.squeaks > 10 && s.splashes > 5);
    assert_true(s.squeaks + s.splashes + s.skipped >= 2400);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_squeak_pitch_and_shape),
        cmocka_unit_test(test_splash_is_noisy_and_decays),
        cmocka_unit_test(test_ambience_loops_steadily),
        cmocka_unit_test(test_pan_law),
        cmocka_unit_test(test_gains_follow_speed_and_size),
        cmocka_unit_test(test_pitch_follows_size_and_speed),
        cmocka_unit_test(test_crowd_stays_within_limits),
        cmocka_unit_test(test_holdoffs),
        cmocka_unit_test(test_volumes_and_mute),
        cmocka_unit_test(test_ambience_follows_level_smoothly),
        cmocka_unit_test(test_hiss_follows_the_leak),
        cmocka_unit_test(test_bad_numbers_are_harmless),
        cmocka_unit_test(test_scene_sound),
        cmocka_unit_test(test_no_device_is_not_an_error),
        cmocka_unit_test(test_disk_lockstep),
        cmocka_unit_test(test_realtime_never_waits),
    };
    return cmocka_run_group_tests_name("audio", tests, NULL, NULL);
}
