// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_nl_bad: send the "lnet" generic netlink family requests it must
 * refuse (wrong attribute types, over-long strings, out-of-range values,
 * attributes an operation does not take, missing attributes, bad names)
 * and check that each is refused with an extended-ack message.
 *
 *	lnet_nl_bad		every bad request; exit 1 if one got through
 *				or came back without a message
 *	lnet_nl_bad --eperm	state-changing requests, to run without
 *				CAP_NET_ADMIN: each must fail with EPERM
 *				and an extack message
 *	lnet_nl_bad --nidmap	the "nidmap" family's bad key requests
 *				(lnet_nidmap.ko loaded; key 77 not held)
 *	lnet_nl_bad --nidmap-eperm	its key commands without
 *				CAP_NET_ADMIN: EPERM (GENL_ADMIN_PERM: the
 *				core refuses them, without a message)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netlink/genl/genl.h>
#include <uapi/lnet/nidmap_genl.h>

#include "../lnetctl/lnetctl.h"

static int failures;

/* Send @msg and check it is refused with @want (0: any errno). */
static void expect_reject(const char *name, struct nl_msg *msg, int want,
			  bool need_msg)
{
	struct lnl_error err;

	lnl_run(msg, NULL, NULL, &err);
	if (!err.errnum) {
		printf("FAIL %s: accepted\n", name);
		failures++;
	} else if (want && err.errnum != want) {
		printf("FAIL %s: errno %d (%s), want %d: %s\n", name,
		       err.errnum, strerror(err.errnum), want, err.msg);
		failures++;
	} else if (need_msg && !err.msg[0]) {
		printf("FAIL %s: errno %d without an extack message\n", name,
		       err.errnum);
		failures++;
	} else {
		printf("ok %s: errno %d: %s\n", name, err.errnum,
		       err.msg[0] ? err.msg : "(no message)");
	}
}

static struct nl_msg *net_add(const char *net, const char *ifname)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_NET_ADD, false);

	if (net)
		nla_put_string(msg, LNET_A_NET, net);
	if (ifname)
		nla_put_string(msg, LNET_A_IFNAME, ifname);
	return msg;
}

static struct nl_msg *net_add_tunable(int type, int value)
{
	struct nl_msg *msg = net_add("tcp1", "eth0");
	struct nlattr *nest = nla_nest_start(msg, LNET_A_TUNABLES);

	nla_put_s32(msg, type, value);
	nla_nest_end(msg, nest);
	return msg;
}

static struct nl_msg *net_add_lnd_tunable(int type, int value)
{
	struct nl_msg *msg = net_add("tcp1", "eth0");
	struct nlattr *nest = nla_nest_start(msg, LNET_A_LND_TUNABLES);

	nla_put_s32(msg, type, value);
	nla_nest_end(msg, nest);
	return msg;
}

static struct nl_msg *ping(const char *nid, int timeout_ms)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_PING, false);

	if (nid)
		nla_put_string(msg, LNET_A_NID, nid);
	if (timeout_ms >= 0)
		nla_put_u32(msg, LNET_A_TIMEOUT_MS, timeout_ms);
	return msg;
}

static struct nl_msg *global_set(const char *name, long long value)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_GLOBAL_SET, false);

	if (name)
		nla_put_string(msg, LNET_A_PARAM_NAME, name);
	nla_put_s64(msg, LNET_A_PARAM_VALUE, value);
	return msg;
}

/* PEER_ADD with @prim and a PEER_NIDS nest of @n copies of @nid. */
static struct nl_msg *peer_add(const char *prim, const char *nid, int n)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_PEER_ADD, false);
	struct nlattr *nest;

	if (prim)
		nla_put_string(msg, LNET_A_PRIMARY_NID, prim);
	if (n) {
		nest = nla_nest_start(msg, LNET_A_PEER_NIDS);
		while (n--)
			if (nla_put_string(msg, LNET_A_NID, nid))
				fprintf(stderr, "lnet_nl_bad: message full\n");
		nla_nest_end(msg, nest);
	}
	return msg;
}

static void bad_peer_requests(void)
{
	struct nlattr *nest;
	struct nl_msg *msg;

	expect_reject("peer add: no primary NID", peer_add(NULL, NULL, 0),
		      EINVAL, true);
	expect_reject("peer add: wildcard primary NID",
		      peer_add("<?>", NULL, 0), EINVAL, true);
	expect_reject("peer add: NID garbage in the list",
		      peer_add("192.0.2.50@tcp", "garbage", 1), EINVAL, true);
	/* Short NIDs: 257 of them fit in one page-sized message. */
	expect_reject("peer add: 257 NIDs",
		      peer_add("192.0.2.50@tcp", "1.2.3.4",
			       LNET_GENL_PEER_NIDS_MAX + 1), E2BIG, true);
	msg = peer_add("192.0.2.50@tcp", NULL, 0);
	nest = nla_nest_start(msg, LNET_A_PEER_NIDS);
	nla_put_u32(msg, LNET_A_NET, 7);
	nla_nest_end(msg, nest);
	expect_reject("peer add: not a NID in the list", msg, EINVAL, true);
	msg = peer_add("192.0.2.50@tcp", NULL, 0);
	nla_put_u32(msg, LNET_A_PEER_NIDS, 1);
	expect_reject("peer add: NID list not a nest", msg, EINVAL, true);
	msg = peer_add("192.0.2.50@tcp", NULL, 0);
	nla_put_u8(msg, LNET_A_MULTI_RAIL, 2);
	expect_reject("peer add: MULTI_RAIL 2", msg, ERANGE, true);
	msg = lnl_msg(LNET_CMD_PEER_DEL, false);
	nla_put_string(msg, LNET_A_PRIMARY_NID, "192.0.2.50@tcp");
	nla_put_string(msg, LNET_A_NID, "192.0.2.51@tcp");
	nla_put_flag(msg, LNET_A_FORCE);
	expect_reject("peer del: force with one NID", msg, EINVAL, true);
	expect_reject("discover: no NID", lnl_msg(LNET_CMD_DISCOVER, false),
		      EINVAL, true);
	msg = lnl_msg(LNET_CMD_DISCOVER, false);
	nla_put_string(msg, LNET_A_NID, "0@lo");
	nla_put_u32(msg, LNET_A_TIMEOUT_MS, 0);
	expect_reject("discover: timeout 0", msg, ERANGE, true);
	msg = lnl_msg(LNET_CMD_DISCOVER, false);
	nla_put_string(msg, LNET_A_NID, "0@lo");
	nla_put_string(msg, LNET_A_SOURCE, "0@lo");
	expect_reject("discover: with a SOURCE", msg, EINVAL, true);
}

static void bad_udsp_requests(void)
{
	char longstr[LNET_GENL_UDSP_LEN + 8];
	struct nl_msg *msg;

	memset(longstr, 'a', sizeof(longstr) - 1);
	longstr[sizeof(longstr) - 1] = '\0';
	msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	nla_put_string(msg, LNET_A_UDSP_SRC, "tcp");
	nla_put_u8(msg, LNET_A_PRIORITY, 1);
	expect_reject("udsp add: priority as u8", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	nla_put_string(msg, LNET_A_UDSP_SRC, "tcp");
	nla_put_u32(msg, LNET_A_PRIORITY, 0xffffffffU);
	expect_reject("udsp add: priority 2^32-1", msg, ERANGE, true);
	msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	nla_put_string(msg, LNET_A_UDSP_DST, longstr);
	nla_put_u32(msg, LNET_A_PRIORITY, 1);
	expect_reject("udsp add: long --dst", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	nla_put_string(msg, LNET_A_UDSP_SRC, "tcp");
	nla_put_u32(msg, LNET_A_PRIORITY, 1);
	nla_put_u32(msg, LNET_A_IDX, 0x80000000U);
	expect_reject("udsp add: idx 2^31", msg, ERANGE, true);
	msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	nla_put_string(msg, LNET_A_UDSP_SRC, "tcp");
	nla_put_u32(msg, LNET_A_PRIORITY, 1);
	nla_put_string(msg, LNET_A_NID, "0@lo");
	expect_reject("udsp add: with a NID", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_UDSP_DEL, false);
	expect_reject("udsp del: neither idx nor all", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_UDSP_DEL, false);
	nla_put_u32(msg, LNET_A_IDX, 0);
	nla_put_flag(msg, LNET_A_ALL);
	expect_reject("udsp del: idx and all", msg, EINVAL, true);
}

static void bad_health_requests(void)
{
	struct nl_msg *msg;

	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	expect_reject("health set: no value", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, LNET_GENL_HEALTH_MAX + 1);
	expect_reject("health set: value 1001", msg, ERANGE, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u8(msg, LNET_A_HEALTH_VALUE, 5);
	expect_reject("health set: value as u8", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 500);
	nla_put_string(msg, LNET_A_NID, "garbage");
	expect_reject("health set: bad NID", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 500);
	nla_put_string(msg, LNET_A_NID, "192.0.2.77@tcp");
	expect_reject("health set: no such NI", msg, ENOENT, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 500);
	nla_put_string(msg, LNET_A_NID, "192.0.2.77@tcp");
	nla_put_flag(msg, LNET_A_PEER);
	expect_reject("health set: no such peer NI", msg, ENOENT, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 500);
	nla_put_string(msg, LNET_A_NID, "0@lo");
	expect_reject("health set: 0@lo", msg, ENOENT, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 500);
	nla_put_string(msg, LNET_A_UDSP_SRC, "tcp");
	expect_reject("health set: an attribute it does not take", msg,
		      EINVAL, true);
	msg = lnl_msg(LNET_CMD_RECOVERY_GET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 500);
	expect_reject("recovery get: with a value", msg, EINVAL, true);
}

/*
 * A FAULT_ADD with a FAULT nest of TYPE, SRC and DST "*", RATE 1 (but
 * with @extra 0), and @extra = @value.
 */
static struct nl_msg *fault_add(int type, int extra, unsigned int value)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_FAULT_ADD, false);
	struct nlattr *nest = nla_nest_start(msg, LNET_A_FAULT);

	nla_put_u8(msg, LNET_FAULT_A_TYPE, type);
	nla_put_string(msg, LNET_FAULT_A_SRC, "*");
	nla_put_string(msg, LNET_FAULT_A_DST, "*");
	if (extra) {
		nla_put_u32(msg, LNET_FAULT_A_RATE, 1);
		if (extra != LNET_FAULT_A_RATE)
			nla_put_u32(msg, extra, value);
	}
	nla_nest_end(msg, nest);
	return msg;
}

static void bad_fault_requests(void)
{
	struct nl_msg *msg;
	struct nlattr *nest;

	expect_reject("fault add: no nest", lnl_msg(LNET_CMD_FAULT_ADD, false),
		      EINVAL, true);
	msg = lnl_msg(LNET_CMD_FAULT_ADD, false);
	nest = nla_nest_start(msg, LNET_A_FAULT);
	nla_put_string(msg, LNET_FAULT_A_SRC, "*");
	nla_nest_end(msg, nest);
	expect_reject("fault add: no type", msg, EINVAL, true);
	expect_reject("fault add: type 2", fault_add(2, LNET_FAULT_A_RATE, 1),
		      ERANGE, true);
	expect_reject("fault add: neither rate nor interval",
		      fault_add(LNET_FAULT_TYPE_DROP, 0, 0), EINVAL, true);
	expect_reject("fault add: health mask bit 0",
		      fault_add(LNET_FAULT_TYPE_DROP, LNET_FAULT_A_HEALTH_MASK,
				1), EINVAL, true);
	expect_reject("fault add: message mask HELLO",
		      fault_add(LNET_FAULT_TYPE_DROP, LNET_FAULT_A_MSG_MASK,
				1 << 4), EINVAL, true);
	expect_reject("fault add: delay latency 3601",
		      fault_add(LNET_FAULT_TYPE_DELAY, LNET_FAULT_A_LATENCY,
				3601), ERANGE, true);
	msg = lnl_msg(LNET_CMD_FAULT_ADD, false);
	nest = nla_nest_start(msg, LNET_A_FAULT);
	nla_put_u8(msg, LNET_FAULT_A_TYPE, LNET_FAULT_TYPE_DROP);
	nla_put_string(msg, LNET_FAULT_A_SRC, "*@nonet");
	nla_put_string(msg, LNET_FAULT_A_DST, "*");
	nla_put_u32(msg, LNET_FAULT_A_RATE, 1);
	nla_nest_end(msg, nest);
	expect_reject("fault add: bad net", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_FAULT_DEL, false);
	nest = nla_nest_start(msg, LNET_A_FAULT);
	nla_put_u8(msg, LNET_FAULT_A_TYPE, LNET_FAULT_TYPE_DROP);
	nla_nest_end(msg, nest);
	expect_reject("fault del: neither NIDs nor all", msg, EINVAL, true);
}

static void bad_requests(void)
{
	char longstr[200];
	struct nl_msg *msg;
	struct nlattr *nest;

	memset(longstr, 'a', sizeof(longstr) - 1);
	longstr[sizeof(longstr) - 1] = '\0';

	/* types */
	msg = lnl_msg(LNET_CMD_NET_ADD, false);
	nla_put_u32(msg, LNET_A_NET, 0x31706374);	/* "tcp1", no NUL */
	expect_reject("net add: net as u32", msg, EINVAL, true);
	msg = net_add("tcp1", "eth0");
	nest = nla_nest_start(msg, LNET_A_TUNABLES);
	nla_put_u8(msg, LNET_TUN_A_CREDITS, 8);
	nla_nest_end(msg, nest);
	expect_reject("net add: credits as u8", msg, EINVAL, true);
	msg = net_add("tcp1", "eth0");
	nla_put_u32(msg, LNET_A_TUNABLES, 1);
	expect_reject("net add: tunables not nested", msg, EINVAL, true);
	msg = net_add("tcp1", "eth0");
	nest = nla_nest_start(msg, LNET_A_LND_TUNABLES);
	nla_put_u8(msg, LNET_LND_TUN_A_CONNS_PER_PEER, 1);
	nla_nest_end(msg, nest);
	expect_reject("net add: conns_per_peer as u8", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_GLOBAL_SET, false);
	nla_put_string(msg, LNET_A_PARAM_NAME, "discovery");
	nla_put_u8(msg, LNET_A_PARAM_VALUE, 1);
	expect_reject("set: value as u8", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_NET_GET, true);
	nla_put_u32(msg, LNET_A_DETAIL, 1);
	expect_reject("net show: detail as u32", msg, EINVAL, true);

	/* lengths */
	expect_reject("net add: long net", net_add(longstr, "eth0"),
		      EINVAL, true);
	expect_reject("net add: long ifname",
		      net_add("tcp1", "abcdefghijklmnopq"), EINVAL, true);
	expect_reject("ping: long NID", ping(longstr, 1000), EINVAL, true);
	expect_reject("set: long name", global_set(longstr, 1), EINVAL,
		      true);

	/* ranges */
	expect_reject("net add: peer_credits 0",
		      net_add_tunable(LNET_TUN_A_PEER_CREDITS, 0),
		      ERANGE, true);
	expect_reject("net add: credits 2^21",
		      net_add_tunable(LNET_TUN_A_CREDITS, 1 << 21),
		      ERANGE, true);
	expect_reject("net add: peer_timeout -5",
		      net_add_tunable(LNET_TUN_A_PEER_TIMEOUT, -5),
		      ERANGE, true);
	expect_reject("net add: unknown tunable",
		      net_add_tunable(LNET_TUN_A_MAX + 1, 1), EINVAL, true);
	expect_reject("net add: conns_per_peer 128",
		      net_add_lnd_tunable(LNET_LND_TUN_A_CONNS_PER_PEER,
					  LNET_GENL_CONNS_PER_PEER_MAX + 1),
		      ERANGE, true);
	expect_reject("net add: conns_per_peer -1",
		      net_add_lnd_tunable(LNET_LND_TUN_A_CONNS_PER_PEER, -1),
		      ERANGE, true);
	expect_reject("net add: peercredits_hiw 255",
		      net_add_lnd_tunable(LNET_LND_TUN_A_PEERCREDITS_HIW,
					  LNET_GENL_PEERCREDITS_HIW_MAX + 1),
		      ERANGE, true);
	expect_reject("net add: peercredits_hiw -1",
		      net_add_lnd_tunable(LNET_LND_TUN_A_PEERCREDITS_HIW, -1),
		      ERANGE, true);
	expect_reject("net add: map_on_demand 258",
		      net_add_lnd_tunable(LNET_LND_TUN_A_MAP_ON_DEMAND,
					  LNET_GENL_MAP_ON_DEMAND_MAX + 1),
		      ERANGE, true);
	expect_reject("net add: concurrent_sends 511",
		      net_add_lnd_tunable(LNET_LND_TUN_A_CONCURRENT_SENDS,
					  LNET_GENL_CONCURRENT_SENDS_MAX + 1),
		      ERANGE, true);
	expect_reject("net add: fmr_pool_size 16385",
		      net_add_lnd_tunable(LNET_LND_TUN_A_FMR_POOL_SIZE,
					  LNET_GENL_FMR_POOL_MAX + 1),
		      ERANGE, true);
	expect_reject("net add: fmr_flush_trigger -1",
		      net_add_lnd_tunable(LNET_LND_TUN_A_FMR_FLUSH_TRIGGER,
					  -1),
		      ERANGE, true);
	expect_reject("net add: fmr_cache 2",
		      net_add_lnd_tunable(LNET_LND_TUN_A_FMR_CACHE, 2),
		      ERANGE, true);
	expect_reject("net add: ntx 0",
		      net_add_lnd_tunable(LNET_LND_TUN_A_NTX, 0), ERANGE, true);
	expect_reject("net add: ntx 16385",
		      net_add_lnd_tunable(LNET_LND_TUN_A_NTX,
					  LNET_GENL_NTX_MAX + 1),
		      ERANGE, true);
	/* in range, but not below peer_credits (8): refused at net add */
	expect_reject("net add: peercredits_hiw 8 (peer_credits 8)",
		      net_add_lnd_tunable(LNET_LND_TUN_A_PEERCREDITS_HIW, 8),
		      EINVAL, true);
	expect_reject("net add: concurrent_sends 17 (peer_credits 8)",
		      net_add_lnd_tunable(LNET_LND_TUN_A_CONCURRENT_SENDS, 17),
		      EINVAL, true);
	expect_reject("net add: unknown LND tunable",
		      net_add_lnd_tunable(LNET_LND_TUN_A_MAX + 1, 1), EINVAL,
		      true);
	msg = lnl_msg(LNET_CMD_NET_GET, true);
	nla_put_u8(msg, LNET_A_DETAIL, LNET_GENL_DETAIL_MAX + 1);
	expect_reject("net show: detail too high", msg, ERANGE, true);
	expect_reject("ping: timeout 0", ping("0@lo", 0), ERANGE, true);
	expect_reject("ping: timeout too long",
		      ping("0@lo", LNET_GENL_PING_TIMEOUT_MAX + 1), ERANGE,
		      true);
	expect_reject("set: health_sensitivity 5000",
		      global_set("health_sensitivity", 5000), EINVAL, true);
	expect_reject("set: discovery -1", global_set("discovery", -1),
		      EINVAL, true);

	/* attributes an operation does not take */
	msg = net_add("tcp1", "eth0");
	nla_put_flag(msg, LNET_A_ALL);
	expect_reject("net add: with ALL", msg, EINVAL, true);
	msg = net_add("tcp1", "eth0");
	nla_put_u32(msg, LNET_A_MAX + 10, 1);
	expect_reject("net add: unknown attribute", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_UNCONFIGURE, false);
	nla_put_flag(msg, LNET_A_ALL);
	expect_reject("unconfigure: with ALL", msg, EINVAL, true);
	msg = lnl_msg(LNET_CMD_STATS_RESET, false);
	nla_put_string(msg, LNET_A_NET, "tcp");
	expect_reject("stats reset: with NET", msg, EINVAL, true);
	expect_reject("bad command", lnl_msg(LNET_CMD_MAX + 1, false),
		      EOPNOTSUPP, false);

	/* missing attributes */
	expect_reject("net add: no net", net_add(NULL, "eth0"), EINVAL, true);
	expect_reject("net del: no net", lnl_msg(LNET_CMD_NET_DEL, false),
		      EINVAL, true);
	expect_reject("ping: no NID", ping(NULL, 1000), EINVAL, true);
	expect_reject("set: no name", global_set(NULL, 1), EINVAL, true);

	/* values the kernel parses */
	expect_reject("net add: net foo", net_add("foo", "eth0"), EINVAL,
		      true);
	expect_reject("net add: net lo", net_add("lo", ""), EINVAL, true);
	expect_reject("net add: net tcp70000", net_add("tcp70000", "eth0"),
		      EINVAL, true);
	expect_reject("net add: no LND for gni", net_add("gni", "eth0"),
		      EPROTONOSUPPORT, true);
	msg = lnl_msg(LNET_CMD_NET_DEL, false);
	nla_put_string(msg, LNET_A_NET, "lo");
	expect_reject("net del: net lo", msg, EINVAL, true);
	expect_reject("ping: NID 1.2.3.4@foo", ping("1.2.3.4@foo", 1000),
		      EINVAL, true);
	expect_reject("ping: NID 300.1.1.1@tcp", ping("300.1.1.1@tcp", 1000),
		      EINVAL, true);
	expect_reject("ping: wildcard NID", ping("<?>", 1000), EINVAL, true);
	expect_reject("set: unknown name", global_set("nosuch", 1), ENOENT,
		      true);
	expect_reject("set: read-only lnd_timeout",
		      global_set("lnd_timeout", 10), EPERM, true);
	bad_peer_requests();
	bad_udsp_requests();
	bad_health_requests();
	bad_fault_requests();
}

/* Without CAP_NET_ADMIN every request that changes state is refused. */
static void eperm_requests(void)
{
	struct nl_msg *msg;

	expect_reject("noadmin: configure", lnl_msg(LNET_CMD_CONFIGURE, false),
		      EPERM, true);
	expect_reject("noadmin: unconfigure",
		      lnl_msg(LNET_CMD_UNCONFIGURE, false), EPERM, true);
	expect_reject("noadmin: net add", net_add("tcp1", "eth0"), EPERM,
		      true);
	msg = lnl_msg(LNET_CMD_NET_DEL, false);
	nla_put_string(msg, LNET_A_NET, "tcp1");
	expect_reject("noadmin: net del", msg, EPERM, true);
	expect_reject("noadmin: ping", ping("0@lo", 1000), EPERM, true);
	expect_reject("noadmin: stats reset",
		      lnl_msg(LNET_CMD_STATS_RESET, false), EPERM, true);
	expect_reject("noadmin: set", global_set("discovery", 0), EPERM,
		      true);
	expect_reject("noadmin: peer add", peer_add("192.0.2.50@tcp", NULL, 0),
		      EPERM, true);
	msg = lnl_msg(LNET_CMD_DISCOVER, false);
	nla_put_string(msg, LNET_A_NID, "0@lo");
	expect_reject("noadmin: discover", msg, EPERM, true);
	msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	nla_put_string(msg, LNET_A_UDSP_SRC, "tcp");
	nla_put_u32(msg, LNET_A_PRIORITY, 0);
	expect_reject("noadmin: udsp add", msg, EPERM, true);
	msg = lnl_msg(LNET_CMD_UDSP_DEL, false);
	nla_put_flag(msg, LNET_A_ALL);
	expect_reject("noadmin: udsp del", msg, EPERM, true);
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	nla_put_u32(msg, LNET_A_HEALTH_VALUE, 0);
	expect_reject("noadmin: health set", msg, EPERM, true);
	expect_reject("noadmin: recovery get",
		      lnl_msg(LNET_CMD_RECOVERY_GET, false), EPERM, true);
	expect_reject("noadmin: fault add",
		      fault_add(LNET_FAULT_TYPE_DROP, LNET_FAULT_A_RATE, 1),
		      EPERM, true);
}

/* A nidmap key request: KEY_ID @id (< 0: none), a secret of @len bytes. */
static struct nl_msg *key_msg(int cmd, long long id, int len)
{
	static const unsigned char secret[80];
	struct nl_msg *msg = lnl_msg(cmd, false);

	if (id >= 0)
		nla_put_u32(msg, NIDMAP_A_KEY_ID, id);
	if (len >= 0)
		nla_put(msg, NIDMAP_A_KEY_SECRET, len, secret);
	return msg;
}

/* Refused by the policy, the handlers or the keys: each with a message. */
static void nidmap_requests(void)
{
	struct nl_msg *msg;

	expect_reject("key add: a 15-byte secret",
		      key_msg(NIDMAP_CMD_KEY_ADD, 77, 15), EINVAL, true);
	expect_reject("key add: a 65-byte secret",
		      key_msg(NIDMAP_CMD_KEY_ADD, 77, 65), EINVAL, true);
	expect_reject("key add: id 0", key_msg(NIDMAP_CMD_KEY_ADD, 0, 32),
		      ERANGE, true);
	expect_reject("key add: no secret",
		      key_msg(NIDMAP_CMD_KEY_ADD, 77, -1), EINVAL, true);
	expect_reject("key add: no id", key_msg(NIDMAP_CMD_KEY_ADD, -1, 32),
		      EINVAL, true);
	msg = lnl_msg(NIDMAP_CMD_KEY_ADD, false);
	nla_put_u16(msg, NIDMAP_A_KEY_ID, 77);
	nla_put(msg, NIDMAP_A_KEY_SECRET, 32, "0123456789abcdef0123456789abcdef");
	expect_reject("key add: a u16 id", msg, 0, true);
	expect_reject("key use: id 0", key_msg(NIDMAP_CMD_KEY_USE, 0, -1),
		      ERANGE, true);
	expect_reject("key use: no id", key_msg(NIDMAP_CMD_KEY_USE, -1, -1),
		      EINVAL, true);
	expect_reject("key use: a key not held",
		      key_msg(NIDMAP_CMD_KEY_USE, 77, -1), ENOENT, true);
	expect_reject("key del: no id", key_msg(NIDMAP_CMD_KEY_DEL, -1, -1),
		      EINVAL, true);
	expect_reject("key del: a key not held",
		      key_msg(NIDMAP_CMD_KEY_DEL, 77, -1), ENOENT, true);
}

static void nidmap_eperm_requests(void)
{
	expect_reject("noadmin: key add", key_msg(NIDMAP_CMD_KEY_ADD, 77, 32),
		      EPERM, false);
	expect_reject("noadmin: key use", key_msg(NIDMAP_CMD_KEY_USE, 77, -1),
		      EPERM, false);
	expect_reject("noadmin: key del", key_msg(NIDMAP_CMD_KEY_DEL, 77, -1),
		      EPERM, false);
}

int main(int argc, char **argv)
{
	bool nidmap = argc > 1 && !strncmp(argv[1], "--nidmap", 8);
	struct lnl_error err;

	if ((nidmap ? lnl_open_family(NIDMAP_GENL_NAME, "lnet_nidmap.ko",
				      NIDMAP_A_MAX, &err) :
	     lnl_open(&err)) < 0) {
		fprintf(stderr, "lnet_nl_bad: %s\n", err.msg);
		return 2;
	}
	if (nidmap && !strcmp(argv[1], "--nidmap-eperm"))
		nidmap_eperm_requests();
	else if (nidmap)
		nidmap_requests();
	else if (argc > 1 && !strcmp(argv[1], "--eperm"))
		eperm_requests();
	else
		bad_requests();
	lnl_close();
	printf("%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
