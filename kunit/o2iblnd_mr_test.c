// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the pure parts of ko2iblnd's memory registration pools
 * (lnd/o2ib/mr.c): which fragment lists one fast-registration MR can map,
 * building a scatterlist from an LNet page list, and the grow and trim
 * arithmetic.  No device is needed.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/bvec.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>

#include "../lnd/o2ib/mr.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define PG	PAGE_SIZE
#define BASE	(16 * PG)	/* a page-aligned DMA address */

/* Fill DMA address/length pairs, as ib_dma_map_sg() would. */
static void set_dma(struct scatterlist *sgl, const u64 (*seg)[2], int n)
{
	struct scatterlist *sg;
	int i;

	sg_init_table(sgl, n);
	for_each_sg(sgl, sg, n, i) {
		sg_dma_address(sg) = seg[i][0];
		sg_dma_len(sg) = seg[i][1];
	}
}

static void mr_sg_pages_ok(struct kunit *test)
{
	/* one whole page; a fragment inside one page; crossing a boundary */
	static const u64 one[][2] = { { BASE, PG } };
	static const u64 small[][2] = { { BASE + 100, 200 } };
	static const u64 cross[][2] = { { BASE + PG - 10, 20 } };
	/* first starts mid-page, last ends mid-page, interior whole pages */
	static const u64 lustre[][2] = {
		{ BASE + 512, PG - 512 }, { BASE + 4 * PG, PG },
		{ BASE + 9 * PG, PG }, { BASE + 2 * PG, 100 },
	};
	/* contiguous entries may meet mid-page (an IOMMU may merge) */
	static const u64 contig[][2] = { { BASE + 100, 100 }, { BASE + 200, PG } };
	struct scatterlist sgl[4];

	set_dma(sgl, one, 1);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 1, 257), 1);
	set_dma(sgl, small, 1);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 1, 257), 1);
	set_dma(sgl, cross, 1);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 1, 257), 2);
	set_dma(sgl, lustre, 4);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 4, 257), 4);
	set_dma(sgl, contig, 2);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 2, 257), 2);
}

static void mr_sg_pages_bad(struct kunit *test)
{
	/* interior entry ends mid-page, next starts elsewhere */
	static const u64 gap_end[][2] = { { BASE, 100 }, { BASE + 4 * PG, PG } };
	/* later entry starts mid-page */
	static const u64 gap_start[][2] = { { BASE, PG }, { BASE + 4 * PG + 8, 8 } };
	static const u64 empty[][2] = { { BASE, PG }, { BASE + PG, 0 } };
	struct scatterlist sgl[2];

	set_dma(sgl, gap_end, 2);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 2, 257), -EINVAL);
	set_dma(sgl, gap_start, 2);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 2, 257), -EINVAL);
	set_dma(sgl, empty, 2);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 2, 257), -EINVAL);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 0, 257), -EINVAL);
}

/* 1 MiB not page aligned spans 257 pages: IBLND_MAX_RDMA_FRAGS. */
static void mr_sg_pages_limit(struct kunit *test)
{
	static const u64 mib[][2] = { { BASE + 1, 256 * PG } };
	static const u64 two[][2] = { { BASE, 256 * PG }, { BASE + 300 * PG, PG } };
	struct scatterlist sgl[2];

	set_dma(sgl, mib, 1);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 1, 257), 257);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 1, 256), -E2BIG);
	set_dma(sgl, two, 2);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 2, 257), 257);
	KUNIT_EXPECT_EQ(test, kib_mr_sg_pages(sgl, 2, 128), -E2BIG);
}

struct kiov_fixture {
	struct page	*pages[4];
	struct bio_vec	kiov[4];
	struct scatterlist sgl[4];
};

static struct kiov_fixture *kiov_setup(struct kunit *test)
{
	struct kiov_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	for (i = 0; i < 4; i++) {
		f->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, f->pages[i]);
		/* a typical LNet kiov: whole pages */
		bvec_set_page(&f->kiov[i], f->pages[i], PG, 0);
	}
	return f;
}

static void kiov_teardown(struct kiov_fixture *f)
{
	int i;

	for (i = 0; i < 4; i++)
		__free_page(f->pages[i]);
}

static void mr_kiov_to_sg(struct kunit *test)
{
	struct kiov_fixture *f = kiov_setup(test);
	struct scatterlist *sg;

	/* the middle of the list: starts mid-page, ends mid-page */
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, PG + 100,
						2 * PG, f->sgl, 4), 3);
	sg = f->sgl;
	KUNIT_EXPECT_PTR_EQ(test, sg_page(sg), f->pages[1]);
	KUNIT_EXPECT_EQ(test, sg->offset, 100u);
	KUNIT_EXPECT_EQ(test, sg->length, (unsigned int)PG - 100);
	sg = sg_next(sg);
	KUNIT_EXPECT_PTR_EQ(test, sg_page(sg), f->pages[2]);
	KUNIT_EXPECT_EQ(test, sg->offset, 0u);
	KUNIT_EXPECT_EQ(test, sg->length, (unsigned int)PG);
	sg = sg_next(sg);
	KUNIT_EXPECT_PTR_EQ(test, sg_page(sg), f->pages[3]);
	KUNIT_EXPECT_EQ(test, sg->length, 100u);
	KUNIT_EXPECT_TRUE(test, sg_is_last(sg));

	/* all of it; then too few entries for all of it */
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, 0, 4 * PG,
						f->sgl, 4), 4);
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, 0, 4 * PG,
						f->sgl, 3), -E2BIG);
	/* nothing; past the end */
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, 0, 0,
						f->sgl, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, PG, 3 * PG + 1,
						f->sgl, 4), -EINVAL);
	kiov_teardown(f);
}

static void mr_kiov_to_sg_gap(struct kunit *test)
{
	struct kiov_fixture *f = kiov_setup(test);

	/* an interior fragment that is not a whole page */
	bvec_set_page(&f->kiov[1], f->pages[1], 512, 0);
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, 0, 3 * PG,
						f->sgl, 4), -EINVAL);
	/* ... is fine as the last one */
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, 0, PG + 512,
						f->sgl, 4), 2);
	/* an interior fragment starting mid-page */
	bvec_set_page(&f->kiov[1], f->pages[1], PG - 8, 8);
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, 0, 2 * PG,
						f->sgl, 4), -EINVAL);
	/* ... is fine as the first one */
	KUNIT_EXPECT_EQ(test, kib_mr_kiov_to_sg(f->kiov, 4, PG, PG,
						f->sgl, 4), 2);
	kiov_teardown(f);
}

static void mr_grow_count(struct kunit *test)
{
	struct kib_mr_pool_params p = { .pool_size = 512, .flush_trigger = 384 };

	/* defaults: grow a chunk once fewer than 128 are free */
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 128, &p), 0u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 127, &p), 512u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 0, &p), 512u);
	/* capped by max_mrs */
	p.max_mrs = 800;
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 0, &p), 288u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(800, 0, &p), 0u);
	/* trigger at or above the chunk: only when exhausted */
	p.max_mrs = 0;
	p.flush_trigger = 512;
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 1, &p), 0u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 0, &p), 512u);
	/* zeroes take the defaults */
	p.pool_size = 0;
	p.flush_trigger = 0;
	KUNIT_EXPECT_EQ(test, kib_mr_pool_grow_count(512, 511, &p), 512u);
}

static void mr_trim_count(struct kunit *test)
{
	/* never below one chunk */
	KUNIT_EXPECT_EQ(test, kib_mr_pool_trim_count(512, 0, 512), 0u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_trim_count(1536, 0, 512), 1024u);
	/* keep what the period needed, in whole chunks */
	KUNIT_EXPECT_EQ(test, kib_mr_pool_trim_count(1536, 513, 512), 512u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_trim_count(1536, 1025, 512), 0u);
	/* after retirements the total is not a multiple of the chunk */
	KUNIT_EXPECT_EQ(test, kib_mr_pool_trim_count(1530, 10, 512), 1018u);
	KUNIT_EXPECT_EQ(test, kib_mr_pool_trim_count(1536, 0, 0), 1024u);
}

static struct kunit_case o2iblnd_mr_cases[] = {
	KUNIT_CASE(mr_sg_pages_ok),
	KUNIT_CASE(mr_sg_pages_bad),
	KUNIT_CASE(mr_sg_pages_limit),
	KUNIT_CASE(mr_kiov_to_sg),
	KUNIT_CASE(mr_kiov_to_sg_gap),
	KUNIT_CASE(mr_grow_count),
	KUNIT_CASE(mr_trim_count),
	{}
};

static struct kunit_suite o2iblnd_mr_suite = {
	.name = "o2iblnd_mr",
	.test_cases = o2iblnd_mr_cases,
};

kunit_test_suite(o2iblnd_mr_suite);

MODULE_DESCRIPTION("KUnit tests for ko2iblnd memory registration pools");
MODULE_LICENSE("GPL");
