// The one header CanopyServer sees of libwebsockets 4.1.6. Macros such as LWS_PRE do not import into Swift;
// the helpers below stand in for the ones the server needs.
#ifndef CANOPY_CLIBWEBSOCKETS_SHIM_H
#define CANOPY_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// Head-room lws needs in front of every buffer passed to lws_write.
static inline size_t canopy_lws_pre(void) { return LWS_PRE; }

// libev, for lws's libev event-library support with a loop the service loop owns ("foreign"): the loop waits with
// epoll, so a wake costs what is ready rather than every connection as with lws's own poll(). lws loads its libev
// glue (libwebsockets-evlib_ev.so) at run time. Loops and timers are passed as void * (ev.h's macros do not import).
#include <ev.h>
#include <stdlib.h>

static inline void *canopy_ev_loop_new(void) { return ev_loop_new(EVFLAG_AUTO | EVFLAG_NOSIGMASK | EVFLAG_NOENV); }
/// Waits for events (blocking until at least one) and handles them, once.
static inline void canopy_ev_run_once(void *loop) { (void)ev_run((struct ev_loop *)loop, EVRUN_ONCE); }
/// Handles what is ready now (and due idle work), without waiting.
static inline void canopy_ev_run_nowait(void *loop) { (void)ev_run((struct ev_loop *)loop, EVRUN_NOWAIT); }
static inline void canopy_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }

/// A timer that only wakes the loop: whoever runs it looks at the clock afterwards.
static inline void canopy_ev_timer_fired(struct ev_loop *loop, ev_timer *timer, int revents) {
    (void)loop;
    (void)timer;
    (void)revents;
}
static inline void *canopy_ev_timer_new(void) {
    ev_timer *timer = (ev_timer *)calloc(1, sizeof(ev_timer));
    if (timer) ev_timer_init(timer, canopy_ev_timer_fired, 0., 0.);
    return timer;
}
/// (Re)arms `timer` to fire once, `seconds` from now.
static inline void canopy_ev_timer_arm(void *loop, void *timer, double seconds) {
    ev_timer_stop((struct ev_loop *)loop, (ev_timer *)timer);
    ev_timer_set((ev_timer *)timer, seconds, 0.);
    ev_timer_start((struct ev_loop *)loop, (ev_timer *)timer);
}
/// A repeating timer that wakes lws (`lws_cancel_service`) every `interval` seconds. lws 4.1.6 services its own timers
/// (pings, timeouts) on libev only after an event and re-arms its libev timer in a way that can leave it late, so
/// this bounds how late they run.
static inline void canopy_ev_kick_fired(struct ev_loop *loop, ev_timer *timer, int revents) {
    (void)loop;
    (void)revents;
    lws_cancel_service((struct lws_context *)timer->data);
}
static inline void *canopy_ev_kick_start(void *loop, struct lws_context *context, double interval) {
    ev_timer *timer = (ev_timer *)calloc(1, sizeof(ev_timer));
    if (!timer) return NULL;
    ev_timer_init(timer, canopy_ev_kick_fired, interval, interval);
    timer->data = context;
    ev_timer_start((struct ev_loop *)loop, timer);
    return timer;
}
static inline void canopy_ev_timer_free(void *loop, void *timer) {
    ev_timer_stop((struct ev_loop *)loop, (ev_timer *)timer);
    free(timer);
}

#endif
