// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl peer show | list | add | del, in Lustre's YAML shapes (spec:
 * lnet-features-and-lnetctl.md 1a, 2):
 *
 *	peer:
 *	    - primary nid: 192.0.2.2@tcp
 *	      Multi-Rail: false
 *	      peer state: 8                     (-v 3)
 *	      peer ni:
 *	        - nid: 192.0.2.2@tcp
 *	          state: NA
 *	          max_ni_tx_credits: 8          (-v: credits, refcount and
 *	          ...                            statistics; -v 2: per type)
 *
 * The peer NIs come from the kernel one per message (LNET_CMD_PEER_GET),
 * a peer's NIs one after another; they are grouped by primary NID here.
 * Router
 * credits (available_rtr_credits, min_rtr_credits) are left out: nothing
 * routes yet.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"

struct peer_ni_rec {
	char prim[LNET_GENL_NID_LEN];
	char nid[LNET_GENL_NID_LEN];
	bool multi_rail;
	unsigned int state;
	bool has_detail, has_msgs, has_lat;
	unsigned long long lat[LNET_LAT_A_MAX + 1];
	unsigned int refcount;
	int cr[LNET_PEER_CR_A_MAX + 1];
	unsigned int stats[LNET_NI_STATS_A_MAX + 1];
	unsigned int msgs[3][LNET_MSG_A_MAX + 1];
};

struct peer_ni_list {
	struct peer_ni_rec *p;
	unsigned int n;
};

static int peer_ni_cb(struct nlattr **tb, struct nlattr *head, int len,
		      void *arg)
{
	static const int msg_attr[3] = {
		LNET_A_NI_SENT, LNET_A_NI_RECEIVED, LNET_A_NI_DROPPED,
	};
	unsigned int cr[LNET_PEER_CR_A_MAX + 1] = { 0 };
	struct peer_ni_list *l = arg;
	struct peer_ni_rec *p;
	int i;

	(void)head;
	(void)len;
	if (!tb[LNET_A_PRIMARY_NID] || !tb[LNET_A_NID])
		return -EPROTO;
	p = realloc(l->p, (l->n + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	l->p = p;
	p += l->n++;
	memset(p, 0, sizeof(*p));
	snprintf(p->prim, sizeof(p->prim), "%s",
		 nla_get_string(tb[LNET_A_PRIMARY_NID]));
	snprintf(p->nid, sizeof(p->nid), "%s", nla_get_string(tb[LNET_A_NID]));
	if (tb[LNET_A_MULTI_RAIL])
		p->multi_rail = nla_get_u8(tb[LNET_A_MULTI_RAIL]);
	if (tb[LNET_A_PEER_STATE])
		p->state = nla_get_u32(tb[LNET_A_PEER_STATE]);
	if (tb[LNET_A_PEER_REFCOUNT] && tb[LNET_A_PEER_CREDITS] &&
	    tb[LNET_A_NI_STATS]) {
		p->refcount = nla_get_u32(tb[LNET_A_PEER_REFCOUNT]);
		if (lnl_nest_u32s(tb[LNET_A_PEER_CREDITS], LNET_PEER_CR_A_MAX,
				  cr) ||
		    lnl_nest_u32s(tb[LNET_A_NI_STATS], LNET_NI_STATS_A_MAX,
				  p->stats))
			return -EPROTO;
		for (i = 0; i <= LNET_PEER_CR_A_MAX; i++)
			p->cr[i] = (int)cr[i];
		p->has_detail = true;
	}
	if (tb[LNET_A_LATENCY]) {
		if (lnl_nest_latency(tb[LNET_A_LATENCY], p->lat))
			return -EPROTO;
		p->has_lat = true;
	}
	for (i = 0; i < 3; i++) {
		if (!tb[msg_attr[i]])
			continue;
		if (lnl_nest_u32s(tb[msg_attr[i]], LNET_MSG_A_MAX, p->msgs[i]))
			return -EPROTO;
		p->has_msgs = true;
	}
	return 0;
}

static int get_peer_nis(const char *nid, int detail, struct peer_ni_list *l,
			struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_PEER_GET, true);
	int rc;

	l->p = NULL;
	l->n = 0;
	if (msg && ((nid && nla_put_string(msg, LNET_A_NID, nid)) ||
		    nla_put_u8(msg, LNET_A_DETAIL, detail))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	rc = lnl_run(msg, peer_ni_cb, l, err);
	if (rc < 0) {
		free(l->p);
		l->p = NULL;
		l->n = 0;
	}
	return rc;
}

static void emit_peer_ni(struct yout *y, const struct peer_ni_rec *p,
			 int detail)
{
	yout_map(y);
	yout_kv_str(y, "nid", p->nid);
	yout_kv_str(y, "state", "NA");
	if (detail >= 1 && p->has_detail) {
		yout_kv_int(y, "max_ni_tx_credits",
			    p->cr[LNET_PEER_CR_A_TX_MAX]);
		yout_kv_int(y, "available_tx_credits",
			    p->cr[LNET_PEER_CR_A_TX_AVAIL]);
		yout_kv_int(y, "min_tx_credits", p->cr[LNET_PEER_CR_A_TX_MIN]);
		yout_kv_uint(y, "tx_q_num_of_buf",
			     (unsigned int)p->cr[LNET_PEER_CR_A_TXQ_BYTES]);
		yout_kv_uint(y, "refcount", p->refcount);
		yout_str(y, "statistics");
		yout_map(y);
		yout_kv_uint(y, "send_count",
			     p->stats[LNET_NI_STATS_A_SEND_COUNT]);
		yout_kv_uint(y, "recv_count",
			     p->stats[LNET_NI_STATS_A_RECV_COUNT]);
		yout_kv_uint(y, "drop_count",
			     p->stats[LNET_NI_STATS_A_DROP_COUNT]);
		if (p->has_lat)
			emit_latency(y, p->lat);
		yout_end_map(y);
	}
	if (detail >= 2 && p->has_msgs) {
		emit_counts(y, "sent_stats", p->msgs[0]);
		emit_counts(y, "received_stats", p->msgs[1]);
		emit_counts(y, "dropped_stats", p->msgs[2]);
	}
	yout_end_map(y);
}

/* "peer:", or "peer list:" with the primary NIDs only. */
static void emit_peers(struct yout *y, const struct peer_ni_list *l,
		       int detail, bool list)
{
	unsigned int i;

	yout_str(y, list ? "peer list" : "peer");
	yout_seq(y);
	for (i = 0; i < l->n; i++) {
		bool first = !i || strcmp(l->p[i].prim, l->p[i - 1].prim);
		bool last = i + 1 == l->n ||
			    strcmp(l->p[i].prim, l->p[i + 1].prim);

		if (list) {
			if (first) {
				yout_map(y);
				yout_kv_str(y, "nid", l->p[i].prim);
				yout_end_map(y);
			}
			continue;
		}
		if (first) {
			yout_map(y);
			yout_kv_str(y, "primary nid", l->p[i].prim);
			yout_kv_str(y, "Multi-Rail",
				    l->p[i].multi_rail ? "true" : "false");
			if (detail >= 3)
				yout_kv_uint(y, "peer state", l->p[i].state);
			yout_str(y, "peer ni");
			yout_seq(y);
		}
		emit_peer_ni(y, &l->p[i], detail);
		if (last) {
			yout_end_seq(y);
			yout_end_map(y);
		}
	}
	yout_end_seq(y);
}

static int peer_show(int argc, char **argv, bool list)
{
	static const struct option opts[] = {
		{ "nid", required_argument, NULL, 'n' },
		{ "verbose", optional_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = list ? "list" : "show";
	const char *nid = NULL;
	struct peer_ni_list l;
	struct lnl_error err;
	int c, detail = 0, rc;
	struct yout y;

	while ((c = getopt_long(argc, argv, list ? "" : "n:v::", opts,
				NULL)) != -1) {
		if (c == 'n' && !list) {
			nid = optarg;
		} else if (c == 'v' && !list) {
			if (parse_detail("peer", argc, argv, &detail))
				return 1;
		} else {
			return bad_option(what, "peer", argv);
		}
	}
	if (optind < argc)
		return usage_error(what, "peer", "unexpected argument '%s'",
				   argv[optind]);
	if (nid && !valid_nid(nid))
		return usage_error(what, "peer",
				   "invalid --nid value '%s': not a NID", nid);
	if (open_or_report(what, "peer"))
		return 1;
	if (get_peer_nis(nid, detail, &l, &err) < 0) {
		report_nl_error(what, "peer", "cannot get peers", &err);
		return 1;
	}
	if (nid && !l.n) {
		report_error(what, "peer", ENOENT, "no peer has NID '%s'", nid);
		return 1;
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	emit_peers(&y, &l, detail, list);
	yout_end_map(&y);
	rc = yout_end(&y);
	free(l.p);
	return rc ? 1 : 0;
}

static int peer_del(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prim_nid", required_argument, NULL, 'p' },
		{ "nid", required_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prim = NULL, *nid = NULL;
	struct lnl_error err;
	struct nl_msg *msg;
	bool force = false;
	int c;

	while ((c = getopt_long(argc, argv, "p:n:f", opts, NULL)) != -1) {
		if (c == 'p')
			prim = optarg;
		else if (c == 'n')
			nid = optarg;
		else if (c == 'f')
			force = true;
		else
			return bad_option("del", "peer", argv);
	}
	if (optind < argc)
		return usage_error("del", "peer", "unexpected argument '%s'",
				   argv[optind]);
	if (!prim)
		return usage_error("del", "peer",
				   "missing mandatory parameter --prim_nid%s",
				   "");
	if (!valid_nid(prim))
		return usage_error("del", "peer",
				   "invalid --prim_nid value '%s': not a NID",
				   prim);
	if (nid && !valid_nid(nid))
		return usage_error("del", "peer",
				   "invalid --nid value '%s': not a NID", nid);
	if (open_or_report("del", "peer"))
		return 1;
	msg = lnl_msg(LNET_CMD_PEER_DEL, false);
	if (msg && (nla_put_string(msg, LNET_A_PRIMARY_NID, prim) ||
		    (nid && nla_put_string(msg, LNET_A_NID, nid)) ||
		    (force && nla_put_flag(msg, LNET_A_FORCE)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (lnl_run(msg, NULL, NULL, &err) < 0) {
		report_nl_error("del", "peer", "cannot delete peer", &err);
		return 1;
	}
	return 0;
}

/* Put each NID of the comma-separated @list into a PEER_NIDS nest. */
static int put_nid_list(struct nl_msg *msg, char *list)
{
	struct nlattr *nest = nla_nest_start(msg, LNET_A_PEER_NIDS);
	char *tok, *save = NULL;

	if (!nest)
		return -1;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (nla_put_string(msg, LNET_A_NID, tok))
			return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* Every NID of the comma-separated @list is valid; at most @max of them. */
static const char *bad_nid_in_list(const char *list, unsigned int max,
				   char *buf, size_t size)
{
	const char *p = list;
	unsigned int n = 0;

	while (*p) {
		size_t len = strcspn(p, ",");

		snprintf(buf, size, "%.*s", (int)len, p);
		if (!len || len >= size || !valid_nid(buf) || ++n > max)
			return buf;
		p += len;
		if (*p)
			p++;
	}
	return p == list || p[-1] == ',' ? "" : NULL;
}

static int peer_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prim_nid", required_argument, NULL, 'p' },
		{ "nid", required_argument, NULL, 'n' },
		{ "non_mr", no_argument, NULL, 'm' },
		{ "lock_prim", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	bool non_mr = false, lock_prim = false;
	char *prim = NULL, *nids = NULL;
	char buf[LNET_GENL_NID_LEN];
	struct lnl_error err;
	struct nl_msg *msg;
	const char *bad;
	int c;

	while ((c = getopt_long(argc, argv, "p:n:ml", opts, NULL)) != -1) {
		if (c == 'p')
			prim = optarg;
		else if (c == 'n')
			nids = optarg;
		else if (c == 'm')
			non_mr = true;
		else if (c == 'l')
			lock_prim = true;
		else
			return bad_option("add", "peer", argv);
	}
	if (optind < argc)
		return usage_error("add", "peer", "unexpected argument '%s'",
				   argv[optind]);
	if (!prim)
		return usage_error("add", "peer",
				   "missing mandatory parameter --prim_nid%s",
				   "");
	if (!valid_nid(prim))
		return usage_error("add", "peer",
				   "invalid --prim_nid value '%s': not a NID",
				   prim);
	bad = nids ? bad_nid_in_list(nids, LNET_GENL_PEER_NIDS_MAX, buf,
				     sizeof(buf)) : NULL;
	if (bad)
		return usage_error("add", "peer",
				   "invalid --nid value '%s': not a list of at most 256 NIDs",
				   nids);
	if (open_or_report("add", "peer"))
		return 1;
	msg = lnl_msg(LNET_CMD_PEER_ADD, false);
	if (msg && (nla_put_string(msg, LNET_A_PRIMARY_NID, prim) ||
		    (nids && put_nid_list(msg, nids)) ||
		    nla_put_u8(msg, LNET_A_MULTI_RAIL, !non_mr) ||
		    (lock_prim && nla_put_flag(msg, LNET_A_LOCK_PRIMARY)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (lnl_run(msg, NULL, NULL, &err) < 0) {
		report_nl_error("add", "peer", "cannot add peer", &err);
		return 1;
	}
	return 0;
}

int cmd_peer(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	optind = 1;
	if (!strcmp(sub, "show"))
		return peer_show(argc - 1, argv + 1, false);
	if (!strcmp(sub, "list"))
		return peer_show(argc - 1, argv + 1, true);
	if (!strcmp(sub, "add"))
		return peer_add(argc - 1, argv + 1);
	if (!strcmp(sub, "del"))
		return peer_del(argc - 1, argv + 1);
	return usage_error("peer", "peer",
			   "unknown subcommand '%s': use show, list, add or del",
			   sub);
}
