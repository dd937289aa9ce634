// SPDX-License-Identifier: GPL-2.0
/*
 * Target nidmap_dns: a DNS answer's way into a table record, as the DNS
 * backend takes it: the TXT record's data (character strings) read by
 * lnet-nid-resolver (utils/nidresolver/txt.c, user space), and the NID
 * list it passes on parsed by the kernel (nidmap_dns_parse(),
 * nidmap/wire.c).  The input is the record's data; with the first byte
 * 0xff, the rest is given to the kernel's parser directly (a list the
 * helper would have passed on or not).
 *
 * Checks: the helper returns a documented error or a NUL-terminated list
 * of NID characters within its buffer; the kernel returns -EPROTO or a
 * record named as asked with 1 to NIDMAP_NIDS_MAX distinct NIDs, each one
 * a table entry may hold; the NIDs written back as a list parse to the
 * same record.
 */
#include "../nidmap/nidmap.h"
#include "../utils/nidresolver/txt.h"

#include "../fuzz.h"

static void check_list(const char *list, size_t len)
{
	static struct nidmap_rec rec, again;
	char out[NIDMAP_NIDS_MAX * (LNET_NIDSTR_SIZE + 1)];
	unsigned int i, k;
	int rc, n = 0;

	rc = nidmap_dns_parse(list, len, "oss0", &rec);
	if (rc) {
		FUZZ_CHECK(rc == -EPROTO);
		return;
	}
	FUZZ_CHECK(!strcmp(rec.name, "oss0") && !rec.version);
	FUZZ_CHECK(rec.nnids >= 1 && rec.nnids <= NIDMAP_NIDS_MAX);
	for (i = 0; i < rec.nnids; i++) {
		FUZZ_CHECK(!nidmap_nid_check(&rec.nids[i]));
		for (k = 0; k < i; k++)
			FUZZ_CHECK(!lnet_nid_equal(&rec.nids[k], &rec.nids[i]));
		n += lnet_nid_to_str(&rec.nids[i], out + n, LNET_NIDSTR_SIZE);
		out[n++] = ',';
	}
	rc = nidmap_dns_parse(out, n, "oss0", &again);
	FUZZ_CHECK(!rc && again.nnids == rec.nnids);
	for (i = 0; i < rec.nnids; i++)
		FUZZ_CHECK(lnet_nid_equal(&rec.nids[i], &again.nids[i]));
}

int fuzz_one_input(const u8 *data, size_t size)
{
	char list[LNR_TXT_MAX + 1];
	u8 *buf;
	int rc;

	if (size > 4 * LNR_TXT_MAX)
		return 0;
	buf = fuzz_dup(data, size, false);
	if (size && data[0] == 0xff) {
		check_list((const char *)buf + 1, size - 1);
		free(buf);
		return 0;
	}
	memset(list, 'X', sizeof(list));
	rc = lnr_txt_nids(buf, size, list, sizeof(list));
	if (rc < 0) {
		FUZZ_CHECK(rc == -ENOENT || rc == -EPROTO);
	} else {
		FUZZ_CHECK(rc > 0 && rc < (int)sizeof(list) &&
			   strlen(list) == (size_t)rc);
		check_list(list, rc);
	}
	free(buf);
	return 0;
}
