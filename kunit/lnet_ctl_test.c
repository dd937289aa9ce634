// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the control API of include/lnet/ctl.h as lnetctl uses it: global
 * parameters (names, defaults and checks of the features spec, section
 * 1b), and the life cycle: configure, the 0@lo NI, net add/del errors,
 * ping of 0@lo, and who holds LNet up: unconfigure under an in-kernel
 * user says -EBUSY and LNet stops when that user lets go (spec features
 * 1c, as stock's lnet_unconfigure()).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include <lnet/api.h>
#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static const struct {
	const char	*name;
	s64		def;
} ctl_defaults[] = {
	{ "numa_range", 0 },
	{ "discovery", 1 },
	{ "max_interfaces", 4096 },
	{ "drop_asym_route", 0 },
	{ "retry_count", 2 },
	{ "transaction_timeout", 150 },
	{ "health_sensitivity", 100 },
	{ "recovery_interval", 1 },
	{ "router_sensitivity", 100 },
	{ "lnd_timeout", 49 },
	{ "response_tracking", 3 },
	{ "recovery_limit", 0 },
	{ "max_recovery_ping_interval", 900 },
};

static s64 ctl_get(struct kunit *test, const char *name)
{
	s64 v = -1;

	KUNIT_EXPECT_EQ_MSG(test, lnet_global_get(name, &v), 0, "%s", name);
	return v;
}

static void ctl_global_defaults(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ctl_defaults); i++) {
		KUNIT_EXPECT_STREQ(test, lnet_global_name(i),
				   ctl_defaults[i].name);
		KUNIT_EXPECT_EQ_MSG(test, ctl_get(test, ctl_defaults[i].name),
				    ctl_defaults[i].def, "%s",
				    ctl_defaults[i].name);
	}
	KUNIT_EXPECT_NULL(test, lnet_global_name(i));
}

static void ctl_global_checks(struct kunit *test)
{
	s64 v;

	KUNIT_EXPECT_EQ(test, lnet_global_get("nope", &v), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_global_set("nope", 1, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_global_set("lnd_timeout", 5, NULL), -EPERM);
	KUNIT_EXPECT_EQ(test, lnet_global_set("discovery", 2, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("drop_asym_route", -1, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("response_tracking", 4, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("router_sensitivity", 101,
					      NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("max_recovery_ping_interval", 0,
					      NULL), -EINVAL);

	/* retry_count <= transaction_timeout, lnd_timeout follows both. */
	KUNIT_EXPECT_EQ(test, lnet_global_set("retry_count", 151, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("retry_count", 5, NULL), 0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "lnd_timeout"), 149 / 6);
	KUNIT_EXPECT_EQ(test, lnet_global_set("transaction_timeout", 5, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("transaction_timeout", 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("transaction_timeout", 61, NULL),
			0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "lnd_timeout"), 10);

	/* health_sensitivity 0 forces retry_count 0 and refuses more. */
	KUNIT_EXPECT_EQ(test, lnet_global_set("health_sensitivity", 1001,
					      NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_global_set("health_sensitivity", 0, NULL),
			0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "retry_count"), 0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "lnd_timeout"), 60);
	KUNIT_EXPECT_EQ(test, lnet_global_set("retry_count", 1, NULL),
			-EINVAL);

	/* Below 16 interfaces means the default. */
	KUNIT_EXPECT_EQ(test, lnet_global_set("max_interfaces", 5, NULL), 0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "max_interfaces"), 4096);
	KUNIT_EXPECT_EQ(test, lnet_global_set("max_interfaces", 16, NULL), 0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "max_interfaces"), 16);

	/* Back to the defaults. */
	KUNIT_EXPECT_EQ(test, lnet_global_set("max_interfaces", 4096, NULL),
			0);
	KUNIT_EXPECT_EQ(test, lnet_global_set("health_sensitivity", 100,
					      NULL), 0);
	KUNIT_EXPECT_EQ(test, lnet_global_set("transaction_timeout", 150,
					      NULL), 0);
	KUNIT_EXPECT_EQ(test, lnet_global_set("retry_count", 2, NULL), 0);
	KUNIT_EXPECT_EQ(test, ctl_get(test, "lnd_timeout"), 49);
}

static void ctl_lifecycle(struct kunit *test)
{
	struct lnet_nid lo, nids[4];
	struct lnet_ni_info info;
	u32 tcp, features = 0;

	if (lnet_is_configured())
		kunit_skip(test, "LNet already configured");
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("0@lo", &lo), 0);
	KUNIT_ASSERT_EQ(test, lnet_net_from_str("tcp1", &tcp), 0);
	KUNIT_EXPECT_EQ(test, lnet_net_add(tcp, "", NULL, NULL), -ENETDOWN);
	KUNIT_EXPECT_EQ(test, lnet_ni_info_get(0, &info), -ENOENT);
	/* LNet's own calls (ping, discover) never start it. */
	KUNIT_EXPECT_EQ(test, lnet_ref_running(), -ENETDOWN);
	KUNIT_EXPECT_FALSE(test, lnet_is_configured());

	/*
	 * Not "all": with no networks= that brings up tcp on the first
	 * interface that is up, as stock (the lnetctl VM scenario checks
	 * it); this test wants 0@lo alone.
	 */
	KUNIT_ASSERT_EQ(test, lnet_configure(false, NULL), 0);
	KUNIT_EXPECT_TRUE(test, lnet_is_configured());
	KUNIT_EXPECT_EQ(test, lnet_configure(false, NULL), 0);
	KUNIT_ASSERT_EQ(test, lnet_ni_info_get(0, &info), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&info.nid, &lo));
	KUNIT_EXPECT_TRUE(test, info.up);
	KUNIT_EXPECT_STREQ(test, info.ifname, "");
	KUNIT_EXPECT_EQ(test, info.tunables.credits, 0);
	KUNIT_EXPECT_EQ(test, info.tunables.peer_credits, 0);
	KUNIT_EXPECT_EQ(test, info.tunables.conns_per_peer, 0);
	KUNIT_EXPECT_EQ(test, lnet_ni_info_get(1, &info), -ENOENT);

	/* No LND, none to load: gni. */
	KUNIT_EXPECT_EQ(test, lnet_net_add(lnet_mknet(LNET_LND_GNI, 0), "",
					   NULL, NULL), -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, lnet_net_add(lnet_nid_net(&lo), "", NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_net_del(lnet_nid_net(&lo), NULL, NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_net_del(tcp, NULL, NULL, NULL), -ENOENT);

	KUNIT_EXPECT_EQ(test, lnet_ping(&lo, NULL, 5000, nids,
					ARRAY_SIZE(nids), &features), 0);
	/* NI_STATUS | RTE_DISABLED | MULTI_RAIL | DISCOVERY (spec 7). */
	KUNIT_EXPECT_EQ(test, features, 0x1e);
	/* The GET and its REPLY (the 32-byte ping info) both went over lo. */
	KUNIT_ASSERT_EQ(test, lnet_ni_info_get(0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.send_count, 2);
	KUNIT_EXPECT_EQ(test, info.recv_count, 2);
	KUNIT_EXPECT_EQ(test, info.send_length, 32);
	KUNIT_EXPECT_EQ(test, info.recv_length, 32);
	KUNIT_EXPECT_EQ(test, info.drop_length, 0);

	/*
	 * An in-kernel user holds LNet: unconfigure drops lnetctl's hold,
	 * says -EBUSY, and LNet runs on until the user lets go.  lnetctl
	 * may configure again meanwhile, and its hold then keeps LNet.
	 */
	KUNIT_EXPECT_EQ(test, lnet_ni_init(), 0);
	KUNIT_EXPECT_EQ(test, lnet_unconfigure(NULL), -EBUSY);
	KUNIT_EXPECT_TRUE(test, lnet_is_configured());
	KUNIT_EXPECT_EQ(test, lnet_configure(false, NULL), 0);
	lnet_ni_fini();
	KUNIT_EXPECT_TRUE(test, lnet_is_configured());
	KUNIT_EXPECT_EQ(test, lnet_ni_init(), 0);
	KUNIT_EXPECT_EQ(test, lnet_unconfigure(NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, lnet_ping(&lo, NULL, 5000, nids, 1, NULL), 0);
	lnet_ni_fini();
	KUNIT_EXPECT_FALSE(test, lnet_is_configured());
	KUNIT_EXPECT_EQ(test, lnet_unconfigure(NULL), 0);
	KUNIT_EXPECT_FALSE(test, lnet_is_configured());
	KUNIT_EXPECT_EQ(test, lnet_ni_info_get(0, &info), -ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_ping(&lo, NULL, 5000, nids, 1, NULL),
			-ENETDOWN);
}

static struct kunit_case lnet_ctl_cases[] = {
	KUNIT_CASE(ctl_global_defaults),
	KUNIT_CASE(ctl_global_checks),
	KUNIT_CASE(ctl_lifecycle),
	{}
};

static struct kunit_suite lnet_ctl_suite = {
	.name = "lnet_ctl",
	.test_cases = lnet_ctl_cases,
};

kunit_test_suite(lnet_ctl_suite);

MODULE_DESCRIPTION("KUnit tests for the LNet control API");
MODULE_LICENSE("GPL");
