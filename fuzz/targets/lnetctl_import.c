// SPDX-License-Identifier: GPL-2.0
/*
 * Target lnetctl_import: a file given to "lnetctl import", as libyaml
 * loads it and lnetctl's plan (utils/lnetctl/plan.c) checks it; the
 * input is the file.  Unlike the other targets this is user-space code
 * (lnetctl's own objects, libyaml, libnl linked but never reached).
 *
 * Checks: the plan refuses with -EINVAL, -EOPNOTSUPP, -EPERM or -ENOMEM,
 * or accepts only what the kernel may be sent: every NI on a valid net
 * with one interface name of 1..15 characters, none of "/[], \t\n" and
 * no leading ':' (an alias label "eth0:1" is a name);
 * every parameter one "global set" takes, within its range; every peer
 * with a valid primary NID and at most LNET_GENL_PEER_NIDS_MAX valid
 * NIDs; no more UDSP rules than the document lists; every route to a
 * valid net other than lo through a valid gateway NID, with hop -1 or
 * 1..255 and priority -1 (not given) or a u32; routing enable 0 or 1
 * and router buffer counts -1..INT_MAX.  "ip2nets:" rules resolved
 * against a made-up node (lo, eth0 and its alias eth0:1, eth1 down) add
 * NIs that hold to the same checks.  The same document planned twice
 * gives the same plan.
 */
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>

#include "../../utils/lnetctl/plan.h"
#include "../fuzz.h"

static int devnull = -1;

static const struct ip2nets_if fuzz_ifs[] = {
	{ "lo", 0x7f000001, true },
	{ "eth0", 0xc000020a, true },
	{ "eth0:1", 0xc000024e, true },
	{ "eth1", 0x0a010005, false },
};

/* plan_doc() of @doc, with its error reports (on stderr) silenced. */
static int plan_quietly(yaml_document_t *doc, struct plan *pl)
{
	int saved, rc;

	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY);
	fflush(stderr);
	saved = dup(2);
	dup2(devnull, 2);
	rc = plan_doc(doc, pl);
	if (!rc && pl->n_ip2) {
		int n = ip2nets_resolve(pl->ip2, pl->n_ip2, false, fuzz_ifs,
					ARRAY_SIZE(fuzz_ifs), &pl->ni,
					&pl->n_ni);

		FUZZ_CHECK(n == -ENOMEM ||
			   (n >= 0 && (unsigned int)n <= pl->n_ip2));
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return rc;
}

static void check_plan(const struct plan *pl, size_t in_size)
{
	unsigned int i, j;
	long long v;

	for (i = 0; i < pl->n_ni; i++) {
		const char *ifn = pl->ni[i].ifname;

		FUZZ_CHECK(pl->ni[i].net && valid_net(pl->ni[i].net));
		FUZZ_CHECK(strcmp(pl->ni[i].net, "lo"));
		FUZZ_CHECK(ifn && *ifn && strlen(ifn) < 16 &&
			   !strpbrk(ifn, "/[], \t\n") && *ifn != ':');
	}
	for (i = 0; i < pl->n_par; i++) {
		char val[32];

		snprintf(val, sizeof(val), "%lld", pl->par[i].value);
		FUZZ_CHECK(pl->par[i].name);
		FUZZ_CHECK(!check_global(pl->par[i].name, val, &v) &&
			   v == pl->par[i].value);
	}
	for (i = 0; i < pl->n_peer; i++) {
		FUZZ_CHECK(pl->peer[i].prim && valid_nid(pl->peer[i].prim));
		FUZZ_CHECK(pl->peer[i].n <= LNET_GENL_PEER_NIDS_MAX);
		for (j = 0; j < pl->peer[i].n; j++)
			FUZZ_CHECK(valid_nid(pl->peer[i].nids[j]));
	}
	for (i = 0; i < pl->n_route; i++) {
		const struct route_req *r = &pl->route[i];

		FUZZ_CHECK(valid_net(r->net) && strcmp(r->net, "lo"));
		FUZZ_CHECK(valid_nid(r->gw));
		FUZZ_CHECK(r->hop == -1 || (r->hop >= 1 && r->hop <= 255));
		FUZZ_CHECK(r->prio >= -1 && r->prio <= 0xffffffffLL);
	}
	FUZZ_CHECK(!pl->has_routing || pl->routing == 0 || pl->routing == 1);
	for (i = 0; i < ARRAY_SIZE(pl->buffers); i++)
		FUZZ_CHECK(!pl->has_buffers ||
			   (pl->buffers[i] >= -1 && pl->buffers[i] <= INT_MAX));
	FUZZ_CHECK(!pl->routing_done && !pl->buffers_done);
	for (i = 0; i < pl->n_exec; i++) {
		const struct plan_exec *e = &pl->exec[i];

		FUZZ_CHECK(e->nid && valid_nid(e->nid));
		FUZZ_CHECK(!e->src || valid_nid(e->src));
		FUZZ_CHECK(e->timeout_ms >= 1 &&
			   e->timeout_ms <= LNET_GENL_PING_TIMEOUT_MAX);
		FUZZ_CHECK(!e->force || e->discover);
	}
	/* Every NI, parameter, peer, rule and route comes from input bytes. */
	FUZZ_CHECK(pl->n_ni + pl->n_par + pl->n_peer + pl->n_udsp +
		   pl->n_route + pl->n_exec <= in_size);
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct plan pl = { 0 }, pl2 = { 0 };
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc, rc2;

	if (size > 65536)
		return 0;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, data, size);
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_parser_delete(&parser);
		return 0;	/* lnetctl says "YAML error" before planning */
	}
	rc = plan_quietly(&doc, &pl);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -EOPNOTSUPP ||
		   rc == -EPERM || rc == -ENOMEM);
	if (!rc)
		check_plan(&pl, size);
	rc2 = plan_quietly(&doc, &pl2);
	FUZZ_CHECK(rc2 == rc);
	FUZZ_CHECK(pl2.n_ni == pl.n_ni && pl2.n_par == pl.n_par &&
		   pl2.n_peer == pl.n_peer && pl2.n_udsp == pl.n_udsp &&
		   pl2.n_route == pl.n_route && pl2.n_exec == pl.n_exec &&
		   pl2.has_numa == pl.has_numa &&
		   pl2.has_routing == pl.has_routing &&
		   pl2.routing == pl.routing &&
		   pl2.has_buffers == pl.has_buffers &&
		   !memcmp(pl2.buffers, pl.buffers, sizeof(pl.buffers)));
	plan_free(&pl);
	plan_free(&pl2);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return 0;
}
