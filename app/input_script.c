/* Scripted input: parse once, replay by simulated time. */
#include "app/input_script.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_BYTES 512

typedef struct {
    double t;
    input_event ev;
    double glide;         /* cursor: seconds to get there (0: jump) */
} script_event;

struct input_script {
    script_event *ev;
    size_t count, next;
    /* the glide under way: from (x0, y0) at t0 to the event's point at t1 */
    int gliding;
    double t0, t1;
    float x0, y0, x1, y1;
    float x, y;           /* the cursor's script position now */
};

static int button_named(const char *name)
{
    return strcasecmp(name, "left") == 0     ? INPUT_BUTTON_LEFT
         : strcasecmp(name, "right") == 0    ? INPUT_BUTTON_RIGHT
         : strcasecmp(name, "middle") == 0   ? INPUT_BUTTON_MIDDLE : -1;
}

static int push(input_script *s, size_t *cap, const script_event *e)
{
    if (s->count == *cap) {
        size_t n = *cap ? 2 * *cap : 64;
        script_event *grown = realloc(s->ev, n * sizeof *grown);
        if (!grown)
            return -1;
        s->ev = grown;
        *cap = n;
    }
    s->ev[s->count++] = *e;
    return 0;
}

/* Parses one line into e (and a second event for "key"); returns the
 * number of events, 0 for a blank line, -1 with why. */
static int parse_line(char *line, script_event e[2], const char **why)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char verb[32], a[64], b[64], c[64], extra[8];
    double t;
    int n = sscanf(line, " %lf %31s %63s %63s %63s %7s", &t, verb, a, b, c, extra);
    if (n <= 0) {
        char first[2];
        if (sscanf(line, " %1s", first) != 1)
            return 0; /* blank */
        *why = "expected 'TIME EVENT ...' with TIME in seconds";
        return -1;
    }
    if (n < 2 || !isfinite(t) || t < 0.0 || t > 1e6) {
        *why = "expected 'TIME EVENT ...' with TIME in seconds, 0 to 1e6";
        return -1;
    }
    memset(e, 0, 2 * sizeof *e);
    e[0].t = e[1].t = t;
    if (strcmp(verb, "key") == 0 || strcmp(verb, "keydown") == 0 || strcmp(verb, "keyup") == 0) {
        input_key k = n == 3 ? input_key_named(a) : INPUT_KEY_NONE;
        if (k == INPUT_KEY_NONE) {
            *why = "expected a key name: a to z, space, tab, up, down, left, right, plus, "
                   "minus, escape, f1, shift";
            return -1;
        }
        e[0].ev.code = e[1].ev.code = (int)k;
        e[0].ev.kind = verb[3] == 'u' ? INPUT_EVENT_KEY_UP : INPUT_EVENT_KEY_DOWN;
        e[1].ev.kind = INPUT_EVENT_KEY_UP;
        return strcmp(verb, "key") == 0 ? 2 : 1;
    }
    if (strcmp(verb, "press") == 0 || strcmp(verb, "release") == 0) {
        int bt = n == 3 ? button_named(a) : -1;
        if (bt < 0) {
            *why = "expected a mouse button: left, right or middle";
            return -1;
        }
        e[0].ev.code = bt;
        e[0].ev.kind = verb[0] == 'p' ? INPUT_EVENT_BUTTON_DOWN : INPUT_EVENT_BUTTON_UP;
        return 1;
    }
    if (strcmp(verb, "cursor") == 0) {
        char *end1, *end2, *end3 = NULL;
        double x = n >= 4 ? strtod(a, &end1) : NAN, y = n >= 4 ? strtod(b, &end2) : NAN;
        double glide = n == 5 ? strtod(c, &end3) : 0.0;
        if (n < 4 || n > 5 || *end1 || *end2 || (end3 && *end3) || !isfinite(x) || !isfinite(y)
            || fabs(x) > 1e5 || fabs(y) > 1e5 || !(glide >= 0.0 && glide <= 1e4)) {
            *why = "expected 'cursor X Y [GLIDE]': pixels within +-1e5, GLIDE 0 to 1e4 s";
            return -1;
        }
        e[0].ev.kind = INPUT_EVENT_CURSOR;
        e[0].ev.x = (float)x;
        e[0].ev.y = (float)y;
        e[0].glide = glide;
        return 1;
    }
    if (strcmp(verb, "scroll") == 0) {
        char *end;
        double notches = n == 3 ? strtod(a, &end) : NAN;
        if (n != 3 || *end || !(fabs(notches) <= 100.0)) {
            *why = "expected 'scroll NOTCHES', -100 to 100";
            return -1;
        }
        e[0].ev.kind = INPUT_EVENT_SCROLL;
        e[0].ev.y = (float)notches;
        return 1;
    }
    *why = "unknown event: use key, keydown, keyup, press, release, cursor or scroll";
    return -1;
}

input_script *input_script_load(const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "--input: cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    input_script *s = calloc(1, sizeof *s);
    size_t cap = 0;
    char line[LINE_MAX_BYTES];
    int lineno = 0;
    double last = 0.0;
    while (s && fgets(line, sizeof line, f)) {
        lineno++;
        const char *why = NULL;
        script_event e[2];
        int n = strchr(line, '\n') || feof(f) ? parse_line(line, e, &why) : -1;
        if (n < 0 && !why)
            why = "line longer than 510 characters";
        if (n > 0 && e[0].t < last) {
            n = -1;
            why = "TIME goes back: events must be in time order";
        }
        if (n < 0) {
            snprintf(err, err_len, "%s:%d: %s", path, lineno, why);
            input_script_free(s);
            fclose(f);
            return NULL;
        }
        for (int i = 0; i < n; i++)
            if (push(s, &cap, &e[i]) != 0) {
                input_script_free(s);
                s = NULL;
                break;
            }
        if (n > 0)
            last = e[0].t;
    }
    if (s && ferror(f)) {
        snprintf(err, err_len, "--input: cannot read '%s': %s", path, strerror(errno));
        input_script_free(s);
        s = NULL;
    } else if (!s) {
        snprintf(err, err_len, "--input: out of memory reading '%s'", path);
    }
    fclose(f);
    return s;
}

void input_script_free(input_script *s)
{
    if (!s)
        return;
    free(s->ev);
    free(s);
}

static void feed_cursor(input_script *s, int base_w, int base_h, int w, int h, input *in)
{
    input_event ev = {INPUT_EVENT_CURSOR, 0, s->x * (float)w / (float)base_w,
                      s->y * (float)h / (float)base_h};
    input_feed(in, &ev);
}

void input_script_play(input_script *s, double t, int base_w, int base_h, int w, int h,
                       input *in)
{
    if (base_w <= 0 || base_h <= 0)
        return;
    /* a glide under way moves on first, so events at its end see it there */
    if (s->gliding) {
        double u = s->t1 > s->t0 ? (t - s->t0) / (s->t1 - s->t0) : 1.0;
        if (u >= 1.0) {
            u = 1.0;
            s->gliding = 0;
        }
        s->x = s->x0 + (float)u * (s->x1 - s->x0);
        s->y = s->y0 + (float)u * (s->y1 - s->y0);
        feed_cursor(s, base_w, base_h, w, h, in);
    }
    for (; s->next < s->count && s->ev[s->next].t <= t; s->next++) {
        const script_event *e = &s->ev[s->next];
        if (e->ev.kind != INPUT_EVENT_CURSOR) {
            input_feed(in, &e->ev);
            continue;
        }
        if (e->glide > 0.0) {
            s->gliding = 1;
            s->t0 = e->t;
            s->t1 = e->t + e->glide;
            s->x0 = s->x;
            s->y0 = s->y;
            s->x1 = e->ev.x;
            s->y1 = e->ev.y;
            double u = (t - s->t0) / e->glide;
            if (u >= 1.0) {
                u = 1.0;
                s->gliding = 0;
            }
            s->x = s->x0 + (float)u * (s->x1 - s->x0);
            s->y = s->y0 + (float)u * (s->y1 - s->y0);
        } else {
            s->gliding = 0;
            s->x = e->ev.x;
            s->y = e->ev.y;
        }
        feed_cursor(s, base_w, base_h, w, h, in);
    }
}

double input_script_end(const input_script *s)
{
    double end = 0.0;
    for (size_t i = 0; i < s->count; i++) {
        double t = s->ev[i].t + s->ev[i].glide;
        if (t > end)
            end = t;
    }
    return end;
}
