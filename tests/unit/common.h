/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * common.h - helpers shared by the cmocka unit tests of the libklog core.
 *
 * Include after <cmocka.h>'s prerequisites; it includes cmocka itself.
 */
#ifndef KLOG_TEST_COMMON_H
#define KLOG_TEST_COMMON_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

/* Caller ids with the top bit set never collide with kl_caller_id(). */
#define CALLER(n) (0x80000000u | (u32)(n))

#define NSEC_PER_SEC 1000000000ull
#define NSEC_PER_MSEC 1000000ull

/* ---- fake clock ---------------------------------------------------- */

/*
 * The one clock of the unit tests: the library reads fake_clock() once
 * common_setup() (or caller_fixture_setup()) has installed it, and time
 * moves only when a test moves it.
 */
static u64 fake_now = NSEC_PER_SEC;

static inline uint64_t fake_clock(void)
{
	return fake_now;
}

static inline void clock_set_sec(u64 s)
{
	fake_now = s * NSEC_PER_SEC;
}

static inline void clock_set_ms(u64 ms)
{
	fake_now = ms * NSEC_PER_MSEC;
}

static inline void clock_advance_ms(u64 ms)
{
	fake_now += ms * NSEC_PER_MSEC;
}

/* ---- invariants ------------------------------------------------------ */

/*
 * The first invariant found broken (-KLOG_RING_Rn), 0 if none.  Every
 * test checks its namespaces' rings and cursors (klog_ns_check_locked())
 * at the end of every locked section, in whichever thread: the check
 * runs just before each klog lock is released.  It cannot fail the test
 * there (the lock is held); common_teardown() does.
 */
static atomic_int broken_invariant;

static void check_at_unlock(klog_lock_t *lock)
{
	struct klog_ns *ns = kl_container_of(lock, struct klog_ns, lock);
	int ret = klog_ns_check_locked(ns);
	int none = 0;

	if (ret && atomic_compare_exchange_strong(&broken_invariant, &none,
						  ret))
		fprintf(stderr, "invariant R%d broken in namespace %llu\n",
			-ret, (unsigned long long)ns->id);
}

/* Take (and forget) the invariant found broken since the last call. */
static inline int take_broken_invariant(void)
{
	return atomic_exchange(&broken_invariant, 0);
}

/*
 * cmocka group/test setup: fake clock at 1 s, no injected failures, the
 * invariants checked at every unlock.
 */
static inline int common_setup(void **state)
{
	(void)state;
	fake_now = NSEC_PER_SEC;
	klog_testing_set_clock(fake_clock);
	klog_testing_fail_alloc(0);
	atomic_store(&broken_invariant, 0);
	klog_testing_set_unlock_check(check_at_unlock);
	klog_testing_set_unlocked_hook(NULL);
	return 0;
}

/*
 * Also fails the test if an invariant broke during it, or if it left this
 * thread holding a klog lock: some function returned with its
 * namespace's lock held.
 */
static inline int common_teardown(void **state)
{
	unsigned int held = klog_testing_locks_held();

	(void)state;
	klog_testing_set_clock(NULL);
	klog_testing_fail_alloc(0);
	klog_testing_set_unlock_check(NULL);
	klog_testing_set_unlocked_hook(NULL);
	assert_int_equal(take_broken_invariant(), 0);
	assert_int_equal(held, 0);
	return 0;
}

/* A test that starts with the fake clock at 1 s and no injected failure. */
#define T(f) cmocka_unit_test_setup_teardown(f, common_setup, common_teardown)

/* ---- namespaces ---------------------------------------------------- */

/*
 * A root.  With @cfg NULL it uses its own settings, and since the
 * library's default policy copies nothing (KLOG_PROPAGATE_NONE), they
 * are switched to KLOG_PROPAGATE_KERNEL here: most tests look at the
 * copies.  A test that passes @cfg gets exactly what it set there.
 */
static inline struct klog_ns *mk_root(struct klog_config *cfg, u32 size)
{
	struct klog_ns_params p = { .size = size, .cfg = cfg };
	struct klog_ns *ns = NULL;

	assert_int_equal(klog_ns_create(NULL, &p, &ns), 0);
	assert_non_null(ns);
	if (!cfg) {
		assert_int_equal(ns->cfg->propagate, KLOG_PROPAGATE_NONE);
		ns->cfg->propagate = KLOG_PROPAGATE_KERNEL;
	}
	return ns;
}

/* A child of @parent owned by @owner (a user namespace), or the test fails. */
static inline struct klog_ns *mk_owned_child(struct klog_ns *parent,
					     void *owner, const char *tag,
					     u32 size)
{
	struct klog_ns_params p = {
		.size = size, .tag = tag, .owner = owner,
	};
	struct klog_ns *ns = NULL;

	assert_int_equal(klog_ns_create(parent, &p, &ns), 0);
	assert_non_null(ns);
	return ns;
}

static inline struct klog_ns *mk_child(struct klog_ns *parent,
				       const char *tag, u32 size)
{
	return mk_owned_child(parent, NULL, tag, size);
}

/*
 * The label a copy from @ns starts with, built here from the id and the
 * tag (not with klog_ns_name()): "[ns:<id>] " or "[ns:<id>:<tag>] ".
 */
#define LABEL_BUF (KLOG_LABEL_MAX + 1)

static inline const char *label(const struct klog_ns *ns, char *buf)
{
	if (ns->tag[0])
		snprintf(buf, LABEL_BUF, "[ns:%llu:%s] ",
			 (unsigned long long)ns->id, ns->tag);
	else
		snprintf(buf, LABEL_BUF, "[ns:%llu] ",
			 (unsigned long long)ns->id);
	return buf;
}

/* The dictionary of a copy from @ns (see klog_ns_copy_dict()); its size. */
static inline size_t copy_dict(const struct klog_ns *ns, char *buf,
			       size_t size)
{
	static const char subsys[] = "SUBSYSTEM=syslog_ns";
	int n;

	memcpy(buf, subsys, sizeof(subsys));	/* with its NUL */
	n = snprintf(buf + sizeof(subsys), size - sizeof(subsys),
		     "DEVICE=+syslog_ns:%llu", (unsigned long long)ns->id);
	return sizeof(subsys) + (size_t)n;
}

static inline unsigned int refs(struct klog_ns *ns)
{
	return kl_ref_read(&ns->ref);
}

/* Records currently committed to the ring (no flush of the cont buffer). */
static inline u64 committed(struct klog_ns *ns)
{
	return klog_ring_count(&ns->ring);
}

/*
 * Copies of @ns's records refused since its last suppression note: those
 * its parent's budget counted, and those @ns passed over while it knew
 * the budget would refuse them, which the forwarder counts once that
 * refusal ends.
 */
static inline u32 missed(const struct klog_ns *ns)
{
	return ns->copy_missed + ns->up_skipped;
}

/* A collected copy of a namespace's records. */
struct rec_list {
	unsigned int n;
	u64 lost;
	struct klog_msgbuf *m;
};

/* Read every record of @ns from its first one (flushes the cont buffer). */
static inline void read_all(struct klog_ns *ns, struct rec_list *l)
{
	struct klog_cursor c;
	struct klog_msgbuf mb;
	unsigned int cap = 16, i;

	l->n = 0;
	l->lost = 0;
	l->m = malloc(cap * sizeof(*l->m));
	assert_non_null(l->m);
	klog_ring_cursor_first(&ns->ring, &c);
	while (klog_ns_read(ns, &c, &mb) == 1) {
		if (l->n == cap) {
			cap *= 2;
			l->m = realloc(l->m, cap * sizeof(*l->m));
			assert_non_null(l->m);
		}
		l->lost += mb.lost;
		l->m[l->n] = mb;
		l->n++;
	}
	/* Point into the final array: realloc() may have moved it. */
	for (i = 0; i < l->n; i++) {
		l->m[i].rec.text = l->m[i].text;
		l->m[i].rec.dict = l->m[i].dict;
	}
}

static inline void rec_list_free(struct rec_list *l)
{
	free(l->m);
	l->m = NULL;
	l->n = 0;
}

/* Assert that a record's text is exactly @s. */
#define assert_text(mb, s) do {						\
	const char *__s = (s);						\
	size_t __n = strlen(__s);					\
	if ((mb)->rec.text_len != __n ||				\
	    memcmp((mb)->rec.text, __s, __n) != 0)			\
		fail_msg("text \"%.*s\" (%u bytes) != \"%s\"",		\
			 (int)(mb)->rec.text_len, (mb)->rec.text,	\
			 (unsigned)(mb)->rec.text_len, __s);		\
} while (0)

/* klog_ns_store() with the fields tests use most. */
static inline int store_msg(struct klog_ns *ns, u32 caller, u32 flags,
			    int level, const char *text)
{
	struct klog_msg m = {
		.level = level,
		.flags = flags,
		.caller_id = caller,
		.text = text,
		.text_len = text ? strlen(text) : 0,
	};

	return klog_ns_store(ns, &m);
}

#endif /* KLOG_TEST_COMMON_H */
