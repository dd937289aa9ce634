// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl udsp add | del | show, and the "udsp info" of net show and peer
 * show at -v 4 (spec: lnet-features-and-lnetctl.md 1a, 2d, 4d):
 *
 *	udsp:
 *	    - idx: 0
 *	      src: tcp
 *	      dst: NA
 *	      rte: NA
 *	      action:
 *	          priority: 0
 *
 * A NID pair (--src with --dst) and a router preference (--dst with
 * --rte) have "action: NA".  The same list is the
 * "udsp:" block of export and import.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"

static const char *const term_key[UDSP_TERMS] = { "src", "dst", "rte" };
static const int term_attr[UDSP_TERMS] = {
	LNET_A_UDSP_SRC, LNET_A_UDSP_DST, LNET_A_UDSP_RTE,
};

int do_udsp_add(const struct udsp_rule *r, long long idx,
		struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_UDSP_ADD, false);
	int i, bad = !msg;

	for (i = 0; i < UDSP_TERMS && !bad; i++)
		if (r->term[i][0])
			bad = nla_put_string(msg, term_attr[i], r->term[i]);
	if (!bad && r->prio >= 0)
		bad = nla_put_u32(msg, LNET_A_PRIORITY, r->prio);
	if (!bad && idx >= 0)
		bad = nla_put_u32(msg, LNET_A_IDX, idx);
	if (bad && msg) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

int do_udsp_del(long long idx, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_UDSP_DEL, false);

	if (msg && (idx < 0 ? nla_put_flag(msg, LNET_A_ALL) :
			      nla_put_u32(msg, LNET_A_IDX, idx))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

static int udsp_cb(struct nlattr **tb, struct nlattr *head, int len,
		   void *arg)
{
	struct udsp_list *l = arg;
	struct udsp_rule *r;
	int i;

	(void)head;
	(void)len;
	if (!tb[LNET_A_IDX])
		return -EPROTO;
	r = realloc(l->r, (l->n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	l->r = r;
	r += l->n++;
	memset(r, 0, sizeof(*r));
	r->idx = nla_get_u32(tb[LNET_A_IDX]);
	for (i = 0; i < UDSP_TERMS; i++)
		if (tb[term_attr[i]])
			snprintf(r->term[i], sizeof(r->term[i]), "%s",
				 nla_get_string(tb[term_attr[i]]));
	r->prio = tb[LNET_A_PRIORITY] ? (long long)nla_get_u32(tb[LNET_A_PRIORITY]) : -1;
	return 0;
}

int get_udsp(long long idx, struct udsp_list *l, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_UDSP_GET, true);
	int rc;

	l->r = NULL;
	l->n = 0;
	if (msg && idx >= 0 && nla_put_u32(msg, LNET_A_IDX, idx)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	rc = lnl_run(msg, udsp_cb, l, err);
	if (rc < 0) {
		free(l->r);
		l->r = NULL;
		l->n = 0;
	}
	return rc;
}

/*
 * "udsp:"; nothing at all for no rule when @skip_empty (export); an
 * absent term ("NA") left out when @backup (export --backup, as stock's).
 */
void emit_udsp(struct yout *y, const struct udsp_list *l, bool skip_empty,
	       bool backup)
{
	unsigned int i;
	int t;

	if (skip_empty && !l->n)
		return;
	yout_str(y, "udsp");
	yout_seq(y);
	for (i = 0; i < l->n; i++) {
		const struct udsp_rule *r = &l->r[i];

		yout_map(y);
		yout_kv_uint(y, "idx", r->idx);
		for (t = 0; t < UDSP_TERMS; t++)
			if (r->term[t][0] || !backup)
				yout_kv_str(y, term_key[t],
					    r->term[t][0] ? r->term[t] : "NA");
		if (r->prio >= 0) {
			yout_str(y, "action");
			yout_map(y);
			yout_kv_uint(y, "priority", r->prio);
			yout_end_map(y);
		} else {
			yout_kv_str(y, "action", "NA");
		}
		yout_end_map(y);
	}
	yout_end_seq(y);
}

/* A rule's "action": NA (@prio -1) or a mapping of "priority" alone. */
static int parse_action(yaml_document_t *doc, yaml_node_t *val,
			long long *prio)
{
	yaml_node_pair_t *pair;
	const char *key;

	if (scalar(val) && !strcmp(scalar(val), "NA")) {
		*prio = -1;
		return 0;
	}
	if (!val || val->type != YAML_MAPPING_NODE)
		return -EINVAL;
	pair = val->data.mapping.pairs.start;
	if (val->data.mapping.pairs.top - pair != 1)
		return -EINVAL;
	key = PAIR_KEY(doc, pair);
	if (!key || strcmp(key, "priority") ||
	    !scalar(PAIR_VAL(doc, pair)))
		return -EINVAL;
	return parse_long(scalar(PAIR_VAL(doc, pair)), 0, UINT32_MAX - 1,
			  prio);
}

/*
 * One rule of import's "udsp:" block (the shape emit_udsp() writes; "NA"
 * or no key is an absent term) into @r.  Return: 0, or -EINVAL with a
 * message in @why.
 */
int parse_udsp_rule(yaml_document_t *doc, yaml_node_t *map,
		    struct udsp_rule *r, const char **why)
{
	yaml_node_pair_t *pair;
	long long v;
	int t;

	memset(r, 0, sizeof(*r));
	r->prio = -1;
	r->idx = -1;
	if (map->type != YAML_MAPPING_NODE) {
		*why = "a rule is not a mapping";
		return -EINVAL;
	}
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const char *key = PAIR_KEY(doc, pair);
		yaml_node_t *val = PAIR_VAL(doc, pair);
		const char *s = scalar(val);

		for (t = 0; t < UDSP_TERMS; t++)
			if (key && !strcmp(key, term_key[t]))
				break;
		if (t < UDSP_TERMS) {
			if (!s || strlen(s) >= sizeof(r->term[t])) {
				*why = "a term is not a short string";
				return -EINVAL;
			}
			if (strcmp(s, "NA"))
				strcpy(r->term[t], s);
		} else if (key && !strcmp(key, "idx")) {
			if (!s || parse_long(s, 0, INT32_MAX, &v)) {
				*why = "idx is not a number";
				return -EINVAL;
			}
			r->idx = v;
		} else if (key && !strcmp(key, "action")) {
			if (parse_action(doc, val, &r->prio)) {
				*why = "action is not NA or a priority";
				return -EINVAL;
			}
		} else {
			*why = "invalid key in a rule";
			return -EINVAL;
		}
	}
	return 0;
}

static int udsp_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "src", required_argument, NULL, 's' },
		{ "dst", required_argument, NULL, 'd' },
		{ "rte", required_argument, NULL, 'r' },
		{ "priority", required_argument, NULL, 'p' },
		{ "idx", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct udsp_rule r = { .prio = -1 };
	long long idx = -1, v;
	struct lnl_error err;
	int c, t;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
		case 'd':
		case 'r':
			t = c == 's' ? 0 : c == 'd' ? 1 : 2;
			if (strlen(optarg) >= sizeof(r.term[t]))
				return usage_error("add", "udsp",
						   "--%s value too long",
						   term_key[t]);
			strcpy(r.term[t], optarg);
			break;
		case 'p':
			if (parse_long(optarg, 0, UINT32_MAX - 1, &v))
				return usage_error("add", "udsp",
						   "invalid --priority '%s'",
						   optarg);
			r.prio = v;
			break;
		case 'i':
			if (parse_long(optarg, 0, INT32_MAX, &idx))
				return usage_error("add", "udsp",
						   "invalid --idx '%s'",
						   optarg);
			break;
		default:
			return bad_option("add", "udsp", argv);
		}
	}
	if (optind < argc)
		return usage_error("add", "udsp", "unexpected argument '%s'",
				   argv[optind]);
	if (open_or_report("add", "udsp"))
		return 1;
	if (do_udsp_add(&r, idx, &err) < 0) {
		report_nl_error("add", "udsp", "cannot add rule", &err);
		return 1;
	}
	return 0;
}

static int udsp_del(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "idx", required_argument, NULL, 'i' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	long long idx = -1;
	struct lnl_error err;
	bool all = false;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'i') {
			if (parse_long(optarg, 0, INT32_MAX, &idx))
				return usage_error("del", "udsp",
						   "invalid --idx '%s'",
						   optarg);
		} else if (c == 'a') {
			all = true;
		} else {
			return bad_option("del", "udsp", argv);
		}
	}
	if (optind < argc)
		return usage_error("del", "udsp", "unexpected argument '%s'",
				   argv[optind]);
	if (all ? idx >= 0 : idx < 0)
		return usage_error("del", "udsp", "%s",
				   "give either --idx or --all");
	if (open_or_report("del", "udsp"))
		return 1;
	if (do_udsp_del(idx, &err) < 0) {
		report_nl_error("del", "udsp", "cannot delete rule", &err);
		return 1;
	}
	return 0;
}

static int udsp_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "idx", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct udsp_list l;
	long long idx = -1;
	struct lnl_error err;
	struct yout y;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'i')
			return bad_option("show", "udsp", argv);
		if (parse_long(optarg, 0, INT32_MAX, &idx))
			return usage_error("show", "udsp", "invalid --idx '%s'",
					   optarg);
	}
	if (optind < argc)
		return usage_error("show", "udsp", "unexpected argument '%s'",
				   argv[optind]);
	if (open_or_report("show", "udsp"))
		return 1;
	if (get_udsp(idx, &l, &err) < 0) {
		report_nl_error("show", "udsp", "cannot get rules", &err);
		return 1;
	}
	if (idx >= 0 && !l.n) {
		report_error("show", "udsp", ENOENT, "no rule has index %s",
			     argv[optind - 1]);
		return 1;
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	emit_udsp(&y, &l, false, false);
	yout_end_map(&y);
	rc = yout_end(&y);
	free(l.r);
	return rc ? 1 : 0;
}

int cmd_udsp(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("udsp", "udsp", "%s",
				   "usage: udsp add|del|show [options]");
	if (!strcmp(argv[1], "add"))
		return udsp_add(argc - 1, argv + 1);
	if (!strcmp(argv[1], "del"))
		return udsp_del(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return udsp_show(argc - 1, argv + 1);
	return usage_error("udsp", "udsp", "unknown subcommand '%s'",
			   argv[1]);
}

int parse_udsp_info(struct nlattr *nest, struct udsp_info *u)
{
	struct nlattr *ut[LNET_UDSP_A_MAX + 1];
	struct nlattr *a;
	int rem;

	memset(u, 0, sizeof(*u));
	if (lnl_nest_parse(ut, LNET_UDSP_A_MAX, nest))
		return -EPROTO;
	u->has = true;
	u->net_prio = ut[LNET_UDSP_A_NET_PRIO] ?
		      (long long)nla_get_u32(ut[LNET_UDSP_A_NET_PRIO]) : -1;
	u->nid_prio = ut[LNET_UDSP_A_NID_PRIO] ?
		      (long long)nla_get_u32(ut[LNET_UDSP_A_NID_PRIO]) : -1;
	if (ut[LNET_UDSP_A_PREF_RTR])
		nla_for_each_nested(a, ut[LNET_UDSP_A_PREF_RTR], rem)
			if (u->nrtr < UDSP_PREF_MAX)
				snprintf(u->rtr[u->nrtr++], sizeof(u->rtr[0]),
					 "%s", (const char *)nla_data(a));
	if (!ut[LNET_UDSP_A_PREF_SRC])
		return 0;
	u->has_pref = true;
	nla_for_each_nested(a, ut[LNET_UDSP_A_PREF_SRC], rem)
		if (u->npref < UDSP_PREF_MAX)
			snprintf(u->pref[u->npref++], sizeof(u->pref[0]),
				 "%s", (const char *)nla_data(a));
	return 0;
}

/* "udsp info:" (-v 4); a priority no rule gives is -1. */
void emit_udsp_info(struct yout *y, const struct udsp_info *u)
{
	unsigned int i;

	if (!u->has)
		return;
	yout_str(y, "udsp info");
	yout_map(y);
	yout_kv_int(y, "net priority", u->net_prio);
	yout_kv_int(y, "nid priority", u->nid_prio);
	if (u->nrtr) {
		yout_str(y, "Preferred gateway NIDs");
		yout_seq(y);
		for (i = 0; i < u->nrtr; i++)
			yout_str(y, u->rtr[i]);
		yout_end_seq(y);
	}
	if (u->has_pref && u->npref) {
		yout_str(y, "Preferred source NIDs");
		yout_seq(y);
		for (i = 0; i < u->npref; i++)
			yout_str(y, u->pref[i]);
		yout_end_seq(y);
	}
	yout_end_map(y);
}
