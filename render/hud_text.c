/* The HUD's text: the run's statistics and the key help. */
#include "render/hud_text.h"

#include <stdio.h>

void hud_format(char *buf, size_t len, const hud_stats *s, int show_help)
{
    char follow[32] = "off";
    if (s->follow >= 0)
        snprintf(follow, sizeof follow, "ring %d", s->follow);
    else if (s->follow == -2)
        snprintf(follow, sizeof follow, "crowd");
    int n = snprintf(buf, len,
                     "%.0f fps   %.0f steps/s   %.3f ms/step   %d substep%s   %d threads\n"
                     "%d rings   %zu vertices   t = %.2f s\n"
                     "%s   speed %gx (reached %.2fx)   follow: %s",
                     s->fps, s->steps_per_s, s->ms_per_step, s->substeps,
                     s->substeps == 1 ? "" : "s", s->threads, s->rings, s->vertices,
                     s->sim_time, s->paused ? "PAUSED" : "running", s->speed, s->realtime_ratio,
                     follow);
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
