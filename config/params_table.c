/* Every configurable parameter, its range, unit and meaning. */
#include "config/params_table.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOFF(field) offsetof(dinghy_settings, sim.solver.field)
#define WOFF(field) offsetof(dinghy_settings, sim.world.field)
#define DOFF(field) offsetof(dinghy_settings, sim.ring.field)
#define COFF(field) offsetof(dinghy_settings, scene.field)
#define ROFF(field) offsetof(dinghy_settings, render.field)
#define AOFF(field) offsetof(dinghy_settings, audio.field)
#define POFF(field) offsetof(dinghy_settings, spray.field)

static const char *scene_choice(int i)
{
    return i >= 0 && i < scene_registry_count ? scene_registry[i]->name : NULL;
}

/* The i-th of a fixed list of names, or NULL past its end. */
static const char *name_at(const char *const *names, int count, int i)
{
    return i >= 0 && i < count ? names[i] : NULL;
}
#define NAMES(...) (const char *const[]){__VA_ARGS__}, \
                   (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* Names in the order of the enums of include/dinghy/defs.h. */
static const char *water_model_choice(int i) { return name_at(NAMES("exact", "seed"), i); }
static const char *inflation_choice(int i) { return name_at(NAMES("gas", "constant"), i); }
static const char *contact_choice(int i) { return name_at(NAMES("skin", "centreline"), i); }
static const char *skin_choice(int i) { return name_at(NAMES("membrane", "springs"), i); }

int param_choice_index(const param_key *k, const char *name)
{
    for (int i = 0; k->choice(i); i++)
        if (strcmp(k->choice(i), name) == 0)
            return i;
    return -1;
}

const param_key param_table[] = {
    {"sim.dt", PK_DOUBLE, SOFF(dt), 1e-6, 0.1, "s", "time step of the physics (one frame at 60 Hz; cut into substeps at the stability bound)", NULL},
    {"sim.substeps", PK_INT, SOFF(substeps), 0, SIM_SUBSTEPS_CAP, "", "equal substeps per step; 0 = as many as stability needs (automatic)", NULL},
    {"sim.threads", PK_INT, SOFF(threads), 0, 1024, "", "OpenMP threads for the tick; 0 = all cores, or one when it is faster", NULL},
    {"sim.damping", PK_DOUBLE, SOFF(damping), 0, 1000, "1/s", "velocity damping rate: v *= exp(-damping dt)", NULL},
    {"sim.seed", PK_U64, COFF(seed), 0, 18446744073709551615.0, "", "seed of random scene layouts and of the river's course and rocks", NULL},
    {"world.gravity", PK_DOUBLE, WOFF(gravity), 0, 1000, "m/s^2", "downward acceleration of gravity", NULL},
    {"world.air_pressure", PK_DOUBLE, WOFF(air_pressure), 1000, 1e7, "Pa", "ambient air pressure (the gas inside a ring pushes against it)", NULL},
    {"world.air_density", PK_DOUBLE, WOFF(air_density), 0, 100, "kg/m^3", "air density: faces above the water feel drag and lift in it", NULL},
    {"water.model", PK_CHOICE, WOFF(water.model), 0, 0, "", "exact: Archimedes from the pressure on the clipped skin, drag and lift per face; seed: the published toy model (water.buoyancy)", water_model_choice},
    {"water.level", PK_DOUBLE, WOFF(water.level), -1000, 1000, "m", "height of the still water surface", NULL},
    {"water.density", PK_DOUBLE, WOFF(water.density), 1, 100000, "kg/m^3", "water density (exact model: pressure rho g depth, drag and lift)", NULL},
    {"water.drag_coefficient", PK_DOUBLE, WOFF(water.drag_coefficient), 0, 100, "", "C_D of the quadratic drag on each leading face, F = C_D rho A |u|^2 cos (exact model)", NULL},
    {"water.lift_coefficient", PK_DOUBLE, WOFF(water.lift_coefficient), 0, 100, "", "C_L of the lift across the flow on each leading face (exact model)", NULL},
    {"water.drag", PK_DOUBLE, WOFF(water.drag), 0, 1000, "1/s", "linear damping rate of vertices under water, relative to the water (both models)", NULL},
    {"water.buoyancy", PK_DOUBLE, WOFF(water.buoyancy), 0, 100000, "1/s^2", "seed model: upward acceleration per metre a vertex is under water", NULL},
    {"river.speed", PK_DOUBLE, WOFF(river.speed), 0, 8, "m/s", "surface speed mid-channel in the straight reaches (scene rapids)", NULL},
    {"river.waves", PK_DOUBLE, WOFF(river.waves), 0, 1, "m", "wave amplitude below drops; rock waves and chop scale with it", NULL},
    {"river.width", PK_DOUBLE, WOFF(river.width), 4, 40, "m", "channel width at the water line in the straight reaches", NULL},
    {"river.depth", PK_DOUBLE, WOFF(river.depth), 0.5, 5, "m", "water depth mid-channel in the straight reaches", NULL},
    {"river.length", PK_DOUBLE, WOFF(river.length), 30, 1000, "m", "course length from the upstream start to where rings are dropped in again", NULL},
    {"river.bend", PK_DOUBLE, WOFF(river.bend), 1.5, 20, "", "bend radius of the course, in widths", NULL},
    {"river.drops", PK_INT, WOFF(river.drops), 0, 8, "", "drops where the surface steps down (at most one per 15 m)", NULL},
    {"river.drop_height", PK_DOUBLE, WOFF(river.drop_height), 0, 2, "m", "fall of the surface over each drop", NULL},
    {"river.rocks", PK_INT, WOFF(river.rocks), 0, 200, "", "how many rocks stand out of the water (at most one per 6 m), placed by sim.seed", NULL},
    {"waves.enabled", PK_INT, WOFF(waves_enabled), 0, 1, "", "1: the rings make waves that spread, ride the current and move the rings they reach (about 15% of a rapids step); 0: the prescribed water", NULL},
    {"waves.damping", PK_DOUBLE, WOFF(waves.damping), 0, 100, "1/s", "decay rate of the waves' motion: a wave's energy falls as exp(-damping t) (0: only the banks and the edges take it)", NULL},
    {"scene.name", PK_CHOICE, COFF(index), 0, 0, "", "the scene to build (see dinghy --help for the list)", scene_choice},
    {"scene.count", PK_INT, COFF(count), 1, 1000000, "", "number of rings in the grid, rapids and packed scenes", NULL},
    {"scene.spacing", PK_DOUBLE, COFF(spacing), 0.01, 1000, "m", "distance between ring centres (pair, grid, rapids)", NULL},
    {"scene.height", PK_DOUBLE, COFF(height), -100, 1000, "m", "drop height of ring centres above the water", NULL},
    {"scene.speed", PK_DOUBLE, COFF(speed), 0, 100, "m/s", "initial speed: ring 0 of pair, the crowd of rapids", NULL},
    {"dinghy.segments", PK_INT, DOFF(segments), 3, 4096, "", "M, vertices round the ring", NULL},
    {"dinghy.sides", PK_INT, DOFF(sides), 2, 4096, "", "N, vertices round the tube (even)", NULL},
    {"dinghy.band", PK_INT, DOFF(band), 1, 31, "", "springs skin: B, springs reach a B x B neighbourhood (odd, <= segments and sides)", NULL},
    {"dinghy.major_radius", PK_DOUBLE, DOFF(major_radius), 0.01, 100, "m", "R, ring centre to tube centre", NULL},
    {"dinghy.minor_radius", PK_DOUBLE, DOFF(minor_radius), 0.001, 50, "m", "r, tube radius (less than major_radius)", NULL},
    {"dinghy.mass", PK_DOUBLE, DOFF(mass), 1e-6, 1e6, "kg", "total mass of one ring (default: a tractor tyre's inner tube, 7.9 m^2 of 1.6 mm rubber at 1150 kg/m^3)", NULL},
    {"dinghy.stiffness", PK_DOUBLE, DOFF(stiffness), 1, 1e9, "N/m", "springs skin: spring constant of every spring (0 holds no shape at all: not allowed)", NULL},
    {"dinghy.inflation", PK_CHOICE, DOFF(inflation), 0, 0, "", "gas: an ideal gas, p V = p0 V0, pushing on every face; constant: dinghy.pressure on every vertex", inflation_choice},
    {"dinghy.gauge_pressure", PK_DOUBLE, DOFF(gauge_pressure), 0, 1e6, "Pa", "gas: pressure above the air's in the inflated ring (soft-blown tube 2 kPa; towables, raft tubes 14-17 kPa); may strain a membrane by at most 1", NULL},
    {"dinghy.pressure", PK_DOUBLE, DOFF(pressure), 0, 1e6, "N", "constant inflation: outward force on every vertex", NULL},
    {"dinghy.repulsion", PK_DOUBLE, DOFF(repulsion), 0, 1e6, "N", "centre-line contact: repulsion strength S between rings, per-vertex force S gap^-e", NULL},
    {"dinghy.repulsion_exponent", PK_DOUBLE, DOFF(repulsion_exponent), 0, 16, "", "centre-line contact: e, power of the repulsion law", NULL},
    {"dinghy.contact_range", PK_DOUBLE, DOFF(contact_range), 0.001, 10, "m", "centre-line contact: tube-surface gap below which repulsion acts", NULL},
    /* skin contact */
    {"dinghy.contact", PK_CHOICE, DOFF(contact), 0, 0, "", "skin: the skins touch (vertex against triangle, friction); centreline: the seed's repulsion between tube centre-lines", contact_choice},
    {"dinghy.contact_thickness", PK_DOUBLE, DOFF(contact_thickness), 1e-5, 0.1, "m", "skin contact: how far apart touching skins are held (below half the mesh's shortest grid step)", NULL},
    {"dinghy.friction", PK_DOUBLE, DOFF(friction), 0, 10, "", "skin contact: Coulomb friction coefficient mu between skins (they slide when the tangential force would pass mu N)", NULL},
    {"dinghy.edge_contact", PK_INT, DOFF(edge_contact), 0, 1, "", "skin contact: 1 also pairs edges of different rings (crossing edges held apart; the rapids' step 12-14% slower), 0 vertex against triangle only", NULL},
    {"dinghy.skin", PK_CHOICE, DOFF(skin), 0, 0, "", "membrane: a skin of a material, the gas holds the shape; springs: the seed's B x B and across-tube springs", skin_choice},
    {"dinghy.youngs_modulus", PK_DOUBLE, DOFF(youngs_modulus), 1e5, 1e10, "Pa", "membrane: Young's modulus E (rubber 0.1-4 MPa, soft PVC 10-400 MPa, rigid vinyl 2.4-4 GPa); the gauge may strain it by 1, the weight by 0.25", NULL},
    {"dinghy.thickness", PK_DOUBLE, DOFF(thickness), 1e-6, 0.1, "m", "membrane: skin thickness t (rubber inner tubes 1.5-3 mm; vinyl pool toys 0.25 mm, river tubes 0.5-0.75 mm); see dinghy.youngs_modulus", NULL},
    {"dinghy.poisson_ratio", PK_DOUBLE, DOFF(poisson_ratio), 0, 0.499, "", "membrane: Poisson's ratio nu of the skin (rubber 0.49: nearly incompressible)", NULL},
    {"dinghy.hole_diameter", PK_DOUBLE, DOFF(hole_diameter), 0, 1, "m", "every ring starts with a round hole this wide, losing gas by the orifice law (0: none)", NULL},
    {"render.width", PK_INT, ROFF(width), 16, 16384, "px", "window and screenshot width", NULL},
    {"render.height", PK_INT, ROFF(height), 16, 16384, "px", "window and screenshot height", NULL},
    {"render.fps", PK_INT, ROFF(fps), 1, 240, "1/s", "frames per simulated second of --record and --video", NULL},
    {"render.resolution_scale", PK_DOUBLE, ROFF(resolution_scale), 0, 1, "", "demo window: the 3-D scene at this fraction of its size, scaled up; 0: automatic, 0.5 to 1 by the frame time; under 0.25: 0.25; pictures stay full size", NULL},
    {"render.target_fps", PK_INT, ROFF(target_fps), 1, 240, "1/s", "frames per second the automatic render.resolution_scale aims at in the demo window", NULL},
    {"spray.budget", PK_INT, POFF(budget), 0, 1000000, "", "most spray droplets alive at once (splashes, rock hits, the river breaking); 0: no spray", NULL},
    {"audio.enabled", PK_INT, AOFF(enabled), 0, 1, "", "1 plays sound in the demo and in headless runs given --audio (--mute silences it), 0 none at all", NULL},
    {"audio.volume", PK_DOUBLE, AOFF(volume), 0, 1, "", "master volume", NULL},
    {"audio.contact_volume", PK_DOUBLE, AOFF(contact_volume), 0, 1, "", "volume of ring-on-ring squeaks", NULL},
    {"audio.splash_volume", PK_DOUBLE, AOFF(splash_volume), 0, 1, "", "volume of splashes", NULL},
    {"audio.ambience_volume", PK_DOUBLE, AOFF(ambience_volume), 0, 1, "", "volume of the rushing-water loop", NULL},
};
const int param_table_count = (int)(sizeof param_table / sizeof param_table[0]);

/* Which keys do nothing under which models: the reading of physics/ (the
 * tick, the gas, the contact, the stability bound), one line per key and
 * model. Keys that a scene alone ignores (river.* off the river) are not
 * here: a config file serves every scene. */
const param_inert param_inert_table[] = {
    /* the skin: the membrane's material, or the seed's springs */
    {"dinghy.stiffness", "dinghy.skin", "membrane",
     "the membrane's stiffness is dinghy.youngs_modulus", "dinghy.youngs_modulus"},
    {"dinghy.band", "dinghy.skin", "membrane",
     "the membrane's triangles join next neighbours only; its stiffness is dinghy.youngs_modulus",
     "dinghy.youngs_modulus"},
    {"dinghy.youngs_modulus", "dinghy.skin", "springs",
     "the springs' stiffness is dinghy.stiffness", "dinghy.stiffness"},
    {"dinghy.thickness", "dinghy.skin", "springs",
     "the springs' stiffness is dinghy.stiffness", "dinghy.stiffness"},
    {"dinghy.poisson_ratio", "dinghy.skin", "springs",
     "the springs' stiffness is dinghy.stiffness", "dinghy.stiffness"},
    /* the inflation: a gas, or a constant push on every vertex */
    {"dinghy.pressure", "dinghy.inflation", "gas",
     "the gas's push is dinghy.gauge_pressure", "dinghy.gauge_pressure"},
    {"dinghy.gauge_pressure", "dinghy.inflation", "constant",
     "the constant inflation's push is dinghy.pressure", "dinghy.pressure"},
    {"dinghy.hole_diameter", "dinghy.inflation", "constant",
     "there is no gas to lose; holes need dinghy.inflation = gas", "dinghy.inflation"},
    {"world.air_pressure", "dinghy.inflation", "constant",
     "only a gas pushes against it; the constant inflation's push is dinghy.pressure",
     "dinghy.pressure"},
    /* the contact: skins touching, or the seed's centre-line repulsion */
    {"dinghy.repulsion", "dinghy.contact", "skin",
     "touching skins are held dinghy.contact_thickness apart", "dinghy.contact_thickness"},
    {"dinghy.repulsion_exponent", "dinghy.contact", "skin",
     "touching skins are held dinghy.contact_thickness apart", "dinghy.contact_thickness"},
    {"dinghy.contact_range", "dinghy.contact", "skin",
     "touching skins are held dinghy.contact_thickness apart", "dinghy.contact_thickness"},
    {"dinghy.contact_thickness", "dinghy.contact", "centreline",
     "the centre-line repulsion acts within dinghy.contact_range", "dinghy.contact_range"},
    {"dinghy.friction", "dinghy.contact", "centreline",
     "the centre-line repulsion has no friction, and its strength is dinghy.repulsion",
     "dinghy.repulsion"},
    {"dinghy.edge_contact", "dinghy.contact", "centreline",
     "the centre-line repulsion acts within dinghy.contact_range of the tube centre-lines, not between edges",
     "dinghy.contact_range"},
    /* the water: Archimedes and drag per face, or the seed's toy model */
    {"water.buoyancy", "water.model", "exact",
     "the exact model's buoyancy is Archimedes' from water.density", "water.density"},
    {"water.density", "water.model", "seed",
     "the seed model's buoyancy is water.buoyancy", "water.buoyancy"},
    {"water.drag_coefficient", "water.model", "seed",
     "the seed model's drag is water.drag", "water.drag"},
    {"water.lift_coefficient", "water.model", "seed",
     "the seed model has no lift, and its drag is water.drag", "water.drag"},
};
const int param_inert_count = (int)(sizeof param_inert_table / sizeof param_inert_table[0]);

const param_inert *param_inert_under(const param_key *k, const dinghy_settings *p)
{
    for (int i = 0; i < param_inert_count; i++) {
        const param_inert *e = &param_inert_table[i];
        if (strcmp(e->key, k->name) != 0)
            continue;
        const param_key *m = param_find(e->model);
        if (m && param_choice_index(m, e->choice) == *(const int *)((const char *)p + m->offset))
            return e;
    }
    return NULL;
}

const char *param_sections_text(void)
{
    static char text[256];
    if (text[0])
        return text;
    size_t used = 0;
    for (int i = 0; i < param_table_count; i++) {
        const char *name = param_table[i].name;
        size_t len = (size_t)(strchr(name, '.') - name);
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strncmp(param_table[j].name, name, len + 1) == 0;
        if (!seen && used + len + 3 < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%.*s", used ? ", " : "",
                                     (int)len, name);
    }
    return text;
}

int param_is_structural(const param_key *k)
{
    static const struct {
        size_t start, size;
        sim_def_part part;
    } parts[] = {
        {offsetof(dinghy_settings, sim.solver), sizeof(sim_solver_def), SIM_PART_SOLVER},
        {offsetof(dinghy_settings, sim.world), sizeof(sim_world_def), SIM_PART_WORLD},
        {offsetof(dinghy_settings, sim.ring), sizeof(sim_ring_def), SIM_PART_RING},
    };
    if (k->offset >= offsetof(dinghy_settings, scene)
        && k->offset < offsetof(dinghy_settings, scene) + sizeof(scene_def))
        return 1; /* a new layout is a new scene */
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (k->offset >= parts[i].start && k->offset < parts[i].start + parts[i].size)
            return !sim_field_is_live(parts[i].part, k->offset - parts[i].start);
    return 0; /* render and audio settings apply at once */
}

const param_key *param_for_field(sim_def_part part, size_t offset)
{
    size_t base = part == SIM_PART_SOLVER ? offsetof(dinghy_settings, sim.solver)
                : part == SIM_PART_WORLD ? offsetof(dinghy_settings, sim.world)
                : offsetof(dinghy_settings, sim.ring);
    for (int i = 0; i < param_table_count; i++)
        if (param_table[i].offset == base + offset)
            return &param_table[i];
    return NULL;
}

const param_key *param_find(const char *name)
{
    for (int i = 0; i < param_table_count; i++)
        if (strcmp(param_table[i].name, name) == 0)
            return &param_table[i];
    return NULL;
}

int param_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The edit distance of a and b, or 1000 when their lengths alone put it
 * above limit (a cheap cut: unknown keys in a long file are many). */
static int distance_within(const char *a, const char *b, int limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > (size_t)limit)
        return 1000;
    return param_edit_distance(a, b);
}

const char *param_suggest(const char *name)
{
    size_t len = strlen(name);
    int allowed = len < 6 ? 1 : len < 12 ? 2 : 3;
    const char *best = NULL;
    int best_d = 1000;
    for (int i = 0; i < param_table_count; i++) {
        const char *full = param_table[i].name, *key = strchr(full, '.') + 1;
        int d = distance_within(name, full, allowed);
        /* a right key in the wrong section, or a bare key, also counts */
        const char *dot = strchr(name, '.');
        int dk = distance_within(dot ? dot + 1 : name, key, allowed);
        if (dk < d)
            d = dk;
        if (d < best_d) {
            best_d = d;
            best = full;
        }
    }
    return best_d <= allowed ? best : NULL;
}

/* Shortest %g text that reads back as exactly v. */
static void format_double(double v, char *buf, size_t len)
{
    /* Below 1e7, at least as many digits as the integer part: 100, not 1e+02. */
    int first = 1;
    for (double a = fabs(v); a >= 10.0 && a < 1e7; a /= 10.0)
        first++;
    for (int prec = first; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void param_format(const dinghy_settings *p, const param_key *k, char *buf, size_t len)
{
    const char *field = (const char *)p + k->offset;
    switch (k->type) {
    case PK_DOUBLE: format_double(*(const double *)field, buf, len); break;
    case PK_INT: snprintf(buf, len, "%d", *(const int *)field); break;
    case PK_U64: snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field); break;
    case PK_CHOICE: {
        const char *name = k->choice(*(const int *)field);
        snprintf(buf, len, "%s", name ? name : "?");
        break;
    }
    }
}

void param_range_text(const param_key *k, char *buf, size_t len)
{
    if (k->type == PK_CHOICE) {
        size_t used = (size_t)snprintf(buf, len, "one of");
        for (int i = 0; k->choice(i) && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s %s", i ? "," : "", k->choice(i));
        return;
    }
    if (k->type == PK_U64) {
        snprintf(buf, len, "an integer from 0 to 18446744073709551615");
        return;
    }
    char lo[32], hi[32];
    if (k->type == PK_INT) {
        snprintf(lo, sizeof lo, "%.0f", k->min);
        snprintf(hi, sizeof hi, "%.0f", k->max);
    } else {
        format_double(k->min, lo, sizeof lo);
        format_double(k->max, hi, sizeof hi);
    }
    snprintf(buf, len, "%s%s to %s%s%s", k->type == PK_INT ? "an integer from " : "", lo, hi,
             *k->unit ? " " : "", k->unit);
}
