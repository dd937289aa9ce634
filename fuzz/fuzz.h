/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fuzz target shares: the entry point libFuzzer calls with
 * each input, and the check that turns a broken invariant into a crash
 * libFuzzer saves.
 */
#ifndef _FUZZ_FUZZ_H
#define _FUZZ_FUZZ_H

/*
 * A target's one function: run the code under test on @data, @size
 * bytes, and return 0.  It is libFuzzer's entry point under another
 * name (the Makefile links it with --defsym), kernel style.
 */
int fuzz_one_input(const u8 *data, size_t size);

/*
 * An invariant of the code under test: if it does not hold, say which
 * and abort, so that libFuzzer reports the input as a crash.
 */
#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n",	\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

/*
 * A copy of the input in a buffer of exactly @size bytes, so that ASan
 * reports a read past what was received, NUL-terminated past its end
 * when @nul (not part of the buffer the parser is told about).
 */
static inline u8 *fuzz_dup(const u8 *data, size_t size, bool nul)
{
	size_t n = size + nul;
	u8 *p = malloc(n ? n : 1);

	if (!p)
		abort();
	memcpy(p, data, size);
	if (nul)
		p[size] = '\0';
	return p;
}

#endif /* _FUZZ_FUZZ_H */
