/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of lnet_selftest.ko (work in progress): the wire is in
 * wire.h, the framework's session rules in rules.c, data patterns and the
 * destination distribution in pattern.c.
 */
#ifndef _LNET_SELFTEST_INTERNAL_H
#define _LNET_SELFTEST_INTERNAL_H

#include <linux/sizes.h>
#include <linux/types.h>

/* BRW check modes (brw_flags, spec 5.4). */
#define LST_BRW_CHECK_NONE	1
#define LST_BRW_CHECK_SIMPLE	2
#define LST_BRW_CHECK_FULL	3
#define LST_BRW_CHECK_DISCARD	4

#define LST_BRW_READ		1
#define LST_BRW_WRITE		2
#define LST_BRW_MAX_LEN		SZ_1M

#define LST_BRW_MAGIC		0xeeb0eeb1eeb2eeb3ULL
#define LST_BRW_POISON		0xbeefbeefbeefbeefULL

/* Session ids (spec 3.3); "none" is LST_NID_ANY with stamp -1. */
#define LST_NID_ANY		(~0ULL)
#define LST_NAME_MAX		31

/* TEST request limits (spec 4.6). */
#define LST_NDEST_MAX		(256 * 341)
#define LST_CONCUR_MAX		1024

struct lst_sid {
	u64	nid;
	s64	stamp;
};

/**
 * struct lst_session - the test node's session (spec 4.1)
 * @sid: its id, the console's
 * @name: its name, NUL-terminated
 * @feats: the features MAKE_SESSION asked for, echoed in every reply
 * @timeout: session_timeout when it was made, seconds (0: never)
 * @refs: MAKE_SESSIONs with this sid, less REMOVE_SESSIONs
 */
struct lst_session {
	struct lst_sid	sid;
	char		name[LST_NAME_MAX + 1];
	u32		feats;
	u32		timeout;
	unsigned int	refs;
};

/* What a framework request does to the session. */
enum lst_sess_action {
	LST_SESS_NONE,
	LST_SESS_REF,		/* the same session again: +1 reference */
	LST_SESS_CREATE,	/* a new session (there was none) */
	LST_SESS_REPLACE,	/* a new session, the current deactivated */
	LST_SESS_UNREF,		/* -1 reference; at 0 deactivated */
};

int lst_feats_status(u32 type, u32 version, u32 feats,
		     const struct lst_session *cur);
int lst_mksn_rule(const struct lst_session *cur, const struct lst_sid *sid,
		  bool force, enum lst_sess_action *act);
int lst_rmsn_rule(const struct lst_session *cur, const struct lst_sid *sid,
		  enum lst_sess_action *act);
int lst_test_rule(const void *msg, const struct lst_session *cur);

void lst_brw_fill(void *frag, unsigned int len, unsigned int mode);
void lst_brw_poison(void *frag, unsigned int len, unsigned int mode);
int lst_brw_check(const void *frag, unsigned int len, unsigned int mode,
		  bool swapped);
int lst_dest_first(unsigned int i, unsigned int dist, unsigned int span,
		   unsigned int n);

#endif /* _LNET_SELFTEST_INTERNAL_H */
