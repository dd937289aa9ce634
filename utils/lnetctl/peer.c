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
#include <strings.h>

#include "lnetctl.h"
#include "nidrange.h"

struct peer_ni_rec {
	char prim[LNET_GENL_NID_LEN];
	char nid[LNET_GENL_NID_LEN];
	bool multi_rail;
	unsigned int state;
	int alive;		/* -1: not tracked (NA), 0 down, 1 up */
	bool has_detail, has_msgs, has_lat;
	unsigned long long lat[LNET_LAT_A_MAX + 1];
	unsigned int refcount;
	int cr[LNET_PEER_CR_A_MAX + 1];
	unsigned int stats[LNET_NI_STATS_A_MAX + 1];
	unsigned int msgs[3][LNET_MSG_A_MAX + 1];
	struct udsp_info udsp;
	struct health_rec health;
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
	p->alive = tb[LNET_A_NI_STATUS] ? nla_get_u8(tb[LNET_A_NI_STATUS]) : -1;
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
	if (tb[LNET_A_UDSP_INFO] &&
	    parse_udsp_info(tb[LNET_A_UDSP_INFO], &p->udsp))
		return -EPROTO;
	if (tb[LNET_A_HEALTH] && parse_health(tb[LNET_A_HEALTH], &p->health))
		return -EPROTO;
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

/* @detail -1: export --backup, which has no "state" (as stock's). */
static void emit_peer_ni(struct yout *y, const struct peer_ni_rec *p,
			 int detail)
{
	yout_map(y);
	yout_kv_str(y, "nid", p->nid);
	if (detail >= 0)	/* up/down as routing spec 9 says, else NA */
		yout_kv_str(y, "state", p->alive < 0 ? "NA" :
				       p->alive ? "up" : "down");
	if (detail >= 1 && p->has_detail) {
		yout_kv_int(y, "max_ni_tx_credits",
			    p->cr[LNET_PEER_CR_A_TX_MAX]);
		yout_kv_int(y, "available_tx_credits",
			    p->cr[LNET_PEER_CR_A_TX_AVAIL]);
		yout_kv_int(y, "min_tx_credits", p->cr[LNET_PEER_CR_A_TX_MIN]);
		yout_kv_uint(y, "tx_q_num_of_buf",
			     (unsigned int)p->cr[LNET_PEER_CR_A_TXQ_BYTES]);
		yout_kv_int(y, "available_rtr_credits",
			    p->cr[LNET_PEER_CR_A_RTR_AVAIL]);
		yout_kv_int(y, "min_rtr_credits", p->cr[LNET_PEER_CR_A_RTR_MIN]);
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
	if (detail >= 2)
		emit_health(y, &p->health, true);
	if (detail >= 4)
		emit_udsp_info(y, &p->udsp);
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

/*
 * The NIDs of a --nid list (NIDs and range expressions) into @out, but
 * @prim, which a range may include: the primary NID comes anyway.
 * Return: their number, or -errno after reporting it for @what.
 */
static int peer_nid_list(const char *what, const char *list, const char *prim,
			 char (*out)[LNET_GENL_NID_LEN])
{
	int n = nid_list_expand(list, out, LNET_GENL_PEER_NIDS_MAX), i;

	if (n < 0) {
		usage_error(what, "peer",
			    n == -E2BIG ?
			    "invalid --nid value '%s': more than 256 NIDs" :
			    "invalid --nid value '%s': not a list of NIDs or NID ranges",
			    list);
		return n;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(out[i], prim))
			memmove(out[i], out[i + 1], (size_t)(--n - i) * sizeof(*out));
	return n;
}

static int peer_del(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prim_nid", required_argument, NULL, 'p' },
		{ "nid", required_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	static char nidv[LNET_GENL_PEER_NIDS_MAX][LNET_GENL_NID_LEN];
	const char *prim = NULL, *nid = NULL;
	struct lnl_error err;
	bool force = false;
	int c, i = 0, n = 0;

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
	if (nid) {
		n = peer_nid_list("del", nid, prim, nidv);
		if (n < 0)
			return 1;
		/* the list named the primary NID: the whole peer goes */
		if (n < nid_list_expand(nid, nidv, LNET_GENL_PEER_NIDS_MAX))
			n = 0;
	}
	if (open_or_report("del", "peer"))
		return 1;
	do {
		if (do_peer_del(prim, n ? nidv[i] : NULL, force, &err) < 0) {
			report_nl_error("del", "peer", "cannot delete peer",
					&err);
			return 1;
		}
	} while (++i < n);
	return 0;
}

/**
 * do_peer_add() - LNET_CMD_PEER_ADD
 * @r: the peer: primary NID, more NIDs, multi-rail, locked primary
 * @err: the kernel's answer
 *
 * Return: 0 or -errno.
 */
int do_peer_add(const struct peer_add_req *r, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_PEER_ADD, false);
	struct nlattr *nest;
	unsigned int i;

	if (msg && (nla_put_string(msg, LNET_A_PRIMARY_NID, r->prim) ||
		    nla_put_u8(msg, LNET_A_MULTI_RAIL, r->mr) ||
		    (r->lock_prim && nla_put_flag(msg, LNET_A_LOCK_PRIMARY)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (msg && r->n) {
		nest = nla_nest_start(msg, LNET_A_PEER_NIDS);
		for (i = 0; nest && i < r->n; i++)
			if (nla_put_string(msg, LNET_A_NID, r->nids[i]))
				nest = NULL;
		if (nest) {
			nla_nest_end(msg, nest);
		} else {
			nlmsg_free(msg);
			msg = NULL;
		}
	}
	return lnl_run(msg, NULL, NULL, err);
}

/**
 * do_peer_del() - LNET_CMD_PEER_DEL
 * @prim: the peer's primary NID
 * @nid: one NID of it to delete, or NULL for the peer
 * @force: also a peer with a locked primary NID
 * @err: the kernel's answer
 *
 * Return: 0 or -errno.
 */
int do_peer_del(const char *prim, const char *nid, bool force,
		struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_PEER_DEL, false);

	if (msg && (nla_put_string(msg, LNET_A_PRIMARY_NID, prim) ||
		    (nid && nla_put_string(msg, LNET_A_NID, nid)) ||
		    (force && nla_put_flag(msg, LNET_A_FORCE)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
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
	static char nidv[LNET_GENL_PEER_NIDS_MAX][LNET_GENL_NID_LEN];
	const char *list[LNET_GENL_PEER_NIDS_MAX];
	bool non_mr = false, lock_prim = false;
	char *prim = NULL, *nids = NULL;
	struct peer_add_req r = { 0 };
	struct lnl_error err;
	int c, n = 0;

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
	if (nids) {
		n = peer_nid_list("add", nids, prim, nidv);
		if (n < 0)
			return 1;
	}
	if (open_or_report("add", "peer"))
		return 1;
	r.prim = prim;
	r.mr = !non_mr;
	r.lock_prim = lock_prim;
	while (r.n < (unsigned int)n) {
		list[r.n] = nidv[r.n];
		r.n++;
	}
	r.nids = list;
	if (do_peer_add(&r, &err) < 0) {
		report_nl_error("add", "peer", "cannot add peer", &err);
		return 1;
	}
	return 0;
}

/* --- export and import of configured peers --- */

/* Lustre's peer state bit 3, LNET_PEER_CONFIGURED. */
#define PEER_STATE_CONFIGURED	8U

/**
 * emit_configured_peers() - "peer:" with the peers "peer add" made
 * @y: the output
 * @only: emit just these peers (by primary NID), or all if NULL
 * @n_only: entries in @only
 * @backup: in export --backup's shape (no peer NI "state")
 * @err: the kernel's answer on failure
 *
 * Peers that traffic made are not configuration: the next send makes
 * them again.  Nothing is emitted when there is no configured peer.
 *
 * Return: 0 or -errno.
 */
int emit_configured_peers(struct yout *y, const struct peer_add_req *only,
			  unsigned int n_only, bool backup,
			  struct lnl_error *err)
{
	struct peer_ni_list l, sel = { NULL, 0 };
	unsigned int i, j;
	int rc;

	rc = get_peer_nis(NULL, 0, &l, err);
	if (rc < 0)
		return rc;
	sel.p = calloc(l.n + 1, sizeof(*sel.p));
	if (!sel.p) {
		free(l.p);
		return -ENOMEM;
	}
	for (i = 0; i < l.n; i++) {
		if (!(l.p[i].state & PEER_STATE_CONFIGURED))
			continue;
		for (j = 0; only && j < n_only; j++)
			if (!strcmp(only[j].prim, l.p[i].prim))
				break;
		if (!only || j < n_only)
			sel.p[sel.n++] = l.p[i];
	}
	if (sel.n)
		emit_peers(y, &sel, backup ? -1 : 0, false);
	free(sel.p);
	free(l.p);
	return 0;
}

/**
 * peer_missing() - the first of @reqs no peer has as its primary NID
 * @reqs: peers, by primary NID
 * @n: entries in @reqs
 * @missing: out: that primary NID, or NULL if all exist
 * @err: the kernel's answer on failure
 *
 * Return: 0 or -errno.
 */
int peer_missing(const struct peer_add_req *reqs, unsigned int n,
		 const char **missing, struct lnl_error *err)
{
	struct peer_ni_list l;
	unsigned int i, j;
	int rc;

	*missing = NULL;
	rc = get_peer_nis(NULL, 0, &l, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < n && !*missing; i++) {
		for (j = 0; j < l.n; j++)
			if (!strcmp(l.p[j].prim, reqs[i].prim))
				break;
		if (j == l.n)
			*missing = reqs[i].prim;
	}
	free(l.p);
	return 0;
}

/* Keys of "peer show" import accepts and does not apply. */
static const char * const peer_show_only[] = { "peer state" };
static const char * const peer_ni_show_only[] = {
	"state", "max_ni_tx_credits", "available_tx_credits",
	"min_tx_credits", "tx_q_num_of_buf", "available_rtr_credits",
	"min_rtr_credits", "refcount", "statistics", "sent_stats",
	"received_stats", "dropped_stats", "health stats", "udsp info",
};

static int plan_peer_bad(const char *what, const char *val)
{
	report_error("add", "peer", EINVAL, what, val ? val : "");
	return -EINVAL;
}

/* The "peer ni" sequence of a peer: its NIDs into @r. */
static int plan_peer_nis(yaml_document_t *doc, yaml_node_t *seq,
			 struct peer_add_req *r)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *pair;

	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return plan_peer_bad("peer %s: 'peer ni' is not a sequence",
				     r->prim);
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		yaml_node_t *map = yaml_document_get_node(doc, *it);
		const char *nid = NULL;

		if (!map || map->type != YAML_MAPPING_NODE)
			return plan_peer_bad("peer %s: an entry of 'peer ni' is not a mapping",
					     r->prim);
		for (pair = map->data.mapping.pairs.start;
		     pair < map->data.mapping.pairs.top; pair++) {
			const char *key = PAIR_KEY(doc, pair);

			if (key && !strcmp(key, "nid"))
				nid = scalar(PAIR_VAL(doc, pair));
			else if (!key || !in_list(key, peer_ni_show_only,
						  ARRAY_SIZE(peer_ni_show_only)))
				return plan_peer_bad("invalid key '%s' in a peer ni",
						     key);
		}
		if (!nid || !valid_nid(nid))
			return plan_peer_bad("invalid or missing peer ni 'nid' '%s'",
					     nid);
		if (!strcmp(nid, r->prim)) {
			r->whole = true;
			continue;	/* the primary NID comes anyway */
		}
		if (r->n == LNET_GENL_PEER_NIDS_MAX)
			return plan_peer_bad("peer %s: too many NIDs", r->prim);
		r->nids[r->n++] = nid;
	}
	return 0;
}

/* One entry of "peer:" into @r (whose nids has room for the maximum). */
static int plan_peer(yaml_document_t *doc, yaml_node_t *map,
		     struct peer_add_req *r)
{
	yaml_node_t *nis = NULL;
	yaml_node_pair_t *pair;
	const char *mr = NULL;

	if (!map || map->type != YAML_MAPPING_NODE)
		return plan_peer_bad("an entry of 'peer' is not a mapping%s",
				     "");
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const char *key = PAIR_KEY(doc, pair);

		if (key && !strcmp(key, "primary nid"))
			r->prim = scalar(PAIR_VAL(doc, pair));
		else if (key && !strcmp(key, "Multi-Rail"))
			mr = scalar(PAIR_VAL(doc, pair));
		else if (key && !strcmp(key, "peer ni"))
			nis = PAIR_VAL(doc, pair);
		else if (!key || !in_list(key, peer_show_only,
					  ARRAY_SIZE(peer_show_only)))
			return plan_peer_bad("invalid key '%s' in a peer", key);
	}
	if (!r->prim || !valid_nid(r->prim))
		return plan_peer_bad("invalid or missing 'primary nid' '%s'",
				     r->prim);
	/* Lustre writes true/false, its ioctl tools True/False. */
	if (!mr || !strcasecmp(mr, "true"))
		r->mr = true;
	else if (!strcasecmp(mr, "false"))
		r->mr = false;
	else
		return plan_peer_bad("invalid 'Multi-Rail' '%s': true or false",
				     mr);
	r->whole = !nis;
	return nis ? plan_peer_nis(doc, nis, r) : 0;
}

/**
 * plan_peers() - check import's "peer:" block
 * @doc: the document
 * @seq: the block
 * @reqs: in/out: the peers to add, grown by those of @seq
 * @n: in/out: entries in @reqs
 *
 * Return: 0, or -errno after reporting what is wrong.
 */
int plan_peers(yaml_document_t *doc, yaml_node_t *seq,
	       struct peer_add_req **reqs, unsigned int *n)
{
	yaml_node_item_t *it;
	struct peer_add_req *r;
	int rc;

	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return plan_peer_bad("'peer' is not a sequence%s", "");
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		r = realloc(*reqs, (*n + 1) * sizeof(*r));
		if (!r)
			return -ENOMEM;
		*reqs = r;
		r += *n;
		memset(r, 0, sizeof(*r));
		r->nids = calloc(LNET_GENL_PEER_NIDS_MAX, sizeof(*r->nids));
		if (!r->nids)
			return -ENOMEM;
		(*n)++;
		rc = plan_peer(doc, yaml_document_get_node(doc, *it), r);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Free what plan_peers() allocated. */
void free_peer_plan(struct peer_add_req *reqs, unsigned int n)
{
	while (n--)
		free(reqs[n].nids);
	free(reqs);
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
	if (!strcmp(sub, "set"))
		return peer_set(argc - 1, argv + 1);
	return usage_error("peer", "peer",
			   "unknown subcommand '%s': use show, list, add, del or set",
			   sub);
}
