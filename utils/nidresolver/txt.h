/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LNR_TXT_H
#define LNR_TXT_H

#include <stddef.h>

/* The longest TXT text taken (16 NIDs of 40 characters, with room). */
#define LNR_TXT_MAX	1024

int lnr_txt_nids(const unsigned char *rdata, size_t len, char *out,
		 size_t size);

#endif
