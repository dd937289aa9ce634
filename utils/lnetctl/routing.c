// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl set routing 0|1, set tiny_buffers|small_buffers|large_buffers
 * N, and routing show (spec: lnet-routing.md 10.4):
 *
 *	routing:
 *	    - cpt[0]:
 *	          tiny:
 *	              npages: 0
 *	              nbuffers: 2048
 *	              credits: 2048
 *	              mincredits: 2040
 *	          small: ...
 *	          large: ...
 *	    - enable: 1
 *	buffers:
 *	    tiny: 2048
 *	    small: 16384
 *	    large: 1024
 *
 * This stack has one CPT.  On a node that never enabled routing there
 * are no pools, and, as stock, nothing is printed.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "lnetctl.h"

static const char *const pool_names[] = { "tiny", "small", "large" };
static const int pool_attrs[] = {
	LNET_A_RTR_TINY, LNET_A_RTR_SMALL, LNET_A_RTR_LARGE,
};

static int routing_cb(struct nlattr **tb, struct nlattr *head, int len,
		      void *arg)
{
	struct routing_rec *r = arg;
	struct nlattr *a;
	int rem;

	if (!tb[LNET_A_ROUTING_STATE])
		return -EPROTO;
	r->state = nla_get_u32(tb[LNET_A_ROUTING_STATE]);
	nla_for_each_attr(a, head, len, rem) {
		if (nla_type(a) != LNET_A_RTR_POOL)
			continue;
		if (r->npools == ARRAY_SIZE(r->pool) ||
		    lnl_nest_u32s(a, LNET_RTRPOOL_A_MAX, r->pool[r->npools]))
			return -EPROTO;
		r->npools++;
	}
	return 0;
}

/**
 * do_routing_get() - the routing state and the pools' figures
 * @r: out
 * @err: the kernel's refusal
 *
 * Return: 0 or -errno.
 */
int do_routing_get(struct routing_rec *r, struct lnl_error *err)
{
	memset(r, 0, sizeof(*r));
	return lnl_run(lnl_msg(LNET_CMD_ROUTING_GET, false), routing_cb, r,
		       err);
}

/**
 * emit_routing() - the "routing:" and "buffers:" blocks
 * @y: in a map being emitted
 * @r: from do_routing_get(), with pools
 * @backup: export --backup's shape: "routing: enable: N" and the totals
 */
void emit_routing(struct yout *y, const struct routing_rec *r, bool backup)
{
	unsigned int i;

	yout_str(y, "routing");
	if (backup) {
		yout_map(y);
		yout_kv_int(y, "enable", r->state);
		yout_end_map(y);
	} else {
		yout_seq(y);
		yout_map(y);
		yout_str(y, "cpt[0]");
		yout_map(y);
		for (i = 0; i < r->npools; i++) {
			const unsigned int *p = r->pool[i];

			yout_str(y, pool_names[i]);
			yout_map(y);
			yout_kv_int(y, "npages", p[LNET_RTRPOOL_A_NPAGES]);
			yout_kv_int(y, "nbuffers",
				    (int)p[LNET_RTRPOOL_A_NBUFFERS]);
			yout_kv_int(y, "credits",
				    (int)p[LNET_RTRPOOL_A_CREDITS]);
			yout_kv_int(y, "mincredits",
				    (int)p[LNET_RTRPOOL_A_MINCREDITS]);
			yout_end_map(y);
		}
		yout_end_map(y);
		yout_end_map(y);
		yout_map(y);
		yout_kv_int(y, "enable", r->state);
		yout_end_map(y);
		yout_end_seq(y);
	}
	yout_str(y, "buffers");
	yout_map(y);
	for (i = 0; i < r->npools; i++)
		yout_kv_int(y, pool_names[i],
			    (int)r->pool[i][LNET_RTRPOOL_A_NBUFFERS]);
	yout_end_map(y);
}

/* "routing show" */
int cmd_routing(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";
	struct lnl_error err;
	struct routing_rec r;
	struct yout y;

	if (strcmp(sub, "show"))
		return usage_error("routing", "routing",
				   "unknown subcommand '%s': use show", sub);
	if (argc > 2)
		return usage_error("show", "routing",
				   "unexpected argument '%s'", argv[2]);
	if (open_or_report("show", "routing"))
		return 1;
	if (do_routing_get(&r, &err) < 0) {
		report_nl_error("show", "routing", "cannot get routing", &err);
		return 1;
	}
	if (!r.npools)
		return 0;
	yout_begin(&y, stdout);
	yout_map(&y);
	emit_routing(&y, &r, false);
	yout_end_map(&y);
	return yout_end(&y) ? 1 : 0;
}

/**
 * do_routing_set() - forwarding on or off
 * @enable: 1 or 0
 * @err: the kernel's refusal
 *
 * Return: 0 or -errno.
 */
int do_routing_set(int enable, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_ROUTING_SET, false);

	if (msg && nla_put_u8(msg, LNET_A_ROUTING_ENABLE, enable)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

/**
 * do_buffers_set() - router buffer totals
 * @totals: tiny, small, large; -1 leaves one as it is, 0 is the default
 * @err: the kernel's refusal
 *
 * Return: 0 or -errno.
 */
int do_buffers_set(const long long *totals, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_BUFFERS_SET, false);
	unsigned int i;

	for (i = 0; msg && i < ARRAY_SIZE(pool_attrs); i++) {
		if (totals[i] < 0)
			continue;
		if (nla_put_s32(msg, pool_attrs[i], (int)totals[i])) {
			nlmsg_free(msg);
			msg = NULL;
		}
	}
	return lnl_run(msg, NULL, NULL, err);
}

/* Which pool "set @name" names: 0..2, or -1 if it is none. */
static int buffers_param(const char *name)
{
	static const char *const names[] = {
		"tiny_buffers", "small_buffers", "large_buffers",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/**
 * is_routing_param() - is "set @name" one of routing's?
 * @name: the parameter
 *
 * Return: true for routing and the three buffer counts.
 */
bool is_routing_param(const char *name)
{
	return !strcmp(name, "routing") || buffers_param(name) >= 0;
}

/**
 * set_routing_param() - "set routing 0|1" or "set <pool>_buffers N"
 * @name: the parameter (is_routing_param())
 * @str: its value as given
 *
 * As stock's lnetctl: routing takes 0 or 1 only; a buffer count below
 * -1 is refused, -1 changes nothing, 0 is the default.
 *
 * Return: the exit code.
 */
int set_routing_param(const char *name, const char *str)
{
	long long totals[3] = { -1, -1, -1 };
	int pool = buffers_param(name);
	struct lnl_error err;
	long long value;
	int rc;

	if (pool < 0) {
		if (parse_long(str, 0, 1, &value) < 0) {
			report_error("set", name, EINVAL,
				     "invalid routing value '%s': must be 0 or 1",
				     str);
			return 1;
		}
	} else if (parse_long(str, -1, INT_MAX, &value) < 0) {
		report_error("set", name, EINVAL,
			     "invalid %s value '%s': must be an integer in -1..%d",
			     name, str, INT_MAX);
		return 1;
	}
	if (pool >= 0 && value == -1)
		return 0;
	if (open_or_report("set", name))
		return 1;
	if (pool < 0) {
		rc = do_routing_set((int)value, &err);
	} else {
		totals[pool] = value;
		rc = do_buffers_set(totals, &err);
	}
	if (rc < 0) {
		char prefix[96];

		snprintf(prefix, sizeof(prefix), "cannot set %s to %lld",
			 name, value);
		report_nl_error("set", name, prefix, &err);
		return 1;
	}
	return 0;
}
