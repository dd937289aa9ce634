/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of lnet_health.ko: the treatment table (treat.c), health
 * values and counters (values.c), recovery (recovery.c).
 */
#ifndef _LNET_HEALTH_INTERNAL_H
#define _LNET_HEALTH_INTERNAL_H

#include <lnet/lib-lnet.h>

/**
 * struct lnet_health_facts - what the treatment of a failure depends on
 * @send: the message was being sent (else received)
 * @recovery: it is a recovery ping
 * @single_local_ni: this node has one NI besides 0@lo
 * @single_peer_ni: the peer has one NI
 * @router: the peer is a router, or this node routes
 * @peer_is_local: the peer NI is one of our own NIDs
 */
struct lnet_health_facts {
	bool	send;
	bool	recovery;
	bool	single_local_ni;
	bool	single_peer_ni;
	bool	router;
	bool	peer_is_local;
};

/**
 * struct lnet_health_action - what a failure calls for
 * @local: lower the local NI's health (and recover it)
 * @remote: lower the peer NI's health (and recover it)
 * @resend: send the message again, by another path
 */
struct lnet_health_action {
	bool	local;
	bool	remote;
	bool	resend;
};

/* treat.c */
struct lnet_health_action
lnet_health_treat(enum lnet_msg_hstatus hs, const struct lnet_health_facts *f);
int lnet_health_dec(int v, unsigned int step);
int lnet_health_inc(int v, unsigned int step);

/* values.c */
bool lnet_health_msg_done(struct lnet_msg *msg, struct lnet_peer_ni *lpni,
			  int status);
void lnet_health_remote_failure(const struct lnet_nid *nid);

/* recovery.c */

/**
 * struct lnet_recovery_target - a recovery ping to send
 * @nid: the NID recovered
 * @src: the local NID it is sent from
 * @local: @nid is a local NI's (else a peer NI's)
 */
struct lnet_recovery_target {
	struct lnet_nid	nid;
	struct lnet_nid	src;
	bool		local;
};

void lnet_recovery_kick(void);
int lnet_recovery_init(void);
void lnet_recovery_fini(void);
#if IS_ENABLED(CONFIG_KUNIT)
void lnet_recovery_ping_start(const struct lnet_recovery_target *t);
#endif

#endif /* _LNET_HEALTH_INTERNAL_H */
