/* The progress line of a long headless run; see progress.h. */
#include "app/progress.h"

void progress_begin(progress *p, FILE *out, double total_s, double now)
{
    *p = (progress){.out = out, .start = now, .total = total_s, .last = now};
}

void progress_update(progress *p, double simulated_s, double now)
{
    double wall = now - p->start;
    if (!p->out || wall < PROGRESS_AFTER || (p->shown && now - p->last < PROGRESS_EVERY))
        return;
    double rate = simulated_s / wall; /* simulated seconds per wall second */
    double left = p->total - simulated_s;
    /* \r and "erase to the end of the line" (ANSI EL): the line rewrites itself */
    fprintf(p->out, "\rdinghy: simulated %.1f of %.1f s, %.2gx real time", simulated_s, p->total,
            rate);
    if (rate > 0.0 && left > 0.0)
        fprintf(p->out, ", about %.0f s left", left / rate);
    fprintf(p->out, "\033[K");
    fflush(p->out);
    p->last = now;
    p->shown = 1;
}

void progress_end(progress *p)
{
    if (p->out && p->shown) {
        fprintf(p->out, "\r\033[K");
        fflush(p->out);
    }
    p->shown = 0;
}
