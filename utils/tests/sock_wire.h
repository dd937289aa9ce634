/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sock_wire.h: the socklnd wire as the scripted tcp peers (sock_hostile,
 * sock_lustre, sock_router) write and read it: little-endian integers,
 * nid4s as text, the acceptor's connection request, the V3 HELLO, the
 * ksock message header, the nid4 LNet header and the ping buffer
 * (lnet-wire-protocol.md 2, 3, 4, 6).  Everything is static inline: each
 * tool includes what it uses.
 */
#ifndef SOCK_WIRE_H
#define SOCK_WIRE_H

#include <arpa/inet.h>
#include <errno.h>
#include <linux/types.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;

#define ACCEPT_PORT		988
#define ACCEPTOR_MAGIC		0xACCE7100U
#define PROTO_MAGIC		0x45726963U	/* LNET_PROTO_MAGIC */
#define KSOCK_V3		3
#define CTYPE_NONE		0xFFFFFFFFU
#define CTYPE_CONTROL		1
#define CTYPE_BULK_IN		2
#define CTYPE_BULK_OUT		3
#define HELLO_SIZE		56
#define CONNREQ_SIZE		16
#define KSOCK_HDR		24
#define KSOCK_NOOP		0xC0
#define KSOCK_LNET		0xC1
#define LNET_HDR		72
#define MSG_ACK			0
#define MSG_PUT			1
#define MSG_GET			2
#define MSG_REPLY		3
#define PID_LUSTRE		12345
#define LNET_MTU		1048576U
#define PING_BITS		0x8000000000000000ULL
#define PING_MAGIC		0x70696E67U
#define NS_UP			0x15AAC0DEU
#define NS_DOWN			0xDEADFACEU
#define FEAT_NI_STATUS		0x02
#define FEAT_RTE_DISABLED	0x04
#define FEAT_MULTI_RAIL		0x08
#define FEAT_DISCOVERY		0x10
#define FEAT_LARGE_ADDR		0x20
#define NID_LO			0x0009000000000000ULL
#define SOCKLND			2
#define O2IBLND			5
#define WMD_NONE		0xFFFFFFFFFFFFFFFFULL

static inline void put32(u8 *b, u32 v)
{
	for (int i = 0; i < 4; i++)
		b[i] = v >> (8 * i);
}

static inline void put64(u8 *b, u64 v)
{
	put32(b, v);
	put32(b + 4, v >> 32);
}

static inline u32 get32(const u8 *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
}

static inline u64 get64(const u8 *b)
{
	return get32(b) | (u64)get32(b + 4) << 32;
}

static inline u32 swab32(u32 v)
{
	return __builtin_bswap32(v);
}

/* "a.b.c.d@tcp[N]" or "a.b.c.d@o2ib[N]" to a nid4; 0 if it is not one. */
static inline u64 parse_nid(const char *s)
{
	char addr[INET_ADDRSTRLEN];
	const char *at = strchr(s, '@'), *num;
	unsigned long n = 0, lnd;
	struct in_addr in;
	char *end;

	if (!at || at - s >= (long)sizeof(addr))
		return 0;
	if (!strncmp(at + 1, "tcp", 3)) {
		lnd = SOCKLND;
		num = at + 4;
	} else if (!strncmp(at + 1, "o2ib", 4)) {
		lnd = O2IBLND;
		num = at + 5;
	} else {
		return 0;
	}
	memcpy(addr, s, at - s);
	addr[at - s] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return 0;
	if (*num) {
		n = strtoul(num, &end, 10);
		if (*end || n > 0xffff)
			return 0;
	}
	return (u64)(lnd << 16 | n) << 32 | ntohl(in.s_addr);
}

/* A nid4 as text, in one of four static buffers. */
static inline const char *nidstr(u64 nid)
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

/* The net of a nid4. */
static inline u32 nid_net(u64 nid)
{
	return nid >> 32;
}

static inline int send_all(int fd, const void *buf, size_t len)
{
	const u8 *p = buf;
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Read @len bytes from @fd within @secs seconds: how many came (@len:
 * all); fewer if the time ran out (*@timedout set) or the peer closed or
 * reset the connection (*@timedout clear).
 */
static inline size_t sw_recv(int fd, void *buf, size_t len, unsigned int secs,
			     bool *timedout)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	time_t end = time(NULL) + secs;
	size_t got = 0;
	ssize_t n;

	*timedout = false;
	while (got < len) {
		int left = end - time(NULL);

		if (left <= 0 || poll(&pfd, 1, left * 1000) == 0) {
			*timedout = true;
			break;
		}
		n = recv(fd, (u8 *)buf + got, len - got, 0);
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
		if (n > 0)
			got += n;
	}
	return got;
}

/*
 * Connect to @ip:988 from a privileged port, 1023 down to 512 (wire 3.3),
 * of local address @local (NULL: any), or from an ephemeral port with
 * @unpriv.  The socket or -1 (the reason printed on stderr).
 */
static inline int sw_connect(const char *ip, const char *local_ip, bool unpriv)
{
	struct sockaddr_in local = { .sin_family = AF_INET };
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(ACCEPT_PORT),
	};
	struct timeval tv = { .tv_sec = 10 };
	int port = unpriv ? 0 : 1023;
	int fd;

	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1 ||
	    (local_ip && inet_pton(AF_INET, local_ip, &local.sin_addr) != 1)) {
		fprintf(stderr, "bad address %s\n", ip);
		return -1;
	}
	for (; unpriv || port >= 512; port--) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0) {
			perror("socket");
			return -1;
		}
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		local.sin_port = htons(port);
		if (bind(fd, (struct sockaddr *)&local, sizeof(local)) == 0 &&
		    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		if (unpriv || (errno != EADDRINUSE && errno != EADDRNOTAVAIL)) {
			perror("bind/connect");
			close(fd);
			return -1;
		}
		close(fd);
	}
	fprintf(stderr, "no free privileged port\n");
	return -1;
}

/* The acceptor's connection request (wire 3.2). */
static inline void sw_connreq(u8 *b, u32 magic, u32 version, u64 nid)
{
	put32(b, magic);
	put32(b + 4, version);
	put64(b + 8, nid);
}

/* A V3 HELLO (wire 4.3), no IP list unless @nips says otherwise. */
static inline void sw_hello(u8 *b, u64 src, u64 dst, u32 dst_pid, u64 inc,
			    u64 dst_inc, u32 ctype, u32 nips)
{
	memset(b, 0, HELLO_SIZE);
	put32(b, PROTO_MAGIC);
	put32(b + 4, KSOCK_V3);
	put64(b + 8, src);
	put64(b + 16, dst);
	put32(b + 24, PID_LUSTRE);
	put32(b + 28, dst_pid);
	put64(b + 32, inc);
	put64(b + 40, dst_inc);
	put32(b + 48, ctype);
	put32(b + 52, nips);
}

/* A ksock message header (wire 4.8): type, zero-copy cookies. */
static inline void sw_ksock_hdr(u8 *b, u32 type, u64 c0, u64 c1)
{
	memset(b, 0, KSOCK_HDR);
	put32(b, type);
	put64(b + 8, c0);
	put64(b + 16, c1);
}

/* An LNet header (nid4, LE) zeroed first, PIDs 12345 (wire 2.2). */
static inline void sw_lnet_hdr(u8 *h, u64 dst, u64 src, u32 type, u32 len)
{
	memset(h, 0, LNET_HDR);
	put64(h, dst);
	put64(h + 8, src);
	put32(h + 16, PID_LUSTRE);
	put32(h + 20, PID_LUSTRE);
	put32(h + 24, type);
	put32(h + 28, len);
}

/*
 * A ping buffer (wire 6.2) in @b: features @feat, PID 12345, 0@lo with
 * sequence @seq, then @n NIDs with their status; its length.
 */
static inline u32 sw_ping_info(u8 *b, u32 feat, u32 seq, const u64 *nids,
			       const u32 *status, int n)
{
	memset(b, 0, 32 + 16 * n);
	put32(b, PING_MAGIC);
	put32(b + 4, feat);
	put32(b + 8, PID_LUSTRE);
	put32(b + 12, n + 1);
	put64(b + 16, NID_LO);
	put32(b + 24, seq);
	for (int i = 0; i < n; i++) {
		put64(b + 32 + 16 * i, nids[i]);
		put32(b + 40 + 16 * i, status[i]);
	}
	return 32 + 16 * n;
}

#endif /* SOCK_WIRE_H */
