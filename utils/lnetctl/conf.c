// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl export / import: the configuration as YAML, in the shape of
 * "net show", "route show -v", "peer show" (the configured peers),
 * "routing show" (only once routing made pools; --backup: "routing:
 * enable: N" and "buffers:" with the totals), "global show" and "udsp
 * show", in stock's order (routing spec 10.5); then, ours, "nidmap:"
 * (lnet_nidmap's roles and registrations, nidmap.c; none if the module
 * is not loaded).
 * Import checks the whole file before it changes anything (plan.c), and
 * undoes what it did if the kernel refuses a part.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"
#include "plan.h"

/* --- export --- */

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "backup", no_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL;
	struct lnl_error err;
	struct param *p = NULL;
	struct ni_list l = { NULL, 0 };
	struct udsp_list u = { NULL, 0 };
	struct route_list rl = { NULL, 0 };
	struct routing_rec rr;
	bool backup = false;
	unsigned int n = 0;
	struct yout y;
	FILE *f = stdout;
	int c, nm_rc, rc = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b", opts, NULL)) != -1) {
		if (c != 'b') {
			report_error("export", "export", EINVAL,
				     "unknown option '%s'", argv[optind - 1]);
			return 1;
		}
		backup = true;
	}
	if (optind < argc)
		file = argv[optind++];
	if (optind < argc) {
		report_error("export", "export", EINVAL,
			     "unexpected argument '%s'", argv[optind]);
		return 1;
	}
	if (lnl_open(&err) < 0) {
		report_nl_error("export", "export", "cannot reach LNet", &err);
		return 1;
	}
	if (get_nis(NULL, backup ? 1 : 2, &l, &err) < 0) {
		report_nl_error("show", "net", "cannot get networks", &err);
		return 1;
	}
	if (get_globals(&p, &n, &err) < 0) {
		report_nl_error("show", "global", "cannot get parameters",
				&err);
		goto out;
	}
	if (get_udsp(-1, &u, &err) < 0) {
		report_nl_error("show", "udsp", "cannot get rules", &err);
		goto out;
	}
	if (get_routes(NULL, &rl, &err) < 0) {
		report_nl_error("show", "route", "cannot get routes", &err);
		goto out;
	}
	if (do_routing_get(&rr, &err) < 0) {
		report_nl_error("show", "routing", "cannot get routing", &err);
		goto out;
	}
	if (file) {
		f = fopen(file, "w");
		if (!f) {
			report_error("export", "export", errno,
				     "cannot open '%s': %s", file,
				     strerror(errno));
			goto out;
		}
	}
	yout_begin(&y, f);
	yout_map(&y);
	emit_nets(&y, &l, backup ? 1 : 2, backup);
	emit_routes(&y, &rl, true, backup);
	if (emit_configured_peers(&y, NULL, 0, backup, &err) < 0) {
		report_nl_error("show", "peer", "cannot get peers", &err);
		yout_end_map(&y);
		yout_end(&y);
		if (file)
			fclose(f);
		goto out;
	}
	if (rr.npools)
		emit_routing(&y, &rr, backup);
	emit_globals(&y, p, n);
	emit_udsp(&y, &u, true, backup);
	/* last: it closes lnet's family */
	nm_rc = nidmap_export(&y);
	yout_end_map(&y);
	rc = yout_end(&y) || nm_rc ? 1 : 0;
	if (file && fclose(f)) {
		report_error("export", "export", errno, "cannot write '%s': %s",
			     file, strerror(errno));
		rc = 1;
	}
out:
	free(l.ni);
	free(u.r);
	free(rl.r);
	free(p);
	return rc;
}

/* --- import --- */

enum import_mode { IMPORT_ADD, IMPORT_DEL, IMPORT_SHOW, IMPORT_EXEC };

/* Undo the first @n_* of each kind, in the reverse order of import_add(). */
static void undo_import(struct plan *pl, unsigned int n_ni,
			unsigned int n_par, unsigned int n_route,
			unsigned int n_peer, unsigned int n_udsp)
{
	struct lnl_error err;

	while (n_udsp--)
		do_udsp_del(pl->udsp_at[n_udsp], &err);
	while (n_peer--)
		do_peer_del(pl->peer[n_peer].prim, NULL, true, &err);
	/* buffers first, while routing is as the import set it */
	if (pl->buffers_done && pl->old_routing == 1)
		do_buffers_set(pl->old_buffers, &err);
	if (pl->routing_done)
		do_routing_set(pl->old_routing == 1, &err);
	pl->buffers_done = false;
	pl->routing_done = false;
	while (n_route--)
		do_route_del(pl->route[n_route].net, pl->route[n_route].gw,
			     &err);
	while (n_par--)
		do_global_set(pl->par[n_par].name, pl->par[n_par].old, &err);
	while (n_ni--)
		do_net_del(pl->ni[n_ni].net, pl->ni[n_ni].ifname, NULL, &err);
}

static bool udsp_same_terms(const struct udsp_rule *a,
			    const struct udsp_rule *b)
{
	unsigned int t;

	for (t = 0; t < UDSP_TERMS; t++)
		if (strcmp(a->term[t], b->term[t]))
			return false;
	return true;
}

/* The index of the rule with @r's terms in @l, or -1. */
static long long udsp_find(const struct udsp_list *l,
			   const struct udsp_rule *r)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (udsp_same_terms(&l->r[i], r))
			return l->r[i].idx;
	return -1;
}

/* Does the file name a rule with @r's terms? */
static bool udsp_planned(const struct plan *pl, const struct udsp_rule *r)
{
	unsigned int i;

	for (i = 0; i < pl->n_udsp; i++)
		if (udsp_same_terms(&pl->udsp[i], r))
			return true;
	return false;
}

/*
 * Rules last: each at its idx (or last), so that undo can delete it
 * there.  A rule with the terms of one present replaces it, and undo
 * then deletes it.
 */
static int import_add_udsp(struct plan *pl)
{
	struct udsp_list l;
	struct lnl_error err;
	unsigned int i;

	if (pl->n_udsp && get_udsp(-1, &l, &err) < 0) {
		undo_import(pl, pl->n_ni, pl->n_par, pl->n_route, pl->n_peer,
			    0);
		report_nl_error("show", "udsp", "cannot get rules", &err);
		return 1;
	}
	for (i = 0; i < pl->n_udsp; i++) {
		struct udsp_rule *r = &pl->udsp[i];
		long long at = udsp_find(&l, r);

		if (at < 0)
			at = r->idx >= 0 && r->idx < l.n + i ? r->idx : l.n + i;
		pl->udsp_at[i] = at;
		if (do_udsp_add(r, r->idx, &err) < 0) {
			undo_import(pl, pl->n_ni, pl->n_par, pl->n_route,
				    pl->n_peer, i);
			report_nl_error("add", "udsp", "cannot add rule", &err);
			free(l.r);
			return 1;
		}
	}
	if (pl->n_udsp)
		free(l.r);
	return 0;
}

/*
 * "routing:" then "buffers:", whatever their order in the file: a count
 * is a no-op while routing is disabled (spec 10.5).  What was there is
 * kept for undo_import(): the state, and the totals if routing was on
 * (while it is off the kernel does not say the stored ones).
 */
static int import_add_routing(struct plan *pl)
{
	struct routing_rec rr;
	struct lnl_error err;
	unsigned int i;

	if (!pl->has_routing && !pl->has_buffers)
		return 0;
	if (do_routing_get(&rr, &err) < 0) {
		report_nl_error("show", "routing", "cannot get routing", &err);
		return -1;
	}
	pl->old_routing = rr.state;
	for (i = 0; i < ARRAY_SIZE(pl->old_buffers); i++)
		pl->old_buffers[i] = i < rr.npools ?
			(long long)rr.pool[i][LNET_RTRPOOL_A_NBUFFERS] : -1;
	if (pl->has_routing) {
		if (do_routing_set(pl->routing, &err) < 0) {
			char prefix[64];

			snprintf(prefix, sizeof(prefix),
				 "cannot set routing to %d", pl->routing);
			report_nl_error("set", "routing", prefix, &err);
			return -1;
		}
		pl->routing_done = true;
	}
	if (pl->has_buffers) {
		if (do_buffers_set(pl->buffers, &err) < 0) {
			report_nl_error("set", "buffers",
					"cannot set the router buffers", &err);
			return -1;
		}
		pl->buffers_done = true;
	}
	return 0;
}

static int import_add(struct plan *pl)
{
	struct lnl_error err;
	unsigned int i;

	for (i = 0; i < pl->n_par; i++) {
		if (do_global_get(pl->par[i].name, &pl->par[i].old,
				  &err) < 0) {
			report_nl_error("set", pl->par[i].name,
					"cannot read parameter", &err);
			return 1;
		}
	}
	for (i = 0; i < pl->n_ni; i++) {
		if (do_net_add(&pl->ni[i], &err) < 0) {
			undo_import(pl, i, 0, 0, 0, 0);
			report_nl_error("add", "net", "cannot add network",
					&err);
			return 1;
		}
	}
	for (i = 0; i < pl->n_par; i++) {
		if (do_global_set(pl->par[i].name, pl->par[i].value,
				  &err) < 0) {
			char prefix[96];

			undo_import(pl, pl->n_ni, i, 0, 0, 0);
			snprintf(prefix, sizeof(prefix),
				 "cannot set %s to %lld", pl->par[i].name,
				 pl->par[i].value);
			report_nl_error("set", pl->par[i].name, prefix, &err);
			return 1;
		}
	}
	/* Routes once their gateways' nets are there. */
	for (i = 0; i < pl->n_route; i++) {
		if (do_route_add(&pl->route[i], &err) < 0) {
			undo_import(pl, pl->n_ni, pl->n_par, i, 0, 0);
			report_nl_error("add", "route", "cannot add route",
					&err);
			return 1;
		}
	}
	if (import_add_routing(pl) < 0) {
		undo_import(pl, pl->n_ni, pl->n_par, pl->n_route, 0, 0);
		return 1;
	}
	/* Peers last: their NIDs' nets are there then. */
	for (i = 0; i < pl->n_peer; i++) {
		if (do_peer_add(&pl->peer[i], &err) < 0) {
			undo_import(pl, pl->n_ni, pl->n_par, pl->n_route, i,
				    0);
			report_nl_error("add", "peer", "cannot add peer", &err);
			return 1;
		}
	}
	if (import_add_udsp(pl))
		return 1;
	/* nidmap's roles last: they need LNet configured. */
	if (!pl->nm.has || !nidmap_import_add(&pl->nm))
		return 0;
	/* nidmap's part undone and said: the rest, through lnet's family */
	if (lnl_open(&err) < 0) {
		report_nl_error("import", "import", "cannot reach LNet to undo",
				&err);
		return 1;
	}
	undo_import(pl, pl->n_ni, pl->n_par, pl->n_route, pl->n_peer,
		    pl->n_udsp);
	return 1;
}

/*
 * Is @want the kernel's @have?  The kernel names net 0 without "0"
 * ("tcp" for "tcp0"); "tcp10" is not "tcp1".
 */
static bool net_match(const char *want, const char *have)
{
	size_t n = strlen(have);

	return !strcmp(want, have) ||
	       (n && (have[n - 1] < '0' || have[n - 1] > '9') &&
		!strncmp(want, have, n) && !strcmp(want + n, "0"));
}

static bool ni_listed(const struct ni_list *l, const char *net,
		      const char *ifname)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->ni[i].ifname, ifname) &&
		    net_match(net, l->ni[i].net))
			return true;
	return false;
}

/* Is route @r (net and gateway as the kernel shows them) in the file? */
static bool route_planned(const struct plan *pl, const struct route_rec *r)
{
	unsigned int i;

	for (i = 0; i < pl->n_route; i++)
		if (net_match(pl->route[i].net, r->req.net) &&
		    !strcmp(pl->route[i].gw, r->req.gw))
			return true;
	return false;
}

/* Every route of the file, present: 0; else reported, 1. */
static int routes_missing(const struct plan *pl)
{
	struct route_list l;
	struct lnl_error err;
	unsigned int i, j;

	if (get_routes(NULL, &l, &err) < 0) {
		report_nl_error("show", "route", "cannot get routes", &err);
		return 1;
	}
	for (i = 0; i < pl->n_route; i++) {
		for (j = 0; j < l.n; j++)
			if (net_match(pl->route[i].net, l.r[j].req.net) &&
			    !strcmp(pl->route[i].gw, l.r[j].req.gw))
				break;
		if (j == l.n) {
			report_error("del", "route", ENOENT,
				     "no route to %s via %s",
				     pl->route[i].net, pl->route[i].gw);
			free(l.r);
			return 1;
		}
	}
	free(l.r);
	return 0;
}

/* Delete the rules with the terms of @pl's, all present, last first. */
static int import_del_udsp(struct plan *pl)
{
	struct lnl_error err;
	struct udsp_list l;
	unsigned int i, j;

	if (get_udsp(-1, &l, &err) < 0) {
		report_nl_error("show", "udsp", "cannot get rules", &err);
		return 1;
	}
	for (i = 0; i < pl->n_udsp; i++) {
		if (udsp_find(&l, &pl->udsp[i]) < 0) {
			report_error("del", "udsp", ENOENT,
				     "no rule like rule %u of the file", i);
			free(l.r);
			return 1;
		}
	}
	/* Last first: the indexes of those before do not move. */
	for (j = l.n; j-- > 0;) {
		if (udsp_planned(pl, &l.r[j]) &&
		    do_udsp_del(l.r[j].idx, &err) < 0) {
			report_nl_error("del", "udsp", "cannot delete rule",
					&err);
			free(l.r);
			return 1;
		}
	}
	free(l.r);
	return 0;
}

/*
 * A peer of import --del: a peer whose "peer ni" list names its primary
 * NID, or that has none, goes; otherwise only the NIDs listed go, as
 * stock's import --del does.
 */
static int import_del_peer(const struct peer_add_req *r,
			   struct lnl_error *err)
{
	unsigned int i;
	int rc = 0;

	if (r->whole || !r->n)
		return do_peer_del(r->prim, NULL, true, err);
	for (i = 0; i < r->n && rc >= 0; i++)
		rc = do_peer_del(r->prim, r->nids[i], false, err);
	return rc;
}

static int import_del(struct plan *pl)
{
	const char *missing;
	struct lnl_error err;
	struct ni_list l;
	unsigned int i;

	/* everything must exist before anything is deleted */
	if (get_nis(NULL, 0, &l, &err) < 0) {
		report_nl_error("show", "net", "cannot get networks", &err);
		return 1;
	}
	for (i = 0; i < pl->n_ni; i++) {
		if (!ni_listed(&l, pl->ni[i].net, pl->ni[i].ifname)) {
			report_error("del", "net", ENOENT,
				     "no NI of net %s on interface %s",
				     pl->ni[i].net, pl->ni[i].ifname);
			free(l.ni);
			return 1;
		}
	}
	free(l.ni);
	if (peer_missing(pl->peer, pl->n_peer, &missing, &err) < 0) {
		report_nl_error("show", "peer", "cannot get peers", &err);
		return 1;
	}
	if (missing) {
		report_error("del", "peer", ENOENT,
			     "no peer has primary NID %s", missing);
		return 1;
	}
	if (pl->n_route && routes_missing(pl))
		return 1;
	/*
	 * nidmap's part first, while LNet carries its removals; it checks
	 * its own, then closes lnet's family: opened again for the rest.
	 */
	if (pl->nm.has) {
		if (nidmap_import_del(&pl->nm))
			return 1;
		if (lnl_open(&err) < 0) {
			report_nl_error("import", "import", "cannot reach LNet",
					&err);
			return 1;
		}
	}
	if (pl->n_udsp && import_del_udsp(pl))
		return 1;
	for (i = 0; i < pl->n_peer; i++) {
		if (import_del_peer(&pl->peer[i], &err) < 0) {
			report_nl_error("del", "peer", "cannot delete peer",
					&err);
			return 1;
		}
	}
	for (i = 0; i < pl->n_route; i++) {
		if (do_route_del(pl->route[i].net, pl->route[i].gw,
				 &err) < 0) {
			report_nl_error("del", "route", "cannot delete route",
					&err);
			return 1;
		}
	}
	/* as stock's: "numa:" sets the range back to 0 */
	if (pl->has_numa && do_global_set("numa_range", 0, &err) < 0) {
		report_nl_error("set", "numa_range",
				"cannot set numa_range to 0", &err);
		return 1;
	}
	/* as stock's: "routing:" disables routing; "buffers:" is no-op */
	if (pl->has_routing && do_routing_set(0, &err) < 0) {
		report_nl_error("set", "routing", "cannot set routing to 0",
				&err);
		return 1;
	}
	for (i = 0; i < pl->n_ni; i++) {
		if (do_net_del(pl->ni[i].net, pl->ni[i].ifname, NULL,
			       &err) < 0) {
			report_nl_error("del", "net", "cannot delete network",
					&err);
			return 1;
		}
	}
	return 0;
}

/* The routes present that the file names. */
static void emit_routes_like(struct yout *y, struct plan *pl)
{
	struct route_list l, sel = { NULL, 0 };
	struct lnl_error err;
	unsigned int i;

	if (get_routes(NULL, &l, &err) < 0) {
		report_nl_error("show", "route", "cannot get routes", &err);
		return;
	}
	sel.r = calloc(l.n + 1, sizeof(*sel.r));
	for (i = 0; sel.r && i < l.n; i++)
		if (route_planned(pl, &l.r[i]))
			sel.r[sel.n++] = l.r[i];
	emit_routes(y, &sel, true, false);
	free(sel.r);
	free(l.r);
}

/* The rules present with the terms of @pl's. */
static void emit_udsp_like(struct yout *y, struct plan *pl)
{
	struct udsp_list l, sel = { NULL, 0 };
	struct lnl_error err;
	unsigned int i;

	if (get_udsp(-1, &l, &err) < 0) {
		report_nl_error("show", "udsp", "cannot get rules", &err);
		return;
	}
	sel.r = calloc(l.n + 1, sizeof(*sel.r));
	for (i = 0; sel.r && i < l.n; i++)
		if (udsp_planned(pl, &l.r[i]))
			sel.r[sel.n++] = l.r[i];
	emit_udsp(y, &sel, false, false);
	free(sel.r);
	free(l.r);
}

static int import_show(struct plan *pl)
{
	struct lnl_error err;
	struct ni_list l, sel = { NULL, 0 };
	struct routing_rec rr = { 0 };
	struct param *p = NULL;
	unsigned int i, n = 0;
	struct yout y;
	int nm_rc, rc = 1;

	if ((pl->has_routing || pl->has_buffers) &&
	    do_routing_get(&rr, &err) < 0) {
		report_nl_error("show", "routing", "cannot get routing", &err);
		return 1;
	}
	if (get_nis(NULL, 1, &l, &err) < 0) {
		report_nl_error("show", "net", "cannot get networks", &err);
		return 1;
	}
	sel.ni = calloc(l.n + 1, sizeof(*sel.ni));
	p = calloc(pl->n_par + 1, sizeof(*p));
	if (!sel.ni || !p)
		goto out;
	for (i = 0; i < l.n; i++) {
		unsigned int j;

		for (j = 0; j < pl->n_ni; j++)
			if (net_match(pl->ni[j].net, l.ni[i].net) &&
			    !strcmp(pl->ni[j].ifname, l.ni[i].ifname))
				break;
		if (j < pl->n_ni)
			sel.ni[sel.n++] = l.ni[i];
	}
	for (i = 0; i < pl->n_par; i++) {
		if (do_global_get(pl->par[i].name, &p[n].value, &err) < 0) {
			report_nl_error("show", pl->par[i].name,
					"cannot read parameter", &err);
			goto out;
		}
		snprintf(p[n++].name, sizeof(p->name), "%s",
			 pl->par[i].name);
	}
	yout_begin(&y, stdout);
	yout_map(&y);
	if (pl->n_ni)
		emit_nets(&y, &sel, 1, false);
	if (pl->n_route)
		emit_routes_like(&y, pl);
	if (pl->n_peer && emit_configured_peers(&y, pl->peer, pl->n_peer, false,
						&err) < 0) {
		report_nl_error("show", "peer", "cannot get peers", &err);
		yout_end_map(&y);
		yout_end(&y);
		goto out;
	}
	if ((pl->has_routing || pl->has_buffers) && rr.npools)
		emit_routing(&y, &rr, false);
	if (n)
		emit_globals(&y, p, n);
	if (pl->n_udsp)
		emit_udsp_like(&y, pl);
	/* last: it closes lnet's family */
	nm_rc = pl->nm.has ? nidmap_import_show(&y, &pl->nm) : 0;
	yout_end_map(&y);
	rc = yout_end(&y) || nm_rc ? 1 : 0;
out:
	free(l.ni);
	free(sel.ni);
	free(p);
	return rc;
}

/*
 * import --exec: the file's "ping:" and "discover:" entries, each run as
 * "lnetctl ping"/"discover" would (its output, its errors); the other
 * blocks are checked and not applied, as stock.  Return: 0 if all ran.
 */
static int import_exec(struct plan *pl)
{
	char tmo[24], *argv[8];
	unsigned int i;
	int argc, rc = 0;

	for (i = 0; i < pl->n_exec; i++) {
		const struct plan_exec *e = &pl->exec[i];

		argc = 0;
		argv[argc++] = e->discover ? "discover" : "ping";
		if (!e->discover) {
			/* stock's timeout is in ms, ours in whole seconds */
			snprintf(tmo, sizeof(tmo), "%lld",
				 (e->timeout_ms + 999) / 1000);
			argv[argc++] = "--timeout";
			argv[argc++] = tmo;
		}
		if (e->src) {
			argv[argc++] = "--source";
			argv[argc++] = (char *)e->src;
		}
		if (e->force)
			argv[argc++] = "--force";
		argv[argc++] = (char *)e->nid;
		argv[argc] = NULL;
		if (ping_or_discover(argc, argv, e->discover))
			rc = 1;
	}
	return rc;
}

/*
 * "ip2nets:" (import --add only; stock's --del and --show pass it by):
 * its rules matched against this node's addresses (@ifs, kept while
 * @pl's NIs name them), the NIs of those that match added to the plan's
 * after its "net:" NIs.  A rule matching nothing is skipped; none
 * matching fails the import, as the ip2nets module parameter does.
 * Return: 0, or 1 with the error reported.
 */
static int import_ip2nets(struct plan *pl, struct ip2nets_if **ifs)
{
	int n_ifs, n;

	n_ifs = local_ipv4_ifs(ifs);
	if (n_ifs < 0) {
		report_error("add", "ip2nets", -n_ifs,
			     "cannot list the interfaces%s", "");
		return 1;
	}
	n = ip2nets_resolve(pl->ip2, pl->n_ip2, false, *ifs,
			    (unsigned int)n_ifs, &pl->ni, &pl->n_ni);
	if (n < 0) {
		report_error("add", "ip2nets", -n,
			     "cannot resolve ip2nets rule%s", "");
		return 1;
	}
	if (!n) {
		report_error("add", "ip2nets", ENODEV,
			     "no interfaces match ip2nets rules%s", "");
		return 1;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "add", no_argument, NULL, 'a' },
		{ "del", no_argument, NULL, 'd' },
		{ "show", no_argument, NULL, 's' },
		{ "exec", no_argument, NULL, 'e' },
		{ "old-api", no_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	enum import_mode mode = IMPORT_ADD;
	struct ip2nets_if *ifs = NULL;
	struct plan pl = { 0 };
	const char *file = NULL;
	yaml_parser_t parser;
	yaml_document_t doc;
	struct lnl_error err;
	FILE *f = stdin;
	int c, rc = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "adse", opts, NULL)) != -1) {
		if (c == 'a') {
			mode = IMPORT_ADD;
		} else if (c == 'd') {
			mode = IMPORT_DEL;
		} else if (c == 's') {
			mode = IMPORT_SHOW;
		} else if (c == 'e') {
			mode = IMPORT_EXEC;
		} else if (c == 'o') {
			/* stock's ioctl path: the same effect as netlink's */
		} else {
			report_error("import", "import", EINVAL,
				     "unknown option '%s'", argv[optind - 1]);
			return 1;
		}
	}
	if (optind < argc)
		file = argv[optind++];
	if (optind < argc) {
		report_error("import", "import", EINVAL,
			     "unexpected argument '%s'", argv[optind]);
		return 1;
	}
	if (file) {
		f = fopen(file, "r");
		if (!f) {
			report_error("import", "import", errno,
				     "cannot open '%s': %s", file,
				     strerror(errno));
			return 1;
		}
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		report_error("import", "import", EINVAL,
			     "%s: YAML error at line %zu: %s",
			     file ? file : "stdin",
			     parser.problem_mark.line + 1,
			     parser.problem ? parser.problem : "unknown");
		yaml_parser_delete(&parser);
		if (file)
			fclose(f);
		return 1;
	}
	if (plan_doc(&doc, &pl) < 0)
		goto out;
	if (mode == IMPORT_ADD && pl.n_ip2 && import_ip2nets(&pl, &ifs))
		goto out;
	/* "nidmap:" needs lnet_nidmap: said before anything changes */
	if (pl.nm.has && mode != IMPORT_EXEC && nidmap_reachable("import"))
		goto out;
	if (lnl_open(&err) < 0) {
		report_nl_error("import", "import", "cannot reach LNet", &err);
		goto out;
	}
	if (mode == IMPORT_ADD)
		rc = import_add(&pl);
	else if (mode == IMPORT_DEL)
		rc = import_del(&pl);
	else if (mode == IMPORT_EXEC)
		rc = import_exec(&pl);
	else
		rc = import_show(&pl);
out:
	plan_free(&pl);
	free(ifs);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (file)
		fclose(f);
	return rc;
}
