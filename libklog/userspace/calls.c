// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * calls.c - the library's calls that only user-space callers make.
 *
 * DOC: user-space calls
 *
 * The kernel glue has paths of its own for what these do: it embeds and
 * allocates its namespaces itself (klog_ns_init()), formats its messages
 * in printk() and stores them with klog_ns_store(), reads through
 * klog_syslog() and klog_kmsg_read() (klog_ring_peek() and
 * klog_ring_copy() underneath), and opens /proc/kmsg through
 * do_syslog().  So the kernel build leaves this file out (it is not in
 * libklog/Kbuild's list; libklog/meson.build adds it), and a user-space
 * embedder (klogsim, the tests, the benchmarks) gets a whole API:
 *
 * - klog_ns_create(): allocate and initialise a namespace;
 * - klog_ns_printk() and klog_ns_vprintk(): format and store, as printk();
 * - klog_ns_flush() and klog_ns_read(): commit the pending line, read
 *   records one at a time;
 * - klog_proc_kmsg_open() and klog_proc_kmsg_release(): /proc/kmsg's
 *   open and close, the syslog(2) actions 1 and 0;
 * - klog_ring_read() and klog_ring_last(): a ring's next record for a
 *   cursor, and its newest.
 *
 * Each keeps the locking rules of the layer it belongs to (ring.c, ns.c,
 * printk.c): it calls that layer's functions, never touches its locks in
 * another way.  klog_ring_read(), the readers' inner loop, does what
 * klog_ring_cursor_fix(), klog_ring_peek() and klog_ring_advance() do
 * with the ring's own inline helpers (ring_layout.h), reading the
 * record's header once.
 */
#include "internal.h"
#include "klog/kmsg.h"
#include "klog/ns.h"
#include "klog/printk.h"
#include "klog/ring.h"
#include "ring_layout.h"

/**
 * klog_ns_create() - allocate and initialise a namespace.
 * @parent: the parent, or NULL for a root.
 * @p:      parameters, see klog_ns_init().
 * @out:    the new namespace, holding one reference.
 *
 * Context: process context (allocates, may sleep).
 * Return: 0 or a negative errno as klog_ns_init(); on error *@out is
 * unchanged and nothing stays allocated.
 */
int klog_ns_create(struct klog_ns *parent, const struct klog_ns_params *p,
		   struct klog_ns **out)
{
	struct klog_ns *ns;
	int ret;

	kl_might_sleep();
	ns = kl_alloc(sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ret = klog_ns_init(ns, parent, p);
	if (ret) {
		kl_free(ns);
		return ret;
	}
	*out = ns;
	return 0;
}

/**
 * klog_ns_vprintk() - format and store a kernel-originated message.
 * @ns:   the namespace (a reference held by the caller).
 * @fmt:  printf format, optionally starting with KERN_SOH prefixes.
 * @args: its arguments.
 *
 * The text is formatted with no lock held, into the calling context's
 * scratch buffer: at most KLOG_RECORD_MAX - 1 bytes, prefixes included,
 * as 6.12's printk.
 *
 * Context: any that may take a spinlock (not NMI); no klog lock held.
 * Return: text bytes stored (prefixes and newline stripped), -EINVAL for
 * a NULL format or a formatting error, or -EBUSY if the calling context
 * is already inside the store path (a recursive call from @fmt's
 * arguments): the message is dropped.
 */
int klog_ns_vprintk(struct klog_ns *ns, const char *fmt, va_list args)
{
	struct klog_msg m;
	u32 skip, len;
	char *buf;
	int n;

	if (!ns || !fmt)
		return -EINVAL;
	buf = kl_scratch_get();
	if (!buf)
		return -EBUSY;
	/* L7: formatted with no lock held. */
	n = kl_vsnprintf(buf, KLOG_RECORD_MAX, fmt, args);
	if (n < 0) {
		kl_scratch_put(buf);
		return -EINVAL;
	}
	kl_memset(&m, 0, sizeof(m));
	m.level = -1;
	m.caller_id = kl_caller_id();
	len = (u32)n < KLOG_RECORD_MAX - 1 ? (u32)n : KLOG_RECORD_MAX - 1;
	if ((u32)n > len)
		m.flags |= KLOG_F_TRUNC;
	skip = klog_parse_prefix(buf, len, &m.level, &m.flags);
	m.text = buf + skip;
	m.text_len = len - skip;
	klog_ns_store_msg(ns, &m, buf);
	return m.text_len;
}

/**
 * klog_ns_printk() - format and store a kernel-originated message.
 * @ns:  the namespace.
 * @fmt: printf format, optionally starting with KERN_SOH prefixes.
 *
 * Context: as klog_ns_vprintk().
 * Return: as klog_ns_vprintk().
 */
int klog_ns_printk(struct klog_ns *ns, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = klog_ns_vprintk(ns, fmt, args);
	va_end(args);
	return ret;
}

/**
 * klog_ns_flush() - commit the pending continuation line and wake readers.
 * @ns: the namespace.
 *
 * Context: any that may take a spinlock (not NMI); no klog lock held.
 */
void klog_ns_flush(struct klog_ns *ns)
{
	kl_irqflags_t flags;
	bool pending, kick;

	kl_lock_irqsave(&ns->lock, flags);
	pending = ns->cont.pending;
	kick = klog_ns_flush_locked(ns);
	kl_unlock_irqrestore(&ns->lock, flags);
	if (pending)
		klog_ns_wake(ns);
	if (kick)
		klog_ns_copy_up(ns);
}

/**
 * klog_ns_read() - copy the next record out and advance a cursor.
 * @ns:  the namespace.
 * @c:   the reader's cursor (start it with klog_ring_cursor_first()).
 * @out: the record; out->lost counts records the cursor lost before it.
 *
 * The pending continuation line is committed first.
 *
 * Context: any that may take a spinlock (not NMI); no klog lock held.
 * Return: 1 if a record was copied, 0 if the cursor is at the end,
 * -EINVAL for a namespace without a ring.
 */
int klog_ns_read(struct klog_ns *ns, struct klog_cursor *c,
		 struct klog_msgbuf *out)
{
	kl_irqflags_t flags;
	struct klog_record rec;
	bool pending, kick;
	int ret = 0;

	if (!ns->ring.buf)
		return -EINVAL;
	kl_lock_irqsave(&ns->lock, flags);
	pending = ns->cont.pending && ns->cfg->read_commits;
	kick = klog_ns_reader_commit_locked(ns);
	if (klog_ring_read(&ns->ring, c, &rec, &out->lost)) {
		out->rec = rec;
		kl_memcpy(out->text, rec.text, rec.text_len);
		kl_memcpy(out->dict, rec.dict, rec.dict_len);
		out->rec.text = out->text;
		out->rec.dict = out->dict;
		ret = 1;
	}
	kl_unlock_irqrestore(&ns->lock, flags);
	if (pending)
		klog_ns_wake(ns);
	if (kick)
		klog_ns_copy_up(ns);
	return ret;
}

/**
 * klog_proc_kmsg_open() - open /proc/kmsg: SYSLOG_ACTION_OPEN's check.
 * @ctx: the opener, with source KLOG_FROM_PROC.
 *
 * Context: process context (the permission check).
 * Return: 0 or -EPERM.
 */
int klog_proc_kmsg_open(struct klog_syslog_ctx *ctx)
{
	kl_might_sleep();
	return klog_syslog(ctx, KLOG_SYSLOG_ACTION_OPEN, NULL, 0);
}

/**
 * klog_proc_kmsg_release() - SYSLOG_ACTION_CLOSE.
 * @ctx: the opener.
 *
 * Context: process context (the permission check).
 */
void klog_proc_kmsg_release(struct klog_syslog_ctx *ctx)
{
	kl_might_sleep();
	klog_syslog(ctx, KLOG_SYSLOG_ACTION_CLOSE, NULL, 0);
}

/**
 * klog_ring_last() - look at the newest record.
 * @ring: the ring.
 * @rec:  filled in; its pointers are valid while the lock is held.
 *
 * Context: owner's lock held.
 * Return: false if the ring is empty.
 */
bool klog_ring_last(const struct klog_ring *ring, struct klog_record *rec)
{
	struct klog_cursor c = {
		.seq = ring->next_seq - 1,
		.idx = ring->last_idx,		/* R7, R8 */
	};

	if (ring->next_seq == ring->first_seq)
		return false;
	return klog_ring_peek(ring, &c, rec);
}

/**
 * klog_ring_read() - read the next record and advance.
 * @ring: the ring.
 * @c:    the cursor.
 * @rec:  filled in when a record is returned.
 * @lost: if not NULL, set to the records lost before this one.
 *
 * Context: owner's lock held.
 * Return: true if a record was read.
 */
bool klog_ring_read(const struct klog_ring *ring, struct klog_cursor *c,
		    struct klog_record *rec, u64 *lost)
{
	u64 l = ring_cursor_fix(ring, c);
	u32 idx;

	if (lost)
		*lost = l;
	/*
	 * klog_ring_peek() then klog_ring_advance(), inline, with one read
	 * of the header.  R8: the cursor is at first_seq or later now.
	 */
	if (c->seq >= ring->next_seq)
		return false;
	idx = resolve(ring, c->idx);
	c->idx = idx + ring_fill(ring, idx, c->seq, rec);
	c->seq++;
	return true;
}
