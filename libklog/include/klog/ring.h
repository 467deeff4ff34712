/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/ring.h - the record ring and its cursors.
 *
 * A ring is not locked by itself: its owner (struct klog_ns) serialises
 * every call with the namespace lock.
 */
#ifndef KLOG_RING_H
#define KLOG_RING_H

#include <klog/types.h>

/* Text bytes in one record, as upstream's PRINTKRB_RECORD_MAX. */
#define KLOG_RECORD_MAX 1024
/* Dictionary bytes in one record. */
#define KLOG_DICT_MAX 1024
/*
 * Text and dictionary bytes of one record at most: a klog_ring_copy()
 * buffer this large holds any record whole.
 */
#define KLOG_COPY_MAX (KLOG_RECORD_MAX + KLOG_DICT_MAX)
/* Smallest ring, in bytes. */
#define KLOG_RING_MIN 4096
/* Largest ring the library accepts at all, in bytes (1 GiB). */
#define KLOG_RING_LIMIT (1024u * 1024 * 1024)

/* Record flags (the low four have upstream's LOG_* values). */
#define KLOG_F_NEWLINE 0x02	/* text ended with a newline */
#define KLOG_F_PREFIX 0x04	/* text had a level prefix */
#define KLOG_F_CONT 0x08	/* text started as a continuation */
#define KLOG_F_TRUNC 0x10	/* text or dictionary was truncated */
/* The flags that describe the text (a reader's view of a record). */
#define KLOG_F_TEXT_MASK (KLOG_F_NEWLINE | KLOG_F_PREFIX | KLOG_F_CONT | \
			  KLOG_F_TRUNC)
/* Its origin, which decides where copies go (see klog/ns.h KLOG_MSG_*). */
#define KLOG_F_USER 0x20	/* text chosen or influenced by user space */
#define KLOG_F_LOCAL 0x40	/* never copied to a parent */

/**
 * struct klog_cursor - a position in a ring.
 * @seq: sequence number of the next record to read.
 * @idx: byte offset of that record (or of the wrap marker before it).
 *
 * A cursor whose @seq is below the ring's first_seq has lost records;
 * klog_ring_cursor_fix() moves it and reports how many.  When a cursor is
 * valid: invariant R8 (ring.c), which klog_ring_check_cursor() tests.
 */
struct klog_cursor {
	__u64 seq;
	__u32 idx;
};

/**
 * struct klog_record - a record as seen by a reader.
 * @seq:       its sequence number.
 * @ts_nsec:   when it was stored (kl_clock_ns()).
 * @caller_id: who stored it (kl_caller_id()).
 * @facility:  syslog facility (0-255; 0 is the kernel).
 * @level:     syslog level (0-7).
 * @flags:     KLOG_F_*.
 * @text:      the text, not NUL-terminated.
 * @text_len:  its length.
 * @dict:      the dictionary, @dict_len bytes (none if 0).
 * @dict_len:  its length.
 *
 * From klog_ring_peek(), klog_ring_read() and klog_ring_last(), @text
 * and @dict point into the ring and stay valid only while the owner's
 * lock is held; from klog_ring_copy(), into the caller's buffer, where
 * they stay valid once the lock is dropped.  @dict holds KEY=value pairs
 * separated by NUL.
 */
struct klog_record {
	__u64 seq;
	__u64 ts_nsec;
	__u32 caller_id;
	__u8 facility;
	__u8 level;
	__u8 flags;
	const char *text;
	__u32 text_len;
	const char *dict;
	__u32 dict_len;
};

/**
 * struct klog_entry - a record to store.
 * @ts_nsec:   timestamp.
 * @caller_id: who stores it.
 * @facility:  syslog facility.
 * @level:     syslog level.
 * @flags:     KLOG_F_*.
 * @pre:       text stored before @text, or NULL.
 * @pre_len:   its length.
 * @text:      the text.
 * @text_len:  its length.
 * @dict:      the dictionary; read only if @dict_len is not 0, and not
 *             NULL then (a NULL one is stored as none).
 * @dict_len:  its length; 0 means no dictionary.
 *
 * The stored text is @pre followed by @text (the pair lets a propagated
 * copy be stored with its "[tag] " prefix without an intermediate buffer).
 */
struct klog_entry {
	__u64 ts_nsec;
	__u32 caller_id;
	__u8 facility;
	__u8 level;
	__u8 flags;
	const char *pre;
	__u32 pre_len;
	const char *text;
	__u32 text_len;
	const char *dict;
	__u32 dict_len;
};

/**
 * struct klog_ring - variable-length records in one power-of-two buffer.
 * @buf:       the storage, @size bytes, owned by the caller of init.
 * @size:      power of two, at least KLOG_RING_MIN.
 * @first_seq: sequence number of the oldest record.
 * @first_idx: its offset.
 * @next_seq:  sequence number the next stored record gets.
 * @next_idx:  offset where it goes (if it fits before the end).
 * @last_idx:  offset of the newest record.
 *
 * Invariants R1 to R8 (ring.c, "DOC: record ring") hold whenever the
 * owner's lock is free; klog_ring_check() tests them.
 *
 * Locking: none of its own; see the owner.
 */
struct klog_ring {
	char *buf;
	__u32 size;
	__u64 first_seq;
	__u32 first_idx;
	__u64 next_seq;
	__u32 next_idx;
	__u32 last_idx;
};

/*
 * The ring's invariants, R1 to R8 (ring.c, "DOC: record ring"):
 * klog_ring_check() and klog_ring_check_cursor() return -KLOG_RING_Rn
 * for the first one that is broken.
 */
enum klog_ring_invariant {
	KLOG_RING_R1 = 1,	/* geometry: buffer, size and offsets */
	KLOG_RING_R2,		/* sequence: first_seq <= next_seq */
	KLOG_RING_R3,		/* empty iff first_seq == next_seq */
	KLOG_RING_R4,		/* a wrap marker always fits */
	KLOG_RING_R5,		/* first_idx may name a marker */
	KLOG_RING_R6,		/* a record is sound */
	KLOG_RING_R7,		/* last_idx is the newest record */
	KLOG_RING_R8,		/* a cursor is valid */
};

int klog_ring_init(struct klog_ring *ring, void *buf, __u32 size);
__u64 klog_ring_store(struct klog_ring *ring, const struct klog_entry *e);
__u32 klog_ring_max_text(const struct klog_ring *ring);
__u64 klog_ring_cursor_fix(const struct klog_ring *ring, struct klog_cursor *c);
bool klog_ring_peek(const struct klog_ring *ring, const struct klog_cursor *c,
		    struct klog_record *rec);
bool klog_ring_copy(const struct klog_ring *ring, const struct klog_cursor *c,
		    struct klog_record *rec, char *buf, __u32 size);
void klog_ring_advance(const struct klog_ring *ring, struct klog_cursor *c);
void klog_ring_cursor_first(const struct klog_ring *ring,
			    struct klog_cursor *c);
void klog_ring_cursor_end(const struct klog_ring *ring, struct klog_cursor *c);

/* Built in user space only: the kernel has no caller for these. */
bool klog_ring_read(const struct klog_ring *ring, struct klog_cursor *c,
		    struct klog_record *rec, __u64 *lost);
bool klog_ring_last(const struct klog_ring *ring, struct klog_record *rec);
int klog_ring_check(const struct klog_ring *ring);
int klog_ring_check_cursor(const struct klog_ring *ring,
			   const struct klog_cursor *c);

/**
 * klog_ring_count() - number of records currently held.
 * @ring: the ring.
 *
 * Context: owner's lock held.
 * Return: next_seq - first_seq.
 */
static inline __u64 klog_ring_count(const struct klog_ring *ring)
{
	return ring->next_seq - ring->first_seq;
}

#endif /* KLOG_RING_H */
