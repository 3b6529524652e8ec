/* The scene registry: every scene the demo, the benchmark, the tests and
 * the config know, built through the physics core's public API (like
 * Box2D's shared/ folder). A scene is one file defining a scene_entry and
 * one line in scenes/list.h; nothing else needs to know about it. */
#ifndef DINGHY_SCENE_H
#define DINGHY_SCENE_H

#include <stdint.h>

#include "dinghy/sim.h"

/* How a scene lays rings out: the scene.* settings. */
typedef struct {
    int index;            /* which scene: an index into scene_registry */
    int count;            /* rings in the scenes that take a count */
    double spacing;       /* distance between neighbouring ring centres, m */
    double height;        /* drop height of ring centres above the water, m */
    double speed;         /* initial speed of the moving ring (pair) or crowd, m/s */
    uint64_t seed;        /* random seed of the layouts (sim.seed) */
} scene_def;

scene_def scene_def_default(void);

typedef struct {
    const char *name;        /* what scene.name and --bench call it */
    const char *description; /* one line for --help */
    /* Rings the scene places for this layout and ring definition. */
    int (*ring_count)(const scene_def *layout);
    /* Places the rings into an empty simulation with sim_add_ring. */
    void (*build)(dinghy_sim *sim, const scene_def *layout);
    double seconds;          /* simulated time of a headless run that asks for no --steps, s */
    /* Ring counts the benchmark suite times this scene at (0-terminated);
     * NULL: not in the suite. */
    const int *bench_counts;
} scene_entry;

extern const scene_entry *const scene_registry[];
extern const int scene_registry_count;

/* The entry called name, or NULL. */
const scene_entry *scene_find(const char *name);
/* Index of the entry called name in scene_registry, or -1. */
int scene_index(const char *name);
/* The entry a layout names (index clamped into the registry). */
const scene_entry *scene_of(const scene_def *layout);

/* Creates a simulation of def with room for the scene's rings (at least
 * `capacity`) and builds the scene. NULL when out of memory (err says so). */
dinghy_sim *scene_create(const sim_def *def, const scene_def *layout, int capacity, char *err,
                         size_t err_len);

/* Empties the simulation and builds the layout's scene again (the demo's
 * reset). The simulation must have room for its rings. */
void scene_rebuild(dinghy_sim *sim, const scene_def *layout);

#endif
