// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_format.c - the syslog(2) text and /dev/kmsg record formatters.
 *
 * Every expected string is what Linux 6.12's record_print_text(),
 * get_record_print_text_size(), info_print_ext_header() and
 * msg_print_ext_body() (kernel/printk/printk.c) produce for the same
 * record, worked out by hand from that code.  Records are built directly,
 * so these tests need no namespace and no clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "klog/klog.h"
#include "internal.h"

#define ALL (KLOG_FMT_PRIO | KLOG_FMT_TIME)
#define NSEC 1000000000ull

static struct klog_record rec_n(u8 facility, u8 level, u64 ts,
				const char *text, size_t len)
{
	struct klog_record r;

	memset(&r, 0, sizeof(r));
	r.seq = 0;
	r.ts_nsec = ts;
	r.facility = facility;
	r.level = level;
	r.text = text;
	r.text_len = (u32)len;
	r.dict = text + len;
	r.dict_len = 0;
	return r;
}

static struct klog_record rec(u8 facility, u8 level, u64 ts, const char *text)
{
	return rec_n(facility, level, ts, text, strlen(text));
}

/* Format with a KLOG_MESSAGE_MAX buffer and compare with @want exactly. */
static void check_syslog(const struct klog_record *r, unsigned int opts,
			 const char *want)
{
	char buf[KLOG_MESSAGE_MAX];
	size_t n;

	memset(buf, 0x5a, sizeof(buf));
	n = klog_fmt_syslog(r, opts, buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	/* get_record_print_text_size() agrees whenever nothing is dropped. */
	assert_int_equal(klog_fmt_syslog_size(r, opts), n);
}

static void check_kmsg(const struct klog_record *r, unsigned int opts,
		       const char *want, size_t want_len)
{
	char buf[KLOG_MESSAGE_MAX + 1];
	size_t n;

	memset(buf, 0x5a, sizeof(buf));
	n = klog_fmt_kmsg(r, opts, buf, KLOG_MESSAGE_MAX);
	if (n != want_len || memcmp(buf, want, want_len))
		fail_msg("kmsg \"%.*s\" (%zu) != \"%.*s\" (%zu)", (int)n, buf,
			 n, (int)want_len, want, want_len);
	/* Nothing is written past the record. */
	assert_int_equal((unsigned char)buf[n], 0x5a);
}

#define CHECK_KMSG(r, opts, lit) check_kmsg((r), (opts), lit, sizeof(lit) - 1)

/* ---- syslog text: prefixes --------------------------------------------- */

static void syslog_prio_and_time(void **state)
{
	struct klog_record r = rec(0, 6, NSEC, "hello");

	(void)state;
	check_syslog(&r, ALL, "<6>[    1.000000] hello\n");
}

static void syslog_prio_includes_facility(void **state)
{
	struct klog_record user = rec(1, 6, NSEC, "u");
	struct klog_record high = rec(124, 7, NSEC, "h");
	struct klog_record emerg = rec(0, 0, NSEC, "e");

	(void)state;
	check_syslog(&user, KLOG_FMT_PRIO, "<14>u\n");
	check_syslog(&high, KLOG_FMT_PRIO, "<999>h\n");
	check_syslog(&emerg, KLOG_FMT_PRIO, "<0>e\n");
}

static void syslog_time_off_has_no_space(void **state)
{
	struct klog_record r = rec(0, 6, NSEC, "hello");

	(void)state;
	/* Without time (and without caller) no space follows the prio. */
	check_syslog(&r, KLOG_FMT_PRIO, "<6>hello\n");
}

static void syslog_time_only_and_plain(void **state)
{
	struct klog_record r = rec(0, 6, 2 * NSEC, "x y");

	(void)state;
	check_syslog(&r, KLOG_FMT_TIME, "[    2.000000] x y\n");
	check_syslog(&r, 0, "x y\n");
}

static void syslog_time_digits(void **state)
{
	struct klog_record zero = rec(0, 4, 0, "z");
	struct klog_record trunc = rec(0, 4, 1999999999ull, "t");
	struct klog_record wide = rec(0, 4, 123456789012345678ull, "w");
	struct klog_record five = rec(0, 4, 99999 * NSEC + 1000, "f");

	(void)state;
	check_syslog(&zero, ALL, "<4>[    0.000000] z\n");
	/* Microseconds are truncated, not rounded. */
	check_syslog(&trunc, ALL, "<4>[    1.999999] t\n");
	/* %5lu widens rather than cutting digits. */
	check_syslog(&wide, ALL, "<4>[123456789.012345] w\n");
	check_syslog(&five, ALL, "<4>[99999.000001] f\n");
}

static void syslog_caller_thread(void **state)
{
	struct klog_record r = rec(0, 6, NSEC, "hi");

	(void)state;
	r.caller_id = 123;
	check_syslog(&r, ALL | KLOG_FMT_CALLER,
		     "<6>[    1.000000][  T123] hi\n");
}

static void syslog_caller_cpu(void **state)
{
	struct klog_record r = rec(0, 6, NSEC, "hi");

	(void)state;
	r.caller_id = 0x80000000u | 1;
	check_syslog(&r, ALL | KLOG_FMT_CALLER,
		     "<6>[    1.000000][    C1] hi\n");
}

static void syslog_caller_without_time(void **state)
{
	struct klog_record r = rec(0, 6, NSEC, "hi");

	(void)state;
	r.caller_id = 123;
	/* The caller alone also earns the separating space. */
	check_syslog(&r, KLOG_FMT_PRIO | KLOG_FMT_CALLER, "<6>[  T123] hi\n");
	r.caller_id = 1234567;
	check_syslog(&r, KLOG_FMT_PRIO | KLOG_FMT_CALLER,
		     "<6>[T1234567] hi\n");
}

static void syslog_prefix_function(void **state)
{
	struct klog_record r = rec(3, 5, 7 * NSEC + 5000, "");
	char buf[48];

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(klog_fmt_prefix(&r, ALL, buf), 19);
	assert_string_equal(buf, "<29>[    7.000005] ");
	assert_int_equal(klog_fmt_prefix(&r, KLOG_FMT_PRIO, buf), 4);
	assert_string_equal(buf, "<29>");
	assert_int_equal(klog_fmt_prefix(&r, 0, buf), 0);
	assert_string_equal(buf, "");
}

/* klog_fmt_prefix_len() of @r is klog_fmt_prefix()'s length, every option. */
static void check_prefix_len(const struct klog_record *r)
{
	unsigned int opts;
	char buf[48];
	size_t n;

	for (opts = 0; opts < 8; opts++) {
		n = klog_fmt_prefix(r, opts, buf);
		assert_int_equal(n, strlen(buf));
		assert_int_equal(klog_fmt_prefix_len(r, opts), n);
	}
}

/*
 * klog_fmt_prefix_len() counts what klog_fmt_prefix() writes, for every
 * option and at every digit boundary of each field: the priority (up to
 * facility 255), the seconds (the five-digit padding, up to the 64-bit
 * clock's 11 digits) and the caller id (the six-character padding, up to
 * 10 digits, tasks and CPUs).
 */
static void syslog_prefix_len_counts_the_prefix(void **state)
{
	static const u64 secs[] = {
		0, 9, 10, 9999, 10000, 99999, 100000, 999999, 1000000,
		4294967295ull, 4294967296ull, 18446744073ull,
	};
	static const u32 callers[] = {
		0, 9, 10, 99, 9999, 99999, 100000, 999999, 1000000,
		2147483647u, 0x80000000u, 0x80000000u | 12345, 0xffffffffu,
	};
	static const u8 prios[][2] = {
		{ 0, 0 }, { 0, 7 }, { 1, 1 }, { 12, 3 }, { 13, 0 },
		{ 124, 7 }, { 125, 0 }, { 255, 7 },
	};
	struct klog_record r = rec(0, 0, 0, "x");
	char buf[48];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		r.ts_nsec = secs[i] * NSEC + 5000;
		check_prefix_len(&r);
	}
	for (i = 0; i < sizeof(callers) / sizeof(callers[0]); i++) {
		r.caller_id = callers[i];
		check_prefix_len(&r);
	}
	for (i = 0; i < sizeof(prios) / sizeof(prios[0]); i++) {
		r.facility = prios[i][0];
		r.level = prios[i][1];
		check_prefix_len(&r);
	}
	/* The longest prefix: every field at its widest. */
	r.ts_nsec = ~0ull;
	r.caller_id = 2147483647u;
	r.facility = 255;
	r.level = 7;
	check_prefix_len(&r);
	klog_fmt_prefix(&r, ALL | KLOG_FMT_CALLER, buf);
	assert_string_equal(buf, "<2047>[18446744073.709551][T2147483647] ");
}

/* ---- syslog text: lines -------------------------------------------------- */

static void syslog_multiline_prefix_each_line(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "a\nbb\nccc");

	(void)state;
	check_syslog(&r, ALL,
		     "<4>[    1.000000] a\n"
		     "<4>[    1.000000] bb\n"
		     "<4>[    1.000000] ccc\n");
	check_syslog(&r, KLOG_FMT_PRIO, "<4>a\n<4>bb\n<4>ccc\n");
	check_syslog(&r, 0, "a\nbb\nccc\n");
}

static void syslog_empty_middle_line(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "a\n\nb");

	(void)state;
	check_syslog(&r, ALL,
		     "<4>[    1.000000] a\n"
		     "<4>[    1.000000] \n"
		     "<4>[    1.000000] b\n");
}

static void syslog_trailing_newline_in_text(void **state)
{
	/* A stored text ending in '\n' (printk("a\n\n")) ends with an
	 * empty prefixed line. */
	struct klog_record r = rec(0, 4, NSEC, "a\n");

	(void)state;
	check_syslog(&r, ALL, "<4>[    1.000000] a\n<4>[    1.000000] \n");
}

static void syslog_empty_text(void **state)
{
	struct klog_record r = rec(1, 4, NSEC, "");

	(void)state;
	check_syslog(&r, ALL, "<12>[    1.000000] \n");
	check_syslog(&r, KLOG_FMT_PRIO, "<12>\n");
}

static void syslog_final_newline_added(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "no newline stored");
	char buf[64];
	size_t n;

	(void)state;
	n = klog_fmt_syslog(&r, KLOG_FMT_PRIO, buf, sizeof(buf));
	assert_int_equal(n, 3 + 17 + 1);
	assert_int_equal(buf[n - 1], '\n');
	assert_int_equal(buf[n], '\0');
}

static void syslog_size_matches_output(void **state)
{
	static const char *texts[] = {
		"", "x", "two\nlines", "\n", "\n\n\n", "a\n\nb\n",
		"tab\there \\ and \x7f", "0123456789012345678901234567890",
	};
	static const unsigned int opts[] = {
		0, KLOG_FMT_PRIO, KLOG_FMT_TIME, ALL, ALL | KLOG_FMT_CALLER,
		KLOG_FMT_PRIO | KLOG_FMT_CALLER,
	};
	char buf[KLOG_MESSAGE_MAX];
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		for (j = 0; j < sizeof(opts) / sizeof(opts[0]); j++) {
			struct klog_record r = rec((u8)i, (u8)j, i * NSEC + j,
						   texts[i]);
			size_t n;

			r.caller_id = (u32)(i * 1000 + j);
			n = klog_fmt_syslog(&r, opts[j], buf, sizeof(buf));
			assert_int_equal(n, strlen(buf));
			assert_int_equal(klog_fmt_syslog_size(&r, opts[j]), n);
		}
	}
}

static void syslog_size_counts_prefix_per_line(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "a\nb\n\nc");

	(void)state;
	/* 4 lines * 18 prefix bytes + 6 text bytes + final newline. */
	assert_int_equal(klog_fmt_syslog_size(&r, ALL), 4 * 18 + 6 + 1);
	assert_int_equal(klog_fmt_syslog_size(&r, KLOG_FMT_PRIO),
			 4 * 3 + 6 + 1);
	assert_int_equal(klog_fmt_syslog_size(&r, 0), 7);
}

/*
 * 100 lines "line-000".."line-099" (899 bytes): 27 bytes per formatted
 * line, 2700 in all, more than PRINTK_MESSAGE_MAX.  record_print_text()
 * keeps whole lines while a line, its newline and the terminator fit:
 * 75 lines, 2025 bytes.  get_record_print_text_size() still says 2700.
 */
static void syslog_drops_lines_beyond_2048(void **state)
{
	char text[100 * 9], want[KLOG_MESSAGE_MAX], buf[KLOG_MESSAGE_MAX];
	struct klog_record r;
	size_t n, at = 0;
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		at += sprintf(text + at, "line-%03d%s", i, i < 99 ? "\n" : "");
	assert_int_equal(at, 899);
	r = rec_n(0, 4, NSEC, text, at);
	at = 0;
	for (i = 0; i < 75; i++)
		at += sprintf(want + at, "<4>[    1.000000] line-%03d\n", i);
	assert_int_equal(at, 2025);

	n = klog_fmt_syslog(&r, ALL, buf, sizeof(buf));
	assert_int_equal(n, 2025);
	assert_string_equal(buf, want);
	assert_int_equal(klog_fmt_syslog_size(&r, ALL), 2700);
}

static void syslog_small_buffer_drops_whole_lines(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "aaaa\nbbbb\ncccc");
	char buf[20];

	(void)state;
	assert_int_equal(klog_fmt_syslog(&r, KLOG_FMT_PRIO, buf, 20), 16);
	assert_string_equal(buf, "<4>aaaa\n<4>bbbb\n");
}

static void syslog_buffer_needs_room_for_terminator(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "aaaa\nbbbb");
	char buf[32];

	(void)state;
	/* 16 bytes of output need 17 bytes of buffer. */
	assert_int_equal(klog_fmt_syslog(&r, KLOG_FMT_PRIO, buf, 17), 16);
	assert_string_equal(buf, "<4>aaaa\n<4>bbbb\n");
	assert_int_equal(klog_fmt_syslog(&r, KLOG_FMT_PRIO, buf, 16), 8);
	assert_string_equal(buf, "<4>aaaa\n");
}

static void syslog_line_too_long_for_buffer(void **state)
{
	char text[KLOG_RECORD_MAX];
	struct klog_record r;
	char buf[1000];

	(void)state;
	memset(text, 'x', sizeof(text));
	r = rec_n(0, 4, NSEC, text, sizeof(text));
	/* A single line that cannot fit is dropped, not cut. */
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(klog_fmt_syslog(&r, ALL, buf, sizeof(buf)), 0);
	assert_int_equal(buf[0], '\0');
	/* The full line fits the real buffer. */
	{
		char big[KLOG_MESSAGE_MAX];

		assert_int_equal(klog_fmt_syslog(&r, ALL, big, sizeof(big)),
				 18 + KLOG_RECORD_MAX + 1);
		assert_int_equal(big[18 + KLOG_RECORD_MAX], '\n');
	}
}

static void syslog_size_zero_writes_nothing(void **state)
{
	struct klog_record r = rec(0, 4, NSEC, "x");
	char buf[2] = { 'q', 'q' };

	(void)state;
	assert_int_equal(klog_fmt_syslog(&r, ALL, buf, 0), 0);
	assert_int_equal(buf[0], 'q');
	assert_int_equal(klog_fmt_syslog(&r, KLOG_FMT_PRIO, buf, 2), 0);
	assert_int_equal(buf[0], '\0');
}

/*
 * A reader formats the copy that klog_ring_copy() put in its buffer in
 * place, as upstream formats in the buffer it read the record into: the
 * same bytes as from a record elsewhere, at every buffer size.
 */
static void syslog_in_place_is_the_same(void **state)
{
	static const char text[] = "first\n\nthird line\nlast";
	char ref[KLOG_MESSAGE_MAX], buf[KLOG_MESSAGE_MAX];
	struct klog_record r = rec(3, 2, 12 * NSEC + 345678, text), in;
	size_t size, n, m;

	(void)state;
	r.caller_id = 77;
	for (size = 0; size <= 200; size++) {
		memset(ref, 0x5a, sizeof(ref));
		memset(buf, 0x5a, sizeof(buf));
		n = klog_fmt_syslog(&r, ALL | KLOG_FMT_CALLER, ref, size);
		memcpy(buf, text, sizeof(text) - 1);
		in = r;
		in.text = buf;
		m = klog_fmt_syslog(&in, ALL | KLOG_FMT_CALLER, buf, size);
		assert_int_equal(m, n);
		if (size)
			assert_memory_equal(buf, ref, n + 1);
	}
	assert_int_equal(n, klog_fmt_syslog_size(&r, ALL | KLOG_FMT_CALLER));
}

/* ---- /dev/kmsg format ---------------------------------------------------- */

static void kmsg_header(void **state)
{
	struct klog_record r = rec(0, 6, 1234567891ull, "hello");

	(void)state;
	r.seq = 5;
	CHECK_KMSG(&r, 0, "6,5,1234567,-;hello\n");
}

static void kmsg_prio_facility_and_big_seq(void **state)
{
	struct klog_record u = rec(1, 4, 0, "x");
	struct klog_record h = rec(124, 7, 999, "y");

	(void)state;
	u.seq = 0;
	CHECK_KMSG(&u, 0, "12,0,0,-;x\n");
	h.seq = 18446744073709551615ull;
	CHECK_KMSG(&h, 0, "999,18446744073709551615,0,-;y\n");
}

static void kmsg_cont_flag(void **state)
{
	struct klog_record r = rec(0, 4, 2 * NSEC, "more");

	(void)state;
	r.seq = 3;
	r.flags = KLOG_F_CONT;
	CHECK_KMSG(&r, 0, "4,3,2000000,c;more\n");
	/* Other flags never show. */
	r.flags = KLOG_F_NEWLINE | KLOG_F_PREFIX | KLOG_F_TRUNC;
	CHECK_KMSG(&r, 0, "4,3,2000000,-;more\n");
	r.flags |= KLOG_F_CONT;
	CHECK_KMSG(&r, 0, "4,3,2000000,c;more\n");
}

static void kmsg_escapes_control_high_and_backslash(void **state)
{
	static const char text[] = "a\tb\\c\x7f\x80\xff\x1f~ \x01z";
	struct klog_record r = rec_n(0, 6, 0, text, sizeof(text) - 1);

	(void)state;
	CHECK_KMSG(&r, 0,
		   "6,0,0,-;a\\x09b\\x5cc\\x7f\\x80\\xff\\x1f~ \\x01z\n");
}

static void kmsg_escapes_newline_and_nul(void **state)
{
	static const char text[] = "a\nb\0c\r";
	struct klog_record r = rec_n(0, 6, 0, text, sizeof(text) - 1);

	(void)state;
	CHECK_KMSG(&r, 0, "6,0,0,-;a\\x0ab\\x00c\\x0d\n");
}

static void kmsg_printable_ascii_verbatim(void **state)
{
	char text[95], want[200];
	struct klog_record r;
	size_t i, n;

	(void)state;
	for (i = 0; i < 95; i++)
		text[i] = (char)(' ' + i);
	r = rec_n(0, 6, 0, text, sizeof(text));
	n = (size_t)sprintf(want, "6,0,0,-;");
	for (i = 0; i < 95; i++) {
		if (text[i] == '\\')
			n += (size_t)sprintf(want + n, "\\x5c");
		else
			want[n++] = text[i];
	}
	want[n++] = '\n';
	check_kmsg(&r, 0, want, n);
}

static void kmsg_empty_text(void **state)
{
	struct klog_record r = rec(0, 4, 0, "");

	(void)state;
	CHECK_KMSG(&r, 0, "4,0,0,-;\n");
}

static void kmsg_caller_field(void **state)
{
	struct klog_record r = rec(0, 6, NSEC, "x");

	(void)state;
	r.seq = 1;
	r.caller_id = 123;
	CHECK_KMSG(&r, KLOG_FMT_CALLER, "6,1,1000000,-,caller=T123;x\n");
	r.caller_id = 0x80000000u | 1;
	r.flags = KLOG_F_CONT;
	CHECK_KMSG(&r, KLOG_FMT_CALLER, "6,1,1000000,c,caller=C1;x\n");
	/* Without the option there is no caller field. */
	CHECK_KMSG(&r, 0, "6,1,1000000,c;x\n");
	/* Prio and time options do not apply to this format. */
	CHECK_KMSG(&r, ALL, "6,1,1000000,c;x\n");
}

static void kmsg_dict_lines(void **state)
{
	static const char buf[] = "text"
		"SUBSYSTEM=usb\0DEVICE=+usb:1-1\0";
	struct klog_record r = rec_n(0, 6, 0, buf, 4);

	(void)state;
	r.dict = buf + 4;
	r.dict_len = sizeof(buf) - 1 - 4;
	CHECK_KMSG(&r, 0,
		   "6,0,0,-;text\n"
		   " SUBSYSTEM=usb\n"
		   " DEVICE=+usb:1-1\n");
}

static void kmsg_dict_empty_values_skipped(void **state)
{
	static const char d[] = "EMPTY=\0A=1\0NOEQUALS\0B=x=y\0=v";
	struct klog_record r = rec(0, 6, 0, "t");

	(void)state;
	r.dict = d;
	r.dict_len = sizeof(d) - 1;	/* no NUL after the last pair */
	CHECK_KMSG(&r, 0, "6,0,0,-;t\n A=1\n B=x=y\n =v\n");
}

static void kmsg_dict_escaped(void **state)
{
	static const char d[] = "K\\EY=a\nb\x01\xe9\0";
	struct klog_record r = rec(0, 6, 0, "t");

	(void)state;
	r.dict = d;
	r.dict_len = sizeof(d) - 1;
	CHECK_KMSG(&r, 0, "6,0,0,-;t\n K\\x5cEY=a\\x0ab\\x01\\xe9\n");
}

/*
 * 1023 bytes of 0x01 need 4092 escaped bytes; the record stops at 2048:
 * the 14-byte header, 508 whole "\x01", the "\" that still fits before
 * the terminator scnprintf() keeps, and the final newline
 * (append_char() fills the last byte).
 */
static void kmsg_long_escaped_record_is_cut_at_2048(void **state)
{
	char text[1023], want[KLOG_MESSAGE_MAX];
	struct klog_record r;
	size_t n, i;

	(void)state;
	memset(text, 1, sizeof(text));
	r = rec_n(0, 4, NSEC, text, sizeof(text));
	n = (size_t)sprintf(want, "4,0,1000000,-;");
	assert_int_equal(n, 14);
	for (i = 0; i < 508; i++)
		n += (size_t)sprintf(want + n, "\\x01");
	want[n++] = '\\';
	want[n++] = '\n';
	assert_int_equal(n, KLOG_MESSAGE_MAX);
	check_kmsg(&r, 0, want, n);
}

static void kmsg_small_buffer_never_overflows(void **state)
{
	struct klog_record r = rec(0, 6, 1234567891ull, "hello");
	char buf[32];
	size_t n;

	(void)state;
	r.seq = 5;
	memset(buf, 0x5a, sizeof(buf));
	/* Header (14 bytes) and as much text as fits; no newline. */
	n = klog_fmt_kmsg(&r, 0, buf, 16);
	assert_int_equal(n, 16);
	assert_memory_equal(buf, "6,5,1234567,-;he", 16);
	assert_int_equal((unsigned char)buf[16], 0x5a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(syslog_prio_and_time),
		cmocka_unit_test(syslog_prio_includes_facility),
		cmocka_unit_test(syslog_time_off_has_no_space),
		cmocka_unit_test(syslog_time_only_and_plain),
		cmocka_unit_test(syslog_time_digits),
		cmocka_unit_test(syslog_caller_thread),
		cmocka_unit_test(syslog_caller_cpu),
		cmocka_unit_test(syslog_caller_without_time),
		cmocka_unit_test(syslog_prefix_function),
		cmocka_unit_test(syslog_prefix_len_counts_the_prefix),
		cmocka_unit_test(syslog_multiline_prefix_each_line),
		cmocka_unit_test(syslog_empty_middle_line),
		cmocka_unit_test(syslog_trailing_newline_in_text),
		cmocka_unit_test(syslog_empty_text),
		cmocka_unit_test(syslog_final_newline_added),
		cmocka_unit_test(syslog_size_matches_output),
		cmocka_unit_test(syslog_size_counts_prefix_per_line),
		cmocka_unit_test(syslog_drops_lines_beyond_2048),
		cmocka_unit_test(syslog_small_buffer_drops_whole_lines),
		cmocka_unit_test(syslog_buffer_needs_room_for_terminator),
		cmocka_unit_test(syslog_line_too_long_for_buffer),
		cmocka_unit_test(syslog_size_zero_writes_nothing),
		cmocka_unit_test(syslog_in_place_is_the_same),
		cmocka_unit_test(kmsg_header),
		cmocka_unit_test(kmsg_prio_facility_and_big_seq),
		cmocka_unit_test(kmsg_cont_flag),
		cmocka_unit_test(kmsg_escapes_control_high_and_backslash),
		cmocka_unit_test(kmsg_escapes_newline_and_nul),
		cmocka_unit_test(kmsg_printable_ascii_verbatim),
		cmocka_unit_test(kmsg_empty_text),
		cmocka_unit_test(kmsg_caller_field),
		cmocka_unit_test(kmsg_dict_lines),
		cmocka_unit_test(kmsg_dict_empty_values_skipped),
		cmocka_unit_test(kmsg_dict_escaped),
		cmocka_unit_test(kmsg_long_escaped_record_is_cut_at_2048),
		cmocka_unit_test(kmsg_small_buffer_never_overflows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
