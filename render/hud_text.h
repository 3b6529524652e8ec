/* The HUD's text: what the run reports and the key help, formatted for
 * render_hud (render.h). No GL: the app fills hud_stats and formats. */
#ifndef DINGHY_HUD_TEXT_H
#define DINGHY_HUD_TEXT_H

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

/* Longest HUD text, bytes (render_hud and render_panel show no more). */
#define HUD_TEXT_MAX 2048

/* v (>= 0) with at least two significant digits and no exponent (0.14,
 * 1.0, 18, 0.0073) into buf; returns buf. */
char *hud_two_digits(double v, char *buf, size_t len);

/* Writes the HUD text: the statistics, then the key help when show_help.
 * Frames/s and the speed reached have two significant digits; a speed
 * reached under 0.9 of the asked one says the physics is behind. */
void hud_format(char *buf, size_t len, const hud_stats *s, int show_help);

#endif
