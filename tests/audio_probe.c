/* audio_probe: measures a raw S16LE stereo file as SDL's disk audio driver
 * writes it, for tests/test_audio.sh.
 *
 * usage: audio_probe [--above LEVEL] FILE [FROM TO [RATE]]
 *   FROM, TO: the time range to measure, s (default: the whole file)
 *   RATE: frames per second (default 44100)
 * prints one line of "name value" pairs, levels as fractions of full scale:
 *   frames N  seconds S  nonzero K  first T  peak P  rms R  clipped C
 *   wmin A  wmed B  wmax C  above U
 * nonzero: frames with any non-zero sample; first: time of the first such
 * frame in the range (-1 if none); clipped: samples at full scale;
 * wmin/wmed/wmax: least, median and largest RMS of the 50 ms windows that
 * fit in the range (0 if none); above: start of the first 10 ms window in
 * the range whose RMS exceeds LEVEL (-1 if none or no --above). Exit 0, or 2 on bad usage or an unreadable
 * file (a missing file is reported as empty, frames 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double level = -1.0;
    if (argc > 2 && strcmp(argv[1], "--above") == 0) {
        level = atof(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc != 2 && argc != 4 && argc != 5) {
        fprintf(stderr, "usage: audio_probe [--above LEVEL] FILE [FROM TO [RATE]]\n");
        return 2;
    }
    double from = argc >= 4 ? atof(argv[2]) : 0.0, to = argc >= 4 ? atof(argv[3]) : 1e30;
    double rate = argc == 5 ? atof(argv[4]) : 44100.0;
    if (!(rate > 0.0) || !(to >= from)) {
        fprintf(stderr, "audio_probe: need FROM <= TO and RATE > 0\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    size_t total = 0;
    short *pcm = NULL;
    if (f) {
        size_t cap = 1 << 16;
        pcm = malloc(cap * sizeof *pcm);
        unsigned char b[4096];
        size_t got;
        while (pcm && (got = fread(b, 1, sizeof b, f)) > 0) {
            for (size_t i = 0; i + 1 < got; i += 2) {
                if (total == cap) {
                    short *more = realloc(pcm, 2 * cap * sizeof *pcm);
                    if (!more) {
                        fprintf(stderr, "audio_probe: out of memory\n");
                        return 2;
                    }
                    pcm = more;
                    cap *= 2;
                }
                pcm[total++] = (short)(b[i] | b[i + 1] << 8); /* little-endian */
            }
        }
        fclose(f);
    }
    size_t frames = total / 2;
    size_t lo = from * rate < (double)frames ? (size_t)(from * rate) : frames;
    size_t hi = to * rate < (double)frames ? (size_t)(to * rate) : frames;
    size_t nonzero = 0, clipped = 0;
    double first = -1.0, peak = 0.0, sum = 0.0;
    for (size_t i = lo; i < hi; i++) {
        int any = 0;
        for (int c = 0; c < 2; c++) {
            double v = pcm[2 * i + c] / 32768.0;
            any |= pcm[2 * i + c] != 0;
            clipped += pcm[2 * i + c] == 32767 || pcm[2 * i + c] == -32768;
            if (fabs(v) > peak)
                peak = fabs(v);
            sum += v * v;
        }
        if (any && !nonzero++)
            first = i / rate;
    }
    size_t win = (size_t)(0.05 * rate), nwin = win && hi > lo ? (hi - lo) / win : 0;
    double *w = calloc(nwin ? nwin : 1, sizeof *w);
    for (size_t k = 0; w && k < nwin; k++) {
        double s = 0.0;
        for (size_t i = lo + k * win; i < lo + (k + 1) * win; i++)
            for (int c = 0; c < 2; c++)
                s += (pcm[2 * i + c] / 32768.0) * (pcm[2 * i + c] / 32768.0);
        w[k] = sqrt(s / (2.0 * win));
    }
    if (w && nwin)
        qsort(w, nwin, sizeof *w, by_value);
    double above = -1.0;
    size_t short_win = (size_t)(0.01 * rate);
    for (size_t i = lo; level >= 0.0 && short_win && i + short_win <= hi && above < 0.0; i += short_win / 2) {
        double s = 0.0;
        for (size_t j = i; j < i + short_win; j++)
            for (int c = 0; c < 2; c++)
                s += (pcm[2 * j + c] / 32768.0) * (pcm[2 * j + c] / 32768.0);
        if (sqrt(s / (2.0 * short_win)) > level)
            above = i / rate;
    }
    printf("frames %zu seconds %.4f nonzero %zu first %.4f peak %.5f rms %.5f clipped %zu "
           "wmin %.5f wmed %.5f wmax %.5f above %.4f\n", hi - lo, (hi - lo) / rate, nonzero, first,
           peak, hi > lo ? sqrt(sum / (2.0 * (hi - lo))) : 0.0, clipped,
           nwin ? w[0] : 0.0, nwin ? w[nwin / 2] : 0.0, nwin ? w[nwin - 1] : 0.0, above);
    free(w);
    free(pcm);
    return 0;
}
