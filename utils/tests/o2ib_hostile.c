// SPDX-License-Identifier: GPL-2.0
/*
 * o2ib_hostile: a hostile RDMA peer for ko2iblnd.
 *
 *	o2ib_hostile [-t SECONDS] [-q QUEUE_DEPTH] [-S SRC_NID] IP NID ATTACK
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
 * Exit status: 0 the node behaved, 1 it did not (the reason is printed),
 * 2 usage or local error.  "o2ib_hostile -l" lists the attacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "o2ib_peer.h"

#define NRX			4

enum kind {
	REJECT,		/* a bad CONNREQ: rejected with @why */
	MESSAGE,	/* connected, then a bad message: disconnected */
	ABORT,		/* connect and go away at once */
	FLOOD,		/* 50 x ABORT */
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
	{ "msg_noop_trunc", MESSAGE, "NOOP truncated to 20 bytes", 0 },
	{ "msg_early_replay", MESSAGE,
	  "a stale NOOP, then 6 good ones, at once", 0 },
	{ "cm_abort", ABORT, "connect, then go away at once", 0 },
	{ "cm_flood", FLOOD, "50 x cm_abort", 0 },
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

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: o2ib_hostile [-t SECONDS] [-q QUEUE_DEPTH] [-S SRC_NID]\n"
		"                    IP NID ATTACK\n"
		"       o2ib_hostile -l\n");
	return 2;
}

int main(int argc, char **argv)
{
	const struct attack *a = NULL;
	struct link l;
	unsigned int i;
	int opt, rc;

	src_nid = parse_nid("192.0.2.250@o2ib");
	while ((opt = getopt(argc, argv, "lt:q:S:")) != -1) {
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
