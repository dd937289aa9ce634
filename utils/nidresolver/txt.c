// SPDX-License-Identifier: GPL-2.0
/*
 * lnet-nid-resolver's parser of a TXT record's data: pure, so that the
 * fuzz harness runs it as it is (fuzz/).
 */
#include <errno.h>
#include <string.h>

#include "txt.h"

/* Characters a NID list may hold: NIDs (IPv4, IPv6, numbers), commas. */
static int nid_list_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == ':' || c == '@' ||
	       c == ',' || c == '-' || c == '_' || c == '[' || c == ']';
}

/**
 * lnr_txt_nids() - the NID list of an "lnet1" TXT record
 * @rdata: the record's data: character strings, each a length byte and
 *	that many bytes, joined as one text (RFC 7208 3.3)
 * @len: its length
 * @out: the list after "nids=", NUL-terminated
 * @size: @out's size
 *
 * The text is "v=lnet1" and then space-separated "key=value" fields,
 * of which "nids=" is the one read; others are skipped (later versions
 * may add fields).
 *
 * Return: the list's length; -ENOENT not an lnet1 record (another TXT
 * record at the same name); -EPROTO malformed (truncated strings, no
 * "nids=", a character no NID list holds, too long).
 */
int lnr_txt_nids(const unsigned char *rdata, size_t len, char *out,
		 size_t size)
{
	char text[LNR_TXT_MAX + 1];
	size_t i = 0, n = 0, k;
	const char *p, *end;

	while (i < len) {
		k = rdata[i++];
		if (k > len - i || n + k > LNR_TXT_MAX)
			return -EPROTO;
		memcpy(text + n, rdata + i, k);
		n += k;
		i += k;
	}
	text[n] = '\0';
	if (memchr(text, '\0', n))
		return -EPROTO;
	if (strncmp(text, "v=lnet1", 7) || (text[7] && text[7] != ' '))
		return -ENOENT;
	for (p = text + 7; *p; p = end) {
		while (*p == ' ')
			p++;
		end = strchr(p, ' ');
		if (!end)
			end = p + strlen(p);
		if (strncmp(p, "nids=", 5))
			continue;
		p += 5;
		k = end - p;
		if (!k || k >= size)
			return -EPROTO;
		for (i = 0; i < k; i++)
			if (!nid_list_char(p[i]))
				return -EPROTO;
		memcpy(out, p, k);
		out[k] = '\0';
		return (int)k;
	}
	return -EPROTO;
}
