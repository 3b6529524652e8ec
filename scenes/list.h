/* Every scene, one line each, in the order --help and --bench list them.
 * X-macro: includers define SCENE(name) first; name is the scene_entry
 * called scene_<name> that scenes/<name>.c defines. */
SCENE(single)
SCENE(pair)
SCENE(grid)
SCENE(rapids)
SCENE(lake)
SCENE(packed)
SCENE(pile)
