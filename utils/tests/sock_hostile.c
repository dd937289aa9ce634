// SPDX-License-Identifier: GPL-2.0
/*
 * sock_hostile: a hostile client for the LNet acceptor and ksocklnd.
 *
 *	sock_hostile [-t SECONDS] [-S SRC_NID] [-n COUNT] IP NID ATTACK
 *
 * Connects to IP port 988 from a privileged source port (as a kernel peer
 * does), plays ATTACK against the node whose NID is NID and checks that
 * the node answers as the wire protocol says: it closes the connection,
 * after the reply the protocol asks for where there is one.  SRC_NID is
 * the NID claimed in valid HELLOs (default 192.0.2.250@tcp, no real node).
 * Byte layouts follow the LNet wire protocol: the acceptor connection
 * request (16 bytes), the socklnd V3 HELLO (56 bytes + 4 x nips), the
 * ksock message header (24 bytes) and the nid4 LNet header (72 bytes),
 * every integer little-endian.
 * dest_other and dest_local send a ping GET the node must not take nor
 * forward (routing spec 4.1 rows 3 and 4): to another address of the
 * connection's net, and to 0@lo; it closes the connection.
 * spoof_src and routed_src send a GET to the ping portal whose source
 * NID is not the connection's (spec 2.6: a response goes back through
 * the NID the message came from): one on the connection's own net, which
 * no direct peer sends (the node must close the connection), and one on
 * another net, as a router forwards (the node must reply over this
 * connection, addressed to that source).
 *
 * mutate (-m SEED, for -t SECONDS) plays sessions that are mostly valid
 * and mutated: each a connection request, a V3 HELLO and up to 8 ksock
 * messages (NOOPs, PUTs with payload, ping GETs), of which most get one
 * to four mutations (a bit flipped, a byte or a 32-bit field set to an
 * edge value, the stream cut short or a piece repeated) before it is
 * sent, the node's answers read and dropped; every session from its own
 * incarnation, closed with a reset.  The same SEED plays the same
 * sessions.  It passes when, after them, a valid HELLO is still answered.
 *
 * Exit status: 0 the node behaved, 1 it did not (the reason is printed),
 * 2 usage or local error.  "sock_hostile -l" lists the attacks.
 */
#include <poll.h>
#include <time.h>

#include "mutate.h"
#include "sock_wire.h"

#define PROTO_TCP_MAGIC		0xEEBC0DEDU	/* socklnd V1 */
#define KSOCK_MSG_HDR_SIZE	KSOCK_HDR
#define KSOCK_MSG_NOOP		KSOCK_NOOP
#define KSOCK_MSG_LNET		KSOCK_LNET
#define LNET_HDR_SIZE		LNET_HDR
#define LNET_MSG_PUT		MSG_PUT
#define LNET_MSG_GET		MSG_GET
#define LNET_MSG_REPLY		MSG_REPLY
#define PING_MATCHBITS		PING_BITS
#define GET_COOKIE		0x600dc0de5eedULL
#define ROUTED_SRC		"198.18.7.7@tcp9"
#define LNET_PID_LUSTRE		PID_LUSTRE
#define NID_ANY			0xFFFFFFFFFFFFFFFFULL
#define NID_HIGH		0x0B00000000000000ULL	/* bits 63..56: no NID */

static unsigned int wait_secs = 30;

static int fail(const char *why)
{
	printf("FAIL: %s\n", why);
	return 1;
}

/* Connect to @ip:988 from a privileged port (1023 down to 512), or from
 * an ephemeral one with @unpriv.
 */
static int connect_node(const char *ip, bool unpriv)
{
	return sw_connect(ip, NULL, unpriv);
}

/*
 * Read exactly @len bytes within wait_secs; returns @len, 0 on EOF or
 * reset before all came, -1 on timeout.
 */
static ssize_t recv_all(int fd, void *buf, size_t len)
{
	bool timedout;
	size_t got = sw_recv(fd, buf, len, wait_secs, &timedout);

	if (got == len)
		return got;
	return timedout ? -1 : 0;
}

/* The node must close the connection (EOF or reset) within wait_secs,
 * sending nothing more; -1 on timeout, 1 if it sent data, 0 if closed.
 */
static int expect_close(int fd)
{
	u8 c;
	ssize_t n = recv_all(fd, &c, 1);

	if (n < 0) {
		printf("FAIL: connection still open after %us\n", wait_secs);
		return 1;
	}
	if (n > 0) {
		printf("FAIL: unexpected byte 0x%02x instead of a close\n", c);
		return 1;
	}
	return 0;
}

static void connreq(u8 *b, u32 magic, u32 version,
		    u64 nid)
{
	sw_connreq(b, magic, version, nid);
}

/* A V3 HELLO from @src to @dst. */
static void hello(u8 *b, u64 src, u64 dst, u32 ctype,
		  u32 nips)
{
	sw_hello(b, src, dst, 0, 0x1badcafe0000ULL + (u64)time(NULL), 0,
		 ctype, nips);
}

/* The node's answer to a bad connreq: {ACCEPTOR_MAGIC, 1, nid 0}. */
static int expect_old_connreq(int fd)
{
	u8 b[CONNREQ_SIZE];

	if (recv_all(fd, b, sizeof(b)) != sizeof(b))
		return fail("no 16-byte connreq reply");
	if (get32(b) != ACCEPTOR_MAGIC || get32(b + 4) != 1 || get64(b + 8))
		return fail("connreq reply is not {0xacce7100, 1, 0}");
	return expect_close(fd);
}

/*
 * Read the node's V3 HELLO reply; its ctype must be @ctype and, unless
 * the reply is a refusal, its source NID @nid.
 */
static int expect_hello(int fd, u64 nid, u32 ctype)
{
	u8 b[HELLO_SIZE], ips[64];
	u32 nips;

	if (recv_all(fd, b, sizeof(b)) != sizeof(b))
		return fail("no HELLO reply");
	if (get32(b) != PROTO_MAGIC || get32(b + 4) != KSOCK_V3)
		return fail("HELLO reply: not a V3 HELLO");
	if (get32(b + 48) != ctype) {
		printf("FAIL: HELLO reply ctype 0x%x, want 0x%x\n",
		       get32(b + 48), ctype);
		return 1;
	}
	if (ctype != CTYPE_NONE && get64(b + 8) != nid)
		return fail("HELLO reply: source NID is not the node's");
	nips = get32(b + 52);
	if (nips > 16)
		return fail("HELLO reply: nips above 16");
	if (nips && recv_all(fd, ips, 4 * nips) != 4 * nips)
		return fail("HELLO reply: IP list missing");
	return 0;
}

/* A ksock message header, LE. */
static void ksock_hdr(u8 *b, u32 type, u64 c0, u64 c1)
{
	sw_ksock_hdr(b, type, c0, c1);
}

/* A ksock LNET message header + nid4 LNet PUT header to @dst. */
static void lnet_put(u8 *b, u64 dst, u64 src, u32 type,
		     u32 len)
{
	u8 *h = b + KSOCK_MSG_HDR_SIZE;

	ksock_hdr(b, KSOCK_MSG_LNET, 0, 0);
	sw_lnet_hdr(h, dst, src, type, len);
	/* PUT: no ACK wanted, match bits, hdr_data, portal 63, offset 0 */
	memset(h + 32, 0xff, 16);
	put64(h + 48, 0x4057113ULL);
	put32(h + 64, 63);
}

/* A ksock LNET message header + nid4 LNet GET of the ping buffer. */
static void lnet_ping_get(u8 *b, u64 dst, u64 src)
{
	u8 *h = b + KSOCK_MSG_HDR_SIZE;

	ksock_hdr(b, KSOCK_MSG_LNET, 0, 0);
	sw_lnet_hdr(h, dst, src, LNET_MSG_GET, 0);
	put64(h + 32, 0x1234);			/* return wmd */
	put64(h + 40, GET_COOKIE);
	put64(h + 48, PING_MATCHBITS);
	put32(h + 56, 0);			/* portal 0 */
	put32(h + 60, 0);			/* src_offset */
	put32(h + 64, 4096);			/* sink_length */
}

/*
 * The REPLY to lnet_ping_get() from @src: skipping NOOPs, an LNET
 * message whose header is a REPLY from @nid to @src for GET_COOKIE,
 * with its payload.
 */
static int expect_reply(int fd, u64 nid, u64 src)
{
	u8 b[KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE], payload[4096];
	u8 *h = b + KSOCK_MSG_HDR_SIZE;
	u32 len;

	do {
		if (recv_all(fd, b, KSOCK_MSG_HDR_SIZE) != KSOCK_MSG_HDR_SIZE)
			return fail("no REPLY to the GET");
	} while (get32(b) == KSOCK_MSG_NOOP);
	if (get32(b) != KSOCK_MSG_LNET)
		return fail("not an LNET message");
	if (recv_all(fd, h, LNET_HDR_SIZE) != LNET_HDR_SIZE)
		return fail("truncated LNet header");
	if (get32(h + 24) != LNET_MSG_REPLY)
		return fail("the answer is not a REPLY");
	if (get64(h) != src || get64(h + 8) != nid)
		return fail("REPLY: not from the node to the GET's source");
	if (get64(h + 40) != GET_COOKIE)
		return fail("REPLY: not for the GET's MD");
	len = get32(h + 28);
	if (!len || len > sizeof(payload))
		return fail("REPLY: bad payload length");
	if (recv_all(fd, payload, len) != len)
		return fail("REPLY: truncated payload");
	return 0;
}

enum stage { CONNECTED, CONNREQ_SENT, HELLO_DONE };

struct attack {
	const char *name;
	enum stage stage;	/* what is done before the attack */
	const char *what;
};

static const struct attack attacks[] = {
	{ "unpriv_port", CONNECTED, "valid connreq from port > 1023" },
	{ "acc_bad_magic", CONNECTED, "connreq magic 0xdeadbeef" },
	{ "acc_tcp_magic", CONNECTED, "pre-acceptor socklnd magic" },
	{ "acc_lnet_magic", CONNECTED, "LNET_PROTO_MAGIC: old-peer reply" },
	{ "acc_bad_version", CONNECTED, "connreq version 3" },
	{ "acc_bad_nid", CONNECTED, "connreq for a NID not the node's" },
	{ "acc_nid_high", CONNECTED, "connreq for the node's NID, bits 63..56 set" },
	{ "acc_garbage", CONNECTED, "64 bytes of garbage" },
	{ "acc_timeout", CONNECTED, "2 bytes of connreq, then silence" },
	{ "acc_flood", CONNECTED, "-n connections that send nothing, held -t s" },
	{ "hello_bad_magic", CONNREQ_SENT, "HELLO magic 0x12345678" },
	{ "hello_bad_version", CONNREQ_SENT, "HELLO version 9" },
	{ "hello_bad_nips", CONNREQ_SENT, "HELLO with nips 1000" },
	{ "hello_bad_ctype", CONNREQ_SENT, "HELLO ctype 7" },
	{ "hello_bad_nid", CONNREQ_SENT, "HELLO from LNET_NID_ANY" },
	{ "hello_nid_high", CONNREQ_SENT, "HELLO from a nid4 with bits 63..56 set" },
	{ "hello_trunc", CONNREQ_SENT, "30 bytes of HELLO, then silence" },
	{ "hello_trunc_close", CONNREQ_SENT, "30 bytes of HELLO, then close" },
	{ "msg_bad_type", HELLO_DONE, "ksock message type 0xc7" },
	{ "msg_bad_hdr", HELLO_DONE, "LNet header of type 9" },
	{ "msg_too_long", HELLO_DONE, "PUT of 2 MiB (above LNET_MTU)" },
	{ "msg_trunc_hdr", HELLO_DONE, "half an LNet header, then close" },
	{ "msg_trunc_payload", HELLO_DONE, "PUT of 4 KiB, 100 B sent, close" },
	{ "msg_zc_bad_cookie", HELLO_DONE, "NOOP acking unknown cookie" },
	{ "keepalive", HELLO_DONE, "valid keepalive NOOP, then close" },
	{ "spoof_src", HELLO_DONE, "ping GET from another NID of the net" },
	{ "routed_src", HELLO_DONE, "ping GET from " ROUTED_SRC ": REPLY" },
	{ "dest_other", HELLO_DONE, "ping GET to another NID of the net" },
	{ "dest_local", HELLO_DONE, "ping GET to 0@lo (the node's, other net)" },
	{ "mutate", CONNECTED, "-t s of mutated sessions (-m SEED)" },
};

static int run_attack(const struct attack *a, int fd, u64 nid,
		      u64 src)
{
	u8 b[KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE + 128];
	const char *n = a->name;
	size_t len = 0;

	memset(b, 0, sizeof(b));
	if (!strcmp(n, "unpriv_port")) {
		connreq(b, ACCEPTOR_MAGIC, 1, nid);
		hello(b + CONNREQ_SIZE, src, nid, CTYPE_CONTROL, 0);
		len = CONNREQ_SIZE + HELLO_SIZE;
	} else if (!strcmp(n, "acc_bad_magic")) {
		connreq(b, 0xDEADBEEFU, 1, nid);
		len = CONNREQ_SIZE;
	} else if (!strcmp(n, "acc_tcp_magic")) {
		connreq(b, PROTO_TCP_MAGIC, 1, nid);
		len = CONNREQ_SIZE;
	} else if (!strcmp(n, "acc_lnet_magic")) {
		put32(b, PROTO_MAGIC);
		put32(b + 4, KSOCK_V3);
		if (send_all(fd, b, 8))
			return fail("send");
		return expect_old_connreq(fd);
	} else if (!strcmp(n, "acc_bad_version")) {
		connreq(b, ACCEPTOR_MAGIC, 3, nid);
		if (send_all(fd, b, CONNREQ_SIZE))
			return fail("send");
		return expect_old_connreq(fd);
	} else if (!strcmp(n, "acc_bad_nid")) {
		/* Same net, another address: no NI of the node has it. */
		connreq(b, ACCEPTOR_MAGIC, 1, nid ^ 0x80);
		hello(b + CONNREQ_SIZE, src, nid ^ 0x80, CTYPE_CONTROL, 0);
		len = CONNREQ_SIZE + HELLO_SIZE;
	} else if (!strcmp(n, "acc_nid_high")) {
		/* No NID (spec 1.3), not the node's NID cut to 56 bits. */
		connreq(b, ACCEPTOR_MAGIC, 1, nid | NID_HIGH);
		hello(b + CONNREQ_SIZE, src, nid, CTYPE_CONTROL, 0);
		len = CONNREQ_SIZE + HELLO_SIZE;
	} else if (!strcmp(n, "acc_garbage")) {
		for (len = 0; len < 64; len++)
			b[len] = len * 37 + 11;
		len = 64;
	} else if (!strcmp(n, "acc_timeout")) {
		connreq(b, ACCEPTOR_MAGIC, 1, nid);
		len = 2;
	} else if (!strcmp(n, "hello_bad_magic")) {
		hello(b, src, nid, CTYPE_CONTROL, 0);
		put32(b, 0x12345678);
		len = HELLO_SIZE;
	} else if (!strcmp(n, "hello_bad_version")) {
		hello(b, src, nid, CTYPE_CONTROL, 0);
		put32(b + 4, 9);
		if (send_all(fd, b, HELLO_SIZE))
			return fail("send");
		/* "Use V3": a V3 HELLO with ctype NONE, then close. */
		return expect_hello(fd, nid, CTYPE_NONE) ?: expect_close(fd);
	} else if (!strcmp(n, "hello_bad_nips")) {
		hello(b, src, nid, CTYPE_CONTROL, 1000);
		len = HELLO_SIZE;
	} else if (!strcmp(n, "hello_bad_ctype")) {
		hello(b, src, nid, 7, 0);
		len = HELLO_SIZE;
	} else if (!strcmp(n, "hello_bad_nid")) {
		hello(b, NID_ANY, nid, CTYPE_CONTROL, 0);
		len = HELLO_SIZE;
	} else if (!strcmp(n, "hello_nid_high")) {
		hello(b, src | NID_HIGH, nid, CTYPE_CONTROL, 0);
		len = HELLO_SIZE;
	} else if (!strcmp(n, "hello_trunc") ||
		   !strcmp(n, "hello_trunc_close")) {
		hello(b, src, nid, CTYPE_CONTROL, 0);
		len = 30;
	} else if (!strcmp(n, "msg_bad_type")) {
		ksock_hdr(b, 0xC7, 0, 0);
		len = KSOCK_MSG_HDR_SIZE;
	} else if (!strcmp(n, "msg_bad_hdr")) {
		lnet_put(b, nid, src, 9, 0);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE;
	} else if (!strcmp(n, "msg_too_long")) {
		lnet_put(b, nid, src, LNET_MSG_PUT, 2 * LNET_MTU);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE + 64;
	} else if (!strcmp(n, "msg_trunc_hdr")) {
		lnet_put(b, nid, src, LNET_MSG_PUT, 4096);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE / 2;
	} else if (!strcmp(n, "msg_trunc_payload")) {
		lnet_put(b, nid, src, LNET_MSG_PUT, 4096);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE + 100;
	} else if (!strcmp(n, "msg_zc_bad_cookie")) {
		ksock_hdr(b, KSOCK_MSG_NOOP, 0, 0x5eed1234ULL);
		len = KSOCK_MSG_HDR_SIZE;
	} else if (!strcmp(n, "spoof_src")) {
		/* The node's own net, an address that is neither. */
		lnet_ping_get(b, nid, (nid & ~0xffULL) | 0x99);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE;
	} else if (!strcmp(n, "routed_src")) {
		lnet_ping_get(b, nid, parse_nid(ROUTED_SRC));
		if (send_all(fd, b, KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE))
			return fail("send");
		return expect_reply(fd, nid, parse_nid(ROUTED_SRC));
	} else if (!strcmp(n, "dest_other")) {
		/*
		 * Routing spec 4.1 row 3: not for the node, and on the net it
		 * came by: a peer there sends direct (closed, not_for_me).
		 */
		lnet_ping_get(b, (nid & ~0xffULL) | 0x77, src);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE;
	} else if (!strcmp(n, "dest_local")) {
		/* Row 4: another of the node's NIDs (closed, routed_local). */
		lnet_ping_get(b, NID_LO, src);
		len = KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE;
	} else if (!strcmp(n, "keepalive")) {
		ksock_hdr(b, KSOCK_MSG_NOOP, 0, 1);
		len = KSOCK_MSG_HDR_SIZE;
	}
	if (send_all(fd, b, len))
		return fail("send");
	/* Attacks that end with our close: nothing to see from here. */
	if (!strcmp(n, "hello_trunc_close") || !strcmp(n, "msg_trunc_hdr") ||
	    !strcmp(n, "msg_trunc_payload") || !strcmp(n, "keepalive"))
		return 0;
	return expect_close(fd);
}

#define SESSION_MAX	(CONNREQ_SIZE + HELLO_SIZE + \
			 8 * (KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE + 8192) + 4096)

/*
 * One valid session into @b: connreq, HELLO from @src with incarnation
 * @inc, then 1..8 messages.  Returns its length; *@msgs is where the
 * messages start.
 */
static size_t valid_session(u8 *b, u64 nid, u64 src, u64 inc, size_t *msgs)
{
	size_t len = 0, plen;
	unsigned int i, n = 1 + rnd(8);

	connreq(b, ACCEPTOR_MAGIC, 1, nid);
	len += CONNREQ_SIZE;
	hello(b + len, src, nid, CTYPE_CONTROL, 0);
	put64(b + len + 32, inc);
	len += HELLO_SIZE;
	*msgs = len;
	for (i = 0; i < n; i++) {
		switch (rnd(3)) {
		case 0:
			ksock_hdr(b + len, KSOCK_MSG_NOOP, 0, rnd(2));
			len += KSOCK_MSG_HDR_SIZE;
			break;
		case 1:
			plen = rnd(8193);
			lnet_put(b + len, nid, src, LNET_MSG_PUT, plen);
			len += KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE;
			memset(b + len, 0x5a, plen);
			len += plen;
			break;
		default:
			lnet_ping_get(b + len, nid, src);
			len += KSOCK_MSG_HDR_SIZE + LNET_HDR_SIZE;
		}
	}
	return len;
}

/*
 * Send @b[0..@len) while reading and dropping what the node sends, then
 * read for up to 200 ms more.  Returns 1 if the node closed the
 * connection, 0 if not.
 */
static int play(int fd, const u8 *b, size_t len)
{
	struct pollfd pfd = { .fd = fd };
	size_t off = 0;
	u8 sink[8192];
	ssize_t n;

	for (;;) {
		pfd.events = POLLIN | (off < len ? POLLOUT : 0);
		if (poll(&pfd, 1, 200) <= 0)
			return 0;
		if (pfd.revents & (POLLERR | POLLHUP))
			return 1;
		if (pfd.revents & POLLIN) {
			n = recv(fd, sink, sizeof(sink), MSG_DONTWAIT);
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
				return 1;
		}
		if (off < len && (pfd.revents & POLLOUT)) {
			n = send(fd, b + off, len - off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				return 1;
			if (n > 0)
				off += n;
		}
	}
}

/*
 * mutated_sessions: mostly valid, mutated sessions for @secs seconds from @seed,
 * then a valid HELLO that the node must still answer.
 */
static int mutated_sessions(const char *ip, u64 nid, u64 src, u64 seed,
			    unsigned int secs)
{
	struct linger rst = { .l_onoff = 1, .l_linger = 0 };
	u64 inc = 0x6d757400000000ULL + ((u64)time(NULL) << 12);
	unsigned int sessions = 0, mutated = 0, closed = 0, i, k;
	time_t end = time(NULL) + secs;
	u8 *b = malloc(SESSION_MAX);
	size_t len, msgs;
	int fd, rc;

	if (!b)
		return 2;
	rnd_state = seed ? seed : 1;
	while (time(NULL) < end) {
		len = valid_session(b, nid, src, inc + sessions, &msgs);
		/* One in four goes valid; mutations mostly hit the messages. */
		k = rnd(4) ? 1 + rnd(4) : 0;
		for (i = 0; i < k && len; i++)
			mutate_once(b, &len, rnd(10) < 3 ? 0 : msgs < len ?
				    msgs : 0, SESSION_MAX);
		mutated += !!k;
		fd = connect_node(ip, false);
		if (fd < 0) {
			free(b);
			return 2;
		}
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
		closed += play(fd, b, len);
		close(fd);
		sessions++;
	}
	/* Still serving: a valid HELLO gets the node's. */
	fd = connect_node(ip, false);
	if (fd < 0) {
		free(b);
		return 2;
	}
	connreq(b, ACCEPTOR_MAGIC, 1, nid);
	hello(b + CONNREQ_SIZE, src, nid, CTYPE_CONTROL, 0);
	put64(b + CONNREQ_SIZE + 32, inc + sessions);
	rc = send_all(fd, b, CONNREQ_SIZE + HELLO_SIZE) ?
	     fail("send the final HELLO") : expect_hello(fd, nid, CTYPE_CONTROL);
	close(fd);
	free(b);
	printf("mutate: seed %llu: %u sessions, %u mutated, %u closed by the node; ",
	       (unsigned long long)seed, sessions, mutated, closed);
	printf("final HELLO %s\n", rc ? "not answered" : "answered");
	return rc;
}

/*
 * acc_flood: @n connections that send nothing, held @secs seconds (the
 * node must bound what it spends on them); prints when all are open.
 */
static int flood(const char *ip, unsigned int n, unsigned int secs)
{
	int *fds = calloc(n, sizeof(*fds));
	unsigned int i;

	if (!fds)
		return 2;
	for (i = 0; i < n; i++) {
		fds[i] = connect_node(ip, false);
		if (fds[i] < 0)
			return 2;
	}
	printf("%u connections open\n", n);
	fflush(stdout);
	sleep(secs);
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: sock_hostile [-t SECONDS] [-S SRC_NID] [-n COUNT] [-m SEED] IP NID ATTACK\n"
		"       sock_hostile -l\n");
	return 2;
}

int main(int argc, char **argv)
{
	const struct attack *a = NULL;
	u64 nid, src = parse_nid("192.0.2.250@tcp");
	u8 b[CONNREQ_SIZE + HELLO_SIZE];
	unsigned int i, count = 100;
	unsigned long long seed = 1;
	int opt, fd, rc;

	while ((opt = getopt(argc, argv, "lt:S:n:m:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < sizeof(attacks) / sizeof(*attacks); i++)
				printf("%-18s %s\n", attacks[i].name,
				       attacks[i].what);
			return 0;
		case 't':
			wait_secs = atoi(optarg);
			break;
		case 'S':
			src = parse_nid(optarg);
			if (!src || src >> 48 != SOCKLND)
				return bad_usage();
			break;
		case 'm':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			count = atoi(optarg);
			if (!count || count > 500)
				return bad_usage();
			break;
		default:
			return bad_usage();
		}
	}
	if (argc - optind != 3)
		return bad_usage();
	nid = parse_nid(argv[optind + 1]);
	for (i = 0; i < sizeof(attacks) / sizeof(*attacks); i++)
		if (!strcmp(argv[optind + 2], attacks[i].name))
			a = &attacks[i];
	if (!nid || nid >> 48 != SOCKLND || !a)
		return bad_usage();
	if (!strcmp(a->name, "acc_flood"))
		return flood(argv[optind], count, wait_secs);
	if (!strcmp(a->name, "mutate"))
		return mutated_sessions(argv[optind], nid, src, seed,
					wait_secs);

	fd = connect_node(argv[optind], !strcmp(a->name, "unpriv_port"));
	if (fd < 0)
		return 2;
	if (a->stage >= CONNREQ_SENT) {
		connreq(b, ACCEPTOR_MAGIC, 1, nid);
		if (send_all(fd, b, CONNREQ_SIZE))
			return fail("send connreq");
	}
	if (a->stage >= HELLO_DONE) {
		hello(b, src, nid, CTYPE_CONTROL, 0);
		if (send_all(fd, b, HELLO_SIZE))
			return fail("send HELLO");
		rc = expect_hello(fd, nid, CTYPE_CONTROL);
		if (rc)
			return rc;
	}
	rc = run_attack(a, fd, nid, src);
	close(fd);
	if (!rc)
		printf("%s: OK\n", a->name);
	return rc;
}
