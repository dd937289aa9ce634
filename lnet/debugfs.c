// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/lnet/: "stats" (the global counters on one line, in
 * the order of Lustre's debugfs stats file; writing resets them), "drops"
 * (received messages dropped, per reason) and "nis" (one line per NI:
 * nid, status, max/current/min tx credits, send/recv/drop counts, then
 * send/recv/drop payload bytes), "peers" (stock's columns: a header,
 * then one line per peer NI)
 * and "acceptor" (connections accepted and refused, by reason, as "name
 * value" lines), "discovery" (discoveries and pushes received, as "name
 * value" lines), routing's "routes", "routers" and "buffers"
 * (lnet/debugfs-routing.c); the test hooks test_fail_ping_update,
 * test_hold_send_ms and test_ubsan.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include <lnet/ctl.h>

#include <lnet/lib-lnet.h>

static struct dentry *lnet_debugfs_root;

static int lnet_stats_show(struct seq_file *m, void *v)
{
	struct lnet_counters_common c;

	lnet_counters_get(&c);
	seq_printf(m, "%u %u %u %u %u %u %u %llu %llu %llu %llu\n",
		   c.msgs_alloc, c.msgs_max, c.errors, c.send_count,
		   c.recv_count, c.route_count, c.drop_count, c.send_length,
		   c.recv_length, c.route_length, c.drop_length);
	return 0;
}

static int lnet_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, lnet_stats_show, NULL);
}

static ssize_t lnet_stats_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	lnet_counters_reset();
	return count;
}

static const struct file_operations lnet_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= lnet_stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.write		= lnet_stats_write,
	.release	= single_release,
};

static int lnet_drops_show(struct seq_file *m, void *v)
{
	u32 drops[LNET_DROP_COUNT];
	unsigned int i;

	lnet_lock();
	memcpy(drops, the_lnet.ln_drops, sizeof(drops));
	lnet_unlock();
	for (i = 1; i < LNET_DROP_COUNT; i++)
		seq_printf(m, "%s %u\n", lnet_drop_reason_str(i), drops[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_drops);

static int lnet_nis_show(struct seq_file *m, void *v)
{
	struct lnet_ni_info info;
	char nid[LNET_NIDSTR_SIZE];
	unsigned int i;

	for (i = 0; !lnet_ni_info_get(i, &info); i++) {
		lnet_nid_to_str(&info.nid, nid, sizeof(nid));
		seq_printf(m, "%s %s %d %d %d %u %u %u %llu %llu %llu\n", nid,
			   info.up ? "up" : "down", info.tx_credits_max,
			   info.tx_credits, info.tx_credits_min,
			   info.send_count, info.recv_count, info.drop_count,
			   info.send_length, info.recv_length,
			   info.drop_length);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_nis);

/*
 * "peers": stock's header, then one line per peer NI (routing spec 9:
 * nid, messages using it, state, last alive (always -1, as stock), max
 * tx credits, router credits now and lowest, tx credits now and lowest,
 * bytes queued), by a cursor (each line costs the same, wherever it is).
 * seq_file may ask again for the record it has (its buffer grew): the
 * last one is kept for that.  Position 0 is the header, peer NI n is at
 * n + 1.
 */
struct lnet_peers_iter {
	struct lnet_peer_ni_cursor	cur;
	struct lnet_peer_ni_info	info;
	loff_t				pos;	/* of @info; -1: none */
};

static void *lnet_peers_fetch(struct lnet_peers_iter *it, loff_t pos)
{
	if (it->pos == pos)
		return &it->info;
	if (pos < it->pos || it->pos < 0) {	/* from the start again */
		memset(&it->cur, 0, sizeof(it->cur));
		it->pos = -1;
	}
	while (it->pos < pos) {
		if (lnet_peer_ni_info_next(&it->cur, &it->info))
			return NULL;
		it->pos++;
	}
	return &it->info;
}

static void *lnet_peers_seq_start(struct seq_file *m, loff_t *pos)
{
	return *pos ? lnet_peers_fetch(m->private, *pos - 1) : SEQ_START_TOKEN;
}

static void *lnet_peers_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return lnet_peers_fetch(m->private, ++*pos - 1);
}

static void lnet_peers_seq_stop(struct seq_file *m, void *v)
{
}

static int lnet_peers_show(struct seq_file *m, void *v)
{
	static const char * const state[] = { "NA", "down", "up" };
	const struct lnet_peer_ni_info *info = v;
	char nid[LNET_NIDSTR_SIZE];

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "%-24s %4s %5s %5s %5s %5s %5s %5s %5s %s\n",
			   "nid", "refs", "state", "last", "max", "rtr", "min",
			   "tx", "min", "queue");
		return 0;
	}
	lnet_nid_to_str(&info->nid, nid, sizeof(nid));
	seq_printf(m, "%-24s %4d %5s %5d %5d %5d %5d %5d %5d %u\n", nid,
		   info->refcount,
		   state[clamp_t(int, info->alive_state, -1, 1) + 1], -1,
		   info->tx_credits_max, info->rtr_credits,
		   info->rtr_credits_min, info->tx_credits,
		   info->tx_credits_min, info->txq_bytes);
	return 0;
}

static const struct seq_operations lnet_peers_sops = {
	.start	= lnet_peers_seq_start,
	.next	= lnet_peers_seq_next,
	.stop	= lnet_peers_seq_stop,
	.show	= lnet_peers_show,
};

static int lnet_peers_open(struct inode *inode, struct file *file)
{
	struct lnet_peers_iter *it;

	it = __seq_open_private(file, &lnet_peers_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->pos = -1;
	return 0;
}

/* Any write resets the minimums (stock's). */
static ssize_t lnet_peers_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	lnet_peer_ni_reset_mins();
	return count;
}

static const struct file_operations lnet_peers_fops = {
	.owner		= THIS_MODULE,
	.open		= lnet_peers_open,
	.read		= seq_read,
	.write		= lnet_peers_write,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

static int lnet_acceptor_stats_show(struct seq_file *m, void *v)
{
	lnet_acceptor_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_acceptor_stats);

static int lnet_discovery_stats_show(struct seq_file *m, void *v)
{
	struct lnet_dc_stats st;

	lnet_lock();
	st = the_lnet.ln_dc_stats;
	lnet_unlock();
	seq_printf(m, "discovered %u\nfailed %u\npushes %u\npushes_unknown %u\npushes_new_peer %u\npushes_bad %u\npushes_replaced %u\npushes_nomem %u\n",
		   st.discovered, st.failed, st.pushes, st.pushes_unknown,
		   st.pushes_new_peer, st.pushes_bad, st.pushes_replaced,
		   st.pushes_nomem);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_discovery_stats);

static int lnet_ni_addr_stats_show(struct seq_file *m, void *v)
{
	struct lnet_ni_addr_stats st;

	mutex_lock(&the_lnet.ln_api_mutex);
	st = lnet_ni_addr_stats;
	mutex_unlock(&the_lnet.ln_api_mutex);
	seq_printf(m, "moves %u\nlost %u\nfailed %u\n", st.moves, st.lost,
		   st.failed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_ni_addr_stats);

u32 lnet_test_fail_ping_update;
u32 lnet_test_hold_send_ms;

/*
 * test_ubsan: the proof that UBSAN instruments this module on the debug
 * test kernel (tests/vm/catcher_selftest.sh).  Writing N shifts 1 by N
 * bits and reads element N of a 32-element array: for N >= 32 both are
 * undefined behaviour, which UBSAN must report naming this file.  The
 * array sits in a larger structure so that KASAN sees a valid access.
 */
static struct {
	u32 bits[32];
	u32 beyond[32];
} lnet_test_ubsan_data;
static u32 lnet_test_ubsan_arg;
static u32 lnet_test_ubsan_sink;

static ssize_t lnet_test_ubsan_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	u32 n;
	int rc;

	rc = kstrtou32_from_user(ubuf, count, 0, &n);
	if (rc)
		return rc;
	if (n >= 2 * ARRAY_SIZE(lnet_test_ubsan_data.bits))
		return -EINVAL;
	/* Hide n's range from the compiler: the checks stay in the code. */
	WRITE_ONCE(lnet_test_ubsan_arg, n);
	n = READ_ONCE(lnet_test_ubsan_arg);
	WRITE_ONCE(lnet_test_ubsan_sink,
		   (1U << n) + lnet_test_ubsan_data.bits[n]);
	return count;
}

static const struct file_operations lnet_test_ubsan_fops = {
	.owner	= THIS_MODULE,
	.write	= lnet_test_ubsan_write,
	.llseek	= noop_llseek,
};

/*
 * test_odebug: the proof that DEBUG_OBJECTS tracks this module's timers on
 * the debug test kernel (tests/vm/catcher_selftest.sh).  Writing 1 frees a
 * structure whose timer is still armed: the tracker must report "free
 * active ... timer_list" naming the timer's function, and its fixup
 * deactivates the timer, so nothing ever runs on the freed memory.
 */
struct lnet_test_odebug {
	struct timer_list timer;
};

static void lnet_test_odebug_timer(struct timer_list *t)
{
	pr_warn("lnet: test_odebug timer ran\n");
}

static ssize_t lnet_test_odebug_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct lnet_test_odebug *od;
	bool on;
	int rc;

	rc = kstrtobool_from_user(ubuf, count, &on);
	if (rc)
		return rc;
	if (!on)
		return -EINVAL;
	od = kzalloc(sizeof(*od), GFP_KERNEL);
	if (!od)
		return -ENOMEM;
	timer_setup(&od->timer, lnet_test_odebug_timer, 0);
	mod_timer(&od->timer, jiffies + 3600 * HZ);
	kfree(od);
	return count;
}

static const struct file_operations lnet_test_odebug_fops = {
	.owner	= THIS_MODULE,
	.write	= lnet_test_odebug_write,
	.llseek	= noop_llseek,
};

void lnet_debugfs_init(void)
{
	lnet_debugfs_root = debugfs_create_dir("lnet", NULL);
	debugfs_create_file("stats", 0600, lnet_debugfs_root, NULL,
			    &lnet_stats_fops);
	debugfs_create_file("drops", 0400, lnet_debugfs_root, NULL,
			    &lnet_drops_fops);
	debugfs_create_file("nis", 0400, lnet_debugfs_root, NULL,
			    &lnet_nis_fops);
	debugfs_create_file("peers", 0600, lnet_debugfs_root, NULL,
			    &lnet_peers_fops);
	debugfs_create_file("acceptor", 0400, lnet_debugfs_root, NULL,
			    &lnet_acceptor_stats_fops);
	debugfs_create_file("discovery", 0400, lnet_debugfs_root, NULL,
			    &lnet_discovery_stats_fops);
	debugfs_create_file("ni_addr", 0400, lnet_debugfs_root, NULL,
			    &lnet_ni_addr_stats_fops);
	debugfs_create_u32("test_fail_ping_update", 0600, lnet_debugfs_root,
			   &lnet_test_fail_ping_update);
	debugfs_create_u32("test_hold_send_ms", 0600, lnet_debugfs_root,
			   &lnet_test_hold_send_ms);
	debugfs_create_file("test_ubsan", 0200, lnet_debugfs_root, NULL,
			    &lnet_test_ubsan_fops);
	debugfs_create_file("test_odebug", 0200, lnet_debugfs_root, NULL,
			    &lnet_test_odebug_fops);
	lnet_debugfs_routing_init(lnet_debugfs_root);
}

void lnet_debugfs_fini(void)
{
	debugfs_remove_recursive(lnet_debugfs_root);
}
