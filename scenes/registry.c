/* The table of scenes and the helpers that create and rebuild them. */
#include "dinghy/scene.h"

#include <string.h>

#define SCENE(name) extern const scene_entry scene_##name;
#include "scenes/list.h"
#undef SCENE

const scene_entry *const scene_registry[] = {
#define SCENE(name) &scene_##name,
#include "scenes/list.h"
#undef SCENE
};
const int scene_registry_count = (int)(sizeof scene_registry / sizeof scene_registry[0]);

scene_def scene_def_default(void)
{
    scene_def d = {
        .index = scene_index("rapids"),
        .count = 64, .spacing = 2.4, .height = 1.5, .speed = 2.0, .seed = 1,
    };
    return d;
}

int scene_index(const char *name)
{
    for (int i = 0; i < scene_registry_count; i++)
        if (strcmp(scene_registry[i]->name, name) == 0)
            return i;
    return -1;
}

const scene_entry *scene_find(const char *name)
{
    int i = scene_index(name);
    return i < 0 ? NULL : scene_registry[i];
}

const scene_entry *scene_of(const scene_def *layout)
{
    int i = layout->index;
    return scene_registry[i < 0 ? 0 : i >= scene_registry_count ? scene_registry_count - 1 : i];
}

dinghy_sim *scene_create(const sim_def *def, const scene_def *layout, int capacity, char *err,
                         size_t err_len)
{
    int n = scene_of(layout)->ring_count(layout);
    dinghy_sim *sim = sim_create(def, n > capacity ? n : capacity, err, err_len);
    if (sim)
        scene_rebuild(sim, layout);
    return sim;
}

void scene_rebuild(dinghy_sim *sim, const scene_def *layout)
{
    sim_clear_rings(sim);
    scene_of(layout)->build(sim, layout);
}
