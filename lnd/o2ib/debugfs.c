// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ko2iblnd/stats: ko2iblnd's counters, all NIs
 * together, one "name value" line each.  conns_active is a gauge; the
 * others only grow.  Documentation/o2iblnd.rst says what each counts.
 *
 * /sys/kernel/debug/ko2iblnd/conns: one line per connection (module.c).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "o2iblnd.h"

atomic64_t kib_stats[KIB_STAT_COUNT];

static const char * const kib_stat_names[] = {
	[KIB_STAT_CONNS_ACTIVE]		= "conns_active",
	[KIB_STAT_CONNS_CREATED]	= "conns_created",
	[KIB_STAT_CONNS_CLOSED]		= "conns_closed",
	[KIB_STAT_CONNECT_FAILED]	= "connect_failed",
	[KIB_STAT_PEERS]		= "peers",
	[KIB_STAT_PEERS_FORGOTTEN]	= "peers_forgotten",
	[KIB_STAT_WIRE_SHORT]		= "rx_wire_short",
	[KIB_STAT_WIRE_BAD_MAGIC]	= "rx_wire_bad_magic",
	[KIB_STAT_WIRE_BAD_VERSION]	= "rx_wire_bad_version",
	[KIB_STAT_WIRE_BAD_NOB]		= "rx_wire_bad_nob",
	[KIB_STAT_WIRE_BAD_CKSUM]	= "rx_wire_bad_cksum",
	[KIB_STAT_WIRE_BAD_TYPE]	= "rx_wire_bad_type",
	[KIB_STAT_WIRE_BAD_SRCNID]	= "rx_wire_bad_srcnid",
	[KIB_STAT_WIRE_BAD_FRAGS]	= "rx_wire_bad_frags",
	[KIB_STAT_RX_STALE]		= "rx_stale",
	[KIB_STAT_RX_BAD_LNET_HDR]	= "rx_bad_lnet_hdr",
	[KIB_STAT_RX_TRUNCATED]		= "rx_truncated",
	[KIB_STAT_CREDIT_OVERFLOW]	= "credit_overflow",
	[KIB_STAT_UNKNOWN_COOKIE]	= "unknown_cookie",
	[KIB_STAT_CONNACK_BAD]		= "connack_bad",
	[KIB_STAT_REJ_SENT]		= "rej_sent_none",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_CONN_RACE] = "rej_sent_conn_race",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_NO_RESOURCES] = "rej_sent_no_resources",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_FATAL] = "rej_sent_fatal",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_CONN_UNCOMPAT] = "rej_sent_conn_uncompat",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_CONN_STALE] = "rej_sent_conn_stale",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_RDMA_FRAGS] = "rej_sent_rdma_frags",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_MSG_QUEUE_SIZE] = "rej_sent_msg_queue_size",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_INVALID_SRV_ID] = "rej_sent_invalid_srv_id",
	[KIB_STAT_REJ_SENT + IBLND_REJECT_EARLY] = "rej_sent_early",
	[KIB_STAT_REJ_RCVD]		= "rej_rcvd_none",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_CONN_RACE] = "rej_rcvd_conn_race",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_NO_RESOURCES] = "rej_rcvd_no_resources",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_FATAL] = "rej_rcvd_fatal",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_CONN_UNCOMPAT] = "rej_rcvd_conn_uncompat",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_CONN_STALE] = "rej_rcvd_conn_stale",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_RDMA_FRAGS] = "rej_rcvd_rdma_frags",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_MSG_QUEUE_SIZE] = "rej_rcvd_msg_queue_size",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_INVALID_SRV_ID] = "rej_rcvd_invalid_srv_id",
	[KIB_STAT_REJ_RCVD + IBLND_REJECT_EARLY] = "rej_rcvd_early",
	[KIB_STAT_REJ_RCVD_IB]		= "rej_rcvd_ib",
	[KIB_STAT_TX_TIMEOUT]		= "tx_timeout",
	[KIB_STAT_TX_ERRORS]		= "tx_errors",
	[KIB_STAT_NOOPS_SENT]		= "noops_sent",
	[KIB_STAT_NOOPS_RCVD]		= "noops_rcvd",
	[KIB_STAT_KEEPALIVES]		= "keepalives",
	[KIB_STAT_RDMA_WRITES]		= "rdma_writes",
	[KIB_STAT_RDMA_BYTES]		= "rdma_bytes",
	[KIB_STAT_PUT_NAKS]		= "put_naks",
	[KIB_STAT_RNR]			= "rnr",
	[KIB_STAT_WC_ERRORS]		= "wc_errors",
	[KIB_STAT_MR_MAP_FAILED]	= "mr_map_failed",
	[KIB_STAT_MR_WAITS]		= "mr_waits",
	[KIB_STAT_MR_RETIRED]		= "mr_retired",
	[KIB_STAT_QD_SHRUNK]		= "qd_shrunk",
	[KIB_STAT_TX_CONNECT_FAILED]	= "tx_connect_failed",
};

static_assert(ARRAY_SIZE(kib_stat_names) == KIB_STAT_COUNT);
static_assert(KIB_STAT_WIRE_BAD_FRAGS - KIB_STAT_WIRE_SHORT ==
	      KIB_WIRE_BAD_FRAGS - KIB_WIRE_SHORT);

static struct dentry *kib_debugfs_root;

/*
 * A test hook: while non-zero, an NI being added treats its device as
 * one without fast memory registration, which net add must refuse.
 */
u32 kib_test_no_fastreg;

/*
 * A test hook: while non-zero, the post of a message whose sink was just
 * registered fails as if the device refused it (-ENOMEM), and it counts
 * down.
 */
u32 kib_test_fail_post;

/*
 * A test hook: while non-zero, creating a QP with more receive work
 * requests than this fails with -ENOMEM, as on a device short of
 * resources.
 */
u32 kib_test_max_recv_wr;

/*
 * A test hook, one-shot: the next ESTABLISHED event of a connection is
 * handled this many ms late (so that the peer's first messages arrive
 * before it and wait to be replayed), and the receives it replays are
 * handled a tenth of that apart.
 */
u32 kib_test_established_delay_ms;

static int kib_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < KIB_STAT_COUNT; i++)
		seq_printf(m, "%s %lld\n", kib_stat_names[i],
			   (long long)atomic64_read(&kib_stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kib_stats);

static int kib_conns_show(struct seq_file *m, void *v)
{
	kib_conns_print(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kib_conns);

/**
 * kib_debugfs_init() - create /sys/kernel/debug/ko2iblnd/{stats,conns}
 *	and the test hooks test_no_fastreg, test_fail_post, test_max_recv_wr,
 *	test_established_delay_ms
 */
void kib_debugfs_init(void)
{
	kib_debugfs_root = debugfs_create_dir("ko2iblnd", NULL);
	debugfs_create_file("stats", 0400, kib_debugfs_root, NULL,
			    &kib_stats_fops);
	debugfs_create_file("conns", 0400, kib_debugfs_root, NULL,
			    &kib_conns_fops);
	debugfs_create_u32("test_no_fastreg", 0600, kib_debugfs_root,
			   &kib_test_no_fastreg);
	debugfs_create_u32("test_fail_post", 0600, kib_debugfs_root,
			   &kib_test_fail_post);
	debugfs_create_u32("test_max_recv_wr", 0600, kib_debugfs_root,
			   &kib_test_max_recv_wr);
	debugfs_create_u32("test_established_delay_ms", 0600, kib_debugfs_root,
			   &kib_test_established_delay_ms);
}

/**
 * kib_debugfs_fini() - remove it
 */
void kib_debugfs_fini(void)
{
	debugfs_remove_recursive(kib_debugfs_root);
}
