/* Settings of the renderer, filled by config/ from the [render] section. */
#ifndef DINGHY_RENDER_PARAMS_H
#define DINGHY_RENDER_PARAMS_H

typedef struct {
    int width;   /* window or screenshot width, pixels */
    int height;  /* window or screenshot height, pixels */
    int fps;     /* frames per simulated second of --record and --video */
    double resolution_scale; /* the demo window's scene at this fraction of its size;
                                0: automatic (render/resolution.h) */
    int target_fps;          /* frames per second the automatic scale aims at, 1/s */
} render_params;

static inline render_params render_params_default(void)
{
    render_params r = {1280, 720, 30, 0.0, 30};
    return r;
}

#endif
