// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_cont.c - the continuation buffer and every rule that commits it:
 * a newline, a non-continuation (a new prefix), another caller, more than
 * 80% full, a fragment that does not fit, a dictionary, and a reader
 * (klog_ns_read(), klog_ns_flush()).
 *
 * "committed(ns)" counts what is in the ring without flushing; reading
 * with read_all() flushes first, as every reader does.
 */
#include <pthread.h>

#include "common.h"

#define C1 CALLER(1)
#define C2 CALLER(2)

static struct klog_ns *root, *ns;

static int cont_setup(void **state)
{
	common_setup(state);
	root = mk_root(NULL, 65536);
	root->cfg->propagate = KLOG_PROPAGATE_NONE;
	ns = mk_child(root, "c", 16384);
	return 0;
}

static int cont_teardown(void **state)
{
	klog_ns_put(ns);
	klog_ns_put(root);
	ns = root = NULL;
	return common_teardown(state);
}

#define TC(f) cmocka_unit_test_setup_teardown(f, cont_setup, cont_teardown)

static char *filled(u32 len, char ch)
{
	char *s = malloc(len + 1);

	assert_non_null(s);
	memset(s, ch, len);
	s[len] = '\0';
	return s;
}

/* ---- newline ---------------------------------------------------------- */

static void cont_newline_commits_joined_line(void **state)
{
	struct rec_list l;

	(void)state;
	assert_int_equal(store_msg(ns, C1, 0, 3, "abc"), 3);
	assert_int_equal(committed(ns), 0);
	assert_int_equal(store_msg(ns, C1, KLOG_F_CONT, 6, "def"), 3);
	assert_int_equal(committed(ns), 0);
	assert_int_equal(store_msg(ns, C1, KLOG_F_CONT, -1, "ghi\n"), 3);
	assert_int_equal(committed(ns), 1);
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "abcdefghi");
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	assert_int_equal(l.m[0].rec.level, 3);	/* the first fragment's */
	assert_int_equal(l.m[0].rec.caller_id, C1);
	rec_list_free(&l);
}

static void cont_empty_newline_fragment_ends_line(void **state)
{
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, "abc");
	store_msg(ns, C1, KLOG_F_CONT, -1, "");		/* nothing to add */
	assert_int_equal(committed(ns), 0);
	store_msg(ns, C1, KLOG_F_CONT, -1, "\n");
	assert_int_equal(committed(ns), 1);
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "abc");
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
}

static void cont_line_keeps_first_fragment_metadata(void **state)
{
	struct klog_msg m = {
		.facility = 3, .level = 2, .caller_id = C1,
		.text = "first ", .text_len = 6,
	};
	u64 t0 = fake_now;
	struct rec_list l;

	(void)state;
	klog_ns_store(ns, &m);
	clock_advance_ms(250);
	m.facility = 9;
	m.level = 7;
	m.flags = KLOG_F_CONT;
	m.text = "second\n";
	m.text_len = 7;
	klog_ns_store(ns, &m);
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "first second");
	assert_int_equal(l.m[0].rec.ts_nsec, t0);
	assert_int_equal(l.m[0].rec.facility, 3);
	assert_int_equal(l.m[0].rec.level, 2);
	assert_int_equal(l.m[0].rec.flags, KLOG_F_NEWLINE);
	rec_list_free(&l);
}

/* ---- a new prefix / a non-continuation -------------------------------- */

static void cont_non_continuation_flushes(void **state)
{
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, 5, "abc");
	/* Same caller, not a continuation: the pending line is committed. */
	store_msg(ns, C1, 0, 6, "xyz");
	assert_int_equal(committed(ns), 1);
	store_msg(ns, C1, 0, 1, "new\n");
	assert_int_equal(committed(ns), 3);
	read_all(ns, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "abc");
	assert_int_equal(l.m[0].rec.flags & KLOG_F_NEWLINE, 0);
	assert_int_equal(l.m[0].rec.level, 5);
	assert_text(&l.m[1], "xyz");
	assert_int_equal(l.m[1].rec.level, 6);
	assert_text(&l.m[2], "new");
	assert_int_equal(l.m[2].rec.level, 1);
	assert_true(l.m[2].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
}

static void cont_printk_prefix_flushes_and_kern_cont_joins(void **state)
{
	struct rec_list l;

	(void)state;
	klog_ns_printk(ns, "\0016one ");
	klog_ns_printk(ns, "\001ctwo ");
	klog_ns_printk(ns, "\001c%s", "three");
	assert_int_equal(committed(ns), 0);
	klog_ns_printk(ns, "\0013next\n");	/* a new prefix */
	assert_int_equal(committed(ns), 2);
	klog_ns_printk(ns, "tail");
	klog_ns_printk(ns, "\001c!\n");
	assert_int_equal(committed(ns), 3);
	read_all(ns, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[0], "one two three");
	assert_int_equal(l.m[0].rec.level, 6);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_NEWLINE, 0);
	assert_text(&l.m[1], "next");
	assert_int_equal(l.m[1].rec.level, 3);
	assert_text(&l.m[2], "tail!");
	assert_int_equal(l.m[2].rec.level, KLOG_DEFAULT_LEVEL);
	assert_true(l.m[2].rec.flags & KLOG_F_NEWLINE);
	assert_int_equal(l.m[0].rec.caller_id, l.m[2].rec.caller_id);
	rec_list_free(&l);
}

static void cont_fragment_starting_with_cont_is_flagged(void **state)
{
	struct rec_list l;

	(void)state;
	/* A continuation with nothing pending starts its own line. */
	klog_ns_printk(ns, "\001corphan ");
	klog_ns_printk(ns, "\001cjoined\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "orphan joined");
	assert_true(l.m[0].rec.flags & KLOG_F_CONT);
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
}

/* ---- another caller --------------------------------------------------- */

static void cont_other_caller_flushes(void **state)
{
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, "abc");
	store_msg(ns, C2, KLOG_F_CONT, -1, "def\n");
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "abc");
	assert_int_equal(l.m[0].rec.caller_id, C1);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_NEWLINE, 0);
	assert_text(&l.m[1], "def");
	assert_int_equal(l.m[1].rec.caller_id, C2);
	assert_true(l.m[1].rec.flags & KLOG_F_CONT);
	rec_list_free(&l);
}

static void cont_two_callers_interleaved(void **state)
{
	static const struct {
		u32 caller;
		u32 flags;
		const char *text;
	} seq[] = {
		{ C1, 0, "a1 " },
		{ C1, KLOG_F_CONT, "a2 " },	/* joins a1 */
		{ C2, KLOG_F_CONT, "b1 " },	/* flushes "a1 a2 " */
		{ C2, KLOG_F_CONT, "b2 " },	/* joins b1 */
		{ C1, KLOG_F_CONT, "a3 " },	/* flushes "b1 b2 " */
		{ C2, KLOG_F_CONT, "b3\n" },	/* flushes "a3 ", own line */
		{ C1, KLOG_F_CONT, "a4 " },
		{ C1, KLOG_F_CONT, "a5\n" },	/* joins and ends */
	};
	static const struct {
		u32 caller;
		const char *text;
		bool nl;
	} want[] = {
		{ C1, "a1 a2 ", false },
		{ C2, "b1 b2 ", false },
		{ C1, "a3 ", false },
		{ C2, "b3", true },
		{ C1, "a4 a5", true },
	};
	struct rec_list l;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		store_msg(ns, seq[i].caller, seq[i].flags, -1, seq[i].text);
	assert_int_equal(committed(ns), 5);
	read_all(ns, &l);
	assert_int_equal(l.n, 5);
	for (i = 0; i < 5; i++) {
		assert_text(&l.m[i], want[i].text);
		assert_int_equal(l.m[i].rec.caller_id, want[i].caller);
		assert_int_equal(!!(l.m[i].rec.flags & KLOG_F_NEWLINE),
				 want[i].nl);
	}
	rec_list_free(&l);
}

/* ---- another origin --------------------------------------------------- */

/*
 * A line only joins fragments of one origin: kernel, user
 * (KLOG_MSG_USER), local (KLOG_MSG_LOCAL) or both.  For every pair, a
 * pending fragment of the first and a continuation of the second from
 * the same caller make one record if the origins are equal, else two.
 */
static void cont_other_origin_flushes(void **state)
{
	static const u32 origin[] = {
		0, KLOG_MSG_USER, KLOG_MSG_LOCAL,
		KLOG_MSG_USER | KLOG_MSG_LOCAL,
	};
	struct rec_list l;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 4; j++) {
			u64 before = committed(ns);

			store_msg(ns, C1, origin[i], 5, "first ");
			store_msg(ns, C1, KLOG_F_CONT | origin[j], -1,
				  "second\n");
			assert_int_equal(committed(ns) - before,
					 i == j ? 1 : 2);
		}
	}
	read_all(ns, &l);
	assert_int_equal(l.n, 4 + 12 * 2);
	assert_text(&l.m[0], "first second");
	/* kernel then user: the kernel part alone, pending no more. */
	assert_text(&l.m[1], "first ");
	assert_int_equal(l.m[1].rec.flags & KLOG_F_NEWLINE, 0);
	assert_int_equal(l.m[1].rec.level, 5);
	assert_text(&l.m[2], "second");
	assert_true(l.m[2].rec.flags & KLOG_F_CONT);
	assert_true(l.m[2].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
}

/*
 * klog_ns_printk() formats behind a pending line; a pending /dev/kmsg
 * style (user) fragment of the same caller is committed on its own
 * first, and the kernel text is not lost in the move.
 */
static void cont_printk_after_user_fragment(void **state)
{
	struct rec_list l;

	(void)state;
	store_msg(ns, kl_caller_id(), KLOG_MSG_USER, 6, "user part ");
	assert_int_equal(committed(ns), 0);
	klog_ns_printk(ns, "\001ckernel part\n");
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "user part ");
	assert_int_equal(l.m[0].rec.level, 6);
	assert_text(&l.m[1], "kernel part");
	assert_true(l.m[1].rec.flags & KLOG_F_CONT);
	rec_list_free(&l);
}

static void *other_thread_printk(void *arg)
{
	klog_ns_printk(arg, "\001c from another thread\n");
	return NULL;
}

static void cont_printk_from_other_thread_is_other_caller(void **state)
{
	struct rec_list l;
	pthread_t th;

	(void)state;
	klog_ns_printk(ns, "main thread");
	assert_int_equal(pthread_create(&th, NULL, other_thread_printk, ns), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "main thread");
	assert_text(&l.m[1], " from another thread");
	assert_int_not_equal(l.m[0].rec.caller_id, l.m[1].rec.caller_id);
	rec_list_free(&l);
}

/* ---- 80% full --------------------------------------------------------- */

static void cont_flushes_when_80_percent_full_on_start(void **state)
{
	char *small = filled(800, 's'), *big = filled(830, 'b');
	struct rec_list l;

	(void)state;
	/* 800 of 1024 bytes: under 80%, pending. */
	store_msg(ns, C1, 0, -1, small);
	assert_int_equal(committed(ns), 0);
	/* 830 bytes: over 80%, committed at once without a newline. */
	store_msg(ns, C2, 0, -1, big);
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], small);
	assert_text(&l.m[1], big);
	assert_int_equal(l.m[1].rec.flags & KLOG_F_NEWLINE, 0);
	rec_list_free(&l);
	free(small);
	free(big);
}

static void cont_flushes_when_80_percent_full_on_append(void **state)
{
	char *a = filled(500, 'a'), *b = filled(300, 'b'), *c = filled(30, 'c');
	char want[1024];
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, a);
	store_msg(ns, C1, KLOG_F_CONT, -1, b);		/* 800: pending */
	assert_int_equal(committed(ns), 0);
	store_msg(ns, C1, KLOG_F_CONT, -1, c);		/* 830: committed */
	assert_int_equal(committed(ns), 1);
	/* The line is done: the next continuation starts a new one. */
	store_msg(ns, C1, KLOG_F_CONT, -1, "more\n");
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	snprintf(want, sizeof(want), "%s%s%s", a, b, c);
	assert_text(&l.m[0], want);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_NEWLINE, 0);
	assert_text(&l.m[1], "more");
	rec_list_free(&l);
	free(a);
	free(b);
	free(c);
}

/* ---- does not fit ----------------------------------------------------- */

static void cont_fragment_that_does_not_fit_flushes(void **state)
{
	char *a = filled(700, 'a'), *b = filled(400, 'b');
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, a);
	/* 700 + 400 > 1024: the pending 700 go alone, 400 start anew. */
	store_msg(ns, C1, KLOG_F_CONT, -1, b);
	assert_int_equal(committed(ns), 1);
	store_msg(ns, C1, KLOG_F_CONT, -1, "!\n");
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], a);
	assert_int_equal(l.m[1].rec.text_len, 401);
	assert_memory_equal(l.m[1].rec.text, b, 400);
	assert_int_equal(l.m[1].rec.text[400], '!');
	assert_int_equal(l.m[0].rec.flags & KLOG_F_TRUNC, 0);
	assert_int_equal(l.m[1].rec.flags & KLOG_F_TRUNC, 0);
	rec_list_free(&l);
	free(a);
	free(b);
}

static void cont_fragment_that_exactly_fits_joins(void **state)
{
	char *a = filled(624, 'a'), *b = filled(400, 'b');
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, a);
	store_msg(ns, C1, KLOG_F_CONT | KLOG_F_NEWLINE, -1, b);	/* 1024 */
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.m[0].rec.text_len, 1024);
	assert_memory_equal(l.m[0].rec.text, a, 624);
	assert_memory_equal(l.m[0].rec.text + 624, b, 400);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_TRUNC, 0);
	rec_list_free(&l);
	free(a);
	free(b);
}

static void cont_fragment_one_byte_too_many_flushes(void **state)
{
	char *a = filled(624, 'a'), *b = filled(401, 'b');
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, a);
	/* 624 + 401 = 1025 > KLOG_RECORD_MAX: not joined, nothing cut. */
	store_msg(ns, C1, KLOG_F_CONT | KLOG_F_NEWLINE, -1, b);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], a);
	assert_text(&l.m[1], b);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_TRUNC, 0);
	assert_int_equal(l.m[1].rec.flags & KLOG_F_TRUNC, 0);
	assert_true(l.m[1].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
	free(a);
	free(b);
}

static void cont_printk_fragment_that_does_not_fit(void **state)
{
	char *a = filled(800, 'a'), *b = filled(300, 'b');
	struct rec_list l;

	(void)state;
	klog_ns_printk(ns, "%s", a);
	assert_int_equal(committed(ns), 0);
	klog_ns_printk(ns, "\001c%s", b);
	assert_int_equal(committed(ns), 1);
	klog_ns_printk(ns, "\001c end\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], a);
	assert_int_equal(l.m[1].rec.text_len, 304);
	assert_memory_equal(l.m[1].rec.text, b, 300);
	assert_memory_equal(l.m[1].rec.text + 300, " end", 4);
	assert_true(l.m[1].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
	free(a);
	free(b);
}

/* ---- empty lines (6.12: printk("") is a record, pending like any) ----- */

static void cont_empty_fragment_is_a_pending_line(void **state)
{
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, 3, "");
	assert_int_equal(committed(ns), 0);
	/* Another caller commits it: an empty record. */
	store_msg(ns, C2, 0, -1, "x\n");
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.m[0].rec.text_len, 0);
	assert_int_equal(l.m[0].rec.caller_id, C1);
	assert_int_equal(l.m[0].rec.level, 3);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_NEWLINE, 0);
	assert_text(&l.m[1], "x");
	rec_list_free(&l);
}

static void cont_empty_pending_line_is_joined(void **state)
{
	struct rec_list l;

	(void)state;
	klog_ns_printk(ns, "2%s", "");
	klog_ns_printk(ns, "cfilled in\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "filled in");
	assert_int_equal(l.m[0].rec.level, 2);
	assert_true(l.m[0].rec.flags & KLOG_F_NEWLINE);
	rec_list_free(&l);
}

static void cont_reader_commits_empty_pending_line(void **state)
{
	struct klog_msgbuf mb;
	struct klog_cursor c;

	(void)state;
	klog_ring_cursor_first(&ns->ring, &c);
	store_msg(ns, C1, 0, -1, NULL);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 1);
	assert_int_equal(mb.rec.text_len, 0);
	assert_int_equal(mb.rec.flags & KLOG_F_NEWLINE, 0);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 0);
}

static void cont_printk_fragments_merge_in_the_buffer(void **state)
{
	char *a = filled(300, 'a'), *b = filled(600, 'b');
	struct rec_list l;

	(void)state;
	klog_ns_printk(ns, "%s", a);
	klog_ns_printk(ns, "\001c%s", b);	/* 900 > 80%: committed */
	assert_int_equal(committed(ns), 1);
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.m[0].rec.text_len, 900);
	assert_memory_equal(l.m[0].rec.text, a, 300);
	assert_memory_equal(l.m[0].rec.text + 300, b, 600);
	assert_int_equal(l.m[0].rec.flags & (KLOG_F_TRUNC | KLOG_F_NEWLINE), 0);
	rec_list_free(&l);
	free(a);
	free(b);
}

/* ---- a dictionary ----------------------------------------------------- */

static void cont_message_with_dict_is_never_joined(void **state)
{
	static const char dict[] = "SUBSYSTEM=usb";
	struct klog_msg m = {
		.level = -1, .flags = KLOG_F_CONT, .caller_id = C1,
		.text = "with dict", .text_len = 9,
		.dict = dict, .dict_len = sizeof(dict) - 1,
	};
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, "pending");
	klog_ns_store(ns, &m);
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "pending");
	assert_int_equal(l.m[0].rec.dict_len, 0);
	assert_text(&l.m[1], "with dict");
	assert_int_equal(l.m[1].rec.dict_len, sizeof(dict) - 1);
	assert_memory_equal(l.m[1].rec.dict, dict, sizeof(dict) - 1);
	rec_list_free(&l);
}

/* ---- readers ---------------------------------------------------------- */

static void cont_read_flushes_pending_line(void **state)
{
	struct klog_msgbuf mb;
	struct klog_cursor c;

	(void)state;
	klog_ring_cursor_first(&ns->ring, &c);
	store_msg(ns, C1, 0, -1, "half a line");
	assert_int_equal(committed(ns), 0);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 1);
	assert_text(&mb, "half a line");
	assert_int_equal(mb.rec.flags & KLOG_F_NEWLINE, 0);
	assert_int_equal(mb.lost, 0);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 0);
	/* The flushed line is closed: its continuation is a new record. */
	store_msg(ns, C1, KLOG_F_CONT, -1, " rest\n");
	assert_int_equal(committed(ns), 2);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 1);
	assert_text(&mb, " rest");
	assert_true(mb.rec.flags & KLOG_F_NEWLINE);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 0);
}

static void cont_read_at_end_still_flushes(void **state)
{
	struct klog_msgbuf mb;
	struct klog_cursor c;

	(void)state;
	store_msg(ns, C1, 0, -1, "done\n");
	klog_ring_cursor_end(&ns->ring, &c);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 0);
	store_msg(ns, C2, 0, -1, "waiting");
	/* A reader at the end gets the pending line instead of nothing. */
	assert_int_equal(klog_ns_read(ns, &c, &mb), 1);
	assert_text(&mb, "waiting");
	assert_int_equal(mb.rec.caller_id, C2);
}

static void cont_flush_api(void **state)
{
	kl_irqflags_t flags = 0;
	struct rec_list l;

	(void)state;
	klog_ns_flush(ns);			/* nothing pending: no record */
	assert_int_equal(committed(ns), 0);
	store_msg(ns, C1, 0, -1, "abc");
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 1);
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 1);
	store_msg(ns, C1, 0, -1, "def");
	kl_lock_irqsave(&ns->lock, flags);
	/* Committed; policy none: nothing waits to be copied. */
	assert_false(klog_ns_reader_commit_locked(ns));
	kl_unlock_irqrestore(&ns->lock, flags);
	assert_int_equal(committed(ns), 2);
	read_all(ns, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "abc");
	assert_text(&l.m[1], "def");
	rec_list_free(&l);
}

static void cont_flush_propagates_pending_line(void **state)
{
	struct klog_ns *child;
	char want[LABEL_BUF + 16], lk[LABEL_BUF];
	struct rec_list l;

	(void)state;
	root->cfg->propagate = KLOG_PROPAGATE_KERNEL;
	child = mk_child(ns, "kid", 4096);
	klog_ns_printk(child, "partial");
	/* Nothing reaches the parent until the line is committed. */
	assert_int_equal(committed(ns), 0);
	klog_ns_flush(child);
	assert_int_equal(committed(child), 1);
	assert_int_equal(committed(ns), 1);
	assert_int_equal(committed(root), 1);
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	snprintf(want, sizeof(want), "%spartial", label(child, lk));
	assert_text(&l.m[0], want);
	assert_int_equal(l.m[0].rec.flags & KLOG_F_NEWLINE, 0);
	rec_list_free(&l);
	/* Reading a parent does not flush a child's pending line. */
	klog_ns_printk(child, "again");
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	rec_list_free(&l);
	assert_int_equal(committed(child), 1);
	klog_ns_put(child);
}

/* cfg->read_commits off: 6.12's behaviour, the line waits for a store. */
static void cont_read_commits_off_keeps_line_pending(void **state)
{
	kl_irqflags_t flags = 0;
	struct klog_msgbuf mb;
	struct klog_cursor c;

	(void)state;
	ns->cfg->read_commits = false;
	klog_ring_cursor_first(&ns->ring, &c);
	store_msg(ns, C1, 0, -1, "invisible");
	assert_int_equal(klog_ns_read(ns, &c, &mb), 0);
	kl_lock_irqsave(&ns->lock, flags);
	assert_false(klog_ns_reader_commit_locked(ns));
	kl_unlock_irqrestore(&ns->lock, flags);
	assert_int_equal(committed(ns), 0);
	/* Still joinable: the reader did not close the line. */
	store_msg(ns, C1, KLOG_F_CONT, -1, " until now");
	assert_int_equal(committed(ns), 0);
	/* The next store (another caller) commits it. */
	store_msg(ns, C2, 0, -1, "other\n");
	assert_int_equal(committed(ns), 2);
	assert_int_equal(klog_ns_read(ns, &c, &mb), 1);
	assert_text(&mb, "invisible until now");
	assert_int_equal(klog_ns_read(ns, &c, &mb), 1);
	assert_text(&mb, "other");
	/* An explicit klog_ns_flush() still commits. */
	store_msg(ns, C1, 0, -1, "explicit");
	klog_ns_flush(ns);
	assert_int_equal(committed(ns), 3);
}

/* Each namespace has its own cont buffer. */
static void cont_buffers_are_per_namespace(void **state)
{
	struct klog_ns *other = mk_child(root, "o", 4096);
	struct rec_list l;

	(void)state;
	store_msg(ns, C1, 0, -1, "in ns ");
	store_msg(other, C1, 0, -1, "in other ");
	store_msg(ns, C1, KLOG_F_CONT, -1, "end\n");
	store_msg(other, C1, KLOG_F_CONT, -1, "end\n");
	read_all(ns, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "in ns end");
	rec_list_free(&l);
	read_all(other, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "in other end");
	rec_list_free(&l);
	klog_ns_put(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TC(cont_newline_commits_joined_line),
		TC(cont_empty_newline_fragment_ends_line),
		TC(cont_line_keeps_first_fragment_metadata),
		TC(cont_non_continuation_flushes),
		TC(cont_printk_prefix_flushes_and_kern_cont_joins),
		TC(cont_fragment_starting_with_cont_is_flagged),
		TC(cont_other_caller_flushes),
		TC(cont_two_callers_interleaved),
		TC(cont_other_origin_flushes),
		TC(cont_printk_after_user_fragment),
		TC(cont_printk_from_other_thread_is_other_caller),
		TC(cont_flushes_when_80_percent_full_on_start),
		TC(cont_flushes_when_80_percent_full_on_append),
		TC(cont_fragment_that_does_not_fit_flushes),
		TC(cont_fragment_that_exactly_fits_joins),
		TC(cont_fragment_one_byte_too_many_flushes),
		TC(cont_printk_fragment_that_does_not_fit),
		TC(cont_empty_fragment_is_a_pending_line),
		TC(cont_empty_pending_line_is_joined),
		TC(cont_reader_commits_empty_pending_line),
		TC(cont_printk_fragments_merge_in_the_buffer),
		TC(cont_message_with_dict_is_never_joined),
		TC(cont_read_flushes_pending_line),
		TC(cont_read_at_end_still_flushes),
		TC(cont_flush_api),
		TC(cont_flush_propagates_pending_line),
		TC(cont_read_commits_off_keeps_line_pending),
		TC(cont_buffers_are_per_namespace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
