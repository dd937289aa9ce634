// SPDX-License-Identifier: GPL-2.0
/*
 * o2ib_lustre: a stock Lustre node's ko2iblnd answering GETs, to test
 * our RDMA GET sinks against the writer Lustre has (spec 5.5, 5.8, 6).
 *
 *	o2ib_lustre [-t SECONDS] [-S SRC_NID] [-n NNIS[,NNIS...]] [-c COUNT]
 *		    [-H HOLD] [-f FEATURES] [-D] [-G FINAL_NID] IP NID
 *
 * Connects to the ko2iblnd of the node whose NID is NID at IP, claiming
 * SRC_NID (default 192.0.2.250@o2ib), prints "connected", and answers the
 * GET_REQs that node sends it as Lustre's kiblnd_reply() and
 * kiblnd_init_rdma() do: the reply is written with RDMA WRITEs into the
 * descriptor of the GET_REQ, one per destination fragment, to rf_addr
 * with rd_key, never more than the fragments' rf_nob add up to, and in
 * the same posted chain follows GET_DONE {the GET_REQ's cookie, status =
 * the bytes written}, sent with no credit of its own and returning the
 * GET_REQ's.  A GET that came IMMEDIATE (its sink fits one message, spec
 * 5.8) is answered by an IMMEDIATE REPLY.  The reply is what a Lustre node
 * matches:
 *   - a GET on portal 0 with the ping match bits: a ping-info buffer
 *     (spec 6.2, features FEATURES, default 0x1e as a Lustre client)
 *     listing 0@lo and NNIS
 *     NIDs, SRC_NID first and then the next addresses; the Nth ping gets
 *     the Nth NNIS of the list (the last one repeats; default 1: 48
 *     bytes, much shorter than our sinks), truncated to the GET's
 *     sink_length;
 *   - any other GET: sink_length bytes from src_offset of a 1 MiB MD
 *     holding lnet_test's GET source pattern (seed 0x5eed), as a Lustre
 *     MD with LNET_MD_MANAGE_REMOTE would give.
 * Replies take turns in two buffers: at most two GETs in flight.
 * A push (an IMMEDIATE PUT on portal 0 with the ping match bits, spec 7)
 * gets its ACK, as a Lustre node with discovery on gives it.
 * NOOPs are taken; every message returns the credits of those received
 * (spec 5.9).  Anything else, a completion error or a GET_REQ that breaks
 * the spec fails the run, as does no message for SECONDS (default 30).
 * After COUNT GETs (default 1) it prints "COUNT GETs answered: OK" and
 * keeps the connection (taking NOOPs) until killed or SECONDS pass: a
 * Lustre node does not hang up the moment it answered, and a node drops
 * what arrives on a connection it is closing.
 *
 * With -D, the RDMA WRITEs are those of stock Lustre 2.17's
 * kiblnd_init_rdma(), defect included (Documentation/o2iblnd.rst): a work
 * request is counted, and so posted, only when the destination fragment
 * it writes is used up (or the SGE limit is reached), so the tail WRITE
 * of a reply shorter than the sink fragment it lands in is never posted,
 * and GET_DONE says the byte count all the same: the node's sink keeps
 * what it had.  A reply that fills its sink is written whole.
 *
 * With -H HOLD, the first GET_REQ is held unanswered (its sink stays
 * registered on the node), and a second later the node is pinged as a
 * Lustre node pings (an IMMEDIATE GET, sink 3960 bytes, spec 6.1); the
 * held GETs are answered once its REPLY came, valid, and the run fails
 * if none comes within HOLD seconds.  Against a node whose MR pool is one
 * MR, the node's next GET_REQ waits for that MR meanwhile: the REPLY
 * needs none and must get through (issue: an MR wait blocked the
 * connection).
 *
 * With -G FINAL_NID it is also a stock router to FINAL_NID (a NID of a
 * net behind it, routing spec 3, 4.6): an IMMEDIATE GET or PUT whose
 * LNet dest_nid is FINAL_NID must come from the node's NID (src_nid);
 * the PUT's payload is checked byte by byte against lnet_test's pattern
 * (seed = hdr_data) and ACKed, the GET answered with lnet_test's GET
 * source pattern, both from FINAL_NID as the node there would answer:
 * the REPLY IMMEDIATE when it fits one message, else as PUT_REQ, whose
 * PUT_ACK gets RDMA WRITEs and PUT_DONE, as every hop of a routed REPLY
 * does.  A GET_REQ not for us fails the run: a GET through a router is
 * always IMMEDIATE.  Each counts as one of the COUNT GETs.
 *
 * Exit status: 0 every GET answered, 1 the node misbehaved (the reason is
 * printed), 2 usage or local error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "o2ib_peer.h"

#define NRX		18		/* 2 x queue depth 8 + 2 (spec 5.1) */
#define REPLY_MAX	1048576U	/* LNET_MTU */

/* The nid4 LNet header (spec 2.2, 2.4): common part, then GET, REPLY. */
#define LNET_OFF_DEST_NID	0
#define LNET_OFF_SRC_NID	8
#define LNET_OFF_DEST_PID	16
#define LNET_OFF_SRC_PID	20
#define LNET_OFF_TYPE		24
#define LNET_OFF_PAYLOAD	28
#define LNET_OFF_MATCH		48
#define LNET_OFF_PTL		56
#define LNET_OFF_SRC_OFFSET	60
#define LNET_OFF_SINK_LEN	64
#define LNET_OFF_GET_WMD	32	/* GET's return_wmd, REPLY's dst_wmd */
#define LNET_OFF_PUT_PTL	64
#define LNET_OFF_ACK_MLEN	56
#define LNET_MSG_ACK		0
#define LNET_MSG_PUT		1
#define LNET_MSG_GET		2
#define LNET_MSG_REPLY		3
#define LNET_PID		12345
#define PING_WMD_COOKIE		0x0123456789abcdefULL
#define PING_MATCHBITS		0x8000000000000000ULL
#define PING_MAGIC		0x70696e67U
#define LO_NID			0x0009000000000000ULL
#define NI_STATUS_UP		0x15aac0deU
#define GET_SEED		0x5eedU

static unsigned int nnis_list[16] = { 1 };
static unsigned int nnis_count = 1;
static unsigned int pings;
static unsigned int owed;	/* credits to return to the node */
static unsigned int hold_secs;	/* -H: hold GETs until our ping's REPLY */
static u32 ping_features = 0x1e;	/* -f */
static bool stock_defect;	/* -D: drop the tail WRITE of a short reply */
static bool replied;
/* -G: a stock gateway to the node of FINAL_NID, behind us (see the top) */
static u64 final_nid;
static unsigned int routed;	/* routed GETs and PUTs answered */
/* A routed REPLY too long for one message: sent as PUT_REQ, its data. */
static struct {
	u8 *data;
	u32 len;
	u64 cookie;
	bool waiting;		/* for the node's PUT_ACK */
} rreply;
#define LNET_OFF_HDR_DATA	56
#define IMM_MAX			(MSG_SIZE - IMMEDIATE_HDR_SIZE)
/* Message slots in the tx area, reused round robin: GET_DONEs, pings. */
static unsigned int done_slot, imm_slot, reply_slot;
#define DONE_SLOTS	16		/* of 64 bytes, at 0 */
#define IMM_SLOTS	8		/* of 128 bytes, at 1024 */

/* Byte @off of lnet_test's pattern for @seed (lnettest/lnet_test.c). */
static u8 pattern_byte(u32 seed, u32 off)
{
	u32 w = (seed + (off >> 2)) * 0x9e3779b1U;

	return w >> (8 * (off & 3));
}

/* The reply to a GET of @hdr into @data; returns its length. */
static u32 reply_for(const u8 *hdr, u8 *data)
{
	u32 sink = get32(hdr + LNET_OFF_SINK_LEN), len, off, i, n;

	if (get32(hdr + LNET_OFF_PTL) == 0 &&
	    get64(hdr + LNET_OFF_MATCH) == PING_MATCHBITS) {
		n = nnis_list[pings < nnis_count ? pings : nnis_count - 1];
		pings++;
		len = 16 + 16 * (n + 1);
		memset(data, 0, len);
		put32(data, PING_MAGIC);
		put32(data + 4, ping_features);
		put32(data + 8, 12345);
		put32(data + 12, n + 1);
		put64(data + 16, LO_NID);
		put32(data + 24, 1);			/* the sequence */
		for (i = 0; i < n; i++) {
			put64(data + 32 + 16 * i, src_nid + i);
			put32(data + 40 + 16 * i, NI_STATUS_UP);
		}
		printf("ping: %u NIDs, %u bytes, sink %u\n", n, len, sink);
		return len < sink ? len : sink;
	}
	off = get32(hdr + LNET_OFF_SRC_OFFSET);
	if (off > REPLY_MAX)
		off = REPLY_MAX;
	len = sink < REPLY_MAX - off ? sink : REPLY_MAX - off;
	for (i = 0; i < len; i++)
		data[i] = pattern_byte(GET_SEED, off + i);
	return len;
}

/*
 * Write @len bytes of @data into the RDMA descriptor @rd (of @rd_nob
 * bytes at most, as received) with RDMA WRITEs, then send the @done_type
 * completion {@cookie, status = the bytes written}, one chain, as
 * kiblnd_init_rdma() (with -D, its defect too: see the top).  Returns 0,
 * 1 if the descriptor is bad, 2 on a local error.
 */
static int write_rd(struct link *l, const u8 *rd, u32 rd_nob, u8 *data,
		    u32 len, u8 done_type, u64 cookie, const char *what)
{
	struct ibv_send_wr wrs[9], *bad;
	struct ibv_sge sges[9];
	u8 *done = l->tx + 64 * (done_slot++ % DONE_SLOTS);
	u32 nfrags, resid, off = 0, i, n, dropped = 0;

	if (rd_nob < RD_HDR_SIZE)
		return fail("a message shorter than its descriptor");
	nfrags = get32(rd + 4);
	if (!nfrags || nfrags > MAX_FRAGS ||
	    rd_nob < RD_HDR_SIZE + nfrags * FRAG_SIZE)
		return fail("a descriptor with a bad fragment count");
	/* Our send queue (link_open()) takes 16 WRs; our sinks have 1 frag. */
	if (nfrags > 8) {
		fprintf(stderr, "%u fragments: more than this peer posts\n",
			nfrags);
		return 2;
	}
	memset(wrs, 0, sizeof(wrs));
	resid = len;
	for (i = 0, n = 0; i < nfrags && resid; i++) {
		const u8 *f = rd + RD_HDR_SIZE + i * FRAG_SIZE;
		u32 fnob = get32(f);

		if (fnob > resid)
			fnob = resid;
		if (!fnob)
			continue;
		if (stock_defect && fnob < get32(f)) {
			/* The fragment is not used up: no WR is counted. */
			dropped += fnob;
			off += fnob;
			resid -= fnob;
			continue;
		}
		sges[n] = (struct ibv_sge) {
			.addr = (uintptr_t)(data + off),
			.length = fnob,
			.lkey = l->mr->lkey,
		};
		wrs[n].opcode = IBV_WR_RDMA_WRITE;
		wrs[n].sg_list = &sges[n];
		wrs[n].num_sge = 1;
		wrs[n].wr.rdma.remote_addr = get64(f + 4);
		wrs[n].wr.rdma.rkey = get32(rd);
		wrs[n].next = &wrs[n + 1];
		n++;
		off += fnob;
		resid -= fnob;
	}
	/* As Lustre: what the sink cannot take is not written. */
	memset(done, 0, HDR_SIZE + 12);
	pack(done, done_type, owed, HDR_SIZE + 12);
	owed = 0;
	put64(done + HDR_SIZE, cookie);
	put32(done + HDR_SIZE + 8, off);
	sges[n] = (struct ibv_sge) {
		.addr = (uintptr_t)done,
		.length = HDR_SIZE + 12,
		.lkey = l->mr->lkey,
	};
	wrs[n].opcode = IBV_WR_SEND;
	wrs[n].sg_list = &sges[n];
	wrs[n].num_sge = 1;
	wrs[n].next = NULL;
	if (ibv_post_send(l->id->qp, wrs, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	printf("%s: %u bytes in %u RDMA WRITE(s), %u fragment(s), ",
	       what, off, n, nfrags);
	printf("rkey %#x addr %#llx, %s %u\n", get32(rd),
	       (unsigned long long)get64(rd + RD_HDR_SIZE + 4),
	       done_type == MSG_GET_DONE ? "GET_DONE" : "PUT_DONE", off);
	if (dropped)
		printf("%s: tail WRITE of %u bytes not posted (stock's defect)\n",
		       what, dropped);
	return 0;
}

/*
 * Answer the GET_REQ @m of @nob bytes: RDMA WRITEs then GET_DONE, one
 * chain, as kiblnd_init_rdma().  Returns 0, 1 if the GET_REQ is bad, 2 on
 * a local error.
 */
static int answer_get(struct link *l, const u8 *m, u32 nob)
{
	const u8 *hdr = m + HDR_SIZE;
	u8 *data = l->tx + MSG_SIZE + REPLY_MAX * (reply_slot++ % 2);

	if (nob < GET_RD_OFF)
		return fail("GET_REQ shorter than its descriptor");
	if (get32(hdr + LNET_OFF_TYPE) != LNET_MSG_GET)
		return fail("GET_REQ carrying no LNet GET");
	/* Routing spec 4.6: a GET through a router always comes IMMEDIATE. */
	if (final_nid && get64(hdr + LNET_OFF_DEST_NID) != src_nid)
		return fail("a GET_REQ for another node, not IMMEDIATE");
	return write_rd(l, m + GET_RD_OFF, nob - GET_RD_OFF, data,
			reply_for(hdr, data), MSG_GET_DONE,
			get64(m + GET_RD_OFF - 8), "GET");
}

/*
 * Answer the IMMEDIATE GET @m of @nob bytes with an IMMEDIATE REPLY, as
 * a Lustre node does when the reply fits one message.  Returns 0, 1 if
 * the GET is bad, 2 on a local error.
 */
static int answer_imm_get(struct link *l, const u8 *m, u32 nob)
{
	const u8 *hdr = m + HDR_SIZE;
	u8 *b = l->tx + MSG_SIZE + REPLY_MAX * (reply_slot++ % 2);
	u8 *rep = b + HDR_SIZE;
	struct ibv_sge sge = { .addr = (uintptr_t)b, .lkey = l->mr->lkey };
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;
	u32 len;

	if (nob < IMMEDIATE_HDR_SIZE)
		return fail("IMMEDIATE GET shorter than its header");
	if (get32(hdr + LNET_OFF_SINK_LEN) > IMM_MAX)
		return fail("IMMEDIATE GET whose sink a message cannot fill");
	len = reply_for(hdr, b + IMMEDIATE_HDR_SIZE);
	memset(b, 0, IMMEDIATE_HDR_SIZE);
	pack(b, MSG_IMMEDIATE, owed, IMMEDIATE_HDR_SIZE + len);
	owed = 0;
	put64(rep + LNET_OFF_DEST_NID, get64(hdr + LNET_OFF_SRC_NID));
	/* from the node the GET is for: us, or the one behind us (-G) */
	put64(rep + LNET_OFF_SRC_NID,
	      final_nid && get64(hdr + LNET_OFF_DEST_NID) == final_nid ?
	      final_nid : src_nid);
	put32(rep + LNET_OFF_DEST_PID, get32(hdr + LNET_OFF_SRC_PID));
	put32(rep + LNET_OFF_SRC_PID, LNET_PID);
	put32(rep + LNET_OFF_TYPE, LNET_MSG_REPLY);
	put32(rep + LNET_OFF_PAYLOAD, len);
	memcpy(rep + LNET_OFF_GET_WMD, hdr + LNET_OFF_GET_WMD, 16);
	sge.length = IMMEDIATE_HDR_SIZE + len;
	if (ibv_post_send(l->id->qp, &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	printf("IMMEDIATE GET: %u bytes in an IMMEDIATE REPLY\n", len);
	return 0;
}

/*
 * Check the header @hdr of a message the node sent through us: to
 * final_nid from the node's NID, PIDs 12345.  0, or 1 (printed) if not.
 */
static int routed_hdr_ok(const u8 *hdr, const char *what)
{
	printf("routed %s: dest_nid %#llx, src_nid %#llx\n", what,
	       (unsigned long long)get64(hdr + LNET_OFF_DEST_NID),
	       (unsigned long long)get64(hdr + LNET_OFF_SRC_NID));
	if (get64(hdr + LNET_OFF_SRC_NID) != dst_nid)
		return fail("a routed message whose src_nid is not the node's NID");
	if (get32(hdr + LNET_OFF_DEST_PID) != LNET_PID ||
	    get32(hdr + LNET_OFF_SRC_PID) != LNET_PID)
		return fail("a routed message with PIDs other than 12345");
	return 0;
}

/*
 * The IMMEDIATE GET @m for final_nid, as the node behind us answers it:
 * a REPLY from final_nid, IMMEDIATE if it fits one message, else (as
 * every hop of stock's does, routing spec 4.6) a PUT_REQ, whose PUT_ACK
 * serve() answers with RDMA WRITEs and PUT_DONE.  Returns 0, 1 if the
 * GET is bad, 2 on a local error.
 */
static int answer_routed_get(struct link *l, const u8 *m, u32 nob)
{
	const u8 *hdr = m + HDR_SIZE;
	u8 *b = l->tx + 1024 + 128 * (imm_slot++ % IMM_SLOTS);
	u8 *rep = b + HDR_SIZE;
	struct ibv_sge sge = {
		.addr = (uintptr_t)b,
		.length = IMMEDIATE_HDR_SIZE + 8,
		.lkey = l->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;
	u32 sink = get32(hdr + LNET_OFF_SINK_LEN);
	int rc = routed_hdr_ok(hdr, "GET");

	if (rc)
		return rc;
	if (nob < IMMEDIATE_HDR_SIZE)
		return fail("IMMEDIATE GET shorter than its header");
	printf("routed GET: IMMEDIATE, sink %u\n", sink);
	if (sink <= IMM_MAX)
		return answer_imm_get(l, m, nob);
	if (rreply.waiting)
		return fail("a second routed GET before the first's PUT_ACK");
	rreply.data = l->tx + MSG_SIZE + REPLY_MAX * (reply_slot++ % 2);
	rreply.len = reply_for(hdr, rreply.data);
	rreply.cookie++;
	rreply.waiting = true;
	memset(b, 0, IMMEDIATE_HDR_SIZE + 8);
	pack(b, MSG_PUT_REQ, owed, IMMEDIATE_HDR_SIZE + 8);
	owed = 0;
	put64(rep + LNET_OFF_DEST_NID, get64(hdr + LNET_OFF_SRC_NID));
	put64(rep + LNET_OFF_SRC_NID, final_nid);
	put32(rep + LNET_OFF_DEST_PID, get32(hdr + LNET_OFF_SRC_PID));
	put32(rep + LNET_OFF_SRC_PID, LNET_PID);
	put32(rep + LNET_OFF_TYPE, LNET_MSG_REPLY);
	put32(rep + LNET_OFF_PAYLOAD, rreply.len);
	memcpy(rep + LNET_OFF_GET_WMD, hdr + LNET_OFF_GET_WMD, 16);
	put64(b + IMMEDIATE_HDR_SIZE, rreply.cookie);
	if (ibv_post_send(l->id->qp, &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	printf("routed GET: REPLY of %u bytes as PUT_REQ\n", rreply.len);
	return 0;
}

/* The node's PUT_ACK @m (@nob bytes) for our routed REPLY's PUT_REQ. */
static int answer_put_ack(struct link *l, const u8 *m, u32 nob)
{
	if (!rreply.waiting || nob < PUTACK_RD_OFF ||
	    get64(m + HDR_SIZE) != rreply.cookie)
		return fail("a PUT_ACK for no PUT_REQ of ours");
	rreply.waiting = false;
	return write_rd(l, m + PUTACK_RD_OFF, nob - PUTACK_RD_OFF,
			rreply.data, rreply.len, MSG_PUT_DONE,
			get64(m + HDR_SIZE + 8), "routed REPLY");
}

/*
 * The ACK, from @from, of the PUT whose LNet header is @hdr, if it asked
 * for one (an IMMEDIATE message).  Returns 0 if none was asked for, 1 if
 * it was sent, 2 on a local error.
 */
static int send_ack(struct link *l, const u8 *hdr, u64 from)
{
	u8 *b = l->tx + 1024 + 128 * (imm_slot++ % IMM_SLOTS);
	u8 *ack = b + HDR_SIZE;
	struct ibv_sge sge = {
		.addr = (uintptr_t)b,
		.length = IMMEDIATE_HDR_SIZE,
		.lkey = l->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	if (get64(hdr + LNET_OFF_GET_WMD) == ~0ULL &&
	    get64(hdr + LNET_OFF_GET_WMD + 8) == ~0ULL)
		return 0;			/* no ACK asked for */
	memset(b, 0, IMMEDIATE_HDR_SIZE);
	pack(b, MSG_IMMEDIATE, owed, IMMEDIATE_HDR_SIZE);
	owed = 0;
	put64(ack + LNET_OFF_DEST_NID, get64(hdr + LNET_OFF_SRC_NID));
	put64(ack + LNET_OFF_SRC_NID, from);
	put32(ack + LNET_OFF_DEST_PID, get32(hdr + LNET_OFF_SRC_PID));
	put32(ack + LNET_OFF_SRC_PID, LNET_PID);
	put32(ack + LNET_OFF_TYPE, LNET_MSG_ACK);
	memcpy(ack + LNET_OFF_GET_WMD, hdr + LNET_OFF_GET_WMD, 16);
	memcpy(ack + LNET_OFF_MATCH, hdr + LNET_OFF_MATCH, 8);
	put32(ack + LNET_OFF_ACK_MLEN, get32(hdr + LNET_OFF_PAYLOAD));
	if (ibv_post_send(l->id->qp, &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	return 1;
}

/*
 * The IMMEDIATE PUT @m for final_nid, as the node behind us takes it:
 * every byte checked against lnet_test's pattern (seed = hdr_data), then
 * an ACK from final_nid if one is asked for (*@sends counts it).
 * Returns 0, 1 if the PUT is bad, 2 on a local error.
 */
static int answer_routed_put(struct link *l, const u8 *m, u32 nob,
			     unsigned int *sends)
{
	const u8 *hdr = m + HDR_SIZE, *data = m + IMMEDIATE_HDR_SIZE;
	u32 len = get32(hdr + LNET_OFF_PAYLOAD), i;
	u32 seed = get64(hdr + LNET_OFF_HDR_DATA);
	int rc = routed_hdr_ok(hdr, "PUT");

	if (rc)
		return rc;
	if (nob < IMMEDIATE_HDR_SIZE + len)
		return fail("a routed PUT shorter than its payload");
	for (i = 0; i < len; i++)
		if (data[i] != pattern_byte(seed, i)) {
			printf("FAIL: routed PUT byte %u is %#x, want %#x\n",
			       i, data[i], pattern_byte(seed, i));
			return 1;
		}
	printf("routed PUT: %u bytes, every byte checked\n", len);
	rc = send_ack(l, hdr, final_nid);
	if (rc == 1) {
		(*sends)++;
		rc = 0;
	}
	return rc;
}

/* Is the IMMEDIATE @m (@len bytes) for final_nid (gateway mode)? */
static bool imm_routed(const u8 *m, u32 len)
{
	return final_nid && len >= IMMEDIATE_HDR_SIZE &&
	       get64(m + HDR_SIZE + LNET_OFF_DEST_NID) == final_nid;
}

/*
 * Ping the node as a Lustre node does: an IMMEDIATE GET (spec 6.1), with
 * the credits owed.  Returns 0, or 2 on a local error.
 */
static int send_ping(struct link *l)
{
	u8 *b = l->tx + 1024 + 128 * (imm_slot++ % IMM_SLOTS);
	u8 *get = b + HDR_SIZE;
	struct ibv_sge sge = {
		.addr = (uintptr_t)b,
		.length = IMMEDIATE_HDR_SIZE,
		.lkey = l->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	memset(b, 0, IMMEDIATE_HDR_SIZE);
	pack(b, MSG_IMMEDIATE, owed, IMMEDIATE_HDR_SIZE);
	owed = 0;
	put64(get + LNET_OFF_DEST_NID, dst_nid);
	put64(get + LNET_OFF_SRC_NID, src_nid);
	put32(get + LNET_OFF_DEST_PID, LNET_PID);
	put32(get + LNET_OFF_SRC_PID, LNET_PID);
	put32(get + LNET_OFF_TYPE, LNET_MSG_GET);
	put64(get + LNET_OFF_GET_WMD, PING_WMD_COOKIE);	/* return_wmd */
	put64(get + LNET_OFF_GET_WMD + 8, PING_WMD_COOKIE);
	put64(get + LNET_OFF_MATCH, PING_MATCHBITS);
	put32(get + LNET_OFF_SINK_LEN, 3960);
	if (ibv_post_send(l->id->qp, &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	printf("ping sent\n");
	return 0;
}

/*
 * Take the push @m (an IMMEDIATE PUT of @nob bytes) and send its ACK.
 * Returns 0, 1 if it is not a push, 2 on a local error.
 */
static int answer_push(struct link *l, const u8 *m, u32 nob)
{
	const u8 *hdr = m + HDR_SIZE;
	u32 len = get32(hdr + LNET_OFF_PAYLOAD);

	if (nob < IMMEDIATE_HDR_SIZE + len || len < 32 ||
	    get32(hdr + LNET_OFF_PUT_PTL) != 0 ||
	    get64(hdr + LNET_OFF_MATCH) != PING_MATCHBITS ||
	    get32(m + IMMEDIATE_HDR_SIZE) != PING_MAGIC)
		return fail("a PUT that is not a push");
	printf("push: %u bytes\n", len);
	return send_ack(l, hdr, src_nid) == 2 ? 2 : 0;
}

/* An IMMEDIATE message @m of @len bytes carrying an LNet message of @type? */
static bool imm_carries(const u8 *m, u32 len, u32 type)
{
	return len >= IMMEDIATE_HDR_SIZE &&
	       get32(m + HDR_SIZE + LNET_OFF_TYPE) == type;
}

/* Is the IMMEDIATE @m of @nob bytes the REPLY to our ping, valid? */
static bool ping_replied(const u8 *m, u32 nob)
{
	const u8 *h = m + HDR_SIZE, *pi = m + IMMEDIATE_HDR_SIZE;
	u32 len = get32(h + LNET_OFF_PAYLOAD);

	return nob >= IMMEDIATE_HDR_SIZE + 32 &&
	       get32(h + LNET_OFF_TYPE) == LNET_MSG_REPLY &&
	       get64(h + LNET_OFF_GET_WMD) == PING_WMD_COOKIE &&
	       len >= 32 && nob >= IMMEDIATE_HDR_SIZE + len &&
	       get32(pi) == PING_MAGIC && get64(pi + 16) == LO_NID;
}

/* Check the received message @m of @len bytes; its type, or -1. */
static int check_msg(const u8 *m, u32 len)
{
	if (len < HDR_SIZE || get32(m + OFF_MAGIC) != MSG_MAGIC ||
	    get16(m + OFF_VERSION) != MSG_VERSION ||
	    get32(m + OFF_NOB) > len || get32(m + OFF_NOB) < HDR_SIZE ||
	    get64(m + OFF_SRCNID) != dst_nid ||
	    get64(m + OFF_DSTNID) != src_nid ||
	    get64(m + OFF_DSTSTAMP) != src_stamp ||
	    get64(m + OFF_SRCSTAMP) != dst_stamp)
		return -1;
	return m[OFF_TYPE];
}

/* Answer the GET_REQs held in receive buffers @held[0..@n). */
static int answer_held(struct link *l, const unsigned int *held,
		       unsigned int n)
{
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = answer_get(l, l->buf + held[i] * MSG_SIZE,
				get32(l->buf + held[i] * MSG_SIZE + OFF_NOB));
		if (rc)
			return rc;
		if (post_recv(l, held[i])) {
			perror("ibv_post_recv");
			return 2;
		}
	}
	return 0;
}

static int serve(struct link *l, unsigned int count)
{
	unsigned int served = 0, sends = 0, held[NRX], nheld = 0;
	time_t deadline = time(NULL) + wait_secs, ping_at = 0;
	bool pinged = false;
	struct ibv_wc wc;
	int n, type, rc;
	u8 *m;

	while (served < count || sends || rreply.waiting) {
		n = ibv_poll_cq(l->cq, 1, &wc);
		if (n < 0)
			return fail("ibv_poll_cq");
		if (!n) {
			if (nheld && !pinged && time(NULL) > ping_at) {
				rc = send_ping(l);
				if (rc)
					return rc;
				pinged = true;
				sends++;
			}
			if (nheld && time(NULL) > ping_at + hold_secs) {
				printf("FAIL: %u GET(s) held, no ping REPLY in %u s\n",
				       nheld, hold_secs);
				return 1;
			}
			if (time(NULL) > deadline) {
				printf("FAIL: %u of %u GETs after %u s\n",
				       served, count, wait_secs);
				return 1;
			}
			usleep(1000);
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS) {
			printf("FAIL: completion %s (opcode %d)\n",
			       ibv_wc_status_str(wc.status), wc.opcode);
			return 1;
		}
		if (!(wc.opcode & IBV_WC_RECV)) {
			if (wc.opcode == IBV_WC_SEND)
				sends--;
			continue;
		}
		deadline = time(NULL) + wait_secs;
		m = l->buf + wc.wr_id * MSG_SIZE;
		type = check_msg(m, wc.byte_len);
		if (type == MSG_GET_REQ || type == MSG_IMMEDIATE)
			owed++;
		if (type == MSG_GET_REQ && hold_secs && !replied) {
			if (!nheld)
				ping_at = time(NULL) + 1;
			printf("GET held\n");
			held[nheld++] = wc.wr_id;
			served++;
			sends++;
			continue;		/* its buffer stays ours */
		}
		if (type == MSG_IMMEDIATE && imm_routed(m, wc.byte_len)) {
			if (imm_carries(m, wc.byte_len, LNET_MSG_GET)) {
				rc = answer_routed_get(l, m,
						       get32(m + OFF_NOB));
				sends++;
			} else if (imm_carries(m, wc.byte_len,
					       LNET_MSG_PUT)) {
				rc = answer_routed_put(l, m,
						       get32(m + OFF_NOB),
						       &sends);
			} else {
				rc = fail("a routed message neither GET nor PUT");
			}
			if (rc)
				return rc;
			routed++;
			served++;
		} else if (type == MSG_PUT_ACK) {
			rc = answer_put_ack(l, m, get32(m + OFF_NOB));
			if (rc)
				return rc;
			sends++;
		} else if (type == MSG_GET_REQ) {
			rc = answer_get(l, m, get32(m + OFF_NOB));
			if (rc)
				return rc;
			served++;
			sends++;
		} else if (type == MSG_IMMEDIATE &&
			   imm_carries(m, wc.byte_len, LNET_MSG_GET)) {
			rc = answer_imm_get(l, m, get32(m + OFF_NOB));
			if (rc)
				return rc;
			served++;
			sends++;
		} else if (type == MSG_IMMEDIATE &&
			   imm_carries(m, wc.byte_len, LNET_MSG_PUT)) {
			rc = answer_push(l, m, get32(m + OFF_NOB));
			if (rc)
				return rc;
		} else if (type == MSG_IMMEDIATE && pinged && !replied) {
			if (!ping_replied(m, get32(m + OFF_NOB)))
				return fail("not a valid REPLY to our ping");
			printf("ping REPLY while %u GET(s) held\n", nheld);
			replied = true;
			rc = answer_held(l, held, nheld);
			if (rc)
				return rc;
			nheld = 0;
		} else if (type != MSG_NOOP) {
			printf("FAIL: message type %d, bad header or unexpected\n",
			       type);
			return 1;
		}
		if (post_recv(l, wc.wr_id)) {
			perror("ibv_post_recv");
			return 2;
		}
	}
	return 0;
}

/*
 * Keep the connection for wait_secs, taking NOOPs and pushes; 0, or 1 on
 * anything else.
 */
static int linger(struct link *l)
{
	time_t end = time(NULL) + wait_secs;
	struct ibv_wc wc;
	int n, type, rc;
	u8 *m;

	while (time(NULL) < end) {
		n = ibv_poll_cq(l->cq, 1, &wc);
		if (n < 0)
			return fail("ibv_poll_cq");
		if (!n) {
			usleep(10000);
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS)
			return fail("completion error after the GETs");
		if (!(wc.opcode & IBV_WC_RECV))
			continue;
		m = l->buf + wc.wr_id * MSG_SIZE;
		type = check_msg(m, wc.byte_len);
		if (type == MSG_IMMEDIATE &&
		    imm_carries(m, wc.byte_len, LNET_MSG_PUT)) {
			owed++;
			rc = answer_push(l, m, get32(m + OFF_NOB));
			if (rc)
				return rc;
		} else if (type != MSG_NOOP) {
			return fail("a message other than NOOP or a push after the GETs");
		}
		if (post_recv(l, wc.wr_id)) {
			perror("ibv_post_recv");
			return 2;
		}
	}
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: o2ib_lustre [-t SECONDS] [-S SRC_NID] [-n NNIS[,NNIS...]] [-c COUNT]\n"
		"                   [-H HOLD] [-f FEATURES] [-D] [-G FINAL_NID] IP NID\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned int count = 1;
	struct link l;
	char *p, *end;
	int opt, rc;

	src_nid = parse_nid("192.0.2.250@o2ib");
	while ((opt = getopt(argc, argv, "t:S:n:c:H:f:DG:")) != -1) {
		switch (opt) {
		case 't':
			wait_secs = atoi(optarg);
			break;
		case 'S':
			src_nid = parse_nid(optarg);
			if (!src_nid)
				return bad_usage();
			break;
		case 'n':
			nnis_count = 0;
			for (p = optarg; *p && nnis_count < 16; p = end) {
				nnis_list[nnis_count] = strtoul(p, &end, 10);
				if (end == p || !nnis_list[nnis_count] ||
				    nnis_list[nnis_count] > 1000)
					return bad_usage();
				nnis_count++;
				if (*end == ',')
					end++;
			}
			if (*p || !nnis_count)
				return bad_usage();
			break;
		case 'c':
			count = atoi(optarg);
			break;
		case 'H':
			hold_secs = atoi(optarg);
			if (!hold_secs)
				return bad_usage();
			break;
		case 'f':
			ping_features = strtoul(optarg, &end, 0);
			if (*end || !(ping_features & 0x02))	/* NI_STATUS */
				return bad_usage();
			break;
		case 'D':
			stock_defect = true;
			break;
		case 'G':
			final_nid = parse_nid(optarg);
			if (!final_nid)
				return bad_usage();
			break;
		default:
			return bad_usage();
		}
	}
	if (argc - optind != 2 || !count)
		return bad_usage();
	dst_nid = parse_nid(argv[optind + 1]);
	if (!dst_nid)
		return bad_usage();
	src_stamp = 0x4057113000000001ULL;

	rc = link_open(&l, argv[optind], NRX, MSG_SIZE + 2 * REPLY_MAX);
	if (rc)
		return rc;
	rc = establish(&l);
	if (!rc) {
		printf("connected\n");
		fflush(stdout);
		rc = serve(&l, count);
	}
	if (!rc) {
		if (final_nid)
			printf("%u routed to the final NID\n", routed);
		printf("%u GETs answered: OK\n", count);
		fflush(stdout);
		rc = linger(&l);
	}
	link_close(&l);
	return rc;
}
