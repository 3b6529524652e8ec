/* The heads-up display: statistics and key help as text (stb_easy_font)
 * on a translucent panel. Buffers are allocated once at creation; drawing
 * a frame allocates nothing. */
#ifndef DINGHY_HUD_H
#define DINGHY_HUD_H

#include <stddef.h>

/* What the HUD reports. */
typedef struct {
    double fps;             /* frames drawn per second of wall time */
    double steps_per_s;     /* physics steps per second of wall time */
    double ms_per_step;     /* wall time of one physics step, ms */
    int threads;            /* threads of the tick */
    int substeps;           /* substeps each step is cut into */
    int rings;
    size_t vertices;
    double sim_time;        /* simulated time, s */
    int paused;
    double speed;           /* asked simulation speed, 1 = real time */
    double realtime_ratio;  /* simulated seconds per wall second actually reached */
    int follow;             /* ring the camera follows, -1 for none, -2 the crowd */
    long spray, spray_budget; /* live spray droplets and their budget; budget 0: no spray line */
    int scene_w, scene_h;   /* pixels the 3-D scene is drawn at (dynamic resolution); 0: no line */
    double scene_scale;     /* their fraction of the window's size */
    int scene_auto;         /* 1: chosen from the frame time, 0: render.resolution_scale */
} hud_stats;

/* Longest text hud_draw shows, bytes. */
#define HUD_TEXT_MAX 2048

/* Writes the HUD text: the statistics, then the key help when show_help. */
void hud_format(char *buf, size_t len, const hud_stats *s, int show_help);

typedef struct hud hud;

/* Needs a current GL context; NULL with a message in err. */
hud *hud_create(char *err, size_t err_len);
/* Draws `text` (lines split by '\n', at most HUD_TEXT_MAX bytes) with its
 * top-left corner at (x, y) pixels from the viewport's top-left, on a
 * viewport of fb_w x fb_h pixels, glyphs enlarged `scale` times. */
void hud_draw(hud *h, const char *text, float x, float y, int fb_w, int fb_h, float scale);
/* Width of text's widest line as hud_draw lays it out, pixels at scale 1,
 * translucent panel included. */
float hud_text_width(const char *text);
/* Height of text with its panel, and of one line, in pixels at scale 1. */
float hud_text_height(const char *text);
#define HUD_LINE_HEIGHT 12.0f
/* Padding of the panel round the text, pixels at scale 1. */
#define HUD_PANEL_PAD 4.0f
void hud_destroy(hud *h);

#endif
