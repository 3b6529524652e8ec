/* Sound synthesis: squeaks, splashes and rushing water from noise and
 * oscillators. */
#include "audio/synth.h"

#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

size_t synth_frames(double seconds, int rate)
{
    return (size_t)(seconds * rate + 0.5);
}

/* xorshift32: a cheap, repeatable noise source. */
typedef struct {
    uint32_t s;
} rng;

static rng rng_make(uint32_t noise_seed)
{
    rng r = {noise_seed * 2654435761u ^ 0x9e3779b9u};
    if (!r.s)
        r.s = 1;
    return r;
}

static double noise(rng *r) /* uniform in [-1, 1) */
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 17;
    r->s ^= r->s << 5;
    return r->s / 2147483648.0 - 1.0;
}

static double uniform(rng *r, double lo, double hi)
{
    return lo + (hi - lo) * 0.5 * (noise(r) + 1.0);
}

/* One-pole low-pass coefficient for a cutoff fc (Hz). */
static double lp_coef(double fc, int rate)
{
    return 1.0 - exp(-2.0 * PI * fc / rate);
}

/* Gain that brings uniform noise through a one-pole low-pass of
 * coefficient a back to unit variance (the filter keeps a/(2-a) of the
 * input variance, 1/3), so slow modulations are as deep at any rate. */
static double lp_unit(double a)
{
    return sqrt(3.0 * (2.0 - a) / a);
}

/* State-variable filter in the trapezoidal form: stable at any cutoff,
 * so a cutoff swept fast or near Nyquist never blows up. */
typedef struct {
    double ic1, ic2;
} svf;

static void svf_run(svf *f, double x, double fc, double q, int rate, double *band, double *low)
{
    if (fc > 0.45 * rate)
        fc = 0.45 * rate;
    double g = tan(PI * fc / rate), k = 1.0 / q;
    double a1 = 1.0 / (1.0 + g * (g + k)), a2 = g * a1, a3 = g * a2;
    double v3 = x - f->ic2;
    double v1 = a1 * f->ic1 + a2 * v3;
    double v2 = f->ic2 + a2 * f->ic1 + a3 * v3;
    f->ic1 = 2.0 * v1 - f->ic1;
    f->ic2 = 2.0 * v2 - f->ic2;
    *band = v1;
    *low = v2;
}

/* Scales the buffer so its largest magnitude is `peak`. */
static void normalise_peak(float *out, size_t n, double peak)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(out[i]) > m)
            m = fabs(out[i]);
    if (m > 0.0)
        for (size_t i = 0; i < n; i++)
            out[i] = (float)(out[i] * peak / m);
}

/* A raised-cosine fade to zero over the last `seconds`, so a one-shot ends
 * without a click even if it is cut short by its buffer. */
static void fade_tail(float *out, size_t frames, int rate, double seconds)
{
    size_t n = synth_frames(seconds, rate);
    if (n > frames)
        n = frames;
    for (size_t i = 0; i < n; i++) {
        double w = 0.5 - 0.5 * cos(PI * (double)i / (double)n); /* 0 at the very end */
        size_t j = frames - 1 - i;
        out[2 * j] = (float)(out[2 * j] * w);
        out[2 * j + 1] = (float)(out[2 * j + 1] * w);
    }
}

void synth_squeak(float *out, size_t frames, int rate, double pitch_hz, uint32_t noise_seed)
{
    rng r = rng_make(noise_seed);
    double phase = 0.0, slip = 0.0, thump = 0.0, tone_lp = 0.0;
    double slip_a = lp_coef(40.0, rate), thump_a = lp_coef(400.0, rate);
    double tone_a = lp_coef(fmin(5.0 * pitch_hz, 0.4 * rate), rate);
    double wobble_hz = uniform(&r, 17.0, 26.0);
    double slip_gain = lp_unit(slip_a);
    for (size_t i = 0; i < frames; i++) {
        double t = (double)i / rate;
        /* starts sharp and settles; stick-slip makes the pitch wobble */
        slip += slip_a * (noise(&r) - slip);
        double f = pitch_hz * (1.0 + 0.35 * exp(-t / 0.025))
                   * (1.0 + 0.03 * sin(2.0 * PI * wobble_hz * t) + 0.02 * slip_gain * slip);
        phase += 2.0 * PI * f / rate;
        if (phase > 2.0 * PI)
            phase -= 2.0 * PI;
        /* a squashed sine: odd harmonics, the nasal note of rubber */
        double tone = 0.7 * tanh(2.2 * sin(phase)) / tanh(2.2) + 0.3 * sin(2.0 * phase + 0.4);
        tone_lp += tone_a * (tone - tone_lp);
        thump += thump_a * (noise(&r) - thump);
        double attack = t < 0.004 ? t / 0.004 : 1.0;
        double s = attack * (exp(-t / 0.075) * tone_lp + 2.5 * exp(-t / 0.008) * thump);
        out[2 * i] = out[2 * i + 1] = (float)s;
    }
    fade_tail(out, frames, rate, 0.015);
    normalise_peak(out, 2 * frames, SYNTH_PEAK);
}

void synth_splash(float *out, size_t frames, int rate, double size, uint32_t noise_seed)
{
    rng r = rng_make(noise_seed);
    if (!(size >= 0.0))
        size = 0.0;
    if (size > 1.0)
        size = 1.0;
    double f_start = 3800.0 - 1600.0 * size, f_end = 650.0 - 250.0 * size;
    double decay = 0.08 + 0.12 * size, plop_hz = 190.0 - 90.0 * size;
    svf bp[2] = {{0, 0}, {0, 0}};
    double body[2] = {0, 0}, body_a = lp_coef(900.0, rate), plop_phase = 0.0;
    for (size_t i = 0; i < frames; i++) {
        double t = (double)i / rate;
        double fc = f_end + (f_start - f_end) * exp(-t / 0.08);
        double attack = t < 0.003 ? t / 0.003 : 1.0;
        double env = attack * (exp(-t / decay) + 0.15 * exp(-t / (2.5 * decay)));
        double common = noise(&r);
        for (int c = 0; c < 2; c++) {
            double n = 0.7 * common + 0.3 * noise(&r), band, low;
            svf_run(&bp[c], n, fc, 0.9, rate, &band, &low);
            body[c] += body_a * (n - body[c]);
            out[2 * i + c] = (float)(env * (band + 0.8 * body[c]));
        }
        plop_phase += 2.0 * PI * plop_hz * (1.0 - 0.4 * fmin(1.0, t / 0.04)) / rate;
        double plop = (0.25 + 0.25 * size) * sin(plop_phase) * exp(-t / 0.025);
        out[2 * i] += (float)plop;
        out[2 * i + 1] += (float)plop;
    }
    /* droplets: short rising blips scattered through the tail */
    int drops = 6 + (int)(10.0 * size);
    double span = (double)frames / rate;
    for (int d = 0; d < drops; d++) {
        double t0 = uniform(&r, 0.05, 0.8 * span), f0 = uniform(&r, 1500.0, 4500.0);
        double amp = uniform(&r, 0.05, 0.15), bias = uniform(&r, 0.2, 0.8), ph = 0.0;
        size_t i0 = (size_t)(t0 * rate), n = synth_frames(0.03, rate);
        for (size_t k = 0; k < n && i0 + k < frames; k++) {
            double t = (double)k / rate;
            ph += 2.0 * PI * f0 * (1.0 + 0.4 * fmin(1.0, t / 0.012)) / rate;
            double s = amp * sin(ph) * exp(-t / 0.006) * (t < 0.001 ? t / 0.001 : 1.0);
            out[2 * (i0 + k)] += (float)(s * (1.0 - bias));
            out[2 * (i0 + k) + 1] += (float)(s * bias);
        }
    }
    fade_tail(out, frames, rate, 0.02);
    normalise_peak(out, 2 * frames, SYNTH_PEAK);
}

/* One channel of raw rushing water into out[c], out[c + 2], ... */
static void water_channel(float *out, size_t n, int c, int rate, rng *common, rng *own)
{
    double lp = 0.0, hiss_lp = 0.0, wander = 0.0, swell = 0.0;
    double lp_a = lp_coef(700.0, rate), hiss_a = lp_coef(6000.0, rate);
    double wander_a = lp_coef(0.7, rate), swell_a = lp_coef(0.5, rate);
    double wander_gain = lp_unit(wander_a), swell_gain = lp_unit(swell_a);
    svf gurgle = {0, 0};
    size_t preroll = synth_frames(0.2, rate);
    for (size_t i = 0; i < preroll + n; i++) {
        double x = 0.5 * noise(common) + 0.85 * noise(own); /* partly shared: a wide image */
        lp += lp_a * (x - lp);
        double prev = hiss_lp;
        hiss_lp += hiss_a * (x - hiss_lp);
        double hiss = x - prev; /* a crude high-pass: the fizz on top */
        wander += wander_a * (noise(own) - wander);
        swell += swell_a * (noise(own) - swell);
        double band, low;
        svf_run(&gurgle, x, 650.0 * exp(0.6 * wander_gain * wander), 3.0, rate, &band, &low);
        double s = (3.0 * lp + 0.6 * band + 0.1 * hiss) * (1.0 + 0.1 * swell_gain * swell);
        if (i >= preroll)
            out[2 * (i - preroll) + (size_t)c] = (float)s;
    }
}

int synth_ambience(float *out, size_t frames, int rate, uint32_t noise_seed)
{
    size_t x = frames / 4, half = synth_frames(0.5, rate);
    if (x > half)
        x = half;
    float *raw = malloc(sizeof *raw * 2 * (frames + x));
    if (!raw)
        return -1;
    for (int c = 0; c < 2; c++) {
        rng common = rng_make(noise_seed);
        rng own = rng_make(noise_seed + 7919u * (uint32_t)(c + 1));
        water_channel(raw, frames + x, c, rate, &common, &own);
    }
    /* equal-power crossfade of the overhang into the head: out[frames-1]
     * is raw[frames-1] and out[0] is raw[frames], which follow each other */
    for (size_t i = 0; i < frames; i++) {
        for (int c = 0; c < 2; c++) {
            double v = raw[2 * i + c];
            if (i < x) {
                double w = 0.5 * PI * (double)i / (double)x;
                v = v * sin(w) + raw[2 * (frames + i) + c] * cos(w);
            }
            out[2 * i + c] = (float)v;
        }
    }
    free(raw);
    double sum = 0.0;
    for (size_t i = 0; i < 2 * frames; i++)
        sum += (double)out[i] * out[i];
    double rms = frames ? sqrt(sum / (2.0 * frames)) : 0.0;
    if (rms > 0.0)
        for (size_t i = 0; i < 2 * frames; i++)
            out[i] = (float)(out[i] * SYNTH_AMBIENCE_RMS / rms);
    return 0;
}

void synth_hiss(float *out, size_t frames, int rate, uint32_t noise_seed)
{
    double sum = 0.0;
    for (int c = 0; c < 2; c++) {
        rng r = rng_make(noise_seed + 31u * (uint32_t)c);
        double prev = noise(&r), flutter = 0.0, a = lp_coef(6.0, rate);
        for (size_t i = 0; i < frames; i++) {
            double x = noise(&r);
            flutter += a * (noise(&r) * lp_unit(a) - flutter); /* a few hertz of wobble */
            double v = (x - prev) * (1.0 + 0.25 * flutter); /* the difference: bright, no rumble */
            prev = x;
            out[2 * i + c] = (float)v;
            sum += v * v;
        }
    }
    double rms = frames ? sqrt(sum / (2.0 * (double)frames)) : 0.0;
    if (rms > 0.0)
        for (size_t i = 0; i < 2 * frames; i++)
            out[i] = (float)(out[i] * SYNTH_AMBIENCE_RMS / rms);
}
