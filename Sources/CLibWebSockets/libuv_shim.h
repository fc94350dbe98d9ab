// libuv, for running lws on a loop the service thread owns ("foreign" in lws's words): the loop waits with epoll,
// so a wake costs what is ready instead of a poll() over every connection. lws loads its libuv glue
// (libwebsockets-evlib_uv.so) when a context asks for LWS_SERVER_OPTION_LIBUV. Included by shim.h.
#ifndef CANOPY_CLIBWEBSOCKETS_LIBUV_SHIM_H
#define CANOPY_CLIBWEBSOCKETS_LIBUV_SHIM_H

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

/// A new loop, or NULL.
static inline uv_loop_t *canopy_uv_loop_new(void) {
    uv_loop_t *loop = (uv_loop_t *)malloc(sizeof(uv_loop_t));
    if (loop && uv_loop_init(loop) != 0) {
        free(loop);
        return NULL;
    }
    return loop;
}

/// Closes and frees `loop`; 0, or UV_EBUSY (and nothing freed) while a handle is still open.
static inline int canopy_uv_loop_free(uv_loop_t *loop) {
    int result = uv_loop_close(loop);
    if (result == 0) free(loop);
    return result;
}

/// Waits until something happens (I/O, a timer), runs what is due, and returns.
static inline void canopy_uv_run_once(uv_loop_t *loop) { (void)uv_run(loop, UV_RUN_ONCE); }

/// Runs what is due now without waiting; nonzero while the loop has open handles.
static inline int canopy_uv_run_nowait(uv_loop_t *loop) { return uv_run(loop, UV_RUN_NOWAIT); }

static inline void canopy_uv_free_handle(uv_handle_t *handle) { free(handle); }

/// Closes a handle made by this shim; it is freed once libuv is done with it (the loop must run once more).
static inline void canopy_uv_close(void *handle) {
    if (!uv_is_closing((uv_handle_t *)handle)) uv_close((uv_handle_t *)handle, canopy_uv_free_handle);
}

/// A timer whose only job is to make `canopy_uv_run_once` return: whoever runs the loop looks at the clock.
static inline void canopy_uv_wake_fired(uv_timer_t *timer) { (void)timer; }

static inline uv_timer_t *canopy_uv_wake_timer_new(uv_loop_t *loop) {
    uv_timer_t *timer = (uv_timer_t *)malloc(sizeof(uv_timer_t));
    if (timer && uv_timer_init(loop, timer) != 0) {
        free(timer);
        return NULL;
    }
    return timer;
}

/// (Re)arms `timer` to fire once, `ms` milliseconds from now. The loop's clock is brought up to date first: libuv
/// counts from the time it took at the start of the current pass, which may be long gone.
static inline void canopy_uv_wake_timer_arm(uv_timer_t *timer, uint64_t ms) {
    uv_update_time(timer->loop);
    (void)uv_timer_start(timer, canopy_uv_wake_fired, ms, 0);
}

static inline int canopy_uv_wake_timer_is_armed(const uv_timer_t *timer) {
    return uv_is_active((const uv_handle_t *)timer);
}

struct canopy_uv_pipe_search {
    int fd;
    int found;
};

static inline void canopy_uv_pipe_visit(uv_handle_t *handle, void *arg) {
    struct canopy_uv_pipe_search *search = (struct canopy_uv_pipe_search *)arg;
    uv_os_fd_t fd;
    struct stat st;
    if (handle->type != UV_POLL || uv_is_closing(handle) || uv_fileno(handle, &fd) != 0) return;
    if (fstat(fd, &st) == 0 && !S_ISSOCK(st.st_mode)) {
        search->fd = fd;
        search->found++;
    }
}

/// The descriptor of lws's wake-up pipe (an eventfd) on `loop`, or -1. lws watches it with the only poll handle on
/// the loop that is not a socket's: every connection and listener is a socket.
static inline int canopy_uv_lws_pipe_fd(uv_loop_t *loop) {
    struct canopy_uv_pipe_search search = {-1, 0};
    uv_walk(loop, canopy_uv_pipe_visit, &search);
    return search.found == 1 ? search.fd : -1;
}

/// Takes descriptor number `fd` for the caller if it is free, as a duplicate of the loop's own epoll descriptor:
/// 1 when the caller now holds it, 0 when another owner has it. Atomic (F_DUPFD takes the lowest free number from
/// `fd` on), so it never disturbs whoever else holds the number.
static inline int canopy_fd_take_if_free(uv_loop_t *loop, int fd) {
    int taken = fcntl(uv_backend_fd(loop), F_DUPFD_CLOEXEC, fd);
    if (taken == fd) return 1;
    if (taken >= 0) close(taken);
    return 0;
}

#endif
