/* dinghy --bench: time the tick per scene and thread count, check that the
 * state hash is the same for every thread count. */
#include "app/bench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dinghy/reference.h"
#include "app/bench_floor.h"
#include "dinghy/health.h"
#include "dinghy/profile.h"
#include "dinghy/sim.h"
#include "app/report.h"

#ifndef DINGHY_CFLAGS
#define DINGHY_CFLAGS "?"
#endif

#define MAX_ROWS 256
#define MAX_THREAD_COUNTS 16
#define PHASE_WIDTH 12 /* characters of a phase's column: its longest name */

typedef struct {
    char scene[32];
    int rings;
    size_t vertices;
    sim_skin_model skin;        /* the skin model timed */
    size_t elements;            /* the skin's elements: triangles (membrane) or springs */
    int threads;
    long steps;
    double ms_median, ms_min;   /* per step */
    double ns_vertex_step;      /* from the median */
    double ns_vertex_substep;   /* the same over the substeps a step */
    double real_time;           /* simulated seconds per wall second, from the median */
    int substeps;               /* substeps a step */
    double speedup, efficiency; /* against the first thread count of the scene */
    uint64_t hash;
    double phase_ms[SIM_PHASE_COUNT]; /* per step, thread 0, from the median repeat */
    double bytes_per_vertex;
} bench_row;

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c += 2;
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

static void machine_line(char *buf, size_t len)
{
    char cpu[128];
    cpu_model(cpu, sizeof cpu);
    const char *bind = getenv("OMP_PROC_BIND"), *places = getenv("OMP_PLACES");
    const char *wait = getenv("OMP_WAIT_POLICY"), *spin = getenv("GOMP_SPINCOUNT");
#if defined(__clang__)
    const char *cc = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *cc = "gcc " __VERSION__;
#else
    const char *cc = "unknown compiler";
#endif
    snprintf(buf, len, "cpu: %s; cores: %d; compiler: %s; flags: %s; OMP_PROC_BIND=%s "
             "OMP_PLACES=%s OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s", cpu, omp_get_num_procs(), cc,
             DINGHY_CFLAGS, bind ? bind : "(unset)", places ? places : "(unset)",
             wait ? wait : "(unset)", spin ? spin : "(unset)");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The skin's name, its elements' name and their count for `vertices`
 * vertices: two triangles a vertex (membrane), or the springs. */
static const char *skin_name(sim_skin_model skin)
{
    return skin == SIM_SKIN_MEMBRANE ? "membrane" : "springs";
}
static const char *elements_name(sim_skin_model skin)
{
    return skin == SIM_SKIN_MEMBRANE ? "triangles" : "springs";
}

/* A phase's name in the table and the files: the skin's force kernel under
 * the skin's own name, the contacts under the model's. */
static const char *phase_label(int k, sim_skin_model skin)
{
    switch ((sim_phase)k) {
    case SIM_PHASE_SPRINGS: return skin_name(skin);
    case SIM_PHASE_CONTACTS: return "repulsion";
    case SIM_PHASE_SKIN_CONTACT: return "contact";
    default: return sim_phase_name((sim_phase)k);
    }
}

/* One scene of the suite: a registry scene at one ring count. */
typedef struct {
    char name[32];
    scene_def layout;
    int seed;   /* 1: with the seed models (seed buoyancy, constant inflation, the
                   centre-line repulsion, the springs skin) */
    int centreline; /* 1: with the seed's centre-line repulsion instead of skin contact */
    int springs;    /* 1: with the seed's springs skin instead of the membrane */
} suite_scene;

/* The standard suite: every registry scene at each of its bench counts,
 * in registry order (small to large within a scene). Returns the count. */
static int build_suite(const scene_def *base, suite_scene *out, int max)
{
    int n = 0;
    for (int i = 0; i < scene_registry_count; i++) {
        const scene_entry *e = scene_registry[i];
        int several = e->bench_counts && e->bench_counts[0] && e->bench_counts[1];
        for (const int *c = e->bench_counts; c && *c && n < max; c++, n++) {
            out[n].layout = *base;
            out[n].layout.index = i;
            out[n].layout.count = *c;
            out[n].seed = 0;
            out[n].centreline = 0;
            out[n].springs = 0;
            if (several)
                snprintf(out[n].name, sizeof out[n].name, "%s%d", e->name, *c);
            else
                snprintf(out[n].name, sizeof out[n].name, "%s", e->name);
        }
    }
    /* the still-water crowd again with the seed models: what the physical
     * models cost, measured in the same run */
    int lake = scene_index("lake");
    if (lake >= 0 && n < max) {
        out[n].layout = *base;
        out[n].layout.index = lake;
        out[n].layout.count = 64;
        out[n].seed = 1;
        out[n].centreline = 0;
        out[n].springs = 0;
        snprintf(out[n].name, sizeof out[n].name, "lakeseed");
        n++;
    }
    /* and with only the skin the seed's: what the membrane costs */
    if (lake >= 0 && n < max) {
        out[n] = out[n - 1];
        out[n].seed = 0;
        out[n].springs = 1;
        snprintf(out[n].name, sizeof out[n].name, "lakesprings");
        n++;
    }
    /* the contact-heavy scenes again with the centre-line repulsion: what
     * skin contact costs, measured in the same run (packed keeps the seed's
     * spacing then: the repulsion cannot start overlapped) */
    const char *const heavy[] = {"packed", "pile"};
    for (int h = 0; h < 2; h++) {
        int idx = scene_index(heavy[h]);
        const scene_entry *e = idx >= 0 ? scene_registry[idx] : NULL;
        if (!e || !e->bench_counts || n >= max)
            continue;
        out[n].layout = *base;
        out[n].layout.index = idx;
        out[n].layout.count = e->bench_counts[0];
        out[n].seed = 0;
        out[n].centreline = 1;
        out[n].springs = 0;
        snprintf(out[n].name, sizeof out[n].name, "%scentreline", heavy[h]);
        n++;
    }
    return n;
}

/* About 2e7 vertex-substeps (at least 2 steps, at most 2000). */
static long default_steps(size_t vertices, int substeps)
{
    long s = (long)(2e7 / ((double)vertices * (double)substeps));
    return s < 2 ? 2 : s > 2000 ? 2000 : s;
}

/* Times one scene at every thread count, the thread counts interleaved
 * within each repeat (1, 2, 1, 2, ...) so that a machine whose speed drifts
 * (a busy neighbour, a VM) treats them alike. Fills the timing fields of
 * rows[0 .. n). Returns 0, 2 (out of memory) or 3 (blew up). */
static int time_tick(const sim_def *p, const scene_def *layout, const int *threads, int n,
                     long steps, int repeat, bench_row *rows)
{
    dinghy_sim *sims[MAX_THREAD_COUNTS] = {0};
    double *ms = calloc((size_t)n * (size_t)repeat, sizeof *ms);
    double *phases = calloc((size_t)n * (size_t)repeat * SIM_PHASE_COUNT, sizeof *phases);
    int rc = ms && phases ? 0 : 2;
    for (int t = 0; t < n && rc == 0; t++) {
        sim_def q = *p;
        q.solver.threads = threads[t];
        char err[256];
        sims[t] = scene_create(&q, layout, 0, err, sizeof err);
        if (!sims[t]) {
            fprintf(stderr, "dinghy: bench: %s\n", err);
            rc = 2;
        }
    }
    for (int r = 0; r < repeat && rc == 0; r++)
        for (int t = 0; t < n && rc == 0; t++) {
            dinghy_sim *sim = sims[t];
            scene_rebuild(sim, layout);
            sim_step(sim, 1); /* untimed warm-up: threads up, caches warm */
            scene_rebuild(sim, layout);
            sim_reset_phase_times(sim);
            double t0 = omp_get_wtime();
            long done = sim_step(sim, steps);
            ms[t * repeat + r] = (omp_get_wtime() - t0) * 1e3 / (double)steps;
            sim_phase_times(sim, &phases[(t * repeat + r) * SIM_PHASE_COUNT]);
            if (done < steps) {
                char msg[1024];
                sim_blowup_message(sim, msg, sizeof msg);
                fprintf(stderr, "dinghy: bench scene %s: %s\n", rows[t].scene, msg);
                rc = 3;
            }
        }
    for (int t = 0; t < n && rc == 0; t++) {
        bench_row *row = &rows[t];
        const double *mt = &ms[t * repeat];
        double sorted[1000];
        memcpy(sorted, mt, sizeof sorted[0] * (size_t)repeat);
        qsort(sorted, (size_t)repeat, sizeof sorted[0], cmp_double);
        row->ms_median = sorted[repeat / 2];
        row->ms_min = sorted[0];
        int med = 0;
        for (int r = 0; r < repeat; r++)
            if (mt[r] == row->ms_median)
                med = r;
        for (int k = 0; k < SIM_PHASE_COUNT; k++)
            row->phase_ms[k] = phases[(t * repeat + med) * SIM_PHASE_COUNT + k] * 1e3 / (double)steps;
        row->threads = sim_threads(sims[t]);
        row->hash = sim_hash(sims[t]);
        row->rings = sim_ring_count(sims[t]);
        row->vertices = sim_vertex_count(sims[t]);
        row->skin = p->ring.skin;
        row->elements = p->ring.skin == SIM_SKIN_MEMBRANE ? 2 * row->vertices
                                                          : sim_spring_count(sims[t]);
        row->bytes_per_vertex = (double)sim_memory_bytes(sims[t]) / (double)row->vertices;
    }
    for (int t = 0; t < n; t++)
        sim_destroy(sims[t]);
    free(ms);
    free(phases);
    return rc;
}

/* The serial reference tick: one thread, no phases, and no state hash
 * (its double-precision state is not the tick's; shown as "-"). */
static int time_reference(const sim_def *p, const scene_def *layout, long steps, int repeat,
                          bench_row *row)
{
    double ms[1000];
    char err[256];
    dinghy_sim *sim = scene_create(p, layout, 0, err, sizeof err);
    if (!sim) {
        fprintf(stderr, "dinghy: bench: %s\n", err);
        return 2;
    }
    row->rings = sim_ring_count(sim);
    for (int r = 0; r < repeat; r++) {
        ref_sim *ref = ref_create(sim);
        if (!ref) {
            sim_destroy(sim);
            fprintf(stderr, "dinghy: bench: out of memory for the reference tick\n");
            return 2;
        }
        ref_step(ref, 1);
        double t0 = omp_get_wtime();
        ref_step(ref, steps);
        ms[r] = (omp_get_wtime() - t0) * 1e3 / (double)steps;
        row->vertices = ref_vertex_count(ref);
        ref_destroy(ref);
    }
    sim_destroy(sim);
    qsort(ms, (size_t)repeat, sizeof ms[0], cmp_double);
    row->ms_median = ms[repeat / 2];
    row->ms_min = ms[0];
    row->threads = 1;
    row->hash = 0;
    row->skin = p->ring.skin;
    row->elements = p->ring.skin == SIM_SKIN_MEMBRANE
                  ? 2 * row->vertices : row->vertices * (size_t)(p->ring.band * p->ring.band) / 2;
    row->bytes_per_vertex = 0.0;
    memset(row->phase_ms, 0, sizeof row->phase_ms);
    return 0;
}

/* Whether phase k took any time in the n rows of a scene: a phase that
 * did not run (the repulsion under skin contact) gets no column. */
static int phase_ran(const bench_row *rows, int n, int k)
{
    for (int i = 0; i < n; i++)
        if (rows[i].phase_ms[k] > 0.0)
            return 1;
    return 0;
}

static void print_table_header(const bench_row *rows, int n, long steps)
{
    const bench_row *r = &rows[0];
    printf("\nscene %s: %d rings, %zu vertices, %s skin (%zu %s), %d substeps a step, %ld steps "
           "per repeat\n", r->scene, r->rings, r->vertices, skin_name(r->skin), r->elements,
           elements_name(r->skin), r->substeps, steps);
    printf("%7s %9s %9s %7s %8s %8s %7s %6s", "threads", "ms/step", "min", "x real", "ns/v-st",
           "ns/v-sub", "speedup", "eff");
    for (int k = 0; k < SIM_PHASE_COUNT; k++)
        if (phase_ran(rows, n, k))
            printf(" %*s", PHASE_WIDTH, phase_label(k, r->skin));
    printf(" %8s %16s\n", "B/vertex", "hash");
}

static void print_table_row(const bench_row *r, const bench_row *scene, int n)
{
    printf("%7d %9.3f %9.3f %7.3g %8.2f %8.2f %7.2f %5.0f%%", r->threads, r->ms_median, r->ms_min,
           r->real_time, r->ns_vertex_step, r->ns_vertex_substep, r->speedup,
           100.0 * r->efficiency);
    for (int k = 0; k < SIM_PHASE_COUNT; k++)
        if (phase_ran(scene, n, k))
            printf(" %*.4f", PHASE_WIDTH, r->phase_ms[k]);
    if (r->hash)
        printf(" %8.1f %016" PRIx64 "\n", r->bytes_per_vertex, r->hash);
    else
        printf(" %8s %16s\n", "-", "-");
}

static int write_csv(const char *path, const bench_row *rows, int n, const char *machine)
{
    char tmp[4200];
    FILE *f = tmp_file_open(path, tmp, sizeof tmp);
    if (!f) {
        fprintf(stderr, "dinghy: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# %s\n", machine);
    fprintf(f, "scene,dinghies,vertices,elements,threads,steps,ms_per_step,ns_per_vertex_step,"
               "speedup,efficiency,hash,ms_min,real_time,substeps,skin");
    for (int k = 0; k < SIM_PHASE_COUNT; k++) /* the skin's kernel as skin_ms, whichever skin */
        fprintf(f, ",%s_ms", k == SIM_PHASE_SPRINGS ? "skin" : phase_label(k, SIM_SKIN_MEMBRANE));
    fprintf(f, ",bytes_per_vertex,ns_per_vertex_substep\n");
    for (int i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fprintf(f, "%s,%d,%zu,%zu,%d,%ld,%.6f,%.4f,%.4f,%.4f,%016" PRIx64 ",%.6f,%.4f,%d,%s",
                r->scene, r->rings, r->vertices, r->elements, r->threads, r->steps, r->ms_median,
                r->ns_vertex_step, r->speedup, r->efficiency, r->hash, r->ms_min, r->real_time,
                r->substeps, skin_name(r->skin));
        for (int k = 0; k < SIM_PHASE_COUNT; k++)
            fprintf(f, ",%.6f", r->phase_ms[k]);
        fprintf(f, ",%.1f,%.4f\n", r->bytes_per_vertex, r->ns_vertex_substep);
    }
    return report_commit_tmp(f, tmp, path, "CSV file");
}

static int write_json(const char *path, const bench_row *rows, int n, const char *machine)
{
    char tmp[4200];
    FILE *f = tmp_file_open(path, tmp, sizeof tmp);
    if (!f) {
        fprintf(stderr, "dinghy: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n  \"machine\": \"");
    for (const char *c = machine; *c; c++)
        fprintf(f, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    fprintf(f, "\",\n  \"rows\": [");
    for (int i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fprintf(f, "%s\n    {\"scene\": \"%s\", \"dinghies\": %d, \"vertices\": %zu, \"skin\": \"%s\", "
                "\"elements\": %zu, "
                "\"threads\": %d, \"steps\": %ld, \"ms_per_step\": %.6f, \"ms_min\": %.6f, "
                "\"ns_per_vertex_step\": %.4f, \"ns_per_vertex_substep\": %.4f, \"speedup\": %.4f, \"efficiency\": %.4f, "
                "\"hash\": \"%016" PRIx64 "\", \"bytes_per_vertex\": %.1f, \"real_time\": %.4f, "
                "\"substeps\": %d, \"phases_ms\": {",
                i ? "," : "", r->scene, r->rings, r->vertices, skin_name(r->skin), r->elements,
                r->threads, r->steps,
                r->ms_median, r->ms_min, r->ns_vertex_step, r->ns_vertex_substep,
                r->speedup, r->efficiency, r->hash,
                r->bytes_per_vertex, r->real_time, r->substeps);
        for (int k = 0; k < SIM_PHASE_COUNT; k++)
            fprintf(f, "%s\"%s\": %.6f", k ? ", " : "",
                    k == SIM_PHASE_SPRINGS ? "skin" : phase_label(k, SIM_SKIN_MEMBRANE), r->phase_ms[k]);
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ]\n}\n");
    return report_commit_tmp(f, tmp, path, "JSON file");
}

int bench_run(const sim_def *params, const scene_def *layout, const bench_options *opt)
{
    int default_threads[MAX_THREAD_COUNTS], nthreads = 0;
    const int *threads = opt->threads;
    if (!threads || opt->nthreads == 0) {
        int cores = omp_get_num_procs();
        for (int t = 1; t < cores && nthreads < MAX_THREAD_COUNTS - 1; t *= 2)
            default_threads[nthreads++] = t;
        default_threads[nthreads++] = cores;
        threads = default_threads;
    } else {
        nthreads = opt->nthreads;
    }
    if (opt->reference)
        nthreads = 1; /* the reference is serial */

    char machine[512];
    machine_line(machine, sizeof machine);
    printf("dinghy bench (%s kernel); %s\n", opt->reference ? "reference" : "parallel tick", machine);
    if (opt->settings)
        printf("settings: %s\n", opt->settings);
    printf("columns: ms/step and min: wall ms per step (median and fastest repeat); x real: "
           "simulated seconds per wall second; ns/v-st: wall ns per vertex-step (median ms/step "
           "over vertices); ns/v-sub: the same per vertex-substep (over the substeps); speedup and eff: over the first thread count; then the phases that "
           "ran: ms per step, as timed by thread 0; B/vertex: heap bytes per vertex\n");
    int cores = omp_get_num_procs();
    for (int t = 0; t < nthreads; t++)
        if (threads[t] > cores) {
            printf("warning: %d threads on %d cores is oversubscribed: those rows time waiting "
                   "threads, not the tick\n", threads[t], cores);
            fprintf(stderr, "dinghy: warning: --threads %d is more than the %d cores here "
                    "(oversubscribed)\n", threads[t], cores);
        }

    suite_scene suite[MAX_ROWS];
    int nscenes = build_suite(layout, suite, MAX_ROWS);
    if (opt->custom_scene) {
        nscenes = 1;
        suite[0].layout = *layout;
        suite[0].seed = 0;
        suite[0].centreline = 0;
        suite[0].springs = 0;
        snprintf(suite[0].name, sizeof suite[0].name, "%s", scene_of(layout)->name);
        /* the contact-heavy scenes with skin contact: the centre-line
         * repulsion timed too, in the same run */
        const char *name = scene_of(layout)->name;
        if (params->ring.contact == SIM_CONTACT_SKIN
            && (strcmp(name, "packed") == 0 || strcmp(name, "pile") == 0)) {
            suite[1] = suite[0];
            suite[1].centreline = 1;
            snprintf(suite[1].name, sizeof suite[1].name, "%scentreline", name);
            nscenes = 2;
        }
    }
    bench_row rows[MAX_ROWS];
    int nrows = 0, rc = 0;
    for (int s = 0; s < nscenes && rc == 0; s++) {
        sim_def physics = *params;
        if (suite[s].seed) {
            physics.world.water.model = SIM_WATER_SEED;
            physics.ring.inflation = SIM_INFLATION_CONSTANT;
            physics.ring.contact = SIM_CONTACT_CENTRELINE;
            physics.ring.skin = SIM_SKIN_SPRINGS;
        }
        if (suite[s].springs)
            physics.ring.skin = SIM_SKIN_SPRINGS;
        if (suite[s].centreline)
            physics.ring.contact = SIM_CONTACT_CENTRELINE;
        const sim_def *p = &physics;
        const scene_def *lay = &suite[s].layout;
        const char *name = suite[s].name;
        size_t vertices = (size_t)scene_of(lay)->ring_count(lay) * (size_t)p->ring.segments
                        * (size_t)p->ring.sides;
        long steps = opt->steps > 0 ? opt->steps : default_steps(vertices, sim_def_substeps(p));
        if (opt->reference && opt->steps <= 0)
            steps = steps / 20 > 0 ? steps / 20 : 1;
        int first = nrows, n = nthreads < MAX_ROWS - nrows ? nthreads : MAX_ROWS - nrows;
        for (int t = 0; t < n; t++) {
            memset(&rows[first + t], 0, sizeof rows[0]);
            snprintf(rows[first + t].scene, sizeof rows[0].scene, "%.31s", name);
            rows[first + t].steps = steps;
        }
        rc = opt->reference ? time_reference(p, lay, steps, opt->repeat, &rows[first])
                            : time_tick(p, lay, threads, n, steps, opt->repeat, &rows[first]);
        if (rc)
            break;
        for (int t = 0; t < n; t++) {
            bench_row *r = &rows[first + t];
            r->ns_vertex_step = r->ms_median * 1e6 / (double)r->vertices;
            r->real_time = p->solver.dt * 1e3 / r->ms_median;
            r->substeps = sim_def_substeps(p);
            r->ns_vertex_substep = r->ns_vertex_step / r->substeps;
            r->speedup = rows[first].ms_median / r->ms_median;
            r->efficiency = r->speedup * rows[first].threads / r->threads;
        }
        print_table_header(&rows[first], n, steps);
        for (int t = 0; t < n; t++)
            print_table_row(&rows[first + t], &rows[first], n);
        nrows += n;
        fflush(stdout);
        for (int i = first + 1; i < nrows && rc == 0; i++)
            if (rows[i].hash != rows[first].hash) {
                printf("\n*** HASH MISMATCH in scene %s: %016" PRIx64 " with %d threads, %016" PRIx64
                       " with %d: the tick is not deterministic ***\n", name, rows[i].hash,
                       rows[i].threads, rows[first].hash, rows[first].threads);
                fprintf(stderr, "dinghy: bench: state hash differs between thread counts in scene %s\n",
                        name);
                rc = 1;
            }
    }
    /* The machine's limit: a bare stream of each skin's elements timed */
    double floor_ns[2] = {NAN, NAN}; /* per vertex-substep: membrane, springs */
    int used[2] = {0, 0};
    for (int i = 0; i < nrows; i++)
        used[rows[i].skin == SIM_SKIN_MEMBRANE ? 0 : 1] = 1;
    if (nrows > 0)
        printf("\nfloor: a bare stream of the skin's elements (float, from L1, one thread) on this "
               "machine:\n");
    if (used[0]) {
        double tri = bench_membrane_floor_ns();
        floor_ns[0] = 2.0 * tri; /* two triangles a vertex */
        printf("  membrane: %.3f ns per triangle (%d flops: %.1f GFLOP/s), 2 triangles a vertex: "
               "%.2f ns per vertex-substep\n", tri, BENCH_TRIANGLE_FLOPS,
               BENCH_TRIANGLE_FLOPS / tri, floor_ns[0]);
    }
    if (used[1]) {
        double spring = bench_spring_floor_ns();
        int per_vertex = (params->ring.band * params->ring.band - 1) / 2 + 1;
        floor_ns[1] = spring * per_vertex;
        printf("  springs: %.3f ns per spring, %d springs a vertex: %.2f ns per vertex-substep\n",
               spring, per_vertex, floor_ns[1]);
    }
    /* One line per scene: what to quote. */
    if (nrows > 0)
        printf("\nsummary (ns per vertex-step on %d thread%s, and as a multiple of the floor of "
               "its skin times its substeps; best speedup; state hash; ns per vertex-substep):\n", rows[0].threads,
               rows[0].threads == 1 ? "" : "s");
    for (int i = 0; i < nrows;) {
        int j = i, best = i;
        for (; j < nrows && strcmp(rows[j].scene, rows[i].scene) == 0; j++)
            if (rows[j].speedup > rows[best].speedup)
                best = j;
        double floor_step = floor_ns[rows[i].skin == SIM_SKIN_MEMBRANE ? 0 : 1] * rows[i].substeps;
        printf("  %-16s %8.2f ns   %.3gx real time, %.3gx at %d threads   speedup %.2f   hash %016"
               PRIx64 "   %.1fx the %s floor   %.2f ns per vertex-substep\n", rows[i].scene,
               rows[i].ns_vertex_step, rows[i].real_time, rows[best].real_time, rows[best].threads,
               rows[best].speedup, rows[i].hash, rows[i].ns_vertex_step / floor_step,
               skin_name(rows[i].skin), rows[i].ns_vertex_substep);
        i = j;
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        printf("\npeak resident memory of the process: %.1f MiB\n", ru.ru_maxrss / 1024.0);
    if (opt->csv && write_csv(opt->csv, rows, nrows, machine) != 0 && rc == 0)
        rc = 2;
    if (opt->json && write_json(opt->json, rows, nrows, machine) != 0 && rc == 0)
        rc = 2;
    return rc;
}
