/* The mixing policy: events in, a few well-chosen sound starts out. */
#include "audio/plan.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846
#define REF_SIZE 1.05   /* outer radius of the default ring, m */
#define TOP 16          /* loudest candidates weighed per frame, of each kind */

static double clamp01(double v)
{
    return v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0; /* NaN -> 0 */
}

static double size_or_default(double size)
{
    return size > 0.0 && size < 1e6 ? size : REF_SIZE;
}

double plan_squeak_pitch(int k)
{
    return 110.0 * pow(2.0, k / 4.0);
}

double plan_splash_size(int size_class)
{
    return size_class <= 0 ? 0.1 : size_class == 1 ? 0.5 : 1.0;
}

void plan_pan(double pan, unsigned char *left, unsigned char *right)
{
    double p = pan == pan ? (pan < -1.0 ? -1.0 : pan > 1.0 ? 1.0 : pan) : 0.0;
    double angle = (p + 1.0) * PI / 4.0;
    *left = (unsigned char)lround(255.0 * cos(angle));
    *right = (unsigned char)lround(255.0 * sin(angle));
}

double plan_contact_gain(double speed, double size)
{
    if (!(speed >= 0.05))
        return 0.0;
    double g = pow(clamp01(speed / 3.0), 0.7);
    double s = sqrt(size_or_default(size) / REF_SIZE); /* a big ring thumps harder */
    return clamp01(g * (s < 0.6 ? 0.6 : s > 1.25 ? 1.25 : s));
}

double plan_splash_gain(double speed, double fraction)
{
    if (!(speed > 0.3))
        return 0.0;
    double g = pow(clamp01((speed - 0.3) / 4.0), 0.7);
    return clamp01(g * (0.5 + 0.5 * clamp01(4.0 * clamp01(fraction))));
}

/* Bank squeak for a contact: lower for bigger rings, a little higher
 * for harder hits, and one step up or down by pair so that a crowd does
 * not squeak in unison. */
static int squeak_sound(const sim_event *e, double size)
{
    double speed = e->speed == e->speed ? e->speed : 0.0;
    double f = 480.0 * pow(REF_SIZE / size_or_default(size), 0.7)
               * (0.8 + 0.4 * clamp01(speed / 5.0));
    int k = (int)lround(4.0 * log2(f / 110.0));
    k += (int)(((unsigned)e->ring * 7u + (unsigned)e->other * 13u) % 3u) - 1;
    if (e->kind == SIM_EVENT_OBSTACLE)
        k -= 8; /* a ring on rock: a low thud of a squeak, two octaves down */
    return k < 0 ? 0 : k >= PLAN_SQUEAKS ? PLAN_SQUEAKS - 1 : k;
}

static int splash_sound(const sim_event *e, double gain)
{
    int size_class = gain < 0.35 ? 0 : gain < 0.7 ? 1 : 2;
    return PLAN_SQUEAKS + size_class * PLAN_SPLASH_TAKES + (int)((unsigned)e->ring % PLAN_SPLASH_TAKES);
}

static uint64_t event_key(const sim_event *e)
{
    uint64_t kind = e->kind == SIM_EVENT_CONTACT ? 1 : e->kind == SIM_EVENT_OBSTACLE ? 3 : 2;
    return (kind << 60) ^ ((uint64_t)(uint32_t)e->ring << 30) ^ (uint64_t)(uint32_t)(e->other + 1);
}

static size_t key_slot(uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 54) % PLAN_RECENT;
}

/* Whether the pair or ring of key sounded too recently for this gain. */
static int held(const audio_plan *pl, uint64_t key, int contact, double gain)
{
    size_t s = key_slot(key);
    double hold = contact ? PLAN_CONTACT_HOLD : PLAN_SPLASH_HOLD;
    return pl->recent[s].key == key && pl->time - pl->recent[s].time < hold
           && gain <= 2.0 * pl->recent[s].gain;
}

void plan_init(audio_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->tokens[0] = PLAN_CONTACT_BURST;
    pl->tokens[1] = PLAN_SPLASH_BURST;
    for (int k = 0; k < PLAN_SOUNDS; k++)
        pl->sound_time[k] = -1e9;
}

typedef struct {
    double gain;
    uint64_t key;
    int sound, contact;
    float pan;
} candidate;

/* Inserts c into the list sorted by falling gain, keeping the TOP best. */
static void keep_loudest(candidate *top, int *ntop, const candidate *c)
{
    int i;
    if (*ntop == TOP) {
        if (top[TOP - 1].gain >= c->gain)
            return;
        i = TOP - 1;
    } else {
        i = (*ntop)++;
    }
    while (i > 0 && top[i - 1].gain < c->gain) {
        top[i] = top[i - 1];
        i--;
    }
    top[i] = *c;
}

void plan_frame(audio_plan *pl, const audio_params *p, int muted, const audio_frame_info *f,
                const sim_event *events, const float *pan, size_t n, plan_out *out)
{
    memset(out, 0, sizeof *out);
    double time = f->time == f->time ? f->time : pl->time;
    if (pl->started && time < pl->time) /* the scene was reset */
        plan_init(pl);
    double dt = pl->started ? time - pl->time : 0.0;
    double level = clamp01(f->ambience), hiss = clamp01(f->hiss);
    if (!pl->started) {
        pl->ambience = level;
        pl->hiss = hiss;
    } else { /* both loops follow their levels smoothly */
        double follow = 1.0 - exp(-dt / PLAN_AMBIENCE_TAU);
        pl->ambience += (level - pl->ambience) * follow;
        pl->hiss += (hiss - pl->hiss) * follow;
    }
    pl->started = 1;
    pl->time = time;
    pl->tokens[0] = fmin(PLAN_CONTACT_BURST, pl->tokens[0] + dt * PLAN_CONTACT_RATE);
    pl->tokens[1] = fmin(PLAN_SPLASH_BURST, pl->tokens[1] + dt * PLAN_SPLASH_RATE);

    double master = clamp01(p->volume);
    double vol[2] = {128.0 * master * clamp01(p->contact_volume), 128.0 * master * clamp01(p->splash_volume)};
    out->ambience_volume = muted ? 0 : (int)lround(128.0 * master * clamp01(p->ambience_volume) * pl->ambience);
    out->hiss_volume = muted ? 0 : (int)lround(128.0 * master * pl->hiss);

    candidate top[2][TOP]; /* contacts, splashes: each kind has its own budget */
    int ntop[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        const sim_event *e = &events[i];
        candidate c;
        /* a ring hitting a rock, bank or bed sounds like a contact, lower */
        c.contact = e->kind == SIM_EVENT_CONTACT || e->kind == SIM_EVENT_OBSTACLE;
        if (c.contact) {
            c.gain = plan_contact_gain(e->speed, f->ring_size);
            c.sound = squeak_sound(e, f->ring_size);
        } else {
            double frac = f->vertices > 0 ? (double)e->count / f->vertices : 0.25;
            c.gain = plan_splash_gain(e->speed, frac);
            c.sound = splash_sound(e, c.gain);
        }
        c.key = event_key(e);
        c.pan = pan ? pan[i] : 0.0f;
        if (lround(vol[!c.contact] * c.gain) >= 1 && !held(pl, c.key, c.contact, c.gain))
            keep_loudest(top[!c.contact], &ntop[!c.contact], &c);
    }
    for (int j = 0; j < ntop[0] + ntop[1] && out->nstarts < PLAN_MAX_STARTS; j++) {
        const candidate *c = j < ntop[0] ? &top[0][j] : &top[1][j - ntop[0]];
        int kind = !c->contact;
        if (held(pl, c->key, c->contact, c->gain) || pl->tokens[kind] < 1.0
            || time - pl->sound_time[c->sound] < PLAN_RESTART_SECONDS)
            continue;
        size_t s = key_slot(c->key);
        pl->recent[s].key = c->key;
        pl->recent[s].time = time;
        pl->recent[s].gain = c->gain;
        pl->sound_time[c->sound] = time;
        pl->tokens[kind] -= 1.0;
        if (muted)
            continue;
        plan_start *st = &out->starts[out->nstarts++];
        st->sound = c->sound;
        st->volume = (int)lround(vol[kind] * c->gain);
        plan_pan(c->pan, &st->left, &st->right);
        if (c->contact)
            out->squeaks++;
        else
            out->splashes++;
    }
    out->skipped = (long)n - out->nstarts;
}
