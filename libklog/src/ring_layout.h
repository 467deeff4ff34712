/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ring_layout.h - how a record sits in the ring: for ring.c, which
 * writes and reads records, and the invariant checks that test them
 * (built in user space only).  Private to those two; see "DOC: record
 * ring" in ring.c for the layout and the invariants R1-R8.
 */
#ifndef KLOG_RING_LAYOUT_H
#define KLOG_RING_LAYOUT_H

#include "klog/ring.h"

/* The header in the ring.  len 0 marks the wrap. */
struct klog_hdr {
	u64 ts_nsec;
	u32 len;
	u16 text_len;
	u16 dict_len;
	u32 caller_id;
	u8 facility;
	u8 level;
	u8 flags;
	u8 pad;
};

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
	return hdr_at(r, idx)->len ? idx : 0;
}

/* R6: the largest whole record (header included) a ring accepts. */
static inline u32 max_record(const struct klog_ring *r)
{
	return r->size / 2 - KLOG_HDR_SIZE;
}

#endif /* KLOG_RING_LAYOUT_H */
