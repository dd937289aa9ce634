// SPDX-License-Identifier: GPL-2.0
/*
 * lst_nl_bad: send the "lnet_selftest" generic netlink family requests
 * it must refuse and check that each is refused with an extended-ack
 * message (tests/vm/lst.sh runs it with a session made, key $KEY, and
 * then checks that the session and its groups did not change).
 *
 *	lst_nl_bad KEY		every bad request; exit 1 if one got through
 *				or came back without a message
 *	lst_nl_bad --eperm	requests to run without CAP_NET_ADMIN: each
 *				must fail with EPERM and a message
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "../lnetctl/lnetctl.h"
#include <uapi/lnet/lnet_selftest_genl.h>

static int failures;
static unsigned int key;

/* Send @msg and check it is refused with @want (0: any errno). */
static void expect_reject(const char *name, struct nl_msg *msg, int want)
{
	struct lnl_error err;

	lnl_run(msg, NULL, NULL, &err);
	if (!err.errnum) {
		printf("FAIL %s: accepted\n", name);
		failures++;
	} else if (want && err.errnum != want) {
		printf("FAIL %s: errno %d (%s), want %d: %s\n", name,
		       err.errnum, strerror(err.errnum), want, err.msg);
		failures++;
	} else if (!err.msg[0]) {
		printf("FAIL %s: errno %d without an extack message\n", name,
		       err.errnum);
		failures++;
	} else {
		printf("ok %s: errno %d: %s\n", name, err.errnum, err.msg);
	}
}

/* A request with the session key (@with_key) of @cmd. */
static struct nl_msg *req(int cmd, bool dump, bool with_key)
{
	struct nl_msg *msg = lnl_msg(cmd, dump);

	if (with_key)
		nla_put_u32(msg, LST_A_KEY, key);
	return msg;
}

static struct nl_msg *group_add(const char *group, int nnodes,
				const char *nid)
{
	struct nl_msg *msg = req(LST_CMD_GROUP_ADD, true, true);
	struct nlattr *nest;
	int i;

	if (group)
		nla_put_string(msg, LST_A_GROUP, group);
	if (nnodes < 0)
		return msg;
	nest = nla_nest_start(msg, LST_A_NODES);
	for (i = 0; i < nnodes; i++)
		nla_put_string(msg, LST_A_NID, nid);
	nla_nest_end(msg, nest);
	return msg;
}

/* TEST_ADD of a ping test a -> a, with one attribute of @type = @v. */
static struct nl_msg *test_add(int type, unsigned int v)
{
	struct nl_msg *msg = req(LST_CMD_TEST_ADD, true, true);

	nla_put_string(msg, LST_A_BATCH, "batch");
	nla_put_string(msg, LST_A_FROM, "nosuch");
	nla_put_string(msg, LST_A_TO, "nosuch");
	if (type != LST_A_TEST_TYPE)
		nla_put_u32(msg, LST_A_TEST_TYPE, LST_TEST_BRW);
	nla_put_u32(msg, type, v);
	return msg;
}

static void bad_requests(void)
{
	char long_name[64];
	struct nl_msg *msg;

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';

	/* sessions (one exists: each is refused before EEXIST) */
	msg = req(LST_CMD_SESSION_NEW, false, false);
	nla_put_string(msg, LST_A_NAME, "s");
	expect_reject("session_new without a key", msg, EINVAL);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	expect_reject("session_new without a name", msg, EINVAL);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, "");
	expect_reject("session_new with an empty name", msg, EINVAL);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, long_name);
	expect_reject("session_new with a 63-byte name", msg, 0);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, "s");
	nla_put_u32(msg, LST_A_TIMEOUT, 0);
	expect_reject("session_new with timeout 0", msg, 0);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, "s");
	nla_put_u8(msg, LST_A_TIMEOUT, 5);
	expect_reject("session_new with a u8 timeout", msg, 0);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, "s");
	nla_put_u32(msg, LST_A_MAX + 1, 1);
	expect_reject("session_new with an unknown attribute", msg, 0);
	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, "s");
	expect_reject("session_new over a session", msg, EEXIST);
	msg = lnl_msg(LST_CMD_SESSION_END, false);
	nla_put_u32(msg, LST_A_KEY, key + 1);
	expect_reject("session_end with another key", msg, EACCES);

	/* groups */
	msg = lnl_msg(LST_CMD_GROUP_ADD, true);
	nla_put_string(msg, LST_A_GROUP, "g");
	expect_reject("group_add without a key", msg, EACCES);
	expect_reject("group_add without a group",
		      group_add(NULL, 1, "192.0.2.1@tcp"), EINVAL);
	expect_reject("group_add without nodes", group_add("g", -1, NULL),
		      EINVAL);
	expect_reject("group_add with an empty node list",
		      group_add("g", 0, NULL), EINVAL);
	expect_reject("group_add with a bad NID", group_add("g", 1, "foo"),
		      EINVAL);
	expect_reject("group_add with a wildcard", group_add("g", 1, "<?>"),
		      EINVAL);
	expect_reject("group_add with an IPv6 NID",
		      group_add("g", 1, "2001:db8::1@tcp"), EINVAL);
	expect_reject("group_add with 1025 nodes",
		      group_add("g", LST_GENL_REQ_NODES_MAX + 1,
				"192.0.2.1@tcp"), EINVAL);
	expect_reject("group_add with a long name",
		      group_add(long_name, 1, "192.0.2.1@tcp"), 0);
	msg = group_add("g", -1, NULL);
	{
		struct nlattr *nest = nla_nest_start(msg, LST_A_NODES);

		nla_put_u32(msg, LST_A_KEY, 1);
		nla_nest_end(msg, nest);
	}
	expect_reject("group_add with a u32 in the node list", msg, 0);
	msg = req(LST_CMD_GROUP_UPDATE, true, true);
	nla_put_string(msg, LST_A_GROUP, "nosuch");
	nla_put_u32(msg, LST_A_UPDATE_OPC, LST_GROUP_REFRESH);
	expect_reject("update_group of no group", msg, ENOENT);
	msg = req(LST_CMD_GROUP_UPDATE, true, true);
	nla_put_string(msg, LST_A_GROUP, "nosuch");
	nla_put_u32(msg, LST_A_UPDATE_OPC, 4);
	expect_reject("update_group with opcode 4", msg, 0);
	msg = req(LST_CMD_GROUP_DEL, true, true);
	nla_put_string(msg, LST_A_GROUP, "nosuch");
	expect_reject("del_group of no group", msg, ENOENT);

	/* batches and tests */
	msg = req(LST_CMD_BATCH_ADD, false, true);
	nla_put_string(msg, LST_A_BATCH, "batch");
	expect_reject("add_batch of the default batch", msg, EEXIST);
	msg = req(LST_CMD_BATCH_ADD, false, true);
	nla_put_string(msg, LST_A_BATCH, long_name);
	expect_reject("add_batch with a long name", msg, 0);
	expect_reject("add_test of type 3", test_add(LST_A_TEST_TYPE, 3), 0);
	expect_reject("add_test of concurrency 0", test_add(LST_A_CONCUR, 0),
		      0);
	expect_reject("add_test of concurrency 1025",
		      test_add(LST_A_CONCUR, 1025), 0);
	expect_reject("add_test of span 342", test_add(LST_A_SPAN, 342), 0);
	expect_reject("add_test of distribution 0", test_add(LST_A_DIST, 0),
		      0);
	expect_reject("add_test of brw opcode 3", test_add(LST_A_BRW_OPC, 3),
		      0);
	expect_reject("add_test of check mode 5",
		      test_add(LST_A_BRW_CHECK, 5), 0);
	expect_reject("add_test with no opcode",
		      test_add(LST_A_BRW_SIZE, 4096), EINVAL);
	msg = test_add(LST_A_BRW_OPC, LST_BRW_OPC_WRITE);
	nla_put_u32(msg, LST_A_BRW_SIZE, 12);
	expect_reject("add_test of size 12", msg, EINVAL);
	msg = test_add(LST_A_BRW_OPC, LST_BRW_OPC_WRITE);
	expect_reject("add_test between no groups", msg, ENOENT);
	msg = req(LST_CMD_BATCH_RUN, true, true);
	nla_put_string(msg, LST_A_BATCH, "nosuch");
	expect_reject("run of no batch", msg, ENOENT);
	msg = req(LST_CMD_BATCH_RUN, true, true);
	nla_put_string(msg, LST_A_BATCH, "batch");
	expect_reject("run of an empty batch", msg, EINVAL);
	msg = req(LST_CMD_BATCH_QUERY, true, true);
	nla_put_string(msg, LST_A_BATCH, "batch");
	nla_put_u32(msg, LST_A_TEST_IDX, 3);
	expect_reject("query of no such test", msg, ENOENT);

	/* stat and ping */
	msg = req(LST_CMD_STAT, true, true);
	{
		struct nlattr *nest = nla_nest_start(msg, LST_A_NODES);

		nla_put_string(msg, LST_A_NID, "192.0.2.250@tcp");
		nla_nest_end(msg, nest);
	}
	expect_reject("stat of a node not in the session", msg, ENOENT);
	msg = req(LST_CMD_DEBUG, true, true);
	nla_put_u32(msg, LST_A_TIMEOUT, 3601);
	expect_reject("ping with timeout 3601", msg, 0);
}

static void eperm_requests(void)
{
	struct nl_msg *msg;

	msg = req(LST_CMD_SESSION_NEW, false, true);
	nla_put_string(msg, LST_A_NAME, "s");
	expect_reject("session_new without CAP_NET_ADMIN", msg, EPERM);
	expect_reject("session_get without CAP_NET_ADMIN",
		      req(LST_CMD_SESSION_GET, false, false), EPERM);
	expect_reject("group_add without CAP_NET_ADMIN",
		      group_add("g", 1, "192.0.2.1@tcp"), EPERM);
	expect_reject("list_group without CAP_NET_ADMIN",
		      req(LST_CMD_GROUP_GET, true, false), EPERM);
}

int main(int argc, char **argv)
{
	struct lnl_error err;
	bool eperm = argc == 2 && !strcmp(argv[1], "--eperm");

	if (argc != 2) {
		fprintf(stderr, "usage: lst_nl_bad KEY | --eperm\n");
		return 2;
	}
	key = eperm ? 1 : strtoul(argv[1], NULL, 0);
	if (lnl_open_family(LST_GENL_NAME, "lnet_selftest.ko", LST_A_MAX,
			    &err)) {
		fprintf(stderr, "lst_nl_bad: %s\n", err.msg);
		return 2;
	}
	/* room for LST_GENL_REQ_NODES_MAX + 1 NIDs */
	nlmsg_set_default_size(128 * 1024);
	if (eperm)
		eperm_requests();
	else
		bad_requests();
	lnl_close();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
