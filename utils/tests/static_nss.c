// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the static copies of the tools the VM tests run
 * (build/utils/static/, see utils/Makefile).  libnl's nl_str2ip_proto(),
 * nl_ip_proto2str() and nl_addr_info() name getprotobyname(),
 * getprotobynumber() and getaddrinfo(), which a static glibc can only
 * serve by loading NSS modules at run time (and says so at link time).
 * Our tools never call those libnl functions; these definitions keep
 * glibc's out of the link, and any call finds nothing, as on a host
 * without /etc/protocols and without a resolver.
 */
#include <stddef.h>
#include <netdb.h>

struct protoent *getprotobyname(const char *name)
{
	(void)name;
	return NULL;
}

struct protoent *getprotobynumber(int proto)
{
	(void)proto;
	return NULL;
}

int getaddrinfo(const char *node, const char *service,
		const struct addrinfo *hints, struct addrinfo **res)
{
	(void)node;
	(void)service;
	(void)hints;
	*res = NULL;
	return EAI_FAIL;
}

void freeaddrinfo(struct addrinfo *res)
{
	(void)res;
}
