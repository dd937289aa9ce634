/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NID range expressions (nidrange.c), shared by lnetctl and the host
 * test nid_grammar.
 */
#ifndef _LNETCTL_NIDRANGE_H
#define _LNETCTL_NIDRANGE_H

#include <lnet/nid.h>
#include <uapi/lnet/lnet_genl.h>

int nid_list_expand(const char *list, char (*out)[LNET_GENL_NID_LEN],
		    unsigned int max);

#endif
