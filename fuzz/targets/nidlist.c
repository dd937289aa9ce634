// SPDX-License-Identifier: GPL-2.0
/*
 * Target nidlist: NID-range lists (lnet/nidlist.c), as UDSP rules and
 * lnetctl give them: the input, NUL-terminated, parsed.
 *
 * Checks: a refused list gives -EINVAL and no list; an accepted one
 * prints a canonical form that parses to a list printing the same;
 * expanding it (up to 256 NIDs) and walking it give the same NIDs, each
 * of which the list matches and which the canonical list matches too;
 * nothing leaks (LeakSanitizer).
 */
#include <lnet/nidlist.h>

#include "../fuzz.h"

#define MAX_NIDS	256

struct walk {
	const struct lnet_nid	*nids;
	unsigned int		n;
};

static int walk_cb(const struct lnet_nid *nid, void *data)
{
	struct walk *w = data;

	FUZZ_CHECK(!memcmp(nid, &w->nids[w->n], sizeof(*nid)));
	w->n++;
	return 0;
}

static void check_nids(const struct lnet_nidlist *nl,
		       const struct lnet_nidlist *canon)
{
	static struct lnet_nid nids[MAX_NIDS];
	struct walk w = { nids, 0 };
	int n, i, rc;

	n = lnet_nidlist_expand(nl, nids, MAX_NIDS);
	rc = lnet_nidlist_for_each(nl, MAX_NIDS, walk_cb, &w);
	if (n == -E2BIG) {
		FUZZ_CHECK(rc == -E2BIG && !w.n);
		FUZZ_CHECK(lnet_nidlist_expand(canon, nids, MAX_NIDS) ==
			   -E2BIG);
		return;
	}
	FUZZ_CHECK(n >= 1 && n <= MAX_NIDS);
	FUZZ_CHECK(!rc && w.n == (unsigned int)n);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(lnet_nidlist_match(nl, &nids[i]));
		FUZZ_CHECK(lnet_nidlist_match(canon, &nids[i]));
	}
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct lnet_nidlist *nl = (void *)0x1, *canon = NULL;
	char buf[1024], buf2[1024];
	char *str;
	int n, rc;

	if (size > 512)
		return 0;
	str = (char *)fuzz_dup(data, size, true);
	rc = lnet_nidlist_parse(str, &nl);
	free(str);
	if (rc) {
		FUZZ_CHECK(rc == -EINVAL);
		return 0;
	}
	n = lnet_nidlist_to_str(nl, buf, sizeof(buf));
	FUZZ_CHECK(n > 0 && strlen(buf) == min_t(size_t, n, sizeof(buf) - 1));
	if (n < (int)sizeof(buf)) {
		FUZZ_CHECK(!lnet_nidlist_parse(buf, &canon));
		FUZZ_CHECK(lnet_nidlist_to_str(canon, buf2, sizeof(buf2)) == n);
		FUZZ_CHECK(!strcmp(buf, buf2));
		check_nids(nl, canon);
		lnet_nidlist_free(canon);
	}
	lnet_nidlist_free(nl);
	return 0;
}
