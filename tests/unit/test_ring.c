// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_ring.c - the record ring and its cursors.
 *
 * Layout tests derive the header size from the ring itself (the text of the
 * first record of an empty ring starts right after its header) and fill the
 * buffer with 0xa5 before use, so a missing wrap marker is never read as a
 * zero by luck.
 */
#include "common.h"

#define ALIGN8(x) (((x) + 7u) & ~7u)

/*
 * The ring operations of these tests: each is klog_ring_<op>() followed
 * by klog_ring_check() on the ring and klog_ring_check_cursor() on the
 * cursor it used, so that every step of every test checks the ring's
 * invariants (R1 to R8, ring.c).
 */
#define assert_ring_ok(r) assert_int_equal(klog_ring_check(r), 0)
#define assert_cursor_ok(r, c) \
	assert_int_equal(klog_ring_check_cursor((r), (c)), 0)

static u64 ring_store(struct klog_ring *r, const struct klog_entry *e)
{
	u64 dropped;

	assert_ring_ok(r);
	dropped = klog_ring_store(r, e);
	assert_ring_ok(r);
	return dropped;
}

static bool ring_read(const struct klog_ring *r, struct klog_cursor *c,
		      struct klog_record *rec, u64 *lost)
{
	bool ok;

	assert_cursor_ok(r, c);
	ok = klog_ring_read(r, c, rec, lost);
	assert_cursor_ok(r, c);
	return ok;
}

static bool ring_peek(const struct klog_ring *r, const struct klog_cursor *c,
		      struct klog_record *rec)
{
	assert_cursor_ok(r, c);
	return klog_ring_peek(r, c, rec);
}

static bool ring_copy(const struct klog_ring *r, const struct klog_cursor *c,
		      struct klog_record *rec, char *buf, u32 size)
{
	bool ok;

	assert_cursor_ok(r, c);
	ok = klog_ring_copy(r, c, rec, buf, size);
	assert_cursor_ok(r, c);
	return ok;
}

static u64 ring_cursor_fix(const struct klog_ring *r, struct klog_cursor *c)
{
	u64 lost;

	assert_cursor_ok(r, c);
	lost = klog_ring_cursor_fix(r, c);
	assert_cursor_ok(r, c);
	return lost;
}

static void ring_cursor_first(const struct klog_ring *r, struct klog_cursor *c)
{
	klog_ring_cursor_first(r, c);
	assert_cursor_ok(r, c);
}

static void ring_cursor_end(const struct klog_ring *r, struct klog_cursor *c)
{
	klog_ring_cursor_end(r, c);
	assert_cursor_ok(r, c);
}

static bool ring_last(const struct klog_ring *r, struct klog_record *rec)
{
	assert_ring_ok(r);
	return klog_ring_last(r, rec);
}

struct tring {
	struct klog_ring r;
	char *buf;
	u32 size;
};

static void tring_init(struct tring *t, u32 size)
{
	t->buf = aligned_alloc(8, size);
	assert_non_null(t->buf);
	memset(t->buf, 0xa5, size);
	t->size = size;
	assert_int_equal(klog_ring_init(&t->r, t->buf, size), 0);
	assert_ring_ok(&t->r);
}

static void tring_free(struct tring *t)
{
	assert_ring_ok(&t->r);
	free(t->buf);
	t->buf = NULL;
}

/* Size of the record header, observed from the ring. */
static u32 hdr_size(void)
{
	static u32 hdr;
	struct tring t;
	struct klog_entry e = { .text = "x", .text_len = 1 };
	struct klog_record rec;

	if (hdr)
		return hdr;
	tring_init(&t, KLOG_RING_MIN);
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	hdr = (u32)(rec.text - t.buf);
	tring_free(&t);
	assert_true(hdr >= 16 && hdr % 8 == 0);
	return hdr;
}

static u64 put_text(struct klog_ring *r, const char *text, u32 len)
{
	struct klog_entry e = { .text = text, .text_len = len, .level = 6 };

	return ring_store(r, &e);
}

/* Fill @buf with a pattern that identifies record @id. */
static void pattern(char *buf, u32 len, u32 id)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = (char)('a' + (id * 7 + i) % 26);
}

static void assert_pattern(const struct klog_record *rec, u32 len, u32 id)
{
	char want[KLOG_RECORD_MAX];

	assert_int_equal(rec->text_len, len);
	pattern(want, len, id);
	assert_memory_equal(rec->text, want, len);
}

/* ---- init ----------------------------------------------------------- */

static void ring_init_rejects_bad_arguments(void **state)
{
	static u64 store[8192 / 8];
	struct klog_ring r;

	(void)state;
	assert_int_equal(klog_ring_init(&r, NULL, 4096), -EINVAL);
	assert_int_equal(klog_ring_init(&r, store, 2048), -EINVAL);
	assert_int_equal(klog_ring_init(&r, store, 0), -EINVAL);
	assert_int_equal(klog_ring_init(&r, store, 4097), -EINVAL);
	assert_int_equal(klog_ring_init(&r, store, 6144), -EINVAL);
	assert_int_equal(klog_ring_init(&r, store, 1u << 31), -EINVAL);
	assert_int_equal(klog_ring_init(&r, (char *)store + 4, 4096), -EINVAL);
	assert_int_equal(klog_ring_init(&r, store, 4096), 0);
	assert_int_equal(klog_ring_init(&r, store, 8192), 0);
	assert_ring_ok(&r);
	assert_int_equal(r.size, 8192);
	assert_int_equal(r.first_seq, 0);
	assert_int_equal(r.next_seq, 0);
	assert_int_equal(klog_ring_count(&r), 0);
}

static void ring_empty_has_nothing(void **state)
{
	struct tring t;
	struct klog_record rec;
	struct klog_cursor c;
	u64 lost = 99;

	(void)state;
	tring_init(&t, 4096);
	assert_false(ring_last(&t.r, &rec));
	ring_cursor_first(&t.r, &c);
	assert_false(ring_peek(&t.r, &c, &rec));
	assert_false(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(lost, 0);
	assert_int_equal(c.seq, 0);
	assert_int_equal(klog_ring_max_text(&t.r), KLOG_RECORD_MAX);
	tring_free(&t);
}

/* ---- fields ----------------------------------------------------------- */

static void ring_store_keeps_every_field(void **state)
{
	static const char dict[] = "SUBSYSTEM=net\0DEVICE=+eth0";
	struct tring t;
	struct klog_entry e = {
		.ts_nsec = 123456789012ull,
		.caller_id = CALLER(42),
		.facility = 3,
		.level = 5,
		.flags = KLOG_F_NEWLINE | KLOG_F_PREFIX,
		.pre = "[tag] ",
		.pre_len = 6,
		.text = "hello world",
		.text_len = 11,
		.dict = dict,
		.dict_len = sizeof(dict) - 1,
	};
	struct klog_record rec;
	struct klog_cursor c;
	u64 lost;

	(void)state;
	tring_init(&t, 4096);
	assert_int_equal(ring_store(&t.r, &e), 0);
	e.pre = NULL;
	e.pre_len = 0;
	e.dict = NULL;
	e.dict_len = 0;
	e.level = 13;		/* only the low three bits are a level */
	e.text = "second";
	e.text_len = 6;
	e.flags = KLOG_F_CONT;
	assert_int_equal(ring_store(&t.r, &e), 0);
	assert_int_equal(klog_ring_count(&t.r), 2);

	ring_cursor_first(&t.r, &c);
	assert_true(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(lost, 0);
	assert_int_equal(rec.seq, 0);
	assert_int_equal(rec.ts_nsec, 123456789012ull);
	assert_int_equal(rec.caller_id, CALLER(42));
	assert_int_equal(rec.facility, 3);
	assert_int_equal(rec.level, 5);
	assert_int_equal(rec.flags, KLOG_F_NEWLINE | KLOG_F_PREFIX);
	assert_int_equal(rec.text_len, 17);
	assert_memory_equal(rec.text, "[tag] hello world", 17);
	assert_int_equal(rec.dict_len, sizeof(dict) - 1);
	assert_memory_equal(rec.dict, dict, sizeof(dict) - 1);

	assert_true(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(rec.seq, 1);
	assert_int_equal(rec.level, 13 & 7);
	assert_int_equal(rec.flags, KLOG_F_CONT);
	assert_int_equal(rec.text_len, 6);
	assert_memory_equal(rec.text, "second", 6);
	assert_int_equal(rec.dict_len, 0);
	assert_false(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(c.seq, 2);
	tring_free(&t);
}

/*
 * The lengths decide what is stored: a dictionary pointer with length 0,
 * or a length with no pointer, stores no dictionary and is not a
 * truncation, with a prefix and without (a length with no pointer always
 * takes the path that cuts; a pointer with length 0 without a prefix, the
 * common one).
 */
static void ring_dict_of_length_zero_is_none(void **state)
{
	static const char dict[] = "K=v";
	struct klog_entry e = { .text = "abc", .text_len = 3 };
	struct klog_record rec;
	struct klog_cursor c;
	struct tring t;
	u64 lost;
	int i;

	(void)state;
	tring_init(&t, 4096);
	e.dict = dict;				/* common path */
	ring_store(&t.r, &e);
	e.pre = "[p] ";				/* the prefix's path */
	e.pre_len = 4;
	ring_store(&t.r, &e);
	e.dict = NULL;
	e.dict_len = sizeof(dict) - 1;
	ring_store(&t.r, &e);
	e.pre = NULL;
	e.pre_len = 0;
	ring_store(&t.r, &e);

	ring_cursor_first(&t.r, &c);
	for (i = 0; i < 4; i++) {
		bool pre = i == 1 || i == 2;

		assert_true(ring_read(&t.r, &c, &rec, &lost));
		assert_int_equal(rec.dict_len, 0);
		assert_int_equal(rec.flags & KLOG_F_TRUNC, 0);
		assert_int_equal(rec.text_len, pre ? 7 : 3);
		assert_memory_equal(rec.text, pre ? "[p] abc" : "abc",
				    rec.text_len);
	}
	assert_false(ring_read(&t.r, &c, &rec, &lost));
	tring_free(&t);
}

/* R6: a header's last byte is padding, 0; the check sees any other. */
static void ring_check_sees_header_pad_set(void **state)
{
	struct klog_entry e = { .text = "abc", .text_len = 3 };
	struct klog_record rec;
	struct tring t;

	(void)state;
	tring_init(&t, 4096);
	ring_store(&t.r, &e);
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text[-1], 0);
	t.buf[rec.text - t.buf - 1] = 1;
	assert_int_equal(klog_ring_check(&t.r), -KLOG_RING_R6);
	t.buf[rec.text - t.buf - 1] = 0;
	assert_ring_ok(&t.r);
	tring_free(&t);
}

/* ---- layout: the tail and the wrap ------------------------------------ */

/*
 * Three 1024-byte records and a fourth sized so that exactly a header's
 * worth of room (the wrap marker's) is left at the end of a 4 KiB ring.
 */
static u32 fill_to_tail(struct tring *t, u32 *fourth_text)
{
	u32 hdr = hdr_size(), big = ALIGN8(hdr + 1024), need4, i;
	char text[KLOG_RECORD_MAX];
	struct klog_record rec;

	for (i = 0; i < 3; i++) {
		pattern(text, 1024, i);
		assert_int_equal(put_text(&t->r, text, 1024), 0);
	}
	assert_int_equal(t->r.next_idx, 3 * big);
	need4 = t->size - hdr - 3 * big;
	*fourth_text = need4 - hdr;
	pattern(text, *fourth_text, 3);
	assert_int_equal(put_text(&t->r, text, *fourth_text), 0);
	assert_true(ring_last(&t->r, &rec));
	assert_ptr_equal(rec.text, t->buf + 3 * big + hdr);
	return 3 * big + need4;
}

static void ring_record_exactly_fills_tail(void **state)
{
	struct tring t;
	struct klog_record rec;
	struct klog_cursor c;
	u32 end, len4, i;

	(void)state;
	tring_init(&t, 4096);
	end = fill_to_tail(&t, &len4);
	/* Nothing was dropped and the ring ends one header before its end. */
	assert_int_equal(end, t.size - hdr_size());
	assert_int_equal(t.r.next_idx, end);
	assert_int_equal(t.r.first_seq, 0);
	assert_int_equal(klog_ring_count(&t.r), 4);
	ring_cursor_first(&t.r, &c);
	for (i = 0; i < 4; i++) {
		assert_true(ring_read(&t.r, &c, &rec, NULL));
		assert_int_equal(rec.seq, i);
		assert_pattern(&rec, i < 3 ? 1024 : len4, i);
	}
	assert_false(ring_read(&t.r, &c, &rec, NULL));
	tring_free(&t);
}

static void ring_one_byte_more_wraps(void **state)
{
	u32 hdr = hdr_size(), big = ALIGN8(hdr + 1024), len4, i;
	char text[KLOG_RECORD_MAX];
	struct klog_record rec;
	struct klog_cursor c;
	struct tring t;

	(void)state;
	tring_init(&t, 4096);
	for (i = 0; i < 3; i++) {
		pattern(text, 1024, i);
		put_text(&t.r, text, 1024);
	}
	len4 = t.size - hdr - 3 * big - hdr + 1;
	pattern(text, len4, 3);
	/* It does not fit before the marker room: it goes to 0. */
	assert_int_equal(put_text(&t.r, text, len4), 1);
	assert_true(ring_last(&t.r, &rec));
	assert_ptr_equal(rec.text, t.buf + hdr);
	assert_int_equal(t.r.first_seq, 1);
	assert_int_equal(t.r.next_idx, ALIGN8(hdr + len4));
	/* The old end holds the marker: a cursor there finds record 3. */
	c.seq = 3;
	c.idx = 3 * big;
	assert_true(ring_peek(&t.r, &c, &rec));
	assert_int_equal(rec.seq, 3);
	assert_pattern(&rec, len4, 3);
	ring_cursor_first(&t.r, &c);
	for (i = 1; i < 4; i++) {
		assert_true(ring_read(&t.r, &c, &rec, NULL));
		assert_int_equal(rec.seq, i);
		assert_pattern(&rec, i < 3 ? 1024 : len4, i);
	}
	assert_false(ring_read(&t.r, &c, &rec, NULL));
	tring_free(&t);
}

static void ring_wrap_marker_after_exact_fill(void **state)
{
	struct klog_record rec;
	struct klog_cursor c, at_end;
	struct tring t;
	u32 end, len4, i;

	(void)state;
	tring_init(&t, 4096);
	end = fill_to_tail(&t, &len4);
	ring_cursor_end(&t.r, &at_end);
	assert_int_equal(at_end.idx, end);
	assert_int_equal(at_end.seq, 4);
	/* The next record must go to offset 0, behind a marker at @end. */
	assert_int_equal(put_text(&t.r, "wrapped", 7), 1);
	assert_true(ring_last(&t.r, &rec));
	assert_ptr_equal(rec.text, t.buf + hdr_size());
	assert_int_equal(rec.seq, 4);
	/* The marker header is all zero (len 0). */
	for (i = 0; i < hdr_size(); i++)
		assert_int_equal(t.buf[end + i], 0);
	/* A reader that sat at the end follows the marker. */
	assert_true(ring_read(&t.r, &at_end, &rec, NULL));
	assert_int_equal(rec.seq, 4);
	assert_memory_equal(rec.text, "wrapped", 7);
	assert_false(ring_read(&t.r, &at_end, &rec, NULL));
	/* A full reader sees 1, 2, 3 and then the wrapped record. */
	ring_cursor_first(&t.r, &c);
	for (i = 1; i < 4; i++) {
		assert_true(ring_read(&t.r, &c, &rec, NULL));
		assert_int_equal(rec.seq, i);
		assert_pattern(&rec, i < 3 ? 1024 : len4, i);
	}
	assert_true(ring_read(&t.r, &c, &rec, NULL));
	assert_int_equal(rec.seq, 4);
	assert_memory_equal(rec.text, "wrapped", 7);
	assert_int_equal(c.seq, t.r.next_seq);
	assert_int_equal(c.idx, t.r.next_idx);
	tring_free(&t);
}

/* The smallest ring with maximum-size records: always 2 or 3 intact. */
static void ring_smallest_ring_with_max_records(void **state)
{
	char text[KLOG_RECORD_MAX];
	struct klog_record rec;
	struct klog_cursor c;
	u64 dropped = 0;
	struct tring t;
	u32 i;

	(void)state;
	tring_init(&t, KLOG_RING_MIN);
	for (i = 0; i < 100; i++) {
		u64 count, s;

		pattern(text, 1024, i);
		dropped += put_text(&t.r, text, 1024);
		count = klog_ring_count(&t.r);
		assert_int_equal(t.r.next_seq, i + 1);
		assert_int_equal(dropped, t.r.first_seq);
		if (i < 3)
			assert_int_equal(count, i + 1);
		else
			assert_true(count == 2 || count == 3);
		ring_cursor_first(&t.r, &c);
		for (s = t.r.first_seq; s <= i; s++) {
			assert_true(ring_read(&t.r, &c, &rec, NULL));
			assert_int_equal(rec.seq, s);
			assert_int_equal(rec.flags & KLOG_F_TRUNC, 0);
			assert_pattern(&rec, 1024, (u32)s);
		}
		assert_false(ring_read(&t.r, &c, &rec, NULL));
	}
	tring_free(&t);
}

/* ---- truncation ------------------------------------------------------- */

static void ring_record_larger_than_ring_is_truncated(void **state)
{
	u32 len = 3 * KLOG_RING_MIN;
	char *text = malloc(len);
	struct klog_record rec;
	struct tring t;

	(void)state;
	assert_non_null(text);
	pattern(text, len, 9);
	tring_init(&t, KLOG_RING_MIN);
	put_text(&t.r, "before", 6);
	put_text(&t.r, text, len);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, klog_ring_max_text(&t.r));
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_true(rec.flags & KLOG_F_TRUNC);
	assert_memory_equal(rec.text, text, rec.text_len);
	/* The ring is still sound: a following record reads back. */
	put_text(&t.r, "after", 5);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, 5);
	assert_int_equal(rec.flags & KLOG_F_TRUNC, 0);
	assert_memory_equal(rec.text, "after", 5);
	free(text);
	tring_free(&t);
}

static void ring_exact_max_text_is_not_truncated(void **state)
{
	char text[KLOG_RECORD_MAX + 1];
	struct klog_record rec;
	struct tring t;

	(void)state;
	pattern(text, sizeof(text), 1);
	tring_init(&t, 8192);
	put_text(&t.r, text, KLOG_RECORD_MAX);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_int_equal(rec.flags & KLOG_F_TRUNC, 0);
	put_text(&t.r, text, KLOG_RECORD_MAX + 1);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_true(rec.flags & KLOG_F_TRUNC);
	tring_free(&t);
}

static void ring_prefix_and_text_truncated_together(void **state)
{
	char text[KLOG_RECORD_MAX], want[KLOG_RECORD_MAX];
	struct klog_entry e = { .pre = "[abc] ", .pre_len = 6 };
	struct klog_record rec;
	struct tring t;

	(void)state;
	pattern(text, sizeof(text), 2);
	tring_init(&t, 4096);
	/* pre + text is one byte too long. */
	e.text = text;
	e.text_len = KLOG_RECORD_MAX - 5;
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_true(rec.flags & KLOG_F_TRUNC);
	memcpy(want, "[abc] ", 6);
	memcpy(want + 6, text, KLOG_RECORD_MAX - 6);
	assert_memory_equal(rec.text, want, KLOG_RECORD_MAX);
	/* pre + text exactly at the limit: intact. */
	e.text_len = KLOG_RECORD_MAX - 6;
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_int_equal(rec.flags & KLOG_F_TRUNC, 0);
	tring_free(&t);
}

/* A dictionary of @n pairs "Knn=vvv..." of @vlen value bytes, NUL-ended. */
static u32 make_dict(char *buf, u32 n, u32 vlen)
{
	u32 i, j, len = 0;

	for (i = 0; i < n; i++) {
		len += (u32)sprintf(buf + len, "K%02u=", i);
		for (j = 0; j < vlen; j++)
			buf[len++] = (char)('a' + (i + j) % 26);
		buf[len++] = '\0';
	}
	return len;
}

static void ring_dict_truncated_at_pair_boundary(void **state)
{
	char dict[4096], text[KLOG_RECORD_MAX];
	struct klog_entry e = { .text = text, .text_len = KLOG_RECORD_MAX };
	u32 room = KLOG_RING_MIN / 2 - 2 * hdr_size() - KLOG_RECORD_MAX;
	u32 len, pair = 4 + 16 + 1, want;
	struct klog_record rec;
	struct tring t;

	(void)state;
	pattern(text, sizeof(text), 3);
	len = make_dict(dict, 80, 16);		/* 80 pairs of 21 bytes */
	assert_true(len > room);
	tring_init(&t, KLOG_RING_MIN);
	e.dict = dict;
	e.dict_len = len;
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_memory_equal(rec.text, text, KLOG_RECORD_MAX);
	assert_true(rec.flags & KLOG_F_TRUNC);
	/* Whole pairs only: the stored bytes end just before a separator. */
	want = (room / pair) * pair;
	if (want + pair - 1 <= room)
		want += pair - 1;
	else if (want)
		want -= 1;
	assert_int_equal(rec.dict_len, want);
	assert_memory_equal(rec.dict, dict, rec.dict_len);
	assert_int_equal(dict[rec.dict_len], '\0');
	assert_true(rec.dict_len <= room);

	/* A dictionary that fits is stored whole and not flagged. */
	len = make_dict(dict, 3, 10);
	e.text_len = 10;
	e.dict_len = len;
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.dict_len, len);
	assert_memory_equal(rec.dict, dict, len);
	assert_int_equal(rec.flags & KLOG_F_TRUNC, 0);

	/* One pair bigger than the room: no dictionary at all, flagged. */
	len = make_dict(dict, 1, 2000);
	e.text_len = KLOG_RECORD_MAX;
	e.dict_len = len;
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.dict_len, 0);
	assert_true(rec.flags & KLOG_F_TRUNC);
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	tring_free(&t);
}

static void ring_dict_capped_at_dict_max(void **state)
{
	static char dict[4096];
	struct klog_entry e = { .text = "t", .text_len = 1 };
	struct klog_record rec;
	struct tring t;
	u32 len;

	(void)state;
	len = make_dict(dict, 150, 20);		/* 150 * 24 = 3600 bytes */
	tring_init(&t, 65536);
	e.dict = dict;
	e.dict_len = len;
	ring_store(&t.r, &e);
	assert_true(ring_last(&t.r, &rec));
	assert_true(rec.flags & KLOG_F_TRUNC);
	assert_true(rec.dict_len <= KLOG_DICT_MAX);
	assert_true(rec.dict_len > KLOG_DICT_MAX - 26);
	assert_int_equal(dict[rec.dict_len], '\0');
	assert_memory_equal(rec.dict, dict, rec.dict_len);
	tring_free(&t);
}

/* ---- copies ----------------------------------------------------------- */

/* A copy has the record's fields, and its text and dict in the buffer. */
static void ring_copy_is_the_record_in_the_buffer(void **state)
{
	static char buf[KLOG_COPY_MAX + 16];
	char dict[KLOG_DICT_MAX], text[KLOG_RECORD_MAX];
	struct klog_entry e = {
		.ts_nsec = 42, .caller_id = 7, .facility = 3, .level = 5,
		.flags = KLOG_F_NEWLINE, .text = text,
		.text_len = KLOG_RECORD_MAX, .dict = dict,
	};
	struct klog_record peek, copy;
	struct klog_cursor c;
	struct tring t;

	(void)state;
	pattern(text, sizeof(text), 5);
	e.dict_len = make_dict(dict, 40, 20);	/* 40 * 25 = 1000 bytes */
	tring_init(&t, 65536);
	ring_store(&t.r, &e);
	ring_cursor_first(&t.r, &c);
	assert_true(ring_peek(&t.r, &c, &peek));
	assert_int_equal(peek.dict_len, e.dict_len);
	memset(buf, 0x5a, sizeof(buf));
	assert_true(ring_copy(&t.r, &c, &copy, buf, KLOG_COPY_MAX));
	assert_int_equal(copy.seq, peek.seq);
	assert_int_equal(copy.ts_nsec, 42);
	assert_int_equal(copy.caller_id, 7);
	assert_int_equal(copy.facility, 3);
	assert_int_equal(copy.level, 5);
	assert_int_equal(copy.flags, peek.flags);
	assert_ptr_equal(copy.text, buf);
	assert_int_equal(copy.text_len, KLOG_RECORD_MAX);
	assert_memory_equal(copy.text, text, KLOG_RECORD_MAX);
	assert_ptr_equal(copy.dict, buf + KLOG_RECORD_MAX);
	assert_int_equal(copy.dict_len, e.dict_len);
	assert_memory_equal(copy.dict, dict, e.dict_len);
	/* Nothing is written past the text and the dictionary. */
	assert_int_equal((unsigned char)buf[KLOG_RECORD_MAX + e.dict_len],
			 0x5a);
	/* The cursor does not move. */
	assert_int_equal(c.seq, peek.seq);

	/* The copy outlives the record: overwrite it with other records. */
	while (t.r.first_seq == 0)
		put_text(&t.r, "other", 5);
	assert_false(ring_copy(&t.r, &c, &peek, buf + KLOG_COPY_MAX, 16));
	assert_memory_equal(copy.text, text, KLOG_RECORD_MAX);
	assert_memory_equal(copy.dict, dict, e.dict_len);
	tring_free(&t);
}

/* A small buffer gets the text first, then whole pairs of the dict. */
static void ring_copy_bounded_by_the_buffer(void **state)
{
	char buf[64], dict[256];
	struct klog_entry e = { .text = "0123456789", .text_len = 10 };
	struct klog_record copy;
	struct klog_cursor c;
	struct tring t;
	u32 len;

	(void)state;
	len = make_dict(dict, 4, 10);		/* 4 pairs of 15 bytes */
	assert_int_equal(len, 60);
	e.dict = dict;
	e.dict_len = len;
	tring_init(&t, KLOG_RING_MIN);
	ring_store(&t.r, &e);
	ring_cursor_first(&t.r, &c);

	memset(buf, 0x5a, sizeof(buf));
	assert_true(ring_copy(&t.r, &c, &copy, buf, 40));
	assert_int_equal(copy.text_len, 10);
	assert_memory_equal(copy.text, "0123456789", 10);
	/* 30 bytes left: two pairs, the second without its NUL. */
	assert_int_equal(copy.dict_len, 29);
	assert_memory_equal(copy.dict, dict, 29);
	assert_int_equal((unsigned char)buf[40], 0x5a);

	/* Text only, cut; no dictionary. */
	assert_true(ring_copy(&t.r, &c, &copy, buf, 4));
	assert_int_equal(copy.text_len, 4);
	assert_memory_equal(copy.text, "0123", 4);
	assert_int_equal(copy.dict_len, 0);

	/* No room at all: the fields, no bytes. */
	assert_true(ring_copy(&t.r, &c, &copy, buf, 0));
	assert_int_equal(copy.text_len, 0);
	assert_int_equal(copy.dict_len, 0);
	assert_int_equal(copy.seq, 0);
	tring_free(&t);
}

/* Nothing to copy at the end of the ring or under an overtaken cursor. */
static void ring_copy_needs_a_record(void **state)
{
	struct klog_record copy;
	struct klog_cursor c, old;
	struct tring t;
	char buf[32];

	(void)state;
	tring_init(&t, KLOG_RING_MIN);
	ring_cursor_first(&t.r, &c);
	assert_false(ring_copy(&t.r, &c, &copy, buf, sizeof(buf)));
	put_text(&t.r, "a", 1);
	old = c;
	assert_true(ring_copy(&t.r, &c, &copy, buf, sizeof(buf)));
	klog_ring_advance(&t.r, &c);
	assert_false(ring_copy(&t.r, &c, &copy, buf, sizeof(buf)));
	while (t.r.first_seq == 0)
		put_text(&t.r, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 40);
	assert_false(ring_copy(&t.r, &old, &copy, buf, sizeof(buf)));
	tring_free(&t);
}

/* ---- cursors ---------------------------------------------------------- */

static void ring_overtaken_cursor_reports_exact_loss(void **state)
{
	char text[200];
	struct klog_record rec;
	struct klog_cursor c, slow;
	struct tring t;
	u64 lost, expect;
	u32 i;

	(void)state;
	tring_init(&t, 4096);
	for (i = 0; i < 5; i++) {
		pattern(text, 100, i);
		put_text(&t.r, text, 100);
	}
	ring_cursor_first(&t.r, &slow);
	assert_true(ring_read(&t.r, &slow, &rec, &lost));
	assert_int_equal(lost, 0);
	assert_int_equal(rec.seq, 0);
	/* slow is at seq 1; overwrite until at least 16 records are gone. */
	for (i = 5; t.r.first_seq < 17; i++) {
		pattern(text, 100, i);
		put_text(&t.r, text, 100);
	}
	expect = t.r.first_seq - 1;
	assert_true(expect >= 16);
	c = slow;
	assert_int_equal(ring_cursor_fix(&t.r, &c), expect);
	assert_int_equal(c.seq, t.r.first_seq);
	assert_int_equal(c.idx, t.r.first_idx);
	assert_true(ring_read(&t.r, &slow, &rec, &lost));
	assert_int_equal(lost, expect);
	assert_int_equal(rec.seq, expect + 1);
	assert_pattern(&rec, 100, (u32)rec.seq);
	/* Only once: the next read loses nothing. */
	assert_true(ring_read(&t.r, &slow, &rec, &lost));
	assert_int_equal(lost, 0);
	assert_int_equal(rec.seq, expect + 2);
	tring_free(&t);
}

static void ring_cursor_fix_leaves_valid_cursor(void **state)
{
	struct klog_cursor c, before;
	struct tring t;

	(void)state;
	tring_init(&t, 4096);
	put_text(&t.r, "a", 1);
	put_text(&t.r, "b", 1);
	ring_cursor_first(&t.r, &c);
	before = c;
	assert_int_equal(ring_cursor_fix(&t.r, &c), 0);
	assert_int_equal(c.seq, before.seq);
	assert_int_equal(c.idx, before.idx);
	ring_cursor_end(&t.r, &c);
	before = c;
	assert_int_equal(ring_cursor_fix(&t.r, &c), 0);
	assert_int_equal(c.seq, before.seq);
	assert_int_equal(c.idx, before.idx);
	tring_free(&t);
}

static void ring_lost_everything_then_reads_newest(void **state)
{
	char text[1024];
	struct klog_record rec;
	struct klog_cursor c;
	struct tring t;
	u64 lost;
	u32 i;

	(void)state;
	tring_init(&t, 4096);
	put_text(&t.r, "old", 3);
	ring_cursor_first(&t.r, &c);
	for (i = 0; i < 40; i++) {
		pattern(text, 1024, i);
		put_text(&t.r, text, 1024);
	}
	assert_true(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(lost, t.r.first_seq);
	assert_int_equal(rec.seq, t.r.first_seq);
	while (ring_read(&t.r, &c, &rec, &lost))
		assert_int_equal(lost, 0);
	assert_int_equal(rec.seq, 40);
	assert_pattern(&rec, 1024, 39);
	tring_free(&t);
}

static void ring_cursor_at_end_sees_only_new_records(void **state)
{
	struct klog_record rec;
	struct klog_cursor c;
	struct tring t;
	u64 lost;

	(void)state;
	tring_init(&t, 4096);
	ring_cursor_end(&t.r, &c);
	assert_false(ring_peek(&t.r, &c, &rec));
	put_text(&t.r, "one", 3);
	put_text(&t.r, "two", 3);
	ring_cursor_end(&t.r, &c);
	assert_int_equal(c.seq, 2);
	assert_false(ring_peek(&t.r, &c, &rec));
	assert_false(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(c.seq, 2);
	put_text(&t.r, "three", 5);
	assert_true(ring_read(&t.r, &c, &rec, &lost));
	assert_int_equal(lost, 0);
	assert_int_equal(rec.seq, 2);
	assert_memory_equal(rec.text, "three", 5);
	assert_false(ring_read(&t.r, &c, &rec, &lost));
	tring_free(&t);
}

/* A reader parked at the end, when the end is where the ring wraps. */
static void ring_cursor_at_end_across_many_wraps(void **state)
{
	char text[1024];
	struct klog_record rec;
	struct klog_cursor c;
	struct tring t;
	u32 i, len;
	u64 lost;

	(void)state;
	tring_init(&t, 4096);
	ring_cursor_end(&t.r, &c);
	for (i = 0; i < 300; i++) {
		len = 1 + (i * 137) % 900;
		pattern(text, len, i);
		put_text(&t.r, text, len);
		assert_true(ring_read(&t.r, &c, &rec, &lost));
		assert_int_equal(lost, 0);
		assert_int_equal(rec.seq, i);
		assert_pattern(&rec, len, i);
		assert_false(ring_read(&t.r, &c, &rec, &lost));
		assert_int_equal(c.seq, t.r.next_seq);
	}
	tring_free(&t);
}

static void ring_last_is_newest(void **state)
{
	char text[1024];
	struct klog_record rec;
	struct tring t;
	u32 i, len;

	(void)state;
	tring_init(&t, 4096);
	assert_false(ring_last(&t.r, &rec));
	for (i = 0; i < 200; i++) {
		len = (i * 71) % 1024;
		pattern(text, len, i);
		put_text(&t.r, text, len);
		assert_true(ring_last(&t.r, &rec));
		assert_int_equal(rec.seq, i);
		assert_pattern(&rec, len, i);
	}
	tring_free(&t);
}

static void ring_store_returns_dropped_count(void **state)
{
	char text[600];
	struct tring t;
	u64 sum = 0, before, got;
	u32 i;

	(void)state;
	tring_init(&t, 8192);
	for (i = 0; i < 20; i++)
		assert_int_equal(put_text(&t.r, "small", 5), 0);
	for (i = 0; i < 100; i++) {
		pattern(text, sizeof(text), i);
		before = t.r.first_seq;
		got = put_text(&t.r, text, sizeof(text));
		assert_int_equal(got, t.r.first_seq - before);
		sum += got;
	}
	assert_true(sum > 20);
	assert_int_equal(sum, t.r.first_seq);
	tring_free(&t);
}

/*
 * A record that must be cut (a prefix, a dictionary too long) and wraps
 * after dropping every record: the ring is empty when it goes to 0, the
 * marker stays where the ring's end was (R5), and nothing else moves.
 */
static void ring_cut_record_wraps_an_emptied_ring(void **state)
{
	char dict[4096], text[KLOG_RECORD_MAX], pre[] = "[pre] ";
	u32 hdr = hdr_size(), len, a_len, end, i;
	struct klog_entry e = { .level = 6 };
	struct klog_record rec;
	struct klog_cursor c;
	struct tring t;

	(void)state;
	tring_init(&t, KLOG_RING_MIN);
	len = make_dict(dict, 80, 16);
	/* A: text cut to KLOG_RECORD_MAX, the dictionary to the rest. */
	pattern(text, sizeof(text), 0);
	e.text = text;
	e.text_len = sizeof(text);
	e.dict = dict;
	e.dict_len = len;
	assert_int_equal(ring_store(&t.r, &e), 0);
	a_len = t.r.next_idx;
	assert_true(a_len > KLOG_RING_MIN / 2 - 2 * hdr - 2 * 21);
	/* B: text alone, right after A. */
	pattern(text, sizeof(text), 1);
	assert_int_equal(put_text(&t.r, text, sizeof(text)), 0);
	end = t.r.next_idx;
	assert_int_equal(end, a_len + ALIGN8(hdr + sizeof(text)));
	/* C: a prefix, the text and the dictionary: drops A and B, wraps. */
	pattern(text, sizeof(text), 2);
	e.pre = pre;
	e.pre_len = sizeof(pre) - 1;
	assert_int_equal(ring_store(&t.r, &e), 2);
	for (i = 0; i < hdr; i++)
		assert_int_equal(t.buf[end + i], 0);
	assert_int_equal(t.r.first_seq, 2);
	assert_int_equal(t.r.next_seq, 3);
	assert_int_equal(t.r.first_idx, end);
	assert_int_equal(t.r.last_idx, 0);
	assert_true(t.r.next_idx <= KLOG_RING_MIN / 2 - hdr);
	ring_cursor_first(&t.r, &c);
	assert_true(ring_read(&t.r, &c, &rec, NULL));
	assert_int_equal(rec.seq, 2);
	assert_ptr_equal(rec.text, t.buf + hdr);
	assert_true(rec.flags & KLOG_F_TRUNC);
	assert_int_equal(rec.text_len, KLOG_RECORD_MAX);
	assert_memory_equal(rec.text, pre, sizeof(pre) - 1);
	assert_memory_equal(rec.text + sizeof(pre) - 1, text,
			    KLOG_RECORD_MAX - (sizeof(pre) - 1));
	assert_true(rec.dict_len > 0);
	assert_memory_equal(rec.dict, dict, rec.dict_len);
	assert_int_equal(dict[rec.dict_len], '\0');
	assert_false(ring_read(&t.r, &c, &rec, NULL));
	tring_free(&t);
}

/* No text at all (NULL, 0 bytes) is a record of its header alone. */
static void ring_empty_text_is_a_header(void **state)
{
	struct klog_entry e = { .level = 3, .flags = KLOG_F_NEWLINE };
	struct klog_record rec;
	struct tring t;

	(void)state;
	tring_init(&t, KLOG_RING_MIN);
	assert_int_equal(ring_store(&t.r, &e), 0);
	assert_int_equal(t.r.next_idx, hdr_size());
	assert_true(ring_last(&t.r, &rec));
	assert_int_equal(rec.text_len, 0);
	assert_int_equal(rec.dict_len, 0);
	assert_int_equal(rec.level, 3);
	assert_int_equal(rec.flags, KLOG_F_NEWLINE);
	tring_free(&t);
}

/* ---- invariants: a broken ring fails its check ---------------------- */

/* Rings broken on purpose: each must fail exactly the invariant it breaks. */
#define assert_broken(r, n) assert_int_equal(klog_ring_check(r), -(n))
#define assert_bad_cursor(r, c, n) \
	assert_int_equal(klog_ring_check_cursor((r), (c)), -(n))

/* Three records at 0, 32 and 64 in 4 KiB: "a", "bb", "ccc". */
static void three_records(struct tring *t)
{
	tring_init(t, 4096);
	put_text(&t->r, "a", 1);
	put_text(&t->r, "bb", 2);
	put_text(&t->r, "ccc", 3);
	assert_int_equal(t->r.first_idx, 0);
	assert_int_equal(t->r.last_idx, 2 * ALIGN8(hdr_size() + 3));
	assert_true(t->r.first_idx < t->r.next_idx);
}

static void ring_check_fails_the_broken_invariant(void **state)
{
	u32 hdr = hdr_size(), second = ALIGN8(hdr + 3);
	char saved[64];
	struct klog_ring r;
	struct tring t;

	(void)state;
	three_records(&t);
	assert_ring_ok(&t.r);

	/* R1: geometry. */
	r = t.r;
	r.size = 6144;
	assert_broken(&r, KLOG_RING_R1);
	r = t.r;
	r.buf = t.buf + 4;
	assert_broken(&r, KLOG_RING_R1);
	r = t.r;
	r.next_idx += 4;
	assert_broken(&r, KLOG_RING_R1);
	r = t.r;
	r.last_idx = r.size;
	assert_broken(&r, KLOG_RING_R1);

	/* R2: sequence numbers. */
	r = t.r;
	r.first_seq = r.next_seq + 1;
	assert_broken(&r, KLOG_RING_R2);
	r = t.r;
	r.next_seq = r.first_seq + r.size;
	assert_broken(&r, KLOG_RING_R2);

	/* R3: empty by its sequence numbers, not by its offsets; and back. */
	r = t.r;
	r.first_seq = r.next_seq;
	assert_broken(&r, KLOG_RING_R3);
	r = t.r;
	r.first_idx = r.next_idx;
	assert_broken(&r, KLOG_RING_R3);

	/* R4: no room for a marker behind the newest record. */
	r = t.r;
	r.next_idx = r.size - 8;
	assert_broken(&r, KLOG_RING_R4);

	/* R5: first_idx names a marker, but the records do not wrap. */
	r = t.r;
	r.first_seq = 1;
	r.first_idx = second;
	assert_ring_ok(&r);
	memcpy(saved, t.buf + second, hdr);
	memset(t.buf + second, 0, hdr);
	assert_broken(&r, KLOG_RING_R5);
	memcpy(t.buf + second, saved, hdr);

	/* R6: the oldest record's header is garbage. */
	memcpy(saved, t.buf, hdr);
	memset(t.buf, 0xff, hdr);
	assert_broken(&t.r, KLOG_RING_R6);
	memcpy(t.buf, saved, hdr);

	/* R7: last_idx is not the record that ends at next_idx... */
	r = t.r;
	r.last_idx = second;
	assert_broken(&r, KLOG_RING_R7);
	/* ... or names a marker. */
	memcpy(saved, t.buf + t.r.last_idx, hdr);
	memset(t.buf + t.r.last_idx, 0, hdr);
	assert_broken(&t.r, KLOG_RING_R7);
	memcpy(t.buf + t.r.last_idx, saved, hdr);

	assert_ring_ok(&t.r);
	tring_free(&t);
}

static void ring_check_wrapped_ring(void **state)
{
	struct klog_cursor c;
	struct klog_ring r;
	struct tring t;
	u32 end, len4;

	(void)state;
	tring_init(&t, 4096);
	end = fill_to_tail(&t, &len4);
	assert_int_equal(put_text(&t.r, "wrapped", 7), 1);
	assert_true(t.r.first_idx > t.r.next_idx);
	assert_ring_ok(&t.r);

	/* R4: the gap before the oldest record is less than a header. */
	r = t.r;
	r.next_idx = r.first_idx - 16;
	assert_broken(&r, KLOG_RING_R4);

	/* R8: the marker's offset names the record at 0, the newest. */
	c.seq = t.r.next_seq - 1;
	c.idx = end;
	assert_cursor_ok(&t.r, &c);
	c.idx = 0;
	assert_cursor_ok(&t.r, &c);
	/* An overtaken cursor is valid whatever its offset. */
	c.seq = 0;
	c.idx = 12345;
	assert_cursor_ok(&t.r, &c);
	tring_free(&t);
}

static void ring_check_cursor_fails_a_bad_cursor(void **state)
{
	u32 second = ALIGN8(hdr_size() + 3);
	struct klog_cursor c;
	struct klog_ring r;
	struct tring t;

	(void)state;
	three_records(&t);
	ring_cursor_first(&t.r, &c);
	ring_cursor_end(&t.r, &c);

	c.seq = t.r.next_seq + 1;		/* beyond the end */
	c.idx = t.r.next_idx;
	assert_bad_cursor(&t.r, &c, KLOG_RING_R8);
	c.seq = t.r.next_seq;			/* at the end, elsewhere */
	c.idx = 0;
	assert_bad_cursor(&t.r, &c, KLOG_RING_R8);
	c.seq = t.r.first_seq;			/* the oldest, not there */
	c.idx = second;
	assert_bad_cursor(&t.r, &c, KLOG_RING_R8);
	c.seq = t.r.next_seq - 1;		/* the newest, not there */
	c.idx = 0;
	assert_bad_cursor(&t.r, &c, KLOG_RING_R8);
	c.seq = 1;				/* not aligned */
	c.idx = second + 4;
	assert_bad_cursor(&t.r, &c, KLOG_RING_R8);
	c.seq = 1;				/* free space is no record */
	c.idx = t.r.next_idx + 64;
	assert_bad_cursor(&t.r, &c, KLOG_RING_R8);
	c.seq = 1;
	c.idx = second;
	assert_cursor_ok(&t.r, &c);

	/* A valid cursor of a broken ring reports the ring's invariant. */
	r = t.r;
	r.first_seq = r.next_seq + 1;
	assert_bad_cursor(&r, &c, KLOG_RING_R2);
	tring_free(&t);
}

/* ---- the reference model ------------------------------------------- */

struct mrec {
	u64 seq;
	u32 start;	/* where the record's space begins (the marker if wrapped) */
	u32 off;	/* where its header is */
	u32 need;
	u64 ts;
	u32 caller;
	u8 facility, level, flags;
	u32 text_len, dict_len;
	char text[KLOG_RECORD_MAX];
	char dict[KLOG_DICT_MAX];
};

struct model {
	u32 size, hdr;
	struct mrec *q;
	u32 cap, head, count;
	u32 tail;
	u64 first_seq, next_seq;
};

static u64 rng_state;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (u32)(rng_state % n) : 0;
}

static struct mrec *mq(struct model *m, u32 i)
{
	return &m->q[(m->head + i) % m->cap];
}

/* Where the model puts a record of @need bytes; pops what must go. */
static u64 model_place(struct model *m, u32 need, u32 *off, u32 *start)
{
	u64 dropped = 0;

	for (;;) {
		if (!m->count) {
			*start = m->tail;
			*off = m->tail + need + m->hdr <= m->size ? m->tail : 0;
			return dropped;
		}
		u32 hs = mq(m, 0)->start;

		if (m->tail > hs) {
			/* free space: [tail, size) and [0, hs) */
			if (m->tail + need + m->hdr <= m->size) {
				*off = *start = m->tail;
				return dropped;
			}
			if (need + m->hdr <= hs) {
				*off = 0;
				*start = m->tail;
				return dropped;
			}
		} else if (need + m->hdr <= hs - m->tail) {
			*off = *start = m->tail;
			return dropped;
		}
		m->head = (m->head + 1) % m->cap;
		m->count--;
		m->first_seq++;
		dropped++;
	}
}

/* Expected dictionary bytes kept within @room (whole pairs only). */
static u32 model_dict_fit(const char *dict, u32 len, u32 room)
{
	u32 best = 0, i;

	if (len <= room)
		return len;
	for (i = 0; i <= room; i++)
		if (dict[i] == '\0')
			best = i;
	return best;
}

static u64 model_store(struct model *m, const struct klog_entry *e)
{
	u32 max_text = KLOG_RECORD_MAX, pre = e->pre_len, text = e->text_len;
	u32 room, dict, off, start, need;
	u8 flags = e->flags;
	struct mrec *r;
	u64 dropped;

	if (pre > max_text) {
		pre = max_text;
		flags |= KLOG_F_TRUNC;
	}
	if (text > max_text - pre) {
		text = max_text - pre;
		flags |= KLOG_F_TRUNC;
	}
	room = m->size / 2 - 2 * m->hdr - pre - text;
	if (room > KLOG_DICT_MAX)
		room = KLOG_DICT_MAX;
	dict = e->dict ? model_dict_fit(e->dict, e->dict_len, room) : 0;
	if (e->dict && dict < e->dict_len)
		flags |= KLOG_F_TRUNC;
	need = ALIGN8(m->hdr + pre + text + dict);
	dropped = model_place(m, need, &off, &start);
	assert_true(m->count < m->cap);
	r = mq(m, m->count);
	m->count++;
	r->seq = m->next_seq++;
	r->start = start;
	r->off = off;
	r->need = need;
	r->ts = e->ts_nsec;
	r->caller = e->caller_id;
	r->facility = e->facility;
	r->level = e->level & 7;
	r->flags = flags;
	r->text_len = pre + text;
	if (pre)
		memcpy(r->text, e->pre, pre);
	if (text)
		memcpy(r->text + pre, e->text, text);
	r->dict_len = dict;
	if (dict)
		memcpy(r->dict, e->dict, dict);
	m->tail = off + need;
	return dropped;
}

static const struct mrec *model_find(struct model *m, u64 seq)
{
	if (seq < m->first_seq || seq >= m->next_seq)
		return NULL;
	return mq(m, (u32)(seq - m->first_seq));
}

static void check_rec(const struct tring *t, const struct mrec *w,
		      const struct klog_record *rec)
{
	assert_int_equal(rec->seq, w->seq);
	assert_ptr_equal(rec->text, t->buf + w->off + 0 + hdr_size());
	assert_int_equal(rec->ts_nsec, w->ts);
	assert_int_equal(rec->caller_id, w->caller);
	assert_int_equal(rec->facility, w->facility);
	assert_int_equal(rec->level, w->level);
	assert_int_equal(rec->flags, w->flags);
	assert_int_equal(rec->text_len, w->text_len);
	assert_memory_equal(rec->text, w->text, w->text_len);
	assert_int_equal(rec->dict_len, w->dict_len);
	if (w->dict_len)
		assert_memory_equal(rec->dict, w->dict, w->dict_len);
}

/* klog_ring_copy() of @w at @c, with a buffer for any record. */
static void check_copy(const struct tring *t, const struct klog_cursor *c,
		       const struct mrec *w)
{
	static char buf[KLOG_COPY_MAX];
	struct klog_record rec;

	assert_true(ring_copy(&t->r, c, &rec, buf, sizeof(buf)));
	assert_int_equal(rec.seq, w->seq);
	assert_ptr_equal(rec.text, buf);
	assert_int_equal(rec.ts_nsec, w->ts);
	assert_int_equal(rec.caller_id, w->caller);
	assert_int_equal(rec.facility, w->facility);
	assert_int_equal(rec.level, w->level);
	assert_int_equal(rec.flags, w->flags);
	assert_int_equal(rec.text_len, w->text_len);
	assert_memory_equal(rec.text, w->text, w->text_len);
	assert_ptr_equal(rec.dict, buf + w->text_len);
	assert_int_equal(rec.dict_len, w->dict_len);
	if (w->dict_len)
		assert_memory_equal(rec.dict, w->dict, w->dict_len);
}

static void check_all(const struct tring *t, struct model *m)
{
	struct klog_record rec;
	struct klog_cursor c;
	u32 i;

	assert_int_equal(t->r.first_seq, m->first_seq);
	assert_int_equal(t->r.next_seq, m->next_seq);
	assert_int_equal(klog_ring_count(&t->r), m->count);
	ring_cursor_first(&t->r, &c);
	for (i = 0; i < m->count; i++) {
		check_copy(t, &c, mq(m, i));
		assert_true(ring_read(&t->r, &c, &rec, NULL));
		check_rec(t, mq(m, i), &rec);
	}
	assert_false(ring_read(&t->r, &c, &rec, NULL));
	assert_int_equal(c.idx, t->r.next_idx);
}

static void random_entry(struct klog_entry *e, char *pre, char *text,
			 char *dict, u64 ts)
{
	u32 k = rnd(100), i, len, n;

	memset(e, 0, sizeof(*e));
	e->ts_nsec = ts;
	e->caller_id = rnd(1u << 31);
	e->facility = (u8)rnd(24);
	e->level = (u8)rnd(16);
	e->flags = (u8)(rnd(16) & (KLOG_F_NEWLINE | KLOG_F_PREFIX |
				    KLOG_F_CONT));
	if (k < 50)
		len = rnd(41);
	else if (k < 85)
		len = 41 + rnd(260);
	else
		len = 301 + rnd(900);		/* some beyond the limit */
	for (i = 0; i < len; i++)
		text[i] = (char)rnd(256);
	e->text = text;
	e->text_len = len;
	if (rnd(5) == 0) {
		len = rnd(41);
		for (i = 0; i < len; i++)
			pre[i] = (char)('A' + rnd(26));
		e->pre = pre;
		e->pre_len = len;
	}
	if (rnd(3) == 0) {
		n = 1 + rnd(60);
		len = 0;
		for (i = 0; i < n; i++) {
			u32 v = rnd(40), j;

			len += (u32)sprintf(dict + len, "K%u=", rnd(1000));
			for (j = 0; j < v; j++)
				dict[len++] = (char)('a' + rnd(26));
			if (i + 1 < n || rnd(2))
				dict[len++] = '\0';
		}
		e->dict = dict;
		e->dict_len = len;
	}
}

#define NREADERS 3

static void run_model(u32 size, u32 stores, u64 seed, u32 check_every)
{
	static char pre[64], text[2048], dict[8192];
	struct klog_cursor rd[NREADERS];
	struct klog_record rec;
	struct model m = { 0 };
	struct tring t;
	u64 ts = 1, lost, dropped, total_dropped = 0;
	u32 i, j;

	rng_state = seed;
	tring_init(&t, size);
	assert_int_equal(klog_ring_max_text(&t.r), KLOG_RECORD_MAX);
	m.size = size;
	m.hdr = hdr_size();
	m.cap = size / m.hdr + 2;
	m.q = calloc(m.cap, sizeof(*m.q));
	assert_non_null(m.q);
	for (j = 0; j < NREADERS; j++)
		ring_cursor_first(&t.r, &rd[j]);

	for (i = 0; i < stores; i++) {
		struct klog_entry e;

		random_entry(&e, pre, text, dict, ts);
		ts += 1 + rnd(1000);
		dropped = ring_store(&t.r, &e);
		assert_int_equal(dropped, model_store(&m, &e));
		total_dropped += dropped;
		assert_int_equal(total_dropped, m.first_seq);
		assert_int_equal(t.r.next_seq, m.next_seq);
		assert_int_equal(t.r.first_seq, m.first_seq);
		assert_int_equal(t.r.next_idx, m.tail);
		assert_int_equal(t.r.first_idx,
				 m.count ? mq(&m, 0)->start : m.tail);
		assert_true(m.tail + m.hdr <= size);
		assert_true(ring_last(&t.r, &rec));
		check_rec(&t, mq(&m, m.count - 1), &rec);

		/* Readers move at their own pace and detect what they lost. */
		for (j = 0; j < NREADERS; j++) {
			u32 steps = rnd(j == 0 ? 3 : j == 1 ? 2 : 20) ;

			while (steps--) {
				u64 want_lost = rd[j].seq < m.first_seq ?
					m.first_seq - rd[j].seq : 0;
				u64 want_seq = rd[j].seq + want_lost;
				const struct mrec *w = model_find(&m, want_seq);

				if (!ring_read(&t.r, &rd[j], &rec, &lost)) {
					assert_null(w);
					assert_int_equal(lost, want_lost);
					assert_int_equal(rd[j].seq, m.next_seq);
					break;
				}
				assert_non_null(w);
				assert_int_equal(lost, want_lost);
				check_rec(&t, w, &rec);
			}
		}
		if (i % check_every == 0 || i + 1 == stores)
			check_all(&t, &m);
	}
	/* The workload did wrap many times and lose records. */
	assert_true(m.first_seq > stores / 2);
	free(m.q);
	tring_free(&t);
}

static void ring_model_random_4k(void **state)
{
	(void)state;
	run_model(4096, 4000, 0x9e3779b97f4a7c15ull, 1);
}

static void ring_model_random_16k(void **state)
{
	(void)state;
	run_model(16384, 6000, 0xd1b54a32d192ed03ull, 3);
}

static void ring_model_random_64k(void **state)
{
	(void)state;
	run_model(65536, 6000, 0x2545f4914f6cdd1dull, 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(ring_init_rejects_bad_arguments),
		T(ring_empty_has_nothing),
		T(ring_store_keeps_every_field),
		T(ring_dict_of_length_zero_is_none),
		T(ring_check_sees_header_pad_set),
		T(ring_record_exactly_fills_tail),
		T(ring_one_byte_more_wraps),
		T(ring_wrap_marker_after_exact_fill),
		T(ring_smallest_ring_with_max_records),
		T(ring_record_larger_than_ring_is_truncated),
		T(ring_exact_max_text_is_not_truncated),
		T(ring_prefix_and_text_truncated_together),
		T(ring_dict_truncated_at_pair_boundary),
		T(ring_dict_capped_at_dict_max),
		T(ring_copy_is_the_record_in_the_buffer),
		T(ring_copy_bounded_by_the_buffer),
		T(ring_copy_needs_a_record),
		T(ring_overtaken_cursor_reports_exact_loss),
		T(ring_cursor_fix_leaves_valid_cursor),
		T(ring_lost_everything_then_reads_newest),
		T(ring_cursor_at_end_sees_only_new_records),
		T(ring_cursor_at_end_across_many_wraps),
		T(ring_last_is_newest),
		T(ring_store_returns_dropped_count),
		T(ring_cut_record_wraps_an_emptied_ring),
		T(ring_empty_text_is_a_header),
		T(ring_check_fails_the_broken_invariant),
		T(ring_check_wrapped_ring),
		T(ring_check_cursor_fails_a_bad_cursor),
		T(ring_model_random_4k),
		T(ring_model_random_16k),
		T(ring_model_random_64k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
