// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl: configure LNet through the "lnet" generic netlink family.
 * Command names, options and YAML output follow Lustre's lnetctl; see
 * Documentation/lnetctl.rst.  Every argument is checked before anything
 * is sent, and the kernel checks it again.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"
#include "plan.h"

#define IFNAME_MAX	15	/* IFNAMSIZ - 1 */

/* --- values --- */

/* The kernel's own grammar, lnet/nidparse.c, is compiled into lnetctl. */
bool valid_net(const char *s)
{
	u32 net;

	return strlen(s) < LNET_GENL_NET_LEN && !lnet_net_from_str(s, &net);
}

/* A NID the kernel accepts, "<?>" refused. */
bool valid_nid(const char *s)
{
	struct lnet_nid nid;

	return strlen(s) < LNET_GENL_NID_LEN && !lnet_nid_from_str(s, &nid) &&
	       !lnet_nid_is_any(&nid);
}

/* Return: 0, -EINVAL if @s is not an integer, -ERANGE if out of range. */
int parse_long(const char *s, long long min, long long max, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 0);
	if (!*s || *end || errno == EINVAL)
		return -EINVAL;
	if (errno == ERANGE || *out < min || *out > max)
		return -ERANGE;
	return 0;
}

static bool valid_ifname(const char *s)
{
	size_t len = strlen(s);

	/* "eth0", or an alias label "eth0:1" (its address, on eth0) */
	return len && len <= IFNAME_MAX && !strpbrk(s, "/[], \t\n") &&
	       s[0] != ':' && s[len - 1] != ':' && strcmp(s, ".") &&
	       strcmp(s, "..");
}

const struct tunable_def tunable_defs[] = {
	{ "peer_timeout", "peer-timeout", LNET_TUN_A_PEER_TIMEOUT,
	  0, LNET_GENL_PEER_TIMEOUT_MAX, false },
	{ "peer_credits", "peer-credits", LNET_TUN_A_PEER_CREDITS,
	  1, LNET_GENL_CREDITS_MAX, false },
	{ "peer_buffer_credits", "peer-buffer-credits",
	  LNET_TUN_A_PEER_BUFFER_CREDITS, 0, LNET_GENL_CREDITS_MAX, false },
	{ "credits", "credits", LNET_TUN_A_CREDITS,
	  1, LNET_GENL_CREDITS_MAX, false },
};

const unsigned int n_tunable_defs = ARRAY_SIZE(tunable_defs);

/*
 * In Lustre's order.  ko2iblnd's have no net add option (Lustre's lnetctl
 * has none): YAML "lnd tunables:" only; the kernel sends them for o2ib NIs.
 */
const struct tunable_def lnd_tunable_defs[] = {
	{ "peercredits_hiw", NULL, LNET_LND_TUN_A_PEERCREDITS_HIW,
	  0, LNET_GENL_PEERCREDITS_HIW_MAX, false },
	{ "map_on_demand", NULL, LNET_LND_TUN_A_MAP_ON_DEMAND,
	  0, LNET_GENL_MAP_ON_DEMAND_MAX, false },
	{ "concurrent_sends", NULL, LNET_LND_TUN_A_CONCURRENT_SENDS,
	  0, LNET_GENL_CONCURRENT_SENDS_MAX, false },
	{ "fmr_pool_size", NULL, LNET_LND_TUN_A_FMR_POOL_SIZE,
	  0, LNET_GENL_FMR_POOL_MAX, false },
	{ "fmr_flush_trigger", NULL, LNET_LND_TUN_A_FMR_FLUSH_TRIGGER,
	  0, LNET_GENL_FMR_POOL_MAX, false },
	{ "fmr_cache", NULL, LNET_LND_TUN_A_FMR_CACHE, 0, 1, false },
	{ "ntx", NULL, LNET_LND_TUN_A_NTX, 1, LNET_GENL_NTX_MAX, false },
	{ "conns_per_peer", "conns-per-peer", LNET_LND_TUN_A_CONNS_PER_PEER,
	  0, LNET_GENL_CONNS_PER_PEER_MAX, false },
	/* both LNDs' (spec features 7b, 7c) */
	{ "timeout", NULL, LNET_LND_TUN_A_TIMEOUT, 0, 0, .show_only = true },
	{ "tos", "tos", LNET_LND_TUN_A_TOS, LNET_GENL_TOS_MIN,
	  LNET_GENL_TOS_MAX, false },
};

const unsigned int n_lnd_tunable_defs = ARRAY_SIZE(lnd_tunable_defs);

void net_add_req_init(struct net_add_req *r, const char *net)
{
	unsigned int i;

	r->net = net;
	r->ifname = NULL;
	for (i = 0; i <= LNET_TUN_A_MAX; i++)
		r->tun[i] = -1;
	for (i = 0; i <= LNET_LND_TUN_A_MAX; i++)
		r->lnd_tun[i] = LND_TUN_UNSET;
}

/* The parameters of "set" and what the tool knows of their ranges. */
static const struct param_def {
	const char *name;
	long long min, max;
} param_defs[] = {
	{ "numa_range", 0, INT_MAX },
	{ "discovery", 0, 1 },
	{ "max_interfaces", 0, INT_MAX },
	{ "drop_asym_route", 0, 1 },
	{ "retry_count", 0, INT_MAX },
	{ "transaction_timeout", 1, INT_MAX },
	{ "health_sensitivity", 0, 1000 },
	{ "recovery_interval", 0, INT_MAX },
	{ "router_sensitivity", 0, 100 },
	{ "response_tracking", 0, 3 },
	{ "recovery_limit", 0, INT_MAX },
	{ "max_recovery_ping_interval", 1, INT_MAX },
};

static const struct param_def *param_def(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(param_defs); i++)
		if (!strcmp(param_defs[i].name, name))
			return &param_defs[i];
	return NULL;
}

/* Check "set @name @value" as the tool can; report and return -errno. */
static int check_param(const char *op, const char *name, const char *str,
		       long long *value)
{
	const struct param_def *d = param_def(name);
	int rc;

	if (!d && !strcmp(name, "lnd_timeout")) {
		report_error(op, name, EPERM,
			     "lnd_timeout is read-only: it follows retry_count and transaction_timeout");
		return -EPERM;
	}
	if (!d) {
		report_error(op, name, EINVAL, "unknown parameter '%s'", name);
		return -EINVAL;
	}
	rc = parse_long(str, d->min, d->max, value);
	if (rc < 0) {
		report_error(op, name, EINVAL,
			     "invalid %s value '%s': must be an integer in %lld..%lld",
			     name, str, d->min, d->max);
		return rc;
	}
	return 0;
}

int check_global(const char *name, const char *str, long long *value)
{
	/* import's "global:" block: an unknown key as stock words it */
	if (!param_def(name) && strcmp(name, "lnd_timeout")) {
		report_error("set", name, EINVAL,
			     "invalid key '%s' in 'global'", name);
		return -EINVAL;
	}
	return check_param("set", name, str, value);
}

int open_or_report(const char *op, const char *what)
{
	struct lnl_error err;

	if (lnl_open(&err) < 0) {
		report_nl_error(op, what, "cannot reach LNet", &err);
		return -1;
	}
	return 0;
}

/* --- requests shared with import/export --- */

int do_net_add(const struct net_add_req *r, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_NET_ADD, false);
	struct nlattr *nest;
	bool any_lnd = false;
	unsigned int i;

	if (!msg)
		return lnl_run(NULL, NULL, NULL, err);
	if (nla_put_string(msg, LNET_A_NET, r->net) ||
	    nla_put_string(msg, LNET_A_IFNAME, r->ifname))
		goto too_big;
	nest = nla_nest_start(msg, LNET_A_TUNABLES);
	if (!nest)
		goto too_big;
	for (i = 0; i < n_tunable_defs; i++) {
		int a = tunable_defs[i].attr;

		if (r->tun[a] >= 0 && nla_put_s32(msg, a, r->tun[a]))
			goto too_big;
	}
	nla_nest_end(msg, nest);
	/* LND tunables only when one is given */
	for (i = 0; i < n_lnd_tunable_defs; i++)
		if (r->lnd_tun[lnd_tunable_defs[i].attr] != LND_TUN_UNSET)
			any_lnd = true;
	if (any_lnd) {
		nest = nla_nest_start(msg, LNET_A_LND_TUNABLES);
		if (!nest)
			goto too_big;
		for (i = 0; i < n_lnd_tunable_defs; i++) {
			int a = lnd_tunable_defs[i].attr;

			if (r->lnd_tun[a] != LND_TUN_UNSET &&
			    nla_put_s32(msg, a, r->lnd_tun[a]))
				goto too_big;
		}
		nla_nest_end(msg, nest);
	}
	return lnl_run(msg, NULL, NULL, err);
too_big:
	nlmsg_free(msg);
	return lnl_run(NULL, NULL, NULL, err);
}

int do_net_del(const char *net, const char *ifname, const char *nid,
	       struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_NET_DEL, false);

	if (msg && ((net && nla_put_string(msg, LNET_A_NET, net)) ||
		    (ifname && nla_put_string(msg, LNET_A_IFNAME, ifname)) ||
		    (nid && nla_put_string(msg, LNET_A_NID, nid)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

int do_global_set(const char *name, long long value, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_GLOBAL_SET, false);

	if (msg && (nla_put_string(msg, LNET_A_PARAM_NAME, name) ||
		    nla_put_s64(msg, LNET_A_PARAM_VALUE, value))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

struct params_ctx {
	struct param *p;
	unsigned int n;
};

static int params_cb(struct nlattr **tb, struct nlattr *head, int len,
		     void *arg)
{
	struct params_ctx *ctx = arg;
	struct nlattr *a, *pt[LNET_A_MAX + 1];
	struct param *p;
	int rem;

	(void)tb;
	nla_for_each_attr(a, head, len, rem) {
		if (nla_type(a) != LNET_A_PARAM)
			continue;
		if (lnl_nest_parse(pt, LNET_A_MAX, a) < 0 ||
		    !pt[LNET_A_PARAM_NAME] || !pt[LNET_A_PARAM_VALUE])
			return -EPROTO;
		p = realloc(ctx->p, (ctx->n + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		ctx->p = p;
		p += ctx->n++;
		snprintf(p->name, sizeof(p->name), "%s",
			 nla_get_string(pt[LNET_A_PARAM_NAME]));
		p->value = (long long)nla_get_s64(pt[LNET_A_PARAM_VALUE]);
	}
	return 0;
}

int get_globals(struct param **p, unsigned int *n, struct lnl_error *err)
{
	struct params_ctx ctx = { NULL, 0 };
	int rc;

	rc = lnl_run(lnl_msg(LNET_CMD_GLOBAL_GET, false), params_cb, &ctx,
		     err);
	if (rc < 0) {
		free(ctx.p);
		return rc;
	}
	*p = ctx.p;
	*n = ctx.n;
	return 0;
}

int do_global_get(const char *name, long long *value, struct lnl_error *err)
{
	struct params_ctx ctx = { NULL, 0 };
	struct nl_msg *msg = lnl_msg(LNET_CMD_GLOBAL_GET, false);
	int rc;

	if (msg && nla_put_string(msg, LNET_A_PARAM_NAME, name)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	rc = lnl_run(msg, params_cb, &ctx, err);
	if (!rc && ctx.n != 1) {
		rc = -EPROTO;
		err->errnum = EPROTO;
	}
	if (!rc)
		*value = ctx.p[0].value;
	free(ctx.p);
	return rc;
}

void emit_globals(struct yout *y, const struct param *p, unsigned int n)
{
	unsigned int i;

	yout_str(y, "global");
	yout_map(y);
	for (i = 0; i < n; i++)
		yout_kv_int(y, p[i].name, p[i].value);
	yout_end_map(y);
}

static int ni_cb(struct nlattr **tb, struct nlattr *head, int len, void *arg)
{
	static const int msg_attr[3] = {
		LNET_A_NI_SENT, LNET_A_NI_RECEIVED, LNET_A_NI_DROPPED,
	};
	struct nlattr *nt[LNET_A_MAX + 1];
	struct ni_list *l = arg;
	struct ni_rec *ni;
	int i, j;

	(void)head;
	(void)len;
	if (!tb[LNET_A_NET] || !tb[LNET_A_NID] || !tb[LNET_A_NI_STATUS])
		return -EPROTO;
	ni = realloc(l->ni, (l->n + 1) * sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	l->ni = ni;
	ni += l->n++;
	memset(ni, 0, sizeof(*ni));
	snprintf(ni->net, sizeof(ni->net), "%s",
		 nla_get_string(tb[LNET_A_NET]));
	snprintf(ni->nid, sizeof(ni->nid), "%s",
		 nla_get_string(tb[LNET_A_NID]));
	ni->up = nla_get_u8(tb[LNET_A_NI_STATUS]);
	if (tb[LNET_A_IFNAME])
		snprintf(ni->ifname, sizeof(ni->ifname), "%s",
			 nla_get_string(tb[LNET_A_IFNAME]));
	for (i = 0; i <= LNET_TUN_A_MAX; i++)
		ni->tun[i] = -1;
	if (tb[LNET_A_TUNABLES]) {
		if (lnl_nest_parse(nt, LNET_TUN_A_MAX, tb[LNET_A_TUNABLES]))
			return -EPROTO;
		for (i = 1; i <= LNET_TUN_A_MAX; i++)
			if (nt[i])
				ni->tun[i] = (int)nla_get_u32(nt[i]);
	}
	for (i = 0; i <= LNET_LND_TUN_A_MAX; i++)
		ni->lnd_tun[i] = LND_TUN_NOT_SENT;
	if (tb[LNET_A_LND_TUNABLES]) {
		if (lnl_nest_parse(nt, LNET_LND_TUN_A_MAX,
				   tb[LNET_A_LND_TUNABLES]))
			return -EPROTO;
		for (i = 1; i <= LNET_LND_TUN_A_MAX; i++)
			if (nt[i])
				ni->lnd_tun[i] = (int)nla_get_u32(nt[i]);
		ni->has_lnd_tun = true;
	}
	if (tb[LNET_A_NI_STATS]) {
		if (lnl_nest_u32s(tb[LNET_A_NI_STATS], LNET_NI_STATS_A_MAX,
				  ni->stats))
			return -EPROTO;
		ni->has_stats = true;
	}
	if (tb[LNET_A_LATENCY]) {
		if (lnl_nest_latency(tb[LNET_A_LATENCY], ni->lat))
			return -EPROTO;
		ni->has_lat = true;
	}
	for (j = 0; j < 3; j++) {
		if (!tb[msg_attr[j]])
			continue;
		if (lnl_nest_u32s(tb[msg_attr[j]], LNET_MSG_A_MAX, ni->msgs[j]))
			return -EPROTO;
		ni->has_msgs = true;
	}
	if (tb[LNET_A_UDSP_INFO] &&
	    parse_udsp_info(tb[LNET_A_UDSP_INFO], &ni->udsp))
		return -EPROTO;
	if (tb[LNET_A_HEALTH] && parse_health(tb[LNET_A_HEALTH], &ni->health))
		return -EPROTO;
	return 0;
}

int get_nis(const char *net, int detail, struct ni_list *l,
	    struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_NET_GET, true);
	int rc;

	l->ni = NULL;
	l->n = 0;
	if (msg && ((net && nla_put_string(msg, LNET_A_NET, net)) ||
		    nla_put_u8(msg, LNET_A_DETAIL, detail))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	rc = lnl_run(msg, ni_cb, l, err);
	if (rc < 0) {
		free(l->ni);
		l->ni = NULL;
		l->n = 0;
	}
	return rc;
}

/* The 12 latency keys of Lustre's "statistics", in its order. */
void emit_latency(struct yout *y, const unsigned long long *lat)
{
	static const char * const kind[] = { "put_egress", "get_rtt",
					     "put_ack" };
	static const char * const what[] = { "samples", "min_nsec",
					     "max_nsec", "avg_nsec" };
	char key[32];
	int k, w;

	for (k = 0; k < 3; k++)
		for (w = 0; w < 4; w++) {
			snprintf(key, sizeof(key), "%s_%s", kind[k], what[w]);
			yout_kv_uint(y, key,
				     lat[LNET_LAT_A_PUT_EGRESS_SAMPLES + 4 * k + w]);
		}
}

void emit_counts(struct yout *y, const char *key, const unsigned int *c)
{
	yout_str(y, key);
	yout_map(y);
	yout_kv_uint(y, "put", c[LNET_MSG_A_PUT]);
	yout_kv_uint(y, "get", c[LNET_MSG_A_GET]);
	yout_kv_uint(y, "reply", c[LNET_MSG_A_REPLY]);
	yout_kv_uint(y, "ack", c[LNET_MSG_A_ACK]);
	yout_kv_uint(y, "hello", c[LNET_MSG_A_HELLO]);
	yout_end_map(y);
}

static void emit_ni(struct yout *y, const struct ni_rec *ni, int detail,
		    bool backup)
{
	unsigned int i;

	yout_map(y);
	if (!backup) {
		yout_kv_str(y, "nid", ni->nid);
		yout_kv_str(y, "status", ni->up ? "up" : "down");
	}
	if (ni->ifname[0]) {
		yout_str(y, "interfaces");
		yout_map(y);
		yout_kv_str(y, "0", ni->ifname);
		yout_end_map(y);
	}
	if (!backup && detail >= 1 && ni->has_stats) {
		yout_str(y, "statistics");
		yout_map(y);
		yout_kv_uint(y, "send_count",
			     ni->stats[LNET_NI_STATS_A_SEND_COUNT]);
		yout_kv_uint(y, "recv_count",
			     ni->stats[LNET_NI_STATS_A_RECV_COUNT]);
		yout_kv_uint(y, "drop_count",
			     ni->stats[LNET_NI_STATS_A_DROP_COUNT]);
		if (ni->has_lat)
			emit_latency(y, ni->lat);
		yout_end_map(y);
	}
	if (!backup && detail >= 2 && ni->has_msgs) {
		emit_counts(y, "sent_stats", ni->msgs[0]);
		emit_counts(y, "received_stats", ni->msgs[1]);
		emit_counts(y, "dropped_stats", ni->msgs[2]);
	}
	if (!backup && detail >= 2)
		emit_health(y, &ni->health, false);
	if (!backup && detail >= 4)
		emit_udsp_info(y, &ni->udsp);
	if ((backup || detail >= 1) && ni->tun[LNET_TUN_A_CREDITS] >= 0) {
		yout_str(y, "tunables");
		yout_map(y);
		for (i = 0; i < n_tunable_defs; i++)
			yout_kv_int(y, tunable_defs[i].key,
				    ni->tun[tunable_defs[i].attr]);
		yout_end_map(y);
	}
	/* what the kernel sent: nothing for lo */
	if ((backup || detail >= 1) && ni->has_lnd_tun) {
		yout_str(y, "lnd tunables");
		yout_map(y);
		for (i = 0; i < n_lnd_tunable_defs; i++) {
			const struct tunable_def *d = &lnd_tunable_defs[i];

			if (ni->lnd_tun[d->attr] != LND_TUN_NOT_SENT &&
			    !(backup && d->show_only))
				yout_kv_int(y, d->key, ni->lnd_tun[d->attr]);
		}
		yout_end_map(y);
	}
	yout_end_map(y);
}

void emit_nets(struct yout *y, const struct ni_list *l, int detail,
	       bool backup)
{
	unsigned int i, j, k;

	/* a backup of lo alone has no "net:" at all */
	for (i = 0; i < l->n; i++)
		if (!backup || strcmp(l->ni[i].net, "lo"))
			break;
	if (i == l->n)
		return;
	yout_str(y, "net");
	yout_seq(y);
	for (i = 0; i < l->n; i++) {
		if (backup && !strcmp(l->ni[i].net, "lo"))
			continue;
		for (k = 0; k < i; k++)
			if (!strcmp(l->ni[k].net, l->ni[i].net))
				break;
		if (k < i)
			continue;	/* emitted with its first NI */
		yout_map(y);
		yout_kv_str(y, "net type", l->ni[i].net);
		yout_str(y, "local NI(s)");
		yout_seq(y);
		for (j = i; j < l->n; j++)
			if (!strcmp(l->ni[j].net, l->ni[i].net))
				emit_ni(y, &l->ni[j], detail, backup);
		yout_end_seq(y);
		yout_end_map(y);
	}
	yout_end_seq(y);
}

/* --- commands --- */

int usage_error(const char *op, const char *what, const char *fmt,
		const char *arg)
{
	report_error(op, what, EINVAL, fmt, arg);
	return 1;
}

/* getopt_long() with our own messages: opterr off, '?' reported here. */
int bad_option(const char *op, const char *what, char **argv)
{
	return usage_error(op, what, "unknown or incomplete option '%s'",
			   argv[optind - 1]);
}

static int cmd_lnet(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sub = argc > 1 ? argv[1] : "";
	bool configure = !strcmp(sub, "configure");
	struct lnl_error err;
	struct nl_msg *msg;
	bool all = false;
	int c;

	if (!configure && strcmp(sub, "unconfigure"))
		return usage_error("lnet", "lnet",
				   "unknown subcommand '%s': use configure or unconfigure",
				   sub);
	optind = 1;
	while ((c = getopt_long(argc - 1, argv + 1, "a", opts, NULL)) != -1) {
		if (c != 'a' || !configure)
			return bad_option(sub, "lnet", argv + 1);
		all = true;
	}
	if (optind < argc - 1)
		return usage_error(sub, "lnet", "unexpected argument '%s'",
				   argv[optind + 1]);
	if (open_or_report(sub, "lnet"))
		return 1;
	msg = lnl_msg(configure ? LNET_CMD_CONFIGURE : LNET_CMD_UNCONFIGURE,
		      false);
	if (msg && all && nla_put_flag(msg, LNET_A_ALL)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (lnl_run(msg, NULL, NULL, &err) < 0) {
		report_nl_error(sub, "lnet", configure ?
				"cannot configure LNet" :
				"cannot unconfigure LNet", &err);
		return 1;
	}
	return 0;
}

/* Undo the first @n NIs added by "net add". */
static void undo_adds(const char *net, char **ifs, unsigned int n)
{
	struct lnl_error err;

	while (n--)
		do_net_del(net, ifs[n], NULL, &err);
}

/*
 * "net add --nid ADDR@NET": the interface (or alias label, "eth0:1")
 * whose first IPv4 address is ADDR
 * (an NI takes its interface's first address, so another would not give
 * this NID), copied into @ifname; the net into @net.  Return: 0, or 1 with
 * the error reported.
 */
static int net_of_nid(char *nid, const char **net, char *ifname)
{
	struct ifaddrs *ifas, *ifa;
	struct in_addr want;
	const char *first = NULL;
	char *at = strchr(nid, '@');
	int rc = 1;

	if (!valid_nid(nid) || !at)
		return usage_error("add", "net",
				   "invalid --nid value '%s': not a NID", nid);
	*at = '\0';
	*net = at + 1;
	if (inet_pton(AF_INET, nid, &want) != 1) {
		*at = '@';
		return usage_error("add", "net",
				   "invalid --nid value '%s': not an IPv4 address NID",
				   nid);
	}
	if (getifaddrs(&ifas)) {
		report_error("add", "net", errno, "cannot list the interfaces%s",
			     "");
		*at = '@';
		return 1;
	}
	for (ifa = ifas; ifa; ifa = ifa->ifa_next) {
		const struct sockaddr_in *sin = (void *)ifa->ifa_addr;
		const struct ifaddrs *o;
		bool earlier = false;

		if (!sin || sin->sin_family != AF_INET ||
		    sin->sin_addr.s_addr != want.s_addr)
			continue;
		/* an earlier IPv4 address of the same interface name wins */
		for (o = ifas; o != ifa; o = o->ifa_next)
			if (o->ifa_addr && o->ifa_addr->sa_family == AF_INET &&
			    !strcmp(o->ifa_name, ifa->ifa_name))
				earlier = true;
		if (earlier) {
			first = ifa->ifa_name;
			continue;
		}
		if (!valid_ifname(ifa->ifa_name)) {
			report_error("add", "net", EINVAL,
				     "--nid: %s is on interface '%s', which is not a valid name",
				     nid, ifa->ifa_name);
		} else {
			snprintf(ifname, IFNAME_MAX + 1, "%s", ifa->ifa_name);
			rc = 0;
		}
		break;
	}
	if (!ifa) {
		if (first)
			report_error("add", "net", EINVAL,
				     "--nid: %s is not the first IPv4 address of %s, the one its NI would take",
				     nid, first);
		else
			report_error("add", "net", ENODEV,
				     "--nid: no interface has address %s", nid);
	}
	freeifaddrs(ifas);
	*at = '@';
	return rc;
}

/**
 * local_ipv4_ifs() - this node's IPv4 addresses, for ip2nets_match()
 * @out: the addresses in getifaddrs() order, each with its interface's
 *	name (an alias's label) copied into the same allocation; free()
 *
 * Return: how many, or -errno.
 */
int local_ipv4_ifs(struct ip2nets_if **out)
{
	struct ifaddrs *ifas, *ifa;
	struct ip2nets_if *l;
	unsigned int n = 0;
	char *names;

	*out = NULL;
	if (getifaddrs(&ifas))
		return -errno;
	for (ifa = ifas; ifa; ifa = ifa->ifa_next)
		n += ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET;
	l = calloc(1, n * (sizeof(*l) + IFNAME_MAX + 1) + 1);
	if (!l) {
		freeifaddrs(ifas);
		return -ENOMEM;
	}
	names = (char *)(l + n);
	n = 0;
	for (ifa = ifas; ifa; ifa = ifa->ifa_next) {
		const struct sockaddr_in *sin = (void *)ifa->ifa_addr;

		if (!sin || sin->sin_family != AF_INET)
			continue;
		snprintf(names, IFNAME_MAX + 1, "%s", ifa->ifa_name);
		l[n].name = names;
		l[n].addr = ntohl(sin->sin_addr.s_addr);
		l[n++].up = ifa->ifa_flags & IFF_UP;
		names += IFNAME_MAX + 1;
	}
	freeifaddrs(ifas);
	*out = l;
	return (int)n;
}

/*
 * "net add --ip2net RULES" (the ip2nets module parameter's syntax,
 * resolved here as stock's lnetctl does, against this node's addresses):
 * the NIs of the matching rules, each with @tmpl's tunables, added in
 * order; all or none.  @rules is cut in place.
 */
static int net_add_ip2net(char *rules, const struct net_add_req *tmpl)
{
	struct plan_ip2nets r[16];
	struct net_add_req *ni = NULL;
	struct ip2nets_if *ifs;
	struct ip2nets_rule rule[16];
	unsigned int n_ni = 0, i;
	struct lnl_error err;
	int n, n_ifs, rc = 1;

	n = ip2nets_parse_legacy(rules, rule, ARRAY_SIZE(rule));
	if (n == -E2BIG)
		return usage_error("add", "ip2net",
				   "--ip2net: more than 16 rules, interfaces or ranges%s",
				   "");
	if (n < 0)
		return usage_error("add", "ip2net",
				   "invalid --ip2net value: not ip2nets rules ('NET[(IF,...)] RANGE...; ...')%s",
				   "");
	for (i = 0; i < (unsigned int)n; i++) {
		unsigned int j;

		if (!valid_net(rule[i].net) || !strcmp(rule[i].net, "lo"))
			return usage_error("add", "ip2net",
					   "invalid --ip2net value: '%s' is not a network",
					   rule[i].net);
		for (j = 0; j < rule[i].nifs; j++)
			if (!valid_ifname(rule[i].ifs[j]))
				return usage_error("add", "ip2net",
						   "invalid --ip2net value: '%s' is not an interface name",
						   rule[i].ifs[j]);
		r[i].rule = rule[i];
		r[i].tmpl = *tmpl;
		r[i].tmpl.net = rule[i].net;
	}
	n_ifs = local_ipv4_ifs(&ifs);
	if (n_ifs < 0) {
		report_error("add", "ip2net", -n_ifs,
			     "cannot list the interfaces%s", "");
		return 1;
	}
	n = ip2nets_resolve(r, (unsigned int)n, true, ifs, (unsigned int)n_ifs,
			    &ni, &n_ni);
	if (n < 0) {
		report_error("add", "ip2net", -n, "cannot resolve ip2nets rule%s",
			     "");
		goto out;
	}
	if (!n) {
		report_error("add", "ip2net", ENODEV,
			     "no interfaces match ip2nets rules%s", "");
		goto out;
	}
	if (open_or_report("add", "net"))
		goto out;
	for (i = 0; i < n_ni; i++) {
		if (do_net_add(&ni[i], &err) < 0) {
			while (i--)
				do_net_del(ni[i].net, ni[i].ifname, NULL, &err);
			report_nl_error("add", "net", "cannot add network",
					&err);
			goto out;
		}
	}
	rc = 0;
out:
	free(ni);
	free(ifs);
	return rc;
}

static int net_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "net", required_argument, NULL, 'n' },
		{ "if", required_argument, NULL, 'i' },
		{ "peer-timeout", required_argument, NULL, 't' },
		{ "peer-credits", required_argument, NULL, 'c' },
		{ "peer-buffer-credits", required_argument, NULL, 'b' },
		{ "credits", required_argument, NULL, 'r' },
		{ "conns-per-peer", required_argument, NULL, 'm' },
		{ "tos", required_argument, NULL, 'o' },
		{ "nid", required_argument, NULL, 'd' },
		{ "ip2net", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	char *ifs[16], *iflist = NULL, *nid = NULL, *tok, *save;
	char *ip2net = NULL;
	char nid_if[IFNAME_MAX + 1];
	const struct tunable_def *d;
	struct net_add_req r;
	struct lnl_error err;
	unsigned int nifs = 0, i;
	long long *val;
	int c;

	net_add_req_init(&r, NULL);
	while ((c = getopt_long(argc, argv, "n:i:t:c:b:r:m:o:", opts,
				NULL)) != -1) {
		d = NULL;
		val = NULL;
		switch (c) {
		case 'n':
			r.net = optarg;
			break;
		case 'i':
			iflist = optarg;
			break;
		case 'd':
			nid = optarg;
			break;
		case 'p':
			ip2net = optarg;
			break;
		case 't':
			d = &tunable_defs[0];
			break;
		case 'c':
			d = &tunable_defs[1];
			break;
		case 'b':
			d = &tunable_defs[2];
			break;
		case 'r':
			d = &tunable_defs[3];
			break;
		case 'm':
		case 'o':
			for (i = 0; i < n_lnd_tunable_defs; i++)
				if (lnd_tunable_defs[i].attr ==
				    (c == 'm' ? LNET_LND_TUN_A_CONNS_PER_PEER :
						LNET_LND_TUN_A_TOS))
					d = &lnd_tunable_defs[i];
			val = &r.lnd_tun[d->attr];
			break;
		default:
			return bad_option("add", "net", argv);
		}
		if (d && !val)
			val = &r.tun[d->attr];
		if (d && parse_long(optarg, d->min, d->max, val)) {
			report_error("add", "net", EINVAL,
				     "invalid --%s value '%s': must be an integer in %lld..%lld",
				     d->opt, optarg, d->min, d->max);
			return 1;
		}
	}
	if (optind < argc)
		return usage_error("add", "net", "unexpected argument '%s'",
				   argv[optind]);
	if (ip2net) {
		if (r.net || iflist || nid)
			return usage_error("add", "net",
					   "--ip2net excludes --net, --if and --nid%s",
					   "");
		return net_add_ip2net(ip2net, &r);
	}
	if (nid) {
		if (r.net || iflist)
			return usage_error("add", "net",
					   "--nid excludes --net and --if%s", "");
		if (net_of_nid(nid, &r.net, nid_if))
			return 1;
		iflist = nid_if;
	}
	if (!r.net)
		return usage_error("add", "net",
				   "missing mandatory parameter --net%s", "");
	if (!valid_net(r.net))
		return usage_error("add", "net",
				   "invalid --net value '%s': not a network",
				   r.net);
	if (!strcmp(r.net, "lo"))
		return usage_error("add", "net",
				   "invalid --net value '%s': lo is always configured",
				   r.net);
	if (!iflist)
		return usage_error("add", "net",
				   "missing mandatory parameter --if%s", "");
	for (tok = strtok_r(iflist, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!valid_ifname(tok))
			return usage_error("add", "net",
					   "invalid --if value '%s': not an interface name",
					   tok);
		if (nifs == ARRAY_SIZE(ifs))
			return usage_error("add", "net",
					   "too many interfaces in --if%s", "");
		ifs[nifs++] = tok;
	}
	if (!nifs)
		return usage_error("add", "net",
				   "missing mandatory parameter --if%s", "");
	if (open_or_report("add", "net"))
		return 1;
	for (i = 0; i < nifs; i++) {
		r.ifname = ifs[i];
		if (do_net_add(&r, &err) < 0) {
			undo_adds(r.net, ifs, i);
			report_nl_error("add", "net", "cannot add network",
					&err);
			return 1;
		}
	}
	return 0;
}

static int net_del(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "net", required_argument, NULL, 'n' },
		{ "if", required_argument, NULL, 'i' },
		{ "nid", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *net = NULL, *ifname = NULL, *nid = NULL;
	struct lnl_error err;
	int c;

	while ((c = getopt_long(argc, argv, "n:i:", opts, NULL)) != -1) {
		if (c == 'n')
			net = optarg;
		else if (c == 'i')
			ifname = optarg;
		else if (c == 'd')
			nid = optarg;
		else
			return bad_option("del", "net", argv);
	}
	if (optind < argc)
		return usage_error("del", "net", "unexpected argument '%s'",
				   argv[optind]);
	if (!net && !nid)
		return usage_error("del", "net",
				   "missing mandatory parameter --net or --nid%s",
				   "");
	if (net && !valid_net(net))
		return usage_error("del", "net",
				   "invalid --net value '%s': not a network",
				   net);
	if (nid && !valid_nid(nid))
		return usage_error("del", "net",
				   "invalid --nid value '%s': not a NID", nid);
	if (net && !strcmp(net, "lo"))
		return usage_error("del", "net",
				   "invalid --net value '%s': lo cannot be deleted",
				   net);
	if (ifname && !valid_ifname(ifname))
		return usage_error("del", "net",
				   "invalid --if value '%s': not an interface name",
				   ifname);
	if (open_or_report("del", "net"))
		return 1;
	if (do_net_del(net, ifname, nid, &err) < 0) {
		report_nl_error("del", "net", "cannot delete network", &err);
		return 1;
	}
	return 0;
}

/* "-v", "-v N", "-vN", "--verbose[=N]": the detail level. */
int parse_detail(const char *what, int argc, char **argv, int *detail)
{
	long long v = 1;
	const char *s = optarg;

	if (!s && optind < argc && argv[optind][0] != '-')
		s = argv[optind++];
	if (s && parse_long(s, 0, LNET_GENL_DETAIL_MAX, &v)) {
		report_error("show", what, EINVAL,
			     "invalid --verbose value '%s': must be 0..%d",
			     s, LNET_GENL_DETAIL_MAX);
		return -1;
	}
	*detail = v;
	return 0;
}

static int net_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "net", required_argument, NULL, 'n' },
		{ "verbose", optional_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *net = NULL;
	struct lnl_error err;
	struct ni_list l;
	struct yout y;
	int c, detail = 0, rc;

	while ((c = getopt_long(argc, argv, "n:v::", opts, NULL)) != -1) {
		if (c == 'n') {
			net = optarg;
		} else if (c == 'v') {
			if (parse_detail("net", argc, argv, &detail))
				return 1;
		} else {
			return bad_option("show", "net", argv);
		}
	}
	if (optind < argc)
		return usage_error("show", "net", "unexpected argument '%s'",
				   argv[optind]);
	if (net && !valid_net(net))
		return usage_error("show", "net",
				   "invalid --net value '%s': not a network",
				   net);
	if (open_or_report("show", "net"))
		return 1;
	if (get_nis(net, detail, &l, &err) < 0) {
		report_nl_error("show", "net", "cannot get networks", &err);
		return 1;
	}
	if (net && !l.n) {
		report_error("show", "net", ENOENT, "no network '%s'", net);
		return 1;
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	emit_nets(&y, &l, detail, false);
	yout_end_map(&y);
	rc = yout_end(&y);
	free(l.ni);
	return rc ? 1 : 0;
}

static int cmd_net(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	optind = 1;
	if (!strcmp(sub, "add"))
		return net_add(argc - 1, argv + 1);
	if (!strcmp(sub, "del"))
		return net_del(argc - 1, argv + 1);
	if (!strcmp(sub, "show"))
		return net_show(argc - 1, argv + 1);
	if (!strcmp(sub, "set"))
		return net_set(argc - 1, argv + 1);
	return usage_error("net", "net",
			   "unknown subcommand '%s': use add, del, show or set",
			   sub);
}

struct ping_result {
	char primary[LNET_GENL_NID_LEN];
	bool multi_rail;
	unsigned int count;
	char (*nids)[LNET_GENL_NID_LEN];
	unsigned int n;
};

static int ping_cb(struct nlattr **tb, struct nlattr *head, int len,
		   void *arg)
{
	struct ping_result *r = arg;
	struct nlattr *a;
	int rem;

	(void)head;
	(void)len;
	if (!tb[LNET_A_NID] || !tb[LNET_A_PEER_NIDS])
		return -EPROTO;
	snprintf(r->primary, sizeof(r->primary), "%s",
		 nla_get_string(tb[LNET_A_NID]));
	r->multi_rail = tb[LNET_A_MULTI_RAIL] &&
			nla_get_u8(tb[LNET_A_MULTI_RAIL]);
	r->count = tb[LNET_A_PEER_NID_COUNT] ?
		   nla_get_u32(tb[LNET_A_PEER_NID_COUNT]) : 0;
	nla_for_each_nested(a, tb[LNET_A_PEER_NIDS], rem) {
		void *p = realloc(r->nids, (r->n + 1) * sizeof(*r->nids));

		if (!p)
			return -ENOMEM;
		r->nids = p;
		snprintf(r->nids[r->n++], sizeof(*r->nids), "%s",
			 nla_get_string(a));
	}
	return 0;
}

struct ping_failure {
	char nid[LNET_GENL_NID_LEN];
	struct lnl_error err;
};

/*
 * "ping" and "discover": the same request and output but for the command
 * ("ping"/"discover" as the YAML key), ping's --source and discover's
 * --force.
 */
int ping_or_discover(int argc, char **argv, bool discover)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = discover ? "discover" : "ping";
	bool force = false;
	struct ping_failure *fails = NULL;
	unsigned int nfails = 0, ndst = 0, i, j;
	const char *src = NULL;
	long long timeout = discover ? 0 : 1;	/* discover: the kernel's */
	char **dst = NULL, *tok, *save;
	struct yout y;
	int c, rc = 0;
	bool any_ok = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, discover ? "t:f" : "s:t:", opts,
				NULL)) != -1) {
		if (c == 's' && !discover) {
			src = optarg;
		} else if (c == 'f' && discover) {
			force = true;
		} else if (c == 't') {
			if (parse_long(optarg, 1, LNET_GENL_PING_TIMEOUT_MAX /
				       1000, &timeout)) {
				report_error("manage", what, EINVAL,
					     "invalid --timeout value '%s': must be 1..%d seconds",
					     optarg,
					     LNET_GENL_PING_TIMEOUT_MAX / 1000);
				return 1;
			}
		} else {
			return bad_option("manage", what, argv);
		}
	}
	if (src && !valid_nid(src))
		return usage_error("manage", what,
				   "invalid --source value '%s': not a NID",
				   src);
	for (; optind < argc; optind++) {
		for (tok = strtok_r(argv[optind], ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char **p;

			if (!valid_nid(tok)) {
				free(dst);
				return usage_error("manage", what,
						   "invalid NID '%s'", tok);
			}
			p = realloc(dst, (ndst + 1) * sizeof(*dst));
			if (!p) {
				free(dst);
				return 1;
			}
			dst = p;
			dst[ndst++] = tok;
		}
	}
	if (!ndst)
		return usage_error("manage", what,
				   "missing mandatory parameter: a NID%s", "");
	fails = calloc(ndst, sizeof(*fails));
	if (!fails || open_or_report("manage", what)) {
		free(dst);
		free(fails);
		return 1;
	}
	yout_begin(&y, stdout);
	for (i = 0; i < ndst; i++) {
		struct nl_msg *msg = lnl_msg(discover ? LNET_CMD_DISCOVER :
					     LNET_CMD_PING, false);
		struct ping_result r = { .nids = NULL };
		struct lnl_error err;

		if (msg && (nla_put_string(msg, LNET_A_NID, dst[i]) ||
			    (src && nla_put_string(msg, LNET_A_SOURCE, src)) ||
			    (force && nla_put_flag(msg, LNET_A_FORCE)) ||
			    (timeout && nla_put_u32(msg, LNET_A_TIMEOUT_MS,
						    timeout * 1000)))) {
			nlmsg_free(msg);
			msg = NULL;
		}
		if (lnl_run(msg, ping_cb, &r, &err) < 0) {
			snprintf(fails[nfails].nid, sizeof(fails->nid), "%s",
				 dst[i]);
			fails[nfails++].err = err;
			free(r.nids);
			continue;
		}
		if (!any_ok) {
			yout_map(&y);
			yout_str(&y, what);
			yout_seq(&y);
			any_ok = true;
		}
		yout_map(&y);
		yout_kv_str(&y, "primary nid", r.primary);
		yout_kv_str(&y, "Multi-Rail", r.multi_rail ? "true" : "false");
		yout_str(&y, "peer_ni");
		yout_seq(&y);
		for (j = 0; j < r.n; j++) {
			yout_map(&y);
			yout_kv_str(&y, "nid", r.nids[j]);
			yout_end_map(&y);
		}
		yout_end_seq(&y);
		yout_end_map(&y);
		free(r.nids);
	}
	if (any_ok) {
		yout_end_seq(&y);
		yout_end_map(&y);
		rc = yout_end(&y) ? 1 : 0;
	} else {
		yaml_emitter_delete(&y.emitter);
	}
	fflush(stdout);
	if (nfails) {
		yout_begin(&y, stderr);
		yout_map(&y);
		yout_str(&y, "manage");
		yout_seq(&y);
		for (i = 0; i < nfails; i++) {
			char descr[512];
			const struct lnl_error *e = &fails[i].err;

			snprintf(descr, sizeof(descr), "failed to %s %s: %s",
				 what, fails[i].nid,
				 e->msg[0] ? e->msg : strerror(e->errnum));
			yout_map(&y);
			yout_str(&y, what);
			yout_map(&y);
			yout_kv_int(&y, "errno", -(long long)e->errnum);
			yout_str(&y, "descr");
			yout_quoted(&y, descr);
			yout_end_map(&y);
			yout_end_map(&y);
		}
		yout_end_seq(&y);
		yout_end_map(&y);
		yout_end(&y);
		rc = 1;
	}
	free(dst);
	free(fails);
	return rc;
}

static int cmd_ping(int argc, char **argv)
{
	return ping_or_discover(argc, argv, false);
}

static int cmd_discover(int argc, char **argv)
{
	return ping_or_discover(argc, argv, true);
}

static int stats_cb(struct nlattr **tb, struct nlattr *head, int len,
		    void *arg)
{
	static const struct {
		const char *key;
		int attr;
		bool u64;
	} keys[] = {
		{ "msgs_alloc", LNET_STATS_A_MSGS_ALLOC, false },
		{ "msgs_max", LNET_STATS_A_MSGS_MAX, false },
		{ "errors", LNET_STATS_A_ERRORS, false },
		{ "send_count", LNET_STATS_A_SEND_COUNT, false },
		{ "recv_count", LNET_STATS_A_RECV_COUNT, false },
		{ "route_count", LNET_STATS_A_ROUTE_COUNT, false },
		{ "drop_count", LNET_STATS_A_DROP_COUNT, false },
		{ "send_length", LNET_STATS_A_SEND_LENGTH, true },
		{ "recv_length", LNET_STATS_A_RECV_LENGTH, true },
		{ "route_length", LNET_STATS_A_ROUTE_LENGTH, true },
		{ "drop_length", LNET_STATS_A_DROP_LENGTH, true },
		{ "response_timeout_count", LNET_STATS_A_RESPONSE_TIMEOUTS,
		  false },
		{ "resend_count", LNET_STATS_A_RESEND_COUNT, false },
		{ "local_interrupt_count", LNET_STATS_A_LOCAL_INTERRUPT, false },
		{ "local_dropped_count", LNET_STATS_A_LOCAL_DROPPED, false },
		{ "local_aborted_count", LNET_STATS_A_LOCAL_ABORTED, false },
		{ "local_no_route_count", LNET_STATS_A_LOCAL_NO_ROUTE, false },
		{ "local_timeout_count", LNET_STATS_A_LOCAL_TIMEOUT, false },
		{ "local_error_count", LNET_STATS_A_LOCAL_ERROR, false },
		{ "remote_dropped_count", LNET_STATS_A_REMOTE_DROPPED, false },
		{ "remote_error_count", LNET_STATS_A_REMOTE_ERROR, false },
		{ "remote_timeout_count", LNET_STATS_A_REMOTE_TIMEOUT, false },
		{ "network_timeout_count", LNET_STATS_A_NETWORK_TIMEOUT, false },
		{ "failed_resends", LNET_STATS_A_FAILED_RESENDS, false },
		{ "successful_resends", LNET_STATS_A_SUCCESSFUL_RESENDS, false },
	};
	struct nlattr *st[LNET_STATS_A_MAX + 1];
	struct yout *y = arg;
	unsigned int i;

	(void)head;
	(void)len;
	if (!tb[LNET_A_STATS] ||
	    lnl_nest_parse(st, LNET_STATS_A_MAX, tb[LNET_A_STATS]))
		return -EPROTO;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!st[keys[i].attr])
			return -EPROTO;
	yout_map(y);
	yout_str(y, "statistics");
	yout_map(y);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		yout_kv_uint(y, keys[i].key, keys[i].u64 ?
			     nla_get_u64(st[keys[i].attr]) :
			     nla_get_u32(st[keys[i].attr]));
	yout_end_map(y);
	yout_end_map(y);
	return 0;
}

static int cmd_stats(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";
	struct lnl_error err;
	struct yout y;

	if (strcmp(sub, "show") && strcmp(sub, "reset"))
		return usage_error("stats", "statistics",
				   "unknown subcommand '%s': use show or reset",
				   sub);
	if (argc > 2)
		return usage_error(sub, "statistics",
				   "unexpected argument '%s'", argv[2]);
	if (open_or_report(sub, "statistics"))
		return 1;
	if (!strcmp(sub, "reset")) {
		if (lnl_run(lnl_msg(LNET_CMD_STATS_RESET, false), NULL, NULL,
			    &err) < 0) {
			report_nl_error("reset", "statistics",
					"cannot reset statistics", &err);
			return 1;
		}
		return 0;
	}
	yout_begin(&y, stdout);
	if (lnl_run(lnl_msg(LNET_CMD_STATS_GET, false), stats_cb, &y,
		    &err) < 0) {
		yaml_emitter_delete(&y.emitter);
		report_nl_error("show", "statistics",
				"cannot get statistics", &err);
		return 1;
	}
	return yout_end(&y) ? 1 : 0;
}

static int cmd_global(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";
	struct lnl_error err;
	struct param *p;
	unsigned int n;
	struct yout y;

	if (strcmp(sub, "show"))
		return usage_error("global", "global",
				   "unknown subcommand '%s': use show", sub);
	if (argc > 2)
		return usage_error("show", "global",
				   "unexpected argument '%s'", argv[2]);
	if (open_or_report("show", "global"))
		return 1;
	if (get_globals(&p, &n, &err) < 0) {
		report_nl_error("show", "global", "cannot get parameters",
				&err);
		return 1;
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	emit_globals(&y, p, n);
	yout_end_map(&y);
	free(p);
	return yout_end(&y) ? 1 : 0;
}

static int cmd_set(int argc, char **argv)
{
	struct lnl_error err;
	long long value;

	if (argc < 2)
		return usage_error("set", "global",
				   "missing parameter name%s", "");
	if (argc < 3)
		return usage_error("set", argv[1],
				   "missing value for '%s'", argv[1]);
	if (argc > 3)
		return usage_error("set", argv[1],
				   "unexpected argument '%s'", argv[3]);
	if (is_routing_param(argv[1]))
		return set_routing_param(argv[1], argv[2]);
	if (check_param("set", argv[1], argv[2], &value))
		return 1;
	if (open_or_report("set", argv[1]))
		return 1;
	if (do_global_set(argv[1], value, &err) < 0) {
		char prefix[96];

		snprintf(prefix, sizeof(prefix), "cannot set %s to %lld",
			 argv[1], value);
		report_nl_error("set", argv[1], prefix, &err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "lnet", cmd_lnet },
		{ "net", cmd_net },
		{ "peer", cmd_peer },
		{ "udsp", cmd_udsp },
		{ "route", cmd_route },
		{ "routing", cmd_routing },
		{ "fault", cmd_fault },
		{ "nidmap", cmd_nidmap },
		{ "discover", cmd_discover },
		{ "ping", cmd_ping },
		{ "stats", cmd_stats },
		{ "debug", cmd_debug },
		{ "global", cmd_global },
		{ "set", cmd_set },
		{ "export", cmd_export },
		{ "import", cmd_import },
	};
	unsigned int i;
	int rc;

	opterr = 0;
	if (argc < 2) {
		help_usage();
		return 1;
	}
	/* before anything that could reach the kernel */
	rc = help_main(argc, argv);
	if (rc >= 0)
		return rc;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (!strcmp(argv[1], cmds[i].name)) {
			rc = cmds[i].fn(argc - 1, argv + 1);
			lnl_close();
			return rc;
		}
	}
	return usage_error("lnetctl", argv[1],
			   "unknown command '%s': 'lnetctl help' lists them",
			   argv[1]);
}
