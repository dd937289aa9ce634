// SPDX-License-Identifier: GPL-2.0
/*
 * lnet-nid-resolver: request-key's program for the kernel's "lnetnids:"
 * dns_resolver keys (nidmap's DNS backend, Documentation/nidmap.rst).
 *
 *	create dns_resolver lnetnids:* * /usr/sbin/lnet-nid-resolver %k
 *
 * It looks up the TXT records of the name after "lnetnids:", takes the
 * one that reads "v=lnet1 ... nids=<list> ...", and instantiates the key
 * with the list, for the record's TTL; or with "#dnserror=N" (ENODATA no
 * such record, EACCES an answer the resolver did not validate while the
 * kernel asked for "dnssec", EPROTO a malformed record, EAGAIN a
 * resolver failure), cached for LNR_NEGATIVE_TTL seconds.
 *
 *	lnet-nid-resolver -D [-o dnssec] lnetnids:<name>
 *
 * does the same lookup and prints what it would hand the kernel.
 */
#include <arpa/nameser.h>
#include <errno.h>
#include <keyutils.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "txt.h"

#define LNR_PREFIX		"lnetnids:"
#define LNR_NEGATIVE_TTL	30	/* seconds a failure is cached */
#define LNR_TTL_MIN		5
#define LNR_TTL_MAX		86400

struct lnr_answer {
	char		list[LNR_TXT_MAX + 1];
	unsigned int	ttl;
};

static int debug_mode;

static void lnr_log(const char *fmt, const char *a, int err)
{
	fprintf(stderr, fmt, a, strerror(err));
	fputc('\n', stderr);
	if (!debug_mode)
		syslog(LOG_WARNING, fmt, a, strerror(err));
}

/*
 * The lnet1 TXT record of @name: 0, or -errno.  @dnssec: the
 * answer must carry the AD bit (glibc keeps it only with RES_TRUSTAD:
 * the path to a validating resolver is trusted, as "options trust-ad").
 */
static int lnr_lookup(const char *name, int dnssec, struct lnr_answer *ans)
{
	unsigned char buf[NS_MAXMSG];
	int n, i, rc, bad = 0;
	ns_msg msg;
	ns_rr rr;

	if (res_init())
		return -EAGAIN;
	if (dnssec)
		_res.options |= RES_TRUSTAD;
	n = res_query(name, ns_c_in, ns_t_txt, buf, sizeof(buf));
	if (n < 0) {
		if (h_errno == HOST_NOT_FOUND || h_errno == NO_DATA)
			return -ENODATA;
		return -EAGAIN;
	}
	if (ns_initparse(buf, n, &msg))
		return -EPROTO;
	if (dnssec && !ns_msg_getflag(msg, ns_f_ad))
		return -EACCES;
	for (i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
		if (ns_parserr(&msg, ns_s_an, i, &rr))
			return -EPROTO;
		if (ns_rr_type(rr) != ns_t_txt)
			continue;
		rc = lnr_txt_nids(ns_rr_rdata(rr), ns_rr_rdlen(rr), ans->list,
				  sizeof(ans->list));
		if (rc == -ENOENT)
			continue;
		if (rc < 0) {
			bad = 1;
			continue;
		}
		ans->ttl = ns_rr_ttl(rr);
		if (ans->ttl < LNR_TTL_MIN)
			ans->ttl = LNR_TTL_MIN;
		if (ans->ttl > LNR_TTL_MAX)
			ans->ttl = LNR_TTL_MAX;
		return 0;
	}
	return bad ? -EPROTO : -ENODATA;
}

/* The name in a key description "dns_resolver;uid;gid;perm;lnetnids:N". */
static const char *lnr_name(const char *desc)
{
	const char *p = strrchr(desc, ';');

	p = p ? p + 1 : desc;
	if (strncmp(p, LNR_PREFIX, strlen(LNR_PREFIX)))
		return NULL;
	p += strlen(LNR_PREFIX);
	return *p ? p : NULL;
}

static int lnr_debug(int argc, char **argv)
{
	struct lnr_answer ans;
	const char *name;
	int dnssec = 0, rc;

	if (argc == 5 && !strcmp(argv[2], "-o")) {
		dnssec = !strcmp(argv[3], "dnssec");
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: lnet-nid-resolver -D [-o dnssec] lnetnids:<name>\n");
		return 2;
	}
	name = lnr_name(argv[2]);
	if (!name) {
		fprintf(stderr, "lnet-nid-resolver: '%s' is not lnetnids:<name>\n",
			argv[2]);
		return 2;
	}
	rc = lnr_lookup(name, dnssec, &ans);
	if (rc) {
		printf("#dnserror=%d\n", -rc);
		return 1;
	}
	printf("%s (ttl %u)\n", ans.list, ans.ttl);
	return 0;
}

int main(int argc, char **argv)
{
	char *desc = NULL, *callout = NULL, payload[LNR_TXT_MAX + 32];
	struct lnr_answer ans;
	const char *name;
	key_serial_t key;
	unsigned int ttl;
	int rc, dnssec;

	if (argc >= 2 && !strcmp(argv[1], "-D")) {
		debug_mode = 1;
		return lnr_debug(argc, argv);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: lnet-nid-resolver <key id> (run by request-key)\n");
		return 2;
	}
	openlog("lnet-nid-resolver", LOG_PID, LOG_DAEMON);
	key = strtol(argv[1], NULL, 10);
	if (keyctl_assume_authority(key) < 0 ||
	    keyctl_describe_alloc(key, &desc) < 0) {
		lnr_log("key %s: %s", argv[1], errno);
		return 1;
	}
	name = lnr_name(desc);
	if (!name) {
		lnr_log("key %s: not an lnetnids: key (%s)", desc, EINVAL);
		keyctl_negate(key, LNR_NEGATIVE_TTL, KEY_REQKEY_DEFL_DEFAULT);
		return 1;
	}
	/* The callout information: the kernel's options ("dnssec"). */
	if (keyctl_read_alloc(KEY_SPEC_REQKEY_AUTH_KEY, (void **)&callout) < 0)
		callout = NULL;
	dnssec = callout && strstr(callout, "dnssec");
	rc = lnr_lookup(name, dnssec, &ans);
	if (rc) {
		if (rc != -ENODATA)
			lnr_log("%s: %s", name, -rc);
		snprintf(payload, sizeof(payload), "#dnserror=%d", -rc);
		ttl = LNR_NEGATIVE_TTL;
	} else {
		snprintf(payload, sizeof(payload), "%s", ans.list);
		ttl = ans.ttl;
	}
	/* dns_resolver takes the text with its NUL. */
	if (keyctl_instantiate(key, payload, strlen(payload) + 1, 0) < 0) {
		lnr_log("%s: instantiate: %s", name, errno);
		return 1;
	}
	keyctl_set_timeout(key, ttl);
	free(callout);
	free(desc);
	return 0;
}
