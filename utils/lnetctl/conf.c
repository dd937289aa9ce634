// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl export / import: the configuration as YAML, in the shape of
 * "net show", "peer show" (the configured peers), "global show" and
 * "udsp show".
 * Import checks the whole file before it changes anything, and undoes
 * what it did if the kernel refuses a part.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"

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
	bool backup = false;
	unsigned int n = 0;
	struct yout y;
	FILE *f = stdout;
	int c, rc = 1;

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
	if (emit_configured_peers(&y, NULL, 0, &err) < 0) {
		report_nl_error("show", "peer", "cannot get peers", &err);
		yout_end_map(&y);
		yout_end(&y);
		if (file)
			fclose(f);
		goto out;
	}
	emit_globals(&y, p, n);
	emit_udsp(&y, &u, true);
	yout_end_map(&y);
	rc = yout_end(&y) ? 1 : 0;
	if (file && fclose(f)) {
		report_error("export", "export", errno, "cannot write '%s': %s",
			     file, strerror(errno));
		rc = 1;
	}
out:
	free(l.ni);
	free(u.r);
	free(p);
	return rc;
}

/* --- import --- */

enum import_mode { IMPORT_ADD, IMPORT_DEL, IMPORT_SHOW };

struct plan_param {
	const char *name;
	long long value;
	long long old;
};

struct plan {
	struct net_add_req *ni;
	unsigned int n_ni;
	struct plan_param *par;
	unsigned int n_par;
	struct peer_add_req *peer;
	unsigned int n_peer;
	struct udsp_rule *udsp;
	unsigned int n_udsp;
	long long *udsp_at;	/* import --add: where each rule went */
};

/* Keys of "net show" output that import accepts and does not apply. */
static const char * const ni_show_only[] = {
	"nid", "status", "statistics", "sent_stats", "received_stats",
	"dropped_stats", "health stats", "udsp info", "dev cpt",
};

/* Keys import accepts but this LNet cannot apply: said on stderr. */
static const char * const ni_unsupported[] = { "CPT" };

/* Lustre's other "lnd tunables" (socklnd, o2iblnd): said on stderr. */
static const char * const lnd_tun_unsupported[] = { "timeout", "tos" };

/*
 * The "@what" mapping @v of a local NI: each key one of @defs, its value
 * checked and stored in @out by attribute; keys in @ignored are skipped
 * with a warning.
 */
static int plan_tunables(yaml_document_t *doc, yaml_node_t *v,
			 const char *net, const char *what,
			 const struct tunable_def *defs, unsigned int n_defs,
			 const char * const *ignored, unsigned int n_ignored,
			 long long *out)
{
	yaml_node_pair_t *p2;
	const char *key, *val;
	unsigned int i;

	if (!v || v->type != YAML_MAPPING_NODE) {
		report_error("add", "net", EINVAL,
			     "net %s: '%s' is not a mapping", net, what);
		return -EINVAL;
	}
	for (p2 = v->data.mapping.pairs.start;
	     p2 < v->data.mapping.pairs.top; p2++) {
		const struct tunable_def *d = NULL;

		key = PAIR_KEY(doc, p2);
		val = scalar(PAIR_VAL(doc, p2));
		for (i = 0; key && i < n_defs; i++)
			if (!strcmp(key, defs[i].key))
				d = &defs[i];
		if (!d && key && in_list(key, ignored, n_ignored)) {
			fprintf(stderr,
				"lnetctl: net %s: '%s: %s' is not supported, ignored\n",
				net, what, key);
			continue;
		}
		if (!d) {
			report_error("add", "net", EINVAL,
				     "net %s: unknown key '%s' in '%s'", net,
				     key ? key : "", what);
			return -EINVAL;
		}
		if (!val || parse_long(val, d->min, d->max, &out[d->attr])) {
			report_error("add", "net", EINVAL,
				     "net %s: invalid %s '%s': must be an integer in %lld..%lld",
				     net, d->key, val ? val : "", d->min,
				     d->max);
			return -EINVAL;
		}
	}
	return 0;
}

static int plan_ni(yaml_document_t *doc, yaml_node_t *map, const char *net,
		   struct plan *pl)
{
	struct net_add_req *r;
	yaml_node_pair_t *pair, *p2;
	const char *key, *val;
	int nifs = 0, rc;

	if (map->type != YAML_MAPPING_NODE) {
		report_error("add", "net", EINVAL,
			     "net %s: an entry of 'local NI(s)' is not a mapping",
			     net);
		return -EINVAL;
	}
	r = realloc(pl->ni, (pl->n_ni + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	pl->ni = r;
	r += pl->n_ni++;
	net_add_req_init(r, net);

	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *v = PAIR_VAL(doc, pair);

		key = PAIR_KEY(doc, pair);
		if (!key) {
			report_error("add", "net", EINVAL,
				     "net %s: a key is not a scalar", net);
			return -EINVAL;
		}
		if (in_list(key, ni_show_only, ARRAY_SIZE(ni_show_only)))
			continue;
		if (in_list(key, ni_unsupported,
			    ARRAY_SIZE(ni_unsupported))) {
			fprintf(stderr,
				"lnetctl: net %s: '%s' is not supported, ignored\n",
				net, key);
			continue;
		}
		if (!strcmp(key, "interfaces")) {
			if (!v || v->type != YAML_MAPPING_NODE) {
				report_error("add", "net", EINVAL,
					     "net %s: 'interfaces' is not a mapping",
					     net);
				return -EINVAL;
			}
			for (p2 = v->data.mapping.pairs.start;
	     p2 < v->data.mapping.pairs.top; p2++) {
				val = scalar(PAIR_VAL(doc, p2));
				if (!val || !*val || strlen(val) >= 16 ||
				    strpbrk(val, "/:[], \t\n")) {
					report_error("add", "net", EINVAL,
						     "net %s: invalid interface '%s'",
						     net, val ? val : "");
					return -EINVAL;
				}
				r->ifname = val;
				nifs++;
			}
			continue;
		}
		if (!strcmp(key, "tunables")) {
			rc = plan_tunables(doc, v, net, key, tunable_defs,
					   n_tunable_defs, NULL, 0, r->tun);
			if (rc < 0)
				return rc;
			continue;
		}
		if (!strcmp(key, "lnd tunables")) {
			rc = plan_tunables(doc, v, net, key, lnd_tunable_defs,
					   n_lnd_tunable_defs,
					   lnd_tun_unsupported,
					   ARRAY_SIZE(lnd_tun_unsupported),
					   r->lnd_tun);
			if (rc < 0)
				return rc;
			continue;
		}
		report_error("add", "net", EINVAL,
			     "net %s: unknown key '%s'", net, key);
		return -EINVAL;
	}
	if (nifs != 1) {
		report_error("add", "net", EINVAL,
			     "net %s: each local NI needs exactly one interface, not %d",
			     net, nifs);
		return -EINVAL;
	}
	return 0;
}

static int plan_nets(yaml_document_t *doc, yaml_node_t *seq, struct plan *pl)
{
	yaml_node_item_t *it, *it2;
	yaml_node_pair_t *pair;
	int rc;

	if (seq->type != YAML_SEQUENCE_NODE) {
		report_error("add", "net", EINVAL, "'net' is not a sequence");
		return -EINVAL;
	}
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		yaml_node_t *map = yaml_document_get_node(doc, *it);
		yaml_node_t *nis = NULL;
		const char *net = NULL;

		if (!map || map->type != YAML_MAPPING_NODE) {
			report_error("add", "net", EINVAL,
				     "an entry of 'net' is not a mapping");
			return -EINVAL;
		}
		for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
			const char *key = PAIR_KEY(doc, pair);

			if (key && !strcmp(key, "net type")) {
				net = scalar(PAIR_VAL(doc, pair));
			} else if (key && !strcmp(key, "local NI(s)")) {
				nis = PAIR_VAL(doc, pair);
			} else {
				report_error("add", "net", EINVAL,
					     "unknown key '%s' in a net",
					     key ? key : "");
				return -EINVAL;
			}
		}
		if (!net || !valid_net(net)) {
			report_error("add", "net", EINVAL,
				     "invalid or missing 'net type' '%s'",
				     net ? net : "");
			return -EINVAL;
		}
		if (!strcmp(net, "lo"))
			continue;	/* always there */
		if (!nis || nis->type != YAML_SEQUENCE_NODE ||
		    nis->data.sequence.items.start ==
		    nis->data.sequence.items.top) {
			report_error("add", "net", EINVAL,
				     "net %s: missing 'local NI(s)'", net);
			return -EINVAL;
		}
		for (it2 = nis->data.sequence.items.start;
		     it2 < nis->data.sequence.items.top; it2++) {
			rc = plan_ni(doc, yaml_document_get_node(doc, *it2),
				     net, pl);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static int plan_globals(yaml_document_t *doc, yaml_node_t *map,
			struct plan *pl)
{
	yaml_node_pair_t *pair;
	struct plan_param *p;
	const char *key, *val;

	if (map->type != YAML_MAPPING_NODE) {
		report_error("set", "global", EINVAL,
			     "'global' is not a mapping");
		return -EINVAL;
	}
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		val = scalar(PAIR_VAL(doc, pair));
		if (!key || !val) {
			report_error("set", "global", EINVAL,
				     "an entry of 'global' is not 'name: value'");
			return -EINVAL;
		}
		if (!strcmp(key, "lnd_timeout"))
			continue;	/* read-only, derived */
		p = realloc(pl->par, (pl->n_par + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		pl->par = p;
		p += pl->n_par++;
		p->name = key;
		if (check_global(key, val, &p->value))
			return -EINVAL;
	}
	return 0;
}

static int plan_udsp(yaml_document_t *doc, yaml_node_t *seq, struct plan *pl)
{
	yaml_node_item_t *it;
	const char *why;
	size_t n;

	if (!seq || seq->type != YAML_SEQUENCE_NODE) {
		report_error("import", "udsp", EINVAL,
			     "'udsp' is not a sequence");
		return -EINVAL;
	}
	n = seq->data.sequence.items.top - seq->data.sequence.items.start;
	pl->udsp = calloc(n + 1, sizeof(*pl->udsp));
	pl->udsp_at = calloc(n + 1, sizeof(*pl->udsp_at));
	if (!pl->udsp || !pl->udsp_at)
		return -ENOMEM;
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		if (parse_udsp_rule(doc, yaml_document_get_node(doc, *it),
				    &pl->udsp[pl->n_udsp], &why)) {
			report_error("import", "udsp", EINVAL, "rule %u: %s",
				     pl->n_udsp, why);
			return -EINVAL;
		}
		pl->n_udsp++;
	}
	return 0;
}

static int plan_doc(yaml_document_t *doc, struct plan *pl)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	yaml_node_pair_t *pair;
	int rc;

	if (!root)
		return 0;	/* empty file */
	if (root->type != YAML_MAPPING_NODE) {
		report_error("import", "import", EINVAL,
			     "the document is not a mapping");
		return -EINVAL;
	}
	for (pair = root->data.mapping.pairs.start;
	     pair < root->data.mapping.pairs.top; pair++) {
		const char *key = PAIR_KEY(doc, pair);
		yaml_node_t *v = PAIR_VAL(doc, pair);

		if (key && !strcmp(key, "net")) {
			rc = plan_nets(doc, v, pl);
		} else if (key && !strcmp(key, "global")) {
			rc = plan_globals(doc, v, pl);
		} else if (key && !strcmp(key, "peer")) {
			rc = plan_peers(doc, v, &pl->peer, &pl->n_peer);
		} else if (key && !strcmp(key, "udsp")) {
			rc = plan_udsp(doc, v, pl);
		} else {
			report_error("import", key ? key : "import",
				     EOPNOTSUPP,
				     "'%s' blocks are not supported",
				     key ? key : "");
			rc = -EOPNOTSUPP;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void undo_import(struct plan *pl, unsigned int n_ni,
			unsigned int n_par, unsigned int n_peer,
			unsigned int n_udsp)
{
	struct lnl_error err;

	while (n_udsp--)
		do_udsp_del(pl->udsp_at[n_udsp], &err);
	while (n_peer--)
		do_peer_del(pl->peer[n_peer].prim, NULL, true, &err);
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
		undo_import(pl, pl->n_ni, pl->n_par, pl->n_peer, 0);
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
			undo_import(pl, pl->n_ni, pl->n_par, pl->n_peer, i);
			report_nl_error("add", "udsp", "cannot add rule", &err);
			free(l.r);
			return 1;
		}
	}
	if (pl->n_udsp)
		free(l.r);
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
			undo_import(pl, i, 0, 0, 0);
			report_nl_error("add", "net", "cannot add network",
					&err);
			return 1;
		}
	}
	for (i = 0; i < pl->n_par; i++) {
		if (do_global_set(pl->par[i].name, pl->par[i].value,
				  &err) < 0) {
			char prefix[96];

			undo_import(pl, pl->n_ni, i, 0, 0);
			snprintf(prefix, sizeof(prefix),
				 "cannot set %s to %lld", pl->par[i].name,
				 pl->par[i].value);
			report_nl_error("set", pl->par[i].name, prefix, &err);
			return 1;
		}
	}
	/* Peers last: their NIDs' nets are there then. */
	for (i = 0; i < pl->n_peer; i++) {
		if (do_peer_add(&pl->peer[i], &err) < 0) {
			undo_import(pl, pl->n_ni, pl->n_par, i, 0);
			report_nl_error("add", "peer", "cannot add peer", &err);
			return 1;
		}
	}
	return import_add_udsp(pl);
}

/* Is @want the kernel's @have?  The kernel names net 0 without "0". */
static bool net_match(const char *want, const char *have)
{
	size_t n = strlen(have);

	return !strcmp(want, have) ||
	       (!strncmp(want, have, n) && !strcmp(want + n, "0"));
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
	if (pl->n_udsp && import_del_udsp(pl))
		return 1;
	for (i = 0; i < pl->n_peer; i++) {
		if (do_peer_del(pl->peer[i].prim, NULL, true, &err) < 0) {
			report_nl_error("del", "peer", "cannot delete peer",
					&err);
			return 1;
		}
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
	emit_udsp(y, &sel, false);
	free(sel.r);
	free(l.r);
}

static int import_show(struct plan *pl)
{
	struct lnl_error err;
	struct ni_list l, sel = { NULL, 0 };
	struct param *p = NULL;
	unsigned int i, n = 0;
	struct yout y;
	int rc = 1;

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
	if (pl->n_peer && emit_configured_peers(&y, pl->peer, pl->n_peer,
						&err) < 0) {
		report_nl_error("show", "peer", "cannot get peers", &err);
		yout_end_map(&y);
		yout_end(&y);
		goto out;
	}
	if (n)
		emit_globals(&y, p, n);
	if (pl->n_udsp)
		emit_udsp_like(&y, pl);
	yout_end_map(&y);
	rc = yout_end(&y) ? 1 : 0;
out:
	free(l.ni);
	free(sel.ni);
	free(p);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "add", no_argument, NULL, 'a' },
		{ "del", no_argument, NULL, 'd' },
		{ "show", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	enum import_mode mode = IMPORT_ADD;
	struct plan pl = { 0 };
	const char *file = NULL;
	yaml_parser_t parser;
	yaml_document_t doc;
	struct lnl_error err;
	FILE *f = stdin;
	int c, rc = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "ads", opts, NULL)) != -1) {
		if (c == 'a') {
			mode = IMPORT_ADD;
		} else if (c == 'd') {
			mode = IMPORT_DEL;
		} else if (c == 's') {
			mode = IMPORT_SHOW;
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
	if (lnl_open(&err) < 0) {
		report_nl_error("import", "import", "cannot reach LNet", &err);
		goto out;
	}
	if (mode == IMPORT_ADD)
		rc = import_add(&pl);
	else if (mode == IMPORT_DEL)
		rc = import_del(&pl);
	else
		rc = import_show(&pl);
out:
	free(pl.ni);
	free(pl.par);
	free_peer_plan(pl.peer, pl.n_peer);
	free(pl.udsp);
	free(pl.udsp_at);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (file)
		fclose(f);
	return rc;
}
