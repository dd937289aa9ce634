// SPDX-License-Identifier: GPL-2.0
/*
 * Target udsp: UDSP rules (lnet/udsp.c), as "lnetctl udsp add|del|show"
 * reach them over netlink: a sequence of operations on the rule list of
 * a running LNet.  The input is records, each a length byte and that
 * many bytes: the operation (add, del, show, or asking the rules for a
 * priority), an index, a flag byte (bit 0: a priority is given), the
 * priority (u32 LE), then the --src, --dst and --rte texts separated by
 * NUL bytes (a missing one is absent).
 *
 * Checks: every refusal has an error message and changes nothing; the
 * rule count stays the list's length, at most LNET_UDSP_MAX; a rule
 * added is shown with terms that, added again, replace it rather than
 * make a second (for every rule, after each add); asking the rules for
 * the priority of a NID or net the text names answers; at the end "LNet
 * stops" (lnet_udsp_destroy()) and nothing leaks.
 */
#include <lnet/lib-lnet.h>
#include <lnet/nidlist.h>
#include <lnet/udsp.h>

#include "../fuzz.h"

struct lnet the_lnet;

static unsigned int rules_len(void)
{
	struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, &the_lnet.ln_udsp)
		n++;
	return n;
}

static void check_add(const char *const text[LNET_UDSP_TERMS], bool has_prio,
		      u32 prio, int idx)
{
	struct netlink_ext_ack extack = {};
	unsigned int before = the_lnet.ln_udsp_count;
	u32 gen = the_lnet.ln_udsp_gen;
	const char *canon[LNET_UDSP_TERMS];
	struct lnet_udsp_info info;
	unsigned int i, t;
	int rc;

	rc = lnet_udsp_add(text, has_prio, prio, idx, &extack);
	FUZZ_CHECK(the_lnet.ln_udsp_count == rules_len());
	FUZZ_CHECK(the_lnet.ln_udsp_count <= LNET_UDSP_MAX);
	if (rc) {
		FUZZ_CHECK(rc == -EINVAL || rc == -EOPNOTSUPP ||
			   rc == -ENOSPC || rc == -E2BIG);
		FUZZ_CHECK(extack._msg);
		FUZZ_CHECK(the_lnet.ln_udsp_count == before &&
			   the_lnet.ln_udsp_gen == gen);
		return;
	}
	FUZZ_CHECK(the_lnet.ln_udsp_gen != gen);
	FUZZ_CHECK(the_lnet.ln_udsp_count == before ||
		   the_lnet.ln_udsp_count == before + 1);
	/* Every rule's terms, as shown, are that rule's: adding replaces. */
	before = the_lnet.ln_udsp_count;
	for (i = 0; !lnet_udsp_info_get(i, &info); i++) {
		for (t = 0; t < LNET_UDSP_TERMS; t++)
			canon[t] = info.text[t];
		FUZZ_CHECK(!lnet_udsp_add(canon,
					  info.prio != LNET_UDSP_PRIO_NONE,
					  info.prio, -1, &extack));
		FUZZ_CHECK(the_lnet.ln_udsp_count == before);
	}
	FUZZ_CHECK(i == before);
}

static void check_find(const char *str)
{
	struct lnet_nid nid;
	u32 net, prio;

	if (!lnet_nid_from_str(str, &nid)) {
		prio = lnet_udsp_prio_find(&the_lnet.ln_udsp, LNET_UDSP_SRC,
					   false, &nid, lnet_nid_net(&nid));
		FUZZ_CHECK(prio <= LNET_UDSP_PRIO_NONE);
		lnet_udsp_pair_find(&the_lnet.ln_udsp, &nid, &nid);
	}
	if (!lnet_net_from_str(str, &net)) {
		prio = lnet_udsp_prio_find(&the_lnet.ln_udsp, LNET_UDSP_DST,
					   true, NULL, net);
		FUZZ_CHECK(prio <= LNET_UDSP_PRIO_NONE);
	}
}

static void run_record(const u8 *rec, size_t len)
{
	char buf[256], *text[LNET_UDSP_TERMS] = { "", "", "" };
	struct netlink_ext_ack extack = {};
	struct lnet_udsp_info info;
	unsigned int before, i;
	char *p, *end;
	u32 prio;
	int idx;

	if (len < 7)
		return;
	idx = (s8)rec[1];
	prio = get_unaligned_le32(rec + 3);
	memcpy(buf, rec + 7, len - 7);
	buf[len - 7] = '\0';
	end = buf + len - 7;
	for (p = buf, i = 0; i < LNET_UDSP_TERMS && p <= end; i++) {
		text[i] = p;
		p += strlen(p) + 1;
	}

	switch (rec[0] & 3) {
	case 0:
		check_add((const char *const *)text, rec[2] & 1, prio, idx);
		break;
	case 1:
		before = the_lnet.ln_udsp_count;
		if (lnet_udsp_del(idx, &extack)) {
			FUZZ_CHECK(idx >= 0 && (unsigned int)idx >= before);
			FUZZ_CHECK(extack._msg);
			FUZZ_CHECK(the_lnet.ln_udsp_count == before);
		} else {
			FUZZ_CHECK(the_lnet.ln_udsp_count ==
				   (idx < 0 ? 0 : before - 1));
		}
		FUZZ_CHECK(the_lnet.ln_udsp_count == rules_len());
		break;
	case 2:
		FUZZ_CHECK(!lnet_udsp_info_get((u8)idx, &info) ==
			   ((u8)idx < the_lnet.ln_udsp_count));
		break;
	case 3:
		check_find(text[0]);
		break;
	}
}

int fuzz_one_input(const u8 *data, size_t size)
{
	size_t off = 0;

	INIT_LIST_HEAD(&the_lnet.ln_udsp);
	the_lnet.ln_udsp_count = 0;
	the_lnet.ln_state = LNET_STATE_RUNNING;
	while (off < size) {
		size_t len = min_t(size_t, data[off], size - off - 1);

		run_record(data + off + 1, len);
		off += 1 + len;
	}
	lnet_udsp_destroy();
	FUZZ_CHECK(list_empty(&the_lnet.ln_udsp) && !the_lnet.ln_udsp_count);
	return 0;
}
