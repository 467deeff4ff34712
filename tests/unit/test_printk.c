// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_printk.c - the store path: KERN_SOH prefixes, newlines, levels,
 * bad input, truncation; propagation to parents (policies 0/1/2, local
 * and user records, the "[ns:<id>] " and "[ns:<id>:<tag>] " labels and
 * the copy dictionary, three levels deep), the parent's copy budget
 * shared by its children on a fake clock, the "<N> messages suppressed"
 * note and the counters.
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sched.h>
#include <time.h>

#include "common.h"

static struct klog_ns *root, *ns;

static int pk_setup(void **state)
{
	common_setup(state);
	root = mk_root(NULL, 65536);
	ns = mk_child(root, "c", 16384);
	return 0;
}

static int pk_teardown(void **state)
{
	klog_ns_put(ns);
	klog_ns_put(root);
	ns = root = NULL;
	return common_teardown(state);
}

#define TP(f) cmocka_unit_test_setup_teardown(f, pk_setup, pk_teardown)

/* The only record of @n, read back (flushes), into @mb. */
static void only_rec(struct klog_ns *n, struct klog_msgbuf *mb)
{
	struct rec_list l;

	read_all(n, &l);
	assert_int_equal(l.n, 1);
	*mb = l.m[0];
	rec_list_free(&l);
	mb->rec.text = mb->text;
	mb->rec.dict = mb->dict;
}

/* Read @n's records after the first @skip ones; keep them in @l. */
static void read_from(struct klog_ns *n, u64 skip, struct rec_list *l)
{
	unsigned int i;

	read_all(n, l);
	assert_true(l->n >= skip);
	for (i = skip; i < l->n; i++)
		l->m[i - skip] = l->m[i];
	l->n -= (unsigned int)skip;
	for (i = 0; i < l->n; i++) {
		l->m[i].rec.text = l->m[i].text;
		l->m[i].rec.dict = l->m[i].dict;
	}
}

/* ---- klog_parse_prefix() ------------------------------------------------ */

static u32 parse(const char *s, int *level, u32 *flags)
{
	*level = -1;
	*flags = 0;
	return klog_parse_prefix(s, (u32)strlen(s), level, flags);
}

static void prefix_levels_0_to_7(void **state)
{
	char s[8] = "\001?x";
	int level;
	u32 flags;

	(void)state;
	for (char ch = '0'; ch <= '7'; ch++) {
		s[1] = ch;
		assert_int_equal(parse(s, &level, &flags), 2);
		assert_int_equal(level, ch - '0');
		assert_int_equal(flags, KLOG_F_PREFIX);
	}
}

static void prefix_cont_and_default(void **state)
{
	int level;
	u32 flags;

	(void)state;
	assert_int_equal(parse("\001cabc", &level, &flags), 2);
	assert_int_equal(level, -1);
	assert_int_equal(flags, KLOG_F_CONT);
	assert_int_equal(parse("\001dabc", &level, &flags), 2);
	assert_int_equal(level, -1);
	assert_int_equal(flags, 0);
	assert_int_equal(parse("\001c\0013abc", &level, &flags), 4);
	assert_int_equal(level, 3);
	assert_int_equal(flags, KLOG_F_CONT | KLOG_F_PREFIX);
}

static void prefix_out_of_range_is_text(void **state)
{
	static const char *not_prefix[] = {
		"\0019abc", "\0018abc", "\001xabc", "\001Cabc", "\001\001abc",
		"\001", "abc\0013", " \0013abc", "",
	};
	unsigned int i;
	int level;
	u32 flags;

	(void)state;
	for (i = 0; i < sizeof(not_prefix) / sizeof(not_prefix[0]); i++) {
		assert_int_equal(parse(not_prefix[i], &level, &flags), 0);
		assert_int_equal(level, -1);
		assert_int_equal(flags, 0);
	}
	/* A valid prefix followed by an invalid one: only the first goes. */
	assert_int_equal(parse("\0013\0019abc", &level, &flags), 2);
	assert_int_equal(level, 3);
	/* The length bounds the parse: "\001" + '3' beyond it is not read. */
	level = -1;
	flags = 0;
	assert_int_equal(klog_parse_prefix("\0013", 1, &level, &flags), 0);
	assert_int_equal(level, -1);
}

static void prefix_first_level_wins(void **state)
{
	int level;
	u32 flags;

	(void)state;
	assert_int_equal(parse("\0012\0016abc", &level, &flags), 4);
	assert_int_equal(level, 2);
	assert_int_equal(parse("\001d\0015\001c\0011abc", &level, &flags), 8);
	assert_int_equal(level, 5);
	assert_int_equal(flags, KLOG_F_PREFIX | KLOG_F_CONT);
}

/* ---- klog_ns_printk() ----------------------------------------------------- */

static void printk_level_prefix_sets_level(void **state)
{
	struct klog_msgbuf mb;

	(void)state;
	assert_int_equal(klog_ns_printk(ns, "\0013disk %s failed\n", "sda"),
			 15);
	only_rec(ns, &mb);
	assert_text(&mb, "disk sda failed");
	assert_int_equal(mb.rec.level, 3);
	assert_true(mb.rec.flags & KLOG_F_PREFIX);
	assert_true(mb.rec.flags & KLOG_F_NEWLINE);
	assert_int_equal(mb.rec.flags & KLOG_F_CONT, 0);
	assert_int_equal(mb.rec.facility, 0);
}

static void printk_default_level(void **state)
{
	struct rec_list l;

	(void)state;
	klog_ns_printk(ns, "plain\n");
	ns->cfg->default_level = 6;
	klog_ns_printk(ns, "plain again\n");
	klog_ns_printk(ns, "\001dexplicit default\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "plain");
	assert_int_equal(l.m[0].rec.level, 4);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_PREFIX, 0);
	assert_text(&l.m[1], "plain again");
	assert_int_equal(l.m[1].rec.level, 6);
	assert_text(&l.m[2], "explicit default");
	assert_int_equal(l.m[2].rec.level, 6);
	rec_list_free(&l);
}

static void printk_out_of_range_prefix_stays_in_text(void **state)
{
	struct rec_list l;

	(void)state;
	assert_int_equal(klog_ns_printk(ns, "\0019nine\n"), 6);
	klog_ns_printk(ns, "\001xex\n");
	klog_ns_printk(ns, "\0012\0019mixed\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "\0019nine");
	assert_int_equal(l.m[0].rec.level, KLOG_DEFAULT_LEVEL);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_PREFIX, 0);
	assert_text(&l.m[1], "\001xex");
	assert_int_equal(l.m[1].rec.level, KLOG_DEFAULT_LEVEL);
	assert_text(&l.m[2], "\0019mixed");
	assert_int_equal(l.m[2].rec.level, 2);
	rec_list_free(&l);
}

static void printk_first_of_two_levels_wins(void **state)
{
	struct klog_msgbuf mb;

	(void)state;
	klog_ns_printk(ns, "\0011\0017two levels\n");
	only_rec(ns, &mb);
	assert_text(&mb, "two levels");
	assert_int_equal(mb.rec.level, 1);
}

static void printk_newlines(void **state)
{
	struct rec_list l;

	(void)state;
	assert_int_equal(klog_ns_printk(ns, "a\nb\n"), 3);
	assert_int_equal(klog_ns_printk(ns, "two\n\n"), 4);
	assert_int_equal(klog_ns_printk(ns, "\n"), 0);
	assert_int_equal(klog_ns_printk(ns, "no newline"), 10);
	read_all(ns, &l);
	assert_int_equal(l.n, 4);
	assert_text(&l.m[0], "a\nb");			/* embedded kept */
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	assert_text(&l.m[1], "two\n");			/* only one stripped */
	assert_true(l.m[1].rec.flags & KLOG_F_NEWLINE);
	assert_text(&l.m[2], "");			/* an empty line */
	assert_true(l.m[2].rec.flags & KLOG_F_NEWLINE);
	assert_text(&l.m[3], "no newline");
	assert_int_equal(l.m[3].rec.flags & KLOG_F_NEWLINE, 0);
	rec_list_free(&l);
}

/* 6.12 stores printk("") as an empty record (unfinished until flushed). */
static void printk_empty_text_stores_empty_record(void **state)
{
	struct klog_msgbuf mb;

	(void)state;
	assert_int_equal(klog_ns_printk(ns, "%s", ""), 0);
	assert_int_equal(committed(ns), 0);		/* pending */
	klog_ns_flush(ns);
	only_rec(ns, &mb);
	assert_int_equal(mb.rec.text_len, 0);
	assert_int_equal(mb.rec.flags & KLOG_F_NEWLINE, 0);
	/* A NULL text of length 0 is an empty message too. */
	assert_int_equal(store_msg(ns, CALLER(1), 0, -1, NULL), 0);
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 2);
}

static int call_vprintk(struct klog_ns *n, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = klog_ns_vprintk(n, fmt, ap);
	va_end(ap);
	return ret;
}

static void printk_bad_arguments(void **state)
{
	const char *volatile nofmt = NULL;
	struct klog_msg m = { .level = -1, .text = NULL, .text_len = 3 };
	struct klog_ns *volatile nons = NULL;

	(void)state;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	assert_int_equal(klog_ns_printk(ns, nofmt), -EINVAL);
	assert_int_equal(call_vprintk(ns, nofmt), -EINVAL);
	assert_int_equal(klog_ns_printk(nons, "text\n"), -EINVAL);
#pragma GCC diagnostic pop
	assert_int_equal(klog_ns_store(ns, NULL), -EINVAL);
	assert_int_equal(klog_ns_store(nons, &m), -EINVAL);
	assert_int_equal(klog_ns_store(ns, &m), -EINVAL);	/* NULL text */
	m.text = "abc";
	m.dict = NULL;
	m.dict_len = 4;
	assert_int_equal(klog_ns_store(ns, &m), -EINVAL);	/* NULL dict */
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 0);
	assert_int_equal(committed(root), 0);
}

static void printk_long_text_truncated(void **state)
{
	char *big = malloc(3000);
	struct rec_list l;
	int ret;

	(void)state;
	assert_non_null(big);
	for (int i = 0; i < 2999; i++)
		big[i] = (char)('a' + i % 26);
	big[2999] = '\0';
	/* 6.12 formats at most 1023 bytes (1024 with the terminator). */
	ret = klog_ns_printk(ns, "%s\n", big);
	assert_int_equal(ret, KLOG_RECORD_MAX - 1);
	/* The level prefix counts against the limit, as in 6.12. */
	ret = klog_ns_printk(ns, "\0015%s\n", big);
	assert_int_equal(ret, KLOG_RECORD_MAX - 3);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.m[0].rec.text_len, KLOG_RECORD_MAX - 1);
	assert_memory_equal(l.m[0].rec.text, big, KLOG_RECORD_MAX - 1);
	assert_true(l.m[0].rec.flags & KLOG_F_TRUNC);
	assert_int_equal(l.m[0].rec.level, KLOG_DEFAULT_LEVEL);
	assert_int_equal(l.m[1].rec.text_len, (u32)ret);
	assert_memory_equal(l.m[1].rec.text, big, (size_t)ret);
	assert_true(l.m[1].rec.flags & KLOG_F_TRUNC);
	assert_int_equal(l.m[1].rec.level, 5);
	rec_list_free(&l);
	free(big);
}

static void printk_exact_max_text_not_truncated(void **state)
{
	char big[KLOG_RECORD_MAX];
	struct klog_msgbuf mb;

	(void)state;
	memset(big, 'q', KLOG_RECORD_MAX - 1);
	big[KLOG_RECORD_MAX - 1] = '\0';
	assert_int_equal(klog_ns_printk(ns, "%s", big), KLOG_RECORD_MAX - 1);
	only_rec(ns, &mb);
	assert_int_equal(mb.rec.text_len, KLOG_RECORD_MAX - 1);
	assert_int_equal(mb.rec.flags & KLOG_F_TRUNC, 0);
}

static void printk_timestamp_and_caller(void **state)
{
	struct rec_list l;

	(void)state;
	clock_set_ms(123456);
	klog_ns_printk(ns, "at 123.456\n");
	clock_advance_ms(1);
	klog_ns_printk(ns, "a bit later\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.m[0].rec.ts_nsec, 123456 * NSEC_PER_MSEC);
	assert_int_equal(l.m[1].rec.ts_nsec, 123457 * NSEC_PER_MSEC);
	assert_int_equal(l.m[0].rec.caller_id, klog_plat_caller_id());
	rec_list_free(&l);
}

/* The caller id is the thread's id, also in a thread and after fork(). */
static void *caller_in_thread(void *arg)
{
	*(u32 *)arg = klog_plat_caller_id();
	return NULL;
}

static void caller_id_is_the_thread_id(void **state)
{
	u32 mine = klog_plat_caller_id(), theirs = 0;
	pthread_t t;
	pid_t pid;
	int st;

	(void)state;
	assert_int_equal(mine, (u32)syscall(SYS_gettid));
	assert_int_equal(klog_plat_caller_id(), mine);	/* cached */
	assert_int_equal(pthread_create(&t, NULL, caller_in_thread, &theirs), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_not_equal(theirs, 0);
	assert_int_not_equal(theirs, mine);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(klog_plat_caller_id() == (u32)syscall(SYS_gettid) &&
		      klog_plat_caller_id() != mine ? 0 : 1);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* ---- klog_ns_store() ---------------------------------------------------- */

static void store_fields_and_no_prefix_parsing(void **state)
{
	static const char dict[] = "SUBSYSTEM=tty\0DEVICE=c4:1";
	struct klog_msg m = {
		.facility = 1, .level = 3, .caller_id = CALLER(9),
		.text = "\0016raw text\n", .text_len = 11,
		.dict = dict, .dict_len = sizeof(dict) - 1,
	};
	struct klog_msgbuf mb;

	(void)state;
	assert_int_equal(klog_ns_store(ns, &m), 10);
	only_rec(ns, &mb);
	assert_text(&mb, "\0016raw text");
	assert_int_equal(mb.rec.level, 3);
	assert_int_equal(mb.rec.facility, 1);
	assert_int_equal(mb.rec.caller_id, CALLER(9));
	assert_int_equal(mb.rec.flags, KLOG_F_NEWLINE);
	assert_int_equal(mb.rec.dict_len, sizeof(dict) - 1);
	assert_memory_equal(mb.rec.dict, dict, sizeof(dict) - 1);
}

static void store_level_out_of_range_is_default(void **state)
{
	static const int in[] = { -1, 0, 7, 8, 100, -5 };
	static const int want[] = { 4, 0, 7, 4, 4, 4 };
	struct rec_list l;
	unsigned int i;

	(void)state;
	for (i = 0; i < 6; i++)
		store_msg(ns, CALLER(1), 0, in[i], "lvl\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(l.m[i].rec.level, want[i]);
	rec_list_free(&l);
}

static void store_long_text_truncated(void **state)
{
	struct klog_msg m = { .level = -1, .caller_id = CALLER(1) };
	char *big = malloc(2001);
	struct klog_msgbuf mb;

	(void)state;
	assert_non_null(big);
	memset(big, 'w', 2000);
	big[2000] = '\n';
	m.text = big;
	m.text_len = 2001;
	assert_int_equal(klog_ns_store(ns, &m), KLOG_RECORD_MAX);
	only_rec(ns, &mb);
	assert_int_equal(mb.rec.text_len, KLOG_RECORD_MAX);
	assert_memory_equal(mb.rec.text, big, KLOG_RECORD_MAX);
	assert_true(mb.rec.flags & KLOG_F_TRUNC);
	free(big);
}

static void store_empty_line_with_newline(void **state)
{
	struct klog_msgbuf mb;

	(void)state;
	assert_int_equal(store_msg(ns, CALLER(1), 0, 2, "\n"), 0);
	only_rec(ns, &mb);
	assert_int_equal(mb.rec.text_len, 0);
	assert_int_equal(mb.rec.level, 2);
	assert_true(mb.rec.flags & KLOG_F_NEWLINE);
}

/* ---- propagation ---------------------------------------------------------- */

/* Assert that @mb is the copy of @text from @from: its label, then @text. */
static void assert_copy(const struct klog_msgbuf *mb,
			const struct klog_ns *from, const char *text)
{
	static char want[LABEL_BUF + KLOG_RECORD_MAX + 1];
	char l[LABEL_BUF];

	snprintf(want, sizeof(want), "%s%s", label(from, l), text);
	assert_text(mb, want);
}

/* Assert that @mb carries the copy dictionary of @from. */
static void assert_copy_dict(const struct klog_msgbuf *mb,
			     const struct klog_ns *from)
{
	char want[KLOG_LABEL_DICT_MAX];
	size_t n = copy_dict(from, want, sizeof(want));

	assert_int_equal(mb->rec.dict_len, n);
	assert_memory_equal(mb->rec.dict, want, n);
}

static void prop_policy_none(void **state)
{
	struct klog_ns_stats st;

	(void)state;
	ns->cfg->propagate = KLOG_PROPAGATE_NONE;
	klog_ns_printk(ns, "kernel\n");
	store_msg(ns, CALLER(1), KLOG_MSG_USER, -1, "user\n");
	assert_int_equal(committed(ns), 2);
	assert_int_equal(committed(root), 0);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 0);
	assert_int_equal(st.suppressed, 0);
	/* Nothing was even offered to the parent's budget. */
	assert_false(root->budget.started);
}

static void prop_policy_kernel_only(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	assert_int_equal(ns->cfg->propagate, KLOG_PROPAGATE_KERNEL);
	store_msg(ns, CALLER(1), KLOG_MSG_USER, -1, "from /dev/kmsg\n");
	klog_ns_printk(ns, "from the kernel\n");
	store_msg(ns, CALLER(2), 0, -1, "kernel via store\n");
	assert_int_equal(committed(ns), 3);
	assert_int_equal(committed(root), 2);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 2);
	/* A user line that was pending is not copied when committed either. */
	store_msg(ns, CALLER(3), KLOG_MSG_USER, -1, "user partial");
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 4);
	assert_int_equal(committed(root), 2);
	store_msg(ns, CALLER(3), 0, -1, "kernel partial");
	klog_ns_flush(ns);
	assert_int_equal(committed(root), 3);
	read_all(root, &l);
	assert_int_equal(l.n, 3);
	assert_copy(&l.m[0], ns, "from the kernel");
	assert_copy(&l.m[1], ns, "kernel via store");
	assert_copy(&l.m[2], ns, "kernel partial");
	rec_list_free(&l);
}

static void prop_policy_all(void **state)
{
	struct rec_list l;
	struct klog_ns_stats st;

	(void)state;
	ns->cfg->propagate = KLOG_PROPAGATE_ALL;
	store_msg(ns, CALLER(1), KLOG_MSG_USER, -1, "from /dev/kmsg\n");
	klog_ns_printk(ns, "from the kernel\n");
	read_all(root, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "from /dev/kmsg");
	assert_copy(&l.m[1], ns, "from the kernel");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 2);
	/* The policy is read live. */
	ns->cfg->propagate = KLOG_PROPAGATE_NONE;
	klog_ns_printk(ns, "not copied\n");
	assert_int_equal(committed(root), 2);
}

/*
 * A namespace's own copy policy governs what its children send it; the
 * tree's settings stay those of every namespace without one.
 */
static void prop_own_policy_of_a_parent(void **state)
{
	struct klog_copy_policy bad[] = {
		{ -1, 10, 5000 }, { 3, 10, 5000 },
		{ 2, KLOG_PROP_BURST_MAX + 1, 5000 },
		{ 2, 10, KLOG_PROP_INTERVAL_MIN_MS - 1 },
		{ 2, 10, KLOG_PROP_INTERVAL_MAX_MS + 1 },
	};
	struct klog_copy_policy pol, got;
	struct klog_ns *gc;
	struct klog_ns_stats st;
	struct rec_list l;
	unsigned int i;

	(void)state;
	gc = mk_child(ns, "gc", 4096);
	root->cfg->propagate = KLOG_PROPAGATE_NONE;
	/* Out of range: refused, nothing changes. */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(klog_ns_set_copy_policy(ns, &bad[i]), -EINVAL);
		klog_ns_get_copy_policy(ns, &got);
		assert_int_equal(got.propagate, KLOG_PROPAGATE_NONE);
		assert_int_equal(got.burst, root->cfg->prop_burst);
		assert_int_equal(got.interval_ms, root->cfg->prop_interval_ms);
	}
	/* ns takes everything from its children, 2 lines per second. */
	pol = (struct klog_copy_policy){ KLOG_PROPAGATE_ALL, 2, 1000 };
	assert_int_equal(klog_ns_set_copy_policy(ns, &pol), 0);
	klog_ns_get_copy_policy(ns, &got);
	assert_int_equal(got.propagate, KLOG_PROPAGATE_ALL);
	assert_int_equal(got.burst, 2);
	assert_int_equal(got.interval_ms, 1000);
	/* The tree (and so the root's policy) is unchanged. */
	klog_ns_get_copy_policy(root, &got);
	assert_int_equal(got.propagate, KLOG_PROPAGATE_NONE);
	for (i = 0; i < 5; i++)
		store_msg(gc, CALLER(1), KLOG_MSG_USER, -1, "user text\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], gc, "user text");
	assert_copy(&l.m[1], gc, "user text");
	rec_list_free(&l);
	klog_ns_get_stats(gc, &st);
	assert_int_equal(st.propagated, 2);
	assert_int_equal(st.suppressed, 3);
	/* The root's policy (the tree's: none) keeps them out of the root. */
	assert_int_equal(committed(root), 0);
	/* Next window: the note, then the record. */
	clock_advance_ms(1000);
	store_msg(gc, CALLER(1), KLOG_MSG_USER, -1, "later\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 4);
	assert_copy(&l.m[2], gc, "3 messages suppressed");
	assert_copy(&l.m[3], gc, "later");
	rec_list_free(&l);
	/* A policy of the root's own overrides the tree's settings. */
	pol = (struct klog_copy_policy){ KLOG_PROPAGATE_KERNEL, 10, 5000 };
	assert_int_equal(klog_ns_set_copy_policy(root, &pol), 0);
	klog_ns_printk(ns, "\0016kernel text\n");
	store_msg(ns, CALLER(1), KLOG_MSG_USER, -1, "user text\n");
	read_all(root, &l);
	assert_int_equal(l.n, 1);
	assert_copy(&l.m[0], ns, "kernel text");
	rec_list_free(&l);
	klog_ns_put(gc);
}

/* The label is "[ns:<id>:<tag>] " or "[ns:<id>] ", spelled out here. */
static void prop_prefix_tag_or_id(void **state)
{
	struct klog_ns_params p = { .size = 4096, .id = 4026532001ull };
	struct klog_ns *anon, *fixed;
	struct rec_list l;
	char want[64];

	(void)state;
	assert_int_equal(root->id, 1);
	assert_int_equal(ns->id, 2);
	anon = mk_child(root, NULL, 4096);
	assert_int_equal(anon->id, 3);
	assert_int_equal(klog_ns_create(root, &p, &fixed), 0);
	klog_ns_printk(ns, "tagged\n");
	klog_ns_printk(anon, "anonymous\n");
	klog_ns_printk(fixed, "fixed id\n");
	read_all(root, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "[ns:2:c] tagged");
	assert_text(&l.m[1], "[ns:3] anonymous");
	assert_text(&l.m[2], "[ns:4026532001] fixed id");
	rec_list_free(&l);
	/* An empty tag is no tag. */
	klog_ns_put(fixed);
	p.id = 0;
	p.tag = "";
	assert_int_equal(klog_ns_create(root, &p, &fixed), 0);
	klog_ns_printk(fixed, "empty tag\n");
	read_from(root, 3, &l);
	assert_int_equal(l.n, 1);
	snprintf(want, sizeof(want), "[ns:%llu] empty tag",
		 (unsigned long long)fixed->id);
	assert_text(&l.m[0], want);
	rec_list_free(&l);
	klog_ns_put(anon);
	klog_ns_put(fixed);
}

/*
 * A tag cannot make a copy look like another subsystem's line: it comes
 * after the namespace id, inside the label, and may not hold brackets,
 * blanks, ':' or '/' that would end or fake one.
 */
static void prop_label_tag_cannot_forge_origin(void **state)
{
	static const char *bad[] = {
		"[drm]", "drm]", "[drm", "drm ", " drm", "drm:1", "ns:1",
		"usb/1-1", "drm!", "a]b", "a[b",
	};
	struct klog_ns_params p = { .size = 4096 };
	struct klog_ns *drm, *out;
	struct klog_msgbuf mb;
	char want[128];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		out = root;
		p.tag = bad[i];
		if (klog_ns_create(root, &p, &out) != -EINVAL)
			fail_msg("tag \"%s\" accepted", bad[i]);
		assert_ptr_equal(out, root);
	}
	assert_int_equal(root->budget.children, 1);
	drm = mk_child(root, "drm", 4096);
	klog_ns_printk(drm, "\0013[drm:intel_gt] *ERROR* GPU hang\n");
	only_rec(root, &mb);
	snprintf(want, sizeof(want),
		 "[ns:%llu:drm] [drm:intel_gt] *ERROR* GPU hang",
		 (unsigned long long)drm->id);
	assert_text(&mb, want);
	assert_int_equal(mb.rec.level, 3);
	klog_ns_put(drm);
}

/* The longest label (a 20-digit id and a 31-byte tag) is never cut. */
static void prop_label_longest_is_whole(void **state)
{
	static const char t31[] = "abcdefghijklmnopqrstuvwxyz-._09";
	struct klog_ns_params p = {
		.size = 4096, .tag = t31, .id = 18446744073709551615ull,
	};
	struct klog_ns *big;
	struct klog_msgbuf mb;
	char name[KLOG_LABEL_MAX], want[128];

	(void)state;
	assert_int_equal(strlen(t31), KLOG_TAG_MAX);
	assert_int_equal(klog_ns_create(ns, &p, &big), 0);
	assert_int_equal(klog_ns_name(big, name, sizeof(name)),
			 KLOG_LABEL_MAX - 3);
	klog_ns_printk(big, "x\n");
	only_rec(ns, &mb);
	snprintf(want, sizeof(want), "[ns:18446744073709551615:%s] x", t31);
	assert_int_equal(strlen(want), KLOG_LABEL_MAX + 1);
	assert_text(&mb, want);
	assert_copy_dict(&mb, big);
	assert_true(mb.rec.dict_len <= KLOG_LABEL_DICT_MAX);
	/* One level up, both labels in full. */
	only_rec(root, &mb);
	snprintf(want, sizeof(want), "[ns:2:c] [ns:18446744073709551615:%s] x",
		 t31);
	assert_text(&mb, want);
	klog_ns_put(big);
}

/*
 * A copy keeps the record's time, caller, facility, level and flags, but
 * not its dictionary: it carries "SUBSYSTEM=syslog_ns" and
 * "DEVICE=+syslog_ns:<id>" of the namespace it came from.
 */
static void prop_copy_keeps_metadata(void **state)
{
	static const char dict[] = "SUBSYSTEM=net\0DEVICE=n2";
	struct klog_msg m = {
		.facility = 4, .level = 1, .caller_id = CALLER(77),
		.text = "link down\n", .text_len = 10,
		.dict = dict, .dict_len = sizeof(dict) - 1,
	};
	struct klog_msgbuf child, copy;

	(void)state;
	clock_set_ms(5555);
	klog_ns_store(ns, &m);
	only_rec(ns, &child);
	only_rec(root, &copy);
	assert_copy(&copy, ns, "link down");
	assert_int_equal(copy.rec.facility, 4);
	assert_int_equal(copy.rec.level, 1);
	assert_int_equal(copy.rec.caller_id, CALLER(77));
	assert_int_equal(copy.rec.flags, child.rec.flags);
	assert_int_equal(copy.rec.ts_nsec, 5555 * NSEC_PER_MSEC);
	assert_int_equal(copy.rec.ts_nsec, child.rec.ts_nsec);
	/* The child keeps its own dictionary; the copy has the label's. */
	assert_int_equal(child.rec.dict_len, sizeof(dict) - 1);
	assert_memory_equal(child.rec.dict, dict, sizeof(dict) - 1);
	assert_copy_dict(&copy, ns);
}

/*
 * The copy dictionary, byte for byte, read back with klog_ns_read(): on
 * a record that had none, on one that had its own, and two levels up
 * (where it names the namespace the copy came from, not the first one).
 */
static void prop_copy_dict(void **state)
{
	static const char from_c[] = "SUBSYSTEM=syslog_ns\0DEVICE=+syslog_ns:2";
	static const char from_b[] = "SUBSYSTEM=syslog_ns\0DEVICE=+syslog_ns:3";
	static const char own[] = "SUBSYSTEM=usb\0DEVICE=c189:1";
	struct klog_msg m = {
		.level = 6, .caller_id = CALLER(4), .text = "usb 1-1\n",
		.text_len = 8, .dict = own, .dict_len = sizeof(own) - 1,
	};
	struct klog_ns *b = mk_child(ns, "b", 4096);
	struct klog_cursor cur;
	struct klog_msgbuf mb;
	char buf[KLOG_LABEL_DICT_MAX];
	unsigned int i;

	(void)state;
	assert_int_equal(ns->id, 2);
	assert_int_equal(b->id, 3);
	klog_ns_printk(ns, "plain\n");
	klog_ns_store(ns, &m);
	klog_ns_printk(b, "from b\n");

	klog_ring_cursor_first(&root->ring, &cur);
	for (i = 0; i < 3; i++) {
		assert_int_equal(klog_ns_read(root, &cur, &mb), 1);
		assert_int_equal(mb.rec.dict_len, sizeof(from_c) - 1);
		assert_memory_equal(mb.dict, from_c, sizeof(from_c) - 1);
	}
	assert_int_equal(klog_ns_read(root, &cur, &mb), 0);
	/* In c, b's copy names b. */
	klog_ring_cursor_first(&ns->ring, &cur);
	for (i = 0; i < 3; i++)
		assert_int_equal(klog_ns_read(ns, &cur, &mb), 1);
	assert_text(&mb, "[ns:3:b] from b");
	assert_int_equal(mb.rec.dict_len, sizeof(from_b) - 1);
	assert_memory_equal(mb.dict, from_b, sizeof(from_b) - 1);

	/* klog_ns_copy_dict() itself: length, and 0 when it does not fit. */
	assert_int_equal(klog_ns_copy_dict(ns, buf, sizeof(buf)),
			 sizeof(from_c) - 1);
	assert_memory_equal(buf, from_c, sizeof(from_c) - 1);
	assert_int_equal(klog_ns_copy_dict(ns, buf, sizeof(from_c)),
			 sizeof(from_c) - 1);
	assert_int_equal(klog_ns_copy_dict(ns, buf, sizeof(from_c) - 1), 0);
	assert_int_equal(klog_ns_copy_dict(ns, buf, 0), 0);
	klog_ns_put(b);
}

static void prop_copy_of_max_record_is_truncated(void **state)
{
	char big[KLOG_RECORD_MAX + 1], l[LABEL_BUF];
	struct klog_msgbuf child, copy;
	size_t ll = strlen(label(ns, l));

	(void)state;
	memset(big, 'm', KLOG_RECORD_MAX);
	big[KLOG_RECORD_MAX] = '\0';
	/* The raw store keeps a full KLOG_RECORD_MAX bytes of text. */
	store_msg(ns, CALLER(1), 0, -1, big);	/* > 80%: committed */
	only_rec(ns, &child);
	assert_int_equal(child.rec.text_len, KLOG_RECORD_MAX);
	assert_int_equal(child.rec.flags & KLOG_F_TRUNC, 0);
	only_rec(root, &copy);
	assert_int_equal(copy.rec.text_len, KLOG_RECORD_MAX);
	assert_memory_equal(copy.rec.text, l, ll);
	assert_memory_equal(copy.rec.text + ll, big, KLOG_RECORD_MAX - ll);
	assert_true(copy.rec.flags & KLOG_F_TRUNC);
}

static void prop_cont_line_copied_once(void **state)
{
	struct klog_msgbuf copy;

	(void)state;
	klog_ns_printk(ns, "\0015part one, ");
	klog_ns_printk(ns, "\001cpart two");
	assert_int_equal(committed(root), 0);
	klog_ns_printk(ns, "\001c, end\n");
	only_rec(root, &copy);
	assert_copy(&copy, ns, "part one, part two, end");
	assert_int_equal(copy.rec.level, 5);
	assert_true(copy.rec.flags & KLOG_F_NEWLINE);
}

static void prop_three_levels_deep(void **state)
{
	struct klog_ns *b = mk_child(ns, "b", 8192);
	struct klog_ns *d = mk_child(b, NULL, 4096);
	struct klog_ns_stats st;
	struct klog_msgbuf mb;
	struct rec_list l;
	kl_irqflags_t fl = 0;

	(void)state;
	/* root (1) <- c (2) <- b (3) <- d (4, no tag) */
	assert_int_equal(b->id, 3);
	assert_int_equal(d->id, 4);
	klog_ns_printk(d, "\0012deep\n");
	only_rec(d, &mb);
	assert_text(&mb, "deep");
	only_rec(b, &mb);
	assert_text(&mb, "[ns:4] deep");
	assert_int_equal(mb.rec.level, 2);
	only_rec(ns, &mb);
	assert_text(&mb, "[ns:3:b] [ns:4] deep");
	only_rec(root, &mb);
	assert_text(&mb, "[ns:2:c] [ns:3:b] [ns:4] deep");
	assert_int_equal(mb.rec.level, 2);
	assert_true(mb.rec.flags & KLOG_F_NEWLINE);

	/* A record from the middle climbs only from there. */
	klog_ns_printk(b, "middle\n");
	assert_int_equal(committed(d), 1);
	read_from(ns, 1, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "[ns:3:b] middle");
	rec_list_free(&l);
	read_from(root, 1, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "[ns:2:c] [ns:3:b] middle");
	rec_list_free(&l);

	klog_ns_get_stats(d, &st);
	assert_int_equal(st.stored, 1);
	assert_int_equal(st.propagated, 1);
	klog_ns_get_stats(b, &st);
	assert_int_equal(st.stored, 2);
	assert_int_equal(st.propagated, 2);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.stored, 2);
	assert_int_equal(st.propagated, 2);
	klog_ns_get_stats(root, &st);
	assert_int_equal(st.stored, 2);
	assert_int_equal(st.propagated, 0);

	/*
	 * A reader's flush notes the line; the copies are made only by
	 * klog_ns_copy_up(), after the lock is dropped.
	 */
	klog_ns_printk(d, "pending");
	kl_lock_irqsave(&d->lock, fl);
	assert_true(klog_ns_reader_commit_locked(d));
	kl_unlock_irqrestore(&d->lock, fl);
	assert_int_equal(committed(d), 2);
	assert_int_equal(committed(root), 2);
	klog_ns_copy_up(d);
	assert_int_equal(committed(b), 3);
	assert_int_equal(committed(root), 3);
	klog_ns_copy_up(d);			/* nothing more to copy */
	assert_int_equal(committed(root), 3);
	klog_ns_put(d);
	klog_ns_put(b);
}

/*
 * Records overwritten before their forwarder reached them are not
 * copied: they count as suppressed, and the next copy carries the note.
 */
static void prop_overwritten_before_copy_counts_suppressed(void **state)
{
	struct klog_copy_policy pol = {
		.propagate = KLOG_PROPAGATE_KERNEL,
		.burst = KLOG_PROP_BURST_MAX,
		.interval_ms = KLOG_PROP_INTERVAL_MAX_MS,
	};
	struct klog_ns *kid = mk_child(ns, "kid", 4096);
	char want[LABEL_BUF + 64], lk[LABEL_BUF];
	struct klog_ns_stats st;
	struct rec_list l;
	u64 before, lost;
	int i;

	(void)state;
	assert_int_equal(klog_ns_set_copy_policy(ns, &pol), 0);
	/* As if a forwarder ran on another CPU and stalled: */
	kid->up_busy = true;
	for (i = 0; i < 120; i++)
		klog_ns_printk(kid, "filler %03d\n", i);
	assert_int_equal(committed(ns), 0);
	lost = kid->ring.first_seq;
	assert_true(lost > 0);				/* overwritten */
	kid->up_busy = false;
	klog_ns_copy_up(kid);
	/*
	 * What is left goes up in order, after a note that counts what
	 * was overwritten.
	 */
	before = committed(ns);
	assert_int_equal(before, 1 + 120 - lost);
	klog_ns_get_stats(kid, &st);
	assert_int_equal(st.suppressed, lost);
	assert_int_equal(st.propagated, 120 - lost);
	read_from(ns, 0, &l);
	label(kid, lk);
	snprintf(want, sizeof(want), "%s%llu messages suppressed", lk,
		 (unsigned long long)lost);
	assert_text(&l.m[0], want);
	for (i = 1; i < (int)l.n; i++) {
		snprintf(want, sizeof(want), "%sfiller %03d", lk,
			 (int)lost + i - 1);
		assert_text(&l.m[i], want);
	}
	rec_list_free(&l);
	klog_ns_printk(kid, "next\n");
	read_from(ns, before, &l);
	assert_int_equal(l.n, 1);
	snprintf(want, sizeof(want), "%snext", lk);
	assert_text(&l.m[0], want);
	rec_list_free(&l);
	klog_ns_put(kid);
}

/* A context already inside the store path cannot enter it again. */
static void printk_recursion_is_refused(void **state)
{
	char *buf;

	(void)state;
	buf = kl_scratch_get();
	assert_non_null(buf);
	assert_null(kl_scratch_get());
	assert_int_equal(klog_ns_printk(ns, "inner\n"), -EBUSY);
	assert_int_equal(committed(ns), 0);
	kl_scratch_put(buf);
	assert_int_equal(klog_ns_printk(ns, "outer\n"), 5);
	assert_int_equal(committed(ns), 1);
}

static void prop_user_records_three_levels(void **state)
{
	struct klog_ns *b = mk_child(ns, "b", 4096);

	(void)state;
	store_msg(b, CALLER(1), KLOG_MSG_USER, -1, "user\n");
	assert_int_equal(committed(b), 1);
	assert_int_equal(committed(ns), 0);
	assert_int_equal(committed(root), 0);
	ns->cfg->propagate = KLOG_PROPAGATE_ALL;
	store_msg(b, CALLER(1), KLOG_MSG_USER, -1, "user again\n");
	assert_int_equal(committed(ns), 1);
	assert_int_equal(committed(root), 1);
	klog_ns_put(b);
}

/*
 * A copy of user text is one labelled line: an embedded newline cannot
 * start a line of its own (which would look unlabelled, or carry a forged
 * label) in the parent, and an emergency level arrives as notice.  Kernel
 * text keeps its bytes and level.
 */
static void prop_user_copy_is_one_line_of_notice(void **state)
{
	char want[LABEL_BUF + 64], lc[LABEL_BUF];
	struct rec_list l;

	(void)state;
	root->cfg->propagate = KLOG_PROPAGATE_ALL;
	store_msg(ns, CALLER(1), KLOG_MSG_USER, 0,
		  "ok\n[ns:1:host] forged\x1b[2J\tend\n");
	store_msg(ns, CALLER(2), 0, 0, "kernel\nline\n");
	read_all(root, &l);
	assert_int_equal(l.n, 2);
	label(ns, lc);
	snprintf(want, sizeof(want), "%sok?[ns:1:host] forged?[2J\tend", lc);
	assert_text(&l.m[0], want);
	assert_int_equal(l.m[0].rec.level, KLOG_USER_COPY_LEVEL);
	snprintf(want, sizeof(want), "%skernel\nline", lc);
	assert_text(&l.m[1], want);
	assert_int_equal(l.m[1].rec.level, 0);
	rec_list_free(&l);
	/* The child's own record is as written. */
	read_all(ns, &l);
	assert_text(&l.m[0], "ok\n[ns:1:host] forged\x1b[2J\tend");
	assert_int_equal(l.m[0].rec.level, 0);
	rec_list_free(&l);
}

/*
 * A copy of user text is filed under LOG_USER whatever facility the
 * writer chose (4, auth, here; 10, authpriv, and 0, the kernel's, too);
 * kernel text keeps its facility.  Positive control: the child's own
 * records keep what was written.
 */
static void prop_user_copy_is_in_the_user_facility(void **state)
{
	static const u8 fac[] = { 4, 10, 0 };
	struct klog_msg m = { .level = 6, .flags = KLOG_MSG_USER,
			      .text = "su: root\n", .text_len = 9 };
	struct rec_list l;
	size_t i;

	(void)state;
	root->cfg->propagate = KLOG_PROPAGATE_ALL;
	for (i = 0; i < sizeof(fac); i++) {
		m.facility = fac[i];
		assert_int_equal(klog_ns_store(ns, &m), 8);
	}
	m.flags = 0;
	m.facility = 3;
	assert_int_equal(klog_ns_store(ns, &m), 8);
	read_all(root, &l);
	assert_int_equal(l.n, 4);
	for (i = 0; i < sizeof(fac); i++)
		assert_int_equal(l.m[i].rec.facility, KLOG_USER_COPY_FACILITY);
	assert_int_equal(l.m[3].rec.facility, 3);
	rec_list_free(&l);
	read_all(ns, &l);
	assert_int_equal(l.n, 4);
	for (i = 0; i < sizeof(fac); i++)
		assert_int_equal(l.m[i].rec.facility, fac[i]);
	rec_list_free(&l);
}

/* KLOG_MSG_LOCAL records stay where they are, even under policy 2. */
static void prop_local_never_copied(void **state)
{
	struct klog_ns *b = mk_child(ns, "b", 4096);
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	ns->cfg->propagate = KLOG_PROPAGATE_ALL;
	store_msg(ns, CALLER(1), KLOG_MSG_LOCAL, -1, "local\n");
	store_msg(ns, CALLER(1), KLOG_MSG_LOCAL | KLOG_MSG_USER, -1,
		  "local user\n");
	store_msg(ns, CALLER(2), KLOG_MSG_LOCAL, 3, "local pending");
	klog_ns_flush(ns);
	store_msg(b, CALLER(3), KLOG_MSG_LOCAL, -1, "local in b\n");
	assert_int_equal(committed(b), 1);
	assert_int_equal(committed(ns), 3);
	assert_int_equal(committed(root), 0);
	/* A local continuation does not join, and so does not leak in, a
	 * line that is copied. */
	store_msg(ns, CALLER(4), 0, -1, "kernel ");
	store_msg(ns, CALLER(4), KLOG_F_CONT | KLOG_MSG_LOCAL, -1, "secret\n");
	store_msg(ns, CALLER(1), KLOG_MSG_USER, -1, "user\n");
	assert_int_equal(committed(ns), 6);
	read_all(root, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "kernel ");
	assert_copy(&l.m[1], ns, "user");
	rec_list_free(&l);
	/* Local records take nothing from the budget and are not refused. */
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 2);
	assert_int_equal(st.suppressed, 0);
	assert_int_equal(root->budget.used, 2);
	klog_ns_get_stats(b, &st);
	assert_int_equal(st.propagated, 0);
	assert_int_equal(st.suppressed, 0);
	klog_ns_put(b);
}

/*
 * A user fragment (KLOG_MSG_USER, no newline) from the caller of a
 * pending kernel fragment never joins the kernel line: the kernel line
 * is committed alone (and copied), the user text is a record of its own
 * and, under policy 1, stays in the child.
 */
static void prop_user_fragment_not_joined_to_kernel_line(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	store_msg(ns, CALLER(5), 0, 5, "kernel says ");
	assert_int_equal(committed(ns), 0);
	store_msg(ns, CALLER(5), KLOG_F_CONT | KLOG_MSG_USER, -1, "user text");
	assert_int_equal(committed(ns), 1);	/* the kernel line, alone */
	assert_int_equal(committed(root), 1);
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 2);
	assert_int_equal(committed(root), 1);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "kernel says ");
	assert_int_equal(l.m[0].rec.level, 5);
	assert_text(&l.m[1], "user text");
	rec_list_free(&l);
	read_all(root, &l);
	assert_int_equal(l.n, 1);
	assert_copy(&l.m[0], ns, "kernel says ");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 1);
	assert_int_equal(st.suppressed, 0);

	/* Under policy 2 both are copied, still as two records. */
	ns->cfg->propagate = KLOG_PROPAGATE_ALL;
	store_msg(ns, CALLER(5), 0, 5, "kernel again ");
	store_msg(ns, CALLER(5), KLOG_F_CONT | KLOG_MSG_USER, -1, "user\n");
	read_from(root, 1, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "kernel again ");
	assert_copy(&l.m[1], ns, "user");
	rec_list_free(&l);
}

/* ---- the copy budget ---------------------------------------------------- */

static void send_n(struct klog_ns *n, unsigned int count, const char *what)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		klog_ns_printk(n, "%s %u\n", what, i);
}

/*
 * The budget's rule, as a model of one copy of a child's newest record
 * into its parent, within one window of the parent's budget:
 *   - refused if the parent's window is spent (used >= burst) or the
 *     child's records reached its share: one more refusal to report;
 *   - otherwise the record is taken (a unit of the budget and of the
 *     share) and, if the child has refusals to report and the window
 *     still has a unit left after the record, the note "<N> messages
 *     suppressed" goes first and takes that unit (not the share);
 *     without room for it the record goes alone and the note waits.
 * A note thus never goes without a record, and copies plus notes never
 * exceed the burst.
 */
struct budget_model {
	u32 burst;		/* clamped */
	u32 used;		/* copies and notes in this window */
};

struct child_model {
	u32 used;		/* this child's records in the window */
	u32 missed;		/* refusals since its last note */
};

enum take { REFUSED, RECORD, NOTE_AND_RECORD };

/* The outcome of one copy; for a note, its count in *@note_n. */
static enum take model_take(struct budget_model *p, struct child_model *c,
			    u32 share, u32 *note_n)
{
	*note_n = 0;
	if (p->used >= p->burst || c->used >= share) {
		c->missed++;
		return REFUSED;
	}
	p->used++;
	c->used++;
	if (c->missed && p->used < p->burst) {
		p->used++;
		*note_n = c->missed;
		c->missed = 0;
		return NOTE_AND_RECORD;
	}
	return RECORD;
}

static void prop_budget_burst_and_suppressed_note(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;
	unsigned int i;
	char want[64];

	(void)state;
	assert_int_equal(ns->cfg->prop_burst, 10);
	assert_int_equal(ns->cfg->prop_interval_ms, 5000);
	send_n(ns, 15, "flood");
	assert_int_equal(committed(ns), 15);	/* the child keeps all */
	read_all(root, &l);
	assert_int_equal(l.n, 10);
	for (i = 0; i < 10; i++) {
		snprintf(want, sizeof(want), "flood %u", i);
		assert_copy(&l.m[i], ns, want);
	}
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 10);
	assert_int_equal(st.suppressed, 5);
	assert_int_equal(missed(ns), 5);

	/* Still inside the window: refused. */
	clock_advance_ms(4999);
	klog_ns_printk(ns, "late\n");
	assert_int_equal(committed(root), 10);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 6);

	/*
	 * A window is [begin, begin + interval): at its end a new one
	 * starts.  First the note, with the count refused, then the record.
	 */
	clock_advance_ms(1);
	klog_ns_printk(ns, "\0013back\n");
	klog_ns_printk(ns, "and more\n");
	read_from(root, 10, &l);
	assert_int_equal(l.n, 3);
	assert_copy(&l.m[0], ns, "6 messages suppressed");
	assert_int_equal(l.m[0].rec.level, KLOG_DEFAULT_LEVEL);
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	assert_int_equal(l.m[0].rec.ts_nsec, fake_now);
	assert_int_equal(l.m[0].rec.caller_id, kl_caller_id());
	assert_copy_dict(&l.m[0], ns);
	assert_copy(&l.m[1], ns, "back");
	assert_int_equal(l.m[1].rec.level, 3);
	assert_copy(&l.m[2], ns, "and more");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 12);
	assert_int_equal(st.suppressed, 6);
	assert_int_equal(missed(ns), 0);
	assert_int_equal(committed(ns), 18);
	/* The note took one unit of the budget. */
	assert_int_equal(root->budget.used, 3);
}

static void prop_budget_no_note_without_suppression(void **state)
{
	struct rec_list l;
	unsigned int i;

	(void)state;
	send_n(ns, 10, "within budget");
	clock_advance_ms(60000);
	send_n(ns, 10, "next window");
	read_all(root, &l);
	assert_int_equal(l.n, 20);
	for (i = 0; i < l.n; i++)
		assert_null(memmem(l.m[i].text, l.m[i].rec.text_len,
				   "suppressed", 10));
	rec_list_free(&l);
}

static void prop_budget_custom_settings(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	ns->cfg->prop_burst = 3;
	ns->cfg->prop_interval_ms = 1000;
	send_n(ns, 7, "m");
	assert_int_equal(committed(root), 3);
	clock_advance_ms(1000);
	send_n(ns, 1, "after");
	read_from(root, 3, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "4 messages suppressed");
	assert_copy(&l.m[1], ns, "after 0");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 4);
	assert_int_equal(st.propagated, 4);
}

/*
 * The interval is clamped to [10 ms, 1 h]: 0 is no longer "unlimited"
 * but 10 ms, and a huge one ends after an hour.  The burst is clamped to
 * KLOG_PROP_BURST_MAX.
 */
static void prop_budget_interval_and_burst_clamped(void **state)
{
	struct klog_ns_stats st, rst;
	struct rec_list l;

	(void)state;
	ns->cfg->prop_interval_ms = 0;
	send_n(ns, 100, "flood");		/* the clock stands still */
	assert_int_equal(committed(root), 10);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 10);
	assert_int_equal(st.suppressed, 90);
	clock_advance_ms(KLOG_PROP_INTERVAL_MIN_MS - 1);
	send_n(ns, 1, "9 ms later");
	assert_int_equal(committed(root), 10);
	clock_advance_ms(1);
	send_n(ns, 1, "10 ms later");
	read_from(root, 10, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "91 messages suppressed");
	assert_copy(&l.m[1], ns, "10 ms later 0");
	rec_list_free(&l);

	/* Far above the maximum: a new window, of one hour. */
	ns->cfg->prop_interval_ms = 0xffffffffu;
	send_n(ns, 20, "long");
	assert_int_equal(committed(root), 22);
	clock_advance_ms(KLOG_PROP_INTERVAL_MAX_MS - 1);
	send_n(ns, 1, "almost an hour");
	assert_int_equal(committed(root), 22);
	clock_advance_ms(1);
	send_n(ns, 1, "an hour");
	assert_int_equal(committed(root), 24);	/* note and record */

	/* A burst above the maximum is the maximum. */
	ns->cfg->prop_burst = 0xffffffffu;
	clock_advance_ms(KLOG_PROP_INTERVAL_MAX_MS);
	klog_ns_get_stats(root, &rst);
	send_n(ns, KLOG_PROP_BURST_MAX + 5, "big");
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 90 + 1 + 10 + 1 + 5);
	klog_ns_get_stats(root, &st);
	assert_int_equal(st.stored - rst.stored, KLOG_PROP_BURST_MAX);
	assert_int_equal(root->budget.used, KLOG_PROP_BURST_MAX);
}

/*
 * New settings apply to the next copy: a window opened under other ones
 * ends at once, so lowering or raising the burst, or changing the
 * interval, never leaves the children's copies refused for the rest of
 * a window sized by the old settings.
 */
static void prop_budget_new_settings_open_a_new_window(void **state)
{
	struct rec_list l;

	(void)state;
	send_n(ns, 15, "spent");		/* 10 go, 5 refused */
	assert_int_equal(committed(root), 10);
	send_n(ns, 1, "same settings");		/* still refused */
	assert_int_equal(committed(root), 10);
	ns->cfg->prop_burst = 3;
	send_n(ns, 1, "lower burst");
	read_from(root, 10, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "6 messages suppressed");
	assert_copy(&l.m[1], ns, "lower burst 0");
	rec_list_free(&l);
	send_n(ns, 2, "more");			/* one fits, one refused */
	assert_int_equal(committed(root), 13);
	ns->cfg->prop_interval_ms = 6000;
	send_n(ns, 4, "new interval");		/* note, record, record */
	assert_int_equal(committed(root), 16);
	assert_int_equal(root->budget.used, 3);
	assert_int_equal(root->budget.interval_ms, 6000);
}

/* Burst 0 sends nothing at all, not even notes, and counts exactly. */
static void prop_budget_burst_zero_sends_nothing(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	ns->cfg->prop_burst = 0;
	ns->cfg->prop_interval_ms = 1000;
	send_n(ns, 4, "refused");
	assert_int_equal(committed(root), 0);
	clock_advance_ms(1000);
	send_n(ns, 1, "refused too");
	assert_int_equal(committed(root), 0);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 0);
	assert_int_equal(st.suppressed, 5);
	assert_int_equal(missed(ns), 5);
	/* With a budget again, the note tells all of it. */
	ns->cfg->prop_burst = 10;
	send_n(ns, 1, "through");
	read_all(root, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "5 messages suppressed");
	assert_copy(&l.m[1], ns, "through 0");
	rec_list_free(&l);
}

/* Unlocks of @root's and @ns's locks, counted by count_unlocks(). */
static unsigned int root_unlocks, ns_unlocks;

static void count_unlocks(klog_lock_t *lock)
{
	if (lock == &root->lock)
		root_unlocks++;
	if (lock == &ns->lock)
		ns_unlocks++;
	check_at_unlock(lock);
}

/*
 * Refused by its parent's budget, a child passes over its records until
 * the window ends without taking the parent's lock: a flooding child
 * costs its parent, and its siblings that share it, nothing more once
 * refused.  The suppressed counts stay exact, and the note tells all.
 */
static void prop_refused_child_leaves_the_parent_alone(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	send_n(ns, 11, "fill");			/* 10 go, 1 refused */
	assert_int_equal(committed(root), 10);
	root_unlocks = ns_unlocks = 0;
	klog_testing_set_unlock_check(count_unlocks);
	send_n(ns, 100, "flood");
	clock_advance_ms(4999);			/* the window's last ms */
	send_n(ns, 1, "late");
	/* Each record the store's lock alone: no forwarder ran. */
	assert_int_equal(root_unlocks, 0);
	assert_int_equal(ns_unlocks, 101);
	assert_int_equal(committed(ns), 112);
	assert_int_equal(committed(root), 10);
	assert_int_equal(ns->up_skipped, 101);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 10);
	assert_int_equal(st.suppressed, 102);
	assert_int_equal(missed(ns), 102);

	/* A new window: the note counts what was passed over, then on. */
	clock_advance_ms(1);
	send_n(ns, 2, "back");
	assert_true(root_unlocks > 0);
	klog_testing_set_unlock_check(check_at_unlock);
	read_from(root, 10, &l);
	assert_int_equal(l.n, 3);
	assert_copy(&l.m[0], ns, "102 messages suppressed");
	assert_copy(&l.m[1], ns, "back 0");
	assert_copy(&l.m[2], ns, "back 1");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 12);
	assert_int_equal(st.suppressed, 102);
	assert_int_equal(missed(ns), 0);
	assert_int_equal(ns->up_skipped, 0);
}

/* klog_ns_get_stats()'s suppressed count of ns at every unlock. */
static u64 last_suppressed;
static bool suppressed_fell;

static void watch_suppressed(klog_lock_t *lock)
{
	u64 now = klog_ns_suppressed_locked(ns);

	if (now < last_suppressed)
		suppressed_fell = true;
	last_suppressed = now;
	check_at_unlock(lock);
}

/*
 * The suppressed count a reader gets never decreases, seen at every
 * unlock of either lock: the forwarder hands what was passed over to the
 * next note without moving it between counters.
 */
static void prop_suppressed_count_never_falls(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	last_suppressed = 0;
	suppressed_fell = false;
	klog_testing_set_unlock_check(watch_suppressed);
	send_n(ns, 60, "flood");		/* 10 go, 50 refused */
	clock_advance_ms(5000);
	send_n(ns, 3, "back");			/* the note, then 3 */
	clock_advance_ms(5000);
	send_n(ns, 20, "again");		/* 10 go, 10 refused */
	klog_testing_set_unlock_check(check_at_unlock);
	assert_false(suppressed_fell);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 50 + 10);
	assert_int_equal(last_suppressed, 50 + 10);
	assert_int_equal(st.propagated, 10 + 3 + 10);
	read_from(root, 10, &l);
	assert_int_equal(l.n, 1 + 3 + 10);
	assert_copy(&l.m[0], ns, "50 messages suppressed");
	rec_list_free(&l);
	assert_int_equal(missed(ns), 10);
}

/* The count a note reports stops at its largest value; it never wraps. */
static void prop_refusal_count_saturates(void **state)
{
	struct rec_list l;

	(void)state;
	send_n(ns, 10, "fill");
	ns->copy_missed = 0xfffffffeu;		/* as if refused that often */
	send_n(ns, 5, "refused");		/* 1 counted, 4 passed over */
	assert_int_equal(ns->copy_missed, 0xffffffffu);
	clock_advance_ms(5000);
	send_n(ns, 1, "next");
	read_from(root, 10, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "4294967295 messages suppressed");
	assert_copy(&l.m[1], ns, "next 0");
	rec_list_free(&l);
}

/* Stores N_BACKLOG records in ns from a deferred call. */
#define N_BACKLOG 5
static void store_backlog(klog_defer_t *d)
{
	(void)d;
	send_n(ns, N_BACKLOG, "backlog");
}

/*
 * The forwarder that meets a refusal with records behind it passes over
 * the rest under the child's lock alone.  Stored from a deferred call,
 * the records wait for the forwarder, which runs after it (as a work
 * item runs after the store in the kernel).
 */
static void prop_refused_forwarder_passes_over_its_backlog(void **state)
{
	klog_defer_t d;
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	send_n(ns, 10, "fill");			/* the window's 10 */
	root_unlocks = 0;
	klog_testing_set_unlock_check(count_unlocks);
	kl_defer_init(&d, store_backlog);
	kl_defer_queue(&d);
	/* One refusal under the parent's lock, then none. */
	assert_int_equal(root_unlocks, 1);
	klog_testing_set_unlock_check(check_at_unlock);
	assert_int_equal(ns->up_cur.seq, ns->ring.next_seq);
	assert_int_equal(ns->copy_missed, 1);
	assert_int_equal(ns->up_skipped, N_BACKLOG - 1);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, N_BACKLOG);
	clock_advance_ms(5000);
	send_n(ns, 1, "next window");
	read_from(root, 10, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "5 messages suppressed");
	assert_copy(&l.m[1], ns, "next window 0");
	rec_list_free(&l);
}

/*
 * A refusal lasts to the end of its window, even if the window gains
 * room for the refused child in the meantime: a sibling that ends
 * leaves a larger share, which the refused child gets from the next
 * window.  A settings change ends a window, and a refusal, at once
 * (prop_budget_new_settings_open_a_new_window).
 */
static void prop_refusal_lasts_to_the_window_end(void **state)
{
	struct klog_ns *other = mk_child(root, "o", 4096);
	struct rec_list l;

	(void)state;
	send_n(ns, 6, "c");			/* share 5: 5 go, 1 refused */
	assert_int_equal(committed(root), 5);
	klog_ns_put(other);			/* share 10 from now on */
	send_n(ns, 2, "after");
	assert_int_equal(committed(root), 5);
	assert_int_equal(missed(ns), 3);
	clock_advance_ms(5000);
	send_n(ns, 9, "next");			/* the note, then 9 of 10 */
	read_from(root, 5, &l);
	assert_int_equal(l.n, 10);
	assert_copy(&l.m[0], ns, "3 messages suppressed");
	assert_copy(&l.m[9], ns, "next 8");
	rec_list_free(&l);
}

/*
 * Siblings share their parent's budget: two children get prop_burst / 2
 * records each, a late third one finds the window spent.  A note costs a
 * unit of the parent's budget but not of the child's share.
 */
static void prop_budget_shared_by_siblings(void **state)
{
	struct klog_ns *other = mk_child(root, "o", 4096), *third;
	struct klog_ns_stats st;
	struct rec_list l;
	unsigned int i;
	char want[32];

	(void)state;
	/*
	 * Turn by turn, 12 each: share 5, so c 0-4 and o 0-4 fill the
	 * budget of 10; every later record is refused, and with the budget
	 * spent no note is sent either.
	 */
	for (i = 0; i < 12; i++) {
		klog_ns_printk(ns, "c %u\n", i);
		klog_ns_printk(other, "o %u\n", i);
	}
	assert_int_equal(committed(root), 10);
	assert_int_equal(root->budget.used, 10);
	read_all(root, &l);
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "c %u", i);
		assert_copy(&l.m[2 * i], ns, want);
		snprintf(want, sizeof(want), "o %u", i);
		assert_copy(&l.m[2 * i + 1], other, want);
	}
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 5);
	assert_int_equal(st.suppressed, 7);
	assert_int_equal(missed(ns), 7);
	klog_ns_get_stats(other, &st);
	assert_int_equal(st.propagated, 5);
	assert_int_equal(st.suppressed, 7);
	assert_int_equal(missed(other), 7);
	third = mk_child(root, NULL, 4096);
	send_n(third, 1, "t");
	assert_int_equal(committed(root), 10);
	klog_ns_get_stats(third, &st);
	assert_int_equal(st.suppressed, 1);
	assert_int_equal(missed(third), 1);
	klog_ns_put(third);

	/*
	 * Next window, 6 each, c first: c's note is not paid from its
	 * share, so the note and five records (6 lines); the sixth record
	 * is over the share.  o then finds 4 units left: its note and three
	 * records; o again 3-5 find the window spent and are refused.
	 */
	clock_advance_ms(5000);
	send_n(ns, 6, "c again");
	send_n(other, 6, "o again");
	assert_int_equal(root->budget.used, 10);
	read_from(root, 10, &l);
	assert_int_equal(l.n, 10);
	assert_copy(&l.m[0], ns, "7 messages suppressed");
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "c again %u", i);
		assert_copy(&l.m[1 + i], ns, want);
	}
	assert_copy(&l.m[6], other, "7 messages suppressed");
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "o again %u", i);
		assert_copy(&l.m[7 + i], other, want);
	}
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 5 + 5);
	assert_int_equal(st.suppressed, 7 + 1);
	assert_int_equal(missed(ns), 1);
	klog_ns_get_stats(other, &st);
	assert_int_equal(st.propagated, 5 + 3);
	assert_int_equal(st.suppressed, 7 + 3);
	assert_int_equal(missed(other), 3);
	klog_ns_put(other);
}

/*
 * Regression: a child that had used up its share sent a "1 messages
 * suppressed" note with every later refused record, as long as the
 * parent's budget had room, so one flooding child ate its siblings'
 * budget with notes.  Two children, burst 10, share 5: a floods with 11
 * records in one window and gets exactly its 5, without a note; its
 * sibling's record still goes.  The next window brings a's note of all
 * 6 refusals, then its record.
 */
static void prop_budget_flooding_child_leaves_siblings_their_share(void **state)
{
	struct klog_ns *a = ns, *b = mk_child(root, "b", 4096);
	struct klog_ns_stats st;
	struct rec_list l;
	unsigned int i;
	char want[32];

	(void)state;
	assert_int_equal(root->budget.children, 2);
	assert_int_equal(root->cfg->prop_burst, 10);
	send_n(a, 11, "a");
	assert_int_equal(committed(a), 11);
	assert_int_equal(committed(root), 5);
	assert_int_equal(root->budget.used, 5);
	assert_int_equal(a->copy_used, 5);
	assert_int_equal(missed(a), 6);
	send_n(b, 1, "b");
	assert_int_equal(root->budget.used, 6);
	read_all(root, &l);
	assert_int_equal(l.n, 6);
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "a %u", i);
		assert_copy(&l.m[i], a, want);
	}
	assert_copy(&l.m[5], b, "b 0");
	rec_list_free(&l);
	klog_ns_get_stats(a, &st);
	assert_int_equal(st.propagated, 5);
	assert_int_equal(st.suppressed, 6);
	klog_ns_get_stats(b, &st);
	assert_int_equal(st.propagated, 1);
	assert_int_equal(st.suppressed, 0);
	assert_int_equal(missed(b), 0);

	/* Next window: the note of the 6 refusals, then the record. */
	clock_advance_ms(5000);
	send_n(a, 1, "a next");
	read_from(root, 6, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], a, "6 messages suppressed");
	assert_copy(&l.m[1], a, "a next 0");
	rec_list_free(&l);
	assert_int_equal(root->budget.used, 2);
	assert_int_equal(a->copy_used, 1);
	assert_int_equal(missed(a), 0);
	klog_ns_get_stats(a, &st);
	assert_int_equal(st.propagated, 6);
	assert_int_equal(st.suppressed, 6);
	klog_ns_put(b);
}

/*
 * A note needs a unit of the window after its record's: when only the
 * record's is left, the record goes alone and the count keeps growing
 * until a window has room for both.  Burst 3, two children: share 1.
 */
static void prop_budget_note_waits_for_room(void **state)
{
	struct klog_ns *o = mk_child(root, "o", 4096);
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	root->cfg->prop_burst = 3;
	root->cfg->prop_interval_ms = 1000;
	/* Window 1: one record each, the second of each refused. */
	send_n(ns, 2, "c");
	send_n(o, 2, "o");
	assert_int_equal(committed(root), 2);
	assert_int_equal(missed(ns), 1);
	assert_int_equal(missed(o), 1);

	/*
	 * Window 2: o's note and record take 2 units; c's record takes the
	 * last one, with no room for its note; c's next record is refused.
	 */
	clock_advance_ms(1000);
	send_n(o, 1, "o2");
	send_n(ns, 2, "c2");
	assert_int_equal(root->budget.used, 3);
	read_from(root, 2, &l);
	assert_int_equal(l.n, 3);
	assert_copy(&l.m[0], o, "1 messages suppressed");
	assert_copy(&l.m[1], o, "o2 0");
	assert_copy(&l.m[2], ns, "c2 0");
	rec_list_free(&l);
	assert_int_equal(missed(ns), 2);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 2);
	assert_int_equal(st.suppressed, 2);

	/* Window 3: room for both: the note tells of both refusals. */
	clock_advance_ms(1000);
	send_n(ns, 1, "c3");
	read_from(root, 5, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "2 messages suppressed");
	assert_copy(&l.m[1], ns, "c3 0");
	rec_list_free(&l);
	assert_int_equal(root->budget.used, 2);
	assert_int_equal(missed(ns), 0);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 3);
	assert_int_equal(st.suppressed, 2);
	klog_ns_put(o);
}

/*
 * Regression: a child whose share is 1 (six children, burst 10) was
 * starved for good once it had a refusal to report, when its note was
 * paid from its share: every later window brought the note and refused
 * the record again.  The note is paid from the parent's budget only: the
 * next window brings the note and the record, the windows after it the
 * record alone.  A note never goes without its record: when the
 * siblings spent the window, the record is refused and counted, no note
 * goes, and the next note tells of both refusals.
 */
static void prop_budget_share_of_one_not_starved_by_notes(void **state)
{
	struct klog_ns *kid[6];
	struct klog_ns_stats st;
	struct rec_list l;
	unsigned int w, i;
	u64 seen;
	char want[32];

	(void)state;
	kid[0] = ns;
	for (i = 1; i < 6; i++)
		kid[i] = mk_child(root, i % 2 ? "k" : NULL, 4096);
	assert_int_equal(root->budget.children, 6);
	assert_int_equal(ns->cfg->propagate, KLOG_PROPAGATE_KERNEL);
	assert_int_equal(ns->cfg->prop_burst, 10);	/* share 10 / 6 = 1 */

	/* Window 1: "a" is the share, "b" is refused. */
	klog_ns_printk(ns, "a\n");
	klog_ns_printk(ns, "b\n");
	read_all(root, &l);
	assert_int_equal(l.n, 1);
	assert_copy(&l.m[0], ns, "a");
	rec_list_free(&l);
	assert_int_equal(root->budget.used, 1);
	assert_int_equal(missed(ns), 1);
	seen = 1;

	/* Windows 2-4: one record each, and it gets through every time. */
	for (w = 2; w <= 4; w++) {
		clock_advance_ms(5000);
		snprintf(want, sizeof(want), "w%u", w);
		klog_ns_printk(ns, "%s\n", want);
		read_from(root, seen, &l);
		if (w == 2) {
			assert_int_equal(l.n, 2);
			assert_copy(&l.m[0], ns, "1 messages suppressed");
			assert_copy(&l.m[1], ns, want);
		} else {
			assert_int_equal(l.n, 1);
			assert_copy(&l.m[0], ns, want);
		}
		/* Every line that came was paid from the budget. */
		assert_int_equal(root->budget.used, l.n);
		seen += l.n;
		rec_list_free(&l);
		assert_int_equal(missed(ns), 0);
		klog_ns_get_stats(ns, &st);
		assert_int_equal(st.propagated, w);
		assert_int_equal(st.suppressed, 1);
	}

	/*
	 * Still window 4: each sibling gets its share and one refusal,
	 * and a second record of c is refused (over its share).
	 */
	for (i = 1; i < 6; i++)
		send_n(kid[i], 2, "sib");
	klog_ns_printk(ns, "c\n");
	assert_int_equal(root->budget.used, 1 + 5);
	assert_int_equal(committed(root), seen + 5);
	seen += 5;
	assert_int_equal(missed(ns), 1);

	/*
	 * Window 5: the siblings' notes and records fill the budget; c's
	 * record finds the window spent: refused, and no note either.
	 */
	clock_advance_ms(5000);
	for (i = 1; i < 6; i++)
		send_n(kid[i], 1, "sib again");
	assert_int_equal(root->budget.used, 10);
	klog_ns_printk(ns, "e\n");
	assert_int_equal(root->budget.used, 10);
	read_from(root, seen, &l);
	assert_int_equal(l.n, 10);
	for (i = 0; i < 10; i++)
		assert_copy(&l.m[i], kid[1 + i / 2],
			    i % 2 ? "sib again 0" : "1 messages suppressed");
	rec_list_free(&l);
	seen += 10;
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 4);
	assert_int_equal(st.suppressed, 3);
	assert_int_equal(missed(ns), 2);

	/* Window 6: the note of both refusals, then the record. */
	clock_advance_ms(5000);
	klog_ns_printk(ns, "f\n");
	read_from(root, seen, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "2 messages suppressed");
	assert_copy(&l.m[1], ns, "f");
	rec_list_free(&l);
	assert_int_equal(root->budget.used, 2);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 5);
	assert_int_equal(st.suppressed, 3);
	assert_int_equal(missed(ns), 0);
	for (i = 1; i < 6; i++)
		klog_ns_put(kid[i]);
}

static void prop_budget_ignores_unpropagated_records(void **state)
{
	struct klog_ns_stats st;
	unsigned int i;

	(void)state;
	/* Policy 1: /dev/kmsg writes are not copied and use no budget. */
	for (i = 0; i < 30; i++)
		store_msg(ns, CALLER(1), KLOG_MSG_USER, -1, "user\n");
	send_n(ns, 10, "kernel");
	assert_int_equal(committed(root), 10);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 0);
	assert_int_equal(st.propagated, 10);
}

/*
 * c's children b and d share c's budget (share 5 each); c shares the
 * root's with nobody (share 10), but its own records used 4 of it.  b's
 * records beyond its share are refused without a note (b's share is
 * spent, and a note never goes without a record); d gets the other half
 * of c's budget, and only part of that gets past c.  The refusals count
 * where they happened, and the next window brings each hop's note, just
 * before the record it goes with.
 */
static void prop_budget_in_the_middle_of_a_chain(void **state)
{
	struct klog_ns *b = mk_child(ns, "b", 16384);
	struct klog_ns *d = mk_child(ns, "d", 16384);
	struct klog_ns_stats st;
	struct rec_list l;
	unsigned int i;
	char want[96], lb[LABEL_BUF], ld[LABEL_BUF];

	(void)state;
	label(b, lb);
	label(d, ld);
	assert_int_equal(ns->budget.children, 2);
	assert_int_equal(root->budget.children, 1);
	send_n(ns, 4, "c");	/* root: 4 */
	/*
	 * b 0-4 reach c and the root (c: 5, root: 9); b 5-7 are over b's
	 * share: refused, and no note goes to c.
	 */
	send_n(b, 8, "b");
	assert_int_equal(ns->budget.used, 5);
	assert_int_equal(root->budget.used, 9);
	assert_int_equal(missed(b), 3);
	/*
	 * d 0-4 reach c (c: 10).  At the root, d 0 takes the last unit;
	 * d 1-4 are refused there (c counts 4).  d 5-7 find c's budget
	 * spent, and d's share too.
	 */
	send_n(d, 8, "d");
	assert_int_equal(committed(ns), 4 + 5 + 5);
	assert_int_equal(committed(root), 10);
	assert_int_equal(ns->budget.used, 10);
	assert_int_equal(root->budget.used, 10);

	read_all(ns, &l);
	assert_int_equal(l.n, 14);
	for (i = 0; i < 4; i++) {
		snprintf(want, sizeof(want), "c %u", i);
		assert_text(&l.m[i], want);
	}
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "b %u", i);
		assert_copy(&l.m[4 + i], b, want);
	}
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "d %u", i);
		assert_copy(&l.m[9 + i], d, want);
	}
	rec_list_free(&l);

	/* The root: c's own, then b's five and d's first, no note. */
	read_all(root, &l);
	assert_int_equal(l.n, 10);
	for (i = 0; i < 4; i++) {
		snprintf(want, sizeof(want), "c %u", i);
		assert_copy(&l.m[i], ns, want);
	}
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "%sb %u", lb, i);
		assert_copy(&l.m[4 + i], ns, want);
	}
	snprintf(want, sizeof(want), "%sd 0", ld);
	assert_copy(&l.m[9], ns, want);
	rec_list_free(&l);

	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 4 + 5 + 1);
	assert_int_equal(st.suppressed, 4);
	assert_int_equal(missed(ns), 4);
	klog_ns_get_stats(b, &st);
	assert_int_equal(st.propagated, 5);
	assert_int_equal(st.suppressed, 3);
	assert_int_equal(missed(b), 3);
	klog_ns_get_stats(d, &st);
	assert_int_equal(st.propagated, 5);
	assert_int_equal(st.suppressed, 3);
	assert_int_equal(missed(d), 3);

	clock_advance_ms(5000);
	send_n(d, 1, "d after");
	/* c gets d's note and record ... */
	read_from(ns, 14, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], d, "3 messages suppressed");
	assert_copy(&l.m[1], d, "d after 0");
	rec_list_free(&l);
	/*
	 * ... the root c's own note, then the copy of d's record (d's note
	 * stays in c: only c's newest record goes up).
	 */
	read_from(root, 10, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], ns, "4 messages suppressed");
	snprintf(want, sizeof(want), "%sd after 0", ld);
	assert_copy(&l.m[1], ns, want);
	rec_list_free(&l);
	assert_int_equal(ns->budget.used, 2);
	assert_int_equal(root->budget.used, 2);
	assert_int_equal(missed(ns), 0);
	assert_int_equal(missed(d), 0);
	/* b sent nothing: its count waits for its next record ... */
	assert_int_equal(missed(b), 3);

	/* ... which brings b's note to c, and c's copy alone to the root. */
	send_n(b, 1, "b after");
	read_from(ns, 16, &l);
	assert_int_equal(l.n, 2);
	assert_copy(&l.m[0], b, "3 messages suppressed");
	assert_copy(&l.m[1], b, "b after 0");
	rec_list_free(&l);
	read_from(root, 12, &l);
	assert_int_equal(l.n, 1);
	snprintf(want, sizeof(want), "%sb after 0", lb);
	assert_copy(&l.m[0], ns, want);
	rec_list_free(&l);
	assert_int_equal(ns->budget.used, 4);
	assert_int_equal(root->budget.used, 3);
	assert_int_equal(missed(b), 0);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 10 + 2);
	assert_int_equal(st.suppressed, 4);
	klog_ns_get_stats(b, &st);
	assert_int_equal(st.propagated, 6);
	assert_int_equal(st.suppressed, 3);
	klog_ns_get_stats(d, &st);
	assert_int_equal(st.propagated, 6);
	assert_int_equal(st.suppressed, 3);
	klog_ns_put(b);
	klog_ns_put(d);
}

/*
 * Many children of one parent, each flooding: whatever their number, the
 * parent receives at most prop_burst lines (copies and notes) per window,
 * each child at most max(1, burst / children) records; every refusal is
 * counted once, and each note tells exactly how many were refused since
 * the child's previous note.  What reaches the parent is predicted send
 * by send with model_take(): nothing, the record, or the note then the
 * record.  Some children skip some turns (@skip), so that the budget is
 * left with an odd unit and a note has to wait.
 */
#define NKIDS 50

struct kid_model {
	struct child_model c;
	u64 stored, copied, notes;
};

/* How often each branch of the rule was taken, over all the floods. */
static u64 seen_notes, seen_full, seen_over_share, seen_over_share_pending,
	   seen_note_waits;

/* Read what @par got since @cur into @got (at most 3 lines); how many. */
static unsigned int read_new(struct klog_ns *par, struct klog_cursor *cur,
			     struct klog_msgbuf *got)
{
	unsigned int n = 0;

	while (n < 3 && klog_ns_read(par, cur, &got[n]) == 1) {
		assert_int_equal(got[n].lost, 0);
		got[n].rec.text = got[n].text;
		got[n].rec.dict = got[n].dict;
		n++;
	}
	return n;
}

static void flood_many_children(u32 burst, unsigned int per_window,
				unsigned int windows, unsigned int skip)
{
	struct klog_ns *par = mk_child(root, "par", 65536);
	struct klog_ns *kid[NKIDS];
	struct kid_model km[NKIDS];
	struct budget_model bm = { .burst = burst };
	u32 share = burst / NKIDS ? burst / NKIDS : 1;
	struct klog_cursor cur;
	struct klog_msgbuf got[3];
	struct klog_ns_stats st;
	unsigned int w, r, k, i, n, records;
	char text[64], note[64];
	u64 lines = 0;

	par->cfg->prop_burst = burst;
	par->cfg->prop_interval_ms = 100;
	memset(km, 0, sizeof(km));
	for (i = 0; i < NKIDS; i++)
		kid[i] = mk_child(par, i % 2 ? NULL : "kid", 4096);
	assert_int_equal(par->budget.children, NKIDS);
	klog_ring_cursor_first(&par->ring, &cur);

	for (w = 0; w < windows; w++) {
		for (i = 0; i < NKIDS; i++)
			km[i].c.used = 0;
		bm.used = 0;
		records = 0;
		for (r = 0; r < per_window; r++) {
			/* Start elsewhere each window: all get a turn. */
			for (k = 0; k < NKIDS; k++) {
				struct kid_model *m;
				enum take t;
				u32 note_n;

				i = (k + w * 17) % NKIDS;
				m = &km[i];
				if (skip && (i * 7 + w * 3 + r) % skip == 0)
					continue;

				/* Which branch of the rule this send takes. */
				if (bm.used >= burst) {
					seen_full++;
				} else if (m->c.used >= share) {
					seen_over_share++;
					if (m->c.missed)
						seen_over_share_pending++;
				} else if (m->c.missed &&
					   bm.used + 1 >= burst) {
					seen_note_waits++;
				}
				t = model_take(&bm, &m->c, share, &note_n);

				snprintf(text, sizeof(text), "w%u r%u", w, r);
				klog_ns_printk(kid[i], "\0016%s\n", text);
				m->stored++;

				/* What reached the parent: [note] [copy]. */
				n = read_new(par, &cur, got);
				switch (t) {
				case REFUSED:
					assert_int_equal(n, 0);
					break;
				case RECORD:
					assert_int_equal(n, 1);
					assert_copy(&got[0], kid[i], text);
					break;
				case NOTE_AND_RECORD:
					assert_int_equal(n, 2);
					snprintf(note, sizeof(note),
						 "%u messages suppressed",
						 note_n);
					assert_copy(&got[0], kid[i], note);
					assert_copy(&got[1], kid[i], text);
					m->notes++;
					seen_notes++;
					break;
				}
				if (t != REFUSED) {
					m->copied++;
					records++;
				}
				klog_ns_get_stats(kid[i], &st);
				assert_int_equal(st.stored, m->stored);
				assert_int_equal(st.propagated, m->copied);
				assert_int_equal(st.suppressed,
						 m->stored - m->copied);
				assert_int_equal(missed(kid[i]),
						 m->c.missed);
				assert_int_equal(kid[i]->copy_used, m->c.used);
				assert_true(m->c.used <= share);
				assert_int_equal(par->budget.used, bm.used);
			}
		}
		/* The window's totals. */
		assert_true(bm.used <= burst);
		assert_true(records <= share * NKIDS);
		clock_advance_ms(100);
	}
	/* Every line the parent got was predicted, and no more. */
	assert_int_equal(read_new(par, &cur, got), 0);
	klog_ns_get_stats(par, &st);
	assert_int_equal(st.dropped_overwrite, 0);
	for (i = 0; i < NKIDS; i++) {
		lines += km[i].copied + km[i].notes;
		klog_ns_put(kid[i]);
	}
	assert_int_equal(st.stored, lines);
	assert_int_equal(par->budget.children, 0);
	klog_ns_put(par);
}

static void prop_budget_many_children_share_one_budget(void **state)
{
	(void)state;
	seen_notes = seen_full = seen_over_share = 0;
	seen_over_share_pending = seen_note_waits = 0;
	/*
	 * 120 / 50: a share of 2 each binds; the fourth turn is refused
	 * with a refusal already pending and room left in the window (where
	 * the old bug sent a note).
	 */
	flood_many_children(120, 4, 4, 0);
	/* The same with turns skipped: odd units, notes that wait. */
	flood_many_children(121, 3, 5, 4);
	/* 30 / 50: the share is 1, the whole budget binds. */
	flood_many_children(30, 2, 4, 0);
	flood_many_children(31, 3, 4, 3);
	/* The default burst of 10. */
	flood_many_children(KLOG_PROP_BURST, 2, 3, 0);
	/* Every branch of the rule was taken. */
	assert_true(seen_notes > 0);
	assert_true(seen_full > 0);
	assert_true(seen_over_share > 0);
	assert_true(seen_over_share_pending > 0);
	assert_true(seen_note_waits > 0);
}

static void ratelimit_check_state_machine(void **state)
{
	struct klog_ratelimit rl = { 0 };
	u64 t = 77 * NSEC_PER_MSEC;
	u32 missed = 99;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_true(klog_ratelimit_check(&rl, t, 3, 100, &missed));
		assert_int_equal(missed, 0);
	}
	assert_false(klog_ratelimit_check(&rl, t + 99 * NSEC_PER_MSEC, 3,
					  100, &missed));
	assert_false(klog_ratelimit_check(&rl, t + 99 * NSEC_PER_MSEC, 3,
					  100, &missed));
	assert_int_equal(missed, 0);
	/* The end of the window still belongs to it (6.12: strictly after). */
	assert_false(klog_ratelimit_check(&rl, t + 100 * NSEC_PER_MSEC, 3,
					  100, &missed));
	assert_int_equal(missed, 0);
	/* New window: the count of refusals is reported exactly once. */
	assert_true(klog_ratelimit_check(&rl, t + 101 * NSEC_PER_MSEC, 3,
					 100, &missed));
	assert_int_equal(missed, 3);
	assert_true(klog_ratelimit_check(&rl, t + 102 * NSEC_PER_MSEC, 3,
					 100, &missed));
	assert_int_equal(missed, 0);
	/* Interval 0: everything passes, whatever the burst. */
	for (i = 0; i < 50; i++)
		assert_true(klog_ratelimit_check(&rl, t, 3, 0, &missed));
	for (i = 0; i < 50; i++) {
		assert_true(klog_ratelimit_check(&rl, t, 0, 0, &missed));
		assert_int_equal(missed, 0);
	}
	/* Burst 0 with a window: nothing passes, refusals are reported. */
	memset(&rl, 0, sizeof(rl));
	assert_false(klog_ratelimit_check(&rl, t, 0, 100, &missed));
	assert_false(klog_ratelimit_check(&rl, t, 0, 100, &missed));
	assert_false(klog_ratelimit_check(&rl, t + 101 * NSEC_PER_MSEC, 0, 100,
					  &missed));
	assert_int_equal(missed, 2);
}

/* ---- wake-ups ------------------------------------------------------------ */

/*
 * A thread waits on a namespace's wait queue.  It holds the queue's mutex
 * from "ready" until pthread_cond_timedwait() releases it, so once the main
 * thread has taken that mutex the waiter is asleep.  The deadline is only a
 * safety net against hanging: a missing wake-up fails the test, it is not a
 * timing measurement.
 */
struct waiter {
	kl_waitq_t *wq;
	int ready;
	int rc;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	struct timespec deadline;

	pthread_mutex_lock(&w->wq->mu);
	atomic_fetch_add(&w->wq->waiters, 1);	/* as kl_waitq_wait() */
	__atomic_store_n(&w->ready, 1, __ATOMIC_RELEASE);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 30;
	w->rc = pthread_cond_timedwait(&w->wq->cv, &w->wq->mu, &deadline);
	atomic_fetch_sub(&w->wq->waiters, 1);
	pthread_mutex_unlock(&w->wq->mu);
	return NULL;
}

static void start_waiter(struct waiter *w, kl_waitq_t *wq, pthread_t *th)
{
	w->wq = wq;
	w->ready = 0;
	w->rc = -1;
	assert_int_equal(pthread_create(th, NULL, wait_thread, w), 0);
	while (!__atomic_load_n(&w->ready, __ATOMIC_ACQUIRE))
		sched_yield();
	pthread_mutex_lock(&wq->mu);	/* the waiter is now asleep */
	pthread_mutex_unlock(&wq->mu);
}

static void prop_wakes_readers_up_the_chain(void **state)
{
	struct klog_ns *b = mk_child(ns, "b", 4096);
	struct waiter wr, wn, wb;
	pthread_t tr, tn, tb;

	(void)state;
	start_waiter(&wr, &root->wait, &tr);
	start_waiter(&wn, &ns->wait, &tn);
	start_waiter(&wb, &b->wait, &tb);
	/* A record in b reaches c and the root: all three are woken. */
	klog_ns_printk(b, "wake up\n");
	pthread_join(tr, NULL);
	pthread_join(tn, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(wr.rc, 0);
	assert_int_equal(wn.rc, 0);
	assert_int_equal(wb.rc, 0);
	assert_int_equal(committed(root), 1);

	/* Committing a pending line by klog_ns_flush() wakes the same way. */
	klog_ns_printk(b, "pending");
	start_waiter(&wr, &root->wait, &tr);
	klog_ns_flush(b);
	pthread_join(tr, NULL);
	assert_int_equal(wr.rc, 0);
	assert_int_equal(committed(root), 2);
	klog_ns_put(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TP(caller_id_is_the_thread_id),
		TP(prefix_levels_0_to_7),
		TP(prefix_cont_and_default),
		TP(prefix_out_of_range_is_text),
		TP(prefix_first_level_wins),
		TP(printk_level_prefix_sets_level),
		TP(printk_default_level),
		TP(printk_out_of_range_prefix_stays_in_text),
		TP(printk_first_of_two_levels_wins),
		TP(printk_newlines),
		TP(printk_empty_text_stores_empty_record),
		TP(printk_bad_arguments),
		TP(printk_long_text_truncated),
		TP(printk_exact_max_text_not_truncated),
		TP(printk_timestamp_and_caller),
		TP(store_fields_and_no_prefix_parsing),
		TP(store_level_out_of_range_is_default),
		TP(store_long_text_truncated),
		TP(store_empty_line_with_newline),
		TP(prop_policy_none),
		TP(prop_policy_kernel_only),
		TP(prop_policy_all),
		TP(prop_own_policy_of_a_parent),
		TP(prop_prefix_tag_or_id),
		TP(prop_label_tag_cannot_forge_origin),
		TP(prop_label_longest_is_whole),
		TP(prop_copy_keeps_metadata),
		TP(prop_copy_dict),
		TP(prop_copy_of_max_record_is_truncated),
		TP(prop_cont_line_copied_once),
		TP(prop_three_levels_deep),
		TP(prop_overwritten_before_copy_counts_suppressed),
		TP(printk_recursion_is_refused),
		TP(prop_user_records_three_levels),
		TP(prop_user_copy_is_one_line_of_notice),
		TP(prop_user_copy_is_in_the_user_facility),
		TP(prop_local_never_copied),
		TP(prop_user_fragment_not_joined_to_kernel_line),
		TP(prop_budget_burst_and_suppressed_note),
		TP(prop_budget_no_note_without_suppression),
		TP(prop_budget_custom_settings),
		TP(prop_budget_interval_and_burst_clamped),
		TP(prop_budget_new_settings_open_a_new_window),
		TP(prop_budget_burst_zero_sends_nothing),
		TP(prop_refused_child_leaves_the_parent_alone),
		TP(prop_refused_forwarder_passes_over_its_backlog),
		TP(prop_refusal_lasts_to_the_window_end),
		TP(prop_suppressed_count_never_falls),
		TP(prop_refusal_count_saturates),
		TP(prop_budget_shared_by_siblings),
		TP(prop_budget_flooding_child_leaves_siblings_their_share),
		TP(prop_budget_note_waits_for_room),
		TP(prop_budget_share_of_one_not_starved_by_notes),
		TP(prop_budget_ignores_unpropagated_records),
		TP(prop_budget_in_the_middle_of_a_chain),
		TP(prop_budget_many_children_share_one_budget),
		TP(ratelimit_check_state_machine),
		TP(prop_wakes_readers_up_the_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
