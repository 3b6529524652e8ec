/* The heads-up display: text (hud_text.h) drawn with stb_easy_font on a
 * translucent panel. Private to render/: the app draws through
 * render_hud and render_panel (render.h). Buffers are allocated once at
 * creation; drawing a frame allocates nothing. */
#ifndef DINGHY_HUD_H
#define DINGHY_HUD_H

#include <stddef.h>

#include "render/hud_text.h"

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
