// SPDX-License-Identifier: GPL-2.0
/*
 * o2ib_client: a stock Lustre 2.17 client on o2ib, scripted, sending
 * through a router to a node on another net: the o2ib twin of
 * sock_lustre.
 *
 *	o2ib_client [-t SECONDS] [-q SECONDS] ROUTER_IP ROUTER_NID
 *		    ROUTER_FAR_NID DEST_NID
 *
 * The node it runs on has no LNet loaded; its NID is its address towards
 * the router @o2ib (the local address rdma_cm resolves).  As a stock
 * ko2iblnd with a route to DEST_NID's net through ROUTER_NID does
 * (lnet-routing.md 4.6, 11.1 item 5, 14 items 2 and 6;
 * lnet-wire-protocol.md 2, 5, 6, 7):
 *
 *  1. connects to the router's ko2iblnd (rdma_cm to ROUTER_IP:987 from a
 *     privileged port, retry_count 5, rnr_retry_count 6, 2 x 8 + 2
 *     receive buffers posted) with a V2 CONNREQ {queue depth 8, 257
 *     fragments, 4096 bytes}, retried once with the router's incarnation
 *     after a CONN_STALE reject (wire 5.6 item 10), the CONNACK checked;
 *  2. checks the router as its router checker would: a ping GET sent
 *     IMMEDIATE (sink 272 bytes) whose IMMEDIATE REPLY must list
 *     ROUTER_NID and ROUTER_FAR_NID UP, with NI_STATUS and MULTI_RAIL and
 *     without RTE_DISABLED, then a push of its own ping buffer whose ACK
 *     must come;
 *  3. discovers DEST_NID through the router (ping GET, then push: both
 *     routed): the REPLY must come from DEST_NID and list it UP;
 *  4. PUTs with ACK requested to lnet_test's bulk sink at DEST_NID
 *     (portal 60, match bits 0x1000000000, hdr_data = the pattern's seed,
 *     which the target checks byte by byte) of 0, 1, 3976 bytes as
 *     IMMEDIATE and 3977, 65536 and 1048576 bytes as PUT_REQ: the
 *     router's PUT_ACK (our cookie echoed, a valid descriptor covering the
 *     payload) gets the RDMA WRITEs and PUT_DONE {its cookie, the bytes},
 *     no credit; each ACK's header checked (from DEST_NID, our handle and
 *     match bits, mlength = the size);
 *  5. GETs from lnet_test's GET source (match bits 0x2000000000) of the
 *     same sizes at offsets, always IMMEDIATE (never GET_REQ to a router:
 *     routing 4.6, 11.2 item 2), the REPLY taken as IMMEDIATE (<= 3976
 *     bytes) or as PUT_REQ carrying a REPLY header, answered with PUT_ACK
 *     on our registered sink (one fragment, the GET's sink length) and
 *     completed by the router's PUT_DONE; the header and every byte
 *     checked (the pattern of seed 0x5eed at that offset).
 *
 * Throughout, what the router sends is checked: every message's o2ib
 * header (the router's NID and incarnation, ours), the credits it returns
 * (never more than we used), the credits it uses (never more than we gave:
 * queue depth 8 plus those returned), the message types (no GET_REQ for
 * another node, no PUT_NAK, no GET_DONE: we send no GET_REQ; PUT_ACK and
 * PUT_DONE only for a transaction of ours), every LNet header addressed to
 * us (dest NID and PID) from PID 12345, the responses from DEST_NID.
 * Credits are returned as stock does: on every message we send, and by a
 * NOOP (no credit, at most 2 in flight) once 4 (the high-water mark) are
 * owed.  Pings (IMMEDIATE GET or a GET_REQ for us) and pushes that come,
 * from the router or DEST_NID, are answered as stock does (REPLY with our
 * ping buffer, ACK).  At the end it keeps serving for -q seconds (default
 * 2) so that such a discovery does not time out on the other nodes.
 *
 * The last line on success is "OK: puts=N bytes=B gets=M pings=P
 * pushes=Q" (PUTs ACKed, their payload bytes, GETs answered, pings and
 * pushes it answered).  Exit status: 0 all as the spec says, 1 not (the
 * reason is printed), 2 usage or local error.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "o2ib_peer.h"

#define QD			8	/* stock peer_credits */
#define HIW			(QD / 2)	/* peer_credits_hiw default */
#define NRX			(2 * QD + 2)
#define LNET_MTU		1048576U
#define IMM_MAX			(MSG_SIZE - IMMEDIATE_HDR_SIZE)	/* 3976 */
#define PUT_REQ_SIZE		(IMMEDIATE_HDR_SIZE + 8)
#define COMPLETION_SIZE		(HDR_SIZE + 12)
#define MAX_WRS			(MAX_FRAGS + 1)
/* the tx area: NSLOTS message slots, the 1 MiB PUT source, a ping REPLY */
#define NSLOTS			32
#define TX_SIZE			(NSLOTS * MSG_SIZE + LNET_MTU + MSG_SIZE)
#define WR_SEND			0x1000	/* wr_id: a message slot */
#define WR_RDMA			0x2000

/* the nid4 LNet header (wire 2.2) */
#define H_DEST_NID		0
#define H_SRC_NID		8
#define H_DEST_PID		16
#define H_SRC_PID		20
#define H_TYPE			24
#define H_LEN			28
#define H_WMD			32	/* ack_wmd, return_wmd, dst_wmd */
#define H_BITS			48
#define H_PUT_HDR_DATA		56
#define H_PUT_PTL		64
#define H_PUT_OFFSET		68
#define H_GET_PTL		56
#define H_GET_SRC_OFFSET	60
#define H_GET_SINK		64
#define H_ACK_MLEN		56
#define MSG_ACK			0
#define MSG_PUT			1
#define MSG_GET			2
#define MSG_REPLY		3
#define PID_LUSTRE		12345
#define PING_BITS		0x8000000000000000ULL
#define PING_MAGIC		0x70696E67U
#define PING_SINK		272
#define NS_UP			0x15AAC0DEU
#define NS_DOWN			0xDEADFACEU
#define FEAT_NI_STATUS		0x02
#define FEAT_RTE_DISABLED	0x04
#define FEAT_MULTI_RAIL		0x08
#define FEAT_DISCOVERY		0x10
#define FEAT_LARGE_ADDR		0x20
#define NID_LO			0x0009000000000000ULL
#define WMD_NONE		0xFFFFFFFFFFFFFFFFULL
#define REJECT_CONN_STALE	5
/* lnet_test's target (lnettest/lnet_test.c) */
#define LT_PORTAL		60
#define LT_PUT_BITS		0x1000000000ULL
#define LT_GET_BITS		0x2000000000ULL
#define LT_GET_SEED		0x5eedU

static const u32 sizes[] = { 0, 1, 3976, 3977, 65536, 1048576 };

static struct link L;
static struct ibv_mr *sink_mr;	/* REPLY sink, remote-writable */
static u8 *sink;
static u8 *src_data;		/* PUT source, in L.mr */
static u64 router_far, dest, wh_iface, next_cookie = 0x1b000001ULL;
static u8 ping_buf[48];
static bool slot_busy[NSLOTS];
static unsigned int next_slot;
static int credits;		/* ours: credited messages we may send */
static int r_credits;		/* the router's, as we gave them */
static unsigned int owed;	/* credits we owe the router */
static unsigned int noops_in_flight, rdma_in_flight;
static unsigned int pings_answered, pushes_acked, noops_rx, noops_tx;

/* What the script waits for: the response to one request of ours. */
static struct {
	int type;		/* MSG_ACK or MSG_REPLY; -1 none */
	u64 cookie;		/* its wire handle cookie */
	bool done;
	u8 hdr[LNET_HDR_SIZE];
	u32 len;		/* REPLY payload bytes */
	u8 *payload;		/* in a receive buffer copy or the sink */
	/* our PUT_REQ waiting for the router's PUT_ACK */
	u64 put_cookie;
	u32 put_len;
	bool put_waiting;
	/* a REPLY's PUT_REQ we PUT_ACKed, waiting for PUT_DONE */
	u64 reply_cookie;
	bool reply_waiting;
} w = { .type = -1 };
static u8 imm_payload[MSG_SIZE];

static int failf(const char *fmt, ...)
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

/* A nid4 as text, in one of four static buffers. */
static const char *nidstr(u64 nid)
{
	static char bufs[4][48];
	static int i;
	char *b = bufs[i++ & 3];
	u32 a = nid, net = nid >> 32;
	const char *lnd;

	switch (net >> 16) {
	case SOCKLND:
		lnd = "tcp";
		break;
	case O2IBLND:
		lnd = "o2ib";
		break;
	case 9:
		return "0@lo";
	default:
		snprintf(b, 48, "0x%016llx", (unsigned long long)nid);
		return b;
	}
	snprintf(b, 48, "%u.%u.%u.%u@%s", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff, lnd);
	if (net & 0xffff)
		snprintf(b + strlen(b), 48 - strlen(b), "%u", net & 0xffff);
	return b;
}

/* Byte @off of lnet_test's pattern for @seed. */
static u8 pattern(u32 seed, u32 off)
{
	u32 w = (seed + (off >> 2)) * 0x9e3779b1U;

	return w >> (8 * (off & 3));
}

/* A free message slot of the tx area; NULL (printed) if none. */
static u8 *slot_get(unsigned int *idx)
{
	unsigned int i, s;

	for (i = 0; i < NSLOTS; i++) {
		s = (next_slot + i) % NSLOTS;
		if (!slot_busy[s]) {
			slot_busy[s] = true;
			next_slot = s + 1;
			*idx = s;
			return L.tx + (size_t)s * MSG_SIZE;
		}
	}
	fprintf(stderr, "no free message slot\n");
	return NULL;
}

/*
 * Post the message in slot @s (@nob bytes), after the RDMA WRITEs @rdma
 * (chained, or NULL).  The header's credits are set here: all we owe.
 */
static int post_msg(unsigned int s, u32 nob, struct ibv_send_wr *rdma)
{
	u8 *b = L.tx + (size_t)s * MSG_SIZE;
	struct ibv_sge sge = {
		.addr = (uintptr_t)b, .length = nob, .lkey = L.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = WR_SEND | s, .opcode = IBV_WR_SEND,
		.sg_list = &sge, .num_sge = 1,
	}, *bad, *last;

	b[OFF_CREDITS] = owed;
	r_credits += owed;
	owed = 0;
	if (rdma) {
		for (last = rdma; last->next; last = last->next)
			;
		last->next = &wr;
	}
	if (ibv_post_send(L.id->qp, rdma ? rdma : &wr, &bad)) {
		perror("ibv_post_send");
		return 2;
	}
	return 0;
}

static int poll_once(int wait_ms);

/* Wait until we hold a credit (the router returns them). */
static int take_credit(void)
{
	time_t end = time(NULL) + wait_secs;
	int rc;

	while (credits <= 0) {
		if (time(NULL) > end)
			return failf("no credit back from the router in %u s",
				     wait_secs);
		rc = poll_once(100);
		if (rc)
			return rc;
	}
	credits--;
	return 0;
}

/* An LNet header from us (nid4, LE), zeroed first (wire 2.2). */
static void lnet_hdr(u8 *h, u64 to, u32 type, u32 len)
{
	memset(h, 0, LNET_HDR_SIZE);
	put64(h + H_DEST_NID, to);
	put64(h + H_SRC_NID, src_nid);
	put32(h + H_DEST_PID, PID_LUSTRE);
	put32(h + H_SRC_PID, PID_LUSTRE);
	put32(h + H_TYPE, type);
	put32(h + H_LEN, len);
}

/*
 * Send the LNet message @h with @len payload bytes of @payload: IMMEDIATE
 * when it fits one message, else PUT_REQ (its PUT_ACK then gets the data
 * from src_data, which @payload must be).  A GET always goes IMMEDIATE.
 */
static int send_lnet(const u8 *h, const u8 *payload, u32 len)
{
	unsigned int s;
	u8 *b;
	int rc = take_credit();

	if (rc)
		return rc;
	b = slot_get(&s);
	if (!b)
		return 2;
	if (len <= IMM_MAX) {
		pack(b, MSG_IMMEDIATE, 0, IMMEDIATE_HDR_SIZE + len);
		memcpy(b + HDR_SIZE, h, LNET_HDR_SIZE);
		if (len)
			memcpy(b + IMMEDIATE_HDR_SIZE, payload, len);
		return post_msg(s, IMMEDIATE_HDR_SIZE + len, NULL);
	}
	if (payload != src_data || w.put_waiting) {
		fprintf(stderr, "PUT_REQ not from the PUT source\n");
		return 2;
	}
	pack(b, MSG_PUT_REQ, 0, PUT_REQ_SIZE);
	memcpy(b + HDR_SIZE, h, LNET_HDR_SIZE);
	w.put_cookie = next_cookie++;
	w.put_len = len;
	w.put_waiting = true;
	put64(b + IMMEDIATE_HDR_SIZE, w.put_cookie);
	return post_msg(s, PUT_REQ_SIZE, NULL);
}

/* A message of no credit: NOOP, PUT_ACK, PUT_DONE, GET_DONE. */
static u8 *uncredited(unsigned int *s, u8 type, u32 nob)
{
	u8 *b = slot_get(s);

	if (b) {
		memset(b, 0, nob);
		pack(b, type, 0, nob);
	}
	return b;
}

/* Return what we owe by a NOOP once it reaches the high-water mark. */
static int maybe_noop(void)
{
	unsigned int s;

	if (owed < HIW || noops_in_flight >= 2)
		return 0;
	if (!uncredited(&s, MSG_NOOP, HDR_SIZE))
		return 2;
	noops_in_flight++;
	noops_tx++;
	return post_msg(s, HDR_SIZE, NULL);
}

/*
 * RDMA WRITE @len bytes of @data (in L.mr) into the descriptor @rd of
 * @rd_nob bytes (as received), then the completion @done_type {@cookie,
 * the bytes}, one chain, as kiblnd_init_rdma().  0, 1 if the descriptor
 * is bad, 2 on a local error.
 */
static int write_rd(const u8 *rd, u32 rd_nob, const u8 *data, u32 len,
		    u8 done_type, u64 cookie, const char *what)
{
	static struct ibv_send_wr wrs[MAX_WRS];
	static struct ibv_sge sges[MAX_WRS];
	u32 nfrags, cap = 0, resid = len, off = 0, i, n = 0;
	unsigned int s;
	u8 *done;

	if (rd_nob < RD_HDR_SIZE)
		return failf("%s: a message shorter than its descriptor", what);
	nfrags = get32(rd + 4);
	if (!nfrags || nfrags > MAX_FRAGS ||
	    rd_nob < RD_HDR_SIZE + nfrags * FRAG_SIZE)
		return failf("%s: a descriptor of %u fragments in %u bytes",
			     what, nfrags, rd_nob);
	for (i = 0; i < nfrags; i++)
		cap += get32(rd + RD_HDR_SIZE + i * FRAG_SIZE);
	if (cap < len)
		return failf("%s: the router's descriptor covers %u bytes of %u",
			     what, cap, len);
	memset(wrs, 0, sizeof(wrs));
	for (i = 0; i < nfrags && resid; i++) {
		const u8 *f = rd + RD_HDR_SIZE + i * FRAG_SIZE;
		u32 fnob = get32(f) < resid ? get32(f) : resid;

		if (!fnob)
			continue;
		sges[n] = (struct ibv_sge) {
			.addr = (uintptr_t)(data + off), .length = fnob,
			.lkey = L.mr->lkey,
		};
		wrs[n].wr_id = WR_RDMA;
		wrs[n].opcode = IBV_WR_RDMA_WRITE;
		wrs[n].sg_list = &sges[n];
		wrs[n].num_sge = 1;
		wrs[n].wr.rdma.remote_addr = get64(f + 4);
		wrs[n].wr.rdma.rkey = get32(rd);
		if (n)
			wrs[n - 1].next = &wrs[n];
		n++;
		off += fnob;
		resid -= fnob;
	}
	done = uncredited(&s, done_type, COMPLETION_SIZE);
	if (!done)
		return 2;
	put64(done + HDR_SIZE, cookie);
	put32(done + HDR_SIZE + 8, off);
	rdma_in_flight += n;
	printf("%s: %u bytes in %u RDMA WRITE(s) into %u fragment(s) of %u bytes, %s %u\n",
	       what, off, n, nfrags, cap,
	       done_type == MSG_PUT_DONE ? "PUT_DONE" : "GET_DONE", off);
	return post_msg(s, COMPLETION_SIZE, n ? wrs : NULL);
}

/*
 * Check a ping buffer (@b, @len bytes) from @from: valid as discovery
 * validates it (wire 6.2); @want NIDs listed UP; *@feat its features.
 */
static int check_ping_info(const u8 *b, u32 len, u64 from, const u64 *want,
			   int nwant, u32 *feat)
{
	u32 nnis, st, i;
	bool found;
	int k;

	if (len < 16)
		return failf("ping info from %s: %u bytes", nidstr(from), len);
	if (get32(b) != PING_MAGIC)
		return failf("ping info from %s: magic 0x%08x", nidstr(from),
			     get32(b));
	*feat = get32(b + 4);
	nnis = get32(b + 12);
	if (!(*feat & FEAT_NI_STATUS))
		return failf("ping info from %s: features 0x%x without NI_STATUS",
			     nidstr(from), *feat);
	if (get32(b + 8) != PID_LUSTRE)
		return failf("ping info from %s: pid %u", nidstr(from),
			     get32(b + 8));
	if (nnis < 1 || len < 16 + 16 * nnis)
		return failf("ping info from %s: %u NIs in %u bytes",
			     nidstr(from), nnis, len);
	if (get64(b + 16) != NID_LO)
		return failf("ping info from %s: entry 0 is %s, not 0@lo",
			     nidstr(from), nidstr(get64(b + 16)));
	if (!get32(b + 24))
		return failf("ping info from %s: sequence 0 in entry 0",
			     nidstr(from));
	if (!(*feat & FEAT_LARGE_ADDR) && get32(b + 28))
		return failf("ping info from %s: entry 0 msg_size %u without LARGE_ADDR",
			     nidstr(from), get32(b + 28));
	printf("ping info from %s: features 0x%x, seq %u, %u NIs:",
	       nidstr(from), *feat, get32(b + 24), nnis);
	for (i = 1; i < nnis; i++) {
		st = get32(b + 16 + 16 * i + 8);
		printf(" %s %s", nidstr(get64(b + 16 + 16 * i)),
		       st == NS_UP ? "up" : st == NS_DOWN ? "down" : "?");
		if (st != NS_UP && st != NS_DOWN) {
			printf("\n");
			return failf("ping info from %s: %s status 0x%x",
				     nidstr(from),
				     nidstr(get64(b + 16 + 16 * i)), st);
		}
	}
	printf("\n");
	for (k = 0; k < nwant; k++) {
		found = false;
		for (i = 1; i < nnis; i++) {
			if (get64(b + 16 + 16 * i) != want[k])
				continue;
			found = true;
			if (get32(b + 16 + 16 * i + 8) != NS_UP)
				return failf("ping info from %s: %s is not UP",
					     nidstr(from), nidstr(want[k]));
		}
		if (!found)
			return failf("ping info from %s: %s not listed",
				     nidstr(from), nidstr(want[k]));
	}
	return 0;
}

/* The REPLY to the ping GET @g (an LNet header): our ping buffer. */
static void ping_reply(const u8 *g, u8 *h, u32 *len, u32 *off)
{
	u32 sink = get32(g + H_GET_SINK);

	*off = get32(g + H_GET_SRC_OFFSET);
	*len = *off >= sizeof(ping_buf) ? 0 : sizeof(ping_buf) - *off;
	if (*len > sink)
		*len = sink;
	lnet_hdr(h, get64(g + H_SRC_NID), MSG_REPLY, *len);
	memcpy(h + H_WMD, g + H_WMD, 16);	/* dst_wmd = return_wmd */
	pings_answered++;
	printf("answering a ping from %s (sink %u)\n",
	       nidstr(get64(g + H_SRC_NID)), sink);
}

/* A push (PUT) @h of @len bytes at @p for us: check it, ACK it. */
static int answer_push(const u8 *h, const u8 *p, u32 len)
{
	u64 from = get64(h + H_SRC_NID);
	u8 a[LNET_HDR_SIZE];
	u32 feat;

	if (check_ping_info(p, len, from, NULL, 0, &feat))
		return 1;
	if (!(feat & FEAT_MULTI_RAIL))
		return failf("push from %s without MULTI_RAIL (features 0x%x)",
			     nidstr(from), feat);
	pushes_acked++;
	printf("push from %s (%u bytes)\n", nidstr(from), len);
	if (get64(h + H_WMD) == WMD_NONE && get64(h + H_WMD + 8) == WMD_NONE)
		return 0;
	lnet_hdr(a, from, MSG_ACK, 0);
	memcpy(a + H_WMD, h + H_WMD, 16);		/* dst_wmd = ack_wmd */
	put64(a + H_BITS, get64(h + H_BITS));
	put32(a + H_ACK_MLEN, len);
	return send_lnet(a, NULL, 0);
}

/* Is the LNet header @h a response we wait for?  Then record it. */
static bool awaited(const u8 *h)
{
	if (w.type < 0 || w.done || (int)get32(h + H_TYPE) != w.type ||
	    get64(h + H_WMD) != wh_iface || get64(h + H_WMD + 8) != w.cookie)
		return false;
	memcpy(w.hdr, h, LNET_HDR_SIZE);
	w.len = get32(h + H_LEN);
	return true;
}

/* Check the LNet header @h the router sent us (in an o2ib @what). */
static int check_lnet(const u8 *h, const char *what)
{
	u32 type = get32(h + H_TYPE), len = get32(h + H_LEN);

	if (type > MSG_REPLY)
		return failf("%s: LNet type %u", what, type);
	if (len > LNET_MTU || ((type == MSG_ACK || type == MSG_GET) && len))
		return failf("%s: LNet type %u with payload_length %u", what,
			     type, len);
	if (get64(h + H_DEST_NID) != src_nid)
		return failf("%s: LNet type %u for %s, not us (%s), from %s",
			     what, type, nidstr(get64(h + H_DEST_NID)),
			     nidstr(src_nid), nidstr(get64(h + H_SRC_NID)));
	if (get32(h + H_DEST_PID) != PID_LUSTRE ||
	    get32(h + H_SRC_PID) != PID_LUSTRE)
		return failf("%s: LNet type %u from %s: dest_pid %u src_pid %u, want 12345",
			     what, type, nidstr(get64(h + H_SRC_NID)),
			     get32(h + H_DEST_PID), get32(h + H_SRC_PID));
	return 0;
}

/* An IMMEDIATE message @m of @nob bytes. */
static int rx_immediate(const u8 *m, u32 nob)
{
	const u8 *h = m + HDR_SIZE, *p = m + IMMEDIATE_HDR_SIZE;
	u32 type, len, off, rlen;
	u8 r[LNET_HDR_SIZE];
	int rc;

	if (nob < IMMEDIATE_HDR_SIZE)
		return failf("IMMEDIATE of %u bytes", nob);
	rc = check_lnet(h, "IMMEDIATE");
	if (rc)
		return rc;
	type = get32(h + H_TYPE);
	len = get32(h + H_LEN);
	if (nob != IMMEDIATE_HDR_SIZE + len)
		return failf("IMMEDIATE of %u bytes carrying LNet type %u of %u bytes",
			     nob, type, len);
	if (type == MSG_GET && get32(h + H_GET_PTL) == 0 &&
	    get64(h + H_BITS) == PING_BITS) {
		ping_reply(h, r, &rlen, &off);
		return send_lnet(r, ping_buf + off, rlen);
	}
	if (type == MSG_PUT && get32(h + H_PUT_PTL) == 0 &&
	    get64(h + H_BITS) == PING_BITS)
		return answer_push(h, p, len);
	if (awaited(h)) {
		memcpy(imm_payload, p, len);
		w.payload = imm_payload;
		w.done = true;
		return 0;
	}
	return failf("IMMEDIATE: unexpected LNet type %u from %s (0x%llx 0x%llx)",
		     type, nidstr(get64(h + H_SRC_NID)),
		     (unsigned long long)get64(h + H_WMD + 8),
		     (unsigned long long)get64(h + H_BITS));
}

/*
 * A PUT_REQ: only a REPLY too long for one message, to a GET of ours;
 * PUT_ACK on our sink, one fragment of the GET's sink length.
 */
static int rx_put_req(const u8 *m, u32 nob)
{
	const u8 *h = m + HDR_SIZE;
	unsigned int s;
	u8 *b;
	int rc;

	if (nob != PUT_REQ_SIZE)
		return failf("PUT_REQ of %u bytes, not %u", nob, PUT_REQ_SIZE);
	rc = check_lnet(h, "PUT_REQ");
	if (rc)
		return rc;
	if (get32(h + H_TYPE) != MSG_REPLY || !awaited(h))
		return failf("PUT_REQ carrying LNet type %u from %s: no REPLY to a GET of ours",
			     get32(h + H_TYPE), nidstr(get64(h + H_SRC_NID)));
	if (w.len <= IMM_MAX)
		return failf("PUT_REQ for a REPLY of %u bytes: one IMMEDIATE holds it",
			     w.len);
	if (w.reply_waiting)
		return failf("a second REPLY PUT_REQ before PUT_DONE");
	b = uncredited(&s, MSG_PUT_ACK, PUTACK_RD_OFF + RD_HDR_SIZE + FRAG_SIZE);
	if (!b)
		return 2;
	w.reply_cookie = next_cookie++;
	w.reply_waiting = true;
	put64(b + HDR_SIZE, get64(m + IMMEDIATE_HDR_SIZE));	/* src */
	put64(b + HDR_SIZE + 8, w.reply_cookie);		/* dst */
	put32(b + PUTACK_RD_OFF, sink_mr->rkey);
	put32(b + PUTACK_RD_OFF + 4, 1);
	put32(b + PUTACK_RD_OFF + 8, w.len);
	put64(b + PUTACK_RD_OFF + 12, (uintptr_t)sink);
	memset(sink, 0, w.len);
	printf("REPLY of %u bytes from %s as PUT_REQ: PUT_ACK on our sink\n",
	       w.len, nidstr(get64(h + H_SRC_NID)));
	return post_msg(s, PUTACK_RD_OFF + RD_HDR_SIZE + FRAG_SIZE, NULL);
}

/* A GET_REQ: only a ping of us from the router itself (wire 5.8). */
static int rx_get_req(const u8 *m, u32 nob)
{
	const u8 *h = m + HDR_SIZE;
	u8 r[LNET_HDR_SIZE];
	u32 len, off;
	int rc;

	if (nob < GET_RD_OFF + RD_HDR_SIZE)
		return failf("GET_REQ of %u bytes", nob);
	if (get64(h + H_DEST_NID) != src_nid)
		return failf("GET_REQ for %s from %s: a routed GET is IMMEDIATE (4.6)",
			     nidstr(get64(h + H_DEST_NID)),
			     nidstr(get64(h + H_SRC_NID)));
	rc = check_lnet(h, "GET_REQ");
	if (rc)
		return rc;
	if (get32(h + H_TYPE) != MSG_GET || get32(h + H_GET_PTL) ||
	    get64(h + H_BITS) != PING_BITS)
		return failf("GET_REQ: not a ping (type %u portal %u)",
			     get32(h + H_TYPE), get32(h + H_GET_PTL));
	if (get64(h + H_SRC_NID) != dst_nid)
		return failf("GET_REQ from %s: routed, not the router's own",
			     nidstr(get64(h + H_SRC_NID)));
	ping_reply(h, r, &len, &off);
	memcpy(src_data + LNET_MTU, ping_buf + off, len);
	return write_rd(m + GET_RD_OFF, nob - GET_RD_OFF,
			src_data + LNET_MTU, len,
			MSG_GET_DONE, get64(m + GET_RD_OFF - 8), "ping GET_REQ");
}

/* Check the o2ib header of @m (@len bytes received); its type or -1. */
static int check_hdr(const u8 *m, u32 len)
{
	u32 nob;

	if (len < HDR_SIZE) {
		failf("a message of %u bytes", len);
		return -1;
	}
	nob = get32(m + OFF_NOB);
	if (get32(m + OFF_MAGIC) != MSG_MAGIC ||
	    get16(m + OFF_VERSION) != MSG_VERSION || nob > len ||
	    nob < HDR_SIZE) {
		failf("message magic 0x%x version 0x%x nob %u in %u bytes",
		      get32(m + OFF_MAGIC), get16(m + OFF_VERSION), nob, len);
		return -1;
	}
	if (get32(m + OFF_CKSUM)) {
		failf("checksum 0x%x: cksum is off by default",
		      get32(m + OFF_CKSUM));
		return -1;
	}
	if (get64(m + OFF_SRCNID) != dst_nid ||
	    get64(m + OFF_DSTNID) != src_nid ||
	    get64(m + OFF_DSTSTAMP) != src_stamp ||
	    get64(m + OFF_SRCSTAMP) != dst_stamp) {
		failf("type 0x%x: srcnid %s stamp 0x%llx dstnid %s stamp 0x%llx",
		      m[OFF_TYPE], nidstr(get64(m + OFF_SRCNID)),
		      (unsigned long long)get64(m + OFF_SRCSTAMP),
		      nidstr(get64(m + OFF_DSTNID)),
		      (unsigned long long)get64(m + OFF_DSTSTAMP));
		return -1;
	}
	return m[OFF_TYPE];
}

/* The received message in buffer @i, @len bytes. */
static int rx(unsigned int i, u32 len)
{
	const u8 *m = L.buf + (size_t)i * MSG_SIZE;
	int type = check_hdr(m, len), rc = 0;
	u32 nob = get32(m + OFF_NOB);
	bool credited;

	if (type < 0)
		return 1;
	credits += m[OFF_CREDITS];
	if (credits > QD)
		return failf("type 0x%x returns %u credits: we hold %d of %d",
			     type, m[OFF_CREDITS], credits, QD);
	credited = type == MSG_IMMEDIATE || type == MSG_PUT_REQ ||
		   type == MSG_GET_REQ;
	if (credited && --r_credits < 0)
		return failf("type 0x%x sent with no credit of ours left",
			     type);
	switch (type) {
	case MSG_NOOP:
		if (nob != HDR_SIZE)
			return failf("NOOP of %u bytes", nob);
		noops_rx++;
		break;
	case MSG_IMMEDIATE:
		rc = rx_immediate(m, nob);
		owed++;
		break;
	case MSG_PUT_REQ:
		rc = rx_put_req(m, nob);	/* its credit: at PUT_DONE */
		break;
	case MSG_GET_REQ:
		rc = rx_get_req(m, nob);
		owed++;
		break;
	case MSG_PUT_ACK:
		if (nob < PUTACK_RD_OFF + RD_HDR_SIZE)
			return failf("PUT_ACK of %u bytes", nob);
		if (!w.put_waiting || get64(m + HDR_SIZE) != w.put_cookie)
			return failf("PUT_ACK for cookie 0x%llx: no PUT_REQ of ours",
				     (unsigned long long)get64(m + HDR_SIZE));
		w.put_waiting = false;
		rc = write_rd(m + PUTACK_RD_OFF, nob - PUTACK_RD_OFF, src_data,
			      w.put_len, MSG_PUT_DONE, get64(m + HDR_SIZE + 8),
			      "PUT");
		break;
	case MSG_PUT_DONE:
		if (nob != COMPLETION_SIZE)
			return failf("PUT_DONE of %u bytes", nob);
		if (!w.reply_waiting || get64(m + HDR_SIZE) != w.reply_cookie)
			return failf("PUT_DONE for cookie 0x%llx: no PUT_ACK of ours",
				     (unsigned long long)get64(m + HDR_SIZE));
		if (get32(m + HDR_SIZE + 8) != w.len)
			return failf("PUT_DONE status %d for a REPLY of %u bytes",
				     (int)get32(m + HDR_SIZE + 8), w.len);
		w.reply_waiting = false;
		w.payload = sink;
		w.done = true;
		owed++;		/* the PUT_REQ's (PUT_DONE took none) */
		break;
	case MSG_PUT_NAK:
		return failf("PUT_NAK (status %d) for our PUT_REQ",
			     (int)get32(m + HDR_SIZE + 8));
	case MSG_GET_DONE:
		return failf("GET_DONE: we sent no GET_REQ");
	default:
		return failf("message type 0x%x on an established connection",
			     type);
	}
	if (rc)
		return rc;
	if (post_recv(&L, i)) {
		perror("ibv_post_recv");
		return 2;
	}
	return maybe_noop();
}

/* One completion within @wait_ms (none: 0). */
static int poll_once(int wait_ms)
{
	struct ibv_wc wc;
	int n, i;

	for (i = 0; i <= wait_ms; i++) {
		n = ibv_poll_cq(L.cq, 1, &wc);
		if (n < 0)
			return failf("ibv_poll_cq");
		if (n)
			break;
		if (i < wait_ms)
			usleep(1000);
	}
	if (!n)
		return 0;
	if (wc.status != IBV_WC_SUCCESS)
		return failf("completion %s (opcode %d, wr_id 0x%llx)",
			     ibv_wc_status_str(wc.status), wc.opcode,
			     (unsigned long long)wc.wr_id);
	if (wc.opcode & IBV_WC_RECV)
		return rx(wc.wr_id, wc.byte_len);
	if (wc.wr_id == WR_RDMA) {
		rdma_in_flight--;
	} else if (wc.wr_id & WR_SEND) {
		u8 *b = L.tx + (size_t)(wc.wr_id & 0xfff) * MSG_SIZE;

		if (b[OFF_TYPE] == MSG_NOOP)
			noops_in_flight--;
		slot_busy[wc.wr_id & 0xfff] = false;
	}
	return 0;
}

/* Wait for the awaited response; pings and pushes are answered. */
static int await(const char *what)
{
	time_t end = time(NULL) + wait_secs;
	int rc;

	while (!w.done) {
		if (time(NULL) > end)
			return failf("%s: no %s (cookie 0x%llx) within %u s", what,
				     w.type == MSG_ACK ? "ACK" : "REPLY",
				     (unsigned long long)w.cookie, wait_secs);
		rc = poll_once(100);
		if (rc)
			return rc;
	}
	w.type = -1;
	return 0;
}

/* Serve for @secs: pings, pushes, NOOPs. */
static int serve(unsigned int secs)
{
	time_t end = time(NULL) + secs;
	int rc;

	while (time(NULL) < end) {
		rc = poll_once(100);
		if (rc)
			return rc;
	}
	return 0;
}

/* The response from @from: header fields common to ACK and REPLY. */
static int check_response(u64 from, const char *what)
{
	int i;

	if (get64(w.hdr + H_SRC_NID) != from)
		return failf("%s: src_nid %s, want %s", what,
			     nidstr(get64(w.hdr + H_SRC_NID)), nidstr(from));
	/* the responder zeroes the header: bytes past the type's fields */
	for (i = get32(w.hdr + H_TYPE) == MSG_ACK ? 60 : 48;
	     i < LNET_HDR_SIZE; i++)
		if (w.hdr[i])
			return failf("%s: header byte %d is 0x%02x, not 0", what,
				     i, w.hdr[i]);
	return 0;
}

/* GET @sink bytes at @off, portal @ptl, @bits of @to: always IMMEDIATE. */
static int get(u64 to, u32 ptl, u64 bits, u32 off, u32 sink,
	       const char *what)
{
	u8 h[LNET_HDR_SIZE];
	int rc;

	w.type = MSG_REPLY;
	w.cookie = next_cookie++;
	w.done = false;
	lnet_hdr(h, to, MSG_GET, 0);
	put64(h + H_WMD, wh_iface);		/* return_wmd */
	put64(h + H_WMD + 8, w.cookie);
	put64(h + H_BITS, bits);
	put32(h + H_GET_PTL, ptl);
	put32(h + H_GET_SRC_OFFSET, off);
	put32(h + H_GET_SINK, sink);
	rc = send_lnet(h, NULL, 0);
	if (rc)
		return rc;
	rc = await(what);
	if (rc)
		return rc;
	if (check_response(to, what))
		return 1;
	if (w.len > sink)
		return failf("%s: REPLY of %u bytes for a sink of %u", what,
			     w.len, sink);
	return 0;
}

/* PUT @len bytes of @b (src_data above one message), ACK checked. */
static int put(u64 to, u32 ptl, u64 bits, u64 hdr_data, const u8 *b,
	       u32 len, const char *what)
{
	u8 h[LNET_HDR_SIZE];
	int rc;

	w.type = MSG_ACK;
	w.cookie = next_cookie++;
	w.done = false;
	lnet_hdr(h, to, MSG_PUT, len);
	put64(h + H_WMD, wh_iface);		/* ack_wmd */
	put64(h + H_WMD + 8, w.cookie);
	put64(h + H_BITS, bits);
	put64(h + H_PUT_HDR_DATA, hdr_data);
	put32(h + H_PUT_PTL, ptl);
	rc = send_lnet(h, b, len);
	if (rc)
		return rc;
	rc = await(what);
	if (rc)
		return rc;
	if (w.put_waiting)
		return failf("%s: ACK before the router's PUT_ACK", what);
	if (check_response(to, what))
		return 1;
	if (get64(w.hdr + H_BITS) != bits)
		return failf("%s: ACK match bits 0x%llx, want 0x%llx", what,
			     (unsigned long long)get64(w.hdr + H_BITS),
			     (unsigned long long)bits);
	if (get32(w.hdr + H_ACK_MLEN) != len)
		return failf("%s: ACK mlength %u, want %u", what,
			     get32(w.hdr + H_ACK_MLEN), len);
	return 0;
}

/* Ping @nid (sink 272 as discovery's first) and check its buffer. */
static int ping_check(u64 nid, const u64 *want, int nwant, u32 *feat)
{
	char what[96];

	snprintf(what, sizeof(what), "ping of %s", nidstr(nid));
	if (get(nid, 0, PING_BITS, 0, PING_SINK, what))
		return 1;
	return check_ping_info(w.payload, w.len, nid, want, nwant, feat);
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

/*
 * Connect as stock's active side: CONNREQ {8, 257, 4096}; after a
 * CONN_STALE reject (the router knew this NID's earlier incarnation)
 * once more with the router's incarnation.  The CONNACK checked.
 */
static int connect_router(const char *ip)
{
	enum rdma_cm_event_type type;
	u8 b[CONNPARAMS_SIZE], ack[REJ_SIZE + CONNPARAMS_SIZE];
	struct sockaddr_in *sa;
	int status, rc, tries;

	for (tries = 0; tries < 3; tries++) {
		rc = link_open(&L, ip, NRX, TX_SIZE);
		if (rc)
			return rc;
		sa = (struct sockaddr_in *)rdma_get_local_addr(L.id);
		src_nid = (u64)O2IBLND << 48 | ntohl(sa->sin_addr.s_addr);
		rc = connect_with(&L, b, connreq(b, QD, MAX_FRAGS, MSG_SIZE));
		if (rc)
			return rc;
		if (next_event(&L, &type, &status, ack, sizeof(ack)))
			return failf("no answer to our CONNREQ in %u s",
				     wait_secs);
		if (type == RDMA_CM_EVENT_ESTABLISHED)
			break;
		if (type != RDMA_CM_EVENT_REJECTED)
			return failf("%s (status %d) to our CONNREQ",
				     rdma_event_str(type), status);
		printf("CONNREQ rejected: why %u, incarnation 0x%llx\n",
		       ack[6], (unsigned long long)get64(ack + 8));
		if (ack[6] != REJECT_CONN_STALE || !get64(ack + 8) ||
		    get64(ack + 8) == dst_stamp)
			return failf("reject why %u: stock retries only after CONN_STALE",
				     ack[6]);
		dst_stamp = get64(ack + 8);
		link_close(&L);
	}
	if (tries == 3)
		return failf("CONN_STALE again and again");
	if (get32(ack + OFF_MAGIC) != MSG_MAGIC ||
	    get16(ack + OFF_VERSION) != MSG_VERSION ||
	    ack[OFF_TYPE] != MSG_CONNACK || ack[OFF_CREDITS] ||
	    get32(ack + OFF_NOB) != CONNPARAMS_SIZE ||
	    get64(ack + OFF_SRCNID) != dst_nid ||
	    get64(ack + OFF_DSTNID) != src_nid ||
	    get64(ack + OFF_DSTSTAMP) != src_stamp ||
	    !get64(ack + OFF_SRCSTAMP) ||
	    (dst_stamp && get64(ack + OFF_SRCSTAMP) != dst_stamp) ||
	    get16(ack + HDR_SIZE) != QD ||
	    get16(ack + HDR_SIZE + 2) != MAX_FRAGS ||
	    get32(ack + HDR_SIZE + 4) != MSG_SIZE)
		return failf("bad CONNACK: type 0x%x nob %u src %s dst %s qd %u frags %u msg %u",
			     ack[OFF_TYPE], get32(ack + OFF_NOB),
			     nidstr(get64(ack + OFF_SRCNID)),
			     nidstr(get64(ack + OFF_DSTNID)),
			     get16(ack + HDR_SIZE), get16(ack + HDR_SIZE + 2),
			     get32(ack + HDR_SIZE + 4));
	dst_stamp = get64(ack + OFF_SRCSTAMP);
	credits = QD;
	r_credits = QD;
	printf("connected to %s as %s (incarnation 0x%llx)\n",
	       nidstr(dst_nid), nidstr(src_nid),
	       (unsigned long long)dst_stamp);
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: o2ib_client [-t SECONDS] [-q SECONDS] ROUTER_IP ROUTER_NID ROUTER_FAR_NID DEST_NID\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned int quiet = 2, nputs = 0, ngets = 0, i;
	unsigned long long bytes = 0;
	u32 feat, seed, off, j;
	struct timeval tv;
	char what[96];
	u64 want[2];
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
	dst_nid = parse_nid(argv[optind + 1]);
	router_far = parse_nid(argv[optind + 2]);
	dest = parse_nid(argv[optind + 3]);
	if (!dst_nid || !router_far || !dest || dst_nid >> 48 != O2IBLND)
		return bad_usage();
	/* stock: incarnation = wall-clock µs at NI start */
	gettimeofday(&tv, NULL);
	src_stamp = tv.tv_sec * 1000000ULL + tv.tv_usec;
	wh_iface = src_stamp;
	send_depth = MAX_WRS + 16;
	cm_retry = 5;
	cm_rnr_retry = 6;
	privileged_port = true;

	rc = connect_router(argv[optind]);
	if (rc)
		goto out;
	src_data = L.tx + NSLOTS * MSG_SIZE;
	/*
	 * A page more than the largest REPLY: Linux 6.1's rxe_mr_copy()
	 * reads the next map pointer after a copy that ends a full map of
	 * 256 pages (KASAN: slab-out-of-bounds), which a 1 MiB write to the
	 * end of a 1 MiB MR does; the page after it keeps that read inside.
	 */
	if (posix_memalign((void **)&sink, 4096, LNET_MTU + 4096)) {
		rc = 2;
		goto out;
	}
	sink_mr = ibv_reg_mr(L.pd, sink, LNET_MTU + 4096,
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!sink_mr) {
		perror("ibv_reg_mr");
		rc = 2;
		goto out;
	}
	/* our ping buffer, as a client's (wire 6.2): 0@lo, our NID UP */
	put32(ping_buf, PING_MAGIC);
	put32(ping_buf + 4, FEAT_NI_STATUS | FEAT_RTE_DISABLED |
	      FEAT_MULTI_RAIL | FEAT_DISCOVERY);
	put32(ping_buf + 8, PID_LUSTRE);
	put32(ping_buf + 12, 2);
	put64(ping_buf + 16, NID_LO);
	put32(ping_buf + 24, 1);
	put64(ping_buf + 32, src_nid);
	put32(ping_buf + 40, NS_UP);
	printf("stock client %s, router %s (%s), destination %s\n",
	       nidstr(src_nid), nidstr(dst_nid), nidstr(router_far),
	       nidstr(dest));

	/* the router checker's check: ping, then push (routing 6.2, 11.1) */
	rc = 1;
	want[0] = dst_nid;
	want[1] = router_far;
	if (ping_check(dst_nid, want, 2, &feat))
		goto out;
	if (feat & FEAT_RTE_DISABLED) {
		failf("router %s: RTE_DISABLED (features 0x%x): stock takes its routes down",
		      nidstr(dst_nid), feat);
		goto out;
	}
	if (!(feat & FEAT_MULTI_RAIL)) {
		failf("router %s: features 0x%x without MULTI_RAIL (stock always sets it)",
		      nidstr(dst_nid), feat);
		goto out;
	}
	if ((feat & FEAT_DISCOVERY) && push_to(dst_nid))
		goto out;

	/* discovery of the destination through the router (routing 3.5) */
	want[0] = dest;
	if (ping_check(dest, want, 1, &feat))
		goto out;
	if (!(feat & FEAT_MULTI_RAIL)) {
		failf("%s: features 0x%x without MULTI_RAIL", nidstr(dest),
		      feat);
		goto out;
	}
	if ((feat & FEAT_DISCOVERY) && push_to(dest))
		goto out;

	/* PUTs to lnet_test's bulk sink, the target checks every byte */
	seed = 0x01b00000U + (u32)(src_stamp >> 10 & 0xffff);
	for (i = 0; i < sizeof(sizes) / sizeof(*sizes); i++, seed++) {
		for (j = 0; j < sizes[i]; j++)
			src_data[j] = pattern(seed, j);
		snprintf(what, sizeof(what), "PUT of %u bytes to %s (%s)",
			 sizes[i], nidstr(dest),
			 sizes[i] > IMM_MAX ? "PUT_REQ" : "IMMEDIATE");
		if (put(dest, LT_PORTAL, LT_PUT_BITS, seed, src_data,
			sizes[i], what))
			goto out;
		nputs++;
		bytes += sizes[i];
		printf("%s ACKed\n", what);
	}

	/* GETs from lnet_test's GET source: every byte checked here */
	for (i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		off = (i * 4097 + 3) % (LNET_MTU - sizes[i] + 1);
		snprintf(what, sizeof(what), "GET of %u bytes at %u from %s",
			 sizes[i], off, nidstr(dest));
		if (get(dest, LT_PORTAL, LT_GET_BITS, off, sizes[i], what))
			goto out;
		if (w.len != sizes[i]) {
			failf("%s: REPLY of %u bytes", what, w.len);
			goto out;
		}
		for (j = 0; j < w.len; j++)
			if (w.payload[j] != pattern(LT_GET_SEED, off + j)) {
				failf("%s: byte %u is 0x%02x, want 0x%02x",
				      what, j, w.payload[j],
				      pattern(LT_GET_SEED, off + j));
				goto out;
			}
		ngets++;
		printf("%s: REPLY intact (%s)\n", what,
		       w.payload == sink ? "PUT_REQ, RDMA" : "IMMEDIATE");
	}

	/* pings and pushes still to come are answered meanwhile */
	rc = serve(quiet);
	if (rc)
		goto out;
	if (w.put_waiting || w.reply_waiting) {
		rc = failf("a transaction still open at the end");
		goto out;
	}
	printf("NOOPs: %u from the router, %u to it\n", noops_rx, noops_tx);
	printf("OK: puts=%u bytes=%llu gets=%u pings=%u pushes=%u\n", nputs,
	       bytes, ngets, pings_answered, pushes_acked);
out:
	if (sink_mr)
		ibv_dereg_mr(sink_mr);
	link_close(&L);
	free(sink);
	return rc;
}
