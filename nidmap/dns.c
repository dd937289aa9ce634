// SPDX-License-Identifier: GPL-2.0
/*
 * The DNS backend: a target's NIDs from a TXT record, when this node
 * neither subscribes nor publishes a table or the table has no such
 * target (Documentation/nidmap.rst, "DNS backend").
 *
 * The record is TXT at "<target>.<dns_domain>" and reads
 * "v=lnet1 nids=<nid>,<nid>,..." (failover order).  The kernel's
 * dns_resolver asks user space (request-key, then lnet-nid-resolver(8)
 * for descriptions "lnetnids:*") and caches the answer as a key for the
 * record's TTL; the helper hands back the list after "nids=" or
 * "#dnserror=N".  Only the list is parsed here: the helper is local, but
 * what it passes on came from the network, so it is checked as strictly
 * as a registration.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/dns_resolver.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <net/net_namespace.h>

#include <kunit/visibility.h>

#include <lnet/ctl.h>

#include "node.h"

/* A domain name's longest text form (RFC 1035), with the NUL. */
#define NIDMAP_DNS_DOMAIN_MAX	254

/* Under kernel_param_lock(THIS_MODULE): the parameter may be written. */
static char nidmap_dns_domain[NIDMAP_DNS_DOMAIN_MAX];

/*
 * A target name that makes a DNS name as it is: labels of letters,
 * digits, '-' and '_' (as in SRV names), separated by single dots.
 */
static bool nidmap_dns_name_ok(const char *name)
{
	const char *p;

	if (!name[0] || name[0] == '.')
		return false;
	for (p = name; *p; p++) {
		if (*p == '.' ? p[1] == '.' || !p[1] :
		    !isalnum(*p) && *p != '-' && *p != '_')
			return false;
	}
	return true;
}

/* dns_domain: a DNS name ("" turns lookups off); one trailing '.' or
 * newline (echo) dropped.
 */
static int nidmap_dns_domain_set(const char *val, const struct kernel_param *kp)
{
	char buf[NIDMAP_DNS_DOMAIN_MAX];
	size_t n = strcspn(val, "\n");

	if (n && val[n - 1] == '.')
		n--;
	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, n);
	buf[n] = '\0';
	if (n && !nidmap_dns_name_ok(buf))
		return -EINVAL;
	strscpy(nidmap_dns_domain, buf, sizeof(nidmap_dns_domain));
	return 0;
}

static int nidmap_dns_domain_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", nidmap_dns_domain);
}

static const struct kernel_param_ops nidmap_dns_domain_ops = {
	.set	= nidmap_dns_domain_set,
	.get	= nidmap_dns_domain_get,
};
module_param_cb(dns_domain, &nidmap_dns_domain_ops, NULL, 0644);
MODULE_PARM_DESC(dns_domain,
		 "look targets up in DNS as TXT records under this domain when the table has no entry (empty: no DNS lookups)");

static bool nidmap_dns_dnssec = true;
module_param_named(dns_dnssec, nidmap_dns_dnssec, bool, 0644);
MODULE_PARM_DESC(dns_dnssec,
		 "take only answers the resolver validated (DNSSEC, AD bit); 0: any answer");

/* DNS counters (debugfs nidmap/dns); the parser is wire.c's. */
static atomic_t nidmap_dns_lookups, nidmap_dns_found, nidmap_dns_missing,
		nidmap_dns_refused, nidmap_dns_failed, nidmap_dns_bad;

/**
 * nidmap_dns_resolve() - a target's NIDs from DNS
 * @name: the target (a valid target name)
 * @rec: its record (version 0)
 *
 * Context: process context; may wait for the upcall (the kernel's
 * dns_resolver bounds it) or use the cached answer.
 * Return: 0; -ENODEV no DNS backend; -ENOENT no such record (or a name
 * that is no DNS name: letters, digits, '-', '_', single dots); -EACCES an
 * answer that was not validated while dns_dnssec is on; -EPROTO a
 * malformed record; another -errno from the lookup.
 */
int nidmap_dns_resolve(const char *name, struct nidmap_rec *rec)
{
	char domain[NIDMAP_DNS_DOMAIN_MAX], *qname, *result = NULL;
	int rc;

	/* Copied whole: a write to the parameter may be under way. */
	kernel_param_lock(THIS_MODULE);
	strscpy(domain, nidmap_dns_domain, sizeof(domain));
	kernel_param_unlock(THIS_MODULE);
	if (!domain[0])
		return -ENODEV;
	if (!nidmap_dns_name_ok(name))
		return -ENOENT;
	qname = kasprintf(GFP_KERNEL, "%s.%s", name, domain);
	if (!qname)
		return -ENOMEM;
	atomic_inc(&nidmap_dns_lookups);
	rc = dns_query(&init_net, "lnetnids", qname, strlen(qname),
		       nidmap_dns_dnssec ? "dnssec" : NULL, &result, NULL,
		       false);
	kfree(qname);
	if (rc >= 0) {
		rc = nidmap_dns_parse(result, rc, name, rec);
		kfree(result);
		atomic_inc(rc ? &nidmap_dns_bad : &nidmap_dns_found);
		return rc;
	}
	if (rc == -ENODATA || rc == -ENOENT) {
		atomic_inc(&nidmap_dns_missing);
		return -ENOENT;
	}
	if (rc == -EACCES || rc == -EPROTO) {
		/* Refused unvalidated, or malformed, by the helper. */
		atomic_inc(rc == -EACCES ? &nidmap_dns_refused : &nidmap_dns_bad);
		return rc;
	}
	atomic_inc(&nidmap_dns_failed);
	pr_warn_ratelimited("nidmap: DNS lookup of %s failed: %d (is lnet-nid-resolver(8) set up for request-key?)\n",
			    name, rc);
	return rc;
}

/* The DNS backend's settings and counters, one "name value" per line. */
static int nidmap_dns_show(char *buf, size_t size)
{
	int n;

	kernel_param_lock(THIS_MODULE);
	n = scnprintf(buf, size, "domain %s\n",
		      nidmap_dns_domain[0] ? nidmap_dns_domain : "-");
	kernel_param_unlock(THIS_MODULE);
	return n + scnprintf(buf + n, size - n,
			 "dnssec %d\nlookups %d\nfound %d\nmissing %d\nrefused %d\nfailed %d\nmalformed %d\n",
			 nidmap_dns_dnssec, atomic_read(&nidmap_dns_lookups),
			 atomic_read(&nidmap_dns_found),
			 atomic_read(&nidmap_dns_missing),
			 atomic_read(&nidmap_dns_refused),
			 atomic_read(&nidmap_dns_failed),
			 atomic_read(&nidmap_dns_bad));
}

static ssize_t nidmap_dns_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[256];

	return simple_read_from_buffer(ubuf, count, ppos, buf,
				       nidmap_dns_show(buf, sizeof(buf)));
}

/* debugfs nidmap/dns (debugfs.c). */
const struct file_operations nidmap_dns_fops = {
	.owner	= THIS_MODULE,
	.read	= nidmap_dns_read,
	.llseek	= default_llseek,
};
