// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_printk.c - the store path: KERN_SOH prefixes, newlines, levels,
 * bad input, truncation; propagation to parents (policies 0/1/2, the
 * "[tag] " and "[ns:<id>] " prefixes, three levels deep), its ratelimit on
 * a fake clock, the "<N> messages suppressed" line and the counters.
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
	assert_text(&l.m[0], "[c] from the kernel");
	assert_text(&l.m[1], "[c] kernel via store");
	assert_text(&l.m[2], "[c] kernel partial");
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
	assert_text(&l.m[0], "[c] from /dev/kmsg");
	assert_text(&l.m[1], "[c] from the kernel");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 2);
	/* The policy is read live. */
	ns->cfg->propagate = KLOG_PROPAGATE_NONE;
	klog_ns_printk(ns, "not copied\n");
	assert_int_equal(committed(root), 2);
}

static void prop_prefix_tag_or_id(void **state)
{
	struct klog_ns_params p = { .size = 4096, .id = 4026532001ull };
	struct klog_ns *anon, *fixed;
	struct rec_list l;
	char want[64];

	(void)state;
	anon = mk_child(root, NULL, 4096);
	assert_int_equal(klog_ns_create(root, &p, &fixed), 0);
	klog_ns_printk(ns, "tagged\n");
	klog_ns_printk(anon, "anonymous\n");
	klog_ns_printk(fixed, "fixed id\n");
	read_all(root, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "[c] tagged");
	snprintf(want, sizeof(want), "[ns:%llu] anonymous",
		 (unsigned long long)anon->id);
	assert_text(&l.m[1], want);
	assert_text(&l.m[2], "[ns:4026532001] fixed id");
	rec_list_free(&l);
	klog_ns_put(anon);
	klog_ns_put(fixed);
}

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
	assert_text(&copy, "[c] link down");
	assert_int_equal(copy.rec.facility, 4);
	assert_int_equal(copy.rec.level, 1);
	assert_int_equal(copy.rec.caller_id, CALLER(77));
	assert_int_equal(copy.rec.flags, child.rec.flags);
	assert_int_equal(copy.rec.ts_nsec, 5555 * NSEC_PER_MSEC);
	assert_int_equal(copy.rec.ts_nsec, child.rec.ts_nsec);
	assert_int_equal(copy.rec.dict_len, sizeof(dict) - 1);
	assert_memory_equal(copy.rec.dict, dict, sizeof(dict) - 1);
}

static void prop_copy_of_max_record_is_truncated(void **state)
{
	char big[KLOG_RECORD_MAX + 1];
	struct klog_msgbuf child, copy;

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
	assert_memory_equal(copy.rec.text, "[c] mmm", 7);
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
	assert_text(&copy, "[c] part one, part two, end");
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
	char want[96];
	u32 hops;
	kl_irqflags_t fl = 0;

	(void)state;
	/* root <- c <- b <- d (no tag) */
	klog_ns_printk(d, "\0012deep\n");
	only_rec(d, &mb);
	assert_text(&mb, "deep");
	snprintf(want, sizeof(want), "[ns:%llu] deep",
		 (unsigned long long)d->id);
	only_rec(b, &mb);
	assert_text(&mb, want);
	assert_int_equal(mb.rec.level, 2);
	snprintf(want, sizeof(want), "[b] [ns:%llu] deep",
		 (unsigned long long)d->id);
	only_rec(ns, &mb);
	assert_text(&mb, want);
	snprintf(want, sizeof(want), "[c] [b] [ns:%llu] deep",
		 (unsigned long long)d->id);
	only_rec(root, &mb);
	assert_text(&mb, want);
	assert_int_equal(mb.rec.level, 2);
	assert_true(mb.rec.flags & KLOG_F_NEWLINE);

	/* A record from the middle climbs only from there. */
	klog_ns_printk(b, "middle\n");
	assert_int_equal(committed(d), 1);
	read_from(ns, 1, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "[b] middle");
	rec_list_free(&l);
	read_from(root, 1, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "[c] [b] middle");
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

	/* Committing a pending line reports how many ancestors got it. */
	klog_ns_printk(d, "pending");
	kl_lock_irqsave(&d->lock, fl);
	hops = klog_ns_flush_locked(d);
	kl_unlock_irqrestore(&d->lock, fl);
	klog_ns_wake(d, hops);
	assert_int_equal(hops, 3);
	assert_int_equal(committed(root), 3);
	klog_ns_put(d);
	klog_ns_put(b);
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

/* ---- the propagation ratelimit ----------------------------------------- */

static void send_n(struct klog_ns *n, unsigned int count, const char *what)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		klog_ns_printk(n, "%s %u\n", what, i);
}

static void prop_ratelimit_burst_and_suppressed_line(void **state)
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
		snprintf(want, sizeof(want), "[c] flood %u", i);
		assert_text(&l.m[i], want);
	}
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 10);
	assert_int_equal(st.suppressed, 5);

	/* Still inside the window: refused. */
	clock_advance_ms(4999);
	klog_ns_printk(ns, "late\n");
	assert_int_equal(committed(root), 10);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 6);

	/* Strictly after the window (6.12): one summary line, the record. */
	clock_advance_ms(1);
	fake_now++;
	klog_ns_printk(ns, "\0013back\n");
	klog_ns_printk(ns, "and more\n");
	read_from(root, 10, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "[c] 6 messages suppressed");
	assert_int_equal(l.m[0].rec.level, KLOG_DEFAULT_LEVEL);
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	assert_int_equal(l.m[0].rec.ts_nsec, fake_now);
	assert_text(&l.m[1], "[c] back");
	assert_int_equal(l.m[1].rec.level, 3);
	assert_text(&l.m[2], "[c] and more");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 12);
	assert_int_equal(st.suppressed, 6);
	assert_int_equal(committed(ns), 18);
}

static void prop_ratelimit_no_line_without_suppression(void **state)
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

static void prop_ratelimit_custom_settings(void **state)
{
	struct klog_ns_stats st;
	struct rec_list l;

	(void)state;
	ns->cfg->prop_burst = 3;
	ns->cfg->prop_interval_ms = 1000;
	send_n(ns, 7, "m");
	assert_int_equal(committed(root), 3);
	clock_advance_ms(1000);
	fake_now++;
	send_n(ns, 1, "after");
	read_from(root, 3, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "[c] 4 messages suppressed");
	assert_text(&l.m[1], "[c] after 0");
	rec_list_free(&l);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 4);
	assert_int_equal(st.propagated, 4);
}

static void prop_ratelimit_interval_zero_disables(void **state)
{
	struct klog_ns_stats st;

	(void)state;
	ns->cfg->prop_interval_ms = 0;
	send_n(ns, 100, "unlimited");
	assert_int_equal(committed(root), 100);
	ns->cfg->prop_burst = 0;		/* no window: burst is moot */
	send_n(ns, 20, "still unlimited");
	assert_int_equal(committed(root), 120);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 120);
	assert_int_equal(st.suppressed, 0);
}

static void prop_ratelimit_burst_zero_sends_only_summaries(void **state)
{
	struct klog_ns_stats st;
	struct klog_msgbuf mb;

	(void)state;
	ns->cfg->prop_burst = 0;
	ns->cfg->prop_interval_ms = 1000;
	send_n(ns, 4, "refused");
	assert_int_equal(committed(root), 0);
	clock_advance_ms(1000);
	fake_now++;
	send_n(ns, 1, "refused too");
	only_rec(root, &mb);
	assert_text(&mb, "[c] 4 messages suppressed");
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 0);
	assert_int_equal(st.suppressed, 5);
}

static void prop_ratelimit_is_per_namespace(void **state)
{
	struct klog_ns *other = mk_child(root, "o", 4096);
	struct klog_ns_stats st;

	(void)state;
	send_n(ns, 12, "c");
	send_n(other, 12, "o");
	assert_int_equal(committed(root), 20);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.suppressed, 2);
	klog_ns_get_stats(other, &st);
	assert_int_equal(st.suppressed, 2);
	assert_int_equal(st.propagated, 10);
	klog_ns_put(other);
}

static void prop_ratelimit_ignores_unpropagated_records(void **state)
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

static void prop_ratelimit_in_the_middle_of_a_chain(void **state)
{
	struct klog_ns *b = mk_child(ns, "b", 16384);
	struct klog_ns *d = mk_child(ns, "d", 16384);
	struct klog_ns_stats st;

	(void)state;
	/* b and d each send 8: c gets 16 copies but may pass only 10 up. */
	send_n(b, 8, "b");
	send_n(d, 8, "d");
	assert_int_equal(committed(ns), 16);
	assert_int_equal(committed(root), 10);
	klog_ns_get_stats(ns, &st);
	assert_int_equal(st.propagated, 10);
	assert_int_equal(st.suppressed, 6);
	klog_ns_get_stats(b, &st);
	assert_int_equal(st.suppressed, 0);
	klog_ns_put(b);
	klog_ns_put(d);
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
		TP(prop_prefix_tag_or_id),
		TP(prop_copy_keeps_metadata),
		TP(prop_copy_of_max_record_is_truncated),
		TP(prop_cont_line_copied_once),
		TP(prop_three_levels_deep),
		TP(prop_user_records_three_levels),
		TP(prop_ratelimit_burst_and_suppressed_line),
		TP(prop_ratelimit_no_line_without_suppression),
		TP(prop_ratelimit_custom_settings),
		TP(prop_ratelimit_interval_zero_disables),
		TP(prop_ratelimit_burst_zero_sends_only_summaries),
		TP(prop_ratelimit_is_per_namespace),
		TP(prop_ratelimit_ignores_unpropagated_records),
		TP(prop_ratelimit_in_the_middle_of_a_chain),
		TP(ratelimit_check_state_machine),
		TP(prop_wakes_readers_up_the_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
