// SPDX-License-Identifier: GPL-2.0
/*
 * o2ib_peer: connection setup and message framing of a user-space
 * ko2iblnd peer (see o2ib_peer.h).
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "o2ib_peer.h"

unsigned int wait_secs = 30;
unsigned int queue_depth = 8;
u64 src_nid, dst_nid, src_stamp, dst_stamp;
unsigned int send_depth = 16, cm_retry = 7, cm_rnr_retry = 7;
bool privileged_port;

/* "a.b.c.d@o2ib[N]" or "a.b.c.d@tcp[N]" to a nid4; 0 if it is neither. */
u64 parse_nid(const char *s)
{
	char addr[INET_ADDRSTRLEN];
	const char *at = strchr(s, '@'), *n;
	unsigned long num = 0, lnd;
	struct in_addr in;
	char *end;

	if (!at || at - s >= (long)sizeof(addr))
		return 0;
	if (!strncmp(at + 1, "o2ib", 4)) {
		lnd = O2IBLND;
		n = at + 5;
	} else if (!strncmp(at + 1, "tcp", 3)) {	/* a routed peer's */
		lnd = SOCKLND;
		n = at + 4;
	} else {
		return 0;
	}
	memcpy(addr, s, at - s);
	addr[at - s] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return 0;
	if (*n) {
		num = strtoul(n, &end, 10);
		if (*end || num > 0xffff)
			return 0;
	}
	return (u64)(lnd << 16 | num) << 32 | ntohl(in.s_addr);
}

int fail(const char *why)
{
	printf("FAIL: %s\n", why);
	return 1;
}

/* The message header (spec 5.2), no checksum. */
void pack(u8 *b, u8 type, u8 credits, u32 nob)
{
	put32(b + OFF_MAGIC, MSG_MAGIC);
	put16(b + OFF_VERSION, MSG_VERSION);
	b[OFF_TYPE] = type;
	b[OFF_CREDITS] = credits;
	put32(b + OFF_NOB, nob);
	put32(b + OFF_CKSUM, 0);
	put64(b + OFF_SRCNID, src_nid);
	put64(b + OFF_SRCSTAMP, src_stamp);
	put64(b + OFF_DSTNID, dst_nid);
	put64(b + OFF_DSTSTAMP, dst_stamp);
}

/* A valid CONNREQ (spec 5.6) into @b; returns its size. */
unsigned int connreq(u8 *b, u16 qd, u16 frags, u32 msg_size)
{
	memset(b, 0, CONNPARAMS_SIZE);
	pack(b, MSG_CONNREQ, 0, CONNPARAMS_SIZE);
	put16(b + HDR_SIZE, qd);
	put16(b + HDR_SIZE + 2, frags);
	put32(b + HDR_SIZE + 4, msg_size);
	return CONNPARAMS_SIZE;
}

/*
 * The next event of @l's channel, acked, within wait_secs; its type in
 * @type, its status in @status and up to @len bytes of its private data
 * in @priv.  Returns 0, or -1 after a timeout.
 */
int next_event(struct link *l, enum rdma_cm_event_type *type,
	       int *status, u8 *priv, unsigned int len)
{
	struct pollfd pfd = { .fd = l->ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (poll(&pfd, 1, wait_secs * 1000) <= 0)
		return -1;
	if (rdma_get_cm_event(l->ch, &ev))
		return -1;
	*type = ev->event;
	*status = ev->status;
	if (priv) {
		memset(priv, 0, len);
		if (ev->param.conn.private_data)
			memcpy(priv, ev->param.conn.private_data,
			       ev->param.conn.private_data_len < len ?
			       ev->param.conn.private_data_len : len);
	}
	rdma_ack_cm_event(ev);
	return 0;
}

int expect_event(struct link *l, enum rdma_cm_event_type want)
{
	enum rdma_cm_event_type type;
	int status;

	if (next_event(l, &type, &status, NULL, 0)) {
		printf("FAIL: no %s within %u s\n", rdma_event_str(want),
		       wait_secs);
		return 1;
	}
	if (type != want) {
		printf("FAIL: %s (status %d), wanted %s\n",
		       rdma_event_str(type), status, rdma_event_str(want));
		return 1;
	}
	return 0;
}

void link_close(struct link *l)
{
	if (l->id && l->id->qp)
		rdma_destroy_qp(l->id);
	if (l->mr)
		ibv_dereg_mr(l->mr);
	if (l->cq)
		ibv_destroy_cq(l->cq);
	if (l->pd)
		ibv_dealloc_pd(l->pd);
	if (l->id)
		rdma_destroy_id(l->id);
	if (l->ch)
		rdma_destroy_event_channel(l->ch);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

/* Post receive buffer @i of @l. */
int post_recv(struct link *l, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(l->buf + i * MSG_SIZE),
		.length = MSG_SIZE,
		.lkey = l->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(l->id->qp, &wr, &bad);
}

/*
 * Resolve @ip, create the QP with @nrx receive buffers posted and @tx_size
 * bytes to send from: ready for rdma_connect().  Returns 0, 2 on a local
 * error.
 */
int link_open(struct link *l, const char *ip, unsigned int nrx,
	      size_t tx_size)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(SERVICE_PORT),
	};
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {
			.max_send_wr = send_depth, .max_recv_wr = nrx,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
		.sq_sig_all = 1,
	};
	size_t size = (size_t)nrx * MSG_SIZE + tx_size;
	unsigned int i;

	memset(l, 0, sizeof(*l));
	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1) {
		fprintf(stderr, "bad address %s\n", ip);
		return 2;
	}
	l->ch = rdma_create_event_channel();
	if (!l->ch || rdma_create_id(l->ch, &l->id, NULL, RDMA_PS_TCP)) {
		perror("rdma_create_id");
		goto err;
	}
	if (privileged_port) {
		struct sockaddr_in src = { .sin_family = AF_INET };
		int port;

		for (port = 1023; port >= 512; port--) {
			src.sin_port = htons(port);
			if (!rdma_bind_addr(l->id, (struct sockaddr *)&src))
				break;
		}
		if (port < 512) {
			fprintf(stderr, "no free privileged port\n");
			goto err;
		}
	}
	if (rdma_resolve_addr(l->id, NULL, (struct sockaddr *)&sa, 5000) ||
	    expect_event(l, RDMA_CM_EVENT_ADDR_RESOLVED) ||
	    rdma_resolve_route(l->id, 5000) ||
	    expect_event(l, RDMA_CM_EVENT_ROUTE_RESOLVED)) {
		fprintf(stderr, "cannot resolve %s\n", ip);
		goto err;
	}
	l->nrx = nrx;
	l->buf = calloc(1, size);
	l->tx = l->buf ? l->buf + (size_t)nrx * MSG_SIZE : NULL;
	l->pd = ibv_alloc_pd(l->id->verbs);
	l->cq = l->pd ? ibv_create_cq(l->id->verbs, 2 * nrx + send_depth + 16,
				      NULL, NULL,
				      0) : NULL;
	l->mr = l->cq && l->buf ?
		ibv_reg_mr(l->pd, l->buf, size, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!l->mr) {
		perror("pd/cq/mr");
		goto err;
	}
	qa.send_cq = l->cq;
	qa.recv_cq = l->cq;
	if (rdma_create_qp(l->id, l->pd, &qa)) {
		perror("rdma_create_qp");
		goto err;
	}
	for (i = 0; i < nrx; i++) {
		if (post_recv(l, i)) {
			perror("ibv_post_recv");
			goto err;
		}
	}
	return 0;
err:
	link_close(l);
	return 2;
}

int connect_with(struct link *l, const void *priv, unsigned int len)
{
	struct rdma_conn_param cp = {
		.private_data = priv,
		.private_data_len = len,
		.responder_resources = 0,
		.initiator_depth = 0,
		.flow_control = 1,
		.retry_count = cm_retry,
		.rnr_retry_count = cm_rnr_retry,
	};

	if (rdma_connect(l->id, &cp)) {
		perror("rdma_connect");
		return 2;
	}
	return 0;
}

/* A valid CONNREQ; the CONNACK must be as spec 5.6 says. */
int establish(struct link *l)
{
	enum rdma_cm_event_type type;
	u8 b[CONNPARAMS_SIZE], ack[CONNPARAMS_SIZE];
	int status, rc;

	rc = connect_with(l, b, connreq(b, queue_depth, MAX_FRAGS, MSG_SIZE));
	if (rc)
		return rc;
	if (next_event(l, &type, &status, ack, sizeof(ack)))
		return fail("no answer to a valid CONNREQ");
	if (type != RDMA_CM_EVENT_ESTABLISHED) {
		printf("FAIL: %s (status %d, why %u) to a valid CONNREQ\n",
		       rdma_event_str(type), status, ack[6]);
		return 1;
	}
	if (get32(ack + OFF_MAGIC) != MSG_MAGIC ||
	    get16(ack + OFF_VERSION) != MSG_VERSION ||
	    ack[OFF_TYPE] != MSG_CONNACK ||
	    get32(ack + OFF_NOB) < CONNPARAMS_SIZE ||
	    get64(ack + OFF_SRCNID) != dst_nid ||
	    get64(ack + OFF_DSTNID) != src_nid ||
	    get64(ack + OFF_DSTSTAMP) != src_stamp ||
	    !get64(ack + OFF_SRCSTAMP) ||
	    !get16(ack + HDR_SIZE) || get16(ack + HDR_SIZE) > queue_depth ||
	    !get16(ack + HDR_SIZE + 2) ||
	    get16(ack + HDR_SIZE + 2) > MAX_FRAGS ||
	    get32(ack + HDR_SIZE + 4) > MSG_SIZE)
		return fail("bad CONNACK");
	dst_stamp = get64(ack + OFF_SRCSTAMP);
	return 0;
}

