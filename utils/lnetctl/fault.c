// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl fault drop|delay add|del|reset|show (spec features 1a and 6),
 * Lustre's options:
 *
 *	fault drop add -s SRC -d DST (-r RATE | -i SECONDS) [-p PORTAL]...
 *		[-m put|ack|get|reply]... [-e HEALTH_ERROR|random]...
 *		[-n] [-o LOCAL_NID] [-x]
 *	fault delay add -s SRC -d DST (-r RATE | -i SECONDS) -l SECONDS
 *		[-p PORTAL]... [-m TYPE]...
 *	fault drop|delay del --all | -s SRC -d DST
 *	fault drop|delay reset | show
 *
 * SRC and DST are NIDs, "*@net" or "*".  show prints each rule with its
 * counters:
 *
 *	fault:
 *	    rule_type: drop
 *	    rule:
 *	    -     fa_src: 192.0.2.10@tcp
 *	          ...
 *	          ds_dropped: 3
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"

/* Lustre's names of the health errors, by hstatus value 1..10. */
static const char *const hstatus_name[] = {
	NULL, "local_interrupt", "local_dropped", "local_aborted",
	"local_no_route", "local_error", "local_timeout", "remote_error",
	"remote_dropped", "remote_timeout", "network_timeout",
};

#define HEALTH_RANDOM	0xffffffffU

static const char *const msg_name[] = { "ack", "put", "get", "reply" };

struct fault_rule {
	int type;			/* LNET_FAULT_TYPE_* */
	char src[LNET_GENL_NID_LEN];
	char dst[LNET_GENL_NID_LEN];
	char local[LNET_GENL_NID_LEN];
	unsigned long long ptl_mask;
	unsigned int msg_mask, rate, interval, health_mask, latency;
	bool random, drop_all;
	unsigned long long stat[6];	/* count put ack get reply acted */
};

struct fault_list {
	struct fault_rule *r;
	unsigned int n;
};

static const char *type_name(int type)
{
	return type == LNET_FAULT_TYPE_DROP ? "drop" : "delay";
}

static bool valid_fault_nid(const char *s)
{
	return !strcmp(s, "*") ||
	       (!strncmp(s, "*@", 2) && valid_net(s + 2)) || valid_nid(s);
}

/* A FAULT nest with TYPE and what of @r is set. */
static struct nl_msg *fault_msg(int cmd, const struct fault_rule *r,
				bool all)
{
	struct nl_msg *msg = lnl_msg(cmd, cmd == LNET_CMD_FAULT_GET);
	struct nlattr *nest;
	int bad;

	if (!msg)
		return NULL;
	bad = all && nla_put_flag(msg, LNET_A_ALL);
	nest = bad ? NULL : nla_nest_start(msg, LNET_A_FAULT);
	bad = !nest || nla_put_u8(msg, LNET_FAULT_A_TYPE, r->type);
	if (!bad && r->src[0])
		bad = nla_put_string(msg, LNET_FAULT_A_SRC, r->src);
	if (!bad && r->dst[0])
		bad = nla_put_string(msg, LNET_FAULT_A_DST, r->dst);
	if (!bad && r->local[0])
		bad = nla_put_string(msg, LNET_FAULT_A_LOCAL_NID, r->local);
	if (!bad && r->ptl_mask)
		bad = nla_put_u64(msg, LNET_FAULT_A_PTL_MASK, r->ptl_mask);
	if (!bad && r->msg_mask)
		bad = nla_put_u32(msg, LNET_FAULT_A_MSG_MASK, r->msg_mask);
	if (!bad && r->rate)
		bad = nla_put_u32(msg, LNET_FAULT_A_RATE, r->rate);
	if (!bad && r->interval)
		bad = nla_put_u32(msg, LNET_FAULT_A_INTERVAL, r->interval);
	if (!bad && r->health_mask)
		bad = nla_put_u32(msg, LNET_FAULT_A_HEALTH_MASK,
				  r->health_mask);
	if (!bad && r->latency)
		bad = nla_put_u32(msg, LNET_FAULT_A_LATENCY, r->latency);
	if (!bad && r->random)
		bad = nla_put_flag(msg, LNET_FAULT_A_RANDOM);
	if (!bad && r->drop_all)
		bad = nla_put_flag(msg, LNET_FAULT_A_DROP_ALL);
	if (bad) {
		nlmsg_free(msg);
		return NULL;
	}
	nla_nest_end(msg, nest);
	return msg;
}

static int parse_health_error(const char *s, unsigned int *mask)
{
	unsigned int i;

	if (!strcmp(s, "random")) {
		*mask = HEALTH_RANDOM;
		return 0;
	}
	for (i = 1; i < ARRAY_SIZE(hstatus_name); i++)
		if (!strcmp(s, hstatus_name[i])) {
			if (*mask != HEALTH_RANDOM)
				*mask |= 1U << i;
			return 0;
		}
	return -EINVAL;
}

static int parse_msg_type(const char *s, unsigned int *mask)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(msg_name); i++)
		if (!strcasecmp(s, msg_name[i])) {
			*mask |= 1U << i;
			return 0;
		}
	return -EINVAL;
}

static int copy_nid_opt(char *dst, const char *s, const char *what)
{
	if (strlen(s) >= LNET_GENL_NID_LEN || !valid_fault_nid(s))
		return usage_error("add", what, "invalid NID '%s'", s);
	strcpy(dst, s);
	return 0;
}

static int fault_add(int type, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "dest", required_argument, NULL, 'd' },
		{ "rate", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "portal", required_argument, NULL, 'p' },
		{ "message", required_argument, NULL, 'm' },
		{ "health_error", required_argument, NULL, 'e' },
		{ "random", no_argument, NULL, 'n' },
		{ "local_nid", required_argument, NULL, 'o' },
		{ "drop_all", no_argument, NULL, 'x' },
		{ "latency", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = type_name(type);
	bool drop = type == LNET_FAULT_TYPE_DROP;
	struct fault_rule r = { .type = type };
	struct lnl_error err;
	long long v;
	int c;

	while ((c = getopt_long(argc, argv, drop ? "s:d:r:i:p:m:e:no:x" :
				"s:d:r:i:p:m:o:l:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (copy_nid_opt(r.src, optarg, what))
				return 1;
			break;
		case 'd':
			if (copy_nid_opt(r.dst, optarg, what))
				return 1;
			break;
		case 'o':
			if (copy_nid_opt(r.local, optarg, what))
				return 1;
			break;
		case 'r':
		case 'i':
		case 'l':
			if (parse_long(optarg, 1, UINT32_MAX, &v))
				return usage_error("add", what, c == 'r' ?
						   "invalid --rate '%s'" :
						   c == 'i' ?
						   "invalid --interval '%s'" :
						   "invalid --latency '%s'",
						   optarg);
			*(c == 'r' ? &r.rate : c == 'i' ? &r.interval :
			  &r.latency) = v;
			break;
		case 'p':
			if (parse_long(optarg, 0, 63, &v))
				return usage_error("add", what,
						   "invalid --portal '%s'",
						   optarg);
			r.ptl_mask |= 1ULL << v;
			break;
		case 'm':
			if (parse_msg_type(optarg, &r.msg_mask))
				return usage_error("add", what,
						   "invalid --message '%s' (put, ack, get, reply)",
						   optarg);
			break;
		case 'e':
			if (!drop || parse_health_error(optarg, &r.health_mask))
				return usage_error("add", what,
						   "invalid --health_error '%s'",
						   optarg);
			break;
		case 'n':
			r.random = true;
			break;
		case 'x':
			r.drop_all = true;
			break;
		default:
			return bad_option("add", what, argv);
		}
	}
	if (optind < argc)
		return usage_error("add", what, "unexpected argument '%s'",
				   argv[optind]);
	if (!r.src[0] || !r.dst[0])
		return usage_error("add", what, "%s",
				   "--source and --dest are required");
	if (!r.drop_all && !r.rate == !r.interval)
		return usage_error("add", what, "%s",
				   "give either --rate or --interval");
	if (!drop && !r.latency)
		return usage_error("add", what, "%s",
				   "--latency is required");
	if (open_or_report("add", what))
		return 1;
	if (lnl_run(fault_msg(LNET_CMD_FAULT_ADD, &r, false), NULL, NULL,
		    &err) < 0) {
		report_nl_error("add", what, "cannot add rule", &err);
		return 1;
	}
	return 0;
}

static int fault_del(int type, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "dest", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = type_name(type);
	struct fault_rule r = { .type = type };
	struct lnl_error err;
	bool all = false;
	int c;

	while ((c = getopt_long(argc, argv, "s:d:a", opts, NULL)) != -1) {
		if (c == 'a')
			all = true;
		else if (c == 's' || c == 'd')
			snprintf(c == 's' ? r.src : r.dst, LNET_GENL_NID_LEN,
				 "%s", optarg);
		else
			return bad_option("del", what, argv);
	}
	if (optind < argc)
		return usage_error("del", what, "unexpected argument '%s'",
				   argv[optind]);
	if (all == (r.src[0] && r.dst[0]) || (all && (r.src[0] || r.dst[0])))
		return usage_error("del", what, "%s",
				   "give either --all or --source and --dest");
	if (open_or_report("del", what))
		return 1;
	if (lnl_run(fault_msg(LNET_CMD_FAULT_DEL, &r, all), NULL, NULL,
		    &err) < 0) {
		report_nl_error("del", what, "cannot delete rule", &err);
		return 1;
	}
	return 0;
}

static int fault_reset(int type, int argc, char **argv)
{
	const char *what = type_name(type);
	struct fault_rule r = { .type = type };
	struct lnl_error err;

	if (argc > 1)
		return usage_error("reset", what, "unexpected argument '%s'",
				   argv[1]);
	if (open_or_report("reset", what))
		return 1;
	if (lnl_run(fault_msg(LNET_CMD_FAULT_RESET, &r, false), NULL, NULL,
		    &err) < 0) {
		report_nl_error("reset", what, "cannot reset counters", &err);
		return 1;
	}
	return 0;
}

static uint32_t get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static int fault_cb(struct nlattr **tb, struct nlattr *head, int len,
		    void *arg)
{
	static const int stat_attr[6] = {
		LNET_FAULT_A_COUNT, LNET_FAULT_A_PUT, LNET_FAULT_A_ACK,
		LNET_FAULT_A_GET, LNET_FAULT_A_REPLY, LNET_FAULT_A_ACTED,
	};
	struct nlattr *ft[LNET_FAULT_A_MAX + 1];
	struct fault_list *l = arg;
	struct fault_rule *r;
	int i;

	(void)head;
	(void)len;
	if (!tb[LNET_A_FAULT] ||
	    lnl_nest_parse(ft, LNET_FAULT_A_MAX, tb[LNET_A_FAULT]) ||
	    !ft[LNET_FAULT_A_SRC] || !ft[LNET_FAULT_A_DST])
		return -EPROTO;
	r = realloc(l->r, (l->n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	l->r = r;
	r += l->n++;
	memset(r, 0, sizeof(*r));
	snprintf(r->src, sizeof(r->src), "%s", nla_get_string(ft[LNET_FAULT_A_SRC]));
	snprintf(r->dst, sizeof(r->dst), "%s", nla_get_string(ft[LNET_FAULT_A_DST]));
	if (ft[LNET_FAULT_A_LOCAL_NID])
		snprintf(r->local, sizeof(r->local), "%s",
			 nla_get_string(ft[LNET_FAULT_A_LOCAL_NID]));
	if (ft[LNET_FAULT_A_PTL_MASK])
		r->ptl_mask = nla_get_u64(ft[LNET_FAULT_A_PTL_MASK]);
	r->msg_mask = get_u32(ft, LNET_FAULT_A_MSG_MASK);
	r->rate = get_u32(ft, LNET_FAULT_A_RATE);
	r->interval = get_u32(ft, LNET_FAULT_A_INTERVAL);
	r->health_mask = get_u32(ft, LNET_FAULT_A_HEALTH_MASK);
	r->latency = get_u32(ft, LNET_FAULT_A_LATENCY);
	r->random = nla_get_flag(ft[LNET_FAULT_A_RANDOM]);
	r->drop_all = nla_get_flag(ft[LNET_FAULT_A_DROP_ALL]);
	for (i = 0; i < 6; i++)
		if (ft[stat_attr[i]])
			r->stat[i] = nla_get_u64(ft[stat_attr[i]]);
	return 0;
}

static void emit_rule(struct yout *y, int type, const struct fault_rule *r)
{
	static const char *const stat_key[5] = {
		"fs_count", "fs_put", "fs_ack", "fs_get", "fs_reply",
	};
	bool drop = type == LNET_FAULT_TYPE_DROP;
	const char *p = drop ? "da_" : "la_";
	char key[32];
	int i;

	yout_map(y);
	yout_kv_str(y, "fa_src", r->src);
	yout_kv_str(y, "fa_dst", r->dst);
	if (strcmp(r->local, "*"))
		yout_kv_str(y, "fa_local_nid", r->local);
	yout_kv_uint(y, "fa_ptl_mask", r->ptl_mask);
	yout_kv_uint(y, "fa_msg_mask", r->msg_mask);
	snprintf(key, sizeof(key), "%srate", p);
	yout_kv_uint(y, key, r->rate);
	snprintf(key, sizeof(key), "%sinterval", p);
	yout_kv_uint(y, key, r->interval);
	if (drop) {
		if (r->health_mask)
			yout_kv_uint(y, "da_health_error_mask",
				     r->health_mask);
		if (r->random)
			yout_kv_str(y, "da_random", "true");
		if (r->drop_all)
			yout_kv_str(y, "da_drop_all", "true");
		yout_kv_uint(y, "ds_dropped", r->stat[5]);
	} else {
		yout_kv_uint(y, "la_latency", r->latency);
		yout_kv_uint(y, "ls_delayed", r->stat[5]);
	}
	for (i = 0; i < 5; i++)
		yout_kv_uint(y, stat_key[i], r->stat[i]);
	yout_end_map(y);
}

static int fault_show(int type, int argc, char **argv)
{
	const char *what = type_name(type);
	struct fault_rule q = { .type = type };
	struct fault_list l = { 0 };
	struct lnl_error err;
	struct yout y;
	unsigned int i;
	int rc;

	if (argc > 1)
		return usage_error("show", what, "unexpected argument '%s'",
				   argv[1]);
	if (open_or_report("show", what))
		return 1;
	if (lnl_run(fault_msg(LNET_CMD_FAULT_GET, &q, false), fault_cb, &l,
		    &err) < 0) {
		free(l.r);
		report_nl_error("show", what, "cannot get rules", &err);
		return 1;
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	yout_str(&y, "fault");
	yout_map(&y);
	yout_kv_str(&y, "rule_type", what);
	yout_str(&y, "rule");
	yout_seq(&y);
	for (i = 0; i < l.n; i++)
		emit_rule(&y, type, &l.r[i]);
	yout_end_seq(&y);
	yout_end_map(&y);
	yout_end_map(&y);
	rc = yout_end(&y);
	free(l.r);
	return rc ? 1 : 0;
}

int cmd_fault(int argc, char **argv)
{
	int type;

	if (argc < 3)
		return usage_error("fault", "fault", "%s",
				   "usage: fault drop|delay add|del|reset|show [options]");
	if (!strcmp(argv[1], "drop"))
		type = LNET_FAULT_TYPE_DROP;
	else if (!strcmp(argv[1], "delay"))
		type = LNET_FAULT_TYPE_DELAY;
	else
		return usage_error("fault", "fault", "unknown rule type '%s'",
				   argv[1]);
	argc -= 2;
	argv += 2;
	if (!strcmp(argv[0], "add"))
		return fault_add(type, argc, argv);
	if (!strcmp(argv[0], "del"))
		return fault_del(type, argc, argv);
	if (!strcmp(argv[0], "reset"))
		return fault_reset(type, argc, argv);
	if (!strcmp(argv[0], "show"))
		return fault_show(type, argc, argv);
	return usage_error("fault", type_name(type),
			   "unknown subcommand '%s'", argv[0]);
}
