// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl nidmap: lnet_nidmap.ko's roles through its "nidmap" family
 * (include/uapi/lnet/nidmap_genl.h, Documentation/nidmap.rst):
 *
 *	nidmap publish [--max-entries N] [--max-tombstones N]
 *		[--tombstone-age SECONDS] [--max-subscribers N]
 *		[--relay-fanout K]
 *	nidmap unpublish
 *	nidmap subscribe --publisher NID [--relay] [--routes]
 *	nidmap unsubscribe
 *	nidmap register --publisher NID --name TARGET --nid NID[,NID...]
 *		[--name TARGET --nid NID[,NID...]]...
 *	nidmap register --publisher NID --name ROUTER --nid NID[,NID...]
 *		--router --net NET[,NET...]
 *	nidmap remove --publisher NID --name TARGET [--name TARGET]...
 *	nidmap show
 *	nidmap table [--copy]
 *	nidmap lookup --name TARGET
 *	nidmap key add --id N --secret-file FILE
 *	nidmap key use --id N
 *	nidmap key del --id N
 *
 * show prints the roles' state and the counters; table the publisher's
 * table (or with --copy this node's copy) with the version of each
 * entry's last change, NIDs in failover order:
 *
 *	nidmap_table:
 *	    - name: fs-OST0000
 *	      version: 3
 *	      nids:
 *	          - 192.0.2.1@tcp
 *
 * (a router's entry says "router: yes" and lists its nets under "nets").
 * lookup resolves one target as a send by name does (this node's copy,
 * or on a publisher that does not subscribe its table, or DNS) and
 * prints its NIDs in failover order with the entry's version and the
 * source (copy, publisher or dns):
 *
 *	nidmap_lookup:
 *	    name: fs-OST0000
 *	    version: 3
 *	    source: copy
 *	    nids:
 *	        - 192.0.2.1@tcp
 *
 * key add, use and del manage the keys messages are signed and checked
 * with (Documentation/nidmap.rst, "Trust"): at most two, one of them
 * signing.  A key's secret is read from a file (never from the command
 * line, which any user sees): the file's bytes, less one trailing
 * newline, 16 to 64 of them; a file group or others may access is
 * refused, as ssh refuses such a private key.  show lists the ids of
 * the keys held ("keys: [1, 2]") and the signing one ("signing_key: 1",
 * or "none"), never a secret.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <uapi/lnet/nidmap_genl.h>

#include "lnetctl.h"
#include "plan.h"

#define OP "nidmap"

static const char *const ctr_names[NIDMAP_A_CTR_MAX + 1] = {
	[NIDMAP_A_CTR_RX]		= "rx",
	[NIDMAP_A_CTR_RX_DROPPED]	= "rx_dropped",
	[NIDMAP_A_CTR_TX]		= "tx",
	[NIDMAP_A_CTR_TX_ERRORS]	= "tx_errors",
	[NIDMAP_A_CTR_TIMEOUTS]		= "timeouts",
	[NIDMAP_A_CTR_NOTICES_SENT]	= "notices_sent",
	[NIDMAP_A_CTR_NOTICES_RCVD]	= "notices_received",
	[NIDMAP_A_CTR_FETCHES]		= "fetches_answered",
	[NIDMAP_A_CTR_REGISTERS]	= "registers_answered",
	[NIDMAP_A_CTR_REFUSED]		= "refused",
	[NIDMAP_A_CTR_PAGES]		= "pages_applied",
	[NIDMAP_A_CTR_RESYNCS]		= "resyncs",
	[NIDMAP_A_CTR_SUBS_DROPPED]	= "subscribers_dropped",
	[NIDMAP_A_CTR_RELAYED]		= "notices_relayed",
	[NIDMAP_A_CTR_RELAYED_RCVD]	= "relayed_received",
	[NIDMAP_A_CTR_AUTH_SIGNED]	= "auth_signed",
	[NIDMAP_A_CTR_AUTH_VERIFIED]	= "auth_verified",
	[NIDMAP_A_CTR_AUTH_UNSIGNED]	= "auth_unsigned",
	[NIDMAP_A_CTR_AUTH_FORGED]	= "auth_forged",
	[NIDMAP_A_CTR_AUTH_REPLAYED]	= "auth_replayed",
	[NIDMAP_A_CTR_AUTH_STALE]	= "auth_stale",
	[NIDMAP_A_CTR_AUTH_NOROOM]	= "auth_noroom",
	[NIDMAP_A_CTR_RENEWED]		= "renewed",
	[NIDMAP_A_CTR_RENEW_REFUSED]	= "renew_refused",
};

static_assert(NIDMAP_A_CTR_MAX == NIDMAP_A_CTR_RENEW_REFUSED,
	      "a counter without its name in ctr_names");

static int nm_open(const char *what)
{
	struct lnl_error err;

	if (lnl_open_family(NIDMAP_GENL_NAME, "lnet_nidmap.ko", NIDMAP_A_MAX,
			    &err) < 0) {
		report_nl_error(OP, what, "cannot reach lnet_nidmap", &err);
		return -1;
	}
	return 0;
}

/* Send @msg (NULL: out of memory), report a refusal; the exit code. */
static int nm_run(struct nl_msg *msg, const char *what, const char *prefix,
		  lnl_parse_fn parse, void *arg)
{
	struct lnl_error err;

	if (!msg) {
		report_error(OP, what, ENOMEM, "%s", "out of memory");
		return 1;
	}
	if (lnl_run(msg, parse, arg, &err) < 0) {
		report_nl_error(OP, what, prefix, &err);
		return 1;
	}
	return 0;
}

static int nm_publish(int argc, char **argv, bool enable)
{
	static const struct option opts[] = {
		{ "max-entries", required_argument, NULL, 'e' },
		{ "max-tombstones", required_argument, NULL, 't' },
		{ "tombstone-age", required_argument, NULL, 'a' },
		{ "max-subscribers", required_argument, NULL, 's' },
		{ "relay-fanout", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = enable ? "publish" : "unpublish";
	long long entries = -1, tombs = -1, age = -1, subs = -1, fanout = -1;
	struct nl_msg *msg;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == '?' || !enable)
			return bad_option(OP, what, argv);
		if (c == 'a') {
			if (parse_long(optarg, 0, 2592000, &age) < 0)
				return usage_error(OP, what,
						   "'%s': must be seconds in 0..2592000 (0: no age bound)",
						   optarg);
			continue;
		}
		if (c == 's') {
			if (parse_long(optarg, 1, 262144, &subs) < 0)
				return usage_error(OP, what,
						   "'%s': must be an integer in 1..262144",
						   optarg);
			continue;
		}
		if (c == 'k') {
			if (parse_long(optarg, 1, 16, &fanout) < 0)
				return usage_error(OP, what,
						   "'%s': must be an integer in 1..16 (1: a chain)",
						   optarg);
			continue;
		}
		if (parse_long(optarg, c == 'e' ? 1 : 0, 262144,
			       c == 'e' ? &entries : &tombs) < 0)
			return usage_error(OP, what,
					   "'%s': must be an integer in 0..262144 (entries from 1)",
					   optarg);
	}
	if (optind < argc)
		return usage_error(OP, what, "unexpected argument '%s'",
				   argv[optind]);
	if (nm_open(what))
		return 1;
	msg = lnl_msg(NIDMAP_CMD_PUBLISH, false);
	if (msg) {
		nla_put_u8(msg, NIDMAP_A_ENABLE, enable);
		if (entries >= 0)
			nla_put_u32(msg, NIDMAP_A_MAX_ENTRIES, entries);
		if (tombs >= 0)
			nla_put_u32(msg, NIDMAP_A_MAX_TOMBSTONES, tombs);
		if (age >= 0)
			nla_put_u32(msg, NIDMAP_A_TOMB_AGE, age);
		if (subs >= 0)
			nla_put_u32(msg, NIDMAP_A_MAX_SUBS, subs);
		if (fanout >= 0)
			nla_put_u32(msg, NIDMAP_A_RELAY_FANOUT, fanout);
	}
	return nm_run(msg, what, enable ? "cannot publish" :
		      "cannot stop publishing", NULL, NULL);
}

/* After the options: no argument left, and a valid --publisher. */
static int nm_args_end(int argc, char **argv, const char *what,
		       const char *publisher)
{
	if (optind < argc)
		return usage_error(OP, what, "unexpected argument '%s'",
				   argv[optind]);
	if (!publisher)
		return usage_error(OP, what, "%s", "--publisher NID is needed");
	if (!valid_nid(publisher))
		return usage_error(OP, what, "invalid publisher NID '%s'",
				   publisher);
	return 0;
}

/* subscribe's options: --publisher NID [--relay] [--routes]. */
struct nm_args {
	const char *publisher;
	bool relay;
	bool routes;
};

static int nm_args(int argc, char **argv, const char *what,
		   struct nm_args *a)
{
	static const struct option opts[] = {
		{ "publisher", required_argument, NULL, 'p' },
		{ "relay", no_argument, NULL, 'r' },
		{ "routes", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'p')
			a->publisher = optarg;
		else if (c == 'r')
			a->relay = true;
		else if (c == 'R')
			a->routes = true;
		else
			return bad_option(OP, what, argv);
	}
	return nm_args_end(argc, argv, what, a->publisher);
}

static int nm_subscribe(int argc, char **argv, bool enable)
{
	const char *what = enable ? "subscribe" : "unsubscribe";
	struct nl_msg *msg;
	struct nm_args a;

	if (enable) {
		if (nm_args(argc, argv, what, &a))
			return 1;
	} else if (argc > 1) {
		return usage_error(OP, what, "unexpected argument '%s'",
				   argv[1]);
	}
	if (nm_open(what))
		return 1;
	msg = lnl_msg(NIDMAP_CMD_SUBSCRIBE, false);
	if (msg) {
		nla_put_u8(msg, NIDMAP_A_ENABLE, enable);
		if (enable)
			nla_put_string(msg, NIDMAP_A_PUBLISHER, a.publisher);
		if (enable && a.relay)
			nla_put_flag(msg, NIDMAP_A_RELAY);
		if (enable && a.routes)
			nla_put_flag(msg, NIDMAP_A_ROUTES);
	}
	return nm_run(msg, what, enable ? "cannot subscribe" :
		      "cannot unsubscribe", NULL, NULL);
}

/* NIDs "a,b,c" into a NIDMAP_A_NIDS nest; Return: 0 or the exit code. */
static int nm_put_nids(struct nl_msg *msg, const char *list)
{
	char *copy = strdup(list), *save = NULL, *nid;
	struct nlattr *nest;
	int n = 0, rc = 0;

	if (!copy)
		return 1;
	nest = nla_nest_start(msg, NIDMAP_A_NIDS);
	for (nid = strtok_r(copy, ",", &save); nid && !rc;
	     nid = strtok_r(NULL, ",", &save)) {
		if (!valid_nid(nid))
			rc = usage_error(OP, "register", "invalid NID '%s'",
					 nid);
		else if (++n > NIDMAP_GENL_NIDS_MAX)
			rc = usage_error(OP, "register", "%s",
					 "a target has at most 16 NIDs");
		else
			nla_put_string(msg, NIDMAP_A_NID, nid);
	}
	nla_nest_end(msg, nest);
	free(copy);
	return rc;
}

/* Nets "a,b" into a NIDMAP_A_NETS nest; Return: 0 or the exit code. */
static int nm_put_nets(struct nl_msg *msg, const char *list)
{
	char *copy = strdup(list), *save = NULL, *net;
	struct nlattr *nest;
	int n = 0, rc = 0;

	if (!copy)
		return 1;
	nest = nla_nest_start(msg, NIDMAP_A_NETS);
	for (net = strtok_r(copy, ",", &save); net && !rc;
	     net = strtok_r(NULL, ",", &save)) {
		if (!valid_net(net) || !strcmp(net, "lo"))
			rc = usage_error(OP, "register", "invalid net '%s'",
					 net);
		else if (++n > 16)
			rc = usage_error(OP, "register", "%s",
					 "a router routes to at most 16 nets");
		else
			nla_put_string(msg, NIDMAP_A_NET, net);
	}
	nla_nest_end(msg, nest);
	free(copy);
	return rc;
}

#if NIDMAP_GENL_TARGETS_MAX != 256
#error "the usage text says at most 256 targets"
#endif

/* The targets of one register or remove: --name, each with its --nid. */
struct nm_batch {
	const char *publisher;
	const char *nets;	/* --router --net: one target, a router */
	bool router;
	const char *name[NIDMAP_GENL_TARGETS_MAX];
	const char *nids[NIDMAP_GENL_TARGETS_MAX];
	int n;
};

static int nm_batch_args(int argc, char **argv, const char *what,
			 bool remove, struct nm_batch *b)
{
	static const struct option opts[] = {
		{ "publisher", required_argument, NULL, 'p' },
		{ "name", required_argument, NULL, 'n' },
		{ "nid", required_argument, NULL, 'd' },
		{ "router", no_argument, NULL, 'r' },
		{ "net", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	memset(b, 0, sizeof(*b));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'p') {
			b->publisher = optarg;
		} else if (c == 'n') {
			if (b->n == NIDMAP_GENL_TARGETS_MAX)
				return usage_error(OP, what, "%s",
						   "at most 256 targets at once");
			b->name[b->n++] = optarg;
		} else if ((c == 'r' || c == 'N') && remove) {
			return usage_error(OP, what, "%s",
					   "a removal takes no --router or --net");
		} else if (c == 'r') {
			b->router = true;
		} else if (c == 'N') {
			b->nets = optarg;
		} else if (c == 'd' && remove) {
			return usage_error(OP, what, "%s",
					   "a removal takes no --nid");
		} else if (c == 'd') {
			/* Each --nid is the NIDs of the --name before it. */
			if (!b->n || b->nids[b->n - 1])
				return usage_error(OP, what, "%s",
						   "each --nid follows its --name");
			b->nids[b->n - 1] = optarg;
		} else {
			return bad_option(OP, what, argv);
		}
	}
	if (nm_args_end(argc, argv, what, b->publisher))
		return 1;
	if (!b->n)
		return usage_error(OP, what, "%s", "--name TARGET is needed");
	if (b->router != !!b->nets)
		return usage_error(OP, what, "%s",
				   "--router and --net NET[,NET...] go together");
	if (b->router && b->n > 1)
		return usage_error(OP, what, "%s",
				   "a router registers alone (one --name)");
	for (i = 0; i < b->n && !remove; i++)
		if (!b->nids[i])
			return usage_error(OP, what,
					   "--nid NID[,NID...] is needed for %s",
					   b->name[i]);
	return 0;
}

/* Target @i of @b: its NAME and NIDS (or DELETE) in @msg. */
static int nm_put_target(struct nl_msg *msg, const struct nm_batch *b,
			 int i, bool remove)
{
	nla_put_string(msg, NIDMAP_A_NAME, b->name[i]);
	if (!remove)
		return nm_put_nids(msg, b->nids[i]);
	nla_put_flag(msg, NIDMAP_A_DELETE);
	return 0;
}

/*
 * register or remove: one target as NAME and NIDS (or DELETE), several
 * (each --name with its --nid) as one REGISTER of NIDMAP_A_TARGETS: the
 * publisher takes them all, each the next version, or refuses them all.
 */
static int nm_register(int argc, char **argv, bool remove)
{
	const char *what = remove ? "remove" : "register";
	struct nlattr *all, *one;
	struct nm_batch b;
	struct nl_msg *msg;
	char prefix[128];
	int i, rc = 0;

	if (nm_batch_args(argc, argv, what, remove, &b))
		return 1;
	if (nm_open(what))
		return 1;
	msg = lnl_msg(NIDMAP_CMD_REGISTER, false);
	if (msg) {
		nla_put_string(msg, NIDMAP_A_PUBLISHER, b.publisher);
		if (b.n == 1) {
			rc = nm_put_target(msg, &b, 0, remove);
			if (!rc && b.router) {
				nla_put_flag(msg, NIDMAP_A_ROUTER);
				rc = nm_put_nets(msg, b.nets);
			}
		} else {
			all = nla_nest_start(msg, NIDMAP_A_TARGETS);
			for (i = 0; i < b.n && !rc; i++) {
				one = nla_nest_start(msg, i + 1);
				rc = nm_put_target(msg, &b, i, remove);
				nla_nest_end(msg, one);
			}
			nla_nest_end(msg, all);
		}
		if (rc) {
			nlmsg_free(msg);
			return 1;
		}
	}
	if (b.n == 1)
		snprintf(prefix, sizeof(prefix), "cannot %s %s", what,
			 b.name[0]);
	else
		snprintf(prefix, sizeof(prefix), "cannot %s %d targets (%s...)",
			 what, b.n, b.name[0]);
	return nm_run(msg, what, prefix, NULL, NULL);
}

static void nm_emit_state(struct yout *y, struct nlattr *nest)
{
	static const struct {
		int attr;
		const char *key;
		bool u64;
	} keys[] = {
		{ NIDMAP_A_STATE_PUBLISHER, "publisher", false },
		{ NIDMAP_A_STATE_SUBSCRIBED, "subscribed", false },
		{ NIDMAP_A_STATE_EPOCH, "epoch", true },
		{ NIDMAP_A_STATE_VERSION, "version", true },
		{ NIDMAP_A_STATE_HORIZON, "horizon", true },
		{ NIDMAP_A_STATE_ENTRIES, "entries", false },
		{ NIDMAP_A_STATE_TOMBSTONES, "tombstones", false },
		{ NIDMAP_A_STATE_SUBSCRIBERS, "subscribers", false },
		{ NIDMAP_A_STATE_MAX_SUBS, "max_subscribers", false },
		{ NIDMAP_A_STATE_RELAYS, "relays", false },
		{ NIDMAP_A_STATE_DIRECT, "noticed_directly", false },
		{ NIDMAP_A_STATE_DEPTH, "relay_depth", false },
		{ NIDMAP_A_STATE_FANOUT, "relay_fanout", false },
		{ NIDMAP_A_STATE_MAX_ENTRIES, "max_entries", false },
		{ NIDMAP_A_STATE_MAX_TOMBSTONES, "max_tombstones", false },
		{ NIDMAP_A_STATE_TOMB_AGE, "tombstone_age", false },
		{ NIDMAP_A_STATE_RELAY, "relay", false },
		{ NIDMAP_A_STATE_ROUTES, "routes", false },
		{ NIDMAP_A_STATE_ROUTES_INSTALLED, "routes_installed", false },
		{ NIDMAP_A_STATE_ROUTES_ADDED, "routes_added", false },
		{ NIDMAP_A_STATE_ROUTES_REMOVED, "routes_removed", false },
		{ NIDMAP_A_STATE_ROUTES_SKIPPED, "routes_skipped", false },
	};
	struct nlattr *tb[NIDMAP_A_STATE_MAX + 1], *n;
	unsigned int i;
	int rem;

	if (lnl_nest_parse(tb, NIDMAP_A_STATE_MAX, nest) < 0)
		return;
	yout_map(y);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		struct nlattr *a = tb[keys[i].attr];

		if (!a)
			continue;
		if (keys[i].attr == NIDMAP_A_STATE_PUBLISHER)
			yout_kv_str(y, keys[i].key, nla_get_string(a));
		else if (keys[i].attr == NIDMAP_A_STATE_SUBSCRIBED ||
			 keys[i].attr == NIDMAP_A_STATE_RELAY ||
			 keys[i].attr == NIDMAP_A_STATE_ROUTES)
			yout_kv_uint(y, keys[i].key, nla_get_u8(a));
		else if (keys[i].u64)
			yout_kv_uint(y, keys[i].key, nla_get_u64(a));
		else
			yout_kv_uint(y, keys[i].key, nla_get_u32(a));
	}
	/* A relay's set: the NIDs it forwards the publisher's notices to. */
	if (tb[NIDMAP_A_STATE_RELAY_SET]) {
		yout_str(y, "relay_set");
		yout_seq(y);
		nla_for_each_nested(n, tb[NIDMAP_A_STATE_RELAY_SET], rem)
			if (nla_type(n) == NIDMAP_A_NID)
				yout_str(y, nla_get_string(n));
		yout_end_seq(y);
	}
	yout_end_map(y);
}

/* The ids of the keys held, in increasing order, and the signing one. */
static void nm_emit_keys(struct yout *y, struct nlattr **tb)
{
	unsigned int ids[8], n = 0, i, j, t;
	struct nlattr *a;
	char buf[16];
	int rem;

	if (tb[NIDMAP_A_KEYS]) {
		nla_for_each_nested(a, tb[NIDMAP_A_KEYS], rem)
			if (nla_type(a) == NIDMAP_A_KEY_ID &&
			    n < ARRAY_SIZE(ids))
				ids[n++] = nla_get_u32(a);
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
				t = ids[j];
				ids[j] = ids[j - 1];
				ids[j - 1] = t;
			}
		yout_str(y, "keys");
		yout_flow_seq(y);
		for (i = 0; i < n; i++) {
			snprintf(buf, sizeof(buf), "%u", ids[i]);
			yout_str(y, buf);
		}
		yout_end_seq(y);
	}
	if (tb[NIDMAP_A_KEY_SIGNING]) {
		if (nla_get_u32(tb[NIDMAP_A_KEY_SIGNING]))
			yout_kv_uint(y, "signing_key",
				     nla_get_u32(tb[NIDMAP_A_KEY_SIGNING]));
		else
			yout_kv_str(y, "signing_key", "none");
	}
}

static int nm_show_cb(struct nlattr **tb, struct nlattr *head, int len,
		      void *arg)
{
	struct nlattr *ct[NIDMAP_A_CTR_MAX + 1];
	struct yout *y = arg;
	int i;

	(void)head;
	(void)len;
	yout_str(y, "nidmap");
	yout_map(y);
	if (tb[NIDMAP_A_PUB]) {
		yout_str(y, "publisher");
		nm_emit_state(y, tb[NIDMAP_A_PUB]);
	}
	if (tb[NIDMAP_A_SUB]) {
		yout_str(y, "subscriber");
		nm_emit_state(y, tb[NIDMAP_A_SUB]);
	}
	nm_emit_keys(y, tb);
	if (tb[NIDMAP_A_COUNTERS] &&
	    lnl_nest_parse(ct, NIDMAP_A_CTR_MAX, tb[NIDMAP_A_COUNTERS]) >= 0) {
		yout_str(y, "counters");
		yout_map(y);
		for (i = NIDMAP_A_CTR_RX; i <= NIDMAP_A_CTR_MAX; i++)
			if (ct[i] && ctr_names[i])
				yout_kv_uint(y, ctr_names[i],
					     nla_get_u64(ct[i]));
		yout_end_map(y);
	}
	yout_end_map(y);
	return 0;
}

static int nm_show(int argc, char **argv)
{
	struct yout y;
	int rc;

	if (argc > 1)
		return usage_error(OP, "show", "unexpected argument '%s'",
				   argv[1]);
	if (nm_open("show"))
		return 1;
	yout_begin(&y, stdout);
	yout_map(&y);
	rc = nm_run(lnl_msg(NIDMAP_CMD_SHOW, false), "show",
		    "cannot show nidmap", nm_show_cb, &y);
	yout_end_map(&y);
	return yout_end(&y) < 0 ? 1 : rc;
}

/* An entry's keys (name, version, router, NIDs in failover order, nets). */
static int nm_emit_entry(struct yout *y, struct nlattr *entry,
			 const char *source)
{
	struct nlattr *et[NIDMAP_A_ENT_MAX + 1], *a;
	int rem;

	if (!entry || lnl_nest_parse(et, NIDMAP_A_ENT_MAX, entry) < 0 ||
	    !et[NIDMAP_A_ENT_NAME] || !et[NIDMAP_A_ENT_VERSION])
		return -EPROTO;
	yout_map(y);
	yout_kv_str(y, "name", nla_get_string(et[NIDMAP_A_ENT_NAME]));
	yout_kv_uint(y, "version", nla_get_u64(et[NIDMAP_A_ENT_VERSION]));
	if (source)
		yout_kv_str(y, "source", source);
	if (et[NIDMAP_A_ENT_FLAGS] && nla_get_u32(et[NIDMAP_A_ENT_FLAGS]) & 2)
		yout_kv_str(y, "router", "yes");
	yout_str(y, "nids");
	yout_seq(y);
	if (et[NIDMAP_A_ENT_NIDS])
		nla_for_each_nested(a, et[NIDMAP_A_ENT_NIDS], rem)
			if (nla_type(a) == NIDMAP_A_NID)
				yout_str(y, nla_get_string(a));
	yout_end_seq(y);
	/* A router's nets, after its NIDs (nm_table in the tests reads those). */
	if (et[NIDMAP_A_ENT_NETS]) {
		yout_str(y, "nets");
		yout_seq(y);
		nla_for_each_nested(a, et[NIDMAP_A_ENT_NETS], rem)
			if (nla_type(a) == NIDMAP_A_NET)
				yout_str(y, nla_get_string(a));
		yout_end_seq(y);
	}
	yout_end_map(y);
	return 0;
}

static int nm_table_cb(struct nlattr **tb, struct nlattr *head, int len,
		       void *arg)
{
	(void)head;
	(void)len;
	return nm_emit_entry(arg, tb[NIDMAP_A_ENTRY], NULL);
}

static int nm_table(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "copy", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	bool copy = false;
	struct nl_msg *msg;
	struct yout y;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'c')
			return bad_option(OP, "table", argv);
		copy = true;
	}
	if (optind < argc)
		return usage_error(OP, "table", "unexpected argument '%s'",
				   argv[optind]);
	if (nm_open("table"))
		return 1;
	msg = lnl_msg(NIDMAP_CMD_TABLE, true);
	if (msg)
		nla_put_u32(msg, NIDMAP_A_SOURCE, copy ?
			    NIDMAP_SOURCE_SUBSCRIBER : NIDMAP_SOURCE_PUBLISHER);
	yout_begin(&y, stdout);
	yout_map(&y);
	yout_str(&y, "nidmap_table");
	yout_seq(&y);
	rc = nm_run(msg, "table", "cannot list the table", nm_table_cb, &y);
	yout_end_seq(&y);
	yout_end_map(&y);
	return yout_end(&y) < 0 ? 1 : rc;
}

static int nm_lookup_cb(struct nlattr **tb, struct nlattr *head, int len,
			void *arg)
{
	static const char * const names[] = {
		[NIDMAP_SOURCE_PUBLISHER]	= "publisher",
		[NIDMAP_SOURCE_SUBSCRIBER]	= "copy",
		[NIDMAP_SOURCE_DNS]		= "dns",
	};
	u32 src = tb[NIDMAP_A_SOURCE] ? nla_get_u32(tb[NIDMAP_A_SOURCE]) : 0;

	(void)head;
	(void)len;
	return nm_emit_entry(arg, tb[NIDMAP_A_ENTRY],
			     src < ARRAY_SIZE(names) && names[src] ?
			     names[src] : "unknown");
}

static int nm_lookup(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL;
	struct nl_msg *msg;
	char prefix[128];
	struct yout y;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'n')
			return bad_option(OP, "lookup", argv);
		name = optarg;
	}
	if (optind < argc)
		return usage_error(OP, "lookup", "unexpected argument '%s'",
				   argv[optind]);
	if (!name)
		return usage_error(OP, "lookup", "%s", "--name TARGET is needed");
	if (strlen(name) >= NIDMAP_GENL_NAME_LEN)
		return usage_error(OP, "lookup", "target name '%s' is too long",
				   name);
	if (nm_open("lookup"))
		return 1;
	msg = lnl_msg(NIDMAP_CMD_LOOKUP, false);
	if (msg)
		nla_put_string(msg, NIDMAP_A_NAME, name);
	snprintf(prefix, sizeof(prefix), "cannot look up %s", name);
	yout_begin(&y, stdout);
	yout_map(&y);
	yout_str(&y, "nidmap_lookup");
	rc = nm_run(msg, "lookup", prefix, nm_lookup_cb, &y);
	yout_end_map(&y);
	return yout_end(&y) < 0 ? 1 : rc;
}

/* The secret file's size bound: NIDMAP_AUTH_KEY_MAX and a newline. */
#define NM_SECRET_MIN	16
#define NM_SECRET_MAX	64

/*
 * --secret-file FILE into @buf (NM_SECRET_MAX + 2 bytes): the file's
 * bytes less one trailing newline, 16 to 64 of them, from a regular
 * file its owner alone may access.  Return: the secret's length, or -1
 * said why.
 */
static int nm_read_secret(const char *path, unsigned char *buf)
{
	const char *what = "key add";
	size_t len = 0;
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		report_error(OP, what, errno, "cannot open the secret file %s: %s",
			     path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		report_error(OP, what, errno, "cannot stat the secret file %s: %s",
			     path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		report_error(OP, what, EINVAL,
			     "the secret file %s is not a regular file", path);
		goto fail;
	}
	if (st.st_mode & 077) {
		report_error(OP, what, EPERM,
			     "permissions %04o of the secret file %s are too open: group and others must have none (chmod 600 %s)",
			     (unsigned int)(st.st_mode & 07777), path, path);
		goto fail;
	}
	/* One byte beyond 64 and a newline: a file too long to be a secret. */
	while (len < NM_SECRET_MAX + 2) {
		n = read(fd, buf + len, NM_SECRET_MAX + 2 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			report_error(OP, what, errno,
				     "cannot read the secret file %s: %s", path,
				     strerror(errno));
			goto fail;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	if (len && buf[len - 1] == '\n')
		len--;
	if (len > NM_SECRET_MAX) {
		report_error(OP, what, EINVAL,
			     "the secret file %s holds more than 64 bytes: a secret is 16 to 64 bytes (less one trailing newline)",
			     path);
		goto wipe;
	}
	if (len < NM_SECRET_MIN) {
		report_error(OP, what, EINVAL,
			     "the secret file %s holds only %d bytes: a secret is 16 to 64 bytes (less one trailing newline)",
			     path, (int)len);
		goto wipe;
	}
	return len;
fail:
	close(fd);
wipe:
	explicit_bzero(buf, NM_SECRET_MAX + 2);
	return -1;
}

/* key add|use|del: --id N (1 to 2^32 - 1), and for add --secret-file. */
static int nm_key(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "secret-file", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		const char *name;
		const char *what;
		const char *verb;
		int cmd;
	} subs[] = {
		{ "add", "key add", "add", NIDMAP_CMD_KEY_ADD },
		{ "use", "key use", "use", NIDMAP_CMD_KEY_USE },
		{ "del", "key del", "delete", NIDMAP_CMD_KEY_DEL },
	};
	const char *sub = argc > 1 ? argv[1] : "", *file = NULL;
	unsigned char secret[NM_SECRET_MAX + 2];
	long long id = -1;
	struct nl_msg *msg;
	unsigned int s;
	char prefix[64];
	int c, len = 0;

	for (s = 0; s < ARRAY_SIZE(subs); s++)
		if (!strcmp(sub, subs[s].name))
			break;
	if (s == ARRAY_SIZE(subs))
		return usage_error(OP, "key",
				   "unknown subcommand '%s': use add, use or del",
				   sub);
	argc--;
	argv++;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'i') {
			if (parse_long(optarg, 1, 4294967295LL, &id) < 0)
				return usage_error(OP, subs[s].what,
						   "'%s': a key's id is an integer in 1..4294967295",
						   optarg);
		} else if (c == 's' && subs[s].cmd == NIDMAP_CMD_KEY_ADD) {
			file = optarg;
		} else if (c == 's') {
			return usage_error(OP, subs[s].what, "%s",
					   "only key add takes --secret-file");
		} else {
			return bad_option(OP, subs[s].what, argv);
		}
	}
	if (optind < argc)
		return usage_error(OP, subs[s].what, "unexpected argument '%s'",
				   argv[optind]);
	if (id < 0)
		return usage_error(OP, subs[s].what, "%s",
				   "--id N is needed");
	if (subs[s].cmd == NIDMAP_CMD_KEY_ADD && !file)
		return usage_error(OP, subs[s].what, "%s",
				   "--secret-file FILE is needed");
	if (file) {
		len = nm_read_secret(file, secret);
		if (len < 0)
			return 1;
	}
	if (nm_open(subs[s].what)) {
		explicit_bzero(secret, sizeof(secret));
		return 1;
	}
	msg = lnl_msg(subs[s].cmd, false);
	if (msg) {
		nla_put_u32(msg, NIDMAP_A_KEY_ID, id);
		if (file)
			nla_put(msg, NIDMAP_A_KEY_SECRET, len, secret);
	}
	/* The request's copy is wiped by lnl_run(), before it is freed. */
	explicit_bzero(secret, sizeof(secret));
	snprintf(prefix, sizeof(prefix), "cannot %s key %lld", subs[s].verb,
		 id);
	return nm_run(msg, subs[s].what, prefix, NULL, NULL);
}

/* A router's NIDs, from a LOOKUP's entry. */
struct nm_router {
	char (*nids)[LNET_GENL_NID_LEN];
	int max;
	int n;
	bool router;
};

static int nm_router_cb(struct nlattr **tb, struct nlattr *head, int len,
			void *arg)
{
	struct nlattr *et[NIDMAP_A_ENT_MAX + 1], *a;
	struct nm_router *r = arg;
	int rem;

	(void)head;
	(void)len;
	if (!tb[NIDMAP_A_ENTRY] ||
	    lnl_nest_parse(et, NIDMAP_A_ENT_MAX, tb[NIDMAP_A_ENTRY]) < 0)
		return -EPROTO;
	r->router = et[NIDMAP_A_ENT_FLAGS] &&
		    nla_get_u32(et[NIDMAP_A_ENT_FLAGS]) & 2;	/* ROUTER */
	if (et[NIDMAP_A_ENT_NIDS])
		nla_for_each_nested(a, et[NIDMAP_A_ENT_NIDS], rem)
			if (nla_type(a) == NIDMAP_A_NID && r->n < r->max)
				snprintf(r->nids[r->n++], LNET_GENL_NID_LEN,
					 "%s", nla_get_string(a));
	return 0;
}

/**
 * nidmap_router_nids() - a registered router's NIDs, in failover order
 * @name: its name in the nidmap table (this node's copy, or the table
 *	it publishes: as "nidmap lookup")
 * @nids: room for @max NIDs (char [][LNET_GENL_NID_LEN])
 * @max: its size
 * @why: set to the reason on failure
 * @wsz: its size
 *
 * Opens and closes the nidmap family (the caller opens lnet's after).
 *
 * Return: the number of NIDs, or -1 with @why set (no such target, not
 * a router, lnet_nidmap not reachable).
 */
int nidmap_router_nids(const char *name, void *nids, int max, char *why,
		       size_t wsz)
{
	struct nm_router r = { .nids = nids, .max = max };
	struct lnl_error err;
	struct nl_msg *msg;
	int rc;

	if (strlen(name) >= NIDMAP_GENL_NAME_LEN) {
		snprintf(why, wsz, "not a NID, and too long for a target name");
		return -1;
	}
	if (lnl_open_family(NIDMAP_GENL_NAME, "lnet_nidmap.ko", NIDMAP_A_MAX,
			    &err) < 0) {
		snprintf(why, wsz,
			 "not a NID, and no nidmap table to resolve it as a router name (%s)",
			 err.msg[0] ? err.msg : strerror(err.errnum));
		return -1;
	}
	msg = lnl_msg(NIDMAP_CMD_LOOKUP, false);
	if (!msg) {
		lnl_close();
		snprintf(why, wsz, "out of memory");
		return -1;
	}
	nla_put_string(msg, NIDMAP_A_NAME, name);
	rc = lnl_run(msg, nm_router_cb, &r, &err);
	lnl_close();
	if (rc < 0) {
		snprintf(why, wsz, "not a NID, and %s",
			 err.errnum == ENOENT && !strcmp(err.msg, "no such target") ?
			 "no registered router of that name" :
			 err.msg[0] ? err.msg : strerror(err.errnum));
		return -1;
	}
	if (!r.router) {
		snprintf(why, wsz,
			 "a registered target, but not a router (no --router)");
		return -1;
	}
	if (!r.n) {
		snprintf(why, wsz, "a router without NIDs");
		return -1;
	}
	return r.n;
}

/* --- export and import (conf.c; the "nidmap:" block, plan.h) --- */

/* A registration this node made, as NIDMAP_CMD_REGISTRATIONS lists it. */
struct nm_reg_rec {
	char publisher[NIDMAP_GENL_NID_LEN];
	char name[NIDMAP_GENL_NAME_LEN];
	bool router;
	char nids[NIDMAP_GENL_NIDS_MAX][NIDMAP_GENL_NID_LEN];
	unsigned int n_nids;
	char nets[PLAN_NM_NETS_MAX][LNET_GENL_NET_LEN];
	unsigned int n_nets;
};

/* This node's nidmap configuration: roles, settings, registrations. */
struct nm_conf {
	bool pub;
	long long lim[PLAN_NM_LIMS];	/* -1: not said (an older module) */
	bool sub;
	char sub_pub[NIDMAP_GENL_NID_LEN];
	bool relay, routes;
	struct nm_reg_rec *reg;
	unsigned int n_reg;
};

/* The publisher's settings in SHOW's nest, by enum plan_nm_lim. */
static const int nm_lim_attr[PLAN_NM_LIMS] = {
	[PLAN_NM_MAX_ENTRIES]	= NIDMAP_A_STATE_MAX_ENTRIES,
	[PLAN_NM_MAX_TOMBSTONES] = NIDMAP_A_STATE_MAX_TOMBSTONES,
	[PLAN_NM_TOMB_AGE]	= NIDMAP_A_STATE_TOMB_AGE,
	[PLAN_NM_MAX_SUBS]	= NIDMAP_A_STATE_MAX_SUBS,
	[PLAN_NM_FANOUT]	= NIDMAP_A_STATE_FANOUT,
};

/* And in PUBLISH's request (nidmap publish's options). */
static const int nm_lim_req_attr[PLAN_NM_LIMS] = {
	[PLAN_NM_MAX_ENTRIES]	= NIDMAP_A_MAX_ENTRIES,
	[PLAN_NM_MAX_TOMBSTONES] = NIDMAP_A_MAX_TOMBSTONES,
	[PLAN_NM_TOMB_AGE]	= NIDMAP_A_TOMB_AGE,
	[PLAN_NM_MAX_SUBS]	= NIDMAP_A_MAX_SUBS,
	[PLAN_NM_FANOUT]	= NIDMAP_A_RELAY_FANOUT,
};

/*
 * Are @a and @b the same NID?  The kernel names net 0 without "0"
 * ("tcp"), a file may not ("tcp0"); "tcp1" is not "tcp10".
 */
static bool nm_nid_same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la == lb)
		return !strcmp(a, b);
	if (la > lb)
		return nm_nid_same(b, a);
	return lb == la + 1 && !strncmp(a, b, la) && !strcmp(b + la, "0") &&
	       la && (a[la - 1] < '0' || a[la - 1] > '9');
}

static int nm_conf_show_cb(struct nlattr **tb, struct nlattr *head, int len,
			   void *arg)
{
	struct nlattr *st[NIDMAP_A_STATE_MAX + 1];
	struct nm_conf *c = arg;
	unsigned int i;

	(void)head;
	(void)len;
	if (tb[NIDMAP_A_PUB] &&
	    lnl_nest_parse(st, NIDMAP_A_STATE_MAX, tb[NIDMAP_A_PUB]) >= 0) {
		c->pub = true;
		for (i = 0; i < PLAN_NM_LIMS; i++)
			if (st[nm_lim_attr[i]])
				c->lim[i] = nla_get_u32(st[nm_lim_attr[i]]);
	}
	if (tb[NIDMAP_A_SUB] &&
	    lnl_nest_parse(st, NIDMAP_A_STATE_MAX, tb[NIDMAP_A_SUB]) >= 0 &&
	    st[NIDMAP_A_STATE_PUBLISHER]) {
		c->sub = true;
		snprintf(c->sub_pub, sizeof(c->sub_pub), "%s",
			 nla_get_string(st[NIDMAP_A_STATE_PUBLISHER]));
		c->relay = st[NIDMAP_A_STATE_RELAY] &&
			   nla_get_u8(st[NIDMAP_A_STATE_RELAY]);
		c->routes = st[NIDMAP_A_STATE_ROUTES] &&
			    nla_get_u8(st[NIDMAP_A_STATE_ROUTES]);
	}
	return 0;
}

static int nm_conf_reg_cb(struct nlattr **tb, struct nlattr *head, int len,
			  void *arg)
{
	struct nlattr *et[NIDMAP_A_ENT_MAX + 1], *a;
	struct nm_conf *c = arg;
	struct nm_reg_rec *r;
	int rem;

	(void)head;
	(void)len;
	if (!tb[NIDMAP_A_PUBLISHER] || !tb[NIDMAP_A_ENTRY] ||
	    lnl_nest_parse(et, NIDMAP_A_ENT_MAX, tb[NIDMAP_A_ENTRY]) < 0 ||
	    !et[NIDMAP_A_ENT_NAME])
		return -EPROTO;
	r = realloc(c->reg, (c->n_reg + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	c->reg = r;
	r += c->n_reg++;
	memset(r, 0, sizeof(*r));
	snprintf(r->publisher, sizeof(r->publisher), "%s",
		 nla_get_string(tb[NIDMAP_A_PUBLISHER]));
	snprintf(r->name, sizeof(r->name), "%s",
		 nla_get_string(et[NIDMAP_A_ENT_NAME]));
	r->router = et[NIDMAP_A_ENT_FLAGS] &&
		    nla_get_u32(et[NIDMAP_A_ENT_FLAGS]) & 2;	/* ROUTER */
	if (et[NIDMAP_A_ENT_NIDS])
		nla_for_each_nested(a, et[NIDMAP_A_ENT_NIDS], rem)
			if (nla_type(a) == NIDMAP_A_NID &&
			    r->n_nids < NIDMAP_GENL_NIDS_MAX)
				snprintf(r->nids[r->n_nids++],
					 sizeof(r->nids[0]), "%s",
					 nla_get_string(a));
	if (et[NIDMAP_A_ENT_NETS])
		nla_for_each_nested(a, et[NIDMAP_A_ENT_NETS], rem)
			if (nla_type(a) == NIDMAP_A_NET &&
			    r->n_nets < PLAN_NM_NETS_MAX)
				snprintf(r->nets[r->n_nets++],
					 sizeof(r->nets[0]), "%s",
					 nla_get_string(a));
	return 0;
}

/*
 * Connect to the nidmap family (lnet's, if open, closed: one socket).
 * Return: 0, or -errno with @err set.
 */
static int nm_conf_open(struct lnl_error *err)
{
	lnl_close();
	return lnl_open_family(NIDMAP_GENL_NAME, "lnet_nidmap.ko",
			       NIDMAP_A_MAX, err);
}

/* This node's configuration into @c (the family open); 0 or reported. */
static int nm_conf_get(const char *op, struct nm_conf *c)
{
	struct lnl_error err;
	struct nl_msg *msg;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < PLAN_NM_LIMS; i++)
		c->lim[i] = -1;
	msg = lnl_msg(NIDMAP_CMD_SHOW, false);
	if (!msg) {
		report_error(op, OP, ENOMEM, "%s", "out of memory");
		return -1;
	}
	if (lnl_run(msg, nm_conf_show_cb, c, &err) < 0) {
		report_nl_error(op, OP, "cannot show nidmap", &err);
		return -1;
	}
	msg = lnl_msg(NIDMAP_CMD_REGISTRATIONS, true);
	if (!msg) {
		report_error(op, OP, ENOMEM, "%s", "out of memory");
		return -1;
	}
	if (lnl_run(msg, nm_conf_reg_cb, c, &err) < 0) {
		report_nl_error(op, OP, "cannot list the registrations", &err);
		free(c->reg);
		c->reg = NULL;
		return -1;
	}
	return 0;
}

/* @r's index in @c (same publisher and name), or -1. */
static int nm_conf_find(const struct nm_conf *c, const char *publisher,
			const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n_reg; i++)
		if (!strcmp(c->reg[i].name, name) &&
		    nm_nid_same(c->reg[i].publisher, publisher))
			return i;
	return -1;
}

/* Does the file's registration @p say what the kernel's @r says? */
static bool nm_reg_same(const struct plan_nm_reg *p,
			const struct nm_reg_rec *r)
{
	unsigned int i;

	if (p->router != r->router || p->n_nids != r->n_nids ||
	    p->n_nets != r->n_nets)
		return false;
	for (i = 0; i < p->n_nids; i++)
		if (!nm_nid_same(p->nids[i], r->nids[i]))
			return false;
	for (i = 0; i < p->n_nets; i++)
		if (strcmp(p->nets[i], r->nets[i]))
			return false;
	return true;
}

/*
 * The "nidmap:" block of @c: all of it, or (@only, import --show) what
 * the file names.  Nothing if there is nothing to say.
 */
static void nm_conf_emit(struct yout *y, const struct nm_conf *c,
			 const struct plan_nidmap *only)
{
	bool pub = c->pub && (!only || only->has_pub);
	bool sub = c->sub && (!only || (only->has_sub &&
					nm_nid_same(c->sub_pub,
						    only->sub_pub)));
	unsigned int i, j, n_reg = 0;

	for (i = 0; i < c->n_reg; i++) {
		for (j = 0; only && j < only->n_reg; j++)
			if (!strcmp(only->reg[j].name, c->reg[i].name) &&
			    nm_nid_same(only->reg[j].publisher,
					c->reg[i].publisher))
				break;
		if (!only || j < only->n_reg)
			n_reg++;
	}
	if (!pub && !sub && !n_reg)
		return;
	yout_str(y, "nidmap");
	yout_map(y);
	if (pub) {
		yout_str(y, "publisher");
		yout_map(y);
		for (i = 0; i < PLAN_NM_LIMS; i++)
			if (c->lim[i] >= 0)
				yout_kv_int(y, plan_nm_lim_keys[i], c->lim[i]);
		yout_end_map(y);
	}
	if (sub) {
		yout_str(y, "subscriber");
		yout_map(y);
		yout_kv_str(y, "publisher", c->sub_pub);
		yout_kv_uint(y, "relay", c->relay);
		yout_kv_uint(y, "routes", c->routes);
		yout_end_map(y);
	}
	if (n_reg) {
		yout_str(y, "registrations");
		yout_seq(y);
	}
	for (i = 0; n_reg && i < c->n_reg; i++) {
		const struct nm_reg_rec *r = &c->reg[i];

		for (j = 0; only && j < only->n_reg; j++)
			if (!strcmp(only->reg[j].name, r->name) &&
			    nm_nid_same(only->reg[j].publisher, r->publisher))
				break;
		if (only && j == only->n_reg)
			continue;
		yout_map(y);
		yout_kv_str(y, "publisher", r->publisher);
		yout_kv_str(y, "name", r->name);
		if (r->router)
			yout_kv_str(y, "router", "yes");
		yout_str(y, "nids");
		yout_seq(y);
		for (j = 0; j < r->n_nids; j++)
			yout_str(y, r->nids[j]);
		yout_end_seq(y);
		if (r->n_nets) {
			yout_str(y, "nets");
			yout_seq(y);
			for (j = 0; j < r->n_nets; j++)
				yout_str(y, r->nets[j]);
			yout_end_seq(y);
		}
		yout_end_map(y);
	}
	if (n_reg)
		yout_end_seq(y);
	yout_end_map(y);
}

/**
 * nidmap_reachable() - can an import's "nidmap:" block be applied?
 * @op: for the error report ("import")
 *
 * Checked before an import changes anything.  Leaves no family open.
 *
 * Return: 0, or 1 with the error reported.
 */
int nidmap_reachable(const char *op)
{
	struct lnl_error err;

	if (nm_conf_open(&err) < 0) {
		report_nl_error(op, OP, "cannot reach lnet_nidmap", &err);
		return 1;
	}
	lnl_close();
	return 0;
}

/**
 * nidmap_export() - the "nidmap:" block of lnetctl export
 * @y: the document, in its top-level mapping
 *
 * The roles this node holds (publisher and its settings, subscriber and
 * its publisher), and the registrations it made through netlink that a
 * publisher took, NIDs as they are now (moved with this node's).  Never
 * a key.  No block if lnet_nidmap is not loaded or holds nothing.
 * Closes the family lnl_open*() connected to (lnet's).
 *
 * Return: 0, or 1 with the error reported.
 */
int nidmap_export(struct yout *y)
{
	struct lnl_error err;
	struct nm_conf c;

	if (nm_conf_open(&err) < 0) {
		if (err.errnum == ENOENT)
			return 0;	/* lnet_nidmap not loaded */
		report_nl_error("export", OP, "cannot reach lnet_nidmap", &err);
		return 1;
	}
	if (nm_conf_get("export", &c)) {
		lnl_close();
		return 1;
	}
	lnl_close();
	nm_conf_emit(y, &c, NULL);
	free(c.reg);
	return 0;
}

/* A REGISTER of one target (or its removal: @nids NULL), sent. */
static int nm_send_reg(const char *publisher, const char *name,
		       const char *const *nids, unsigned int n_nids,
		       bool router, const char *const *nets,
		       unsigned int n_nets, struct lnl_error *err)
{
	struct nlattr *nest;
	struct nl_msg *msg;
	unsigned int i;

	msg = lnl_msg(NIDMAP_CMD_REGISTER, false);
	if (!msg) {
		err->errnum = ENOMEM;
		err->msg[0] = '\0';
		return -ENOMEM;
	}
	nla_put_string(msg, NIDMAP_A_PUBLISHER, publisher);
	nla_put_string(msg, NIDMAP_A_NAME, name);
	if (!nids) {
		nla_put_flag(msg, NIDMAP_A_DELETE);
		return lnl_run(msg, NULL, NULL, err);
	}
	nest = nla_nest_start(msg, NIDMAP_A_NIDS);
	for (i = 0; i < n_nids; i++)
		nla_put_string(msg, NIDMAP_A_NID, nids[i]);
	nla_nest_end(msg, nest);
	if (router) {
		nla_put_flag(msg, NIDMAP_A_ROUTER);
		nest = nla_nest_start(msg, NIDMAP_A_NETS);
		for (i = 0; i < n_nets; i++)
			nla_put_string(msg, NIDMAP_A_NET, nets[i]);
		nla_nest_end(msg, nest);
	}
	return lnl_run(msg, NULL, NULL, err);
}

/* The kernel's registration @r sent again (undo of a replacement). */
static int nm_send_rec(const struct nm_reg_rec *r, struct lnl_error *err)
{
	const char *nids[NIDMAP_GENL_NIDS_MAX], *nets[PLAN_NM_NETS_MAX];
	unsigned int i;

	for (i = 0; i < r->n_nids; i++)
		nids[i] = r->nids[i];
	for (i = 0; i < r->n_nets; i++)
		nets[i] = r->nets[i];
	return nm_send_reg(r->publisher, r->name, nids, r->n_nids, r->router,
			   nets, r->n_nets, err);
}

static int nm_send_role(int cmd, bool enable, const struct plan_nidmap *nm,
			struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(cmd, false);
	unsigned int i;

	if (!msg) {
		err->errnum = ENOMEM;
		err->msg[0] = '\0';
		return -ENOMEM;
	}
	nla_put_u8(msg, NIDMAP_A_ENABLE, enable);
	if (enable && cmd == NIDMAP_CMD_PUBLISH) {
		for (i = 0; i < PLAN_NM_LIMS; i++)
			if (nm->lim[i] >= 0)
				nla_put_u32(msg, nm_lim_req_attr[i],
					    nm->lim[i]);
	} else if (enable) {
		nla_put_string(msg, NIDMAP_A_PUBLISHER, nm->sub_pub);
		if (nm->relay)
			nla_put_flag(msg, NIDMAP_A_RELAY);
		if (nm->routes)
			nla_put_flag(msg, NIDMAP_A_ROUTES);
	}
	return lnl_run(msg, NULL, NULL, err);
}

/*
 * Undo what nidmap_import_add() did: the first @n registrations (@done[i]:
 * 0 skipped, 1 new, removed; 2 + j replaced kernel's j, sent again), the
 * subscription, the publisher role, in the reverse order.
 */
static void nm_undo_add(const struct plan_nidmap *nm, const struct nm_conf *c,
			const unsigned int *done, unsigned int n, bool sub,
			bool pub)
{
	const struct plan_nm_reg *r;
	struct lnl_error err;

	while (n--) {
		r = &nm->reg[n];
		if (done[n] == 1)
			nm_send_reg(r->publisher, r->name, NULL, 0, false, NULL,
				    0, &err);
		else if (done[n] >= 2)
			nm_send_rec(&c->reg[done[n] - 2], &err);
	}
	if (sub)
		nm_send_role(NIDMAP_CMD_SUBSCRIBE, false, nm, &err);
	if (pub)
		nm_send_role(NIDMAP_CMD_PUBLISH, false, nm, &err);
}

/**
 * nidmap_import_add() - apply an import's "nidmap:" block
 * @nm: the block, as plan_doc() checked it
 *
 * Publish (with the settings given; a node that publishes already is
 * refused, as a second "nidmap publish"), subscribe, then register each
 * target with its publisher, in the file's order.  A registration this
 * node made already, the same, is not sent again.  If the kernel or a
 * publisher refuses a step, what this block did is undone (a target
 * registered removed, one it replaced registered again, the roles
 * stopped) and the refusal reported.  Closes the family lnl_open*()
 * connected to; leaves none open.
 *
 * Return: 0, or 1 with the error reported and this block undone.
 */
int nidmap_import_add(const struct plan_nidmap *nm)
{
	unsigned int *done = NULL, i;
	bool pub = false, sub = false;
	struct lnl_error err;
	char prefix[192];
	struct nm_conf c;
	int at, rc = 1;

	if (nm_conf_open(&err) < 0) {
		report_nl_error("add", OP, "cannot reach lnet_nidmap", &err);
		return 1;
	}
	if (nm_conf_get("add", &c))
		goto out_close;
	done = calloc(nm->n_reg + 1, sizeof(*done));
	if (!done) {
		report_error("add", OP, ENOMEM, "%s", "out of memory");
		goto out;
	}
	if (nm->has_pub) {
		if (nm_send_role(NIDMAP_CMD_PUBLISH, true, nm, &err) < 0) {
			report_nl_error("add", OP, "cannot publish", &err);
			goto out;
		}
		pub = true;
	}
	if (nm->has_sub) {
		if (nm_send_role(NIDMAP_CMD_SUBSCRIBE, true, nm, &err) < 0) {
			nm_undo_add(nm, &c, done, 0, false, pub);
			snprintf(prefix, sizeof(prefix),
				 "cannot subscribe to %s", nm->sub_pub);
			report_nl_error("add", OP, prefix, &err);
			goto out;
		}
		sub = true;
	}
	for (i = 0; i < nm->n_reg; i++) {
		const struct plan_nm_reg *r = &nm->reg[i];

		at = nm_conf_find(&c, r->publisher, r->name);
		if (at >= 0 && nm_reg_same(r, &c.reg[at]))
			continue;	/* done[i] 0: registered already */
		if (nm_send_reg(r->publisher, r->name, r->nids, r->n_nids,
				r->router, r->nets, r->n_nets, &err) < 0) {
			nm_undo_add(nm, &c, done, i, sub, pub);
			snprintf(prefix, sizeof(prefix),
				 "cannot register %s with %s", r->name,
				 r->publisher);
			report_nl_error("add", OP, prefix, &err);
			goto out;
		}
		done[i] = at >= 0 ? 2 + at : 1;
	}
	rc = 0;
out:
	free(done);
	free(c.reg);
out_close:
	lnl_close();
	return rc;
}

/**
 * nidmap_import_del() - import --del of a "nidmap:" block
 * @nm: the block, as plan_doc() checked it
 *
 * Everything the block names must be there first (this node publishes;
 * it subscribes to that publisher; each registration, by publisher and
 * name, is one this node made), or nothing changes.  Then the
 * registrations are removed, the subscription and the publisher role
 * stopped.  Closes the family lnl_open*() connected to.
 *
 * Return: 0, or 1 with the error reported.
 */
int nidmap_import_del(const struct plan_nidmap *nm)
{
	struct lnl_error err;
	char prefix[192];
	struct nm_conf c;
	unsigned int i;
	int rc = 1;

	if (nm_conf_open(&err) < 0) {
		report_nl_error("del", OP, "cannot reach lnet_nidmap", &err);
		return 1;
	}
	if (nm_conf_get("del", &c))
		goto out_close;
	if (nm->has_pub && !c.pub) {
		report_error("del", OP, ENOENT, "this node does not publish%s",
			     "");
		goto out;
	}
	if (nm->has_sub && (!c.sub || !nm_nid_same(c.sub_pub, nm->sub_pub))) {
		report_error("del", OP, ENOENT,
			     "this node does not subscribe to %s", nm->sub_pub);
		goto out;
	}
	for (i = 0; i < nm->n_reg; i++) {
		if (nm_conf_find(&c, nm->reg[i].publisher,
				 nm->reg[i].name) < 0) {
			report_error("del", OP, ENOENT,
				     "no registration of %s with %s",
				     nm->reg[i].name, nm->reg[i].publisher);
			goto out;
		}
	}
	for (i = 0; i < nm->n_reg; i++) {
		const struct plan_nm_reg *r = &nm->reg[i];

		if (nm_send_reg(r->publisher, r->name, NULL, 0, false, NULL, 0,
				&err) < 0) {
			snprintf(prefix, sizeof(prefix),
				 "cannot remove %s from %s", r->name,
				 r->publisher);
			report_nl_error("del", OP, prefix, &err);
			goto out;
		}
	}
	if (nm->has_sub &&
	    nm_send_role(NIDMAP_CMD_SUBSCRIBE, false, nm, &err) < 0) {
		report_nl_error("del", OP, "cannot unsubscribe", &err);
		goto out;
	}
	if (nm->has_pub &&
	    nm_send_role(NIDMAP_CMD_PUBLISH, false, nm, &err) < 0) {
		report_nl_error("del", OP, "cannot stop publishing", &err);
		goto out;
	}
	rc = 0;
out:
	free(c.reg);
out_close:
	lnl_close();
	return rc;
}

/**
 * nidmap_import_show() - import --show of a "nidmap:" block
 * @y: the document, in its top-level mapping
 * @nm: the block
 *
 * This node's configuration of what the block names (its roles, its
 * registrations with those publishers and names), in export's shape.
 * Closes the family lnl_open*() connected to.
 *
 * Return: 0, or 1 with the error reported.
 */
int nidmap_import_show(struct yout *y, const struct plan_nidmap *nm)
{
	struct lnl_error err;
	struct nm_conf c;

	if (nm_conf_open(&err) < 0) {
		report_nl_error("show", OP, "cannot reach lnet_nidmap", &err);
		return 1;
	}
	if (nm_conf_get("show", &c)) {
		lnl_close();
		return 1;
	}
	lnl_close();
	nm_conf_emit(y, &c, nm);
	free(c.reg);
	return 0;
}

/**
 * cmd_nidmap() - "lnetctl nidmap ..."
 * @argc: arguments, from "nidmap"
 * @argv: them
 *
 * Return: the exit code.
 */
int cmd_nidmap(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	argc--;
	argv++;
	if (!strcmp(sub, "publish") || !strcmp(sub, "unpublish"))
		return nm_publish(argc, argv, sub[0] == 'p');
	if (!strcmp(sub, "subscribe") || !strcmp(sub, "unsubscribe"))
		return nm_subscribe(argc, argv, sub[0] == 's');
	if (!strcmp(sub, "register") || !strcmp(sub, "remove"))
		return nm_register(argc, argv, !strcmp(sub, "remove"));
	if (!strcmp(sub, "show"))
		return nm_show(argc, argv);
	if (!strcmp(sub, "table"))
		return nm_table(argc, argv);
	if (!strcmp(sub, "lookup"))
		return nm_lookup(argc, argv);
	if (!strcmp(sub, "key"))
		return nm_key(argc, argv);
	return usage_error(OP, sub, "unknown subcommand '%s'", sub);
}
