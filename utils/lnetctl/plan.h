/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnetctl import's plan (plan.c): what an import document asks for, as
 * the requests to send.
 */
#ifndef _LNETCTL_PLAN_H
#define _LNETCTL_PLAN_H

#include <uapi/lnet/nidmap_genl.h>

#include "lnetctl.h"
#include "nidrange.h"

/* A "nidmap:" block's registrations: at most what the kernel remembers. */
#define PLAN_NM_REGS_MAX	1024
#define PLAN_NM_NETS_MAX	16

/* A registration of "nidmap: registrations:" (a REGISTER to send). */
struct plan_nm_reg {
	const char *publisher;
	const char *name;
	const char *nids[NIDMAP_GENL_NIDS_MAX];	/* failover order */
	unsigned int n_nids;
	bool router;
	const char *nets[PLAN_NM_NETS_MAX];	/* a router's */
	unsigned int n_nets;
};

/* Publisher settings of "nidmap: publisher:", in this order; -1: unset. */
enum plan_nm_lim {
	PLAN_NM_MAX_ENTRIES,
	PLAN_NM_MAX_TOMBSTONES,
	PLAN_NM_TOMB_AGE,
	PLAN_NM_MAX_SUBS,
	PLAN_NM_FANOUT,
	PLAN_NM_LIMS,
};

/* "nidmap:" (Documentation/nidmap.rst, "Saving the configuration"). */
struct plan_nidmap {
	bool has;			/* the file has a "nidmap:" block */
	bool has_pub;			/* "publisher:": publish */
	long long lim[PLAN_NM_LIMS];
	bool has_sub;			/* "subscriber:": subscribe */
	const char *sub_pub;
	bool relay, routes;
	struct plan_nm_reg *reg;
	unsigned int n_reg;
};

/* Its keys, for lnetctl's YAML (nidmap.c emits, plan.c reads). */
extern const char *const plan_nm_lim_keys[PLAN_NM_LIMS];

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
	/* "nidmap:", applied last (its roles need LNet configured) */
	struct plan_nidmap nm;
};

int plan_doc(yaml_document_t *doc, struct plan *pl);
void plan_free(struct plan *pl);
int local_ipv4_ifs(struct ip2nets_if **out);
int ip2nets_resolve(const struct plan_ip2nets *rules, unsigned int n,
		    bool first_per_net, const struct ip2nets_if *ifs,
		    unsigned int n_ifs, struct net_add_req **ni,
		    unsigned int *n_ni);

/* --- nidmap's part of import and export (nidmap.c) --- */
int nidmap_reachable(const char *op);
int nidmap_export(struct yout *y);
int nidmap_import_add(const struct plan_nidmap *nm);
int nidmap_import_del(const struct plan_nidmap *nm);
int nidmap_import_show(struct yout *y, const struct plan_nidmap *nm);

#endif /* _LNETCTL_PLAN_H */
