// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl: the generic netlink client.  One socket, extended acks on, and
 * a request/reply loop that hands every reply message to a parser and
 * keeps the kernel's extack message for the error report.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "lnetctl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static struct nl_sock *lnl_sock;
static int lnl_family;
static int lnl_maxattr;		/* of the family's top-level attributes */

/* Room for the top-level attributes of any family we speak. */
#define LNL_MAXATTR_CAP	64

static void lnl_error_clear(struct lnl_error *err)
{
	err->errnum = 0;
	err->msg[0] = '\0';
	err->bad_attr = -1;
	err->miss_type = -1;
}

/**
 * lnl_open() - connect to the "lnet" generic netlink family.
 * @err: filled when it fails.
 *
 * Return: 0, or -errno.
 */
int lnl_open(struct lnl_error *err)
{
	return lnl_open_family(LNET_GENL_NAME, "lnet.ko", LNET_A_MAX, err);
}

/*
 * Is @module loaded while this process is in a network namespace other
 * than init's (PID 1's)?  The modules hold one LNet instance, not one per
 * namespace.  The lnet and lnet_selftest families are found everywhere
 * and refuse such a request themselves; a family that exists in the
 * initial namespace only (nidmap's, or older modules') is not found
 * there: said so rather than "is it loaded?".
 */
static bool lnl_other_netns(const char *module)
{
	char path[96];
	struct stat self, init;
	size_t len = strcspn(module, ".");

	snprintf(path, sizeof(path), "/sys/module/%.*s", (int)len, module);
	if (access(path, F_OK))
		return false;
	if (stat("/proc/self/ns/net", &self) || stat("/proc/1/ns/net", &init))
		return false;
	return self.st_ino != init.st_ino || self.st_dev != init.st_dev;
}

/**
 * lnl_open_family() - connect to a generic netlink family.
 * @name: the family.
 * @module: the kernel module that registers it, for the error message.
 * @maxattr: its highest top-level attribute (< 64).
 * @err: filled when it fails.
 *
 * Return: 0, or -errno.
 */
int lnl_open_family(const char *name, const char *module, int maxattr,
		    struct lnl_error *err)
{
	int one = 1;
	int rc;

	lnl_error_clear(err);
	lnl_sock = nl_socket_alloc();
	if (!lnl_sock) {
		err->errnum = ENOMEM;
		return -ENOMEM;
	}
	rc = genl_connect(lnl_sock);
	if (rc < 0) {
		err->errnum = EIO;
		snprintf(err->msg, sizeof(err->msg), "%s", nl_geterror(rc));
		goto fail;
	}
	setsockopt(nl_socket_get_fd(lnl_sock), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(lnl_sock), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	lnl_maxattr = maxattr < LNL_MAXATTR_CAP ? maxattr : LNL_MAXATTR_CAP - 1;
	lnl_family = genl_ctrl_resolve(lnl_sock, name);
	if (lnl_family < 0 && lnl_other_netns(module)) {
		err->errnum = EOPNOTSUPP;
		snprintf(err->msg, sizeof(err->msg),
			 "LNet runs only in the initial network namespace: this process is in another one (%s is loaded there)",
			 module);
		goto fail;
	}
	if (lnl_family < 0) {
		err->errnum = ENOENT;
		snprintf(err->msg, sizeof(err->msg),
			 "no \"%s\" netlink family: is %s loaded?", name,
			 module);
		goto fail;
	}
	return 0;
fail:
	nl_socket_free(lnl_sock);
	lnl_sock = NULL;
	return -err->errnum;
}

void lnl_close(void)
{
	if (lnl_sock)
		nl_socket_free(lnl_sock);
	lnl_sock = NULL;
}

/**
 * lnl_msg() - a new request of the family lnl_open*() connected to.
 * @cmd: its command (LNET_CMD_*, LST_CMD_*).
 * @dump: ask for a dump.
 *
 * Return: the message, or NULL when out of memory.
 */
struct nl_msg *lnl_msg(int cmd, bool dump)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, lnl_family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, LNET_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct lnl_ctx {
	lnl_parse_fn parse;
	void *arg;
	struct lnl_error *err;
	bool done;
	int parse_rc;
};

/* The extack TLVs that follow an error (or a dump's DONE) payload. */
static void lnl_extack(struct nlmsghdr *nlh, size_t off,
		       struct lnl_error *err)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlattr *tlvs;
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + off)
		return;
	tlvs = (struct nlattr *)((char *)nlmsg_data(nlh) + NLMSG_ALIGN(off));
	len = nlh->nlmsg_len - NLMSG_HDRLEN - NLMSG_ALIGN(off);
	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, tlvs, len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(err->msg, sizeof(err->msg), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		err->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
	if (tb[NLMSGERR_ATTR_OFFS]) {
		/* the offset points into our request: read the type there */
		struct nlmsgerr *e = nlmsg_data(nlh);
		unsigned int offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);

		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    offs + sizeof(struct nlattr) <= e->msg.nlmsg_len) {
			struct nlattr *a = (struct nlattr *)((char *)&e->msg +
							     offs);

			err->bad_attr = a->nla_type & NLA_TYPE_MASK;
		}
	}
}

static int lnl_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct lnl_ctx *ctx = arg;
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	size_t off = sizeof(*e);

	(void)nla;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	ctx->err->errnum = -e->error;
	lnl_extack(nlh, off, ctx->err);
	ctx->done = true;
	return NL_STOP;
}

static int lnl_ack_cb(struct nl_msg *msg, void *arg)
{
	struct lnl_ctx *ctx = arg;

	(void)msg;
	ctx->done = true;
	return NL_STOP;
}

static int lnl_finish_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct lnl_ctx *ctx = arg;
	int *error = nlmsg_data(nlh);

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int) && *error < 0) {
		ctx->err->errnum = -*error;
		lnl_extack(nlh, sizeof(int), ctx->err);
	}
	ctx->done = true;
	return NL_STOP;
}

static int lnl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[LNL_MAXATTR_CAP];
	struct lnl_ctx *ctx = arg;

	if (ctx->parse_rc)
		return NL_OK;
	if (genlmsg_parse(nlh, 0, tb, lnl_maxattr, NULL) < 0) {
		ctx->parse_rc = -EPROTO;
		return NL_OK;
	}
	if (ctx->parse)
		ctx->parse_rc = ctx->parse(tb, genlmsg_attrdata(nlmsg_data(nlh),
								 0),
					   genlmsg_attrlen(nlmsg_data(nlh), 0),
					   ctx->arg);
	return NL_OK;
}

/**
 * lnl_run() - send a request and read its replies.
 * @msg: the request, wiped and freed here.
 * @parse: called with the attributes of each reply message, or NULL.
 * @arg: passed to @parse.
 * @err: the kernel's verdict.
 *
 * Return: 0, or -errno (from the kernel, or from @parse).
 */
int lnl_run(struct nl_msg *msg, lnl_parse_fn parse, void *arg,
	    struct lnl_error *err)
{
	struct lnl_ctx ctx = { .parse = parse, .arg = arg, .err = err };
	struct nl_cb *cb;
	int rc;

	lnl_error_clear(err);
	if (!msg) {
		err->errnum = ENOMEM;
		return -ENOMEM;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		err->errnum = ENOMEM;
		return -ENOMEM;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, lnl_err_cb, &ctx);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, lnl_ack_cb, &ctx);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, lnl_finish_cb, &ctx);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, lnl_valid_cb, &ctx);

	rc = nl_send_auto(lnl_sock, msg);
	/* A request may hold a secret (nidmap key add): never left behind. */
	explicit_bzero(nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
	if (rc < 0) {
		err->errnum = EIO;
		snprintf(err->msg, sizeof(err->msg), "send: %s",
			 nl_geterror(rc));
		goto out;
	}
	while (!ctx.done) {
		rc = nl_recvmsgs(lnl_sock, cb);
		if (rc < 0 && !ctx.done) {
			err->errnum = EIO;
			snprintf(err->msg, sizeof(err->msg), "receive: %s",
				 nl_geterror(rc));
			break;
		}
	}
out:
	nl_cb_put(cb);
	if (!err->errnum && ctx.parse_rc) {
		err->errnum = -ctx.parse_rc;
		snprintf(err->msg, sizeof(err->msg),
			 "cannot parse the kernel's reply");
	}
	return -err->errnum;
}

/* Parse a nest of the reply without a policy. */
int lnl_nest_parse(struct nlattr **tb, int max, struct nlattr *nest)
{
	return nla_parse_nested(tb, max, nest, NULL);
}

/*
 * An LNET_A_LATENCY nest into @out[LNET_LAT_A_*]: counts are u32,
 * nanoseconds u64.  Return: 0 or -EPROTO.
 */
int lnl_nest_latency(struct nlattr *nest, unsigned long long *out)
{
	struct nlattr *nt[LNET_LAT_A_MAX + 1];
	int i;

	if (lnl_nest_parse(nt, LNET_LAT_A_MAX, nest))
		return -EPROTO;
	for (i = LNET_LAT_A_PUT_EGRESS_SAMPLES; i <= LNET_LAT_A_MAX; i++) {
		bool count = (i - LNET_LAT_A_PUT_EGRESS_SAMPLES) % 4 == 0;

		if (!nt[i])
			continue;
		if (nla_len(nt[i]) != (count ? 4 : 8))
			return -EPROTO;
		out[i] = count ? nla_get_u32(nt[i]) : nla_get_u64(nt[i]);
	}
	return 0;
}

int lnl_nest_u32s(struct nlattr *nest, int max, unsigned int *out)
{
	struct nlattr *nt[LNET_A_MAX + 1];
	int i;

	if (max > LNET_A_MAX || lnl_nest_parse(nt, max, nest))
		return -EPROTO;
	for (i = 1; i <= max; i++)
		if (nt[i])
			out[i] = nla_get_u32(nt[i]);
	return 0;
}
