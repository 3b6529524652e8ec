/* Sound synthesis: every sound of the program is made here from numbers, no
 * recorded assets. Pure DSP on float buffers; knows nothing of SDL.
 *
 * Buffers are interleaved stereo float (L, R, L, R, ...), full scale +-1.
 * Each function writes `frames` stereo frames at `rate` frames per second
 * and is deterministic for a given noise_seed. */
#ifndef DINGHY_SYNTH_H
#define DINGHY_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* Lengths of the sounds, s. */
#define SYNTH_SQUEAK_SECONDS 0.32
#define SYNTH_SPLASH_SECONDS 0.60
#define SYNTH_AMBIENCE_SECONDS 4.0
#define SYNTH_HISS_SECONDS 1.0

/* Peak of a squeak and of a splash, and RMS of the ambience loop, as made
 * (before any volume), full scale 1. Low enough that a dozen voices over
 * the ambience rarely reach full scale together. */
#define SYNTH_PEAK 0.35
#define SYNTH_AMBIENCE_RMS 0.12

/* Frames in a sound of `seconds` at `rate` frames/s. */
size_t synth_frames(double seconds, int rate);

/* A rubbery squeak ("boing"): a tone at pitch_hz (Hz) that starts a little
 * sharp and settles with a stick-slip wobble, nasal harmonics, a soft thump
 * at the start; 4 ms attack, exponential decay, ends at exactly zero. */
void synth_squeak(float *out, size_t frames, int rate, double pitch_hz, uint32_t noise_seed);

/* A splash: a burst of band-pass filtered noise whose centre falls from
 * bright to dull, a low "plop" at the start and droplets in the tail.
 * size 0..1: 0 a small slap, 1 a big belly-flop (longer, lower, fuller). */
void synth_splash(float *out, size_t frames, int rate, double size, uint32_t noise_seed);

/* Rushing water for looping: low-passed noise with a slowly wandering
 * gurgle band, decorrelated left and right, RMS SYNTH_AMBIENCE_RMS, and the
 * end crossfaded into the start so it loops without a click. Returns -1
 * when scratch memory runs out. */
int synth_ambience(float *out, size_t frames, int rate, uint32_t noise_seed);

/* Air escaping through a hole, for looping: white noise high-passed
 * (differenced) with a little slow flutter, decorrelated left and right,
 * RMS SYNTH_AMBIENCE_RMS. White noise has no pattern to break at the loop
 * point, so it loops without a click. */
void synth_hiss(float *out, size_t frames, int rate, uint32_t noise_seed);

#endif
