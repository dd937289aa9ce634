/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnetctl import's plan (plan.c): what an import document asks for, as
 * the requests to send.
 */
#ifndef _LNETCTL_PLAN_H
#define _LNETCTL_PLAN_H

#include "lnetctl.h"
#include "nidrange.h"

struct plan_param {
	const char *name;
	long long value;
	long long old;
};

/* A "ping:"/"discover:" entry, run by import --exec only (as stock). */
struct plan_exec {
	bool discover;
	const char *nid;
	const char *src;	/* ping's "source_nid", or NULL */
	long long timeout_ms;	/* ping's "timeout", ms (stock's default 1000) */
	bool force;		/* discover's "force" */
};

/* An "ip2nets:" rule and the tunables of the NIs it brings up. */
struct plan_ip2nets {
	struct ip2nets_rule rule;
	struct net_add_req tmpl;
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
	struct route_req *route;
	unsigned int n_route;
	/* "routing:": enable is 1 for "enable: 1", else 0 (spec 10.5) */
	bool has_routing;
	int routing;
	struct plan_exec *exec;
	unsigned int n_exec;
	/* "numa:" given (its range is the parameter numa_range) */
	bool has_numa;
	/* "buffers:": tiny, small, large; -1 for one not given */
	bool has_buffers;
	long long buffers[3];
	/* import --add: what was applied, and what was there (for undo) */
	bool routing_done, buffers_done;
	int old_routing;
	long long old_buffers[3];
	/* "ip2nets:" rules, turned into NIs by ip2nets_resolve() */
	struct plan_ip2nets *ip2;
	unsigned int n_ip2;
};

int plan_doc(yaml_document_t *doc, struct plan *pl);
void plan_free(struct plan *pl);
int local_ipv4_ifs(struct ip2nets_if **out);
int ip2nets_resolve(const struct plan_ip2nets *rules, unsigned int n,
		    bool first_per_net, const struct ip2nets_if *ifs,
		    unsigned int n_ifs, struct net_add_req **ni,
		    unsigned int *n_ni);

#endif /* _LNETCTL_PLAN_H */
