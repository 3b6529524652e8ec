/* The on-screen tuning panel's model (no GL, no window): a list of the
 * live tunables with their values and units, a selected row, changes in
 * sensible steps applied through the reload path (reload_apply), and a
 * save of the values back into the config file in use.
 *
 * The rows are every key of the config table (config/params_table.c) that
 * belongs to the physics definition and that the core takes on a running
 * simulation (sim_field_is_live): time step, substeps, threads, damping,
 * gravity, air, water, river speed and waves, stiffness, inflation,
 * pressures, repulsion, contact range. Steps:
 *  - a scale quantity (a real key whose range starts above 0, like
 *    stiffness, water density or the time step; and pressures, repulsion
 *    and seed buoyancy) moves by x1.25 per step along the preferred
 *    numbers 1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8 (x 10^n), so up
 *    then down comes back to the same number; below 1/100 of its default
 *    a key whose range starts at 0 goes to 0, and up from 0 to that value;
 *  - other real keys move by a fixed amount (damping and drag 0.1 1/s,
 *    gravity 0.1 m/s^2, air density 0.1 kg/m^3, water level 0.05 m,
 *    drag and lift coefficients 0.05, river speed 0.25 m/s, waves 0.05 m,
 *    repulsion exponent 0.25), landing on multiples of it;
 *  - whole numbers by 1; choices (water.model, dinghy.inflation) cycle.
 * Every result is clamped to the key's allowed range. */
#ifndef DINGHY_PANEL_H
#define DINGHY_PANEL_H

#include <stddef.h>

#include "config/build.h"
#include "config/settings.h"
#include "dinghy/sim.h"
#include "app/reload.h"

typedef struct panel panel;

/* The rows, first selected. NULL when out of memory. */
panel *panel_create(void);
void panel_destroy(panel *p);

/* Number of rows, and the config key of row i ("dinghy.stiffness"). */
int panel_rows(const panel *p);
const char *panel_row_key(const panel *p, int i);

/* The selected row. */
int panel_selected(const panel *p);

/* Moves the selection by delta rows (negative = up), stopping at the ends. */
void panel_move(panel *p, int delta);

/* Selects the row shown on text line `line` of panel_format's text (0 =
 * the first line), for a mouse click. Returns the row, or -1 (nothing
 * changes) when that line is not a row. */
int panel_select_at(panel *p, int line);

/* Changes the selected key by `steps` steps (negative = down; see the top
 * of the file), clamped to its range, and applies the result to *settings
 * and the running *sim through reload_apply (source "panel"), which fills
 * rep. A change that the clamp makes nothing is RELOAD_SAME. The panel
 * keeps a one-line message of the outcome for its footer. Returns
 * rep->result. */
reload_result panel_change(panel *p, int steps, dinghy_settings *settings, dinghy_sim **sim,
                           reload_report *rep);

/* Lines before the first row in panel_format's text. */
#define PANEL_HEADER_LINES 3

/* Writes the panel as text, '\n' between lines: a title and the keys to
 * use, then one row per tunable "  dinghy.stiffness      1500 N/m" (the
 * selected row starts "> "), then the last message (a change, a save or
 * an error). Fits HUD_TEXT_MAX (2048 bytes); cut short when len is less. */
void panel_format(const panel *p, const dinghy_settings *s, char *buf, size_t len);

/* The layers the running settings were built from (kept by pointer: src
 * must outlive the panel), so that panel_save leaves a key that a --set
 * (or --threads) fixes out of the file while it still has that value: the
 * flag keeps overriding the file, and the file does not collect the flags
 * of one run. Without it every key that differs is written. */
void panel_set_source(panel *p, const config_source *src);

/* Saves s. With a config file (config_path not NULL): rewrites the file
 * with s's values (config_save_text: comments, order and layout kept; only
 * the keys whose values differ change, missing ones are added), written
 * whole to a temporary file beside it (or beside the target of a symbolic
 * link, which stays a link), given the file's permissions and renamed over
 * it; on any error the file is left as it was. Building the settings from
 * the file and the --set flags then gives s, so the config watch's reload
 * reports no changes (but for a key the panel moved away from its --set:
 * msg says that flag still overrides the file). Without a config
 * file: nothing is written, and msg lists the --set flags that reproduce s
 * (the keys that differ from the defaults). Writes one line into msg (also
 * kept for the footer). Returns 0 when saved (or nothing to save), -1 on
 * error. */
int panel_save(panel *p, const dinghy_settings *s, const char *config_path, char *msg,
               size_t len);

#endif
