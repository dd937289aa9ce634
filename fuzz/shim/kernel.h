/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel, as far as the wire parsers need it, for their user-space
 * build under libFuzzer (see Documentation/testing.rst, "Fuzzing").
 *
 * Every fuzz target is compiled with -D__KERNEL__ and "-include" of this
 * file, and the kernel headers our sources include (<linux/slab.h>,
 * <asm/unaligned.h>, ...) resolve to empty files the Makefile generates:
 * what they would declare is here.  Names that user space also has
 * (<linux/errno.h>, <linux/types.h>, <asm/byteorder.h>) are the system's
 * uapi headers, which glibc includes too.  The parser sources themselves
 * are compiled unchanged.
 *
 * What is here is plain C with the kernel's semantics.  Locks are no-ops
 * (a target is single-threaded); allocation is malloc(), so that ASan
 * sees every overflow and LeakSanitizer every leak.  Three things stand
 * in for kernel code, not the same code: in6_pton() is glibc's
 * inet_pton(), "%pI6c" is glibc's inet_ntop() (both are RFC 5952 but may
 * print an IPv4-compatible address differently), and the hashes abort if
 * called, as no target should need them.
 */
#ifndef _FUZZ_SHIM_KERNEL_H
#define _FUZZ_SHIM_KERNEL_H

#include <arpa/inet.h>
#include <assert.h>
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

/* Types. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
typedef s64 time64_t;
typedef s64 ktime_t;
typedef unsigned int gfp_t;

#define U8_MAX		UINT8_MAX
#define U16_MAX		UINT16_MAX
#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX
#define S32_MAX		INT32_MAX

/* Compiler attributes. */
#define __packed		__attribute__((__packed__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __must_check		__attribute__((__warn_unused_result__))
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define __rcu
#define __force
#define __user
#define __iomem
#define fallthrough		__attribute__((__fallthrough__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

/* Kconfig: KUnit's visibility, so the targets reach what KUnit reaches. */
#define CONFIG_KUNIT		1
#define __ARG_PLACEHOLDER_1	0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)		___is_defined(x)
#define ___is_defined(val)	____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)	__is_defined(option)
#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_IF_KUNIT(sym)

/* Arithmetic. */
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((typeof(x))(a) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline size_t shim_struct_size(size_t base, size_t elem, size_t n)
{
	size_t bytes;

	if (__builtin_mul_overflow(elem, n, &bytes) ||
	    __builtin_add_overflow(bytes, base, &bytes))
		return SIZE_MAX;
	return bytes;
}

#define struct_size(p, member, n) \
	shim_struct_size(sizeof(*(p)), sizeof(*(p)->member), n)
#define array_size(a, b)	shim_struct_size(0, a, b)

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

/* Byte order. */
#define swab16(x)		__builtin_bswap16(x)
#define swab32(x)		__builtin_bswap32(x)
#define swab64(x)		__builtin_bswap64(x)
#define cpu_to_le16(x)		((__force __le16)htole16(x))
#define cpu_to_le32(x)		((__force __le32)htole32(x))
#define cpu_to_le64(x)		((__force __le64)htole64(x))
#define le16_to_cpu(x)		le16toh((__force u16)(x))
#define le32_to_cpu(x)		le32toh((__force u32)(x))
#define le64_to_cpu(x)		le64toh((__force u64)(x))
#define cpu_to_be16(x)		((__force __be16)htobe16(x))
#define cpu_to_be32(x)		((__force __be32)htobe32(x))
#define cpu_to_be64(x)		((__force __be64)htobe64(x))
#define be16_to_cpu(x)		be16toh((__force u16)(x))
#define be32_to_cpu(x)		be32toh((__force u32)(x))
#define be64_to_cpu(x)		be64toh((__force u64)(x))

/* Unaligned access, by memcpy as the kernel's generic version. */
#define get_unaligned(p) ({					\
	typeof(*(p)) __v;					\
	memcpy(&__v, (p), sizeof(__v));				\
	__v; })
#define put_unaligned(v, p) do {				\
	typeof(*(p)) __v = (v);					\
	memcpy((p), &__v, sizeof(__v));				\
} while (0)

static inline u16 get_unaligned_le16(const void *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline u64 get_unaligned_be64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

/* Diagnostics: a WARN or BUG in a parser is a finding. */
#define BUG()			abort()
#define BUG_ON(c)		do { if (c) abort(); } while (0)
#define WARN_ON(c)		({ bool __c = !!(c); if (__c) abort(); __c; })
#define WARN_ON_ONCE(c)		WARN_ON(c)
#define WARN(c, ...)		WARN_ON(c)
#define WARN_ONCE(c, ...)	WARN_ON(c)
#define pr_err(...)		((void)0)
#define pr_warn(...)		((void)0)
#define pr_info(...)		((void)0)
#define pr_debug(...)		((void)0)
#define pr_warn_ratelimited(...) ((void)0)
#define pr_err_ratelimited(...)	((void)0)

/* Memory: malloc, so that ASan and LeakSanitizer see it. */
#define GFP_KERNEL		0U
#define GFP_NOFS		0U
#define GFP_ATOMIC		0U
#define __GFP_NOWARN		0U

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline char *kmemdup_nul(const char *s, size_t len, gfp_t gfp)
{
	char *p = kmalloc(len + 1, gfp);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

#define kfree(p)		free((void *)(p))
#define kvmalloc(s, g)		kmalloc(s, g)
#define kvzalloc(s, g)		kzalloc(s, g)
#define kvfree(p)		free((void *)(p))

/* Error pointers. */
#define MAX_ERRNO		4095
static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}

/* Strings. */
static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return len;
}

#undef isascii
#define isascii(c)		((unsigned char)(c) < 0x80)
#define shim_ctype(f, c)	f((unsigned char)(c))
#undef isdigit
#undef isspace
#undef isxdigit
#undef isalpha
#undef isalnum
#define isdigit(c)		shim_ctype((isdigit), c)
#define isspace(c)		shim_ctype((isspace), c)
#define isxdigit(c)		shim_ctype((isxdigit), c)
#define isalpha(c)		shim_ctype((isalpha), c)
#define isalnum(c)		shim_ctype((isalnum), c)

/*
 * The kernel's printf but for its pointer extensions: of those, "%pI4"
 * and "%pI6c" alone, as the whole format (what nidstr.c uses).  Any other
 * "%p" aborts, so that a new use is not silently printed wrong.
 */
static inline int shim_vsnprintf(char *buf, size_t size, const char *fmt,
				 va_list ap)
{
	char tmp[INET6_ADDRSTRLEN];
	const void *addr;

	if (!strstr(fmt, "%p"))
		return vsnprintf(buf, size, fmt, ap);
	addr = va_arg(ap, const void *);
	if (!strcmp(fmt, "%pI4"))
		inet_ntop(AF_INET, addr, tmp, sizeof(tmp));
	else if (!strcmp(fmt, "%pI6c"))
		inet_ntop(AF_INET6, addr, tmp, sizeof(tmp));
	else
		abort();
	return snprintf(buf, size, "%s", tmp);
}

static inline __printf(3, 4) int shim_snprintf(char *buf, size_t size,
					       const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = shim_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

#define snprintf		shim_snprintf
#define vsnprintf		shim_vsnprintf

/* in6_pton(): glibc's parser, on exactly @srclen bytes (delim -1 only). */
static inline int in6_pton(const char *src, int srclen, u8 *dst, int delim,
			   const char **end)
{
	char buf[INET6_ADDRSTRLEN + 1];

	if (delim != -1)
		abort();
	if (srclen < 0)
		srclen = strlen(src);
	if ((size_t)srclen >= sizeof(buf))
		return 0;
	memcpy(buf, src, srclen);
	buf[srclen] = '\0';
	if (inet_pton(AF_INET6, buf, dst) != 1)
		return 0;
	*end = src + srclen;
	return 1;
}

/* Hashes: no target needs them. */
static inline u32 jhash(const void *key, u32 length, u32 initval)
{
	(void)key, (void)length, (void)initval;
	abort();
}

static inline u32 jhash_1word(u32 a, u32 initval)
{
	(void)a, (void)initval;
	abort();
}

/* Lists: the kernel's doubly linked list, same semantics. */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_add(struct list_head *entry, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	prev->next = entry;
}

static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__list_add(entry, head, head->next);
}

static inline void list_add_tail(struct list_head *entry,
				 struct list_head *head)
{
	__list_add(entry, head->prev, head);
}

static inline void __list_del_entry(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
}

static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = NULL;
	entry->prev = NULL;
}

static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add(entry, head);
}

static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

static inline void list_replace(struct list_head *old, struct list_head *entry)
{
	entry->next = old->next;
	entry->next->prev = entry;
	entry->prev = old->prev;
	entry->prev->next = entry;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (list_empty(list))
		return;
	list->next->prev = head;
	list->prev->next = head->next;
	head->next->prev = list->prev;
	head->next = list->next;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, typeof(*(pos)), member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, typeof(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, typeof(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

/*
 * What the LNet core's structures embed (include/lnet/lib-types.h): the
 * parsers never use them, so they are placeholders of the right kind.
 */
typedef struct { int locked; } spinlock_t;
typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
typedef struct { atomic_t refs; } refcount_t;
typedef struct { int head; } wait_queue_head_t;
struct mutex { int locked; };
struct rhash_head { struct rhash_head *next; };
struct rhashtable_params { u16 key_offset; };
struct rhashtable { struct rhashtable_params p; };
struct rhashtable_compare_arg { struct rhashtable *ht; const void *key; };
struct work_struct { struct list_head entry; };
struct delayed_work { struct work_struct work; };
struct xarray { void *head; };
struct percpu_ref { unsigned long count; };
struct completion { unsigned int done; };
struct kvec { void *iov_base; size_t iov_len; };
struct bio_vec { void *bv_page; unsigned int bv_len, bv_offset; };
struct iov_iter { size_t count; };
struct socket;
struct sock;
struct seq_file;
struct netlink_ext_ack { const char *_msg; };

#define NL_SET_ERR_MSG(extack, msg) do {		\
	if (extack)					\
		(extack)->_msg = (msg);			\
} while (0)

#define HZ			250
#define MAX_JIFFY_OFFSET	((LONG_MAX >> 1) - 1)
extern unsigned long jiffies;
static inline time64_t ktime_get_seconds(void)
{
	return 0;
}

#define mutex_lock(m)		((void)(m))
#define mutex_unlock(m)		((void)(m))
static inline void atomic64_inc(atomic64_t *v)
{
	v->counter++;
}

#define spin_lock_bh(l)		((void)(l))
#define spin_unlock_bh(l)	((void)(l))

#endif /* _FUZZ_SHIM_KERNEL_H */
