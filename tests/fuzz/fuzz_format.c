// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_format - the formatters on arbitrary records and buffer sizes.
 *
 * Input: the record's fields (seq, time, caller id, facility, level,
 * flags), the options, a buffer size class, then the text and the
 * dictionary (split by a length byte).  Text and dictionary are exact
 * allocations; every output buffer is followed by a guard region.
 *
 * Checks, for klog_fmt_syslog() and klog_fmt_kmsg() at size 0, tiny
 * sizes, the exact size and the exact size minus one, and a large size:
 * nothing is written past @size (the guard is intact); the returned
 * length is below @size (syslog, NUL-terminated) or at most @size
 * (kmsg); with enough room, syslog's length is klog_fmt_syslog_size()
 * and the text equals the unbounded output; a smaller kmsg buffer gets
 * the unbounded output up to the cut; a smaller syslog buffer gets only
 * whole lines of it, each ended by a newline, except possibly a last
 * cut one; klog_fmt_prefix_len() is the prefix's length, and syslog text
 * formatted in place (the text already at the buffer, as a reader's copy
 * is) is the same as from a record elsewhere.
 */
#include "fuzz.h"

#define GUARD 64
#define BIG (64 * 1024)

static char *out_alloc(size_t size)
{
	char *b = malloc(size + GUARD);

	FCHECK(b);
	memset(b, 0xa5, size + GUARD);
	return b;
}

static void guard_ok(const char *b, size_t size)
{
	size_t i;

	for (i = 0; i < GUARD; i++)
		FCHECK((unsigned char)b[size + i] == 0xa5);
}

static size_t syslog_at(const struct klog_record *r, unsigned int opts,
			size_t size, char **keep)
{
	char *b = out_alloc(size);
	size_t n = klog_fmt_syslog(r, opts, b, size);

	guard_ok(b, size);
	if (size) {
		FCHECK(n < size);
		FCHECK(b[n] == '\0');
	} else {
		FCHECK(n == 0);
	}
	if (keep)
		*keep = b;
	else
		free(b);
	return n;
}

static size_t kmsg_at(const struct klog_record *r, unsigned int opts,
		      size_t size, char **keep)
{
	char *b = out_alloc(size);
	size_t n = klog_fmt_kmsg(r, opts, b, size);

	guard_ok(b, size);
	FCHECK(n <= size);
	if (keep)
		*keep = b;
	else
		free(b);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct klog_record r = { 0 };
	unsigned int opts;
	size_t tl, dl, full, sz, n, small, hdr, i;
	const uint8_t *t, *d;
	char *text, *dict, *ref, *ref2, *b;
	char prefix[64];
	u32 want_text;

	r.seq = (u64)in_u32(&in) << 32 | in_u32(&in);
	r.ts_nsec = (u64)in_u32(&in) << 32 | in_u32(&in);
	r.caller_id = in_u32(&in);
	r.facility = in_u8(&in);
	r.level = in_u8(&in) & 7;
	r.flags = in_u8(&in);
	opts = in_u8(&in) & 7;
	small = in_u8(&in);
	want_text = in_u16(&in) % 1100;
	t = in_bytes(&in, want_text, &tl);
	d = in_bytes(&in, 1100, &dl);
	text = malloc(tl ? tl : 1);
	dict = malloc(dl ? dl : 1);
	memcpy(text, t, tl);
	memcpy(dict, d, dl);
	r.text = text;
	r.text_len = (u32)tl;
	r.dict = dl ? dict : NULL;
	r.dict_len = (u32)dl;

	/* The prefix fits its documented 48 bytes. */
	memset(prefix, 0xa5, sizeof(prefix));
	n = klog_fmt_prefix(&r, opts, prefix);
	FCHECK(n < 48 && prefix[n] == '\0');
	FCHECK((unsigned char)prefix[48] == 0xa5);
	FCHECK(klog_fmt_prefix_len(&r, opts) == n);

	/* syslog(2) text. */
	full = klog_fmt_syslog_size(&r, opts);
	n = syslog_at(&r, opts, BIG, &ref);
	FCHECK(n == full);
	FCHECK(syslog_at(&r, opts, full + 1, &b) == full);
	FCHECK(!memcmp(b, ref, full));
	free(b);
	for (sz = 0; sz < 4; sz++)
		syslog_at(&r, opts, sz, NULL);
	sz = small % (full + 1);
	n = syslog_at(&r, opts, sz, &b);
	FCHECK(n <= full);
	/* Only whole lines of the full output, the last one maybe cut. */
	for (i = n; i > 0 && b[i - 1] != '\n'; i--)
		;
	FCHECK(!memcmp(b, ref, i));
	free(b);
	n = syslog_at(&r, opts, full, NULL);
	FCHECK(n < full || full == 0);
	/* In place, at the size readers use and at the small one. */
	for (i = 0; i < 2; i++) {
		struct klog_record copy = r;

		sz = i ? small % (full + 1) : KLOG_MESSAGE_MAX;
		b = out_alloc(BIG);
		memcpy(b, text, tl);
		copy.text = b;
		n = klog_fmt_syslog(&copy, opts, b, sz);
		FCHECK(n == syslog_at(&r, opts, sz, &ref2));
		FCHECK(!sz || !memcmp(b, ref2, n + 1));
		free(ref2);
		free(b);
	}
	free(ref);

	/* /dev/kmsg records. */
	full = kmsg_at(&r, opts, BIG, &ref);
	FCHECK(full < BIG);
	FCHECK(ref[full - 1] == '\n');
	FCHECK(kmsg_at(&r, opts, full, &b) == full);
	FCHECK(!memcmp(b, ref, full));
	free(b);
	/*
	 * Smaller buffers: within bounds.  The content of a cut record is
	 * not a prefix (like upstream's scnprintf()/append_char(), a cut
	 * header or escape is followed by whatever still fits), so only
	 * the part that ends before the cut can be compared: at least the
	 * header when it fit, minus the escape that may be cut.
	 */
	hdr = (const char *)memchr(ref, ';', full) - ref + 1;
	for (sz = 0; sz < 4; sz++)
		kmsg_at(&r, opts, sz, NULL);
	for (i = 0; i < 2; i++) {
		sz = i ? (full ? full - 1 : 0) : small % (full + 1);
		n = kmsg_at(&r, opts, sz, &b);
		if (sz > hdr + 4)
			FCHECK(!memcmp(b, ref, sz - 4));
		free(b);
	}
	free(ref);
	free(text);
	free(dict);
	return 0;
}
