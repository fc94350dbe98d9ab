// The one header CanopyServer sees of libwebsockets 4.1.6. Macros such as LWS_PRE do not import into Swift;
// the helpers below stand in for the ones the server needs.
#ifndef CANOPY_CLIBWEBSOCKETS_SHIM_H
#define CANOPY_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// Head-room lws needs in front of every buffer passed to lws_write.
static inline size_t canopy_lws_pre(void) { return LWS_PRE; }

/// A timer whose only job is to make `lws_service` return, so the loop around it can look at the clock. lws runs
/// ripe timers just before it polls and then polls with no timeout if nothing else is due, so a callback that does
/// nothing can leave `lws_service` blocked until some unrelated event; this one wakes the poll with
/// `lws_cancel_service`. `sul` comes first, so the callback finds the context from the timer.
struct canopy_wake_timer {
    lws_sorted_usec_list_t sul;
    struct lws_context *context;
};

static inline void canopy_wake_timer_fired(lws_sorted_usec_list_t *sul) {
    lws_cancel_service(((struct canopy_wake_timer *)sul)->context);
}

/// (Re)arms `timer` to wake `context`'s service loop `us` microseconds from now.
static inline void canopy_wake_timer_schedule(struct canopy_wake_timer *timer, struct lws_context *context,
                                              lws_usec_t us) {
    timer->context = context;
    lws_sul_schedule(context, 0, &timer->sul, canopy_wake_timer_fired, us);
}

static inline void canopy_wake_timer_cancel(struct canopy_wake_timer *timer) { lws_sul_cancel(&timer->sul); }

#endif
