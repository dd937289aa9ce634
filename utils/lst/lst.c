// SPDX-License-Identifier: GPL-2.0
/*
 * lst: the LNet selftest console, Lustre's commands, options and output
 * (spec lnet-selftest.md 7.3, 7.6) over the "lnet_selftest" netlink
 * family of lnet_selftest.ko (include/uapi/lnet/lnet_selftest_genl.h).
 * The session key is $LST_SESSION, as with stock lst.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../lnetctl/lnetctl.h"
#include <uapi/lnet/lnet_selftest_genl.h>

#define LST_MAX_NODES	LST_GENL_REQ_NODES_MAX

static unsigned int lst_key;

/* A command: its name, its function and its usage ("lst help NAME"). */
struct lst_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool key;		/* needs $LST_SESSION */
	bool nl;		/* talks to lnet_selftest.ko */
	const char *usage;
};

static const struct lst_cmd *lst_cur;	/* the command running */

/* The running command's usage, on stderr; exit status 1. */
static void die_usage(void)
{
	fprintf(stderr, "Usage: lst %s\n", lst_cur->usage);
	exit(1);
}

/* The kernel said no: "<op> failed: <extack or errno>". */
static int nl_fail(const char *op, const struct lnl_error *err)
{
	fprintf(stderr, "%s failed: %s\n", op,
		err->msg[0] ? err->msg : strerror(err->errnum));
	return -err->errnum ? -err->errnum : -EIO;
}

static struct nl_msg *lst_msg(int cmd, bool dump, bool key)
{
	struct nl_msg *msg = lnl_msg(cmd, dump);

	if (msg && key)
		nla_put_u32(msg, LST_A_KEY, lst_key);
	return msg;
}

static const char *state_name(unsigned int st)
{
	switch (st) {
	case LST_NODE_ACTIVE:	return "Active";
	case LST_NODE_BUSY:	return "Busy";
	case LST_NODE_DOWN:	return "Down";
	case LST_NODE_UNKNOWN:	return "Unknown";
	default:		return "Invalid";
	}
}

/* --- NID lists: "a b", "192.168.0.[1-4,7]@tcp", "12345-nid" --- */

struct nidlist {
	char (*nid)[LST_GENL_NID_LEN];
	int n;
};

static int nidlist_add(struct nidlist *l, const char *s)
{
	if (!strncmp(s, "12345-", 6))
		s += 6;
	if (l->n >= LST_MAX_NODES) {
		fprintf(stderr, "more than %d nodes\n", LST_MAX_NODES);
		return -E2BIG;
	}
	if (strlen(s) >= LST_GENL_NID_LEN) {
		fprintf(stderr, "%s: not a NID\n", s);
		return -EINVAL;
	}
	if (!l->nid) {
		l->nid = calloc(LST_MAX_NODES, LST_GENL_NID_LEN);
		if (!l->nid)
			return -ENOMEM;
	}
	strcpy(l->nid[l->n++], s);
	return 0;
}

/* Expand the first [range list] of @s, recursively. */
static int nidlist_expand(struct nidlist *l, const char *s)
{
	const char *open = strchr(s, '['), *close;
	char list[128], *tok, *save;
	char buf[256];

	if (!open)
		return nidlist_add(l, s);
	close = strchr(open, ']');
	if (!close || close - open - 1 >= (int)sizeof(list)) {
		fprintf(stderr, "%s: bad range\n", s);
		return -EINVAL;
	}
	memcpy(list, open + 1, close - open - 1);
	list[close - open - 1] = '\0';
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long lo, hi, v;
		char *end;
		int rc;

		lo = strtoul(tok, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (*end || hi < lo || hi - lo > LST_MAX_NODES) {
			fprintf(stderr, "%s: bad range\n", s);
			return -EINVAL;
		}
		for (v = lo; v <= hi; v++) {
			snprintf(buf, sizeof(buf), "%.*s%lu%s",
				 (int)(open - s), s, v, close + 1);
			rc = nidlist_expand(l, buf);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int nidlist_parse(struct nidlist *l, int argc, char **argv)
{
	int i, rc;

	for (i = 0; i < argc; i++) {
		char *dup = strdup(argv[i]), *tok, *save;

		if (!dup)
			return -ENOMEM;
		for (tok = strtok_r(dup, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			rc = nidlist_expand(l, tok);
			if (rc) {
				free(dup);
				return rc;
			}
		}
		free(dup);
	}
	return 0;
}

/* The NIDs of @l as LST_A_NODES; a message too small for them fails. */
static int put_nodes(struct nl_msg *msg, const struct nidlist *l)
{
	struct nlattr *nest = nla_nest_start(msg, LST_A_NODES);
	int i;

	for (i = 0; nest && i < l->n; i++)
		if (nla_put_string(msg, LST_A_NID, l->nid[i]))
			break;
	/* a nest's length is 16 bits */
	if (!nest || i < l->n || nlmsg_tail(nlmsg_hdr(msg)) -
	    (void *)nest > 0xffff) {
		fprintf(stderr, "too many nodes for one request\n");
		return -E2BIG;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* --- transaction results --- */

#define STAT_N	(LST_STAT_A_MAX + 1)

struct result {
	char nid[LST_GENL_NID_LEN];
	unsigned int state;
	unsigned int rpc_errno;
	unsigned int fwk_errno;
	bool replied;
	char sid_nid[LST_GENL_NID_LEN];
	unsigned long long sid_stamp;
	char name[LST_GENL_NAME_LEN];
	unsigned int timeout;
	unsigned int active;
	unsigned long long stat[STAT_N];
};

struct results {
	struct result *r;
	int n;
	int max;
	unsigned int test_idx;
};

static const char *str_attr(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_string(tb[type]) : "";
}

static int parse_result(struct nlattr **tb, struct nlattr *head, int len,
			void *arg)
{
	struct results *rs = arg;
	struct result *r;

	(void)head;
	(void)len;
	if (!tb[LST_A_NID]) {
		if (tb[LST_A_TEST_IDX])
			rs->test_idx = nla_get_u32(tb[LST_A_TEST_IDX]);
		return 0;
	}
	if (rs->n == rs->max) {
		int max = rs->max ? rs->max * 2 : 64;
		struct result *v = realloc(rs->r, max * sizeof(*v));

		if (!v)
			return -ENOMEM;
		rs->r = v;
		rs->max = max;
	}
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->nid, sizeof(r->nid), "%s", str_attr(tb, LST_A_NID));
	r->state = tb[LST_A_STATE] ? nla_get_u32(tb[LST_A_STATE]) : 0;
	r->rpc_errno = tb[LST_A_RPC_ERRNO] ? nla_get_u32(tb[LST_A_RPC_ERRNO]) : 0;
	r->replied = tb[LST_A_FWK_ERRNO];
	if (r->replied)
		r->fwk_errno = nla_get_u32(tb[LST_A_FWK_ERRNO]);
	snprintf(r->sid_nid, sizeof(r->sid_nid), "%s",
		 str_attr(tb, LST_A_SID_NID));
	if (tb[LST_A_SID_STAMP])
		r->sid_stamp = nla_get_u64(tb[LST_A_SID_STAMP]);
	snprintf(r->name, sizeof(r->name), "%s", str_attr(tb, LST_A_NAME));
	if (tb[LST_A_TIMEOUT])
		r->timeout = nla_get_u32(tb[LST_A_TIMEOUT]);
	if (tb[LST_A_ACTIVE])
		r->active = nla_get_u32(tb[LST_A_ACTIVE]);
	if (tb[LST_A_STATS]) {
		struct nlattr *st[STAT_N];
		int i;

		if (lnl_nest_parse(st, LST_STAT_A_MAX, tb[LST_A_STATS]))
			return -EPROTO;
		for (i = 0; i < STAT_N; i++) {
			if (!st[i] || i == LST_STAT_A_PAD)
				continue;
			r->stat[i] = nla_len(st[i]) == 8 ? nla_get_u64(st[i]) :
							   nla_get_u32(st[i]);
		}
	}
	return 0;
}

/* Run @msg, a transaction; its results into @rs. */
static int run_trans(struct nl_msg *msg, const char *op, struct results *rs)
{
	struct lnl_error err;

	memset(rs, 0, sizeof(*rs));
	if (lnl_run(msg, parse_result, rs, &err))
		return nl_fail(op, &err);
	return 0;
}

/* Print the nodes whose RPC or framework request failed; how many. */
static int print_trans_errors(const struct results *rs, const char *op)
{
	int i, bad = 0;

	for (i = 0; i < rs->n; i++) {
		const struct result *r = &rs->r[i];

		if (r->rpc_errno) {
			fprintf(stderr, "\t12345-%s: %s RPC failed: %s\n",
				r->nid, op, strerror(r->rpc_errno));
			bad++;
		} else if (r->fwk_errno) {
			fprintf(stderr, "\t12345-%s: %s failed: %s\n",
				r->nid, op, strerror(r->fwk_errno));
			bad++;
		}
	}
	return bad;
}

/* --- sessions --- */

static int cmd_new_session(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int timeout = 300;
	bool force = false;
	struct lnl_error err;
	struct nl_msg *msg;
	const char *name;
	char host[64];
	int c;

	while ((c = getopt_long(argc, argv, "t:f", opts, NULL)) != -1) {
		if (c == 't')
			timeout = strtoul(optarg, NULL, 0);
		else if (c == 'f')
			force = true;
		else
			die_usage();
	}
	if (optind < argc - 1)
		die_usage();
	if (optind < argc) {
		name = argv[optind];
	} else {
		if (gethostname(host, sizeof(host)))
			snprintf(host, sizeof(host), "lst");
		host[sizeof(host) - 1] = '\0';
		name = host;
	}
	msg = lst_msg(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, name);
	nla_put_u32(msg, LST_A_TIMEOUT, timeout);
	if (force)
		nla_put_flag(msg, LST_A_FORCE);
	if (lnl_run(msg, NULL, NULL, &err))
		return nl_fail("new_session", &err);
	printf("SESSION: %s FEATURES: %x TIMEOUT: %u FORCE: %s\n", name, 1,
	       timeout, force ? "Yes" : "No");
	return 0;
}

static int cmd_end_session(int argc, char **argv)
{
	struct lnl_error err;

	(void)argv;
	if (argc > 1)
		die_usage();
	if (lnl_run(lst_msg(LST_CMD_SESSION_END, false, true), NULL, NULL,
		    &err))
		return nl_fail("end_session", &err);
	printf("session is ended\n");
	return 0;
}

static int print_session(struct nlattr **tb, struct nlattr *head, int len,
			 void *arg)
{
	(void)head;
	(void)len;
	(void)arg;
	printf("%s ID: %llu@%s, KEY: %u FEATURES: %x NODES: %u\n",
	       str_attr(tb, LST_A_NAME),
	       tb[LST_A_SID_STAMP] ?
	       (unsigned long long)nla_get_u64(tb[LST_A_SID_STAMP]) : 0ULL,
	       str_attr(tb, LST_A_SID_NID),
	       tb[LST_A_KEY] ? nla_get_u32(tb[LST_A_KEY]) : 0, 1,
	       tb[LST_A_NODE_COUNT] ? nla_get_u32(tb[LST_A_NODE_COUNT]) : 0);
	return 0;
}

static int cmd_show_session(int argc, char **argv)
{
	struct lnl_error err;

	(void)argv;
	if (argc > 1)
		die_usage();
	if (lnl_run(lst_msg(LST_CMD_SESSION_GET, false, false), print_session,
		    NULL, &err))
		return nl_fail("show_session", &err);
	return 0;
}

/* --- groups --- */

static int cmd_add_group(int argc, char **argv)
{
	struct nidlist l = { 0 };
	struct results rs;
	struct nl_msg *msg;
	int rc, bad;

	if (argc < 3)
		die_usage();
	rc = nidlist_parse(&l, argc - 2, argv + 2);
	if (rc)
		return rc;
	msg = lst_msg(LST_CMD_GROUP_ADD, true, true);
	nla_put_string(msg, LST_A_GROUP, argv[1]);
	rc = put_nodes(msg, &l);
	free(l.nid);
	if (rc) {
		nlmsg_free(msg);
		return rc;
	}
	rc = run_trans(msg, "add_group", &rs);
	if (rc)
		return rc;
	bad = print_trans_errors(&rs, "create session");
	free(rs.r);
	if (bad) {
		fprintf(stderr, "Can't add %d nodes to group %s\n", bad,
			argv[1]);
		return -EIO;
	}
	return 0;
}

static int cmd_del_group(int argc, char **argv)
{
	struct results rs;
	struct nl_msg *msg;
	int rc;

	if (argc != 2)
		die_usage();
	msg = lst_msg(LST_CMD_GROUP_DEL, true, true);
	nla_put_string(msg, LST_A_GROUP, argv[1]);
	rc = run_trans(msg, "del_group", &rs);
	if (!rc)
		print_trans_errors(&rs, "remove session");
	free(rs.r);
	return rc;
}

static unsigned int parse_state(const char *s)
{
	if (!strcmp(s, "active"))
		return LST_NODE_ACTIVE;
	if (!strcmp(s, "busy"))
		return LST_NODE_BUSY;
	if (!strcmp(s, "down"))
		return LST_NODE_DOWN;
	if (!strcmp(s, "unknown"))
		return LST_NODE_UNKNOWN;
	if (!strcmp(s, "invalid"))
		return LST_NODE_BUSY | LST_NODE_DOWN | LST_NODE_UNKNOWN;
	return 0;
}

static int cmd_update_group(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "refresh", no_argument, NULL, 'f' },
		{ "clean", required_argument, NULL, 'c' },
		{ "remove", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int opc = 0, state = 0;
	struct nidlist l = { 0 };
	struct results rs;
	struct nl_msg *msg;
	int c, rc;

	while ((c = getopt_long(argc, argv, "fc:r:", opts, NULL)) != -1) {
		if (opc)
			die_usage();
		if (c == 'f') {
			opc = LST_GROUP_REFRESH;
		} else if (c == 'c') {
			opc = LST_GROUP_CLEAN;
			state = parse_state(optarg);
			if (!state)
				die_usage();
		} else if (c == 'r') {
			opc = LST_GROUP_REMOVE;
			rc = nidlist_parse(&l, 1, &optarg);
			if (rc)
				return rc;
		} else {
			die_usage();
		}
	}
	if (!opc || optind != argc - 1)
		die_usage();
	msg = lst_msg(LST_CMD_GROUP_UPDATE, true, true);
	nla_put_string(msg, LST_A_GROUP, argv[optind]);
	nla_put_u32(msg, LST_A_UPDATE_OPC, opc);
	if (state)
		nla_put_u32(msg, LST_A_STATE, state);
	rc = l.n ? put_nodes(msg, &l) : 0;
	free(l.nid);
	if (rc) {
		nlmsg_free(msg);
		return rc;
	}
	rc = run_trans(msg, "update_group", &rs);
	if (!rc && print_trans_errors(&rs, opc == LST_GROUP_REFRESH ?
				      "create session" : "remove session"))
		rc = -EIO;
	free(rs.r);
	return rc;
}

struct group_list {
	int n;
	unsigned int filter;
	int shown;
	char names[LST_GENL_GROUPS_MAX][LST_GENL_NAME_LEN];
	unsigned int cnt[LST_GENL_GROUPS_MAX][5];
};

static int parse_group(struct nlattr **tb, struct nlattr *head, int len,
		       void *arg)
{
	struct group_list *g = arg;

	(void)head;
	(void)len;
	if (g->n == LST_GENL_GROUPS_MAX || !tb[LST_A_GROUP])
		return 0;
	snprintf(g->names[g->n], LST_GENL_NAME_LEN, "%s",
		 str_attr(tb, LST_A_GROUP));
	if (tb[LST_A_COUNT_ACTIVE]) {
		g->cnt[g->n][0] = nla_get_u32(tb[LST_A_COUNT_ACTIVE]);
		g->cnt[g->n][1] = nla_get_u32(tb[LST_A_COUNT_BUSY]);
		g->cnt[g->n][2] = nla_get_u32(tb[LST_A_COUNT_DOWN]);
		g->cnt[g->n][3] = nla_get_u32(tb[LST_A_COUNT_UNKNOWN]);
		g->cnt[g->n][4] = nla_get_u32(tb[LST_A_NODE_COUNT]);
	}
	g->n++;
	return 0;
}

static int print_node(struct nlattr **tb, struct nlattr *head, int len,
		      void *arg)
{
	struct group_list *g = arg;
	unsigned int st = tb[LST_A_STATE] ? nla_get_u32(tb[LST_A_STATE]) : 0;

	(void)head;
	(void)len;
	if (!(st & g->filter))
		return 0;
	printf("\t12345-%s: %s\n", str_attr(tb, LST_A_NID), state_name(st));
	g->shown++;
	return 0;
}

/* The groups: their names and counts into @g. */
static int get_groups(struct group_list *g)
{
	struct nl_msg *msg = lst_msg(LST_CMD_GROUP_GET, true, false);
	struct lnl_error err;

	if (lnl_run(msg, parse_group, g, &err))
		return nl_fail("list_group", &err);
	return 0;
}

static int cmd_list_group(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "active", no_argument, NULL, 'a' },
		{ "busy", no_argument, NULL, 'b' },
		{ "down", no_argument, NULL, 'd' },
		{ "unknown", no_argument, NULL, 'u' },
		{ "all", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct group_list *g = calloc(1, sizeof(*g));
	unsigned int filter = 0;
	int c, i, rc = 0;

	if (!g)
		return -ENOMEM;
	while ((c = getopt_long(argc, argv, "abdul", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			filter |= LST_NODE_ACTIVE;
			break;
		case 'b':
			filter |= LST_NODE_BUSY;
			break;
		case 'd':
			filter |= LST_NODE_DOWN;
			break;
		case 'u':
			filter |= LST_NODE_UNKNOWN;
			break;
		case 'l':
			filter |= 0xf;
			break;
		default:
			die_usage();
		}
	}
	if (optind == argc) {
		rc = get_groups(g);
		for (i = 0; !rc && i < g->n; i++)
			printf("%d) %s\n", i + 1, g->names[i]);
		if (!rc)
			printf("Total %d groups\n", g->n);
		free(g);
		return rc;
	}
	if (!filter)
		printf("\tACTIVE\tBUSY\tDOWN\tUNKNOWN\tTOTAL\n");
	for (i = optind; !rc && i < argc; i++) {
		struct lnl_error err;
		struct nl_msg *msg;

		if (!filter) {
			int k;

			/* the counts come with the list of all groups */
			g->n = 0;
			rc = get_groups(g);
			for (k = 0; !rc && k < g->n; k++) {
				if (strcmp(g->names[k], argv[i]))
					continue;
				printf("\t%u\t%u\t%u\t%u\t%u\t%s\n",
				       g->cnt[k][0], g->cnt[k][1],
				       g->cnt[k][2], g->cnt[k][3],
				       g->cnt[k][4], argv[i]);
				break;
			}
			if (!rc && k == g->n) {
				fprintf(stderr, "No such group: %s\n", argv[i]);
				rc = -ENOENT;
			}
			continue;
		}
		/* a group named: its nodes, one message each */
		g->filter = filter;
		g->shown = 0;
		printf("Group [ %s ]\n", argv[i]);
		msg = lst_msg(LST_CMD_GROUP_GET, true, false);
		nla_put_string(msg, LST_A_GROUP, argv[i]);
		if (lnl_run(msg, print_node, g, &err))
			rc = nl_fail("list_group", &err);
		else
			printf("Total %d nodes [ %s ]\n", g->shown, argv[i]);
	}
	free(g);
	return rc;
}

/* --- batches and tests --- */

static int cmd_add_batch(int argc, char **argv)
{
	struct nl_msg *msg;
	struct lnl_error err;

	if (argc != 2)
		die_usage();
	msg = lst_msg(LST_CMD_BATCH_ADD, false, true);
	nla_put_string(msg, LST_A_BATCH, argv[1]);
	if (lnl_run(msg, NULL, NULL, &err))
		return nl_fail("add_batch", &err);
	return 0;
}

/* "1M", "4k", "4096": bytes; -1 when bad. */
static long parse_size(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (v < 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	return *end ? -1 : v;
}

/*
 * brw [read|r|write|w] [size=N] [check=none|simple|full|discard]
 * [skip_rx_copy] [off=N], as stock lst takes them: READ by default,
 * skip_rx_copy the same as check=discard (spec 5.1).
 */
static int put_brw_params(struct nl_msg *msg, int argc, char **argv)
{
	unsigned int opc = LST_BRW_OPC_READ, check = LST_BRW_CHK_NONE;
	long size = 4096, off = 0;
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "read") || !strcmp(a, "r"))
			opc = LST_BRW_OPC_READ;
		else if (!strcmp(a, "write") || !strcmp(a, "w"))
			opc = LST_BRW_OPC_WRITE;
		else if (!strncmp(a, "size=", 5))
			size = parse_size(a + 5);
		else if (!strncmp(a, "off=", 4))
			off = parse_size(a + 4);
		else if (!strcmp(a, "check=none"))
			check = LST_BRW_CHK_NONE;
		else if (!strcmp(a, "check=simple"))
			check = LST_BRW_CHK_SIMPLE;
		else if (!strcmp(a, "check=full"))
			check = LST_BRW_CHK_FULL;
		else if (!strcmp(a, "check=discard") ||
			 !strcmp(a, "skip_rx_copy"))
			check = LST_BRW_CHK_DISCARD;
		else
			return fprintf(stderr, "brw: unknown parameter %s\n", a),
			       -EINVAL;
	}
	if (size < 0 || size > UINT_MAX || off < 0 || off > UINT_MAX) {
		fprintf(stderr, "brw: bad size= or off=\n");
		return -EINVAL;
	}
	nla_put_u32(msg, LST_A_BRW_OPC, opc);
	nla_put_u32(msg, LST_A_BRW_SIZE, size);
	nla_put_u32(msg, LST_A_BRW_CHECK, check);
	nla_put_u32(msg, LST_A_BRW_OFF, off);
	return 0;
}

static int cmd_add_test(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "batch", required_argument, NULL, 'b' },
		{ "concurrency", required_argument, NULL, 'c' },
		{ "distribute", required_argument, NULL, 'd' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "loop", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	const char *batch = "batch", *from = NULL, *to = NULL;
	unsigned int concur = 1, dist = 1, span = 1;
	long loop = -1;
	struct results rs;
	struct nl_msg *msg;
	int c, rc, bad;

	while ((c = getopt_long(argc, argv, "+b:c:d:f:t:l:", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			batch = optarg;
			break;
		case 'c':
			concur = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			if (sscanf(optarg, "%u:%u", &dist, &span) != 2)
				die_usage();
			break;
		case 'f':
			from = optarg;
			break;
		case 't':
			to = optarg;
			break;
		case 'l':
			loop = strtol(optarg, NULL, 0);
			break;
		default:
			die_usage();
		}
	}
	if (!from || !to || optind >= argc)
		die_usage();
	msg = lst_msg(LST_CMD_TEST_ADD, true, true);
	nla_put_string(msg, LST_A_BATCH, batch);
	nla_put_string(msg, LST_A_FROM, from);
	nla_put_string(msg, LST_A_TO, to);
	nla_put_s32(msg, LST_A_LOOP, loop < -1 ? -1 : (int)loop);
	nla_put_u32(msg, LST_A_CONCUR, concur);
	nla_put_u32(msg, LST_A_DIST, dist);
	nla_put_u32(msg, LST_A_SPAN, span);
	if (!strcmp(argv[optind], "ping")) {
		nla_put_u32(msg, LST_A_TEST_TYPE, LST_TEST_PING);
	} else if (!strcmp(argv[optind], "brw")) {
		nla_put_u32(msg, LST_A_TEST_TYPE, LST_TEST_BRW);
		rc = put_brw_params(msg, argc - optind - 1, argv + optind + 1);
		if (rc) {
			nlmsg_free(msg);
			return rc;
		}
	} else {
		nlmsg_free(msg);
		die_usage();
	}
	rc = run_trans(msg, "add_test", &rs);
	if (rc)
		return rc;
	bad = print_trans_errors(&rs, "add test");
	free(rs.r);
	if (bad)
		return -EIO;
	printf("Test was added successfully\n");
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	const char *batch = argc > 1 ? argv[1] : "batch";
	struct results rs;
	struct nl_msg *msg;
	int rc;

	if (argc > 2)
		die_usage();
	msg = lst_msg(LST_CMD_BATCH_RUN, true, true);
	nla_put_string(msg, LST_A_BATCH, batch);
	rc = run_trans(msg, "run", &rs);
	if (rc)
		return rc;
	if (print_trans_errors(&rs, "run batch"))
		rc = -EIO;
	else
		printf("%s is running now\n", batch);
	free(rs.r);
	return rc;
}

/* BATCH_QUERY of @batch: how many nodes run, -errno. */
static int query(const char *batch, unsigned int test, bool server,
		 unsigned int timeout, struct results *rs)
{
	struct nl_msg *msg = lst_msg(LST_CMD_BATCH_QUERY, true, true);
	int i, rc, running = 0;

	nla_put_string(msg, LST_A_BATCH, batch);
	nla_put_u32(msg, LST_A_TEST_IDX, test);
	nla_put_u32(msg, LST_A_TIMEOUT, timeout);
	if (server)
		nla_put_flag(msg, LST_A_SERVER);
	rc = run_trans(msg, "query", rs);
	if (rc)
		return rc;
	for (i = 0; i < rs->n; i++)
		if (!rs->r[i].rpc_errno && !rs->r[i].fwk_errno &&
		    rs->r[i].active)
			running++;
	return running;
}

static int cmd_stop(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	const char *batch = "batch";
	bool force = false;
	struct results rs;
	struct nl_msg *msg;
	int c, rc, i;

	while ((c = getopt_long(argc, argv, "f", opts, NULL)) != -1) {
		if (c != 'f')
			die_usage();
		force = true;
	}
	if (optind < argc)
		batch = argv[optind];
	msg = lst_msg(LST_CMD_BATCH_STOP, true, true);
	nla_put_string(msg, LST_A_BATCH, batch);
	if (force)
		nla_put_flag(msg, LST_A_FORCE);
	rc = run_trans(msg, "stop", &rs);
	if (rc)
		return rc;
	rc = print_trans_errors(&rs, "stop batch") ? -EIO : 0;
	free(rs.r);
	/* as stock: query every second until nothing runs */
	for (i = 0; !rc; i++) {
		int running = query(batch, 0, false, 5, &rs);

		free(rs.r);
		if (running <= 0) {
			rc = running;
			break;
		}
		sleep(1);
	}
	if (!rc)
		printf("%s is stopped\n", batch);
	return rc;
}

static int cmd_query(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "test", required_argument, NULL, 't' },
		{ "server", no_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 'o' },
		{ "loop", required_argument, NULL, 'l' },
		{ "delay", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int test = 0, timeout = 5, loop = 1, delay = 5, l;
	const char *batch = "batch";
	bool server = false, all = false;
	struct results rs;
	int c, i;

	while ((c = getopt_long(argc, argv, "t:so:l:d:a", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			test = strtoul(optarg, NULL, 0);
			break;
		case 's':
			server = true;
			break;
		case 'o':
			timeout = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			loop = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			delay = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			all = true;
			break;
		default:
			die_usage();
		}
	}
	if (optind < argc)
		batch = argv[optind];
	for (l = 0; l < loop; l++) {
		int running = query(batch, test, server, timeout, &rs);
		int failed = 0;

		if (running < 0)
			return running;
		for (i = 0; i < rs.n; i++) {
			const struct result *r = &rs.r[i];
			bool bad = r->rpc_errno || r->fwk_errno;

			failed += bad;
			if (all)
				printf("\t12345-%s: %s\n", r->nid,
				       bad ? "Unknown" :
				       r->active ? "Running" : "Idle");
		}
		if (!running && !failed)
			printf("Batch is idle\n");
		else
			printf("%d of %d nodes are running, %d unknown\n",
			       running, rs.n, failed);
		free(rs.r);
		if (l + 1 < loop)
			sleep(delay);
	}
	return 0;
}

struct batch_list {
	int n;
};

static const char * const check_names[] = {
	"?", "none", "simple", "full", "discard", "?", "?", "?"
};

static int print_batch(struct nlattr **tb, struct nlattr *head, int len,
		       void *arg)
{
	struct batch_list *b = arg;

	(void)head;
	(void)len;
	if (tb[LST_A_TEST_IDX]) {
		unsigned int type = nla_get_u32(tb[LST_A_TEST_TYPE]);

		printf("Test %u (%s) (loop: %d, concurrency: %u)\n",
		       nla_get_u32(tb[LST_A_TEST_IDX]),
		       type == LST_TEST_BRW ? "brw" : "ping",
		       (int)nla_get_u32(tb[LST_A_LOOP]),
		       nla_get_u32(tb[LST_A_CONCUR]));
		printf("\tfrom: %s to: %s distribute: %u:%u\n",
		       str_attr(tb, LST_A_FROM), str_attr(tb, LST_A_TO),
		       nla_get_u32(tb[LST_A_DIST]), nla_get_u32(tb[LST_A_SPAN]));
		if (type == LST_TEST_BRW)
			printf("\tbrw %s size=%u off=%u check=%s\n",
			       nla_get_u32(tb[LST_A_BRW_OPC]) ==
			       LST_BRW_OPC_READ ? "read" : "write",
			       nla_get_u32(tb[LST_A_BRW_SIZE]),
			       nla_get_u32(tb[LST_A_BRW_OFF]),
			       check_names[nla_get_u32(tb[LST_A_BRW_CHECK]) & 7]);
		return 0;
	}
	printf("%d) %s (%u tests, %s)\n", ++b->n, str_attr(tb, LST_A_BATCH),
	       nla_get_u32(tb[LST_A_TEST_COUNT]),
	       nla_get_u32(tb[LST_A_ACTIVE]) ? "running" : "idle");
	return 0;
}

static int cmd_list_batch(int argc, char **argv)
{
	struct nl_msg *msg = lst_msg(LST_CMD_BATCH_GET, true, false);
	struct batch_list b = { 0 };
	struct lnl_error err;

	if (argc > 2)
		die_usage();
	if (argc == 2)
		nla_put_string(msg, LST_A_BATCH, argv[1]);
	if (lnl_run(msg, print_batch, &b, &err))
		return nl_fail("list_batch", &err);
	if (argc == 1)
		printf("Total %d batches\n", b.n);
	return 0;
}

/* --- ping, stat, show_error --- */

static int cmd_ping(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "group", required_argument, NULL, 'g' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "server", no_argument, NULL, 's' },
		{ "session", no_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	struct nl_msg *msg = lst_msg(LST_CMD_DEBUG, true, true);
	struct nidlist l = { 0 };
	struct results rs;
	int c, i, rc;

	while ((c = getopt_long(argc, argv, "g:n:b:sSt:", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			nla_put_string(msg, LST_A_GROUP, optarg);
			break;
		case 'b':
			nla_put_string(msg, LST_A_BATCH, optarg);
			break;
		case 's':
			nla_put_flag(msg, LST_A_SERVER);
			break;
		case 'S':		/* the default */
			break;
		case 't':
			nla_put_u32(msg, LST_A_TIMEOUT, strtoul(optarg, NULL, 0));
			break;
		case 'n':
			rc = nidlist_parse(&l, 1, &optarg);
			if (!rc)
				rc = put_nodes(msg, &l);
			free(l.nid);
			if (rc) {
				nlmsg_free(msg);
				return rc;
			}
			break;
		default:
			die_usage();
		}
	}
	rc = run_trans(msg, "ping", &rs);
	if (rc)
		return rc;
	for (i = 0; i < rs.n; i++) {
		const struct result *r = &rs.r[i];

		if (r->rpc_errno)
			printf("\t12345-%s: %s [RPC error: %s]\n", r->nid,
			       state_name(r->state), strerror(r->rpc_errno));
		else
			printf("\t12345-%s: %s [session: %s id: %s]\n",
			       r->nid, state_name(r->state),
			       r->name[0] ? r->name : "<NULL>", r->sid_nid);
	}
	free(rs.r);
	return 0;
}

/* STAT of a group or a NID list (@arg): its results. */
static int stat_query(const char *arg, unsigned int timeout,
		      struct results *rs)
{
	struct nl_msg *msg = lst_msg(LST_CMD_STAT, true, true);
	struct group_list *g;
	struct nidlist l = { 0 };
	bool group = false;
	int rc;

	/* a group if one has that name, else NIDs */
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	if (!get_groups(g)) {
		int i;

		for (i = 0; i < g->n; i++)
			group |= !strcmp(g->names[i], arg);
	}
	free(g);
	if (group) {
		nla_put_string(msg, LST_A_GROUP, arg);
	} else {
		rc = nidlist_parse(&l, 1, (char **)&arg);
		if (!rc)
			rc = put_nodes(msg, &l);
		free(l.nid);
		if (rc) {
			nlmsg_free(msg);
			return rc;
		}
	}
	nla_put_u32(msg, LST_A_TIMEOUT, timeout);
	return run_trans(msg, "stat", rs);
}

static const struct result *find_node(const struct results *rs,
				      const char *nid)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].nid, nid))
			return &rs->r[i];
	return NULL;
}

struct stat_opts {
	bool bw, rate, read, write, avg, min, max, mbs;
};

static void print_line(const char *rw, const double *v, int n,
		       const struct stat_opts *o, bool bw)
{
	double sum = 0, min = 0, max = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += v[i];
		if (!i || v[i] < min)
			min = v[i];
		if (!i || v[i] > max)
			max = v[i];
	}
	printf("[%s] ", rw);
	if (bw) {
		if (o->avg)
			printf("Avg: %-8.2f MiB/s  ", n ? sum / n : 0);
		if (o->min)
			printf("Min: %-8.2f MiB/s  ", min);
		if (o->max)
			printf("Max: %-8.2f MiB/s  ", max);
	} else {
		if (o->avg)
			printf("Avg: %-8.0f RPC/s  ", n ? sum / n : 0);
		if (o->min)
			printf("Min: %-8.0f RPC/s  ", min);
		if (o->max)
			printf("Max: %-8.0f RPC/s  ", max);
	}
	printf("\n");
}

/* One group's sample against the previous one (spec 7.6). */
static void stat_print(const char *name, const struct results *prev,
		       const struct results *cur, const struct stat_opts *o)
{
	double unit = o->mbs ? 1e6 : 1048576.0;
	double *v[4];
	int i, n = 0, failed = 0, k;

	for (k = 0; k < 4; k++)
		v[k] = calloc(cur->n + 1, sizeof(double));
	for (i = 0; i < cur->n; i++) {
		const struct result *c = &cur->r[i];
		const struct result *p = find_node(prev, c->nid);
		double secs;

		if (c->rpc_errno || c->fwk_errno || !p || p->rpc_errno ||
		    p->fwk_errno) {
			failed++;
			continue;
		}
		secs = (double)(uint32_t)(c->stat[LST_STAT_A_RUNNING_MS] -
					  p->stat[LST_STAT_A_RUNNING_MS]) / 1000;
		if (secs <= 0)
			continue;
		v[0][n] = (uint32_t)(c->stat[LST_STAT_A_RECV_COUNT] -
				     p->stat[LST_STAT_A_RECV_COUNT]) / secs;
		v[1][n] = (uint32_t)(c->stat[LST_STAT_A_SEND_COUNT] -
				     p->stat[LST_STAT_A_SEND_COUNT]) / secs;
		v[2][n] = (c->stat[LST_STAT_A_RECV_LENGTH] -
			   p->stat[LST_STAT_A_RECV_LENGTH]) / unit / secs;
		v[3][n] = (c->stat[LST_STAT_A_SEND_LENGTH] -
			   p->stat[LST_STAT_A_SEND_LENGTH]) / unit / secs;
		n++;
	}
	if (o->rate) {
		printf("[LNet Rates of %s]\n", name);
		if (o->read)
			print_line("R", v[0], n, o, false);
		if (o->write)
			print_line("W", v[1], n, o, false);
	}
	if (o->bw) {
		printf("[LNet Bandwidth of %s]\n", name);
		if (o->read)
			print_line("R", v[2], n, o, true);
		if (o->write)
			print_line("W", v[3], n, o, true);
	}
	if (failed)
		printf("Failed to stat on %d nodes\n", failed);
	for (k = 0; k < 4; k++)
		free(v[k]);
}

static int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bw", no_argument, NULL, 'b' },
		{ "rate", no_argument, NULL, 'r' },
		{ "read", no_argument, NULL, 'R' },
		{ "write", no_argument, NULL, 'W' },
		{ "avg", no_argument, NULL, 'a' },
		{ "min", no_argument, NULL, 'n' },
		{ "max", no_argument, NULL, 'x' },
		{ "mbs", no_argument, NULL, 'm' },
		{ "count", required_argument, NULL, 'c' },
		{ "delay", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int count = 0, delay = 5, timeout = 5, sample;
	struct stat_opts o = { 0 };
	struct results *prev, *cur;
	int c, i, ngrp, rc = 0;

	while ((c = getopt_long(argc, argv, "brRWanxmc:d:t:", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o.bw = true;
			break;
		case 'r':
			o.rate = true;
			break;
		case 'R':
			o.read = true;
			break;
		case 'W':
			o.write = true;
			break;
		case 'a':
			o.avg = true;
			break;
		case 'n':
			o.min = true;
			break;
		case 'x':
			o.max = true;
			break;
		case 'm':
			o.mbs = true;
			break;
		case 'c':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			delay = strtoul(optarg, NULL, 0);
			break;
		case 't':
			timeout = strtoul(optarg, NULL, 0);
			break;
		default:
			die_usage();
		}
	}
	if (optind == argc)
		die_usage();
	if (!o.bw && !o.rate) {
		o.bw = true;
		o.rate = true;
	}
	if (!o.read && !o.write) {
		o.read = true;
		o.write = true;
	}
	if (!o.avg && !o.min && !o.max) {
		o.avg = true;
		o.min = true;
		o.max = true;
	}
	if (!delay)
		delay = 1;
	ngrp = argc - optind;
	prev = calloc(ngrp, sizeof(*prev));
	cur = calloc(ngrp, sizeof(*cur));
	if (!prev || !cur)
		return -ENOMEM;
	/* the first sample prints nothing; --count N prints N */
	for (sample = 0; !rc && (!count || sample <= count); sample++) {
		for (i = 0; i < ngrp && !rc; i++) {
			rc = stat_query(argv[optind + i], timeout, &cur[i]);
			if (rc)
				break;
			if (sample)
				stat_print(argv[optind + i], &prev[i], &cur[i],
					   &o);
			free(prev[i].r);
			prev[i] = cur[i];
			memset(&cur[i], 0, sizeof(cur[i]));
		}
		if (!rc && (!count || sample < count))
			sleep(delay);
	}
	for (i = 0; i < ngrp; i++)
		free(prev[i].r);
	free(prev);
	free(cur);
	return rc;
}

static int cmd_show_error(int argc, char **argv)
{
	int i, k, rc = 0;

	if (argc > 1 && !strcmp(argv[1], "--session"))
		argc--, argv++;
	if (argc < 2)
		die_usage();
	for (i = 1; i < argc && !rc; i++) {
		struct results rs;
		int bad = 0;

		rc = stat_query(argv[i], 10, &rs);
		if (rc)
			break;
		printf("%s:\n", argv[i]);
		for (k = 0; k < rs.n; k++) {
			const struct result *r = &rs.r[k];
			const unsigned long long *s = r->stat;

			if (r->rpc_errno || r->fwk_errno) {
				fprintf(stderr, "12345-%s: RPC failure, can't show error on it\n",
					r->nid);
				bad++;
				continue;
			}
			if (!s[LST_STAT_A_BRW_ERRORS] &&
			    !s[LST_STAT_A_PING_ERRORS] &&
			    !s[LST_STAT_A_RPC_ERRORS] &&
			    !s[LST_STAT_A_RPCS_DROPPED] &&
			    !s[LST_STAT_A_RPCS_EXPIRED])
				continue;
			fprintf(stderr,
				"12345-%s: [Session %llu brw errors, %llu ping errors] [RPC: %llu errors, %llu dropped, %llu expired]\n",
				r->nid, s[LST_STAT_A_BRW_ERRORS],
				s[LST_STAT_A_PING_ERRORS],
				s[LST_STAT_A_RPC_ERRORS],
				s[LST_STAT_A_RPCS_DROPPED],
				s[LST_STAT_A_RPCS_EXPIRED]);
			bad++;
		}
		printf("Total %d error nodes in %s\n", bad, argv[i]);
		free(rs.r);
	}
	return rc;
}

static int cmd_help(int argc, char **argv);
static int cmd_list_commands(int argc, char **argv);

/* Stock lst's commands and its usage texts, in its order. */
static const struct lst_cmd lst_cmds[] = {
	{ "new_session", cmd_new_session, true, true,
	  "new_session [--timeout TIME] [--force] [NAME]" },
	{ "end_session", cmd_end_session, true, true, "end_session" },
	{ "show_session", cmd_show_session, false, true, "show_session" },
	{ "ping", cmd_ping, true, true,
	  "ping [--group G | --nodes NIDS | --batch B [--server]\n"
	  "\t| --session] [--timeout T]" },
	{ "add_group", cmd_add_group, true, true,
	  "add_group NAME NID [NID...]" },
	{ "del_group", cmd_del_group, true, true, "del_group NAME" },
	{ "update_group", cmd_update_group, true, true,
	  "update_group NAME [--refresh]\n"
	  "\t[--clean busy|down|unknown|invalid] [--remove NIDS]" },
	{ "list_group", cmd_list_group, false, true,
	  "list_group [--active] [--busy] [--down]\n"
	  "\t[--unknown] [--all] [NAME...]" },
	{ "stat", cmd_stat, true, true,
	  "stat [--bw] [--rate] [--read] [--write] [--avg]\n"
	  "\t[--min] [--max] [--mbs] [--count N] [--delay D]\n"
	  "\t[--timeout T] GROUP|NIDS..." },
	{ "show_error", cmd_show_error, true, true,
	  "show_error [--session] GROUP|NIDS..." },
	{ "add_batch", cmd_add_batch, true, true, "add_batch NAME" },
	{ "run", cmd_run, true, true, "run [BATCH]" },
	{ "stop", cmd_stop, true, true, "stop [--force] [BATCH]" },
	{ "list_batch", cmd_list_batch, false, true, "list_batch [BATCH]" },
	{ "query", cmd_query, true, true,
	  "query [--test N] [--server] [--timeout T]\n"
	  "\t[--loop N] [--delay D] [--all] [BATCH]" },
	{ "add_test", cmd_add_test, true, true,
	  "add_test [--batch BATCH] [--concurrency N]\n"
	  "\t[--distribute D:S] [--loop N] --from GROUP --to GROUP\n"
	  "\tbrw [read|write] [size=N] [check=none|simple|full|discard]\n"
	  "\t    [skip_rx_copy] [off=N] | ping" },
	{ "help", cmd_help, false, false, "help [COMMAND]" },
	{ "--list-commands", cmd_list_commands, false, false,
	  "--list-commands" },
};

static const struct lst_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lst_cmds); i++)
		if (!strcmp(name, lst_cmds[i].name))
			return &lst_cmds[i];
	return NULL;
}

/* "lst help": the commands; "lst help NAME": its usage (stock's Parser_help). */
static int cmd_help(int argc, char **argv)
{
	const struct lst_cmd *c;
	size_t i;

	if (argc > 2)
		die_usage();
	if (argc == 2) {
		c = find_cmd(argv[1]);
		if (!c) {
			fprintf(stderr, "lst: no command %s; 'lst help' lists them\n",
				argv[1]);
			return -EINVAL;
		}
		printf("Usage: lst %s\n", c->usage);
		return 0;
	}
	printf("usage: lst [COMMAND] [OPTIONS]... [ARGS]\n"
	       "\nAvailable commands are:\n");
	for (i = 0; i < ARRAY_SIZE(lst_cmds); i++)
		printf("\t%s\n", lst_cmds[i].name);
	printf("\nFor more help type: help command-name\n");
	return 0;
}

/* "lst --list-commands": the names in four columns of 20, as stock. */
static int cmd_list_commands(int argc, char **argv)
{
	size_t i;

	(void)argv;
	if (argc > 1)
		die_usage();
	for (i = 0; i < ARRAY_SIZE(lst_cmds); i++)
		printf("%-20s%s", lst_cmds[i].name,
		       i % 4 == 3 || i + 1 == ARRAY_SIZE(lst_cmds) ? "\n" : "");
	return 0;
}

/* One command, argv[0] its name: exit status 0 or 1. */
static int lst_run(int argc, char **argv)
{
	const char *env = getenv("LST_SESSION");
	struct lnl_error err;
	int rc;

	lst_cur = find_cmd(argv[0]);
	if (!lst_cur) {
		fprintf(stderr, "lst: unknown command %s; 'lst help' lists them\n",
			argv[0]);
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("Usage: lst %s\n", lst_cur->usage);
		return 0;
	}
	if (!lst_cur->nl)
		return lst_cur->fn(argc, argv) ? 1 : 0;
	if (lst_cur->key) {
		if (!env) {
			fprintf(stderr, "LST_SESSION is not set in environment\n");
			return 1;
		}
		lst_key = strtoul(env, NULL, 0);
	}
	if (lnl_open_family(LST_GENL_NAME, "lnet_selftest.ko", LST_A_MAX,
			    &err)) {
		fprintf(stderr, "lst: %s\n", err.msg);
		return 1;
	}
	/* room for a request of LST_MAX_NODES NIDs */
	nlmsg_set_default_size(128 * 1024);
	optind = 0;		/* getopt anew: the shell runs many commands */
	rc = lst_cur->fn(argc, argv);
	lnl_close();
	return rc ? 1 : 0;
}

#define LST_SHELL_WORDS	256

/*
 * "lst" alone: stock's prompt "lst > " on a terminal, commands read from
 * stdin otherwise; "quit", "exit" or end of file end it.  Each command
 * runs in a child (its usage error exits), so one failing ends nothing;
 * the status is 1 if any failed.
 */
static int lst_shell(void)
{
	bool tty = isatty(STDIN_FILENO);
	char *words[LST_SHELL_WORDS + 1];
	size_t cap = 0;
	char *line = NULL;
	int rc = 0;

	for (;;) {
		int n = 0, status;
		char *w, *save;
		pid_t pid;

		if (tty) {
			fputs("lst > ", stdout);
			fflush(stdout);
		}
		if (getline(&line, &cap, stdin) < 0)
			break;
		for (w = strtok_r(line, " \t\n", &save); w && n < LST_SHELL_WORDS;
		     w = strtok_r(NULL, " \t\n", &save))
			words[n++] = w;
		words[n] = NULL;
		if (!n)
			continue;
		if (!strcmp(words[0], "quit") || !strcmp(words[0], "exit"))
			break;
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("lst: fork");
			rc = 1;
			break;
		}
		if (!pid)
			exit(lst_run(n, words));
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			rc = 1;
	}
	if (tty && feof(stdin))
		putchar('\n');
	free(line);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return lst_shell();
	return lst_run(argc - 1, argv + 1);
}
