// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ksocklnd/stats: ksocklnd's counters, all NIs
 * together, one "name value" line each.  conns_active and peers are
 * gauges; the others only grow.  Documentation/socklnd.rst says what each counts.
 *
 * /sys/kernel/debug/ksocklnd/test_admit_delay_ms: a test hook.  The next
 * handshake that admits a connection then sleeps that long, once, right
 * after the admission, so that a test can make a peer restart in that
 * window (sock_reload).  test_hello_delay_ms and test_reply_delay_ms:
 * the next passive handshake sleeps that long, once, after reading the
 * peer's HELLO, or between its accepting HELLO reply and the connection's
 * start, so that a test can cross connections (sock_reload's
 * crossed_connects).
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/seq_file.h>

#include "socklnd.h"

atomic64_t ksock_stats[KSOCK_STAT_COUNT];
u32 ksock_test_admit_delay_ms;
u32 ksock_test_hello_delay_ms;
u32 ksock_test_reply_delay_ms;

/**
 * ksock_test_delay() - a test hook's sleep, if it is armed; disarms it
 * @ms: the hook (ksock_test_*_delay_ms)
 */
void ksock_test_delay(u32 *ms)
{
	u32 t = xchg(ms, 0);

	if (t)
		msleep(min(t, 60000U));
}

static const char * const ksock_stat_names[] = {
	[KSOCK_STAT_CONNS_ACTIVE]	= "conns_active",
	[KSOCK_STAT_PEERS]		= "peers",
	[KSOCK_STAT_CONNS_CREATED]	= "conns_created",
	[KSOCK_STAT_CONNS_CLOSED]	= "conns_closed",
	[KSOCK_STAT_CONNS_REFUSED]	= "conns_refused",
	[KSOCK_STAT_CONNECT_FAILED]	= "connect_failed",
	[KSOCK_STAT_HELLO_BAD_MAGIC]	= "hello_bad_magic",
	[KSOCK_STAT_HELLO_BAD_VERSION]	= "hello_bad_version",
	[KSOCK_STAT_HELLO_BAD_NIPS]	= "hello_bad_nips",
	[KSOCK_STAT_HELLO_BAD_CTYPE]	= "hello_bad_ctype",
	[KSOCK_STAT_HELLO_BAD_NID]	= "hello_bad_nid",
	[KSOCK_STAT_HELLO_TIMEOUT]	= "hello_timeout",
	[KSOCK_STAT_RX_BAD_TYPE]	= "rx_bad_type",
	[KSOCK_STAT_RX_BAD_HDR]		= "rx_bad_hdr",
	[KSOCK_STAT_RX_TOO_LONG]	= "rx_too_long",
	[KSOCK_STAT_RX_TRUNCATED]	= "rx_truncated",
	[KSOCK_STAT_RX_ZC_BAD_COOKIE]	= "rx_zc_bad_cookie",
	[KSOCK_STAT_RX_TIMEOUT]		= "rx_timeout",
	[KSOCK_STAT_TX_TIMEOUT]		= "tx_timeout",
	[KSOCK_STAT_TX_ERRORS]		= "tx_errors",
	[KSOCK_STAT_KEEPALIVE_SENT]	= "keepalive_sent",
	[KSOCK_STAT_NOOP_RX]		= "noop_rx",
	[KSOCK_STAT_ZC_ACKS_SENT]	= "zc_acks_sent",
	[KSOCK_STAT_ZC_REQUESTS]	= "zc_requests",
	[KSOCK_STAT_ZC_ACKS_RX]		= "zc_acks_received",
	[KSOCK_STAT_ZC_ABORTED]		= "zc_aborted",
	[KSOCK_STAT_ZC_TIMEOUT]		= "zc_ack_timeout",
	[KSOCK_STAT_ZC_ACK_OVERFLOW]	= "zc_ack_overflow",
	[KSOCK_STAT_TX_NO_ROUTE]	= "tx_no_usable_route",
};

static_assert(ARRAY_SIZE(ksock_stat_names) == KSOCK_STAT_COUNT);

static struct dentry *ksock_debugfs_root;

static int ksock_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < KSOCK_STAT_COUNT; i++)
		seq_printf(m, "%s %lld\n", ksock_stat_names[i],
			   (long long)atomic64_read(&ksock_stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ksock_stats);

void ksock_debugfs_init(void)
{
	ksock_debugfs_root = debugfs_create_dir("ksocklnd", NULL);
	debugfs_create_file("stats", 0400, ksock_debugfs_root, NULL,
			    &ksock_stats_fops);
	debugfs_create_u32("test_admit_delay_ms", 0600, ksock_debugfs_root,
			   &ksock_test_admit_delay_ms);
	debugfs_create_u32("test_hello_delay_ms", 0600, ksock_debugfs_root,
			   &ksock_test_hello_delay_ms);
	debugfs_create_u32("test_reply_delay_ms", 0600, ksock_debugfs_root,
			   &ksock_test_reply_delay_ms);
}

void ksock_debugfs_fini(void)
{
	debugfs_remove_recursive(ksock_debugfs_root);
}
