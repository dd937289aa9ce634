// SPDX-License-Identifier: GPL-2.0
/*
 * o2ib_hostile: a hostile RDMA peer for ko2iblnd.
 *
 *	o2ib_hostile [-t SECONDS] [-q QUEUE_DEPTH] [-S SRC_NID]
 *		     [-m SEED -T SECONDS] IP NID ATTACK
 *
 * Connects (rdma_cm, RDMA_PS_TCP, RC QP, receive buffers posted) to IP
 * port 987, the ko2iblnd of the node whose NID is NID, plays ATTACK and
 * checks that the node answers as the wire protocol says (spec 5.6,
 * 5.7, 5.10): a bad CONNREQ is rejected with a kib_rej of the right
 * version and reason; a bad message on an established connection makes
 * the node disconnect.  SRC_NID is the NID claimed in valid CONNREQs
 * (default 192.0.2.250@o2ib, no real node); QUEUE_DEPTH is the node's
 * peer_credits (default 8), which a MSG_QUEUE_SIZE reject must carry.
 * Messages are sent in our (little-endian) byte order, as the spec lets
 * a sender do.
 *
 * mutate (-m SEED, for -T SECONDS) plays sessions that are mostly valid,
 * each from a NID and incarnation of its own: one in four a CONNREQ
 * with one to four mutations (the node must answer it: a reject, or the
 * connection); the others a valid connection carrying 1-6 messages
 * (NOOPs, IMMEDIATE PUTs with payload, ping GETs, PUT_REQs), three in
 * four with one to four mutations (a bit flipped, a byte or a 32-bit
 * field set to an edge value, a message cut short, a piece repeated).
 * Then a valid connection must still be accepted.  The same seed plays
 * the same sessions.
 *
 * Exit status: 0 the node behaved, 1 it did not (the reason is printed),
 * 2 usage or local error.  "o2ib_hostile -l" lists the attacks.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mutate.h"
#include "o2ib_peer.h"

#define NRX			4
#define LNET_PID		12345
#define LNET_MSG_PUT		1
#define LNET_MSG_GET		2
/* mutate: messages per session, and receive buffers for the node's. */
#define MUT_MSGS		6
#define MUT_NRX			8

enum kind {
	REJECT,		/* a bad CONNREQ: rejected with @why */
	MESSAGE,	/* connected, then a bad message: disconnected */
	ABORT,		/* connect and go away at once */
	FLOOD,		/* 50 x ABORT */
	MUTATE,		/* seeded mutated sessions */
};

struct attack {
	const char *name;
	enum kind kind;
	const char *what;
	u8 why;		/* REJECT: the expected ibr_why */
};

static const struct attack attacks[] = {
	{ "connreq_short", REJECT, "CONNREQ of 4 bytes (the magic)",
	  REJECT_FATAL },
	{ "connreq_bad_magic", REJECT, "CONNREQ magic 0xdeadbeef",
	  REJECT_FATAL },
	{ "connreq_proto_magic", REJECT, "CONNREQ magic LNET_PROTO_MAGIC",
	  REJECT_FATAL },
	{ "connreq_bad_version", REJECT, "CONNREQ version 0x13",
	  REJECT_FATAL },
	{ "connreq_bad_dstnid", REJECT, "CONNREQ to another NID",
	  REJECT_FATAL },
	{ "connreq_queue_depth", REJECT, "queue depth above peer_credits",
	  REJECT_MSG_QUEUE_SIZE },
	{ "connreq_frags", REJECT, "max_frags 258", REJECT_RDMA_FRAGS },
	{ "connreq_msg_size", REJECT, "max_msg_size 8192", REJECT_FATAL },
	{ "connreq_noop", REJECT, "type NOOP instead of CONNREQ",
	  REJECT_FATAL },
	{ "msg_bad_magic", MESSAGE, "message magic 0xdeadbeef", 0 },
	{ "msg_bad_version", MESSAGE, "message version 0x13", 0 },
	{ "msg_nob_long", MESSAGE, "ibm_nob beyond the bytes sent", 0 },
	{ "msg_nob_short", MESSAGE, "ibm_nob 40", 0 },
	{ "msg_bad_cksum", MESSAGE, "wrong non-zero checksum", 0 },
	{ "msg_bad_type", MESSAGE, "unknown type 0xd8", 0 },
	{ "msg_stale", MESSAGE, "wrong (stale) dststamp", 0 },
	{ "msg_bad_srcnid", MESSAGE, "srcnid not the connection's", 0 },
	{ "msg_credits", MESSAGE, "ibm_credits 200", 0 },
	{ "msg_put_ack_cookie", MESSAGE, "PUT_ACK with an unknown cookie", 0 },
	{ "msg_get_frags0", MESSAGE, "GET_REQ with rd_nfrags 0", 0 },
	{ "msg_get_frags300", MESSAGE, "GET_REQ with rd_nfrags 300", 0 },
	{ "msg_imm_garbage", MESSAGE, "IMMEDIATE, garbage LNet header", 0 },
	{ "msg_get_routed", MESSAGE,
	  "GET_REQ of a ping GET for another net's NID", 0 },
	{ "msg_noop_trunc", MESSAGE, "NOOP truncated to 20 bytes", 0 },
	{ "msg_early_replay", MESSAGE,
	  "a stale NOOP, then 6 good ones, at once", 0 },
	{ "cm_abort", ABORT, "connect, then go away at once", 0 },
	{ "cm_flood", FLOOD, "50 x cm_abort", 0 },
	{ "mutate", MUTATE, "-T s of mutated sessions (-m SEED)", 0 },
};

/* The CONNREQ of a REJECT attack. */
static unsigned int bad_connreq(const struct attack *a, u8 *b)
{
	const char *n = a->name + strlen("connreq_");
	unsigned int len = connreq(b, queue_depth, MAX_FRAGS, MSG_SIZE);

	if (!strcmp(n, "short"))
		len = 4;
	else if (!strcmp(n, "bad_magic"))
		put32(b + OFF_MAGIC, 0xdeadbeef);
	else if (!strcmp(n, "proto_magic"))
		put32(b + OFF_MAGIC, PROTO_MAGIC);
	else if (!strcmp(n, "bad_version"))
		put16(b + OFF_VERSION, 0x13);
	else if (!strcmp(n, "bad_dstnid"))
		put64(b + OFF_DSTNID, dst_nid + 1);
	else if (!strcmp(n, "queue_depth"))
		put16(b + HDR_SIZE, queue_depth + 1);
	else if (!strcmp(n, "frags"))
		put16(b + HDR_SIZE + 2, MAX_FRAGS + 1);
	else if (!strcmp(n, "msg_size"))
		put32(b + HDR_SIZE + 4, 2 * MSG_SIZE);
	else if (!strcmp(n, "noop"))
		b[OFF_TYPE] = MSG_NOOP;
	return len;
}

/* The message of a MESSAGE attack into @b; returns the bytes to send. */
static void lnet_hdr(u8 *b, u32 type, u32 plen);

static unsigned int bad_message(const struct attack *a, u8 *b)
{
	const char *n = a->name + strlen("msg_");
	unsigned int i;

	memset(b, 0, MSG_SIZE);
	pack(b, MSG_NOOP, 0, HDR_SIZE);
	if (!strcmp(n, "bad_magic")) {
		put32(b + OFF_MAGIC, 0xdeadbeef);
	} else if (!strcmp(n, "bad_version")) {
		put16(b + OFF_VERSION, 0x13);
	} else if (!strcmp(n, "nob_long")) {
		put32(b + OFF_NOB, HDR_SIZE + 64);
	} else if (!strcmp(n, "nob_short")) {
		put32(b + OFF_NOB, 40);
	} else if (!strcmp(n, "bad_cksum")) {
		put32(b + OFF_CKSUM, 0x12345678);
	} else if (!strcmp(n, "bad_type")) {
		b[OFF_TYPE] = 0xd8;
	} else if (!strcmp(n, "stale")) {
		put64(b + OFF_DSTSTAMP, dst_stamp + 1);
	} else if (!strcmp(n, "bad_srcnid")) {
		put64(b + OFF_SRCNID, src_nid + 1);
	} else if (!strcmp(n, "credits")) {
		b[OFF_CREDITS] = 200;
	} else if (!strcmp(n, "put_ack_cookie")) {
		/* src cookie, dst cookie, rd: key, 1 frag of 4096 bytes */
		b[OFF_TYPE] = MSG_PUT_ACK;
		put64(b + HDR_SIZE, 0x5eed0000c0c0c0c0ULL);
		put64(b + HDR_SIZE + 8, 1);
		put32(b + PUTACK_RD_OFF, 0x1234);
		put32(b + PUTACK_RD_OFF + 4, 1);
		put32(b + PUTACK_RD_OFF + RD_HDR_SIZE, MSG_SIZE);
		put32(b + OFF_NOB, PUTACK_RD_OFF + RD_HDR_SIZE + FRAG_SIZE);
	} else if (!strcmp(n, "get_frags0")) {
		b[OFF_TYPE] = MSG_GET_REQ;
		memset(b + HDR_SIZE, 0xa5, LNET_HDR_SIZE);
		put64(b + GET_RD_OFF - 8, 1);
		put32(b + GET_RD_OFF, 0x1234);
		put32(b + GET_RD_OFF + 4, 0);
		put32(b + OFF_NOB, GET_RD_OFF + RD_HDR_SIZE);
	} else if (!strcmp(n, "get_frags300")) {
		b[OFF_TYPE] = MSG_GET_REQ;
		memset(b + HDR_SIZE, 0xa5, LNET_HDR_SIZE);
		put64(b + GET_RD_OFF - 8, 1);
		put32(b + GET_RD_OFF, 0x1234);
		put32(b + GET_RD_OFF + 4, 300);
		for (i = 0; i < 300; i++)
			put32(b + GET_RD_OFF + RD_HDR_SIZE + i * FRAG_SIZE,
			      4096);
		put32(b + OFF_NOB, GET_RD_OFF + RD_HDR_SIZE + 300 * FRAG_SIZE);
	} else if (!strcmp(n, "get_routed")) {
		/*
		 * Routing spec 4.1 row 5: a GET that came as an RDMA request
		 * must be for the node itself (a router cannot forward the
		 * sink); here to 192.0.2.99@tcp: EPROTO, the connection
		 * closed, whether or not the node routes.
		 */
		b[OFF_TYPE] = MSG_GET_REQ;
		lnet_hdr(b + HDR_SIZE, LNET_MSG_GET, 0);
		put64(b + HDR_SIZE, 0x00020000c0000263ULL);
		put64(b + GET_RD_OFF - 8, 1);
		put32(b + GET_RD_OFF, 0x1234);
		put32(b + GET_RD_OFF + 4, 1);
		put32(b + GET_RD_OFF + RD_HDR_SIZE, 4096);
		put32(b + OFF_NOB, GET_RD_OFF + RD_HDR_SIZE + FRAG_SIZE);
	} else if (!strcmp(n, "imm_garbage")) {
		b[OFF_TYPE] = MSG_IMMEDIATE;
		memset(b + HDR_SIZE, 0xa5, LNET_HDR_SIZE);
		put32(b + OFF_NOB, IMMEDIATE_HDR_SIZE);
	} else if (!strcmp(n, "noop_trunc")) {
		return 20;
	} else if (!strcmp(n, "early_replay")) {
		put64(b + OFF_DSTSTAMP, dst_stamp + 1);	/* then good ones */
	}
	/* A wrong ibm_nob comes with a whole header. */
	if (!strcmp(n, "nob_long") || !strcmp(n, "nob_short"))
		return HDR_SIZE;
	return get32(b + OFF_NOB);
}

/* Whether @a's CONNREQ is refused after its NI was found (spec 5.6). */
static bool ni_matched(const struct attack *a)
{
	return !strcmp(a->name, "connreq_queue_depth") ||
	       !strcmp(a->name, "connreq_frags") ||
	       !strcmp(a->name, "connreq_msg_size") ||
	       !strcmp(a->name, "connreq_noop");
}

static int play_reject(const struct attack *a, struct link *l)
{
	enum rdma_cm_event_type type;
	u8 b[CONNPARAMS_SIZE], rej[REJ_SIZE];
	unsigned int len = bad_connreq(a, b);
	int status, rc;

	rc = connect_with(l, b, len);
	if (rc)
		return rc;
	if (next_event(l, &type, &status, rej, sizeof(rej)))
		return fail("no answer to the CONNREQ");
	if (type != RDMA_CM_EVENT_REJECTED) {
		printf("FAIL: %s (status %d), wanted REJECTED\n",
		       rdma_event_str(type), status);
		return 1;
	}
	/* IB_CM_REJ_CONSUMER_DEFINED, carrying a kib_rej (spec 5.7) */
	if (status != 28) {
		printf("FAIL: reject status %d, wanted 28 (consumer)\n",
		       status);
		return 1;
	}
	if (get32(rej) != MSG_MAGIC || get16(rej + 4) != MSG_VERSION) {
		printf("FAIL: kib_rej magic %#x version %#x\n", get32(rej),
		       get16(rej + 4));
		return 1;
	}
	if (rej[6] != a->why) {
		printf("FAIL: kib_rej why %u, wanted %u\n", rej[6], a->why);
		return 1;
	}
	if (a->why == REJECT_MSG_QUEUE_SIZE && get16(rej + 16) != queue_depth) {
		printf("FAIL: MSG_QUEUE_SIZE with queue depth %u, wanted %u\n",
		       get16(rej + 16), queue_depth);
		return 1;
	}
	/* Past step 4 of spec 5.6 the reject describes the NI (5.7). */
	if (ni_matched(a) ?
	    !get64(rej + 8) || get16(rej + 16) != queue_depth ||
	    get16(rej + 18) != MAX_FRAGS || get32(rej + 20) != MSG_SIZE :
	    get64(rej + 8) != 0) {
		printf("FAIL: kib_rej incarnation %#llx queue depth %u frags %u msg size %u\n",
		       (unsigned long long)get64(rej + 8), get16(rej + 16),
		       get16(rej + 18), get32(rej + 20));
		return 1;
	}
	printf("rejected: why %u, incarnation %#llx, queue depth %u\n",
	       rej[6], (unsigned long long)get64(rej + 8), get16(rej + 16));
	return 0;
}

static int play_message(const struct attack *a, struct link *l)
{
	u8 *b = l->tx;
	struct ibv_send_wr wr = {}, *bad;
	enum rdma_cm_event_type type;
	struct ibv_sge sge;
	int status, rc, i, extra;

	rc = establish(l);
	if (rc)
		return rc;
	sge.addr = (uintptr_t)b;
	sge.length = bad_message(a, b);
	sge.lkey = l->mr->lkey;
	wr.opcode = IBV_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	if (ibv_post_send(l->id->qp, &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	/*
	 * early_replay: good NOOPs behind the bad one, sent at once so that
	 * they too arrive before the node's (delayed) ESTABLISHED event.
	 */
	extra = !strcmp(a->name, "msg_early_replay") ? 6 : 0;
	for (i = 0; i < extra; i++) {
		struct ibv_send_wr w = wr, *bw;
		struct ibv_sge s = sge;
		u8 *nb = l->tx + (i + 1) * MSG_SIZE;

		memset(nb, 0, MSG_SIZE);
		pack(nb, MSG_NOOP, 0, HDR_SIZE);
		s.addr = (uintptr_t)nb;
		s.length = HDR_SIZE;
		w.sg_list = &s;
		if (ibv_post_send(l->id->qp, &w, &bw)) {
			perror("ibv_post_send");
			return 2;
		}
	}
	/*
	 * The node must close the connection: a DREQ, or a REJ if it found
	 * the message bad before its own ESTABLISHED event (our RTU and our
	 * message race to it).
	 */
	if (next_event(l, &type, &status, NULL, 0)) {
		printf("FAIL: still connected after %u s\n", wait_secs);
		return 1;
	}
	if (type != RDMA_CM_EVENT_DISCONNECTED &&
	    type != RDMA_CM_EVENT_REJECTED) {
		printf("FAIL: %s (status %d), wanted DISCONNECTED\n",
		       rdma_event_str(type), status);
		return 1;
	}
	printf("%s after %u bytes\n", rdma_event_str(type), sge.length);
	return 0;
}

/* Connect with a valid CONNREQ, and go away without waiting. */
static int play_abort(const char *ip)
{
	u8 b[CONNPARAMS_SIZE];
	struct link l;
	int rc;

	rc = link_open(&l, ip, NRX, MSG_SIZE);
	if (rc)
		return rc;
	rc = connect_with(&l, b, connreq(b, queue_depth, MAX_FRAGS, MSG_SIZE));
	link_close(&l);
	return rc;
}

/*
 * An LNet header (spec 2.2, 2.4) at @b from the claimed NID: a PUT of
 * @plen bytes asking no ACK, to a portal and match bits nothing posted,
 * or (@type GET) a ping of the node (spec 6.1).
 */
static void lnet_hdr(u8 *b, u32 type, u32 plen)
{
	memset(b, 0, LNET_HDR_SIZE);
	put64(b, dst_nid);
	put64(b + 8, src_nid);
	put32(b + 16, LNET_PID);
	put32(b + 20, LNET_PID);
	put32(b + 24, type);
	if (type == LNET_MSG_GET) {
		put64(b + 32, 0x6d7574);		/* return_wmd */
		put64(b + 40, rnd(1000));
		put64(b + 48, 0x8000000000000000ULL);	/* the ping */
		put32(b + 64, 16 + 24 * (1 + rnd(16)));	/* sink_length */
		return;
	}
	put32(b + 28, plen);
	put64(b + 32, ~0ULL);				/* no ACK */
	put64(b + 40, ~0ULL);
	put64(b + 48, 0x6d75746174650000ULL | rnd(0x10000));
	put32(b + 64, 1 + rnd(63));
}

/* A valid message of a random kind into @b; returns its length. */
static unsigned int valid_message(u8 *b)
{
	unsigned int plen;

	memset(b, 0, MSG_SIZE);
	switch (rnd(4)) {
	case 0:
		pack(b, MSG_NOOP, 0, HDR_SIZE);
		return HDR_SIZE;
	case 1:
		plen = rnd(MSG_SIZE - IMMEDIATE_HDR_SIZE + 1);
		pack(b, MSG_IMMEDIATE, 0, IMMEDIATE_HDR_SIZE + plen);
		lnet_hdr(b + HDR_SIZE, LNET_MSG_PUT, plen);
		memset(b + IMMEDIATE_HDR_SIZE, 0x5a, plen);
		return IMMEDIATE_HDR_SIZE + plen;
	case 2:
		pack(b, MSG_IMMEDIATE, 0, IMMEDIATE_HDR_SIZE);
		lnet_hdr(b + HDR_SIZE, LNET_MSG_GET, 0);
		return IMMEDIATE_HDR_SIZE;
	default:	/* the node must NAK it: nothing matches */
		pack(b, MSG_PUT_REQ, 0, IMMEDIATE_HDR_SIZE + 8);
		lnet_hdr(b + HDR_SIZE, LNET_MSG_PUT, 4096 + rnd(1 << 20));
		put64(b + IMMEDIATE_HDR_SIZE, 0x6d75740000000000ULL | rnd(1000));
		return IMMEDIATE_HDR_SIZE + 8;
	}
}

/* Send @len bytes at @b on @l. */
static int send_msg(struct link *l, u8 *b, unsigned int len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)b, .length = len, .lkey = l->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (ibv_post_send(l->id->qp, &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	return 0;
}

/* Whether the node disconnects @l within @ms milliseconds. */
static bool closed_within(struct link *l, int ms)
{
	struct pollfd pfd = { .fd = l->ch->fd, .events = POLLIN };
	enum rdma_cm_event_type type;
	int status;

	while (poll(&pfd, 1, ms) > 0) {
		if (next_event(l, &type, &status, NULL, 0))
			return false;
		if (type == RDMA_CM_EVENT_DISCONNECTED)
			return true;
	}
	return false;
}

/* Counts of what mutated sessions met. */
struct mut_counts {
	unsigned int sessions, mutated, rejected, closed;
};

/* One session with @k mutations: of the CONNREQ, or of its messages. */
static int mutated_session(const char *ip, unsigned int k,
			   struct mut_counts *c)
{
	unsigned int lens[MUT_MSGS], n = 1 + rnd(MUT_MSGS), i, j;
	u8 cr[CONNPARAMS_SIZE];
	enum rdma_cm_event_type type;
	size_t len;
	struct link l;
	int status, rc;

	rc = link_open(&l, ip, MUT_NRX, MUT_MSGS * MSG_SIZE);
	if (rc)
		return rc;
	if (k && !rnd(4)) {
		len = connreq(cr, queue_depth, MAX_FRAGS, MSG_SIZE);
		/* rdma_cm carries at most CONNPARAMS_SIZE bytes of it. */
		for (i = 0; i < k; i++)
			mutate_once(cr, &len, 0, CONNPARAMS_SIZE);
		rc = connect_with(&l, cr, len);
		if (rc)
			goto out;
		if (next_event(&l, &type, &status, NULL, 0)) {
			rc = fail("no answer to a mutated CONNREQ");
		} else if (type == RDMA_CM_EVENT_REJECTED) {
			c->rejected++;
		} else if (type != RDMA_CM_EVENT_ESTABLISHED) {
			printf("FAIL: %s (status %d) to a mutated CONNREQ\n",
			       rdma_event_str(type), status);
			rc = 1;
		}
		goto out;
	}
	rc = establish(&l);
	for (i = 0; !rc && i < n; i++)
		lens[i] = valid_message(l.tx + i * MSG_SIZE);
	for (i = 0; !rc && i < k; i++) {
		size_t m;

		j = rnd(n);
		m = lens[j];
		mutate_once(l.tx + j * MSG_SIZE, &m, 0, MSG_SIZE);
		lens[j] = m;
	}
	for (i = 0; !rc && i < n; i++)
		rc = send_msg(&l, l.tx + i * MSG_SIZE, lens[i]);
	if (!rc && closed_within(&l, 300))
		c->closed++;
	else if (!rc)
		rdma_disconnect(l.id);
out:
	link_close(&l);
	return rc;
}

/*
 * mutate: mutated sessions for @secs seconds from @seed, each from a NID
 * and an incarnation of its own, then a valid connection the node must
 * still accept.
 */
static int mutated_sessions(const char *ip, u64 seed, unsigned int secs)
{
	u64 nid0 = src_nid & ~0xffULL, stamp0 = src_stamp;
	struct mut_counts c = {};
	time_t end = time(NULL) + secs;
	unsigned int k;
	struct link l;
	int rc = 0;

	rnd_state = seed ? seed : 1;
	while (!rc && time(NULL) < end) {
		src_nid = nid0 | (150 + c.sessions % 100);
		src_stamp = stamp0 + c.sessions;
		/* One in four goes valid. */
		k = rnd(4) ? 1 + rnd(4) : 0;
		c.mutated += !!k;
		rc = mutated_session(ip, k, &c);
		c.sessions++;
	}
	if (!rc) {
		src_nid = nid0 | 149;
		src_stamp = stamp0 + c.sessions;
		rc = link_open(&l, ip, MUT_NRX, MSG_SIZE);
		if (!rc) {
			rc = establish(&l);
			if (!rc)
				rdma_disconnect(l.id);
			link_close(&l);
		}
	}
	printf("mutate: seed %llu: %u sessions, %u mutated, ",
	       (unsigned long long)seed, c.sessions, c.mutated);
	printf("%u CONNREQs rejected, %u closed by the node; ", c.rejected,
	       c.closed);
	printf("final connection %s\n", rc ? "refused" : "accepted");
	return rc;
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: o2ib_hostile [-t SECONDS] [-q QUEUE_DEPTH] [-S SRC_NID]\n"
		"                    [-m SEED -T SECONDS] IP NID ATTACK\n"
		"       o2ib_hostile -l\n");
	return 2;
}

int main(int argc, char **argv)
{
	const struct attack *a = NULL;
	unsigned int i, secs = 20;
	struct link l;
	u64 seed = 0;
	int opt, rc;

	src_nid = parse_nid("192.0.2.250@o2ib");
	while ((opt = getopt(argc, argv, "lt:q:S:m:T:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < sizeof(attacks) / sizeof(*attacks); i++)
				printf("%-20s %s\n", attacks[i].name,
				       attacks[i].what);
			return 0;
		case 't':
			wait_secs = atoi(optarg);
			break;
		case 'q':
			queue_depth = atoi(optarg);
			break;
		case 'm':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'T':
			secs = atoi(optarg);
			break;
		case 'S':
			src_nid = parse_nid(optarg);
			if (!src_nid)
				return bad_usage();
			break;
		default:
			return bad_usage();
		}
	}
	if (argc - optind != 3 || !queue_depth || queue_depth > 254)
		return bad_usage();
	dst_nid = parse_nid(argv[optind + 1]);
	for (i = 0; i < sizeof(attacks) / sizeof(*attacks); i++)
		if (!strcmp(argv[optind + 2], attacks[i].name))
			a = &attacks[i];
	if (!dst_nid || !a)
		return bad_usage();
	/* One incarnation per run: a CONNREQ of a new one is CONN_STALE. */
	src_stamp = 0x4057113000000000ULL;

	switch (a->kind) {
	case ABORT:
		rc = play_abort(argv[optind]);
		break;
	case FLOOD:
		for (i = 0, rc = 0; i < 50 && !rc; i++)
			rc = play_abort(argv[optind]);
		break;
	case MUTATE:
		rc = mutated_sessions(argv[optind], seed, secs);
		break;
	default:
		/* room for early_replay's 7 messages */
		rc = link_open(&l, argv[optind], NRX, 7 * MSG_SIZE);
		if (rc)
			return rc;
		rc = a->kind == REJECT ? play_reject(a, &l) :
					 play_message(a, &l);
		link_close(&l);
	}
	if (!rc)
		printf("%s: OK\n", a->name);
	return rc;
}
