/* The HUD's text: the run's statistics and the key help. */
#include "render/hud_text.h"

#include <math.h>
#include <stdio.h>

char *hud_two_digits(double v, char *buf, size_t len)
{
    if (!(v > 0.0) || !isfinite(v)) {
        snprintf(buf, len, "0");
        return buf;
    }
    int decimals = 1 - (int)floor(log10(v));
    snprintf(buf, len, "%.*f", decimals > 0 ? decimals : 0, v);
    return buf;
}

void hud_format(char *buf, size_t len, const hud_stats *s, int show_help)
{
    char follow[32] = "off";
    if (s->follow >= 0)
        snprintf(follow, sizeof follow, "ring %d", s->follow);
    else if (s->follow == -2)
        snprintf(follow, sizeof follow, "crowd");
    char fps[32], reached[32];
    /* behind: the physics cannot keep the asked speed, so simulated time runs slower */
    int behind = !s->paused && s->realtime_ratio > 0.0 && s->realtime_ratio < 0.9 * s->speed;
    int n = snprintf(buf, len,
                     "%s fps   %.0f steps/s   %.3f ms/step   %d substep%s   %d threads\n"
                     "%d rings   %zu vertices   t = %.2f s\n"
                     "%s   speed %gx (reached %sx%s)   follow: %s",
                     hud_two_digits(s->fps, fps, sizeof fps), s->steps_per_s, s->ms_per_step,
                     s->substeps, s->substeps == 1 ? "" : "s", s->threads, s->rings, s->vertices,
                     s->sim_time, s->paused ? "PAUSED" : "running", s->speed,
                     hud_two_digits(s->realtime_ratio, reached, sizeof reached),
                     behind ? ": the physics is behind, time slowed" : "", follow);
    if (n >= 0 && (size_t)n < len && s->spray_budget > 0)
        n += snprintf(buf + n, len - (size_t)n, "\nspray %ld / %ld", s->spray, s->spray_budget);
    if (n >= 0 && (size_t)n < len && s->scene_w > 0)
        n += snprintf(buf + n, len - (size_t)n, "\nrender %dx%d (%.0f%%, %s)", s->scene_w,
                      s->scene_h, 100.0 * s->scene_scale, s->scene_auto ? "auto" : "fixed");
    if (n < 0 || (size_t)n >= len)
        return;
    snprintf(buf + n, len - (size_t)n, "%s",
             show_help ? "\n\n"
                         "left drag a ring: grab (Shift: along the water), let go: throw\n"
                         "right drag: orbit   middle or Shift+right drag: pan   wheel: zoom\n"
                         "D drop a ring in   X take it out   K puncture it (Shift+K burst it; at the cursor)\n"
                         "Tab tuning panel (Up/Down Left/Right, Shift x10, S save)\n"
                         "F follow ring   C free camera / follow crowd\n"
                         "Space pause   N step   R reset\n"
                         "+/- speed   P screenshot   H/F1 help   Esc quit"
                       : "\nH: help");
}
