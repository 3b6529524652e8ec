/* MP4 output by piping raw frames into ffmpeg (optional: it is not
 * installed automatically; `apt-get install ffmpeg` adds it). */
#ifndef DINGHY_VIDEO_H
#define DINGHY_VIDEO_H

#include <stddef.h>

/* 1 when an executable `ffmpeg` is on the PATH. */
int video_ffmpeg_available(void);

/* The message for a --video run without ffmpeg: what to install. */
#define VIDEO_NO_FFMPEG_MESSAGE \
    "--video needs ffmpeg, which is not installed: install it with 'apt-get install ffmpeg' " \
    "(as root), or write PNG frames with '--record DIR --frames K' instead"

typedef struct video_pipe video_pipe;

/* Starts ffmpeg encoding width x height RGB frames at fps frames per
 * second into an H.264 MP4 at path. NULL with a message in err. */
video_pipe *video_open(const char *path, int width, int height, int fps, char *err, size_t err_len);
/* Sends one frame (RGB, rows top to bottom). Returns 0, or -1 with a
 * message when ffmpeg has stopped reading. */
int video_write(video_pipe *v, const unsigned char *rgb, char *err, size_t err_len);
/* Finishes the file and waits for ffmpeg. Returns 0 when ffmpeg exited
 * cleanly, -1 with a message otherwise. Frees v in any case. */
int video_close(video_pipe *v, char *err, size_t err_len);

#endif
