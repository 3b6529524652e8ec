/* Water-physics kernels (docs/physics.md sections 3-5): exact hydrostatic loads on
 * a triangle clipped at the surface, the gas helpers of an inflated closed
 * mesh, and per-face drag and lift relative to the water.
 *
 * Pure functions in double precision: no allocation, no globals, no I/O.
 * Every accumulating function ADDS to its outputs (clear them first), so a
 * mesh is summed face by face in a fixed order and the result is
 * deterministic. Meshes are flat arrays: vertex i at x[3i .. 3i+2] (m),
 * triangle f at tri[3f .. 3f+2] (vertex indices, outward winding). Vertices
 * are passed as separate pointers (not const double[3][3]) so that callers
 * with non-const arrays get no ISO C qualifier warning. */
#ifndef DINGHY_HYDRO_H
#define DINGHY_HYDRO_H

/* ---- hydrostatic pressure (section 4) ---- */

/* Hydrostatic loads on the triangle a, b, c (m, outward winding), with
 * depth[i] (m) of its vertex i below the water surface (negative = above).
 * The pressure head is max(0, depth), depth linear over the triangle.
 *
 * Adds to load[0..2] (the vertices a, b, c) the consistent vertex loads of
 * -integral of max(0, depth) n dA over the triangle, m^3 (multiply by
 * rho g for N). The wet part is clipped exactly at depth = 0 (cut point on
 * edge (i, j) at t = d_i / (d_i - d_j)), split into triangles of the
 * parent's winding, and each cut point's load is handed to its edge's
 * vertices with weights (1 - t, t). Both the total force and its torque
 * about any point are exact (not 1/3 lumping).
 *
 * moments (may be NULL): adds this triangle's share of {V_sub, int x dV,
 * int y dV, int z dV} of the submerged volume (m^3, m^4), by the divergence
 * theorem over the wet skin with fields that vanish on the waterplane:
 *   V_sub    = -int depth n_z dA,   int x dV = -int depth x n_z dA,
 *   int y dV = -int depth y n_z dA, int z dV = -int depth (z + depth/2) n_z dA
 * (z + depth/2 = (z + eta)/2). Up is +z; exact when the surface is
 * horizontal over the body (depth = eta - z), no eta argument needed. Summed
 * over a closed mesh, the centre of buoyancy is moments[1..3] / moments[0].
 *
 * Returns the wet area of the triangle, m^2 (0 .. its area). */
double hydro_triangle_loads(const double a[3], const double b[3], const double c[3],
                            const double depth[3], double load[3][3], double moments[4]);

/* hydro_triangle_loads over the nt triangles of a mesh (flat arrays, see
 * above) with depth[i] per vertex (m): adds to load[3i .. 3i+2] (m^3) and
 * to moments (may be NULL). Returns the total wet area, m^2. */
double hydro_mesh_loads(int nt, const int *tri, const double *x, const double *depth,
                        double *load, double moments[4]);

/* ---- gas pressure (section 3) ---- */

/* Signed volume of the tetrahedron (0, a, b, c): a . (b x c) / 6, m^3.
 * Summed over the faces of a closed outward mesh: its volume. */
double hydro_tet_volume(const double a[3], const double b[3], const double c[3]);

/* Area-normal of the triangle a, b, c: an = (b - a) x (c - a) / 2, m^2
 * (|an| = area, direction the outward normal for outward winding). */
void hydro_area_normal(const double a[3], const double b[3], const double c[3], double an[3]);

/* Volume of a closed mesh (flat arrays, see above), m^3. */
double hydro_mesh_volume(int nt, const int *tri, const double *x);

/* Adds dV/dx_i = sum over faces f touching i of an_f / 3 (m^2) to
 * grad[3i .. 3i+2]. The gas force on vertex i is (p - p_ambient) dV/dx_i
 * (Pa * m^2 = N); those forces sum to zero force and zero torque. */
void hydro_mesh_volume_gradient(int nt, const int *tri, const double *x, double *grad);

/* Isothermal ideal gas: absolute pressure p0_abs (Pa) at volume V0 (m^3)
 * becomes p0_abs V0 / V at volume V (m^3). Returns Pa (absolute). */
double gas_pressure(double p0_abs, double V0, double V);

/* ---- drag and lift (section 5) ---- */

/* Force (N) of the fluid on one face, written to force (to be split 1/3 per
 * vertex by the caller).
 *   an      area-normal of the face, outward, |an| = A (m^2)
 *   u       v_face - v_fluid at the face centroid (m/s)
 *   rho     fluid density (kg/m^3: 1000 water, 1.2 air)
 *   cd, cl  drag and lift coefficients (dimensionless; the 1/2 of the usual
 *           1/2 rho |u|^2 is absorbed in them, as in docs/physics.md)
 *   dt      the step (s) for the clamp; dt <= 0 disables the clamp
 *   m_face  the mass (kg) the force acts on in one step (the face's share)
 * With c = n . u/|u|, only leading faces (c > 0) feel it:
 *   drag F_D = -cd rho A |u|^2 c u/|u|,
 *   lift F_L = -cl rho A |u|^2 c (n - c u/|u|)  (perpendicular to u).
 * Zero when |u| = 0, A = 0 or c <= 0. Clamped (whole force scaled) so that
 * one step of dt on m_face never reverses the relative velocity. */
void hydro_face_drag(const double an[3], const double u[3], double rho, double cd, double cl,
                     double dt, double m_face, double force[3]);

#endif
