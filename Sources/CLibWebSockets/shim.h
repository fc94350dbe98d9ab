// The one header CanopyServer sees of libwebsockets 4.1.6. Macros such as LWS_PRE do not import into Swift;
// the helpers below stand in for the ones the server needs.
#ifndef CANOPY_CLIBWEBSOCKETS_SHIM_H
#define CANOPY_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

#include "libuv_shim.h"

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

/// The tokens that hold a request URI (one per method) and its query.
static const enum lws_token_indexes canopy_uri_tokens[] = {
    WSI_TOKEN_GET_URI, WSI_TOKEN_POST_URI, WSI_TOKEN_OPTIONS_URI, WSI_TOKEN_PUT_URI, WSI_TOKEN_PATCH_URI,
    WSI_TOKEN_DELETE_URI, WSI_TOKEN_CONNECT, WSI_TOKEN_HEAD_URI, WSI_TOKEN_HTTP_URI_ARGS,
};
#define CANOPY_URI_TOKEN_COUNT (sizeof(canopy_uri_tokens) / sizeof(canopy_uri_tokens[0]))

/// Caps every request header lws collects at `header` bytes and a request URI at `uri` bytes. lws 4.1.6 fails a
/// request whose headers overflow its header space (`max_http_header_data`) by dropping the connection, but stores a
/// header that reaches its cap cut at the cap and skips the rest, so with caps below that space the server sees the
/// request and can answer 414 or 431 (`canopy_oversized_status`).
static inline void canopy_token_limits_fill(struct lws_token_limits *limits, unsigned short header,
                                            unsigned short uri) {
    for (int i = 0; i < WSI_TOKEN_COUNT; i++) limits->token_limit[i] = header;
    for (size_t i = 0; i < CANOPY_URI_TOKEN_COUNT; i++) limits->token_limit[canopy_uri_tokens[i]] = uri;
}

/// 414 if the request URI reached its cap, else 431 if a header did, else 0 (see `canopy_token_limits_fill`).
static inline int canopy_oversized_status(struct lws *wsi, const struct lws_token_limits *limits) {
    for (size_t i = 0; i < CANOPY_URI_TOKEN_COUNT; i++) {
        enum lws_token_indexes token = canopy_uri_tokens[i];
        if (lws_hdr_total_length(wsi, token) >= limits->token_limit[token]) return 414;
    }
    for (int i = 0; i < WSI_TOKEN_COUNT; i++) {
        if (lws_hdr_total_length(wsi, (enum lws_token_indexes)i) >= limits->token_limit[i]) return 431;
    }
    return 0;
}

#endif
