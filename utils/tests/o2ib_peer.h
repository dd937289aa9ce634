/* SPDX-License-Identifier: GPL-2.0 */
/*
 * o2ib_peer: the ko2iblnd wire protocol from user space (rdma_cm and
 * verbs), shared by the test peers o2ib_hostile (attacks), o2ib_lustre
 * (a stock Lustre node answering GETs) and o2ib_client (a stock Lustre
 * client sending through a router).  Byte layouts follow
 * the LNet wire protocol, section 5; messages are sent in our
 * (little-endian) byte order, as the spec lets a sender do.
 */
#ifndef O2IB_PEER_H
#define O2IB_PEER_H

#include <infiniband/verbs.h>
#include <linux/types.h>
#include <rdma/rdma_cma.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#define SERVICE_PORT		987
#define MSG_MAGIC		0x0BE91B91U
#define PROTO_MAGIC		0x45726963U	/* LNET_PROTO_MAGIC */
#define MSG_VERSION		0x12
#define MSG_SIZE		4096
#define MAX_FRAGS		257
#define O2IBLND			5
#define SOCKLND			2

#define MSG_CONNREQ		0xc0
#define MSG_CONNACK		0xc1
#define MSG_NOOP		0xd0
#define MSG_IMMEDIATE		0xd1
#define MSG_PUT_REQ		0xd2
#define MSG_PUT_NAK		0xd3
#define MSG_PUT_ACK		0xd4
#define MSG_PUT_DONE		0xd5
#define MSG_GET_REQ		0xd6
#define MSG_GET_DONE		0xd7

#define REJECT_FATAL		3
#define REJECT_RDMA_FRAGS	6
#define REJECT_MSG_QUEUE_SIZE	7

/* Offsets in the 48-byte message header (spec 5.2). */
#define OFF_MAGIC		0
#define OFF_VERSION		4
#define OFF_TYPE		6
#define OFF_CREDITS		7
#define OFF_NOB			8
#define OFF_CKSUM		12
#define OFF_SRCNID		16
#define OFF_SRCSTAMP		24
#define OFF_DSTNID		32
#define OFF_DSTSTAMP		40
#define HDR_SIZE		48
#define CONNPARAMS_SIZE		56	/* header + qd, frags, msg size */
#define LNET_HDR_SIZE		72
#define IMMEDIATE_HDR_SIZE	(HDR_SIZE + LNET_HDR_SIZE)
#define PUTACK_RD_OFF		(HDR_SIZE + 16)
#define GET_RD_OFF		(HDR_SIZE + LNET_HDR_SIZE + 8)
#define RD_HDR_SIZE		8
#define FRAG_SIZE		12
#define REJ_SIZE		24

/* The NIDs and incarnations of the connection, and how long to wait. */
extern unsigned int wait_secs;
extern unsigned int queue_depth;
extern u64 src_nid, dst_nid, src_stamp, dst_stamp;
/*
 * Connection knobs (defaults: those of the first peers): send queue
 * depth, rdma_cm retry_count and rnr_retry_count, and whether to bind a
 * privileged source port (1023 down to 512) as stock's active side does.
 */
extern unsigned int send_depth, cm_retry, cm_rnr_retry;
extern bool privileged_port;

/*
 * A connection: @nrx receive buffers of MSG_SIZE at @buf, then @tx_size
 * bytes to send from (messages, RDMA sources), all in @mr.
 */
struct link {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	u8 *buf;
	u8 *tx;
	unsigned int nrx;
};

static inline void put16(u8 *b, u16 v)
{
	memcpy(b, &v, sizeof(v));
}

static inline void put32(u8 *b, u32 v)
{
	memcpy(b, &v, sizeof(v));
}

static inline void put64(u8 *b, u64 v)
{
	memcpy(b, &v, sizeof(v));
}

static inline u16 get16(const u8 *b)
{
	u16 v;

	memcpy(&v, b, sizeof(v));
	return v;
}

static inline u32 get32(const u8 *b)
{
	u32 v;

	memcpy(&v, b, sizeof(v));
	return v;
}

static inline u64 get64(const u8 *b)
{
	u64 v;

	memcpy(&v, b, sizeof(v));
	return v;
}

u64 parse_nid(const char *s);
int fail(const char *why);
void pack(u8 *b, u8 type, u8 credits, u32 nob);
unsigned int connreq(u8 *b, u16 qd, u16 frags, u32 msg_size);
int next_event(struct link *l, enum rdma_cm_event_type *type, int *status,
	       u8 *priv, unsigned int len);
int expect_event(struct link *l, enum rdma_cm_event_type want);
int link_open(struct link *l, const char *ip, unsigned int nrx,
	      size_t tx_size);
void link_close(struct link *l);
int connect_with(struct link *l, const void *priv, unsigned int len);
int establish(struct link *l);
int post_recv(struct link *l, unsigned int i);

#endif
