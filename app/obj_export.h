/* Wavefront OBJ export of the ring meshes: one named object per ring,
 * vertex normals, outward winding, for Blender or MeshLab. */
#ifndef DINGHY_OBJ_EXPORT_H
#define DINGHY_OBJ_EXPORT_H

#include "dinghy/sim.h"

/* Writes the current state to path (through a temporary file renamed into
 * place when complete). Returns 0, or -1 with a message on stderr. */
int obj_export(const dinghy_sim *sim, const char *path);

#endif
