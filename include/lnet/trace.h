/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LNet's tracepoints (trace system "lnet"): what an operator turns on
 * when something goes wrong, instead of a debug build.  Documented, with
 * a trace-cmd and a perf recipe, in Documentation/tracepoints.rst.
 *
 * Defined in lnet.ko (lnet/trace.c); the LNDs fire lnet_conn through the
 * exported tracepoint.  NIDs are recorded as strings (formatted only when
 * the event is enabled), so that a trace read after the module is gone,
 * or by perf in user space, needs nothing of ours.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lnet

#if !defined(_LNET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LNET_TRACE_H

#include <linux/tracepoint.h>
#include <lnet/lib-types.h>
#include <lnet/health.h>

#define LNET_TRACE_NIDSTR	LNET_NIDSTR_SIZE

#define lnet_trace_msg_type(t)						\
	__print_symbolic(t, { LNET_MSG_ACK, "ACK" },			\
			 { LNET_MSG_PUT, "PUT" },			\
			 { LNET_MSG_GET, "GET" },			\
			 { LNET_MSG_REPLY, "REPLY" },			\
			 { LNET_MSG_HELLO, "HELLO" })

#define lnet_trace_hstatus(s)						\
	__print_symbolic(s, { LNET_MSG_STATUS_OK, "ok" },		\
			 { LNET_MSG_STATUS_LOCAL_INTERRUPT, "local_interrupt" }, \
			 { LNET_MSG_STATUS_LOCAL_DROPPED, "local_dropped" }, \
			 { LNET_MSG_STATUS_LOCAL_ABORTED, "local_aborted" }, \
			 { LNET_MSG_STATUS_LOCAL_NO_ROUTE, "local_no_route" }, \
			 { LNET_MSG_STATUS_LOCAL_ERROR, "local_error" },	\
			 { LNET_MSG_STATUS_LOCAL_TIMEOUT, "local_timeout" }, \
			 { LNET_MSG_STATUS_REMOTE_ERROR, "remote_error" }, \
			 { LNET_MSG_STATUS_REMOTE_DROPPED, "remote_dropped" }, \
			 { LNET_MSG_STATUS_REMOTE_TIMEOUT, "remote_timeout" }, \
			 { LNET_MSG_STATUS_NETWORK_TIMEOUT, "network_timeout" })

/* A message as it goes to its LND (its header as on the wire). */
TRACE_EVENT(lnet_send,
	TP_PROTO(const struct lnet_msg *msg),
	TP_ARGS(msg),
	TP_STRUCT__entry(
		__array(char, ni, LNET_TRACE_NIDSTR)
		__array(char, src, LNET_TRACE_NIDSTR)
		__array(char, dst, LNET_TRACE_NIDSTR)
		__array(char, hop, LNET_TRACE_NIDSTR)
		__field(u32, type)
		__field(u32, len)
		__field(u32, retry)
		__field(bool, routed)
	),
	TP_fast_assign(
		lnet_nid_to_str(&msg->msg_txni->ni_nid, __entry->ni,
				LNET_TRACE_NIDSTR);
		lnet_nid_to_str(&msg->msg_hdr.src_nid, __entry->src,
				LNET_TRACE_NIDSTR);
		lnet_nid_to_str(&msg->msg_hdr.dest_nid, __entry->dst,
				LNET_TRACE_NIDSTR);
		if (msg->msg_txpeer)
			lnet_nid_to_str(&msg->msg_txpeer->lpni_nid,
					__entry->hop, LNET_TRACE_NIDSTR);
		else
			strscpy(__entry->hop, "0@lo", LNET_TRACE_NIDSTR);
		__entry->type = msg->msg_type;
		__entry->len = msg->msg_len;
		__entry->retry = msg->msg_retry_count;
		__entry->routed = msg->msg_routing ||
				  msg->msg_target_is_router;
	),
	TP_printk("%s %s -> %s via %s on %s len %u retry %u%s",
		  lnet_trace_msg_type(__entry->type), __entry->src,
		  __entry->dst, __entry->hop, __entry->ni, __entry->len,
		  __entry->retry, __entry->routed ? " routed" : "")
);

/* A header an LND received, before any check of where it goes. */
TRACE_EVENT(lnet_recv,
	TP_PROTO(const struct lnet_ni *ni, const struct lnet_hdr *hdr,
		 const struct lnet_nid *from),
	TP_ARGS(ni, hdr, from),
	TP_STRUCT__entry(
		__array(char, ni, LNET_TRACE_NIDSTR)
		__array(char, src, LNET_TRACE_NIDSTR)
		__array(char, dst, LNET_TRACE_NIDSTR)
		__array(char, from, LNET_TRACE_NIDSTR)
		__field(u32, type)
		__field(u32, len)
	),
	TP_fast_assign(
		lnet_nid_to_str(&ni->ni_nid, __entry->ni, LNET_TRACE_NIDSTR);
		lnet_nid_to_str(&hdr->src_nid, __entry->src,
				LNET_TRACE_NIDSTR);
		lnet_nid_to_str(&hdr->dest_nid, __entry->dst,
				LNET_TRACE_NIDSTR);
		lnet_nid_to_str(from, __entry->from, LNET_TRACE_NIDSTR);
		__entry->type = hdr->type;
		__entry->len = hdr->payload_length;
	),
	TP_printk("%s %s -> %s from %s on %s len %u",
		  lnet_trace_msg_type(__entry->type), __entry->src,
		  __entry->dst, __entry->from, __entry->ni, __entry->len)
);

/* A received message dropped, with the reason debugfs "drops" counts. */
TRACE_EVENT(lnet_drop,
	TP_PROTO(const struct lnet_ni *ni, const char *reason, u32 type,
		 u32 len),
	TP_ARGS(ni, reason, type, len),
	TP_STRUCT__entry(
		__array(char, ni, LNET_TRACE_NIDSTR)
		__string(reason, reason)
		__field(u32, type)
		__field(u32, len)
	),
	TP_fast_assign(
		if (ni)
			lnet_nid_to_str(&ni->ni_nid, __entry->ni,
					LNET_TRACE_NIDSTR);
		else
			strscpy(__entry->ni, "-", LNET_TRACE_NIDSTR);
		__assign_str(reason, reason);
		__entry->type = type;
		__entry->len = len;
	),
	TP_printk("%s len %u on %s: %s", lnet_trace_msg_type(__entry->type),
		  __entry->len, __entry->ni, __get_str(reason))
);

/* A message finished with an error (its health class, if classified). */
TRACE_EVENT(lnet_msg_failed,
	TP_PROTO(const struct lnet_msg *msg, int status),
	TP_ARGS(msg, status),
	TP_STRUCT__entry(
		__array(char, src, LNET_TRACE_NIDSTR)
		__array(char, dst, LNET_TRACE_NIDSTR)
		__field(u32, type)
		__field(int, status)
		__field(u32, hstatus)
		__field(bool, send)
	),
	TP_fast_assign(
		lnet_nid_to_str(&msg->msg_hdr.src_nid, __entry->src,
				LNET_TRACE_NIDSTR);
		lnet_nid_to_str(&msg->msg_hdr.dest_nid, __entry->dst,
				LNET_TRACE_NIDSTR);
		__entry->type = msg->msg_type;
		__entry->status = status;
		__entry->hstatus = msg->msg_health_status;
		__entry->send = msg->msg_send;
	),
	TP_printk("%s %s %s -> %s: %d (%s)", __entry->send ? "send" : "recv",
		  lnet_trace_msg_type(__entry->type), __entry->src,
		  __entry->dst, __entry->status,
		  lnet_trace_hstatus(__entry->hstatus))
);

/* A failed message queued to be sent again (health, resend.c). */
TRACE_EVENT(lnet_resend,
	TP_PROTO(const struct lnet_msg *msg, u32 hstatus),
	TP_ARGS(msg, hstatus),
	TP_STRUCT__entry(
		__array(char, dst, LNET_TRACE_NIDSTR)
		__field(u32, type)
		__field(u32, hstatus)
		__field(u32, retry)
	),
	TP_fast_assign(
		lnet_nid_to_str(&msg->msg_target.nid, __entry->dst,
				LNET_TRACE_NIDSTR);
		__entry->type = msg->msg_type;
		__entry->hstatus = hstatus;
		__entry->retry = msg->msg_retry_count;
	),
	TP_printk("%s to %s after %s: resend %u",
		  lnet_trace_msg_type(__entry->type), __entry->dst,
		  lnet_trace_hstatus(__entry->hstatus), __entry->retry)
);

/* A local NI's or a peer NI's health value changed. */
TRACE_EVENT(lnet_health,
	TP_PROTO(const struct lnet_nid *nid, bool local, int old, int value),
	TP_ARGS(nid, local, old, value),
	TP_STRUCT__entry(
		__array(char, nid, LNET_TRACE_NIDSTR)
		__field(bool, local)
		__field(int, old)
		__field(int, value)
	),
	TP_fast_assign(
		lnet_nid_to_str(nid, __entry->nid, LNET_TRACE_NIDSTR);
		__entry->local = local;
		__entry->old = old;
		__entry->value = value;
	),
	TP_printk("%s %s health %d -> %d", __entry->local ? "ni" : "peer_ni",
		  __entry->nid, __entry->old, __entry->value)
);

/* A peer's discovery ended (0: discovered). */
TRACE_EVENT(lnet_discovery,
	TP_PROTO(const struct lnet_nid *primary, int rc),
	TP_ARGS(primary, rc),
	TP_STRUCT__entry(
		__array(char, nid, LNET_TRACE_NIDSTR)
		__field(int, rc)
	),
	TP_fast_assign(
		lnet_nid_to_str(primary, __entry->nid, LNET_TRACE_NIDSTR);
		__entry->rc = rc;
	),
	TP_printk("%s %s (%d)", __entry->nid,
		  __entry->rc ? "failed" : "discovered", __entry->rc)
);

/* The gateway a message to a remote net goes to. */
TRACE_EVENT(lnet_route,
	TP_PROTO(const struct lnet_nid *dst, const struct lnet_nid *gw,
		 bool hint),
	TP_ARGS(dst, gw, hint),
	TP_STRUCT__entry(
		__array(char, dst, LNET_TRACE_NIDSTR)
		__array(char, gw, LNET_TRACE_NIDSTR)
		__field(bool, hint)
	),
	TP_fast_assign(
		lnet_nid_to_str(dst, __entry->dst, LNET_TRACE_NIDSTR);
		lnet_nid_to_str(gw, __entry->gw, LNET_TRACE_NIDSTR);
		__entry->hint = hint;
	),
	TP_printk("%s via %s%s", __entry->dst, __entry->gw,
		  __entry->hint ? " (back the way it came)" : "")
);

/* An LND connection came up or went down (@error: why it closed). */
TRACE_EVENT(lnet_conn,
	TP_PROTO(const char *lnd, const struct lnet_nid *ni,
		 const struct lnet_nid *peer, bool up, int error),
	TP_ARGS(lnd, ni, peer, up, error),
	TP_STRUCT__entry(
		__string(lnd, lnd)
		__array(char, ni, LNET_TRACE_NIDSTR)
		__array(char, peer, LNET_TRACE_NIDSTR)
		__field(bool, up)
		__field(int, error)
	),
	TP_fast_assign(
		__assign_str(lnd, lnd);
		lnet_nid_to_str(ni, __entry->ni, LNET_TRACE_NIDSTR);
		lnet_nid_to_str(peer, __entry->peer, LNET_TRACE_NIDSTR);
		__entry->up = up;
		__entry->error = error;
	),
	TP_printk("%s %s <-> %s %s (%d)", __get_str(lnd), __entry->ni,
		  __entry->peer, __entry->up ? "up" : "down", __entry->error)
);

#endif /* _LNET_TRACE_H */

/* Out of the kernel's tree: found through -I$(src)/include. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH lnet
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
