/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ring_layout.h - how a record sits in the ring: for ring.c, which
 * writes and reads records, the invariant checks that test them and
 * klog_ring_read() (both built in user space only, in userspace/).
 * Private to those; see "DOC: record ring" in ring.c for the layout and
 * the invariants R1-R8.
 *
 * The helpers are inline so that the read path and the store of a
 * record that is text alone make no call but memcpy(): the user-space
 * library is built -fPIC, where GCC does not inline one exported function
 * into another, and klog_ring_read() is in another file than the ring's
 * own calls.
 */
#ifndef KLOG_RING_LAYOUT_H
#define KLOG_RING_LAYOUT_H

#include "klog/ring.h"

/*
 * The header in the ring: three 8-byte words with no padding between
 * fields, so that fill_hdr() (ring.c) can write each word whole: on a
 * 64-bit machine at most three stores, which the compiler may pair into
 * fewer.  size.len 0 marks the wrap.
 */
struct klog_hdr_size {
	u32 len;		/* bytes: header, text, dict, padding */
	u16 text_len;
	u16 dict_len;
};

struct klog_hdr_from {
	u32 caller_id;
	u8 facility;
	u8 level;
	u8 flags;
	u8 pad;			/* always 0 */
};

struct klog_hdr {
	u64 ts_nsec;
	struct klog_hdr_size size;
	struct klog_hdr_from from;
};

static_assert(sizeof(struct klog_hdr_size) == 8 &&
	      sizeof(struct klog_hdr_from) == 8 &&
	      sizeof(struct klog_hdr) == 24 &&
	      offsetof(struct klog_hdr, size) == 8 &&
	      offsetof(struct klog_hdr, from) == 16,
	      "a header is three 8-byte words");

/* Bytes of one header: a record's, or a wrap marker's. */
#define KLOG_HDR_SIZE ((u32)sizeof(struct klog_hdr))
/* Every record, hence every offset in the ring, is a multiple of this. */
#define KLOG_ALIGN 8u

static inline struct klog_hdr *hdr_at(const struct klog_ring *r, u32 idx)
{
	return (struct klog_hdr *)(r->buf + idx);
}

/* Offset of the record that @idx designates (follows a wrap marker). */
static inline u32 resolve(const struct klog_ring *r, u32 idx)
{
	return hdr_at(r, idx)->size.len ? idx : 0;
}

/* R6: the largest whole record (header included) a ring accepts. */
static inline u32 max_record(const struct klog_ring *r)
{
	return r->size / 2 - KLOG_HDR_SIZE;
}

/* klog_ring_cursor_fix(). */
static inline u64 ring_cursor_fix(const struct klog_ring *r,
				  struct klog_cursor *c)
{
	u64 lost;

	if (c->seq >= r->first_seq)
		return 0;
	/* R8: overtaken; its idx means nothing, first_idx does. */
	lost = r->first_seq - c->seq;
	c->seq = r->first_seq;
	c->idx = r->first_idx;
	return lost;
}

/*
 * Fill @rec from the record at @idx (resolved, not a marker), number
 * @seq, as klog_ring_peek() does.  Return its len: the next record (or
 * the marker before it) is @len bytes on.
 */
static inline u32 ring_fill(const struct klog_ring *r, u32 idx, u64 seq,
			    struct klog_record *rec)
{
	const struct klog_hdr *h = hdr_at(r, idx);
	u32 len = h->size.len;

	rec->seq = seq;
	rec->ts_nsec = h->ts_nsec;
	rec->caller_id = h->from.caller_id;
	rec->facility = h->from.facility;
	rec->level = h->from.level;
	rec->flags = h->from.flags;
	rec->text = (const char *)(h + 1);
	rec->text_len = h->size.text_len;
	rec->dict = rec->text + h->size.text_len;
	rec->dict_len = h->size.dict_len;
	return len;
}

#endif /* KLOG_RING_LAYOUT_H */
