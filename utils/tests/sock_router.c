// SPDX-License-Identifier: GPL-2.0
/*
 * sock_router: a stock Lustre 2.17 router on tcp, scripted, routing
 * between two end nodes of ours.
 *
 *	sock_router [-t SECONDS] [-c SECONDS] [-s SECONDS] NEAR_NID FAR_NID
 *		    A_NID B_NID
 *
 * The node it runs on has its LNet unloaded; NEAR_NID (on A_NID's net)
 * and FAR_NID (on B_NID's net, another tcp net) are its NIDs, their
 * addresses its own.  As a stock router with discovery on does
 * (lnet-routing.md 4, 5, 6, 11.2, 14 items 8-11, 13;
 * lnet-wire-protocol.md 3, 4, 6, 7):
 *
 *  - it accepts socklnd connections on port 988 (from privileged ports:
 *    stock's acceptor refuses others), answering V3 HELLOs as the passive
 *    side does (dst_pid and dst_incarnation echoed, wire 4.3), and opens
 *    CONTROL, BULK_IN and BULK_OUT connections itself from a privileged
 *    port of its NID's address when it has something to send and no
 *    connection (a refusal, a connection race, waits for the peer's);
 *  - it forwards store-and-forward every LNet message whose dest_nid is
 *    the end node on its other net, the LNet header unchanged (routing
 *    4.4: only the ksock framing is its own), on CONTROL below 1024
 *    bytes and BULK_OUT above (wire 4.11), acknowledging zero-copy
 *    requests with a NOOP on its BULK_IN;
 *  - it answers pings with its ping buffer: NEAR_NID and FAR_NID UP,
 *    features NI_STATUS|MULTI_RAIL|DISCOVERY, RTE_DISABLED while it
 *    drains; it ACKs pushes;
 *  - before it forwards a PUT or GET on a non-zero portal to a node it
 *    has not discovered, it discovers it (ping, then push if it is MR):
 *    the message waits, and is dropped if that fails (routing 4.4), which
 *    here fails the test;
 *  - SIGUSR1 starts a drain (RTE_DISABLED in its ping buffer, the
 *    sequence unchanged: routing 5.1); SIGUSR2 ends it (routing 1): the
 *    flag cleared, a forced push of its ping buffer to every MR peer.
 *
 * It checks what the end nodes do as the spec requires them to
 * (routing 11.2), failing with the reason otherwise: every forwarded
 * header's src_nid is the sender's NI on the net it came from and its
 * dest_nid the end node on the other net (not on the arrival net, not one
 * of the router's NIDs: 4.1, 11.2 item 1); each end node, once it pinged
 * the router, pings it again within -c SECONDS (its router checker's
 * alive_router_check_interval plus slack; 11.2 item 3); once the router
 * answered a ping of A_NID with RTE_DISABLED, no new request (PUT, GET)
 * from A_NID arrives to be forwarded more than -s SECONDS (default 1)
 * later (11.2 item 4, 14 item 10); after a drain, its forced push is
 * ACKed by A_NID and A_NID's requests come through again (14 item 11).
 * Any other message for the router, a peer's connection to it closed
 * mid-message, or a message it cannot deliver within -t SECONDS (default
 * 20) fails it too.
 *
 * SIGTERM ends it.  The last line on success is "OK: a->b=N b->a=M
 * held=H pings=P (a=PA b=PB) pushes_in=I pushes_out=O drains=D
 * resumed=R" (messages forwarded each way, how many of them waited for
 * the router's discovery, pings answered, pushes received, its own pushes
 * ACKed, drains ended, A_NID's requests forwarded after a drain).  Exit
 * status: 0 all as the spec says, 1 not (the reason printed), 2 usage or
 * local error.
 */
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <time.h>

#include "sock_wire.h"

#define MIN_BULK		1024	/* bytes with headers: BULK_OUT */
#define PING_SINK		272	/* a discovery ping's first sink */
#define MAX_CONNS		8	/* per peer */
#define MAX_QUEUED		64	/* per peer */

enum disc { DISC_NONE, DISC_PING, DISC_PUSH, DISC_DONE };

struct conn {
	int fd;
	u32 ctype;		/* ours: the peer's inverted */
};

/* A message read whole, to forward or to send. */
struct msg {
	u8 hdr[LNET_HDR];
	u8 *payload;
	u32 len;
	bool held;		/* waits for the discovery of its target */
	time_t since;
};

struct peer {
	const char *name;
	u64 nid;		/* the end node */
	u64 me;			/* our NID on its net */
	char ip[INET_ADDRSTRLEN], my_ip[INET_ADDRSTRLEN];
	struct conn conns[MAX_CONNS];
	int nconns;
	time_t refused;		/* our connection refused: wait for its */
	struct msg *q[MAX_QUEUED];
	int nq;
	enum disc disc;
	u64 disc_cookie;
	time_t disc_deadline;
	u64 push_cookie;	/* our forced push, not ACKed yet */
	bool mr;		/* it advertised MULTI_RAIL and DISCOVERY */
	time_t last_ping;	/* its last ping of our NI on its net */
	unsigned int pings, pushes_in, fwd, held;
};

static struct peer peers[2] = { { .name = "a" }, { .name = "b" } };
static unsigned int wait_secs = 20, check_secs, drain_slack = 1;
static u64 incarnation, next_cookie = 0x5e000001ULL;
static bool draining;
static time_t drain_seen;	/* a saw RTE_DISABLED in our ping reply */
static unsigned int drains, resumed, pushes_out;
static u8 *rxbuf;
/* read after poll() returns: no volatile needed */
static sig_atomic_t sig_drain, sig_enable, sig_stop;

static int fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(1);
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		sig_drain = 1;
	else if (sig == SIGUSR2)
		sig_enable = 1;
	else
		sig_stop = 1;
}

static u32 invert(u32 ctype)
{
	return ctype == CTYPE_BULK_IN ? CTYPE_BULK_OUT :
	       ctype == CTYPE_BULK_OUT ? CTYPE_BULK_IN : ctype;
}

static const char *ctype_name(u32 ctype)
{
	return ctype == CTYPE_CONTROL ? "CONTROL" :
	       ctype == CTYPE_BULK_IN ? "BULK_IN" :
	       ctype == CTYPE_BULK_OUT ? "BULK_OUT" : "?";
}

/* Read exactly @len bytes within wait_secs: 0; -1 on EOF before any byte
 * with @eof_ok; a failure otherwise.
 */
static int recv_all(int fd, void *buf, size_t len, const char *what,
		    bool eof_ok)
{
	bool timedout;
	size_t got = sw_recv(fd, buf, len, wait_secs, &timedout);

	if (got == len)
		return 0;
	if (timedout)
		fail("%s: %zu of %zu bytes after %us", what, got, len,
		     wait_secs);
	if (!got && eof_ok)
		return -1;
	return fail("%s: connection closed after %zu of %zu bytes", what, got,
		    len);
}

static struct peer *peer_of(u64 nid)
{
	for (int i = 0; i < 2; i++)
		if (peers[i].nid == nid)
			return &peers[i];
	return NULL;
}

static void add_conn(struct peer *p, int fd, u32 ctype)
{
	struct timeval tv = { .tv_sec = 10 };
	int one = 1;

	if (p->nconns == MAX_CONNS)
		fail("%s: more than %d connections", p->name, MAX_CONNS);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	p->conns[p->nconns].fd = fd;
	p->conns[p->nconns++].ctype = ctype;
}

/*
 * A connection on port 988: the connreq for one of our NIDs, the peer's
 * V3 HELLO checked, ours in reply as stock's passive side writes it.
 */
static void accept_conn(int lfd)
{
	u8 b[CONNREQ_SIZE + HELLO_SIZE], r[HELLO_SIZE], ips[4 * 16];
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	u64 to, from;
	struct peer *p;
	u32 ctype, nips;
	int fd;

	fd = accept(lfd, (struct sockaddr *)&sa, &salen);
	if (fd < 0) {
		perror("accept");
		return;
	}
	if (ntohs(sa.sin_port) >= 1024)
		fail("a connection from %s port %u: unprivileged port (stock refuses)",
		     inet_ntoa(sa.sin_addr), ntohs(sa.sin_port));
	recv_all(fd, b, sizeof(b), "connreq + HELLO", false);
	to = get64(b + 8);
	from = get64(b + CONNREQ_SIZE + 8);
	p = peer_of(from);
	if (get32(b) != ACCEPTOR_MAGIC || get32(b + 4) != 1)
		fail("connreq 0x%08x version %u", get32(b), get32(b + 4));
	if (get32(b + CONNREQ_SIZE) != PROTO_MAGIC ||
	    get32(b + CONNREQ_SIZE + 4) != KSOCK_V3)
		fail("HELLO magic 0x%08x version %u, want a V3 HELLO",
		     get32(b + CONNREQ_SIZE), get32(b + CONNREQ_SIZE + 4));
	if (!p)
		fail("HELLO from %s: not an end node", nidstr(from));
	if (to != p->me || get64(b + CONNREQ_SIZE + 16) != p->me)
		fail("%s: connreq for %s, HELLO for %s: want our NID on its net %s",
		     p->name, nidstr(to), nidstr(get64(b + CONNREQ_SIZE + 16)),
		     nidstr(p->me));
	ctype = get32(b + CONNREQ_SIZE + 48);
	nips = get32(b + CONNREQ_SIZE + 52);
	if (ctype < CTYPE_CONTROL || ctype > CTYPE_BULK_OUT)
		fail("%s: HELLO ctype %u (typed connections expected)", p->name,
		     ctype);
	if (nips > 16)
		fail("%s: HELLO nips %u", p->name, nips);
	if (nips)
		recv_all(fd, ips, 4 * nips, "HELLO IPs", false);
	sw_hello(r, p->me, from, get32(b + CONNREQ_SIZE + 28), incarnation,
		 get64(b + CONNREQ_SIZE + 40), invert(ctype), 0);
	if (send_all(fd, r, sizeof(r)))
		fail("%s: send HELLO reply: %s", p->name, strerror(errno));
	add_conn(p, fd, invert(ctype));
	printf("%s connected to us: our %s\n", p->name, ctype_name(invert(ctype)));
}

/*
 * Open our three typed connections to @p (wire 3.2, 4.3): 0, or -1 if it
 * refused one (a connection race: its own come instead).
 */
static int connect_peer(struct peer *p)
{
	static const u32 types[] = { CTYPE_CONTROL, CTYPE_BULK_IN, CTYPE_BULK_OUT };
	u8 b[CONNREQ_SIZE + HELLO_SIZE], r[HELLO_SIZE], ips[4 * 16];
	u32 nips;
	int fd;

	for (int i = 0; i < 3; i++) {
		fd = sw_connect(p->ip, p->my_ip, false);
		if (fd < 0)
			fail("%s: cannot connect to %s:988", p->name, p->ip);
		sw_connreq(b, ACCEPTOR_MAGIC, 1, p->nid);
		sw_hello(b + CONNREQ_SIZE, p->me, p->nid, 0, incarnation, 0,
			 types[i], 0);
		if (send_all(fd, b, sizeof(b)))
			fail("%s: send HELLO: %s", p->name, strerror(errno));
		recv_all(fd, r, sizeof(r), "HELLO reply", false);
		if (get32(r) != PROTO_MAGIC || get32(r + 4) != KSOCK_V3)
			fail("%s: HELLO reply magic 0x%08x version %u", p->name,
			     get32(r), get32(r + 4));
		nips = get32(r + 52);
		if (nips > 16)
			fail("%s: HELLO reply nips %u", p->name, nips);
		if (nips)
			recv_all(fd, ips, 4 * nips, "HELLO reply IPs", false);
		if (get32(r + 48) == CTYPE_NONE) {
			printf("%s refused our %s connection (race): waiting for its own\n",
			       p->name, ctype_name(types[i]));
			close(fd);
			p->refused = time(NULL);
			return -1;
		}
		if (get32(r + 48) != invert(types[i]))
			fail("%s: HELLO reply ctype %u for our %u", p->name,
			     get32(r + 48), types[i]);
		if (get64(r + 8) != p->nid || get64(r + 16) != p->me)
			fail("%s: HELLO reply from %s to %s", p->name,
			     nidstr(get64(r + 8)), nidstr(get64(r + 16)));
		if (get32(r + 28) != 0 || get64(r + 40) != 0)
			fail("%s: HELLO reply dst_pid %u dst_inc 0x%llx, not 0 (wire 4.3)",
			     p->name, get32(r + 28),
			     (unsigned long long)get64(r + 40));
		add_conn(p, fd, types[i]);
	}
	printf("connected to %s (%s)\n", p->name, nidstr(p->nid));
	return 0;
}

/* The connection of @ctype to @p, else any; NULL if none. */
static struct conn *conn_of(struct peer *p, u32 ctype)
{
	for (int i = 0; i < p->nconns; i++)
		if (p->conns[i].ctype == ctype)
			return &p->conns[i];
	return p->nconns ? &p->conns[0] : NULL;
}

/* Send @hdr and @len bytes of @payload to @p as stock picks the connection. */
static void send_msg(struct peer *p, const u8 *hdr, const u8 *payload, u32 len)
{
	struct conn *c = conn_of(p, KSOCK_HDR + LNET_HDR + len < MIN_BULK ?
				 CTYPE_CONTROL : CTYPE_BULK_OUT);
	u8 k[KSOCK_HDR + LNET_HDR];

	sw_ksock_hdr(k, KSOCK_LNET, 0, 0);
	memcpy(k + KSOCK_HDR, hdr, LNET_HDR);
	if (send_all(c->fd, k, sizeof(k)) ||
	    (len && send_all(c->fd, payload, len)))
		fail("%s: send on our %s: %s", p->name, ctype_name(c->ctype),
		     strerror(errno));
}

static void queue_msg(struct peer *p, const u8 *hdr, const u8 *payload,
		      u32 len, bool held)
{
	struct msg *m = calloc(1, sizeof(*m));

	if (!m || p->nq == MAX_QUEUED)
		fail("%s: more than %d messages queued", p->name, MAX_QUEUED);
	memcpy(m->hdr, hdr, LNET_HDR);
	m->len = len;
	m->held = held;
	m->since = time(NULL);
	if (len) {
		m->payload = malloc(len);
		if (!m->payload)
			fail("out of memory");
		memcpy(m->payload, payload, len);
	}
	p->q[p->nq++] = m;
}

/*
 * Send what waits for @p and can go: a connection exists (we open ours
 * unless it refused one in the last second) and, for a held message, @p
 * is discovered.
 */
static void flush(struct peer *p)
{
	int i, n = 0;

	if (!p->nq)
		return;
	if (!p->nconns && time(NULL) > p->refused + 1 && connect_peer(p))
		return;
	for (i = 0; i < p->nq; i++) {
		struct msg *m = p->q[i];

		if (p->nconns && (!m->held || p->disc == DISC_DONE)) {
			send_msg(p, m->hdr, m->payload, m->len);
			free(m->payload);
			free(m);
			continue;
		}
		if (time(NULL) > m->since + wait_secs)
			fail("%s: a message waited %us for %s (stock drops it)",
			     p->name, wait_secs,
			     p->nconns ? "its discovery" : "a connection");
		p->q[n++] = m;
	}
	p->nq = n;
}

/* Our ping buffer: our two NIDs UP, RTE_DISABLED while draining. */
static u32 ping_info(u8 *b)
{
	u64 nids[2] = { peers[0].me, peers[1].me };
	u32 st[2] = { NS_UP, NS_UP };
	u32 feat = FEAT_NI_STATUS | FEAT_MULTI_RAIL | FEAT_DISCOVERY;

	if (draining)
		feat |= FEAT_RTE_DISABLED;
	return sw_ping_info(b, feat, 1, nids, st, 2);
}

/* A ping GET from @p: REPLY with our ping buffer, truncated to the sink. */
static void answer_ping(struct peer *p, const u8 *h)
{
	u32 off = get32(h + 60), sink = get32(h + 64), len, plen;
	u8 r[LNET_HDR], pb[64];

	plen = ping_info(pb);
	len = off >= plen ? 0 : plen - off;
	if (len > sink)
		len = sink;
	sw_lnet_hdr(r, get64(h + 8), get64(h), MSG_REPLY, len);
	memcpy(r + 32, h + 32, 16);		/* dst_wmd = return_wmd */
	send_msg(p, r, pb + off, len);
	p->pings++;
	if (get64(h) != p->me)
		return;
	if (p->last_ping && check_secs &&
	    time(NULL) - p->last_ping > check_secs)
		fail("%s pinged us %lds after the last, want <= %us (routing 11.2 item 3)",
		     p->name, (long)(time(NULL) - p->last_ping), check_secs);
	p->last_ping = time(NULL);
	if (draining && p == &peers[0] && !drain_seen) {
		drain_seen = time(NULL);
		printf("a pinged us while we drain: it has seen RTE_DISABLED\n");
	}
}

/*
 * A ping buffer from @p (@b, @len bytes): valid (wire 6.2), listing
 * @p's NID UP; whether it is MR with discovery on.
 */
static bool check_ping_info(struct peer *p, const u8 *b, u32 len,
			    const char *what)
{
	u32 feat, n, i;
	bool found = false;

	if (len < 32 || get32(b) != PING_MAGIC)
		fail("%s from %s: %u bytes, magic 0x%08x", what, p->name, len,
		     len >= 4 ? get32(b) : 0);
	feat = get32(b + 4);
	n = get32(b + 12);
	if (!(feat & FEAT_NI_STATUS) || n < 2 || len < 16 + 16 * n ||
	    get64(b + 16) != NID_LO)
		fail("%s from %s: features 0x%x, %u NIs in %u bytes", what,
		     p->name, feat, n, len);
	for (i = 1; i < n; i++)
		if (get64(b + 16 + 16 * i) == p->nid)
			found = get32(b + 24 + 16 * i) == NS_UP;
	if (!found)
		fail("%s from %s: its NID %s not listed UP", what, p->name,
		     nidstr(p->nid));
	return (feat & (FEAT_MULTI_RAIL | FEAT_DISCOVERY)) ==
	       (FEAT_MULTI_RAIL | FEAT_DISCOVERY);
}

/* Push our ping buffer to @p, an ACK requested; the cookie. */
static u64 push_to(struct peer *p)
{
	u64 cookie = next_cookie++;
	u8 h[LNET_HDR], pb[64];
	u32 len = ping_info(pb);

	sw_lnet_hdr(h, p->nid, p->me, MSG_PUT, len);
	put64(h + 32, incarnation);		/* ack_wmd */
	put64(h + 40, cookie);
	put64(h + 48, PING_BITS);
	queue_msg(p, h, pb, len, false);
	flush(p);
	return cookie;
}

/* Discover @p before a held message goes to it (routing 4.4). */
static void discover(struct peer *p)
{
	u8 h[LNET_HDR];

	p->disc_cookie = next_cookie++;
	p->disc = DISC_PING;
	p->disc_deadline = time(NULL) + wait_secs;
	sw_lnet_hdr(h, p->nid, p->me, MSG_GET, 0);
	put64(h + 32, incarnation);		/* return_wmd */
	put64(h + 40, p->disc_cookie);
	put64(h + 48, PING_BITS);
	put32(h + 64, PING_SINK);
	queue_msg(p, h, NULL, 0, false);
	printf("discovering %s before forwarding to it\n", p->name);
	flush(p);
}

/* A message for one of our NIDs, from @p. */
static void local(struct peer *p, const u8 *h, const u8 *payload, u32 len)
{
	u32 type = get32(h + 24);
	u64 cookie = get64(h + 40);
	u8 r[LNET_HDR];

	if (get64(h + 8) != p->nid)
		fail("%s: a message for us from %s, not its NID %s", p->name,
		     nidstr(get64(h + 8)), nidstr(p->nid));
	if (type == MSG_GET && get64(h + 48) == PING_BITS && !get32(h + 56)) {
		answer_ping(p, h);
		return;
	}
	if (type == MSG_PUT && get64(h + 48) == PING_BITS && !get32(h + 64)) {
		p->mr = check_ping_info(p, payload, len, "push");
		p->pushes_in++;
		if (get64(h + 32) == WMD_NONE && cookie == WMD_NONE)
			return;
		sw_lnet_hdr(r, p->nid, get64(h), MSG_ACK, 0);
		memcpy(r + 32, h + 32, 16);	/* dst_wmd = ack_wmd */
		put64(r + 48, PING_BITS);
		put32(r + 56, len);
		send_msg(p, r, NULL, 0);
		return;
	}
	if (type == MSG_REPLY && p->disc == DISC_PING && cookie == p->disc_cookie) {
		p->mr = check_ping_info(p, payload, len, "ping reply");
		printf("%s answered our discovery ping (MR %d)\n", p->name, p->mr);
		if (p->mr) {
			p->disc = DISC_PUSH;
			p->disc_cookie = push_to(p);
			return;
		}
		p->disc = DISC_DONE;
		flush(p);
		return;
	}
	if (type == MSG_ACK && p->disc == DISC_PUSH && cookie == p->disc_cookie) {
		p->disc = DISC_DONE;
		printf("%s discovered: forwarding %d held message(s)\n", p->name,
		       p->nq);
		flush(p);
		return;
	}
	if (type == MSG_ACK && p->push_cookie && cookie == p->push_cookie) {
		p->push_cookie = 0;
		pushes_out++;
		printf("%s ACKed our forced push\n", p->name);
		return;
	}
	fail("%s: unexpected type %u for us (%s), cookie 0x%llx, match bits 0x%llx",
	     p->name, type, nidstr(get64(h)), (unsigned long long)cookie,
	     (unsigned long long)get64(h + 48));
}

/* A message from @p for another NID: checked, forwarded (routing 4.1, 4.4). */
static void forward(struct peer *p, const u8 *h, const u8 *payload, u32 len)
{
	struct peer *q = p == &peers[0] ? &peers[1] : &peers[0];
	u64 dst = get64(h), src = get64(h + 8);
	u32 type = get32(h + 24), portal;
	bool held;

	if (src != p->nid)
		fail("%s: forwarded type %u with src_nid %s, not its NI %s (routing 11.2 item 1)",
		     p->name, type, nidstr(src), nidstr(p->nid));
	if (nid_net(dst) == nid_net(p->me))
		fail("%s: type %u for %s, on its own net: not routed (routing 4.1 row 3)",
		     p->name, type, nidstr(dst));
	if (dst == q->me)
		fail("%s: type %u for our NID %s on the other net (routing 4.1 row 4)",
		     p->name, type, nidstr(dst));
	if (dst != q->nid)
		fail("%s: type %u for %s: no node of ours (the final NID is %s)",
		     p->name, type, nidstr(dst), nidstr(q->nid));
	if (p == &peers[0] && (type == MSG_PUT || type == MSG_GET)) {
		if (drain_seen && time(NULL) > drain_seen + drain_slack)
			fail("a: a new %s through us %lds after RTE_DISABLED (routing 14 item 10)",
			     type == MSG_PUT ? "PUT" : "GET",
			     (long)(time(NULL) - drain_seen));
		if (drains && !draining)
			resumed++;
	}
	portal = get32(h + (type == MSG_PUT ? 64 : 56));
	held = (type == MSG_PUT || type == MSG_GET) && portal &&
	       q->disc != DISC_DONE;
	p->fwd++;
	if (held) {
		q->held++;
		if (q->disc == DISC_NONE)
			discover(q);
	}
	queue_msg(q, h, payload, len, held);
	flush(q);
}

/* A zero-copy request from @p: its ACK, a NOOP on our BULK_IN (wire 4.9). */
static void zc_ack(struct peer *p, u64 cookie)
{
	struct conn *c = conn_of(p, CTYPE_BULK_IN);
	u8 k[KSOCK_HDR];

	sw_ksock_hdr(k, KSOCK_NOOP, 0, cookie);
	if (send_all(c->fd, k, sizeof(k)))
		fail("%s: send ZC ACK: %s", p->name, strerror(errno));
}

/* One message from @p's connection @ci; false if it was closed. */
static bool read_msg(struct peer *p, int ci)
{
	struct conn *c = &p->conns[ci];
	u8 ksh[KSOCK_HDR], h[LNET_HDR];
	u32 type, len;

	if (recv_all(c->fd, ksh, KSOCK_HDR, "ksock header", true)) {
		printf("%s closed our %s connection\n", p->name,
		       ctype_name(c->ctype));
		close(c->fd);
		p->conns[ci] = p->conns[--p->nconns];
		return false;
	}
	if (get32(ksh) == KSOCK_NOOP) {
		if (get64(ksh + 8))
			fail("%s: NOOP requesting a zero-copy ACK", p->name);
		if (get64(ksh + 16) > 1)
			fail("%s: NOOP acking cookie 0x%llx: we requested none",
			     p->name, (unsigned long long)get64(ksh + 16));
		return true;
	}
	if (get32(ksh) != KSOCK_LNET)
		fail("%s: ksock message type 0x%x", p->name, get32(ksh));
	recv_all(c->fd, h, LNET_HDR, "LNet header", false);
	type = get32(h + 24);
	len = get32(h + 28);
	if (type > MSG_REPLY || len > LNET_MTU ||
	    ((type == MSG_ACK || type == MSG_GET) && len))
		fail("%s: LNet type %u with payload_length %u (routing 4.1 row 1)",
		     p->name, type, len);
	if (len)
		recv_all(c->fd, rxbuf, len, "payload", false);
	if (get64(ksh + 8))
		zc_ack(p, get64(ksh + 8));
	if (get64(h) == peers[0].me || get64(h) == peers[1].me)
		local(p, h, rxbuf, len);
	else
		forward(p, h, rxbuf, len);
	return true;
}

/* Drain (SIGUSR1), routing on again (SIGUSR2), time limits. */
static void tick(void)
{
	time_t now = time(NULL);
	int i;

	if (sig_drain) {
		sig_drain = 0;
		draining = true;
		drain_seen = 0;
		printf("draining: RTE_DISABLED in our ping buffer\n");
	}
	if (sig_enable) {
		sig_enable = 0;
		if (!draining)
			fail("SIGUSR2 without a drain");
		if (!drain_seen)
			fail("a did not ping us while we drained");
		draining = false;
		drain_seen = 0;
		drains++;
		printf("routing 1: RTE_DISABLED cleared, forced push to MR peers\n");
		for (i = 0; i < 2; i++)
			if (peers[i].mr)
				peers[i].push_cookie = push_to(&peers[i]);
	}
	for (i = 0; i < 2; i++) {
		struct peer *p = &peers[i];

		flush(p);
		if ((p->disc == DISC_PING || p->disc == DISC_PUSH) &&
		    now > p->disc_deadline)
			fail("%s did not answer our discovery %s in %us: %d dropped (routing 4.4)",
			     p->name, p->disc == DISC_PING ? "ping" : "push",
			     wait_secs, p->nq);
		if (p->last_ping && check_secs && now - p->last_ping > check_secs)
			fail("%s has not pinged us for %lds, want <= %us (routing 11.2 item 3)",
			     p->name, (long)(now - p->last_ping), check_secs);
	}
}

static int listen_988(void)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(ACCEPT_PORT),
	};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 16)) {
		perror("listen on port 988");
		exit(2);
	}
	return fd;
}

static void set_ips(struct peer *p)
{
	struct in_addr in;

	in.s_addr = htonl((u32)p->nid);
	strcpy(p->ip, inet_ntoa(in));
	in.s_addr = htonl((u32)p->me);
	strcpy(p->my_ip, inet_ntoa(in));
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: sock_router [-t SECONDS] [-c SECONDS] [-s SECONDS] NEAR_NID FAR_NID A_NID B_NID\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct pollfd pfd[1 + 2 * MAX_CONNS];
	struct peer *who[1 + 2 * MAX_CONNS];
	int idx[1 + 2 * MAX_CONNS];
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec ts;
	int opt, lfd, n, i, j;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "t:c:s:")) != -1) {
		switch (opt) {
		case 't':
			wait_secs = atoi(optarg);
			break;
		case 'c':
			check_secs = atoi(optarg);
			break;
		case 's':
			drain_slack = atoi(optarg);
			break;
		default:
			return bad_usage();
		}
	}
	if (argc - optind != 4 || !wait_secs)
		return bad_usage();
	peers[0].me = parse_nid(argv[optind]);
	peers[1].me = parse_nid(argv[optind + 1]);
	peers[0].nid = parse_nid(argv[optind + 2]);
	peers[1].nid = parse_nid(argv[optind + 3]);
	for (i = 0; i < 2; i++) {
		if (!peers[i].me || peers[i].me >> 48 != SOCKLND ||
		    nid_net(peers[i].nid) != nid_net(peers[i].me))
			return bad_usage();
		set_ips(&peers[i]);
	}
	if (nid_net(peers[0].me) == nid_net(peers[1].me))
		return bad_usage();
	rxbuf = malloc(LNET_MTU);
	if (!rxbuf)
		return 2;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	clock_gettime(CLOCK_REALTIME, &ts);
	incarnation = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	lfd = listen_988();
	printf("stock router %s and %s between %s and %s\n",
	       nidstr(peers[0].me), nidstr(peers[1].me), nidstr(peers[0].nid),
	       nidstr(peers[1].nid));

	while (!sig_stop) {
		pfd[0].fd = lfd;
		pfd[0].events = POLLIN;
		n = 1;
		for (i = 0; i < 2; i++) {
			for (j = 0; j < peers[i].nconns; j++, n++) {
				pfd[n].fd = peers[i].conns[j].fd;
				pfd[n].events = POLLIN;
				who[n] = &peers[i];
				idx[n] = j;
			}
		}
		if (poll(pfd, n, 200) < 0 && errno != EINTR) {
			perror("poll");
			return 2;
		}
		if (pfd[0].revents)
			accept_conn(lfd);
		/* one connection closed changes the others' indices */
		for (i = 1; i < n; i++)
			if (pfd[i].revents && !read_msg(who[i], idx[i]))
				break;
		tick();
	}
	if (draining)
		fail("stopped while draining");
	if (!peers[0].fwd || !peers[1].fwd)
		fail("nothing forwarded: a->b %u, b->a %u", peers[0].fwd,
		     peers[1].fwd);
	if (drains && !peers[0].mr)
		fail("a never pushed MULTI_RAIL|DISCOVERY to us: no forced push to test");
	if (drains && (peers[0].push_cookie || !resumed))
		fail("after the drain: push %sACKed by a, %u requests from a (routing 14 item 11)",
		     peers[0].push_cookie ? "not " : "", resumed);
	for (i = 0; i < 2; i++)
		if (peers[i].nq)
			fail("%s: %d messages never sent", peers[i].name,
			     peers[i].nq);
	printf("OK: a->b=%u b->a=%u held=%u pings=%u (a=%u b=%u) ",
	       peers[0].fwd, peers[1].fwd, peers[0].held + peers[1].held,
	       peers[0].pings + peers[1].pings, peers[0].pings, peers[1].pings);
	printf("pushes_in=%u pushes_out=%u drains=%u resumed=%u\n",
	       peers[0].pushes_in + peers[1].pushes_in, pushes_out, drains,
	       resumed);
	return 0;
}
