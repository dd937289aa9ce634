/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnetctl import's plan (plan.c): what an import document asks for, as
 * the requests to send.
 */
#ifndef _LNETCTL_PLAN_H
#define _LNETCTL_PLAN_H

#include "lnetctl.h"

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
	struct route_req *route;
	unsigned int n_route;
};

int plan_doc(yaml_document_t *doc, struct plan *pl);
void plan_free(struct plan *pl);

#endif /* _LNETCTL_PLAN_H */
