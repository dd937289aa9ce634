// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/nidmap/inject: a test hook that sends a malformed
 * message (LEN bytes of 0xa5: no magic) to a node's publisher or
 * subscriber endpoint, so that a VM test can check it is dropped and
 * counted:
 *
 *	echo "192.0.2.11@tcp subscriber 200" > inject
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lnet/ctl.h>

#include "node.h"

#define NIDMAP_INJECT_MAX	4096

static struct dentry *nidmap_debugfs;

static void nidmap_inject_sent(void *arg, int status)
{
	complete(arg);
}

static int nidmap_inject(const struct lnet_nid *nid, u64 match,
			 unsigned int len)
{
	DECLARE_COMPLETION_ONSTACK(sent);
	struct lnet_processid dest = { .nid = *nid, .pid = LNET_PID_LUSTRE };
	void *buf;
	int rc;

	if (!lnet_is_configured())
		return -ENETDOWN;
	rc = lnet_ni_init();
	if (rc)
		return rc;
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf) {
		lnet_ni_fini();
		return -ENOMEM;
	}
	memset(buf, 0xa5, len);
	rc = nidmap_send(&dest, match, buf, len, nidmap_inject_sent, &sent);
	if (!rc)
		wait_for_completion_state(&sent, TASK_IDLE);
	lnet_ni_fini();
	return rc;
}

static ssize_t nidmap_inject_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[128], nidstr[LNET_NIDSTR_SIZE], role[16];
	struct lnet_nid nid;
	unsigned int len;
	int rc;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%63s %15s %u", nidstr, role, &len) != 3 ||
	    !len || len > NIDMAP_INJECT_MAX ||
	    lnet_nid_from_str(nidstr, &nid))
		return -EINVAL;
	if (!strcmp(role, "publisher"))
		rc = nidmap_inject(&nid, NIDMAP_MB_PUBLISHER, len);
	else if (!strcmp(role, "subscriber"))
		rc = nidmap_inject(&nid, NIDMAP_MB_SUBSCRIBER, len);
	else
		rc = -EINVAL;
	return rc ?: count;
}

static const struct file_operations nidmap_inject_fops = {
	.owner	= THIS_MODULE,
	.write	= nidmap_inject_write,
	.llseek	= noop_llseek,
};

/**
 * nidmap_debugfs_init() - /sys/kernel/debug/nidmap/
 */
void nidmap_debugfs_init(void)
{
	nidmap_debugfs = debugfs_create_dir("nidmap", NULL);
	debugfs_create_file("inject", 0200, nidmap_debugfs, NULL,
			    &nidmap_inject_fops);
}

/**
 * nidmap_debugfs_fini() - remove it (writers finish first)
 */
void nidmap_debugfs_fini(void)
{
	debugfs_remove_recursive(nidmap_debugfs);
}
