// SPDX-License-Identifier: GPL-2.0
/*
 * sock_lustre: a stock Lustre 2.17 client on tcp, scripted, sending
 * through a router to a node on another net.
 *
 *	sock_lustre [-t SECONDS] [-q SECONDS] ROUTER_IP ROUTER_NID
 *		    ROUTER_FAR_NID DEST_NID
 *
 * The node it runs on has no LNet loaded; its NID is its address towards
 * the router @tcp (the local address of the connection).  As a stock
 * client with a route to DEST_NID's net through ROUTER_NID does
 * (lnet-routing.md 3, 6.2, 11.1, 14; lnet-wire-protocol.md 2, 3, 4, 6, 7):
 *
 *  1. connects to the router's acceptor from privileged ports and opens
 *     one CONTROL, one BULK_IN and one BULK_OUT connection (V3 HELLOs,
 *     typed_conns=1, conns_per_peer 1), checking each HELLO reply
 *     (version, the router's NID and PID, our NID, the inverted type, one
 *     incarnation, no IP list);
 *  2. checks the router as its router checker would: a ping GET (sink 272
 *     bytes) whose REPLY must list ROUTER_NID and ROUTER_FAR_NID UP, with
 *     NI_STATUS and MULTI_RAIL and without RTE_DISABLED, then a push of
 *     its own ping buffer (MULTI_RAIL|DISCOVERY) whose ACK must come;
 *  3. discovers DEST_NID through the router (ping GET, then push: both
 *     routed, spec 3.5): the REPLY must come from DEST_NID and list it UP;
 *  4. PUTs with ACK requested to lnet_test's bulk sink at DEST_NID
 *     (portal 60, match bits 0x1000000000, hdr_data = the pattern's seed,
 *     which the target checks byte by byte) of 0, 1, 3976, 3977, 65536
 *     and 1048576 bytes, each ACK checked (from DEST_NID, our handle and
 *     match bits, mlength = the size);
 *  5. GETs from lnet_test's GET source (match bits 0x2000000000) of the
 *     same sizes at offsets, each REPLY's header and every byte checked
 *     (the pattern of seed 0x5eed at that offset).
 *
 * Throughout, what the router sends is checked against the typed
 * connection rules (wire 4.11: no NOOP on CONTROL or on what is its
 * BULK_OUT, no LNet message on its BULK_IN), every LNet header must be
 * addressed to us (dest NID and PID), from PID 12345, zero-copy requests
 * are acknowledged on our BULK_IN, and pings and pushes that come (the
 * router or DEST_NID discovering us after our push, recovery pings) are
 * answered as stock does (REPLY with our ping buffer, ACK).  At the end
 * it keeps serving for -q seconds (default 2) so that such a discovery
 * does not time out on the other nodes.  There are no hop counts in a
 * nid4 header: the router must leave every field but the LND's untouched.
 *
 * The last line on success is "OK: puts=N bytes=B gets=M pings=P
 * pushes=Q" (PUTs ACKed, their payload bytes, GETs answered, pings and
 * pushes it answered).  Exit status: 0 all as the spec says, 1 not (the
 * reason is printed), 2 usage or local error.
 */
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <time.h>

#include "sock_wire.h"

#define NCONNS			3
#define MIN_BULK		1024	/* bytes with headers: BULK_OUT */
#define PING_SINK		272	/* a discovery ping's first sink */
#define PING_MAX		4096
/* lnet_test's target (lnettest/lnet_test.c) */
#define LT_PORTAL		60
#define LT_PUT_BITS		0x1000000000ULL
#define LT_GET_BITS		0x2000000000ULL
#define LT_GET_SEED		0x5eedU

static const u32 sizes[] = { 0, 1, 3976, 3977, 65536, 1048576 };

struct conn {
	int fd;
	u32 ctype;		/* ours; the router's is its inverse */
	const char *name;
};

/* One message as read: ksock header, LNet header, payload. */
struct msg {
	struct conn *c;
	u8 ksh[KSOCK_HDR];
	u8 hdr[LNET_HDR];
	u8 *payload;
	u32 type;		/* LNet type, or KSOCK_NOOP */
	u32 len;
};

static struct conn conns[NCONNS] = {
	{ -1, CTYPE_CONTROL, "CONTROL" },
	{ -1, CTYPE_BULK_IN, "BULK_IN" },
	{ -1, CTYPE_BULK_OUT, "BULK_OUT" },
};

static unsigned int wait_secs = 30;
static u64 self, router, router_far, dest;
static u64 incarnation, wh_iface;
static u64 next_cookie = 0x5c000001ULL;
static u8 ping_buf[48];
static u8 *rxbuf;
static unsigned int pings_answered, pushes_acked;

/* A ping buffer's integers are in its sender's order: @sw if swapped. */
static u32 pg32(const u8 *b, bool sw)
{
	return sw ? swab32(get32(b)) : get32(b);
}

static u64 pg64(const u8 *b, bool sw)
{
	return sw ? __builtin_bswap64(get64(b)) : get64(b);
}

static int fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return 1;
}

/* Connect to @ip:988 from a privileged port (wire 3.3), no Nagle. */
static int connect_router(const char *ip)
{
	int one = 1, fd = sw_connect(ip, NULL, false);

	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Read exactly @len bytes within wait_secs: 0, or -1 (the reason printed). */
static int recv_all(struct conn *c, void *buf, size_t len, const char *what)
{
	bool timedout;
	size_t got = sw_recv(c->fd, buf, len, wait_secs, &timedout);

	if (got == len)
		return 0;
	if (timedout)
		fail("%s: %s: %zu of %zu bytes after %us", c->name, what, got,
		     len, wait_secs);
	else
		fail("%s: %s: connection closed by the router after %zu of %zu bytes",
		     c->name, what, got, len);
	return -1;
}

static u32 invert(u32 ctype)
{
	return ctype == CTYPE_BULK_IN ? CTYPE_BULK_OUT :
	       ctype == CTYPE_BULK_OUT ? CTYPE_BULK_IN : ctype;
}

/*
 * Open @c: connreq for the router's NID, our V3 HELLO, the router's
 * reply checked field by field (wire 3.2, 4.3, 4.6).  *@rinc is the
 * router's incarnation (0: not known yet).
 */
static int open_conn(const char *ip, struct conn *c, u64 *rinc)
{
	u8 b[CONNREQ_SIZE + HELLO_SIZE], r[HELLO_SIZE];
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	u64 nid;

	c->fd = connect_router(ip);
	if (c->fd < 0)
		return 2;
	if (getsockname(c->fd, (struct sockaddr *)&sa, &salen)) {
		perror("getsockname");
		return 2;
	}
	nid = (u64)SOCKLND << 48 | ntohl(sa.sin_addr.s_addr);
	if (self && nid != self)
		return fail("%s: local address %s, not %s as before", c->name,
			    nidstr(nid), nidstr(self));
	self = nid;
	/* stock's dst_pid and dst_incarnation: 0 */
	sw_connreq(b, ACCEPTOR_MAGIC, 1, router);
	sw_hello(b + CONNREQ_SIZE, self, router, 0, incarnation, 0, c->ctype, 0);
	if (send_all(c->fd, b, sizeof(b)))
		return fail("%s: send connreq + HELLO: %s", c->name,
			    strerror(errno));
	if (recv_all(c, r, sizeof(r), "HELLO reply"))
		return 1;
	if (get32(r) != PROTO_MAGIC)
		return fail("%s: HELLO reply magic 0x%08x, want 0x%08x (LE, as the router is)",
			    c->name, get32(r), PROTO_MAGIC);
	if (get32(r + 4) != KSOCK_V3)
		return fail("%s: HELLO reply version %u, want 3 (the active side's)",
			    c->name, get32(r + 4));
	if (get32(r + 48) == CTYPE_NONE)
		return fail("%s: the router refused the connection (ctype NONE)",
			    c->name);
	if (get32(r + 48) != invert(c->ctype))
		return fail("%s: HELLO reply ctype %u, want %u (ours inverted)",
			    c->name, get32(r + 48), invert(c->ctype));
	if (get64(r + 8) != router)
		return fail("%s: HELLO reply src_nid %s, want %s", c->name,
			    nidstr(get64(r + 8)), nidstr(router));
	if (get64(r + 16) != self)
		return fail("%s: HELLO reply dst_nid %s, want ours %s (wire 4.6 passive 7)",
			    c->name, nidstr(get64(r + 16)), nidstr(self));
	if (get32(r + 24) != PID_LUSTRE)
		return fail("%s: HELLO reply src_pid %u, want %u", c->name,
			    get32(r + 24), PID_LUSTRE);
	/* stock's passive side echoes our dst_pid and dst_incarnation (wire 4.3) */
	if (get32(r + 28) != 0 || get64(r + 40) != 0)
		return fail("%s: HELLO reply dst_pid %u, dst_incarnation 0x%llx: not ours echoed",
			    c->name, get32(r + 28),
			    (unsigned long long)get64(r + 40));
	if (!get64(r + 32))
		return fail("%s: HELLO reply incarnation 0", c->name);
	if (*rinc && get64(r + 32) != *rinc)
		return fail("%s: HELLO reply incarnation 0x%llx, 0x%llx on the first connection",
			    c->name, (unsigned long long)get64(r + 32),
			    (unsigned long long)*rinc);
	*rinc = get64(r + 32);
	if (get32(r + 52))
		return fail("%s: HELLO reply lists %u IPs (stock sends none)",
			    c->name, get32(r + 52));
	printf("%s: connected to %s (incarnation 0x%llx)\n", c->name,
	       nidstr(router), (unsigned long long)*rinc);
	return 0;
}

/* An LNet header from us (nid4, LE), zeroed first (wire 2.2). */
static void lnet_hdr(u8 *h, u64 to, u32 type, u32 len)
{
	sw_lnet_hdr(h, to, self, type, len);
}

/*
 * Send an LNet message (header @h, @len payload bytes) on the connection
 * stock picks (wire 4.11): CONTROL below 1024 bytes, else BULK_OUT.  No
 * zero-copy request (cookie 0).
 */
static int send_lnet(const u8 *h, const u8 *payload, u32 len)
{
	struct conn *c = KSOCK_HDR + LNET_HDR + len < MIN_BULK ?
			 &conns[0] : &conns[2];
	u8 k[KSOCK_HDR + LNET_HDR];

	sw_ksock_hdr(k, KSOCK_LNET, 0, 0);
	memcpy(k + KSOCK_HDR, h, LNET_HDR);
	if (send_all(c->fd, k, sizeof(k)) ||
	    (len && send_all(c->fd, payload, len)))
		return fail("%s: send: %s", c->name, strerror(errno));
	return 0;
}

/* A NOOP acknowledging zero-copy cookie @cookie, on our BULK_IN (wire 4.9). */
static int send_zc_ack(u64 cookie)
{
	u8 k[KSOCK_HDR];

	sw_ksock_hdr(k, KSOCK_NOOP, 0, cookie);
	if (send_all(conns[1].fd, k, sizeof(k)))
		return fail("BULK_IN: send ZC ACK: %s", strerror(errno));
	return 0;
}

/* Byte @off of lnet_test's pattern for @seed. */
static u8 pattern(u32 seed, u32 off)
{
	u32 w = (seed + (off >> 2)) * 0x9e3779b1U;

	return w >> (8 * (off & 3));
}

/*
 * Read one message from @c into @m and check it against what a stock
 * router may send there: the typed connection rules, an LNet header for
 * us from PID 12345, a sane length.
 */
static int read_msg(struct conn *c, struct msg *m)
{
	u8 *h = m->hdr;

	m->c = c;
	m->payload = rxbuf;
	if (recv_all(c, m->ksh, KSOCK_HDR, "ksock header"))
		return 1;
	m->type = get32(m->ksh);
	if (m->type == KSOCK_NOOP) {
		/* its BULK_IN (our BULK_OUT) carries NOOPs, nothing else does */
		if (c->ctype != CTYPE_BULK_OUT)
			return fail("%s: NOOP (0x%llx 0x%llx) on the router's %s (wire 4.11)",
				    c->name, (unsigned long long)get64(m->ksh + 8),
				    (unsigned long long)get64(m->ksh + 16),
				    c->ctype == CTYPE_CONTROL ? "CONTROL" : "BULK_OUT");
		/* we request no zero-copy ACK: only a keepalive may come */
		if (get64(m->ksh + 8) != 0 || get64(m->ksh + 16) != 1)
			return fail("%s: NOOP acking cookies 0x%llx 0x%llx: we requested none",
				    c->name, (unsigned long long)get64(m->ksh + 8),
				    (unsigned long long)get64(m->ksh + 16));
		return 0;
	}
	if (m->type != KSOCK_LNET)
		return fail("%s: ksock message type 0x%x", c->name, m->type);
	if (get32(m->ksh + 4))
		return fail("%s: ksh_csum 0x%x (V3 senders send 0)", c->name,
			    get32(m->ksh + 4));
	if (get64(m->ksh + 16))
		return fail("%s: LNET message acking ZC cookie 0x%llx: we requested none",
			    c->name, (unsigned long long)get64(m->ksh + 16));
	if (c->ctype == CTYPE_BULK_OUT)
		return fail("BULK_OUT: an LNet message on the router's BULK_IN (wire 4.11: never)");
	if (recv_all(c, h, LNET_HDR, "LNet header"))
		return 1;
	m->type = get32(h + 24);
	m->len = get32(h + 28);
	if (m->type > MSG_REPLY)
		return fail("%s: LNet message type %u", c->name, m->type);
	if (m->len > LNET_MTU ||
	    ((m->type == MSG_ACK || m->type == MSG_GET) && m->len))
		return fail("%s: LNet type %u with payload_length %u", c->name,
			    m->type, m->len);
	if (m->len && recv_all(c, rxbuf, m->len, "payload"))
		return 1;
	if (get64(m->ksh + 8) && send_zc_ack(get64(m->ksh + 8)))
		return 1;
	if (get64(h) != self)
		return fail("%s: LNet type %u for %s, not us (%s), from %s",
			    c->name, m->type, nidstr(get64(h)), nidstr(self),
			    nidstr(get64(h + 8)));
	if (get32(h + 16) != PID_LUSTRE || get32(h + 20) != PID_LUSTRE)
		return fail("%s: LNet type %u from %s: dest_pid %u src_pid %u, want 12345",
			    c->name, m->type, nidstr(get64(h + 8)),
			    get32(h + 16), get32(h + 20));
	return 0;
}

/*
 * A ping GET for us: REPLY with our ping buffer (wire 6), truncated to the
 * sink, through the router (the REPLY goes to the GET's source).
 */
static int answer_ping(const struct msg *m)
{
	const u8 *g = m->hdr + 32;
	u32 off = get32(g + 28), sink = get32(g + 32), len;
	u8 h[LNET_HDR];

	len = off >= sizeof(ping_buf) ? 0 : sizeof(ping_buf) - off;
	if (len > sink)
		len = sink;
	lnet_hdr(h, get64(m->hdr + 8), MSG_REPLY, len);
	memcpy(h + 32, g, 16);			/* dst_wmd = return_wmd */
	pings_answered++;
	printf("answered a ping from %s (sink %u)\n",
	       nidstr(get64(m->hdr + 8)), sink);
	return send_lnet(h, ping_buf + off, len);
}

/*
 * Check a ping buffer (@b, @len bytes) from @from: valid as discovery
 * validates it (wire 6.2); @want NIDs listed UP; *@feat its features.
 */
static int check_ping_info(const u8 *b, u32 len, u64 from, const u64 *want,
			   int nwant, u32 *feat)
{
	bool sw, found;
	u32 magic, nnis, st, i;
	int w;

	if (len < 16)
		return fail("ping info from %s: %u bytes", nidstr(from), len);
	magic = get32(b);
	sw = magic == swab32(PING_MAGIC);
	if (magic != PING_MAGIC && !sw)
		return fail("ping info from %s: magic 0x%08x", nidstr(from),
			    magic);
	*feat = pg32(b + 4, sw);
	nnis = pg32(b + 12, sw);
	if (!(*feat & FEAT_NI_STATUS))
		return fail("ping info from %s: features 0x%x without NI_STATUS",
			    nidstr(from), *feat);
	if (pg32(b + 8, sw) != PID_LUSTRE)
		return fail("ping info from %s: pid %u", nidstr(from),
			    pg32(b + 8, sw));
	if (nnis < 1 || len < 16 + 16 * nnis)
		return fail("ping info from %s: %u NIs in %u bytes",
			    nidstr(from), nnis, len);
	if (pg64(b + 16, sw) != NID_LO)
		return fail("ping info from %s: entry 0 is %s, not 0@lo",
			    nidstr(from), nidstr(pg64(b + 16, sw)));
	if (!pg32(b + 24, sw))
		return fail("ping info from %s: sequence 0 in entry 0",
			    nidstr(from));
	if (!(*feat & FEAT_LARGE_ADDR) && pg32(b + 28, sw))
		return fail("ping info from %s: entry 0 msg_size %u without LARGE_ADDR",
			    nidstr(from), pg32(b + 28, sw));
	printf("ping info from %s: features 0x%x, seq %u, %u NIs:", nidstr(from),
	       *feat, pg32(b + 24, sw), nnis);
	for (i = 1; i < nnis; i++) {
		st = pg32(b + 16 + 16 * i + 8, sw);
		printf(" %s %s", nidstr(pg64(b + 16 + 16 * i, sw)),
		       st == NS_UP ? "up" : st == NS_DOWN ? "down" : "?");
		if (st != NS_UP && st != NS_DOWN) {
			printf("\n");
			return fail("ping info from %s: %s status 0x%x",
				    nidstr(from), nidstr(pg64(b + 16 + 16 * i, sw)),
				    st);
		}
	}
	printf("\n");
	for (w = 0; w < nwant; w++) {
		found = false;
		for (i = 1; i < nnis; i++) {
			if (pg64(b + 16 + 16 * i, sw) != want[w])
				continue;
			found = true;
			if (pg32(b + 16 + 16 * i + 8, sw) != NS_UP)
				return fail("ping info from %s: %s is not UP",
					    nidstr(from), nidstr(want[w]));
		}
		if (!found)
			return fail("ping info from %s: %s not listed",
				    nidstr(from), nidstr(want[w]));
	}
	return 0;
}

/* A push PUT for us: check it, ACK it as LNet does (wire 7). */
static int answer_push(const struct msg *m)
{
	const u8 *p = m->hdr + 32;
	u64 from = get64(m->hdr + 8);
	u8 h[LNET_HDR];
	u32 feat;

	if (check_ping_info(m->payload, m->len, from, NULL, 0, &feat))
		return 1;
	if (!(feat & FEAT_MULTI_RAIL))
		return fail("push from %s without MULTI_RAIL (features 0x%x)",
			    nidstr(from), feat);
	pushes_acked++;
	printf("push from %s (%u bytes)\n", nidstr(from), m->len);
	if (get64(p) == WMD_NONE && get64(p + 8) == WMD_NONE)
		return 0;
	lnet_hdr(h, from, MSG_ACK, 0);
	memcpy(h + 32, p, 16);			/* dst_wmd = ack_wmd */
	put64(h + 48, get64(p + 16));		/* match bits */
	put32(h + 56, m->len);			/* mlength */
	return send_lnet(h, NULL, 0);
}

/*
 * Wait (wait_secs) for a message of @type carrying wire handle cookie
 * @cookie (ACK: dst_wmd; REPLY: dst_wmd), answering pings and pushes
 * meanwhile; with @type -1, serve for wait_secs and return 0.
 */
static int await(int type, u64 cookie, struct msg *m)
{
	struct pollfd pfd[NCONNS];
	time_t end = time(NULL) + wait_secs;
	const u8 *p;
	int i, n, left;

	for (;;) {
		left = end - time(NULL);
		if (left <= 0)
			break;
		for (i = 0; i < NCONNS; i++) {
			pfd[i].fd = conns[i].fd;
			pfd[i].events = POLLIN;
		}
		n = poll(pfd, NCONNS, left * 1000);
		if (n < 0 && errno != EINTR) {
			perror("poll");
			return 2;
		}
		for (i = 0; n > 0 && i < NCONNS; i++) {
			if (!pfd[i].revents)
				continue;
			if (read_msg(&conns[i], m))
				return 1;
			if (m->type == KSOCK_NOOP)
				continue;
			p = m->hdr + 32;
			if (m->type == MSG_GET && get32(p + 24) == 0 &&
			    get64(p + 16) == PING_BITS) {
				if (answer_ping(m))
					return 1;
				continue;
			}
			if (m->type == MSG_PUT && get32(p + 32) == 0 &&
			    get64(p + 16) == PING_BITS) {
				if (answer_push(m))
					return 1;
				continue;
			}
			if (type >= 0 && (int)m->type == type &&
			    get64(p + 8) == cookie &&
			    get64(p) == wh_iface)
				return 0;
			return fail("%s: unexpected type %u from %s (%llx, %llx), want %d %llx",
				    conns[i].name, m->type,
				    nidstr(get64(m->hdr + 8)),
				    (unsigned long long)get64(p + 8),
				    (unsigned long long)get64(p + 16), type,
				    (unsigned long long)cookie);
		}
	}
	if (type < 0)
		return 0;
	return fail("no %s (cookie 0x%llx) within %us",
		    type == MSG_ACK ? "ACK" : "REPLY",
		    (unsigned long long)cookie, wait_secs);
}

/* The response from @from: header fields common to ACK and REPLY. */
static int check_response(const struct msg *m, u64 from, const char *what)
{
	if (get64(m->hdr + 8) != from)
		return fail("%s: src_nid %s, want %s", what,
			    nidstr(get64(m->hdr + 8)), nidstr(from));
	/* the responder zeroes the header: bytes past the type's fields */
	for (int i = m->type == MSG_ACK ? 60 : 48; i < LNET_HDR; i++)
		if (m->hdr[i])
			return fail("%s: header byte %d is 0x%02x, not 0", what,
				    i, m->hdr[i]);
	return 0;
}

/* GET @len bytes at @off, portal @ptl, @bits of @to; the REPLY in @m. */
static int get(u64 to, u32 ptl, u64 bits, u32 off, u32 sink, struct msg *m,
	       const char *what)
{
	u64 cookie = next_cookie++;
	u8 h[LNET_HDR];

	lnet_hdr(h, to, MSG_GET, 0);
	put64(h + 32, wh_iface);		/* return_wmd */
	put64(h + 40, cookie);
	put64(h + 48, bits);
	put32(h + 56, ptl);
	put32(h + 60, off);			/* src_offset */
	put32(h + 64, sink);			/* sink_length */
	if (send_lnet(h, NULL, 0))
		return 1;
	if (await(MSG_REPLY, cookie, m))
		return fail("%s: no REPLY as the spec says", what);
	if (check_response(m, to, what))
		return 1;
	if (m->len > sink)
		return fail("%s: REPLY of %u bytes for a sink of %u", what,
			    m->len, sink);
	return 0;
}

/* PUT @len bytes of @b, ACK requested; the ACK checked. */
static int put(u64 to, u32 ptl, u64 bits, u64 hdr_data, const u8 *b,
	       u32 len, const char *what)
{
	u64 cookie = next_cookie++;
	u8 h[LNET_HDR];
	struct msg m;

	lnet_hdr(h, to, MSG_PUT, len);
	put64(h + 32, wh_iface);		/* ack_wmd */
	put64(h + 40, cookie);
	put64(h + 48, bits);
	put64(h + 56, hdr_data);
	put32(h + 64, ptl);
	put32(h + 68, 0);			/* offset */
	if (send_lnet(h, b, len))
		return 1;
	if (await(MSG_ACK, cookie, &m))
		return fail("%s: no ACK as the spec says", what);
	if (check_response(&m, to, what))
		return 1;
	if (get64(m.hdr + 48) != bits)
		return fail("%s: ACK match bits 0x%llx, want 0x%llx", what,
			    (unsigned long long)get64(m.hdr + 48),
			    (unsigned long long)bits);
	if (get32(m.hdr + 56) != len)
		return fail("%s: ACK mlength %u, want %u", what,
			    get32(m.hdr + 56), len);
	return 0;
}

/* Ping @nid (sink 272 as discovery's first) and check its buffer. */
static int ping_check(u64 nid, const u64 *want, int nwant, u32 *feat)
{
	char what[96];
	struct msg m;

	snprintf(what, sizeof(what), "ping of %s", nidstr(nid));
	if (get(nid, 0, PING_BITS, 0, PING_SINK, &m, what))
		return 1;
	return check_ping_info(m.payload, m.len, nid, want, nwant, feat);
}

/* Push our ping buffer to @nid (stock: after each ping of an MR peer). */
static int push_to(u64 nid)
{
	char what[96];

	snprintf(what, sizeof(what), "push to %s", nidstr(nid));
	if (put(nid, 0, PING_BITS, 0, ping_buf, sizeof(ping_buf), what))
		return 1;
	printf("push to %s ACKed\n", nidstr(nid));
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: sock_lustre [-t SECONDS] [-q SECONDS] ROUTER_IP ROUTER_NID ROUTER_FAR_NID DEST_NID\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned int quiet = 2, nputs = 0, ngets = 0, i;
	unsigned long long bytes = 0;
	u64 rinc = 0, want[2];
	u32 ns_up = NS_UP;
	struct timespec ts;
	u32 feat, seed, off, j;
	u8 *tx;
	struct msg m;
	char what[96];
	int opt, rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "t:q:")) != -1) {
		switch (opt) {
		case 't':
			wait_secs = atoi(optarg);
			break;
		case 'q':
			quiet = atoi(optarg);
			break;
		default:
			return bad_usage();
		}
	}
	if (argc - optind != 4 || !wait_secs)
		return bad_usage();
	router = parse_nid(argv[optind + 1]);
	router_far = parse_nid(argv[optind + 2]);
	dest = parse_nid(argv[optind + 3]);
	if (!router || !router_far || !dest || router >> 48 != SOCKLND)
		return bad_usage();
	rxbuf = malloc(LNET_MTU);
	tx = malloc(LNET_MTU);
	if (!rxbuf || !tx)
		return 2;
	clock_gettime(CLOCK_REALTIME, &ts);
	incarnation = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	wh_iface = incarnation;

	for (i = 0; i < NCONNS; i++) {
		rc = open_conn(argv[optind], &conns[i], &rinc);
		if (rc)
			return rc;
	}
	/* our ping buffer, as a client's (wire 6.2): 0@lo, our NID UP */
	sw_ping_info(ping_buf, FEAT_NI_STATUS | FEAT_RTE_DISABLED |
		     FEAT_MULTI_RAIL | FEAT_DISCOVERY, 1, &self, &ns_up, 1);
	printf("stock client %s, router %s (%s), destination %s\n",
	       nidstr(self), nidstr(router), nidstr(router_far), nidstr(dest));

	/* the router checker's check: ping, then push (routing 6.2, 11.1) */
	want[0] = router;
	want[1] = router_far;
	if (ping_check(router, want, 2, &feat))
		return 1;
	if (feat & FEAT_RTE_DISABLED)
		return fail("router %s: RTE_DISABLED (features 0x%x): stock takes its routes down",
			    nidstr(router), feat);
	if (!(feat & FEAT_MULTI_RAIL))
		return fail("router %s: features 0x%x without MULTI_RAIL (stock always sets it)",
			    nidstr(router), feat);
	if ((feat & FEAT_DISCOVERY) && push_to(router))
		return 1;

	/* discovery of the destination through the router (routing 3.5) */
	want[0] = dest;
	if (ping_check(dest, want, 1, &feat))
		return 1;
	if (!(feat & FEAT_MULTI_RAIL))
		return fail("%s: features 0x%x without MULTI_RAIL", nidstr(dest),
			    feat);
	if ((feat & FEAT_DISCOVERY) && push_to(dest))
		return 1;

	/* PUTs to lnet_test's bulk sink, the target checks every byte */
	seed = 0x50c50000U + (u32)(incarnation >> 20 & 0xffff);
	for (i = 0; i < sizeof(sizes) / sizeof(*sizes); i++, seed++) {
		for (j = 0; j < sizes[i]; j++)
			tx[j] = pattern(seed, j);
		snprintf(what, sizeof(what), "PUT of %u bytes to %s", sizes[i],
			 nidstr(dest));
		if (put(dest, LT_PORTAL, LT_PUT_BITS, seed, tx, sizes[i], what))
			return 1;
		nputs++;
		bytes += sizes[i];
		printf("%s ACKed\n", what);
	}

	/* GETs from lnet_test's GET source: every byte checked here */
	for (i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		off = (i * 4097 + 3) % (LNET_MTU - sizes[i] + 1);
		snprintf(what, sizeof(what), "GET of %u bytes at %u from %s",
			 sizes[i], off, nidstr(dest));
		if (get(dest, LT_PORTAL, LT_GET_BITS, off, sizes[i], &m, what))
			return 1;
		if (m.len != sizes[i])
			return fail("%s: REPLY of %u bytes", what, m.len);
		for (j = 0; j < m.len; j++)
			if (m.payload[j] != pattern(LT_GET_SEED, off + j))
				return fail("%s: byte %u is 0x%02x, want 0x%02x",
					    what, j, m.payload[j],
					    pattern(LT_GET_SEED, off + j));
		ngets++;
		printf("%s: REPLY intact\n", what);
	}

	/* pings and pushes still to come are answered meanwhile */
	wait_secs = quiet;
	if (quiet && await(-1, 0, &m))
		return 1;
	for (i = 0; i < NCONNS; i++)
		close(conns[i].fd);
	printf("OK: puts=%u bytes=%llu gets=%u pings=%u pushes=%u\n", nputs,
	       bytes, ngets, pings_answered, pushes_acked);
	return 0;
}
