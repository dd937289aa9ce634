// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl import's plan: the YAML document checked as a whole and turned
 * into the requests import will send, before anything changes.  Pure (no
 * netlink), so that fuzz/targets/lnetctl_import.c runs it on any input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* Keys of "net show" output that import accepts and does not apply. */
static const char * const ni_show_only[] = {
	"nid", "status", "statistics", "sent_stats", "received_stats",
	"dropped_stats", "health stats", "udsp info", "dev cpt",
};

/*
 * A local NI's "CPT" list ("[0]", "[0-1]", "[0,2]"): this LNet has the
 * one CPT 0, so a list of CPT 0 is accepted (and ignored with a warning),
 * any other CPT fails the import, as stock fails on a CPT it lacks.
 */
static bool cpt_list_valid(const char *s)
{
	char *end;
	long v;

	if (!s || *s++ != '[')
		return false;
	for (;;) {
		v = strtol(s, &end, 10);
		if (end == s || v != 0)
			return false;
		s = end;
		if (*s == '-') {
			v = strtol(++s, &end, 10);
			if (end == s || v != 0)
				return false;
			s = end;
		}
		if (*s == ']')
			return !s[1];
		if (*s++ != ',')
			return false;
	}
}

/* Lustre's other "lnd tunables" (socklnd, o2iblnd): said on stderr. */
static const char * const lnd_tun_unsupported[] = { "timeout" };

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
			if (!strcmp(key, defs[i].key) && !defs[i].show_only)
				d = &defs[i];
		if (!d && key && in_list(key, ignored, n_ignored)) {
			fprintf(stderr,
				"lnetctl: net %s: '%s: %s' is not supported, ignored\n",
				net, what, key);
			continue;
		}
		if (!d) {
			report_error("add", "net", EINVAL,
				     "net %s: invalid key '%s' in '%s'", net,
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
	const char *key, *val, *ifs[16];
	int nifs = 0, rc, i;

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
		if (!strcmp(key, "CPT")) {
			if (!cpt_list_valid(scalar(v))) {
				report_error("add", "net", EINVAL,
					     "net %s: invalid CPT '%s': this node has CPT 0 only",
					     net, scalar(v) ? scalar(v) : "");
				return -EINVAL;
			}
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
				    strpbrk(val, "/[], \t\n") || *val == ':') {
					report_error("add", "net", EINVAL,
						     "net %s: invalid interface '%s'",
						     net, val ? val : "");
					return -EINVAL;
				}
				if (nifs == ARRAY_SIZE(ifs)) {
					report_error("add", "net", EINVAL,
						     "net %s: more than %zu interfaces in one NI",
						     net, ARRAY_SIZE(ifs));
					return -EINVAL;
				}
				ifs[nifs++] = val;
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
			     "net %s: invalid key '%s'", net, key);
		return -EINVAL;
	}
	if (!nifs) {
		report_error("add", "net", EINVAL,
			     "net %s: a local NI without 'interfaces'", net);
		return -EINVAL;
	}
	/*
	 * As stock: one NI per interface, each with the block's tunables
	 * (what "net add --if eth0,eth1" makes too).
	 */
	r->ifname = ifs[0];
	for (i = 1; i < nifs; i++) {
		r = realloc(pl->ni, (pl->n_ni + 1) * sizeof(*r));
		if (!r)
			return -ENOMEM;
		pl->ni = r;
		r[pl->n_ni] = r[pl->n_ni - 1];
		r[pl->n_ni++].ifname = ifs[i];
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
					     "invalid key '%s' in a net",
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

/*
 * The values of @v, a mapping ("0: eth0"), into @out: interface names,
 * or IP ranges when @ranges; 0 or -EINVAL.
 */
static int plan_ip2nets_list(yaml_document_t *doc, yaml_node_t *v,
			     const char *net, bool ranges,
			     const char **out, unsigned int *n)
{
	const char *what = ranges ? "ip-range" : "interfaces";
	yaml_node_pair_t *p;
	const char *val;

	if (!v || v->type != YAML_MAPPING_NODE) {
		report_error("add", "ip2nets", EINVAL,
			     "ip2nets %s: '%s' is not a mapping", net, what);
		return -EINVAL;
	}
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top;
	     p++) {
		val = scalar(PAIR_VAL(doc, p));
		if (*n == IP2NETS_MAX) {
			report_error("add", "ip2nets", EINVAL,
				     "ip2nets %s: more than %d entries in '%s'",
				     net, IP2NETS_MAX, what);
			return -EINVAL;
		}
		if (!val || !*val ||
		    (!ranges && (strlen(val) >= 16 ||
				 strpbrk(val, "/[], \t\n") || *val == ':')) ||
		    (ranges && ip_range_match(val, 0) < 0)) {
			report_error("add", "ip2nets", EINVAL,
				     "ip2nets %s: invalid %s '%s'", net,
				     ranges ? "ip-range" : "interface",
				     val ? val : "");
			return -EINVAL;
		}
		out[(*n)++] = val;
	}
	return 0;
}

/*
 * "ip2nets:", stock's rules resolved in user space: each entry's
 * "net-spec", its "interfaces" and "ip-range" mappings (each optional),
 * "tunables", "lnd tunables" and "CPT" as a local NI's.
 */
static int plan_ip2nets(yaml_document_t *doc, yaml_node_t *seq,
			struct plan *pl)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *pair;
	int rc;

	if (seq->type != YAML_SEQUENCE_NODE) {
		report_error("add", "ip2nets", EINVAL,
			     "'ip2nets' is not a sequence");
		return -EINVAL;
	}
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		yaml_node_t *map = yaml_document_get_node(doc, *it);
		struct plan_ip2nets *r;
		const char *net = NULL;

		if (!map || map->type != YAML_MAPPING_NODE) {
			report_error("add", "ip2nets", EINVAL,
				     "an entry of 'ip2nets' is not a mapping");
			return -EINVAL;
		}
		for (pair = map->data.mapping.pairs.start;
		     pair < map->data.mapping.pairs.top; pair++) {
			const char *key = PAIR_KEY(doc, pair);

			if (key && !strcmp(key, "net-spec"))
				net = scalar(PAIR_VAL(doc, pair));
		}
		if (!net || !valid_net(net) || !strcmp(net, "lo")) {
			report_error("add", "ip2nets", EINVAL,
				     "invalid or missing 'net-spec' '%s'",
				     net ? net : "");
			return -EINVAL;
		}
		r = realloc(pl->ip2, (pl->n_ip2 + 1) * sizeof(*r));
		if (!r)
			return -ENOMEM;
		pl->ip2 = r;
		r += pl->n_ip2++;
		memset(r, 0, sizeof(*r));
		r->rule.net = net;
		net_add_req_init(&r->tmpl, net);
		for (pair = map->data.mapping.pairs.start;
		     pair < map->data.mapping.pairs.top; pair++) {
			const char *key = PAIR_KEY(doc, pair);
			yaml_node_t *v = PAIR_VAL(doc, pair);

			rc = 0;
			if (!key) {
				report_error("add", "ip2nets", EINVAL,
					     "ip2nets %s: a key is not a scalar",
					     net);
				return -EINVAL;
			} else if (!strcmp(key, "net-spec")) {
				continue;
			} else if (!strcmp(key, "interfaces")) {
				rc = plan_ip2nets_list(doc, v, net, false,
						       r->rule.ifs,
						       &r->rule.nifs);
			} else if (!strcmp(key, "ip-range")) {
				rc = plan_ip2nets_list(doc, v, net, true,
						       r->rule.ranges,
						       &r->rule.nranges);
			} else if (!strcmp(key, "tunables")) {
				rc = plan_tunables(doc, v, net, key,
						   tunable_defs,
						   n_tunable_defs, NULL, 0,
						   r->tmpl.tun);
			} else if (!strcmp(key, "lnd tunables")) {
				rc = plan_tunables(doc, v, net, key,
						   lnd_tunable_defs,
						   n_lnd_tunable_defs,
						   lnd_tun_unsupported,
						   ARRAY_SIZE(lnd_tun_unsupported),
						   r->tmpl.lnd_tun);
			} else if (!strcmp(key, "CPT")) {
				if (!cpt_list_valid(scalar(v))) {
					report_error("add", "ip2nets", EINVAL,
						     "ip2nets %s: invalid CPT '%s': this node has CPT 0 only",
						     net,
						     scalar(v) ? scalar(v) : "");
					return -EINVAL;
				}
			} else {
				report_error("add", "ip2nets", EINVAL,
					     "ip2nets %s: invalid key '%s'",
					     net, key);
				return -EINVAL;
			}
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/**
 * ip2nets_resolve() - the NIs ip2nets rules bring up on this node
 * @rules: the rules, each with the tunables of its NIs
 * @n: how many
 * @first_per_net: a rule for a net an earlier rule matched is skipped
 *	(the module parameter's rule, for "net add --ip2net")
 * @ifs: this node's IPv4 addresses (ip2nets_match())
 * @n_ifs: how many
 * @ni: the NIs, appended to (realloc()ed; each NI once, its interface
 *	name pointing into @rules or @ifs)
 * @n_ni: in and out: how many
 *
 * A rule matching none of this node's interfaces is said on stderr and
 * skipped.
 *
 * Return: the number of rules that matched (0: none), -EINVAL for a
 * malformed rule, -ENOMEM, -E2BIG.
 */
int ip2nets_resolve(const struct plan_ip2nets *rules, unsigned int n,
		    bool first_per_net, const struct ip2nets_if *ifs,
		    unsigned int n_ifs, struct net_add_req **ni,
		    unsigned int *n_ni)
{
	const char *names[IP2NETS_MAX * 4];
	unsigned int i, j, k, matched = 0;
	struct net_add_req *r;
	int m;

	for (i = 0; i < n; i++) {
		const char *net = rules[i].rule.net;

		for (j = 0; first_per_net && j < i; j++)
			if (!strcmp(rules[j].rule.net, net))
				break;
		if (first_per_net && j < i) {
			for (k = 0; k < *n_ni; k++)
				if (!strcmp((*ni)[k].net, net))
					break;
			if (k < *n_ni)
				continue;	/* an earlier rule matched */
		}
		m = ip2nets_match(&rules[i].rule, ifs, n_ifs, names,
				  ARRAY_SIZE(names));
		if (m < 0)
			return m;
		if (!m)
			fprintf(stderr,
				"lnetctl: ip2nets rule %u (%s): no interface of this node matches, skipped\n",
				i + 1, net);
		else
			matched++;
		for (j = 0; j < (unsigned int)m; j++) {
			for (k = 0; k < *n_ni; k++)
				if (!strcmp((*ni)[k].net, net) &&
				    !strcmp((*ni)[k].ifname, names[j]))
					break;
			if (k < *n_ni)
				continue;
			r = realloc(*ni, (*n_ni + 1) * sizeof(*r));
			if (!r)
				return -ENOMEM;
			*ni = r;
			r[*n_ni] = rules[i].tmpl;
			r[(*n_ni)++].ifname = names[j];
		}
	}
	return (int)matched;
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

/*
 * "numa:" with "range: N" (stock's export of lnet_numa_range): planned as
 * the global parameter numa_range.
 */
static int plan_numa(yaml_document_t *doc, yaml_node_t *map, struct plan *pl)
{
	yaml_node_pair_t *pair;
	struct plan_param *p;
	const char *key;

	if (map->type != YAML_MAPPING_NODE) {
		report_error("import", "numa", EINVAL,
			     "'numa' is not a mapping");
		return -EINVAL;
	}
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		if (!key || strcmp(key, "range")) {
			report_error("import", "numa", EINVAL,
				     "invalid key '%s' in 'numa'",
				     key ? key : "");
			return -EINVAL;
		}
		p = realloc(pl->par, (pl->n_par + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		pl->par = p;
		p += pl->n_par++;
		p->name = "numa_range";
		if (check_global(p->name, scalar(PAIR_VAL(doc, pair)) ?: "",
				 &p->value))
			return -EINVAL;
		pl->has_numa = true;
	}
	return 0;
}

/*
 * A "ping:" or "discover:" block: a sequence of mappings with "primary nid"
 * (what "lnetctl ping"/"discover" print: their "Multi-Rail" and "peer_ni"
 * are read past), ping's "timeout" (ms) and "source_nid", discover's
 * "force"; or one such mapping.
 */
static int plan_exec(yaml_document_t *doc, yaml_node_t *node, bool discover,
		     struct plan *pl)
{
	const char *what = discover ? "discover" : "ping";
	yaml_node_item_t *it = NULL, *end = NULL;
	yaml_node_pair_t *pair;
	struct plan_exec *e;
	yaml_node_t *map;
	const char *key, *val;
	bool bad;

	if (node->type == YAML_SEQUENCE_NODE) {
		it = node->data.sequence.items.start;
		end = node->data.sequence.items.top;
	}
	for (;;) {
		if (node->type == YAML_SEQUENCE_NODE) {
			if (it == end)
				return 0;
			map = yaml_document_get_node(doc, *it++);
		} else {
			map = node;
		}
		if (!map || map->type != YAML_MAPPING_NODE) {
			report_error("import", what, EINVAL,
				     "an entry of '%s' is not a mapping", what);
			return -EINVAL;
		}
		e = realloc(pl->exec, (pl->n_exec + 1) * sizeof(*e));
		if (!e)
			return -ENOMEM;
		pl->exec = e;
		e += pl->n_exec++;
		memset(e, 0, sizeof(*e));
		e->discover = discover;
		e->timeout_ms = 1000;
		for (pair = map->data.mapping.pairs.start;
		     pair < map->data.mapping.pairs.top; pair++) {
			key = PAIR_KEY(doc, pair);
			val = scalar(PAIR_VAL(doc, pair));
			if (key && (!strcmp(key, "Multi-Rail") ||
				    !strcmp(key, "peer_ni")))
				continue;
			if (!key || !val) {
				bad = true;
			} else if (!strcmp(key, "primary nid")) {
				e->nid = val;
				bad = !valid_nid(val);
			} else if (!discover && !strcmp(key, "timeout")) {
				bad = parse_long(val, 1,
						 LNET_GENL_PING_TIMEOUT_MAX,
						 &e->timeout_ms) < 0;
			} else if (!discover && !strcmp(key, "source_nid")) {
				e->src = val;
				bad = !valid_nid(val);
			} else if (discover && !strcmp(key, "force")) {
				e->force = !strcmp(val, "1");
				bad = !e->force && strcmp(val, "0");
			} else {
				bad = true;
			}
			if (bad) {
				report_error("import", what, EINVAL,
					     "invalid key or value '%s' in '%s'",
					     key ? key : "", what);
				return -EINVAL;
			}
		}
		if (!e->nid) {
			report_error("import", what, EINVAL,
				     "an entry of '%s' without 'primary nid'",
				     what);
			return -EINVAL;
		}
		if (node->type != YAML_SEQUENCE_NODE)
			return 0;
	}
}

static int plan_udsp(yaml_document_t *doc, yaml_node_t *seq, struct plan *pl)
{
	yaml_node_item_t *it;
	struct udsp_rule *r;
	const char *why;
	long long *at;
	size_t n;

	if (!seq || seq->type != YAML_SEQUENCE_NODE) {
		report_error("import", "udsp", EINVAL,
			     "'udsp' is not a sequence");
		return -EINVAL;
	}
	/* Added to what an earlier "udsp:" block of the file planned. */
	n = pl->n_udsp + (seq->data.sequence.items.top -
			  seq->data.sequence.items.start);
	r = realloc(pl->udsp, (n + 1) * sizeof(*pl->udsp));
	if (!r)
		return -ENOMEM;
	pl->udsp = r;
	at = realloc(pl->udsp_at, (n + 1) * sizeof(*pl->udsp_at));
	if (!at)
		return -ENOMEM;
	pl->udsp_at = at;
	memset(pl->udsp + pl->n_udsp, 0,
	       (n + 1 - pl->n_udsp) * sizeof(*pl->udsp));
	memset(pl->udsp_at + pl->n_udsp, 0,
	       (n + 1 - pl->n_udsp) * sizeof(*pl->udsp_at));
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

/* "route:": a sequence of routes; several blocks add up. */
static int plan_routes(yaml_document_t *doc, yaml_node_t *seq,
		       struct plan *pl)
{
	struct route_req *r;
	yaml_node_item_t *it;
	const char *why;
	size_t n;

	if (!seq || seq->type != YAML_SEQUENCE_NODE) {
		report_error("import", "route", EINVAL,
			     "'route' is not a sequence");
		return -EINVAL;
	}
	n = pl->n_route + (seq->data.sequence.items.top -
			   seq->data.sequence.items.start);
	r = realloc(pl->route, (n + 1) * sizeof(*pl->route));
	if (!r)
		return -ENOMEM;
	pl->route = r;
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		if (parse_route(doc, yaml_document_get_node(doc, *it),
				&pl->route[pl->n_route], &why)) {
			report_error("import", "route", EINVAL,
				     "route %u: %s", pl->n_route, why);
			return -EINVAL;
		}
		pl->n_route++;
	}
	return 0;
}

/*
 * A mapping of "routing:": "enable: N" (export --backup), or an item of
 * routing show's sequence: "enable: N", or "cpt[N]: ..." (the pools'
 * figures, ignored).  Only 1 enables (spec 10.5: an exported 2 or 3,
 * STOPPING or STARTING, imports as disable).
 */
static int plan_routing_map(yaml_document_t *doc, yaml_node_t *map,
			    struct plan *pl)
{
	yaml_node_pair_t *pair;
	const char *key, *val;
	long long v;

	if (!map || map->type != YAML_MAPPING_NODE) {
		report_error("import", "routing", EINVAL,
			     "'routing' is not 'enable: N'");
		return -EINVAL;
	}
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		if (key && !strncmp(key, "cpt[", 4))
			continue;
		if (!key || strcmp(key, "enable")) {
			report_error("import", "routing", EINVAL,
				     "invalid key '%s'", key ? key : "");
			return -EINVAL;
		}
		val = scalar(PAIR_VAL(doc, pair));
		if (!val || parse_long(val, INT_MIN, INT_MAX, &v) < 0) {
			report_error("import", "routing", EINVAL,
				     "invalid routing value '%s'",
				     val ? val : "");
			return -EINVAL;
		}
		pl->has_routing = true;
		pl->routing = v == 1;
	}
	return 0;
}

static int plan_routing(yaml_document_t *doc, yaml_node_t *node,
			struct plan *pl)
{
	yaml_node_item_t *it;
	int rc;

	if (node->type != YAML_SEQUENCE_NODE)
		return plan_routing_map(doc, node, pl);
	for (it = node->data.sequence.items.start;
	     it < node->data.sequence.items.top; it++) {
		rc = plan_routing_map(doc, yaml_document_get_node(doc, *it),
				      pl);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* "buffers:": "tiny|small|large: N", N as "set <pool>_buffers" takes. */
static int plan_buffers(yaml_document_t *doc, yaml_node_t *map,
			struct plan *pl)
{
	static const char *const pools[] = { "tiny", "small", "large" };
	yaml_node_pair_t *pair;
	const char *key, *val;
	unsigned int i;
	long long v;

	if (map->type != YAML_MAPPING_NODE) {
		report_error("import", "buffers", EINVAL,
			     "'buffers' is not a mapping");
		return -EINVAL;
	}
	if (!pl->has_buffers)
		for (i = 0; i < ARRAY_SIZE(pl->buffers); i++)
			pl->buffers[i] = -1;
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		for (i = 0; key && i < ARRAY_SIZE(pools); i++)
			if (!strcmp(key, pools[i]))
				break;
		if (!key || i == ARRAY_SIZE(pools)) {
			report_error("import", "buffers", EINVAL,
				     "invalid key '%s'", key ? key : "");
			return -EINVAL;
		}
		val = scalar(PAIR_VAL(doc, pair));
		if (!val || parse_long(val, -1, INT_MAX, &v) < 0) {
			report_error("import", "buffers", EINVAL,
				     "invalid %s value '%s': must be an integer in -1..%d",
				     key, val ? val : "", INT_MAX);
			return -EINVAL;
		}
		pl->buffers[i] = v;
		pl->has_buffers = true;
	}
	return 0;
}

/* --- "nidmap:" --- */

const char *const plan_nm_lim_keys[PLAN_NM_LIMS] = {
	[PLAN_NM_MAX_ENTRIES]	= "max_entries",
	[PLAN_NM_MAX_TOMBSTONES] = "max_tombstones",
	[PLAN_NM_TOMB_AGE]	= "tombstone_age",
	[PLAN_NM_MAX_SUBS]	= "max_subscribers",
	[PLAN_NM_FANOUT]	= "relay_fanout",
};

/* Their bounds: nidmap publish's options'. */
static const long long plan_nm_lim_range[PLAN_NM_LIMS][2] = {
	[PLAN_NM_MAX_ENTRIES]	= { 1, 262144 },
	[PLAN_NM_MAX_TOMBSTONES] = { 0, 262144 },
	[PLAN_NM_TOMB_AGE]	= { 0, 2592000 },
	[PLAN_NM_MAX_SUBS]	= { 1, 262144 },
	[PLAN_NM_FANOUT]	= { 1, 16 },
};

/* A flag's value: 0, 1, no or yes (as nidmap show and table say them). */
static int plan_nm_flag(const char *val, bool *out)
{
	if (val && (!strcmp(val, "1") || !strcmp(val, "yes"))) {
		*out = true;
		return 0;
	}
	if (val && (!strcmp(val, "0") || !strcmp(val, "no"))) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

static const char plan_nm_name_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:@";

/* A target name as the kernel takes it: 1 to 63 of A-Z a-z 0-9 -_.:@ */
static bool plan_nm_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n && n < NIDMAP_GENL_NAME_LEN &&
	       strspn(s, plan_nm_name_chars) == n;
}

static int plan_nm_pub(yaml_document_t *doc, yaml_node_t *map,
		       struct plan_nidmap *nm)
{
	yaml_node_pair_t *pair;
	const char *key, *val;
	unsigned int i;

	if (nm->has_pub) {
		report_error("import", "nidmap", EINVAL,
			     "a second 'publisher' in 'nidmap'");
		return -EINVAL;
	}
	if (!map || map->type != YAML_MAPPING_NODE) {
		report_error("import", "nidmap", EINVAL,
			     "'publisher' of 'nidmap' is not a mapping");
		return -EINVAL;
	}
	nm->has_pub = true;
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		val = scalar(PAIR_VAL(doc, pair));
		for (i = 0; key && i < PLAN_NM_LIMS; i++)
			if (!strcmp(key, plan_nm_lim_keys[i]))
				break;
		if (!key || i == PLAN_NM_LIMS) {
			report_error("import", "nidmap", EINVAL,
				     "invalid key '%s' in 'publisher'",
				     key ? key : "");
			return -EINVAL;
		}
		if (!val || parse_long(val, plan_nm_lim_range[i][0],
				       plan_nm_lim_range[i][1],
				       &nm->lim[i]) < 0) {
			report_error("import", "nidmap", EINVAL,
				     "invalid %s '%s': must be an integer in %lld..%lld",
				     key, val ? val : "",
				     plan_nm_lim_range[i][0],
				     plan_nm_lim_range[i][1]);
			return -EINVAL;
		}
	}
	return 0;
}

static int plan_nm_sub(yaml_document_t *doc, yaml_node_t *map,
		       struct plan_nidmap *nm)
{
	yaml_node_pair_t *pair;
	const char *key, *val;
	int rc;

	if (nm->has_sub) {
		report_error("import", "nidmap", EINVAL,
			     "a second 'subscriber' in 'nidmap'");
		return -EINVAL;
	}
	if (!map || map->type != YAML_MAPPING_NODE) {
		report_error("import", "nidmap", EINVAL,
			     "'subscriber' of 'nidmap' is not a mapping");
		return -EINVAL;
	}
	nm->has_sub = true;
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		val = scalar(PAIR_VAL(doc, pair));
		if (key && !strcmp(key, "publisher")) {
			nm->sub_pub = val;
			rc = val && valid_nid(val) ? 0 : -EINVAL;
		} else if (key && !strcmp(key, "relay")) {
			rc = plan_nm_flag(val, &nm->relay);
		} else if (key && !strcmp(key, "routes")) {
			rc = plan_nm_flag(val, &nm->routes);
		} else {
			report_error("import", "nidmap", EINVAL,
				     "invalid key '%s' in 'subscriber'",
				     key ? key : "");
			return -EINVAL;
		}
		if (rc) {
			report_error("import", "nidmap", EINVAL,
				     "invalid %s '%s' in 'subscriber'", key,
				     val ? val : "");
			return -EINVAL;
		}
	}
	if (!nm->sub_pub) {
		report_error("import", "nidmap", EINVAL,
			     "'subscriber' without 'publisher'");
		return -EINVAL;
	}
	return 0;
}

/* A registration's "nids" or "nets": a sequence of distinct values. */
static int plan_nm_list(yaml_document_t *doc, yaml_node_t *seq,
			const char *name, bool nets, const char **out,
			unsigned int max, unsigned int *n)
{
	const char *what = nets ? "nets" : "nids";
	yaml_node_item_t *it;
	const char *val;
	unsigned int i;

	if (!seq || seq->type != YAML_SEQUENCE_NODE) {
		report_error("import", "nidmap", EINVAL,
			     "registration %s: '%s' is not a sequence", name,
			     what);
		return -EINVAL;
	}
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		val = scalar(yaml_document_get_node(doc, *it));
		if (!val || (nets ? !valid_net(val) || !strcmp(val, "lo") :
			     !valid_nid(val))) {
			report_error("import", "nidmap", EINVAL,
				     "registration %s: invalid %s '%s'", name,
				     nets ? "net" : "NID", val ? val : "");
			return -EINVAL;
		}
		for (i = 0; i < *n; i++)
			if (!strcmp(out[i], val))
				break;
		if (i < *n || *n == max) {
			report_error("import", "nidmap", EINVAL,
				     "registration %s: '%s' lists 1 to %u distinct values",
				     name, what, max);
			return -EINVAL;
		}
		out[(*n)++] = val;
	}
	if (!*n) {
		report_error("import", "nidmap", EINVAL,
			     "registration %s: '%s' lists 1 to %u distinct values",
			     name, what, max);
		return -EINVAL;
	}
	return 0;
}

static int plan_nm_reg(yaml_document_t *doc, yaml_node_t *map,
		       struct plan_nidmap *nm)
{
	yaml_node_t *nids = NULL, *nets = NULL;
	yaml_node_pair_t *pair;
	struct plan_nm_reg *r;
	const char *key, *val;
	unsigned int i;

	if (!map || map->type != YAML_MAPPING_NODE) {
		report_error("import", "nidmap", EINVAL,
			     "an entry of 'registrations' is not a mapping");
		return -EINVAL;
	}
	if (nm->n_reg == PLAN_NM_REGS_MAX) {
		report_error("import", "nidmap", EINVAL,
			     "more than %d registrations", PLAN_NM_REGS_MAX);
		return -EINVAL;
	}
	r = realloc(nm->reg, (nm->n_reg + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	nm->reg = r;
	r += nm->n_reg;
	memset(r, 0, sizeof(*r));
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = PAIR_KEY(doc, pair);
		val = scalar(PAIR_VAL(doc, pair));
		if (key && !strcmp(key, "publisher") && val && valid_nid(val)) {
			r->publisher = val;
		} else if (key && !strcmp(key, "name") &&
			   plan_nm_name_ok(val)) {
			r->name = val;
		} else if (key && !strcmp(key, "router") &&
			   !plan_nm_flag(val, &r->router)) {
			continue;
		} else if (key && !strcmp(key, "nids")) {
			nids = PAIR_VAL(doc, pair);
		} else if (key && !strcmp(key, "nets")) {
			nets = PAIR_VAL(doc, pair);
		} else {
			report_error("import", "nidmap", EINVAL,
				     "invalid key or value '%s' in a registration",
				     key ? key : "");
			return -EINVAL;
		}
	}
	if (!r->publisher || !r->name || !nids) {
		report_error("import", "nidmap", EINVAL,
			     "a registration needs 'publisher', 'name' and 'nids'%s",
			     "");
		return -EINVAL;
	}
	if (r->router != !!nets) {
		report_error("import", "nidmap", EINVAL,
			     "registration %s: 'router: yes' and 'nets' go together",
			     r->name);
		return -EINVAL;
	}
	if (plan_nm_list(doc, nids, r->name, false, r->nids,
			 NIDMAP_GENL_NIDS_MAX, &r->n_nids) ||
	    (nets && plan_nm_list(doc, nets, r->name, true, r->nets,
				  PLAN_NM_NETS_MAX, &r->n_nets)))
		return -EINVAL;
	for (i = 0; i < nm->n_reg; i++)
		if (!strcmp(nm->reg[i].name, r->name) &&
		    !strcmp(nm->reg[i].publisher, r->publisher)) {
			report_error("import", "nidmap", EINVAL,
				     "registration %s with %s twice", r->name,
				     r->publisher);
			return -EINVAL;
		}
	nm->n_reg++;
	return 0;
}

/*
 * "nidmap:" (nidmap.rst, "Saving the configuration"): "publisher:" with
 * its settings, "subscriber:" with its publisher and flags,
 * "registrations:" (each publisher, name, NIDs in failover order, and a
 * router's "router: yes" and nets).  A key (its secret) is never there.
 */
static int plan_nidmap(yaml_document_t *doc, yaml_node_t *map,
		       struct plan_nidmap *nm)
{
	yaml_node_pair_t *pair;
	yaml_node_item_t *it;
	unsigned int i;
	int rc;

	if (map->type != YAML_MAPPING_NODE) {
		report_error("import", "nidmap", EINVAL,
			     "'nidmap' is not a mapping");
		return -EINVAL;
	}
	if (!nm->has)
		for (i = 0; i < PLAN_NM_LIMS; i++)
			nm->lim[i] = -1;
	nm->has = true;
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const char *key = PAIR_KEY(doc, pair);
		yaml_node_t *v = PAIR_VAL(doc, pair);

		if (key && !strcmp(key, "publisher")) {
			rc = plan_nm_pub(doc, v, nm);
		} else if (key && !strcmp(key, "subscriber")) {
			rc = plan_nm_sub(doc, v, nm);
		} else if (key && !strcmp(key, "registrations") && v &&
			   v->type == YAML_SEQUENCE_NODE) {
			rc = 0;
			for (it = v->data.sequence.items.start;
			     !rc && it < v->data.sequence.items.top; it++)
				rc = plan_nm_reg(doc,
						 yaml_document_get_node(doc, *it),
						 nm);
		} else {
			report_error("import", "nidmap", EINVAL,
				     "invalid key '%s' in 'nidmap'",
				     key ? key : "");
			return -EINVAL;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * The first key of a mapping under @node whose value is empty (a plain
 * "key:" with nothing after it), or NULL.
 */
static const char *key_without_value(yaml_document_t *doc, yaml_node_t *node,
				     int depth)
{
	yaml_node_pair_t *pair;
	yaml_node_item_t *it;
	const char *key;

	if (!node || depth > 16)
		return NULL;
	if (node->type == YAML_SEQUENCE_NODE) {
		for (it = node->data.sequence.items.start;
		     it < node->data.sequence.items.top; it++) {
			key = key_without_value(doc,
						yaml_document_get_node(doc, *it),
						depth + 1);
			if (key)
				return key;
		}
		return NULL;
	}
	if (node->type != YAML_MAPPING_NODE)
		return NULL;
	for (pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *v = PAIR_VAL(doc, pair);

		if (v && v->type == YAML_SCALAR_NODE &&
		    v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		    !v->data.scalar.length)
			return PAIR_KEY(doc, pair) ? PAIR_KEY(doc, pair) : "";
		key = key_without_value(doc, v, depth + 1);
		if (key)
			return key;
	}
	return NULL;
}

/**
 * plan_doc() - check an import document and plan what it asks for
 * @doc: the document as libyaml loaded it
 * @pl: out: the requests; free them with plan_free() whatever the result
 *
 * Nothing is sent: every block is checked first (its errors reported as
 * lnetctl's YAML on stderr), so an import changes nothing unless the
 * whole file is good.
 *
 * Return: 0, or a negative errno (-EINVAL, -EOPNOTSUPP, -ENOMEM).
 */
int plan_doc(yaml_document_t *doc, struct plan *pl)
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
		const char *empty = key_without_value(doc, v, 0);

		/* as stock words it */
		if (key && empty) {
			report_error("import", key, EINVAL,
				     "no value: key '%s' of '%s'", empty, key);
			return -EINVAL;
		}
		if (key && !strcmp(key, "net")) {
			rc = plan_nets(doc, v, pl);
		} else if (key && !strcmp(key, "global")) {
			rc = plan_globals(doc, v, pl);
		} else if (key && !strcmp(key, "peer")) {
			rc = plan_peers(doc, v, &pl->peer, &pl->n_peer);
		} else if (key && !strcmp(key, "udsp")) {
			rc = plan_udsp(doc, v, pl);
		} else if (key && !strcmp(key, "route")) {
			rc = plan_routes(doc, v, pl);
		} else if (key && !strcmp(key, "routing")) {
			rc = plan_routing(doc, v, pl);
		} else if (key && !strcmp(key, "buffers")) {
			rc = plan_buffers(doc, v, pl);
		} else if (key && !strcmp(key, "ip2nets")) {
			rc = plan_ip2nets(doc, v, pl);
		} else if (key && !strcmp(key, "numa")) {
			rc = plan_numa(doc, v, pl);
		} else if (key && !strcmp(key, "nidmap")) {
			rc = plan_nidmap(doc, v, &pl->nm);
		} else if (key && (!strcmp(key, "ping") ||
				   !strcmp(key, "discover"))) {
			rc = plan_exec(doc, v, key[0] == 'd', pl);
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

/**
 * plan_free() - free what plan_doc() planned
 * @pl: the plan; zeroed
 */
void plan_free(struct plan *pl)
{
	free(pl->ni);
	free(pl->par);
	free_peer_plan(pl->peer, pl->n_peer);
	free(pl->udsp);
	free(pl->udsp_at);
	free(pl->route);
	free(pl->exec);
	free(pl->ip2);
	free(pl->nm.reg);
	memset(pl, 0, sizeof(*pl));
}
