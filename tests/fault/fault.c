// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fault.c - allocation fault injection over every path that allocates
 * (docs/reliability.md, "Fault injection").
 *
 * For each operation below, klog_testing_fail_alloc(n) makes its n-th
 * allocation fail, for n = 1, 2, ... until the operation allocates fewer
 * than n times and so completes with no injected failure.  Every failed
 * call must return -ENOMEM and leave everything as it was: the output
 * pointer unchanged, a resized namespace's ring and tag unchanged, the
 * parent's reference count and the tree's next automatic id unchanged,
 * the heap back to its size (mallinfo2 in the plain build; ASan and
 * valgrind check leaks at exit), and the parent still working (a record
 * stored and read back).  Each operation's allocations are named (the
 * object, the ring, a resize's new ring): the test
 * fails if an operation allocates more or fewer times than listed, and if
 * libklog has an allocation call site (counted by meson in
 * the libklog core sources, KLOG_ALLOC_SITES) that no operation reached.
 *
 * Finally every other entry point runs with injection armed and must not
 * allocate at all.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

#ifndef KLOG_ALLOC_SITES
#define KLOG_ALLOC_SITES 0
#endif

static int failures;

#define CHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "fault: %s:%d: [%s n=%ld] %s\n",	\
			__FILE__, __LINE__, cur_op, cur_n, #c);	\
		failures++;						\
	}								\
} while (0)

static const char *cur_op = "";
static long cur_n;

/* The call sites in libklog/src/ns.c and libklog/userspace/calls.c. */
#define SITE_OBJECT "calls.c klog_ns_create: namespace object"
#define SITE_RING "ns.c klog_ns_init: ring buffer"
#define SITE_RESIZE "ns.c klog_ns_resize: new ring buffer"
static const char *sites_seen[8];
static int nsites;

static void saw_site(const char *s)
{
	int i;

	for (i = 0; i < nsites; i++)
		if (!strcmp(sites_seen[i], s))
			return;
	sites_seen[nsites++] = s;
}

/*
 * Bytes in use on the heap.  glibc counts chunks parked in its per-thread
 * cache as in use, so the count is exact only with that cache off (the
 * meson test sets GLIBC_TUNABLES=glibc.malloc.tcache_count=0); without
 * it, and under ASan or valgrind (which count leaks themselves), 0.
 */
static size_t heap_used(void)
{
	static int exact = -1;

	if (exact < 0) {
		const char *t = getenv("GLIBC_TUNABLES");

		exact = t && strstr(t, "glibc.malloc.tcache_count=0");
	}
	return exact ? mallinfo2().uordblks : 0;
}

/* ---- the tree every operation works on ----------------------------- */

static struct klog_config cfg;
static struct klog_ns *root, *parent;
static char scratch[KLOG_MESSAGE_MAX];

static void emit_drop(struct klog_ns *ns, const struct klog_entry *e)
{
	(void)ns;
	(void)e;
}

static const struct klog_ns_ops emit_ops = { .emit = emit_drop };

/* The parent works: a record goes in and comes out. */
static void parent_works(void)
{
	struct klog_msgbuf mb;
	struct klog_cursor c;
	u64 before = parent->ring.next_seq;

	CHECK(klog_ns_printk(parent, "\0016after failure %ld\n", cur_n) > 0);
	CHECK(parent->ring.next_seq == before + 1);
	c.seq = before;
	c.idx = parent->ring.last_idx;
	CHECK(klog_ns_read(parent, &c, &mb) == 1);
	CHECK(mb.rec.text_len > 0 && !memcmp(mb.rec.text, "after failure", 13));
}

/* ---- operations ---------------------------------------------------- */

/*
 * One operation: run it with the n-th allocation failing; on success
 * return 0 and leave what it made in *made (undone by ->undo).
 */
struct op {
	const char *name;
	const char *sites[4];	/* allocation k (1-based) is sites[k-1] */
	int (*run)(void **made);
	void (*undo)(void *made);
	struct klog_ns *(*base)(void);	/* whose refcount must not move */
};

static struct klog_ns *base_parent(void)
{
	return parent;
}

static struct klog_ns *base_none(void)
{
	return NULL;
}

static struct klog_ns *const SENTINEL = (struct klog_ns *)0x5a5a5a5a;

static int op_create_root(void **made)
{
	struct klog_config *c = calloc(1, sizeof(*c));
	struct klog_ns_params p = { .size = 8192, .cfg = c };
	struct klog_ns *ns = SENTINEL;
	int ret;

	klog_config_init(c);
	ret = klog_ns_create(NULL, &p, &ns);
	if (ret) {
		CHECK(ns == SENTINEL);
		free(c);
		return ret;
	}
	CHECK(ns->root == ns && ns->ring.size == 8192);
	*made = ns;
	return 0;
}

static void undo_root(void *made)
{
	struct klog_ns *ns = made;
	struct klog_config *c = ns->cfg;

	CHECK(klog_ns_printk(ns, "root works\n") > 0);
	klog_ns_put(ns);
	free(c);
}

static int op_create_hook_root(void **made)
{
	struct klog_ns_params p = { .ops = &emit_ops };
	struct klog_ns *ns = SENTINEL;
	int ret;

	ret = klog_ns_create(NULL, &p, &ns);
	if (ret) {
		CHECK(ns == SENTINEL);
		return ret;
	}
	CHECK(!ns->ring.buf);
	*made = ns;
	return 0;
}

static void undo_put(void *made)
{
	klog_ns_put(made);
}

static int op_create_child(void **made)
{
	struct klog_ns_params p = { .size = 4096, .tag = "kid" };
	struct klog_ns *ns = SENTINEL;
	int ret;

	ret = klog_ns_create(parent, &p, &ns);
	if (ret) {
		CHECK(ns == SENTINEL);
		return ret;
	}
	CHECK(ns->parent == parent);
	CHECK(klog_ns_printk(ns, "child works\n") > 0);
	*made = ns;
	return 0;
}

static void release_free(struct klog_ns *ns)
{
	free(ns);
}

static const struct klog_ns_ops free_ops = { .release = release_free };

static int op_init_child(void **made)
{
	struct klog_ns_params p = { .size = 16384, .ops = &free_ops };
	struct klog_ns *ns = calloc(1, sizeof(*ns));
	int ret;

	ret = klog_ns_init(ns, parent, &p);
	if (ret) {
		CHECK(!ns->ring.buf && !ns->parent);
		free(ns);
		return ret;
	}
	CHECK(ns->ring.size == 16384);
	*made = ns;
	return 0;
}

/* A child of mid: the grandparent's count must not move either. */
static struct klog_ns *mid;

static struct klog_ns *base_mid(void)
{
	return mid;
}

static int op_create_grandchild(void **made)
{
	struct klog_ns_params p = { .size = 8192 };
	struct klog_ns *ns = SENTINEL;
	int ret;

	ret = klog_ns_create(mid, &p, &ns);
	if (ret) {
		CHECK(ns == SENTINEL);
		return ret;
	}
	CHECK(ns->parent == mid && ns->depth == 3);
	*made = ns;
	return 0;
}

/*
 * kernel.syslog_ns_size written in a namespace that has logged nothing
 * (fresh, a child of parent, 4 KiB between the operations): a failure
 * keeps the old ring, which still works.
 */
static struct klog_ns *fresh;

static struct klog_ns *base_fresh(void)
{
	return fresh;
}

static int op_resize(void **made)
{
	void *buf = fresh->ring.buf;
	int ret;

	ret = klog_ns_resize(fresh, 16384);
	if (ret) {
		CHECK(fresh->ring.buf == buf && fresh->ring.size == 4096);
		CHECK(!strcmp(fresh->tag, "fresh"));
		return ret;
	}
	CHECK(fresh->ring.buf != buf && fresh->ring.size == 16384);
	*made = fresh;
	return 0;
}

/* Back to 4 KiB and still unused, for the next run. */
static void undo_resize(void *made)
{
	CHECK(made == fresh);
	CHECK(klog_ns_resize(fresh, 4096) == 0);
	CHECK(fresh->ring.size == 4096 && fresh->ring.next_seq == 0);
}

static const struct op ops[] = {
	{ "create root", { SITE_OBJECT, SITE_RING }, op_create_root,
	  undo_root, base_none },
	{ "create root with emit hook", { SITE_OBJECT }, op_create_hook_root,
	  undo_put, base_none },
	{ "create child", { SITE_OBJECT, SITE_RING }, op_create_child,
	  undo_put, base_parent },
	{ "init child in caller memory", { SITE_RING }, op_init_child,
	  undo_put, base_parent },
	{ "create grandchild", { SITE_OBJECT, SITE_RING },
	  op_create_grandchild, undo_put, base_mid },
	{ "resize an unused child", { SITE_RESIZE }, op_resize, undo_resize,
	  base_fresh },
};

static long injected;

static void run_op(const struct op *op)
{
	long n, expected = 0;

	cur_op = op->name;
	while (expected < 4 && op->sites[expected])
		expected++;
	for (n = 1; ; n++) {
		struct klog_ns *b = op->base();
		u32 ref = b ? kl_ref_read(&b->ref) : 0;
		u32 pref = b && b->parent ? kl_ref_read(&b->parent->ref) : 0;
		u64 id = cfg.next_id;
		size_t heap = heap_used();
		void *made = NULL;
		long count;
		int ret;

		cur_n = n;
		klog_testing_fail_alloc(n);
		ret = op->run(&made);
		count = klog_testing_alloc_count();
		klog_testing_fail_alloc(0);

		if (count < n) {
			/* No injected failure: it must have worked. */
			CHECK(ret == 0);
			CHECK(count == expected);
			if (!ret)
				op->undo(made);
			CHECK(!b || kl_ref_read(&b->ref) == ref);
			break;
		}
		injected++;
		CHECK(ret == -ENOMEM);
		CHECK(n <= expected);
		if (n <= expected)
			saw_site(op->sites[n - 1]);
		if (!ret) {
			op->undo(made);
			continue;
		}
		CHECK(!b || kl_ref_read(&b->ref) == ref);
		CHECK(!b || !b->parent || kl_ref_read(&b->parent->ref) == pref);
		CHECK(cfg.next_id == id);
		CHECK(heap_used() == heap);
		parent_works();
	}
	printf("fault: %-32s %ld allocation(s), each failed once: ok\n",
	       op->name, expected);
}

/* ---- everything else allocates nothing ----------------------------- */

static void no_alloc_anywhere(void)
{
	struct klog_syslog_ctx ctx = {
		.ns = parent, .scratch = scratch, .nonblock = true,
	}, pctx;
	struct klog_kmsg *f = calloc(1, sizeof(*f));
	struct klog_msgbuf mb;
	struct klog_cursor c = { 0 };
	struct klog_ns_stats st;
	struct klog_msg m = {
		.level = 3, .text = "stored", .text_len = 6,
		.dict = "A=b", .dict_len = 3,
	};
	char buf[4096];
	int t;

	cur_op = "other entry points";
	cur_n = 1;
	klog_testing_fail_alloc(1);
	klog_ns_printk(parent, "\0016one ");
	klog_ns_printk(parent, "\001ctwo\n");
	klog_ns_store(parent, &m);
	klog_ns_printk(mid, "\0013propagated %d\n", 1);
	klog_ns_flush(parent);
	while (klog_ns_read(parent, &c, &mb) == 1)
		;
	klog_ns_get_stats(parent, &st);
	klog_ns_set_dmesg_restrict(parent, 0);
	klog_ns_name(parent, buf, sizeof(buf));
	klog_ns_get_tag(parent, buf);
	CHECK(klog_ns_set_tag(parent, "again") == -EBUSY);
	CHECK(klog_ns_set_tag(fresh, "fresh") == 0);
	for (t = -1; t <= 12; t++)	/* the unknown -1, 11, 12 too */
		klog_syslog(&ctx, t, buf, t == 8 ? 4 : (int)sizeof(buf));
	CHECK(klog_kmsg_open(f, &ctx, KLOG_KMSG_READ | KLOG_KMSG_WRITE) == 0);
	klog_kmsg_write(f, "<5>written\n", 11, "fault");
	while (klog_kmsg_read(f, KLOG_MESSAGE_MAX, true) > 0)
		;
	klog_kmsg_seek(f, 0, KLOG_SEEK_SET);
	klog_kmsg_seek(f, 0, KLOG_SEEK_DATA);
	klog_kmsg_seek(f, 0, KLOG_SEEK_END);
	klog_kmsg_poll(f);
	klog_kmsg_release(f);
	pctx = ctx;
	pctx.source = KLOG_FROM_PROC;
	klog_proc_kmsg_open(&pctx);
	klog_proc_kmsg_read(&pctx, buf, sizeof(buf), true);
	klog_proc_kmsg_poll(&pctx);
	klog_proc_kmsg_release(&pctx);
	CHECK(klog_testing_alloc_count() == 0);
	klog_testing_fail_alloc(0);
	/* The copy path did run: mid's record reached its parent. */
	klog_ns_get_stats(mid, &st);
	CHECK(st.propagated == 1);
	free(f);
	printf("fault: %-32s no allocation: ok\n", "every other entry point");
}

int main(void)
{
	struct klog_ns_params p = { .size = 16384, .cfg = &cfg };
	struct klog_ns_params mp = { .size = 4096, .tag = "mid" };
	struct klog_ns_params fp = { .size = 4096, .tag = "fresh" };
	size_t i;
	int ret;

	klog_config_init(&cfg);
	/*
	 * Copies of everything (the default is none), so that the copy
	 * path, its budget and its notes run with injection armed too.
	 */
	cfg.propagate = KLOG_PROPAGATE_ALL;
	ret = klog_ns_create(NULL, &p, &root);
	memset(&p, 0, sizeof(p));
	p.size = 16384;
	p.tag = "parent";
	ret |= klog_ns_create(root, &p, &parent);
	ret |= klog_ns_create(parent, &mp, &mid);
	ret |= klog_ns_create(parent, &fp, &fresh);
	if (ret) {
		fprintf(stderr, "fault: setup failed\n");
		return 1;
	}

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		run_op(&ops[i]);
	no_alloc_anywhere();

	CHECK(kl_ref_read(&fresh->ref) == 1);
	klog_ns_put(fresh);
	CHECK(kl_ref_read(&parent->ref) == 2);	/* ours and mid's */
	CHECK(kl_ref_read(&root->ref) == 2);
	klog_ns_put(mid);
	klog_ns_put(parent);
	klog_ns_put(root);

	printf("fault: %d allocation site(s) in libklog covered (%d counted "
	       "in the sources), %ld injected failures over %zu operations\n",
	       nsites, KLOG_ALLOC_SITES, injected,
	       sizeof(ops) / sizeof(ops[0]));
	for (i = 0; i < (size_t)nsites; i++)
		printf("fault:   %s\n", sites_seen[i]);
	if (KLOG_ALLOC_SITES && nsites != KLOG_ALLOC_SITES) {
		fprintf(stderr, "fault: libklog has %d allocation call sites, "
			"this test reaches %d: add the new one\n",
			KLOG_ALLOC_SITES, nsites);
		failures++;
	}
	printf("fault: %s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
