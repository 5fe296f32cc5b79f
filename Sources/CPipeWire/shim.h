#ifndef CPIPEWIRE_SHIM_H
#define CPIPEWIRE_SHIM_H
/* A video source node on PipeWire, for LiveApp/VideoOut/PipeWireSource.swift.
   SPA's pod builders are macros and inline functions Swift cannot call, so the
   node's set-up lives here as static inline functions (prefixed cpw_). Every
   function but cpw_source_new/cpw_source_free takes the thread loop's lock
   itself; the callbacks run on the loop's thread. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/param.h>
#include <spa/buffer/meta.h>
#include <spa/pod/builder.h>

/* Fills one buffer of `format` (an spa_video_format) with the newest frame;
   returns the bytes written (0: nothing to send). Called on the loop thread. */
typedef uint32_t (*cpw_fill_fn)(void *userdata, void *dst, int32_t stride, uint32_t maxsize,
                                uint32_t format, uint32_t width, uint32_t height);
/* Something happened: kind 0 = stream state (value: enum pw_stream_state, text: error or NULL),
   1 = format negotiated (value: spa_video_format), 2 = connection lost (value: -errno, text). */
typedef void (*cpw_event_fn)(void *userdata, int kind, int value, const char *text);

static const int cpw_event_state = 0, cpw_event_format = 1, cpw_event_lost = 2;

static const uint32_t cpw_format_BGRx = SPA_VIDEO_FORMAT_BGRx;
static const uint32_t cpw_format_RGBx = SPA_VIDEO_FORMAT_RGBx;
static const uint32_t cpw_format_BGRA = SPA_VIDEO_FORMAT_BGRA;
static const uint32_t cpw_format_RGBA = SPA_VIDEO_FORMAT_RGBA;
static const uint32_t cpw_format_YUY2 = SPA_VIDEO_FORMAT_YUY2;
static const int cpw_state_error = PW_STREAM_STATE_ERROR;
static const int cpw_state_unconnected = PW_STREAM_STATE_UNCONNECTED;
static const int cpw_state_paused = PW_STREAM_STATE_PAUSED;
static const int cpw_state_streaming = PW_STREAM_STATE_STREAMING;

struct cpw_source {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct pw_stream *stream;
    struct spa_hook core_listener;
    struct spa_hook stream_listener;
    struct pw_core_events core_events;
    struct pw_stream_events stream_events;
    void *userdata;
    cpw_fill_fn fill;
    cpw_event_fn event;
    char name[128];
    uint32_t width, height, fps_num, fps_den;
    uint32_t format;
    int32_t stride;
    uint32_t frame_size;
    uint64_t seq;
};

/* The stride and size of one frame as GStreamer lays it out (rows of 4-byte multiples). */
static inline void cpw_layout(uint32_t format, uint32_t w, uint32_t h, int32_t *stride, uint32_t *size) {
    if (format == SPA_VIDEO_FORMAT_YUY2) *stride = (int32_t)SPA_ROUND_UP_N(w * 2, 4);
    else *stride = (int32_t)(w * 4);
    *size = (uint32_t)(*stride) * h;
}

static inline void cpw_on_process(void *data) {
    struct cpw_source *s = data;
    struct pw_buffer *b = pw_stream_dequeue_buffer(s->stream);
    if (b == NULL) return;
    struct spa_buffer *buf = b->buffer;
    struct spa_data *d = &buf->datas[0];
    uint32_t size = 0;
    if (d->data != NULL && d->maxsize >= s->frame_size)
        size = s->fill(s->userdata, d->data, s->stride, d->maxsize, s->format, s->width, s->height);
    d->chunk->offset = 0;
    d->chunk->stride = s->stride;
    d->chunk->size = size;
    d->chunk->flags = size == 0 ? SPA_CHUNK_FLAG_CORRUPTED : 0;
    struct spa_meta_header *h = spa_buffer_find_meta_data(buf, SPA_META_Header, sizeof(*h));
    if (h != NULL) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        h->pts = SPA_TIMESPEC_TO_NSEC(&now);
        h->flags = 0;
        h->seq = s->seq++;
        h->dts_offset = 0;
    }
    pw_stream_queue_buffer(s->stream, b);
}

static inline void cpw_on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    struct cpw_source *s = data;
    (void)old;
    s->event(s->userdata, cpw_event_state, (int)state, error);
}

static inline void cpw_on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    struct cpw_source *s = data;
    if (param == NULL || id != SPA_PARAM_Format) return;
    struct spa_video_info_raw info;
    spa_zero(info);
    if (spa_format_video_raw_parse(param, &info) < 0) return;
    s->format = info.format;
    s->width = info.size.width;
    s->height = info.size.height;
    cpw_layout(s->format, s->width, s->height, &s->stride, &s->frame_size);
    uint8_t space[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(space, sizeof(space));
    const struct spa_pod *params[2];
    params[0] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
        SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(4, 2, 8),
        SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
        SPA_PARAM_BUFFERS_size, SPA_POD_Int((int32_t)s->frame_size),
        SPA_PARAM_BUFFERS_stride, SPA_POD_Int(s->stride),
        SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd)));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(s->stream, params, 2);
    s->event(s->userdata, cpw_event_format, (int)s->format, NULL);
}

static inline void cpw_on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    struct cpw_source *s = data;
    (void)seq;
    if (id == PW_ID_CORE) s->event(s->userdata, cpw_event_lost, res, message);
}

/* A source that is not connected yet; its thread loop runs. NULL when the
   loop cannot be made. */
static inline struct cpw_source *cpw_source_new(const char *name, uint32_t width, uint32_t height,
                                                uint32_t fps_num, uint32_t fps_den,
                                                cpw_fill_fn fill, cpw_event_fn event, void *userdata) {
    pw_init(NULL, NULL);
    struct cpw_source *s = calloc(1, sizeof(*s));
    if (s == NULL) return NULL;
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->width = width; s->height = height; s->fps_num = fps_num; s->fps_den = fps_den;
    s->fill = fill; s->event = event; s->userdata = userdata;
    s->loop = pw_thread_loop_new("physarum-pipewire", NULL);
    if (s->loop == NULL) { free(s); return NULL; }
    s->context = pw_context_new(pw_thread_loop_get_loop(s->loop), NULL, 0);
    if (s->context == NULL || pw_thread_loop_start(s->loop) < 0) {
        if (s->context) pw_context_destroy(s->context);
        pw_thread_loop_destroy(s->loop);
        free(s);
        return NULL;
    }
    s->core_events.version = PW_VERSION_CORE_EVENTS;
    s->core_events.error = cpw_on_core_error;
    s->stream_events.version = PW_VERSION_STREAM_EVENTS;
    s->stream_events.state_changed = cpw_on_state_changed;
    s->stream_events.param_changed = cpw_on_param_changed;
    s->stream_events.process = cpw_on_process;
    return s;
}

/* Drops the connection (stream and core), if any. */
static inline void cpw_source_disconnect(struct cpw_source *s) {
    pw_thread_loop_lock(s->loop);
    if (s->stream) { spa_hook_remove(&s->stream_listener); pw_stream_destroy(s->stream); s->stream = NULL; }
    if (s->core) { spa_hook_remove(&s->core_listener); pw_core_disconnect(s->core); s->core = NULL; }
    pw_thread_loop_unlock(s->loop);
}

/* Connects to the PipeWire server and publishes the node. 0 or -errno. */
static inline int cpw_source_connect(struct cpw_source *s) {
    cpw_source_disconnect(s);
    pw_thread_loop_lock(s->loop);
    s->core = pw_context_connect(s->context, NULL, 0);
    if (s->core == NULL) { int e = errno ? errno : EIO; pw_thread_loop_unlock(s->loop); return -e; }
    pw_core_add_listener(s->core, &s->core_listener, &s->core_events, s);
    char rate[32];
    snprintf(rate, sizeof(rate), "%u/%u", s->fps_num, s->fps_den);
    struct pw_properties *props = pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE, "Camera",
        PW_KEY_MEDIA_CLASS, "Video/Source", PW_KEY_NODE_NAME, s->name, PW_KEY_NODE_DESCRIPTION, s->name,
        PW_KEY_NODE_NICK, s->name, PW_KEY_APP_NAME, s->name, "node.rate", rate, NULL);
    s->stream = pw_stream_new(s->core, s->name, props);
    if (s->stream == NULL) { int e = errno ? errno : EIO; pw_thread_loop_unlock(s->loop); cpw_source_disconnect(s); return -e; }
    pw_stream_add_listener(s->stream, &s->stream_listener, &s->stream_events, s);
    uint8_t space[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(space, sizeof(space));
    const struct spa_pod *params[2];
    struct spa_rectangle size = SPA_RECTANGLE(s->width, s->height);
    struct spa_fraction fps = SPA_FRACTION(s->fps_num, s->fps_den);
    params[0] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(5, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx,
                                                       SPA_VIDEO_FORMAT_RGBx, SPA_VIDEO_FORMAT_BGRA, SPA_VIDEO_FORMAT_RGBA),
        SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&fps));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_Id(SPA_VIDEO_FORMAT_YUY2),
        SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&fps));
    int rc = pw_stream_connect(s->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                               PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS, params, 2);
    pw_thread_loop_unlock(s->loop);
    if (rc < 0) cpw_source_disconnect(s);
    return rc;
}

/* Asks the graph for one cycle: `fill` runs on the loop thread for a buffer.
   0, or -errno (not streaming). */
static inline int cpw_source_trigger(struct cpw_source *s) {
    pw_thread_loop_lock(s->loop);
    int rc = s->stream ? pw_stream_trigger_process(s->stream) : -ENOTCONN;
    pw_thread_loop_unlock(s->loop);
    return rc;
}

/* The node's id on the server (SPA_ID_INVALID until it is known). */
static inline uint32_t cpw_source_node_id(struct cpw_source *s) {
    pw_thread_loop_lock(s->loop);
    uint32_t id = s->stream ? pw_stream_get_node_id(s->stream) : SPA_ID_INVALID;
    pw_thread_loop_unlock(s->loop);
    return id;
}

/* The same from a callback (the loop's thread, lock held). */
static inline uint32_t cpw_source_node_id_unlocked(struct cpw_source *s) {
    return s && s->stream ? pw_stream_get_node_id(s->stream) : SPA_ID_INVALID;
}

/* Disconnects, stops the loop and frees everything. */
static inline void cpw_source_free(struct cpw_source *s) {
    if (s == NULL) return;
    cpw_source_disconnect(s);
    pw_thread_loop_stop(s->loop);
    pw_context_destroy(s->context);
    pw_thread_loop_destroy(s->loop);
    free(s);
}
#endif
