/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnetctl: shared declarations of the tool's parts (netlink client, YAML
 * output, the commands).
 */
#ifndef _LNETCTL_H
#define _LNETCTL_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <lnet/nid.h>		/* and ARRAY_SIZE(), from lnet/user-types.h */
#include <uapi/lnet/lnet_genl.h>

/* --- netlink client (nl.c) --- */

/* What the kernel said about a failed request. */
struct lnl_error {
	int errnum;			/* positive errno, 0 on success */
	char msg[256];			/* extack message, "" if none */
	int bad_attr;			/* type of the offending attr, or -1 */
	int miss_type;			/* type of a missing attr, or -1 */
};

/*
 * Called for each reply message with its attributes, parsed into @tb
 * (the last of repeated ones) and raw (@head, @len) for repeated ones.
 */
typedef int (*lnl_parse_fn)(struct nlattr **tb, struct nlattr *head, int len,
			    void *arg);

int lnl_open(struct lnl_error *err);
int lnl_open_family(const char *name, const char *module, int maxattr,
		    struct lnl_error *err);
void lnl_close(void);
struct nl_msg *lnl_msg(int cmd, bool dump);
int lnl_run(struct nl_msg *msg, lnl_parse_fn parse, void *arg,
	    struct lnl_error *err);
int lnl_nest_parse(struct nlattr **tb, int max, struct nlattr *nest);
/* The u32 attributes 1..@max of @nest into @out[1..max]; absent: kept. */
int lnl_nest_u32s(struct nlattr *nest, int max, unsigned int *out);
int lnl_nest_latency(struct nlattr *nest, unsigned long long *out);

/* --- YAML output (yout.c) --- */

struct yout {
	yaml_emitter_t emitter;
	bool failed;
};

void yout_begin(struct yout *y, FILE *f);
int yout_end(struct yout *y);
void yout_map(struct yout *y);
void yout_seq(struct yout *y);
void yout_flow_seq(struct yout *y);
void yout_end_map(struct yout *y);
void yout_end_seq(struct yout *y);
void yout_str(struct yout *y, const char *s);
void yout_quoted(struct yout *y, const char *s);
void yout_kv_str(struct yout *y, const char *key, const char *val);
void yout_kv_int(struct yout *y, const char *key, long long val);
void yout_kv_uint(struct yout *y, const char *key, unsigned long long val);

/*
 * Report a failure on stderr in lnetctl's shape:
 *	@op:
 *	-     @what:
 *		  errno: -@errnum
 *		  descr: "..."
 */
void report_error(const char *op, const char *what, int errnum,
		  const char *fmt, ...);
/* The same for a kernel rejection: @prefix, then the extack message. */
void report_nl_error(const char *op, const char *what, const char *prefix,
		     const struct lnl_error *err);

/* --- values (lnetctl.c) --- */

bool valid_net(const char *s);
bool valid_nid(const char *s);
int parse_long(const char *s, long long min, long long max, long long *out);
/* Check "set @name @str" as the tool can; reports and returns -errno. */
int check_global(const char *name, const char *str, long long *value);

struct tunable_def {
	const char *key;	/* YAML key */
	const char *opt;	/* command-line option */
	int attr;		/* LNET_TUN_A_* or LNET_LND_TUN_A_* */
	long long min, max;
	bool show_only;		/* shown, not set (nor in a backup) */
};

/* An "lnd tunables" value not given (request) or not sent (dump). */
#define LND_TUN_UNSET		LLONG_MIN
#define LND_TUN_NOT_SENT	INT_MIN

/* "tunables:" (LNET_A_TUNABLES) */
extern const struct tunable_def tunable_defs[];
extern const unsigned int n_tunable_defs;
/* "lnd tunables:" (LNET_A_LND_TUNABLES) */
extern const struct tunable_def lnd_tunable_defs[];
extern const unsigned int n_lnd_tunable_defs;

/*
 * One "net add" request; tunables < 0 (lnd tunables LND_TUN_UNSET: -1 is
 * a tos) are left to the LND.
 */
struct net_add_req {
	const char *net;
	const char *ifname;
	long long tun[LNET_TUN_A_MAX + 1];
	long long lnd_tun[LNET_LND_TUN_A_MAX + 1];
};

/* Every tunable of @r left to the LND. */
void net_add_req_init(struct net_add_req *r, const char *net);

int do_net_add(const struct net_add_req *r, struct lnl_error *err);
int do_net_del(const char *net, const char *ifname, const char *nid,
	       struct lnl_error *err);

/* --- YAML input (import) --- */

static inline const char *scalar(yaml_node_t *node)
{
	if (!node || node->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)node->data.scalar.value;
}

#define PAIR_KEY(doc, pair)	\
	scalar(yaml_document_get_node(doc, (pair)->key))
#define PAIR_VAL(doc, pair)	yaml_document_get_node(doc, (pair)->value)

static inline bool in_list(const char *s, const char * const *list,
			   unsigned int n)
{
	while (n--)
		if (!strcmp(s, list[n]))
			return true;
	return false;
}

/* --- peers (peer.c) --- */

/* One "peer add": a peer of import's "peer:" block, or the command. */
struct peer_add_req {
	const char *prim;
	const char **nids;	/* more NIDs, at most LNET_GENL_PEER_NIDS_MAX */
	unsigned int n;
	bool mr;
	bool lock_prim;
	bool whole;		/* import --del: the peer, not some NIDs */
};

int do_peer_add(const struct peer_add_req *r, struct lnl_error *err);
int do_peer_del(const char *prim, const char *nid, bool force,
		struct lnl_error *err);
int plan_peers(yaml_document_t *doc, yaml_node_t *seq,
	       struct peer_add_req **reqs, unsigned int *n);
void free_peer_plan(struct peer_add_req *reqs, unsigned int n);
int peer_missing(const struct peer_add_req *reqs, unsigned int n,
		 const char **missing, struct lnl_error *err);
int emit_configured_peers(struct yout *y, const struct peer_add_req *only,
			  unsigned int n_only, bool backup,
			  struct lnl_error *err);
int do_global_set(const char *name, long long value, struct lnl_error *err);
int do_global_get(const char *name, long long *value, struct lnl_error *err);

/* "ping"/"discover" with these arguments (argv[0] the command). */
int ping_or_discover(int argc, char **argv, bool discover);

/* --- UDSP (udsp.c) --- */

#define UDSP_TERMS	3		/* src, dst, rte */
#define UDSP_PREF_MAX	16

/* A rule: terms "" when absent, prio -1 for a NID pair. */
struct udsp_rule {
	long long idx;
	char term[UDSP_TERMS][LNET_GENL_UDSP_LEN];
	long long prio;
};

struct udsp_list {
	struct udsp_rule *r;
	unsigned int n;
};

/* What the rules give an NI or peer NI (LNET_A_UDSP_INFO). */
struct udsp_info {
	bool has, has_pref;
	long long net_prio, nid_prio;	/* -1: none */
	unsigned int npref, nrtr;
	char pref[UDSP_PREF_MAX][LNET_GENL_NID_LEN];	/* local NIDs */
	char rtr[UDSP_PREF_MAX][LNET_GENL_NID_LEN];	/* gateway NIDs */
};

int do_udsp_add(const struct udsp_rule *r, long long idx,
		struct lnl_error *err);
int do_udsp_del(long long idx, struct lnl_error *err);
int get_udsp(long long idx, struct udsp_list *l, struct lnl_error *err);
void emit_udsp(struct yout *y, const struct udsp_list *l, bool skip_empty,
	       bool backup);
int parse_udsp_rule(yaml_document_t *doc, yaml_node_t *map,
		    struct udsp_rule *r, const char **why);
int parse_udsp_info(struct nlattr *nest, struct udsp_info *u);
void emit_udsp_info(struct yout *y, const struct udsp_info *u);
int cmd_udsp(int argc, char **argv);

/* --- routes (route.c) --- */

#define ROUTE_HOP_MAX	255

/* One route: "route add", or of import's "route:" block. */
struct route_req {
	char net[LNET_GENL_NET_LEN];
	char gw[LNET_GENL_NID_LEN];
	long long hop;		/* 1..255; -1 unset (0: any, as a filter) */
	long long prio;		/* -1: not given (0) */
};

/* A route of "route show". */
struct route_rec {
	struct route_req req;
	bool alive, single_hop;
};

struct route_list {
	struct route_rec *r;
	unsigned int n;
};

int do_route_add(const struct route_req *r, struct lnl_error *err);
int do_route_del(const char *net, const char *gw, struct lnl_error *err);
int get_routes(const struct route_req *f, struct route_list *l,
	       struct lnl_error *err);
void emit_routes(struct yout *y, const struct route_list *l, bool detail,
		 bool backup);
int parse_route(yaml_document_t *doc, yaml_node_t *map,
		struct route_req *r, const char **why);
int cmd_route(int argc, char **argv);

/* --- forwarding (routing.c) --- */
/* What ROUTING_GET replied: the state, and tiny, small, large's figures. */
struct routing_rec {
	unsigned int state;
	unsigned int npools;
	unsigned int pool[3][LNET_RTRPOOL_A_MAX + 1];
};

int do_routing_get(struct routing_rec *r, struct lnl_error *err);
void emit_routing(struct yout *y, const struct routing_rec *r, bool backup);
int do_routing_set(int enable, struct lnl_error *err);
int do_buffers_set(const long long *totals, struct lnl_error *err);
bool is_routing_param(const char *name);
int set_routing_param(const char *name, const char *str);
int cmd_routing(int argc, char **argv);

/* --- fault injection (fault.c) --- */
int cmd_fault(int argc, char **argv);

/* --- health (health.c) --- */

/* A local NI's or peer NI's LNET_A_HEALTH, by LNET_HEALTH_A_*. */
struct health_rec {
	bool has;
	bool present[LNET_HEALTH_A_MAX + 1];
	long long v[LNET_HEALTH_A_MAX + 1];
};

int parse_health(struct nlattr *nest, struct health_rec *h);
/* "health stats:" with a local NI's keys, or a peer NI's (@peer). */
void emit_health(struct yout *y, const struct health_rec *h, bool peer);
int net_set(int argc, char **argv);
int peer_set(int argc, char **argv);
int cmd_debug(int argc, char **argv);

/* A "net show" dump: every NI, in configuration order. */
struct ni_rec {
	char net[LNET_GENL_NET_LEN];
	char nid[LNET_GENL_NID_LEN];
	char ifname[32];
	bool up;
	bool has_stats, has_msgs, has_lnd_tun;
	unsigned int stats[LNET_NI_STATS_A_MAX + 1];
	int tun[LNET_TUN_A_MAX + 1];
	int lnd_tun[LNET_LND_TUN_A_MAX + 1];
	unsigned int msgs[3][LNET_MSG_A_MAX + 1];
	bool has_lat;
	unsigned long long lat[LNET_LAT_A_MAX + 1];
	struct udsp_info udsp;
	struct health_rec health;
};

struct ni_list {
	struct ni_rec *ni;
	unsigned int n;
};

int get_nis(const char *net, int detail, struct ni_list *l,
	    struct lnl_error *err);
/* Emit "net:"; @backup leaves out lo and what cannot be configured. */
void emit_nets(struct yout *y, const struct ni_list *l, int detail,
	       bool backup);

struct param {
	char name[LNET_GENL_PARAM_LEN];
	long long value;
};

int get_globals(struct param **p, unsigned int *n, struct lnl_error *err);
void emit_globals(struct yout *y, const struct param *p, unsigned int n);

/* --- command helpers (lnetctl.c) --- */

int open_or_report(const char *op, const char *what);
/* Report a usage error (fmt has one %s, @arg); returns 1. */
int usage_error(const char *op, const char *what, const char *fmt,
		const char *arg);
int bad_option(const char *op, const char *what, char **argv);
int parse_detail(const char *what, int argc, char **argv, int *detail);
/* @key: with put/get/reply/ack/hello counts, LNET_MSG_A_* indexed */
void emit_counts(struct yout *y, const char *key, const unsigned int *c);
void emit_latency(struct yout *y, const unsigned long long *lat);

/* --- peers (peer.c) --- */

int cmd_peer(int argc, char **argv);

/* --- nidmap (nidmap.c) --- */

int cmd_nidmap(int argc, char **argv);
/*
 * A registered router's NIDs (route add --gateway NAME) into @nids, room
 * for @max of LNET_GENL_NID_LEN chars each: n, or -1 and @why.
 */
int nidmap_router_nids(const char *name, void *nids, int max, char *why,
		       size_t wsz);

/* --- help (help.c) --- */

int help_main(int argc, char **argv);
void help_usage(void);

/* --- import / export (conf.c) --- */

int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif /* _LNETCTL_H */
