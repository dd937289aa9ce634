// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/nidmap/inject: a test hook that sends a malformed
 * message (LEN bytes of 0xa5: no magic) to a node's publisher or
 * subscriber endpoint, so that a VM test can check it is dropped and
 * counted:
 *
 *	echo "192.0.2.11@tcp subscriber 200" > inject
 *
 * or the bytes given in hex, sent as they are, never signed (a forged,
 * unsigned or replayed message the test made; nidmap_send_raw()):
 *
 *	echo "192.0.2.11@tcp publisher hex:50414d4e0100..." > inject
 *
 * send and sink: a send by name (nidmap_put_by_name()) checked at the
 * receiver.  "echo on > sink" posts a sink on NIDMAP_PORTAL (match bits
 * NIDMAP_MB_TEST) that checks each PUT's bytes against the pattern of
 * its hdr_data; reading it gives "puts=N bad=N" ("off" removes it).
 * "echo 'TARGET LEN SEED' > send" PUTs LEN bytes of SEED's pattern to
 * TARGET by name, with an ACK; the write fails with the send's error;
 * reading send gives the last one's "rc= nid= version= resolves=
 * skipped= failed=".  "echo 'TARGET LEN SEED' > get" GETs LEN bytes from
 * TARGET's sink by name (nidmap_get_by_name(); the sink serves GETs at
 * the offset asked for) and checks them against SEED's pattern: reading
 * get (or send) adds "mlength= bad=".
 *
 * dns (read-only): the DNS backend's domain and counters (dns.c).
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lnet/ctl.h>

#include "api.h"
#include "node.h"

#define NIDMAP_INJECT_MAX	4096

static struct dentry *nidmap_debugfs;

static void nidmap_inject_sent(void *arg, int status)
{
	complete(arg);
}

/* Send @buf (kmalloc()ed, freed here) to @nid's endpoint @match. */
static int nidmap_inject(const struct lnet_nid *nid, u64 match, void *buf,
			 unsigned int len)
{
	DECLARE_COMPLETION_ONSTACK(sent);
	struct lnet_processid dest = { .nid = *nid, .pid = LNET_PID_LUSTRE };
	int rc;

	if (!lnet_is_configured()) {
		kfree(buf);
		return -ENETDOWN;
	}
	rc = lnet_ni_init();
	if (rc) {
		kfree(buf);
		return rc;
	}
	rc = nidmap_send_raw(&dest, match, buf, len, nidmap_inject_sent,
			     &sent);
	if (!rc)
		wait_for_completion_state(&sent, TASK_IDLE);
	lnet_ni_fini();
	return rc;
}

/* The message to inject: LEN bytes of 0xa5, or "hex:" and its bytes. */
static void *nidmap_inject_bytes(char *arg, unsigned int *len)
{
	size_t n;
	u8 *msg;

	arg = strim(arg);
	n = strlen(arg);
	if (strncmp(arg, "hex:", 4)) {
		if (kstrtouint(arg, 10, len) || !*len ||
		    *len > NIDMAP_INJECT_MAX)
			return ERR_PTR(-EINVAL);
		msg = kmalloc(*len, GFP_KERNEL);
		if (msg)
			memset(msg, 0xa5, *len);
		return msg ?: ERR_PTR(-ENOMEM);
	}
	n -= 4;
	if (!n || n % 2 || n / 2 > NIDMAP_INJECT_MAX)
		return ERR_PTR(-EINVAL);
	*len = n / 2;
	msg = kmalloc(*len, GFP_KERNEL);
	if (!msg)
		return ERR_PTR(-ENOMEM);
	if (hex2bin(msg, arg + 4, *len)) {
		kfree(msg);
		return ERR_PTR(-EINVAL);
	}
	return msg;
}

static ssize_t nidmap_inject_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char nidstr[LNET_NIDSTR_SIZE], role[16], *buf;
	struct lnet_nid nid;
	unsigned int len;
	int rc, off = 0;
	u64 match;
	void *msg;

	if (count > 64 + 4 + 2 * NIDMAP_INJECT_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	rc = -EINVAL;
	if (sscanf(buf, "%63s %15s %n", nidstr, role, &off) != 2 || !off ||
	    lnet_nid_from_str(nidstr, &nid))
		goto out;
	if (!strcmp(role, "publisher"))
		match = NIDMAP_MB_PUBLISHER;
	else if (!strcmp(role, "subscriber"))
		match = NIDMAP_MB_SUBSCRIBER;
	else
		goto out;
	msg = nidmap_inject_bytes(buf + off, &len);
	rc = PTR_ERR_OR_ZERO(msg);
	if (!rc)
		rc = nidmap_inject(&nid, match, msg, len);
out:
	kfree(buf);
	return rc ?: count;
}

static const struct file_operations nidmap_inject_fops = {
	.owner	= THIS_MODULE,
	.write	= nidmap_inject_write,
	.llseek	= noop_llseek,
};

#define NIDMAP_TEST_MAX		4096	/* bytes of a test PUT */

/* Byte @i of the test pattern for @seed. */
static u8 nidmap_test_byte(u64 seed, u32 i)
{
	return (u8)(seed * 131 + i * 7 + (i >> 8));
}

/* The sink: one MD, PUTs land at offset 0 and are checked on arrival. */
static struct {
	struct mutex		lock;		/* on/off, send */
	spinlock_t		elock;		/* the event state below */
	bool			on;
	bool			unlinked;
	struct lnet_handle_md	mdh;
	void			*buf;
	unsigned int		puts;
	unsigned int		bad;
	wait_queue_head_t	waitq;
	char			last[192];	/* the last send's result */
} nidmap_test;

static void nidmap_sink_event(struct lnet_event *ev)
{
	const u8 *p = ev->md_start;
	bool ok = !ev->status && ev->mlength == ev->rlength;
	u32 i;

	if (ev->type == LNET_EVENT_PUT) {
		for (i = 0; ok && i < ev->mlength; i++)
			ok = p[ev->offset + i] ==
			     nidmap_test_byte(ev->hdr_data, i);
		spin_lock(&nidmap_test.elock);
		if (ok)
			nidmap_test.puts++;
		else
			nidmap_test.bad++;
		spin_unlock(&nidmap_test.elock);
	}
	if (ev->unlinked) {
		spin_lock(&nidmap_test.elock);
		nidmap_test.unlinked = true;
		spin_unlock(&nidmap_test.elock);
		wake_up(&nidmap_test.waitq);
	}
}

static int nidmap_sink_on(void)
{
	struct lnet_processid any = { .nid = LNET_ANY_NID,
				      .pid = LNET_PID_ANY };
	struct lnet_md md = {
		.length = NIDMAP_TEST_MAX,
		.threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_OP_GET |
			   LNET_MD_MANAGE_REMOTE,
		.handler = nidmap_sink_event,
	};
	struct lnet_me *me;
	int rc;

	if (nidmap_test.on)
		return -EALREADY;
	if (!lnet_is_configured())
		return -ENETDOWN;
	rc = lnet_ni_init();
	if (rc)
		return rc;
	nidmap_test.buf = kzalloc(NIDMAP_TEST_MAX, GFP_KERNEL);
	if (!nidmap_test.buf) {
		rc = -ENOMEM;
		goto fail;
	}
	md.start = nidmap_test.buf;
	nidmap_test.puts = 0;
	nidmap_test.bad = 0;
	nidmap_test.unlinked = false;
	me = lnet_me_attach(NIDMAP_PORTAL, &any, NIDMAP_MB_TEST, 0,
			    LNET_INS_AFTER);
	rc = PTR_ERR_OR_ZERO(me);
	if (!rc)
		rc = lnet_md_attach(me, &md, LNET_UNLINK, &nidmap_test.mdh);
	if (rc)
		goto fail;
	nidmap_test.on = true;
	return 0;
fail:
	kfree(nidmap_test.buf);
	nidmap_test.buf = NULL;
	lnet_ni_fini();
	return rc;
}

static void nidmap_sink_off(void)
{
	if (!nidmap_test.on)
		return;
	lnet_md_unlink(nidmap_test.mdh);
	wait_event_idle(nidmap_test.waitq, READ_ONCE(nidmap_test.unlinked));
	kfree(nidmap_test.buf);
	nidmap_test.buf = NULL;
	nidmap_test.on = false;
	lnet_ni_fini();
}

static ssize_t nidmap_sink_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[8];
	int rc = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&nidmap_test.lock);
	if (sysfs_streq(buf, "on"))
		rc = nidmap_sink_on();
	else if (sysfs_streq(buf, "off"))
		nidmap_sink_off();
	else
		rc = -EINVAL;
	mutex_unlock(&nidmap_test.lock);
	return rc ?: count;
}

static ssize_t nidmap_sink_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[64];
	int n;

	spin_lock_irq(&nidmap_test.elock);
	n = scnprintf(buf, sizeof(buf), "puts=%u bad=%u\n", nidmap_test.puts,
		      nidmap_test.bad);
	spin_unlock_irq(&nidmap_test.elock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct file_operations nidmap_sink_fops = {
	.owner	= THIS_MODULE,
	.read	= nidmap_sink_read,
	.write	= nidmap_sink_write,
	.llseek	= default_llseek,
};

/*
 * "TARGET LEN SEED": a PUT of LEN bytes of SEED's pattern to TARGET by
 * name, or with @get a GET of LEN bytes from offset 0 of TARGET's sink,
 * each byte checked against SEED's pattern (what a PUT of SEED left).
 */
static ssize_t nidmap_by_name_write(const char __user *ubuf, size_t count,
				    bool get)
{
	char buf[128], name[NIDMAP_NAME_MAX], nidstr[LNET_NIDSTR_SIZE];
	struct nidmap_by_name_wait w = { };
	struct nidmap_put put = {
		.xfer = {
			.pid = LNET_PID_LUSTRE,
			.portal = NIDMAP_PORTAL,
			.match_bits = NIDMAP_MB_TEST,
		},
		.ack = LNET_ACK_REQ,
	};
	unsigned int len, i, bad = 0;
	size_t n;
	u8 *data;
	u64 seed;
	int rc;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%63s %u %llu", name, &len, &seed) != 3 || !len ||
	    len > NIDMAP_TEST_MAX)
		return -EINVAL;
	data = kzalloc(len, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	for (i = 0; i < len && !get; i++)
		data[i] = nidmap_test_byte(seed, i);
	put.xfer.start = data;
	put.xfer.length = len;
	put.hdr_data = seed;
	mutex_lock(&nidmap_test.lock);
	init_completion(&w.done);
	if (get)
		rc = nidmap_get_by_name(name, &put.xfer, nidmap_by_name_wake,
					&w);
	else
		rc = nidmap_put_by_name(name, &put, nidmap_by_name_wake, &w);
	if (!rc) {
		wait_for_completion(&w.done);
		rc = w.status;
	}
	for (i = 0; get && !rc && i < len; i++)
		bad += data[i] != nidmap_test_byte(seed, i);
	lnet_nid_to_str(&w.res.nid, nidstr, sizeof(nidstr));
	n = scnprintf(nidmap_test.last, sizeof(nidmap_test.last),
		      "rc=%d nid=%s version=%llu resolves=%u skipped=%u failed=%u",
		      rc, rc ? "none" : nidstr, w.res.version, w.res.resolves,
		      w.res.skipped, w.res.failed);
	if (get)
		n += scnprintf(nidmap_test.last + n,
			       sizeof(nidmap_test.last) - n,
			       " mlength=%u bad=%u", w.res.mlength, bad);
	scnprintf(nidmap_test.last + n, sizeof(nidmap_test.last) - n, "\n");
	mutex_unlock(&nidmap_test.lock);
	kfree(data);
	return rc ?: count;
}

static ssize_t nidmap_send_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return nidmap_by_name_write(ubuf, count, false);
}

static ssize_t nidmap_get_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return nidmap_by_name_write(ubuf, count, true);
}

static ssize_t nidmap_send_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[sizeof(nidmap_test.last)];

	mutex_lock(&nidmap_test.lock);
	strscpy(buf, nidmap_test.last, sizeof(buf));
	mutex_unlock(&nidmap_test.lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations nidmap_send_fops = {
	.owner	= THIS_MODULE,
	.read	= nidmap_send_read,
	.write	= nidmap_send_write,
	.llseek	= default_llseek,
};

/* get: its result is read from send, the last send's or GET's. */
static const struct file_operations nidmap_get_fops = {
	.owner	= THIS_MODULE,
	.read	= nidmap_send_read,
	.write	= nidmap_get_write,
	.llseek	= default_llseek,
};

/**
 * nidmap_debugfs_init() - /sys/kernel/debug/nidmap/
 */
void nidmap_debugfs_init(void)
{
	mutex_init(&nidmap_test.lock);
	spin_lock_init(&nidmap_test.elock);
	init_waitqueue_head(&nidmap_test.waitq);
	nidmap_debugfs = debugfs_create_dir("nidmap", NULL);
	debugfs_create_file("inject", 0200, nidmap_debugfs, NULL,
			    &nidmap_inject_fops);
	debugfs_create_file("sink", 0600, nidmap_debugfs, NULL,
			    &nidmap_sink_fops);
	debugfs_create_file("send", 0600, nidmap_debugfs, NULL,
			    &nidmap_send_fops);
	debugfs_create_file("get", 0600, nidmap_debugfs, NULL,
			    &nidmap_get_fops);
	debugfs_create_file("dns", 0400, nidmap_debugfs, NULL,
			    &nidmap_dns_fops);
}

/**
 * nidmap_debugfs_fini() - remove it (writers finish first)
 */
void nidmap_debugfs_fini(void)
{
	debugfs_remove_recursive(nidmap_debugfs);
	mutex_lock(&nidmap_test.lock);
	nidmap_sink_off();
	mutex_unlock(&nidmap_test.lock);
}
