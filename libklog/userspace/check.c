// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * check.c - the invariant checks of a ring and of a namespace.
 *
 * DOC: invariant checks
 *
 * klog_ring_check() and klog_ring_check_cursor() test R1-R8 of "DOC:
 * record ring" (ring.c) on a ring and a cursor in constant time, reading
 * nothing outside the buffer even when the ring is broken;
 * klog_ns_check_locked() runs them on a namespace's own cursors.  The
 * unit tests, the fuzzers and the stress tests call them after every
 * locked section (klog_testing_set_unlock_check()).  The ring's functions
 * never need them, so the kernel build leaves this file out (it is not in
 * libklog/Kbuild's list; libklog/meson.build adds it).
 *
 * Locking: as the ring's functions, under the owner's lock.
 */
#include "internal.h"
#include "klog/ns.h"
#include "klog/ring.h"
#include "ring_layout.h"

/* R1: an offset is aligned and leaves a header's room before the end. */
static bool hdr_fits(const struct klog_ring *r, u32 idx)
{
	return !(idx & (KLOG_ALIGN - 1)) && idx <= r->size - KLOG_HDR_SIZE;
}

/* R6: the header at @idx (which hdr_fits()) is a sound record. */
static bool record_ok(const struct klog_ring *r, u32 idx)
{
	const struct klog_hdr_size *sz = &hdr_at(r, idx)->size;
	const struct klog_hdr_from *from = &hdr_at(r, idx)->from;

	return sz->len && !(sz->len & (KLOG_ALIGN - 1)) &&
	       sz->len <= max_record(r) &&
	       sz->len >= KLOG_HDR_SIZE + sz->text_len + sz->dict_len &&
	       sz->text_len <= KLOG_RECORD_MAX &&
	       sz->dict_len <= KLOG_DICT_MAX && from->level <= 7 &&
	       !from->pad && idx + sz->len + KLOG_HDR_SIZE <= r->size;
}

/**
 * klog_ring_check() - test the ring's invariants.
 * @ring: the ring.
 *
 * Checks R1 to R7 (see "DOC: record ring") on the positions, the oldest
 * and the newest record, in constant time, reading nothing outside the
 * buffer even when the ring is broken.  For tests and debugging: the
 * ring's functions never need it.
 *
 * Context: owner's lock held.
 * Return: 0, or -KLOG_RING_Rn for the first invariant Rn that is broken.
 */
int klog_ring_check(const struct klog_ring *ring)
{
	bool empty = ring->first_seq == ring->next_seq;
	bool one_place = ring->first_idx == ring->next_idx;
	u32 size = ring->size, first, last;
	const struct klog_hdr *h;

	if (!ring->buf || ((unsigned long)ring->buf & (KLOG_ALIGN - 1)) ||
	    size < KLOG_RING_MIN || size > KLOG_RING_LIMIT ||
	    (size & (size - 1)) ||
	    ((ring->first_idx | ring->next_idx | ring->last_idx) &
	     (KLOG_ALIGN - 1)) ||
	    ring->first_idx >= size || ring->next_idx >= size ||
	    ring->last_idx >= size)
		return -KLOG_RING_R1;
	if (ring->first_seq > ring->next_seq ||
	    ring->next_seq - ring->first_seq > size / KLOG_HDR_SIZE)
		return -KLOG_RING_R2;
	if (empty != one_place)
		return -KLOG_RING_R3;
	if (ring->next_idx + KLOG_HDR_SIZE > size ||
	    (ring->first_idx > ring->next_idx &&
	     ring->next_idx + KLOG_HDR_SIZE > ring->first_idx))
		return -KLOG_RING_R4;
	if (empty)
		return 0;
	if (!hdr_fits(ring, ring->first_idx))
		return -KLOG_RING_R5;
	first = resolve(ring, ring->first_idx);
	if (first != ring->first_idx && ring->first_idx < ring->next_idx)
		return -KLOG_RING_R5;
	if (!record_ok(ring, first))
		return -KLOG_RING_R6;
	last = ring->last_idx;
	if (!hdr_fits(ring, last) || !hdr_at(ring, last)->size.len)
		return -KLOG_RING_R7;
	if (!record_ok(ring, last))
		return -KLOG_RING_R6;
	h = hdr_at(ring, last);
	if (last + h->size.len != ring->next_idx)
		return -KLOG_RING_R7;
	return 0;
}

/**
 * klog_ring_check_cursor() - test a cursor of a ring.
 * @ring: the ring.
 * @c:    the cursor.
 *
 * Checks the ring (klog_ring_check()), then R8 on @c: an overtaken cursor
 * is valid; one from first_seq on must name a sound record, the right
 * one at either end of the ring, or be exactly at next_idx at next_seq.
 *
 * Context: owner's lock held.
 * Return: 0, or -KLOG_RING_Rn for the first invariant Rn that is broken.
 */
int klog_ring_check_cursor(const struct klog_ring *ring,
			   const struct klog_cursor *c)
{
	int ret = klog_ring_check(ring);
	u32 idx;

	if (ret)
		return ret;
	if (c->seq > ring->next_seq)
		return -KLOG_RING_R8;
	if (c->seq < ring->first_seq)
		return 0;
	if (c->seq == ring->next_seq)
		return c->idx == ring->next_idx ? 0 : -KLOG_RING_R8;
	if (!hdr_fits(ring, c->idx))
		return -KLOG_RING_R8;
	idx = resolve(ring, c->idx);
	if (!record_ok(ring, idx) ||
	    (c->seq == ring->first_seq &&
	     idx != resolve(ring, ring->first_idx)) ||
	    (c->seq == ring->next_seq - 1 && idx != ring->last_idx))
		return -KLOG_RING_R8;
	return 0;
}

/**
 * klog_ns_check_locked() - test the invariants of a namespace's ring.
 * @ns: the namespace, locked.
 *
 * klog_ring_check() on the ring, then klog_ring_check_cursor() on the
 * namespace's own cursors: the syslog cursor, the clear point and the
 * forwarder's @up_cur.  (An open /dev/kmsg file's cursor is its
 * owner's to check.)  A namespace without a ring (a root with a store
 * hook) has nothing to check.  For tests and debugging: user-space tests
 * run it at the end of every locked section
 * (klog_testing_set_unlock_check()).
 *
 * Context: ns->lock held.
 * Return: 0, or -KLOG_RING_Rn for the first invariant Rn that is broken.
 */
int klog_ns_check_locked(const struct klog_ns *ns)
{
	int ret;

	if (!ns->ring.buf)
		return 0;
	ret = klog_ring_check_cursor(&ns->ring, &ns->syslog_cur);
	if (!ret)
		ret = klog_ring_check_cursor(&ns->ring, &ns->clear_cur);
	if (!ret)
		ret = klog_ring_check_cursor(&ns->ring, &ns->up_cur);
	return ret;
}
