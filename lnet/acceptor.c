// SPDX-License-Identifier: GPL-2.0
/*
 * The acceptor (wire spec 3): LNet's TCP listener on accept_port (988)
 * for LNDs that connect over TCP (socklnd), and on accept_port_bulk (988)
 * too when that differs (spec 3.1: socklnd connects its CONTROL
 * connections to accept_port, the others to accept_port_bulk); and the
 * connecting side's half, lnet_connect().
 *
 * One listener per local address and port, shared by the NIs on that
 * address and dropped with the last one.  The listening socket's
 * data_ready callback queues accept work (no thread blocks in accept());
 * every accepted socket gets its own work item to read the connection
 * request with accept_timeout, so a client that sends nothing delays
 * nobody else.  At most
 * LNET_ACCEPTEES_MAX requests are read at once: beyond, a connection is
 * closed at once and counted (overflow), so a flood costs a counter, not
 * memory.  The request names the NI it wants; that NI's LND takes the
 * socket over with lnd_accept(), inside an SRCU read section: stopping an
 * NI waits only for those hand-overs (synchronize_srcu()), never for
 * requests still being read.  Every refusal is counted by reason:
 * /sys/kernel/debug/lnet/acceptor, with the requests being read (pending).
 */
#include <linux/in.h>
#include <linux/inet.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/workqueue.h>
#include <net/tcp_states.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include <lnet/connreq.h>
#include <lnet/lib-lnet.h>

#define LNET_ACCEPTOR_MIN_RESERVED_PORT	512
#define LNET_ACCEPTOR_MAX_RESERVED_PORT	1023
/* Connection requests read at once; more connections are closed. */
#define LNET_ACCEPTEES_MAX		64

static char *accept = "secure";
module_param(accept, charp, 0444);
MODULE_PARM_DESC(accept, "accept connections: secure (privileged source port only), all, none");

static int accept_port = 988;
module_param(accept_port, int, 0444);
MODULE_PARM_DESC(accept_port, "TCP port of the acceptor");

static int accept_port_bulk = 988;
module_param(accept_port_bulk, int, 0444);
MODULE_PARM_DESC(accept_port_bulk, "TCP port of the acceptor for socklnd's connections other than CONTROL");

static int accept_backlog = 127;
module_param(accept_backlog, int, 0444);
MODULE_PARM_DESC(accept_backlog, "listen() backlog of the acceptor");

static int accept_timeout = 5;
module_param(accept_timeout, int, 0644);
MODULE_PARM_DESC(accept_timeout, "seconds to wait for a connection request");

/* Why a connection was refused, or that it was accepted. */
enum lnet_acceptor_counter {
	LNET_ACR_ACCEPTED,	/* handed to an LND */
	LNET_ACR_BAD_PORT,	/* source port > 1023 with accept=secure */
	LNET_ACR_BAD_MAGIC,	/* not an acceptor magic */
	LNET_ACR_LNET_MAGIC,	/* a unified-protocol peer: told "old" */
	LNET_ACR_BAD_VERSION,	/* unknown connreq version */
	LNET_ACR_BAD_NID,	/* no NI with that NID accepts TCP */
	LNET_ACR_TIMEOUT,	/* request incomplete in accept_timeout */
	LNET_ACR_ERROR,		/* socket error or no memory */
	LNET_ACR_OVERFLOW,	/* LNET_ACCEPTEES_MAX requests being read */
	LNET_ACR_COUNT
};

static const char * const lnet_acr_names[] = {
	[LNET_ACR_ACCEPTED]	= "accepted",
	[LNET_ACR_BAD_PORT]	= "bad_port",
	[LNET_ACR_BAD_MAGIC]	= "bad_magic",
	[LNET_ACR_LNET_MAGIC]	= "lnet_magic",
	[LNET_ACR_BAD_VERSION]	= "bad_version",
	[LNET_ACR_BAD_NID]	= "bad_nid",
	[LNET_ACR_TIMEOUT]	= "timeout",
	[LNET_ACR_ERROR]	= "error",
	[LNET_ACR_OVERFLOW]	= "overflow",
};

static_assert(ARRAY_SIZE(lnet_acr_names) == LNET_ACR_COUNT);

static atomic_t lnet_acr_counters[LNET_ACR_COUNT];

/* A listening socket on one local address. */
struct lnet_listener {
	struct list_head	ll_list;
	__be32			ll_addr;
	int			ll_port;
	int			ll_users;	/* NIs on this address */
	struct socket		*ll_sock;
	struct work_struct	ll_accept_work;
	void (*ll_saved_data_ready)(struct sock *sk);
};

/* An accepted socket whose connection request is being read. */
struct lnet_acceptee {
	struct work_struct	la_work;
	struct socket		*la_sock;
};

static LIST_HEAD(lnet_listeners);	/* under ln_api_mutex */
static struct workqueue_struct *lnet_acceptor_wq;
static atomic_t lnet_acceptees;		/* requests being read */
/* Readers: a request's NI lookup and hand-over to the LND. */
DEFINE_STATIC_SRCU(lnet_acceptor_srcu);

static void lnet_acr_count(enum lnet_acceptor_counter c)
{
	atomic_inc(&lnet_acr_counters[c]);
}

/* Socket timeouts in seconds for blocking reads and writes. */
static void lnet_sock_set_timeout(struct socket *sock, int timeout)
{
	long t = timeout > 0 ? lnet_secs_to_jiffies(timeout) :
			       MAX_SCHEDULE_TIMEOUT;

	lock_sock(sock->sk);
	sock->sk->sk_rcvtimeo = t;
	sock->sk->sk_sndtimeo = t;
	release_sock(sock->sk);
}

/**
 * lnet_sock_read() - read exactly @len bytes from a blocking socket
 * @sock: the socket
 * @buf: where to
 * @len: how many
 * @timeout: seconds; the whole read must complete within it
 *
 * Context: Process context; sleeps.
 * Return: 0, -ETIMEDOUT, -ECONNRESET at end of stream, or another -errno.
 */
int lnet_sock_read(struct socket *sock, void *buf, size_t len, int timeout)
{
	unsigned long deadline = jiffies + lnet_secs_to_jiffies(timeout);

	while (len) {
		struct kvec iov = { .iov_base = buf, .iov_len = len };
		struct msghdr msg = { .msg_flags = 0 };
		long left = (long)(deadline - jiffies);
		int rc;

		if (left <= 0)
			return -ETIMEDOUT;
		lnet_sock_set_timeout(sock, DIV_ROUND_UP(left, HZ));
		rc = kernel_recvmsg(sock, &msg, &iov, 1, len, 0);
		if (rc == -EAGAIN)
			return -ETIMEDOUT;
		if (rc < 0)
			return rc;
		if (!rc)
			return -ECONNRESET;
		buf += rc;
		len -= rc;
	}
	return 0;
}
EXPORT_SYMBOL(lnet_sock_read);

/**
 * lnet_sock_write() - write all of @buf to a blocking socket
 * @sock: the socket
 * @buf: what
 * @len: how many bytes
 * @timeout: seconds
 *
 * Context: Process context; sleeps.
 * Return: 0, -ETIMEDOUT or another -errno.
 */
int lnet_sock_write(struct socket *sock, const void *buf, size_t len,
		    int timeout)
{
	lnet_sock_set_timeout(sock, timeout);
	while (len) {
		struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
		struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
		int rc;

		rc = kernel_sendmsg(sock, &msg, &iov, 1, len);
		if (rc == -EAGAIN)
			return -ETIMEDOUT;
		if (rc < 0)
			return rc;
		buf += rc;
		len -= rc;
	}
	return 0;
}
EXPORT_SYMBOL(lnet_sock_write);

/**
 * lnet_acceptor_port() - the TCP port peers' acceptors listen on
 *
 * Return: the accept_port module parameter.
 */
int lnet_acceptor_port(void)
{
	return accept_port;
}
EXPORT_SYMBOL(lnet_acceptor_port);

/**
 * lnet_acceptor_port_bulk() - the port of peers' acceptors for
 *	connections other than socklnd's CONTROL ones (wire spec 3.3)
 *
 * Return: the accept_port_bulk module parameter.
 */
int lnet_acceptor_port_bulk(void)
{
	return accept_port_bulk;
}
EXPORT_SYMBOL(lnet_acceptor_port_bulk);

/**
 * lnet_acceptor_timeout() - seconds allowed for connection set-up reads
 *
 * Return: the accept_timeout module parameter (at least 1).
 */
int lnet_acceptor_timeout(void)
{
	return max(READ_ONCE(accept_timeout), 1);
}
EXPORT_SYMBOL(lnet_acceptor_timeout);

/* A connect is over: it succeeded, failed, or its socket was shut down. */
static bool lnet_sock_connect_over(const struct sock *sk)
{
	return READ_ONCE(sk->sk_state) != TCP_SYN_SENT ||
	       READ_ONCE(sk->sk_shutdown);
}

/*
 * Wait until a connect started with O_NONBLOCK is over (no signal reaches
 * the kernel threads that connect).  An abort
 * (kernel_sock_shutdown() by whoever watches the socket) ends the wait at
 * once: on a connecting socket it closes it and wakes us; one that came
 * before the connect left sk_shutdown set, which the connect does not
 * clear (both happen under the socket lock).
 */
static int lnet_sock_wait_connected(struct socket *sock, int timeout)
{
	struct sock *sk = sock->sk;
	long left;

	/* Interruptible: the socket wakes its waiters that way. */
	left = wait_event_interruptible_timeout(*sk_sleep(sk),
						lnet_sock_connect_over(sk),
						lnet_secs_to_jiffies(timeout));
	if ((1 << READ_ONCE(sk->sk_state)) &
	    (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT))
		return READ_ONCE(sk->sk_shutdown) ? -ECONNABORTED : 0;
	if (left < 0)
		return -EINTR;
	if (!left)
		return -ETIMEDOUT;
	return sock_error(sk) ?: -ECONNABORTED;
}

/*
 * Bind a socket to @ip and a free privileged port, then connect (spec
 * 3.3).  @watch, if set, sees each socket before it connects and again
 * (with NULL) before it is released here.
 */
static int lnet_sock_connect(struct socket **sockp, __be32 local_ip,
			     __be32 peer_ip, int port, int timeout,
			     const struct lnet_connect_watch *watch)
{
	struct sockaddr_in peer = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = peer_ip,
		.sin_port = htons(port),
	};
	int lport, rc = -EADDRINUSE;

	for (lport = LNET_ACCEPTOR_MAX_RESERVED_PORT;
	     lport >= LNET_ACCEPTOR_MIN_RESERVED_PORT; lport--) {
		struct sockaddr_in local = {
			.sin_family = AF_INET,
			.sin_addr.s_addr = local_ip,
			.sin_port = htons(lport),
		};
		struct socket *sock;

		rc = sock_create_kern(&init_net, AF_INET, SOCK_STREAM,
				      IPPROTO_TCP, &sock);
		if (rc)
			return rc;
		if (watch) {
			rc = watch->fn(watch->arg, sock);
			if (rc) {
				sock_release(sock);
				return rc;
			}
		}
		sock_set_reuseaddr(sock->sk);
		lnet_sock_set_timeout(sock, timeout);
		rc = kernel_bind(sock, (struct sockaddr *)&local,
				 sizeof(local));
		if (!rc)
			rc = kernel_connect(sock, (struct sockaddr *)&peer,
					    sizeof(peer), O_NONBLOCK);
		if (rc == -EINPROGRESS)
			rc = lnet_sock_wait_connected(sock, timeout);
		if (!rc) {
			*sockp = sock;
			return 0;
		}
		if (watch)
			watch->fn(watch->arg, NULL);
		sock_release(sock);
		if (rc != -EADDRINUSE && rc != -EADDRNOTAVAIL)
			return rc;
	}
	return rc;
}

/**
 * lnet_connect() - open a TCP connection to a peer's acceptor
 * @sockp: the connected socket on success
 * @peer_nid: the NID of the peer NI wanted (sent in the request)
 * @local_ip: local address to bind, or 0
 * @peer_ip: the peer's address
 * @port: the peer's acceptor port
 * @timeout: seconds for the connection and the request
 * @watch: NULL, or who may abort the connect: @watch->fn(@watch->arg,
 *	sock) is called with each socket before it connects (an error
 *	return aborts with that error) and with NULL before a socket is
 *	released here; kernel_sock_shutdown() of the socket meanwhile ends
 *	the connect at once.  On success the socket is still watched.
 *
 * Binds a privileged source port (1023 down to 512), connects and sends
 * the connection request, version 1 for a nid4 target and version 2
 * otherwise (wire spec 3.2, 3.3).  The LND's handshake follows at once.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EADDRINUSE when no privileged port is free, -ETIMEDOUT,
 * -ECONNABORTED when aborted, or the connect error (-ECONNREFUSED,
 * -EHOSTUNREACH, ...).
 */
int lnet_connect(struct socket **sockp, const struct lnet_nid *peer_nid,
		 __be32 local_ip, __be32 peer_ip, int port, int timeout,
		 const struct lnet_connect_watch *watch)
{
	u8 req[8 + sizeof(struct lnet_nid)];
	u32 word;
	size_t len;
	int rc;

	/* The request is in the sender's byte order (SBO). */
	word = LNET_PROTO_ACCEPTOR_MAGIC;
	memcpy(req, &word, 4);
	if (lnet_nid_is_nid4(peer_nid)) {
		u64 nid4 = lnet_nid_to_nid4(peer_nid);

		word = LNET_ACCEPTOR_VERSION;
		memcpy(req + 8, &nid4, 8);
		len = 16;
	} else {
		word = LNET_ACCEPTOR_VERSION_16;
		memcpy(req + 8, peer_nid, sizeof(*peer_nid));
		len = sizeof(req);
	}
	memcpy(req + 4, &word, 4);

	rc = lnet_sock_connect(sockp, local_ip, peer_ip, port, timeout, watch);
	if (rc)
		return rc;
	rc = lnet_sock_write(*sockp, req, len, timeout);
	if (rc) {
		if (watch)
			watch->fn(watch->arg, NULL);
		sock_release(*sockp);
		*sockp = NULL;
	}
	return rc;
}
EXPORT_SYMBOL(lnet_connect);

/* Tell a peer this acceptor is old or does not know its version. */
static void lnet_acceptor_reply_old(struct socket *sock)
{
	u32 reply[4] = { LNET_PROTO_ACCEPTOR_MAGIC, LNET_ACCEPTOR_VERSION,
			 0, 0 };	/* nid 0 */

	lnet_sock_write(sock, reply, sizeof(reply), lnet_acceptor_timeout());
}

/* The NI whose NID is exactly @nid, if its LND accepts; referenced. */
static struct lnet_ni *lnet_acceptor_ni_get(const struct lnet_nid *nid)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	lnet_lock();
	list_for_each_entry(net, &the_lnet.ln_nets, net_list) {
		if (!net->net_lnd->lnd_accept)
			continue;
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (ni->ni_up && lnet_nid_equal(&ni->ni_nid, nid)) {
				ni->ni_refcount++;
				lnet_unlock();
				return ni;
			}
		}
	}
	lnet_unlock();
	return NULL;
}

/* Read a connection request (spec 3.4), lnet_connreq_parse() judging. */
static enum lnet_acceptor_counter lnet_acceptor_read(struct socket *sock,
						     struct lnet_nid *nid)
{
	int timeout = lnet_acceptor_timeout();
	u8 req[LNET_CONNREQ_MAX_SIZE];
	enum lnet_connreq_verdict v;
	size_t have = 0, need = 4;
	int rc;

	do {
		rc = lnet_sock_read(sock, req + have, need - have, timeout);
		if (rc)
			return rc == -ETIMEDOUT ? LNET_ACR_TIMEOUT :
						  LNET_ACR_ERROR;
		have = need;
		v = lnet_connreq_parse(req, have, &need, nid);
	} while (v == LNET_CONNREQ_MORE && need <= sizeof(req));

	switch (v) {
	case LNET_CONNREQ_OK:
		return LNET_ACR_ACCEPTED;
	case LNET_CONNREQ_LNET_MAGIC:
		lnet_acceptor_reply_old(sock);
		return LNET_ACR_LNET_MAGIC;
	case LNET_CONNREQ_BAD_VERSION:
		lnet_acceptor_reply_old(sock);
		return LNET_ACR_BAD_VERSION;
	case LNET_CONNREQ_BAD_NID:
		return LNET_ACR_BAD_NID;
	default:
		return LNET_ACR_BAD_MAGIC;
	}
}

/* Read and check a connection request; hand the socket on. */
static enum lnet_acceptor_counter lnet_acceptor_handle(struct socket *sock)
{
	enum lnet_acceptor_counter c;
	struct sockaddr_in peer;
	struct lnet_nid nid;
	struct lnet_ni *ni;
	int rc, idx;

	rc = kernel_getpeername(sock, (struct sockaddr *)&peer);
	if (rc < 0)
		return LNET_ACR_ERROR;
	if (ntohs(peer.sin_port) > LNET_ACCEPTOR_MAX_RESERVED_PORT &&
	    strcmp(accept, "all"))
		return LNET_ACR_BAD_PORT;
	c = lnet_acceptor_read(sock, &nid);
	if (c != LNET_ACR_ACCEPTED)
		return c;

	/* lnet_acceptor_stop() waits for this section only. */
	idx = srcu_read_lock(&lnet_acceptor_srcu);
	ni = lnet_acceptor_ni_get(&nid);
	if (!ni) {
		srcu_read_unlock(&lnet_acceptor_srcu, idx);
		return LNET_ACR_BAD_NID;
	}
	/* The LND owns the socket now, whatever it returns. */
	ni->ni_net->net_lnd->lnd_accept(ni, sock);
	lnet_lock();
	lnet_ni_put_locked(ni);
	lnet_unlock();
	srcu_read_unlock(&lnet_acceptor_srcu, idx);
	return LNET_ACR_ACCEPTED;
}

static void lnet_acceptee_work(struct work_struct *work)
{
	struct lnet_acceptee *la = container_of(work, struct lnet_acceptee,
						la_work);
	enum lnet_acceptor_counter c;

	c = lnet_acceptor_handle(la->la_sock);
	lnet_acr_count(c);
	if (c != LNET_ACR_ACCEPTED) {
		pr_debug("LNet: acceptor refused a connection: %s\n",
			 lnet_acr_names[c]);
		sock_release(la->la_sock);
	}
	kfree(la);
	atomic_dec(&lnet_acceptees);
}

static void lnet_listener_accept_work(struct work_struct *work)
{
	struct lnet_listener *ll = container_of(work, struct lnet_listener,
						ll_accept_work);
	struct socket *sock;
	struct lnet_acceptee *la;

	while (!kernel_accept(ll->ll_sock, &sock, O_NONBLOCK)) {
		struct sock *sk = sock->sk;

		/* A child inherits the listener's callbacks: take them back. */
		write_lock_bh(&sk->sk_callback_lock);
		sk->sk_user_data = NULL;
		sk->sk_data_ready = ll->ll_saved_data_ready;
		write_unlock_bh(&sk->sk_callback_lock);

		if (atomic_inc_return(&lnet_acceptees) > LNET_ACCEPTEES_MAX) {
			atomic_dec(&lnet_acceptees);
			lnet_acr_count(LNET_ACR_OVERFLOW);
			sock_release(sock);
			continue;
		}
		la = kmalloc(sizeof(*la), GFP_KERNEL);
		if (!la) {
			atomic_dec(&lnet_acceptees);
			lnet_acr_count(LNET_ACR_ERROR);
			sock_release(sock);
			continue;
		}
		la->la_sock = sock;
		INIT_WORK(&la->la_work, lnet_acceptee_work);
		queue_work(lnet_acceptor_wq, &la->la_work);
	}
}

static void lnet_listener_data_ready(struct sock *sk)
{
	struct lnet_listener *ll;

	read_lock_bh(&sk->sk_callback_lock);
	ll = sk->sk_user_data;
	if (ll)
		queue_work(lnet_acceptor_wq, &ll->ll_accept_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static int lnet_listener_open(struct lnet_listener *ll)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = ll->ll_addr,
		.sin_port = htons(ll->ll_port),
	};
	struct sock *sk;
	int rc;

	rc = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			      &ll->ll_sock);
	if (rc)
		return rc;
	sk = ll->ll_sock->sk;
	sock_set_reuseaddr(sk);
	rc = kernel_bind(ll->ll_sock, (struct sockaddr *)&addr, sizeof(addr));
	if (!rc)
		rc = kernel_listen(ll->ll_sock, accept_backlog);
	if (rc) {
		pr_err("LNet: cannot listen on %pI4:%d: %d\n", &ll->ll_addr,
		       ll->ll_port, rc);
		sock_release(ll->ll_sock);
		return rc;
	}
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = ll;
	ll->ll_saved_data_ready = sk->sk_data_ready;
	sk->sk_data_ready = lnet_listener_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	/* Connections that arrived before the callback was set. */
	queue_work(lnet_acceptor_wq, &ll->ll_accept_work);
	return 0;
}

static void lnet_listener_close(struct lnet_listener *ll)
{
	struct sock *sk = ll->ll_sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = ll->ll_saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	cancel_work_sync(&ll->ll_accept_work);
	sock_release(ll->ll_sock);
}

static __be32 lnet_ni_ipv4(const struct lnet_ni *ni)
{
	return htonl(lnet_nid4_addr(lnet_nid_to_nid4(&ni->ni_nid)));
}

/* One more user of the listener on @addr:@port, opened by the first. */
static int lnet_listener_get(__be32 addr, int port)
{
	struct lnet_listener *ll;
	int rc;

	list_for_each_entry(ll, &lnet_listeners, ll_list) {
		if (ll->ll_addr == addr && ll->ll_port == port) {
			ll->ll_users++;
			return 0;
		}
	}
	ll = kzalloc(sizeof(*ll), GFP_KERNEL);
	if (!ll)
		return -ENOMEM;
	ll->ll_addr = addr;
	ll->ll_port = port;
	ll->ll_users = 1;
	INIT_WORK(&ll->ll_accept_work, lnet_listener_accept_work);
	rc = lnet_listener_open(ll);
	if (rc) {
		kfree(ll);
		return rc;
	}
	list_add_tail(&ll->ll_list, &lnet_listeners);
	return 0;
}

/* One user less of the listener on @addr:@port, closed by the last. */
static void lnet_listener_put(__be32 addr, int port)
{
	struct lnet_listener *ll;

	list_for_each_entry(ll, &lnet_listeners, ll_list) {
		if (ll->ll_addr != addr || ll->ll_port != port)
			continue;
		if (!--ll->ll_users) {
			list_del(&ll->ll_list);
			lnet_listener_close(ll);
			kfree(ll);
		}
		break;
	}
}

/**
 * lnet_acceptor_start() - listen for @ni, whose LND has lnd_accept
 * @ni: an NI just started; its NID's address is the one listened on, on
 *	accept_port and, if it differs, accept_port_bulk
 *
 * Context: Process context, ln_api_mutex held.
 * Return: 0 (also with accept=none: nothing listens), or -errno.
 */
int lnet_acceptor_start(struct lnet_ni *ni)
{
	__be32 addr = lnet_ni_ipv4(ni);
	int rc;

	if (!strcmp(accept, "none"))
		return 0;
	if (!lnet_nid_is_nid4(&ni->ni_nid))
		return -EPROTONOSUPPORT;	/* IPv6 NIs: not yet */
	rc = lnet_listener_get(addr, accept_port);
	if (rc || accept_port_bulk == accept_port)
		return rc;
	rc = lnet_listener_get(addr, accept_port_bulk);
	if (rc)
		lnet_listener_put(addr, accept_port);
	return rc;
}

/**
 * lnet_acceptor_stop() - @ni no longer needs its listeners
 * @ni: an NI lnet_acceptor_start() succeeded for, already marked down
 *
 * Context: Process context, ln_api_mutex held.
 */
void lnet_acceptor_stop(struct lnet_ni *ni)
{
	__be32 addr = lnet_ni_ipv4(ni);

	if (strcmp(accept, "none")) {
		lnet_listener_put(addr, accept_port);
		if (accept_port_bulk != accept_port)
			lnet_listener_put(addr, accept_port_bulk);
	}
	/*
	 * @ni is down, so no new request finds it; one that found it before
	 * may be in lnd_accept(): let it finish before the LND shuts down.
	 * Requests still being read (up to accept_timeout each) are not
	 * waited for: they will not find @ni.
	 */
	synchronize_srcu(&lnet_acceptor_srcu);
}

void lnet_acceptor_show(struct seq_file *m)
{
	int i;

	for (i = 0; i < LNET_ACR_COUNT; i++)
		seq_printf(m, "%s %d\n", lnet_acr_names[i],
			   atomic_read(&lnet_acr_counters[i]));
	seq_printf(m, "pending %d\n", atomic_read(&lnet_acceptees));
}

int lnet_acceptor_init(void)
{
	if (strcmp(accept, "secure") && strcmp(accept, "all") &&
	    strcmp(accept, "none")) {
		pr_err("LNet: accept=%s: want secure, all or none\n", accept);
		return -EINVAL;
	}
	if (accept_port < 1 || accept_port > 65535 ||
	    accept_port_bulk < 1 || accept_port_bulk > 65535) {
		pr_err("LNet: accept_port and accept_port_bulk must be 1..65535\n");
		return -EINVAL;
	}
	lnet_acceptor_wq = alloc_workqueue("lnet_acceptor", WQ_UNBOUND, 0);
	return lnet_acceptor_wq ? 0 : -ENOMEM;
}

void lnet_acceptor_fini(void)
{
	destroy_workqueue(lnet_acceptor_wq);
}
