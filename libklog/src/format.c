// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * format.c - syslog(2) text and /dev/kmsg record formats.
 *
 * DOC: formatters
 *
 * Byte-exact ports of Linux 6.12's formatting (kernel/printk/printk.c):
 *
 * - klog_fmt_syslog() is record_print_text(): every line of a record gets
 *   the prefix "<prio>" (syslog), "[%5lu.%06lu]" (printk time) and
 *   "[T123]" (caller), then a space if a time or caller was printed;
 *   the newline stripped at store time is added back; lines that no
 *   longer fit the buffer are dropped whole (the last one may be cut).
 * - klog_fmt_syslog_size() is get_record_print_text_size().
 * - klog_fmt_kmsg() is info_print_ext_header() + msg_print_ext_body():
 *   "prio,seq,usec,flags[,caller=T123];text\n" with bytes below 0x20, at
 *   or above 0x7f and the backslash escaped as \xNN, then one
 *   " KEY=value\n" line per dictionary pair with a non-empty value.
 *
 * All functions are pure: no locks, no allocation.  The three that format
 * (klog_fmt_prefix(), klog_fmt_syslog() and klog_fmt_kmsg(), the only
 * callers of vsnprintf() here) run with no klog lock held (L7, "DOC:
 * printk store path"): a reader copies its record out of the ring under
 * the lock (klog_ring_copy()), drops the lock and formats the copy.  Each
 * starts with kl_assert_unlocked(), which user space checks.
 * klog_fmt_prefix_len() and klog_fmt_syslog_size() count digits and lines
 * instead of formatting, so that syslog(2)'s size walks may run under the
 * lock.
 */
#include "internal.h"
#include "klog/format.h"

/* scnprintf(): like snprintf but returns what was really written. */
__printf(3, 4)
static size_t fmt_scn(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	if (!size)
		return 0;
	va_start(args, fmt);
	n = kl_vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (n < 0)
		return 0;
	return (size_t)n < size ? (size_t)n : size - 1;
}

static size_t fmt_caller(u32 id, char *buf, size_t size, const char *fmt)
{
	return fmt_scn(buf, size, fmt, id & 0x80000000 ? 'C' : 'T',
		       id & ~0x80000000u);
}

/**
 * klog_fmt_prefix() - the per-line prefix of the syslog format.
 * @r:    the record.
 * @opts: KLOG_FMT_* options.
 * @buf:  at least 48 bytes (upstream's PRINTK_PREFIX_MAX).
 *
 * Context: any; no klog lock held.
 * Return: the prefix length.
 */
size_t klog_fmt_prefix(const struct klog_record *r, unsigned int opts,
		       char *buf)
{
	size_t len = 0;

	kl_assert_unlocked();
	if (opts & KLOG_FMT_PRIO)
		len = fmt_scn(buf, 48, "<%u>",
			      (unsigned int)(r->facility << 3) | r->level);
	if (opts & KLOG_FMT_TIME) {
		u32 rem;
		u64 sec = kl_div_u64_rem(r->ts_nsec, 1000000000, &rem);

		len += fmt_scn(buf + len, 48 - len, "[%5lu.%06lu]",
			       (unsigned long)sec, (unsigned long)rem / 1000);
	}
	if (opts & KLOG_FMT_CALLER) {
		char caller[12];

		fmt_caller(r->caller_id, caller, sizeof(caller), "%c%u");
		len += fmt_scn(buf + len, 48 - len, "[%6s]", caller);
	}
	if (opts & (KLOG_FMT_CALLER | KLOG_FMT_TIME))
		buf[len++] = ' ';
	buf[len] = '\0';
	return len;
}

/**
 * klog_fmt_syslog() - a record in the syslog(2) text format.
 * @r:    the record.  Its text may already be at @buf (a record that
 *        klog_ring_copy() copied there): it is then formatted in place,
 *        as upstream formats in the buffer it read the record into.
 * @opts: KLOG_FMT_* options.
 * @buf:  output; always NUL-terminated when @size > 0.
 * @size: its size (upstream uses KLOG_MESSAGE_MAX).
 *
 * Context: any; no klog lock held.
 * Return: the length written, without the terminator.
 */
size_t klog_fmt_syslog(const struct klog_record *r, unsigned int opts,
		       char *buf, size_t size)
{
	size_t text_len = r->text_len, prefix_len, line_len, len = 0;
	bool truncated = false;
	char prefix[48];
	char *text = buf;
	char *next;

	kl_assert_unlocked();
	if (!size)
		return 0;
	/* Upstream reads the text into the output buffer first. */
	if (text_len > size)
		text_len = size;
	if (r->text != buf)
		kl_memcpy(buf, r->text, text_len);
	prefix_len = klog_fmt_prefix(r, opts, prefix);

	for (;;) {
		next = kl_memchr(text, '\n', text_len);
		if (next) {
			line_len = next - text;
		} else {
			if (truncated)
				break;
			line_len = text_len;
		}
		if (len + prefix_len + text_len + 1 + 1 > size) {
			if (len + prefix_len + line_len + 1 + 1 > size)
				break;
			text_len = size - len - prefix_len - 1 - 1;
			truncated = true;
		}
		kl_memmove(text + prefix_len, text, text_len);
		kl_memcpy(text, prefix, prefix_len);
		len += prefix_len + line_len + 1;
		if (text_len == line_len) {
			text[prefix_len + line_len] = '\n';
			break;
		}
		text += prefix_len + line_len + 1;
		text_len -= line_len + 1;
	}
	buf[len] = '\0';
	return len;
}

/* Decimal digits of @v, as "%llu" prints it. */
static size_t digits(u64 v)
{
	size_t n = 1;
	u32 rem;

	while (v >= 10) {
		v = kl_div_u64_rem(v, 10, &rem);
		n++;
	}
	return n;
}

/* Width of "%<width>..." for a field of @n characters. */
static inline size_t padded(size_t n, size_t width)
{
	return n < width ? width : n;
}

/**
 * klog_fmt_prefix_len() - the length of klog_fmt_prefix()'s prefix,
 * counted without formatting.
 * @r:    the record.
 * @opts: KLOG_FMT_* options.
 *
 * Counts the digits of each field of "<prio>", "[%5lu.%06lu]" and
 * "[%6s]" (none is ever cut: together they are at most 40 bytes), so
 * that a size walk may run under a namespace's lock (L7).
 *
 * Context: any.
 * Return: the prefix length, exactly klog_fmt_prefix()'s.
 */
size_t klog_fmt_prefix_len(const struct klog_record *r, unsigned int opts)
{
	size_t len = 0;
	u32 rem;

	if (opts & KLOG_FMT_PRIO)
		len = 2 + digits((unsigned int)(r->facility << 3) | r->level);
	if (opts & KLOG_FMT_TIME) {
		u64 sec = kl_div_u64_rem(r->ts_nsec, 1000000000, &rem);

		/* "[", seconds, ".", six digits of microseconds, "]". */
		len += 1 + padded(digits((unsigned long)sec), 5) + 1 + 6 + 1;
	}
	if (opts & KLOG_FMT_CALLER)
		len += 1 + padded(1 + digits(r->caller_id & ~0x80000000u), 6) +
		       1;
	if (opts & (KLOG_FMT_CALLER | KLOG_FMT_TIME))
		len++;
	return len;
}

/**
 * klog_fmt_syslog_size() - the length klog_fmt_syslog() would produce
 * with an unbounded buffer.
 * @r:    the record.
 * @opts: KLOG_FMT_* options.
 *
 * Counts, never formats (klog_fmt_prefix_len()): syslog(2)'s size walks
 * call it under a namespace's lock.
 *
 * Context: any.
 * Return: prefix length times lines, plus text, plus the final newline.
 */
size_t klog_fmt_syslog_size(const struct klog_record *r, unsigned int opts)
{
	size_t lines = 1, i;

	for (i = 0; i < r->text_len; i++)
		lines += r->text[i] == '\n';
	return klog_fmt_prefix_len(r, opts) * lines + r->text_len + 1;
}

static size_t put_char(char *buf, size_t size, size_t at, char c)
{
	if (at < size)
		buf[at++] = c;
	return at;
}

/* msg_add_ext_text(): escaped bytes, then @endc. */
static size_t ext_text(char *buf, size_t size, size_t at, const char *text,
		       size_t len, char endc)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = text[i];

		if (c < ' ' || c >= 127 || c == '\\')
			at += fmt_scn(buf + at, size - at, "\\x%02x", c);
		else
			at = put_char(buf, size, at, c);
	}
	return put_char(buf, size, at, endc);
}

/**
 * klog_fmt_kmsg() - a record in the /dev/kmsg format.
 * @r:    the record (not in @buf).
 * @opts: KLOG_FMT_CALLER adds ",caller=T123".
 * @buf:  output (not NUL-terminated).
 * @size: its size (upstream uses KLOG_MESSAGE_MAX).
 *
 * Context: any; no klog lock held.
 * Return: the length written.
 */
size_t klog_fmt_kmsg(const struct klog_record *r, unsigned int opts,
		     char *buf, size_t size)
{
	char caller[20] = "";
	u32 rem;
	const char *d = r->dict, *end = d ? d + r->dict_len : d;
	size_t at;

	kl_assert_unlocked();
	if (opts & KLOG_FMT_CALLER)
		fmt_caller(r->caller_id, caller, sizeof(caller),
			   ",caller=%c%u");
	at = fmt_scn(buf, size, "%u,%llu,%llu,%c%s;",
		     (unsigned int)(r->facility << 3) | r->level,
		     (unsigned long long)r->seq,
		     (unsigned long long)kl_div_u64_rem(r->ts_nsec, 1000, &rem),
		     r->flags & KLOG_F_CONT ? 'c' : '-', caller);
	at = ext_text(buf, size, at, r->text, r->text_len, '\n');

	while (d < end) {
		const char *pair_end = kl_memchr(d, '\0', end - d);
		const char *eq;

		if (!pair_end)
			pair_end = end;
		eq = kl_memchr(d, '=', pair_end - d);
		if (eq && eq + 1 < pair_end) {
			at = ext_text(buf, size, at, "", 0, ' ');
			at = ext_text(buf, size, at, d, eq - d, '=');
			at = ext_text(buf, size, at, eq + 1,
				      pair_end - eq - 1, '\n');
		}
		d = pair_end + 1;
	}
	return at;
}
