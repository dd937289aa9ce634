// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: how ko2iblnd turns an NI's LND tunables (from net add, else its
 * module parameters) into the values in force (lnd/o2ib/module.c
 * kib_ni_tunables()), as Lustre's o2iblnd clamps them.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include "../lnd/o2ib/o2iblnd.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct lnet_ni_tunables tun(int pc, int hiw, int cs)
{
	return (struct lnet_ni_tunables) {
		.peer_credits = pc, .peercredits_hiw = hiw,
		.concurrent_sends = cs, .map_on_demand = 0,
		.fmr_pool_size = 0, .fmr_flush_trigger = -3, .fmr_cache = 7,
		.ntx = 0,
	};
}

static void tun_hiw(struct kunit *test)
{
	struct lnet_ni_tunables t;

	t = tun(8, 0, 0);	/* 0: peer_credits / 2 */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.peercredits_hiw, 4);
	t = tun(8, 2, 0);	/* below half: half */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.peercredits_hiw, 4);
	t = tun(8, 6, 0);
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.peercredits_hiw, 6);
	t = tun(8, 8, 0);	/* at most peer_credits - 1 */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.peercredits_hiw, 7);
	t = tun(1, 0, 0);
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.peercredits_hiw, 0);
	t = tun(1000, 0, 0);	/* peer_credits taken as 255 */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.peercredits_hiw, 127);
}

static void tun_concurrent_sends(struct kunit *test)
{
	struct lnet_ni_tunables t;

	t = tun(8, 0, 0);	/* 0: peer_credits */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.concurrent_sends, 8);
	t = tun(8, 0, 1);	/* at least peer_credits / 2 */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.concurrent_sends, 4);
	t = tun(8, 0, 12);
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.concurrent_sends, 12);
	t = tun(8, 0, 100);	/* at most 2 x peer_credits */
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.concurrent_sends, 16);
	t = tun(1, 0, 0);
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.concurrent_sends, 1);
}

static void tun_others(struct kunit *test)
{
	struct lnet_ni_tunables t = tun(8, 0, 0);

	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.map_on_demand, 1);
	KUNIT_EXPECT_EQ(test, t.fmr_pool_size, KIB_MR_POOL_SIZE);
	KUNIT_EXPECT_EQ(test, t.fmr_flush_trigger, 0);
	KUNIT_EXPECT_EQ(test, t.fmr_cache, 1);
	KUNIT_EXPECT_EQ(test, t.ntx, 512);
	KUNIT_EXPECT_EQ(test, t.peer_credits, 8);	/* untouched */

	t.map_on_demand = 257;
	t.fmr_pool_size = 64;
	t.fmr_flush_trigger = 32;
	t.fmr_cache = 0;
	t.ntx = 1024;
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.map_on_demand, 257);
	KUNIT_EXPECT_EQ(test, t.fmr_pool_size, 64);
	KUNIT_EXPECT_EQ(test, t.fmr_flush_trigger, 32);
	KUNIT_EXPECT_EQ(test, t.fmr_cache, 0);
	KUNIT_EXPECT_EQ(test, t.ntx, 1024);
}

/* 0 or less: the module parameter (1 when loaded without it); 1..127. */
static void tun_conns_per_peer(struct kunit *test)
{
	struct lnet_ni_tunables t = tun(8, 0, 0);

	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.conns_per_peer, 1);
	t.conns_per_peer = 5;
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.conns_per_peer, 5);
	t.conns_per_peer = 200;
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.conns_per_peer, 127);
	t.conns_per_peer = -1;
	kib_ni_tunables(&t);
	KUNIT_EXPECT_EQ(test, t.conns_per_peer, 1);
}

/* timeout: the tunable, or LNet's lnd_timeout for 0 (spec 3d). */
static void tun_timeout(struct kunit *test)
{
	int saved = kib_tun.timeout;

	kib_tun.timeout = 0;
	KUNIT_EXPECT_EQ(test, kib_timeout(), (int)lnet_get_lnd_timeout());
	KUNIT_EXPECT_GE(test, kib_timeout(), 1);
	kib_tun.timeout = 7;
	KUNIT_EXPECT_EQ(test, kib_timeout(), 7);
	kib_tun.timeout = saved;
}

static struct kunit_case o2iblnd_tun_cases[] = {
	KUNIT_CASE(tun_hiw),
	KUNIT_CASE(tun_concurrent_sends),
	KUNIT_CASE(tun_others),
	KUNIT_CASE(tun_conns_per_peer),
	KUNIT_CASE(tun_timeout),
	{}
};

static struct kunit_suite o2iblnd_tun_suite = {
	.name = "o2iblnd_tun",
	.test_cases = o2iblnd_tun_cases,
};

kunit_test_suite(o2iblnd_tun_suite);

MODULE_DESCRIPTION("KUnit: ko2iblnd per-NI LND tunables");
MODULE_LICENSE("GPL");
