// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl's health commands, in Lustre's shape (spec features 1a, 3f):
 *
 *	net set --nid NID | --all --health V | --conns-per-peer N
 *	net set --net NET --lnd-timeout S
 *	peer set --nid NID | --all --health V
 *	debug recovery --local | --peer
 *
 * and the "health stats" blocks of "net show -v 2" / "peer show -v 2".
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"

int parse_health(struct nlattr *nest, struct health_rec *h)
{
	struct nlattr *tb[LNET_HEALTH_A_MAX + 1];
	int i;

	if (lnl_nest_parse(tb, LNET_HEALTH_A_MAX, nest) ||
	    !tb[LNET_HEALTH_A_VALUE])
		return -EPROTO;
	memset(h, 0, sizeof(*h));
	for (i = 1; i <= LNET_HEALTH_A_MAX; i++) {
		if (!tb[i] || i == LNET_HEALTH_A_PAD)
			continue;
		h->present[i] = true;
		if (i == LNET_HEALTH_A_FATAL)
			h->v[i] = nla_get_u8(tb[i]);
		else if (i == LNET_HEALTH_A_NEXT_PING)
			h->v[i] = (long long)nla_get_u64(tb[i]);
		else
			h->v[i] = nla_get_u32(tb[i]);
	}
	h->has = true;
	return 0;
}

/* Lustre's keys, in its order; a local NI's, then a peer NI's. */
static const struct {
	const char *key;
	int attr;
} ni_keys[] = {
	{ "fatal_error", LNET_HEALTH_A_FATAL },
	{ "health value", LNET_HEALTH_A_VALUE },
	{ "interrupts", LNET_HEALTH_A_INTERRUPTS },
	{ "dropped", LNET_HEALTH_A_DROPPED },
	{ "aborted", LNET_HEALTH_A_ABORTED },
	{ "no route", LNET_HEALTH_A_NO_ROUTE },
	{ "timeouts", LNET_HEALTH_A_TIMEOUTS },
	{ "error", LNET_HEALTH_A_ERROR },
	{ "ping_count", LNET_HEALTH_A_PING_COUNT },
	{ "next_ping", LNET_HEALTH_A_NEXT_PING },
}, peer_keys[] = {
	{ "health value", LNET_HEALTH_A_VALUE },
	{ "dropped", LNET_HEALTH_A_DROPPED },
	{ "timeout", LNET_HEALTH_A_TIMEOUTS },
	{ "error", LNET_HEALTH_A_ERROR },
	{ "network timeout", LNET_HEALTH_A_NETWORK_TIMEOUT },
	{ "ping_count", LNET_HEALTH_A_PING_COUNT },
	{ "next_ping", LNET_HEALTH_A_NEXT_PING },
};

void emit_health(struct yout *y, const struct health_rec *h, bool peer)
{
	unsigned int i, n = peer ? ARRAY_SIZE(peer_keys) : ARRAY_SIZE(ni_keys);

	if (!h->has)
		return;
	yout_str(y, "health stats");
	yout_map(y);
	for (i = 0; i < n; i++) {
		int attr = peer ? peer_keys[i].attr : ni_keys[i].attr;

		yout_kv_int(y, peer ? peer_keys[i].key : ni_keys[i].key,
			    h->v[attr]);
	}
	yout_end_map(y);
}

#define LND_TIMEOUT_MAX	86400	/* seconds: a day */

/*
 * "net set --net NET --lnd-timeout S": as stock, the LND's own module
 * parameter (ksocklnd's sock_timeout, ko2iblnd's timeout), so it applies to
 * every net of that LND; 0 means LNet's lnd_timeout.  The net names the LND.
 */
static int set_lnd_timeout(const char *net, const char *secs)
{
	static const struct {
		const char *type, *param;
	} lnds[] = {
		{ "tcp", "/sys/module/ksocklnd/parameters/sock_timeout" },
		{ "o2ib", "/sys/module/ko2iblnd/parameters/timeout" },
	};
	size_t typelen = strcspn(net, "0123456789");
	const char *param = NULL;
	long long value;
	unsigned int i;
	FILE *f;
	int rc;

	if (!valid_net(net))
		return usage_error("set", "net",
				   "invalid --net value '%s': not a network",
				   net);
	if (parse_long(secs, 0, LND_TIMEOUT_MAX, &value)) {
		report_error("set", "net", EINVAL,
			     "invalid --lnd-timeout value '%s': must be 0..%d seconds",
			     secs, LND_TIMEOUT_MAX);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(lnds); i++)
		if (strlen(lnds[i].type) == typelen &&
		    !strncmp(net, lnds[i].type, typelen))
			param = lnds[i].param;
	if (!param)
		return usage_error("set", "net",
				   "net '%s': its LND has no timeout to set", net);
	f = fopen(param, "w");
	if (!f) {
		report_error("set", "net", errno,
			     "cannot set the LND timeout of '%s': %s (is its LND loaded?)",
			     net, param);
		return 1;
	}
	rc = fprintf(f, "%lld\n", value) < 0;
	if (fclose(f) || rc) {
		report_error("set", "net", errno ? errno : EIO,
			     "cannot write %s", param);
		return 1;
	}
	return 0;
}

/*
 * "net set" / "peer set": --nid NID | --all, --health V; "net set" also
 * --conns-per-peer N (1..127), for the connections made from then on, and
 * --net NET --lnd-timeout S.
 */
static int health_set(int argc, char **argv, bool peer)
{
	static const struct option opts[] = {
		{ "nid", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "health", required_argument, NULL, 't' },
		{ "conns-per-peer", required_argument, NULL, 'm' },
		{ "net", required_argument, NULL, 'N' },
		{ "lnd-timeout", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = peer ? "peer" : "net";
	const char *nid = NULL, *hv = NULL, *cpp = NULL;
	const char *net = NULL, *lnd_timeout = NULL;
	long long value = -1, conns = -1;
	struct lnl_error err;
	struct nlattr *nest;
	struct nl_msg *msg;
	bool all = false;
	int c;

	while ((c = getopt_long(argc, argv, ":n:at:m:", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			nid = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 't':
			hv = optarg;
			break;
		case 'm':
			if (peer)
				return usage_error("set", what,
						   "unknown or incomplete option '%s'",
						   "--conns-per-peer");
			cpp = optarg;
			break;
		case 'N':
		case 'T':
			if (peer)
				return usage_error("set", what,
						   "unknown or incomplete option '%s'",
						   c == 'N' ? "--net" :
						   "--lnd-timeout");
			if (c == 'N')
				net = optarg;
			else
				lnd_timeout = optarg;
			break;
		default:
			return bad_option("set", what, argv);
		}
	}
	if (optind < argc)
		return usage_error("set", what, "unexpected argument '%s'",
				   argv[optind]);
	if (net || lnd_timeout) {
		if (!net || !lnd_timeout || nid || all || hv || cpp)
			return usage_error("set", what,
					   "--lnd-timeout goes with --net NET only%s",
					   "");
		return set_lnd_timeout(net, lnd_timeout);
	}
	if (!nid == !all)
		return usage_error("set", what, "give --nid NID or --all%s",
				   "");
	if (nid && !valid_nid(nid))
		return usage_error("set", what, "invalid NID '%s'", nid);
	if (!hv && !cpp)
		return usage_error("set", what, "nothing to set: give %s",
				   peer ? "--health VALUE" :
				   "--health VALUE or --conns-per-peer N");
	if (hv && parse_long(hv, 0, LNET_GENL_HEALTH_MAX, &value))
		return usage_error("set", what,
				   "health value '%s' is not in 0..1000", hv);
	if (cpp && parse_long(cpp, 1, LNET_GENL_CONNS_PER_PEER_MAX, &conns))
		return usage_error("set", what,
				   "--conns-per-peer value '%s' is not in 1..127",
				   cpp);
	if (open_or_report("set", what))
		return 1;
	msg = lnl_msg(LNET_CMD_HEALTH_SET, false);
	if (msg && ((nid && nla_put_string(msg, LNET_A_NID, nid)) ||
		    (hv && nla_put_u32(msg, LNET_A_HEALTH_VALUE, value)) ||
		    (peer && nla_put_flag(msg, LNET_A_PEER)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (msg && cpp) {
		nest = nla_nest_start(msg, LNET_A_LND_TUNABLES);
		if (!nest || nla_put_s32(msg, LNET_LND_TUN_A_CONNS_PER_PEER,
					 conns)) {
			nlmsg_free(msg);
			msg = NULL;
		} else {
			nla_nest_end(msg, nest);
		}
	}
	if (lnl_run(msg, NULL, NULL, &err) < 0) {
		report_nl_error("set", what, hv ? "cannot set health" :
				"cannot set conns_per_peer", &err);
		return 1;
	}
	return 0;
}

int net_set(int argc, char **argv)
{
	return health_set(argc, argv, false);
}

int peer_set(int argc, char **argv)
{
	return health_set(argc, argv, true);
}

struct recovery_list {
	char (*nid)[LNET_GENL_NID_LEN];
	unsigned int n;
};

static int recovery_cb(struct nlattr **tb, struct nlattr *head, int len,
		       void *arg)
{
	struct recovery_list *l = arg;
	struct nlattr *a;
	int rem;

	(void)head;
	(void)len;
	if (!tb[LNET_A_PEER_NIDS])
		return -EPROTO;
	nla_for_each_nested(a, tb[LNET_A_PEER_NIDS], rem) {
		void *p;

		if (nla_type(a) != LNET_A_NID)
			return -EPROTO;
		p = realloc(l->nid, (l->n + 1) * sizeof(*l->nid));
		if (!p)
			return -ENOMEM;
		l->nid = p;
		snprintf(l->nid[l->n++], LNET_GENL_NID_LEN, "%s",
			 nla_get_string(a));
	}
	return 0;
}

/* "debug recovery --local|--peer": what is on a recovery queue. */
static int debug_recovery(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "local", no_argument, NULL, 'l' },
		{ "peer", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct recovery_list l = { NULL, 0 };
	int c, local = 0, peer = 0, rc;
	struct lnl_error err;
	struct nl_msg *msg;
	unsigned int i;
	struct yout y;
	char key[16];

	while ((c = getopt_long(argc, argv, ":lp", opts, NULL)) != -1) {
		if (c == 'l')
			local = 1;
		else if (c == 'p')
			peer = 1;
		else
			return bad_option("debug", "recovery", argv);
	}
	if (optind < argc)
		return usage_error("debug", "recovery",
				   "unexpected argument '%s'", argv[optind]);
	if (local + peer != 1)
		return usage_error("debug", "recovery",
				   "give --local or --peer%s", "");
	if (open_or_report("debug", "recovery"))
		return 1;
	msg = lnl_msg(LNET_CMD_RECOVERY_GET, false);
	if (msg && peer && nla_put_flag(msg, LNET_A_PEER)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	rc = lnl_run(msg, recovery_cb, &l, &err);
	if (rc < 0) {
		free(l.nid);
		report_nl_error("debug", "recovery",
				"cannot get the recovery queue", &err);
		return 1;
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	yout_str(&y, peer ? "Peer NI recovery" : "Local NI recovery");
	yout_map(&y);
	for (i = 0; i < l.n; i++) {
		snprintf(key, sizeof(key), "nid-%u", i);
		yout_kv_str(&y, key, l.nid[i]);
	}
	yout_end_map(&y);
	yout_end_map(&y);
	free(l.nid);
	return yout_end(&y) ? 1 : 0;
}

/*
 * "debug peer --nid NID": as stock's, the peer's state goes to the kernel
 * log (LNET_CMD_PEER_DEBUG); nothing is printed on success.
 */
static int debug_peer(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nid", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *nid = NULL;
	struct lnl_error err;
	struct nl_msg *msg;
	int c;

	while ((c = getopt_long(argc, argv, ":n:", opts, NULL)) != -1) {
		if (c != 'n')
			return bad_option("debug", "peer", argv);
		nid = optarg;
	}
	if (optind < argc)
		return usage_error("debug", "peer", "unexpected argument '%s'",
				   argv[optind]);
	if (!nid)
		return usage_error("debug", "peer",
				   "missing mandatory parameter --nid%s", "");
	if (!valid_nid(nid))
		return usage_error("debug", "peer",
				   "invalid --nid value '%s': not a NID", nid);
	if (open_or_report("debug", "peer"))
		return 1;
	msg = lnl_msg(LNET_CMD_PEER_DEBUG, false);
	if (msg && nla_put_string(msg, LNET_A_NID, nid)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (lnl_run(msg, NULL, NULL, &err) < 0) {
		report_nl_error("debug", "peer", "cannot dump the peer", &err);
		return 1;
	}
	return 0;
}

int cmd_debug(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	optind = 1;
	if (!strcmp(sub, "recovery"))
		return debug_recovery(argc - 1, argv + 1);
	if (!strcmp(sub, "peer"))
		return debug_peer(argc - 1, argv + 1);
	return usage_error("debug", "debug",
			   "unknown subcommand '%s': use recovery or peer", sub);
}
