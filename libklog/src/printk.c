// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * printk.c - the store path: prefixes, the continuation buffer,
 * propagation to the parent, and reading records out.
 *
 * DOC: printk store path
 *
 * klog_ns_store() is the entry for text that is already in memory
 * (/dev/kmsg writes, netfilter lines, tests).  User-space builds add
 * klog_ns_vprintk(), which formats with no lock held into the calling
 * context's scratch buffer (kl_scratch_get(): no allocation, no large
 * stack buffer, and a recursion guard), parses the KERN_SOH level
 * prefixes as 6.12's printk_parse_prefix() does, and hands the text to
 * the same store; the kernel formats its own messages in printk().
 *
 * The common store keeps at most one pending line per namespace:
 *
 * - a fragment without a trailing newline starts or extends it;
 * - the pending line is committed to the ring on a newline, when the next
 *   fragment is not a continuation (a new prefix), comes from another
 *   caller, or does not fit, when it is more than 80% full, and, when
 *   the tree's read_commits is on, before any read
 *   (klog_ns_flush_locked()), so a reader never waits for a line that
 *   may never be finished.
 *
 * Committing a record stores it in the ring and then, if the policy
 * allows (none by default; kernel-originated records; all) and the
 * parent's copy budget has room, a copy labelled "[ns:<id>:<tag>] " with
 * a SUBSYSTEM=syslog_ns / DEVICE=+syslog_ns:<id> dictionary in the
 * parent, and so on up the tree.  Text that user space chose or
 * influenced (KLOG_MSG_USER) is copied only under KLOG_PROPAGATE_ALL;
 * KLOG_MSG_LOCAL text never.
 *
 * The copy budget is the parent's: all of its children share prop_burst
 * copies per prop_interval_ms window (a coarse clock that never runs
 * backwards), each child at most a fair share of it, so N children can
 * never push more than one budget per window into a parent.  A child
 * counts what it was refused and, with its next copy in a window that
 * has room for both, sends one "N messages suppressed" note first (it
 * costs the parent's budget, not the child's share).  A refused child
 * knows until when (the window's end, or a change of the parent's burst
 * or interval) and passes over its records until then under its own
 * lock alone: it queues no forwarder and takes no parent lock, and
 * counts them at once (@up_passed) and for the next note (@up_skipped).
 * It sees a larger share (a sibling that ended) only from the next
 * window.
 *
 * Each namespace forwards its own records to its parent, in ring order,
 * through a forwarder of its own (klog_ns_forward_work(), deferred with
 * kl_defer_queue(): a work item in the kernel).  The store only moves
 * the namespace's "offered up to" cursor (@up_cur) past records the
 * parent would not take, so with copies off the forwarder never runs.
 * No two klog locks are ever held together: the forwarder copies one
 * record into a scratch buffer under the child's lock, drops it, then
 * takes the parent's lock alone to charge the budget and store the copy,
 * which the parent's own forwarder takes further up.  Each lock is held
 * for one record; a forwarder run handles at most KLOG_FORWARD_BATCH
 * records and then queues itself again, so however deep the tree or busy
 * the namespace, one run does bounded work (in the kernel it runs in a
 * work item, preemptible between records).  The records of one child
 * reach its parent in the child's order.  A record overwritten before its
 * forwarder reached it counts as suppressed.
 *
 * A copy is one line in its parent: in a copy of text that user space
 * chose or influenced, control characters (a newline that would start an
 * unlabelled line, an escape sequence) become '?', and its level is at
 * most as severe as KLOG_USER_COPY_LEVEL, so that a container cannot put
 * emergency-level lines on the host's consoles, and its facility is
 * KLOG_USER_COPY_FACILITY (LOG_USER), so that it cannot file lines under
 * the host's auth or daemon facilities.
 *
 * Locking.  These invariants hold in every core file, and the lines that
 * keep them are tagged with their names.  User space checks L1, L2, L6
 * and L7's readers as it runs: a second klog lock aborts
 * (klog_plat_lock()), the tests check R1-R8 at the end of every locked
 * section, kl_might_sleep() aborts under a lock or in a deferred call,
 * and kl_assert_unlocked(), first in every formatter, aborts under a
 * lock; tools/check-context.py checks L6 in the source.
 *
 * - L1 one lock: no code holds two klog locks at once.  A copy leaves the
 *   child's lock behind: the forwarder copies the record into its
 *   context's scratch buffer, drops the child's lock, then takes the
 *   parent's alone.
 * - L2 the namespace's lock: ns->lock guards the ring, the continuation
 *   buffer, every cursor of the ring (the syslog and clear cursors,
 *   @up_cur, each open /dev/kmsg file's), the counters, the ratelimit
 *   states, the budget the namespace's children share, @up_busy, what
 *   it knows of its parent's refusal (@up_refused_*, @up_skipped,
 *   @up_passed) and @dead.  Every function named *_locked runs under
 *   it, and the ring's invariants (R1-R8, ring.c) hold whenever it is
 *   free.
 * - L3 the parent's lock: a child's use of its parent's budget
 *   (copy_epoch, copy_used, copy_missed) and the counters of its copies
 *   (stats.propagated, stats.suppressed) are written under the parent's
 *   lock, with the budget they account for.
 * - L4 settings without a lock: struct klog_config and a namespace's own
 *   copy policy are read without a lock, each once per decision
 *   (kl_read_once() where the embedder may write at any time); a new
 *   setting applies from the next decision on.  A record the policy
 *   refuses when it is stored, with no backlog in its forwarder, is
 *   never copied; any other record is decided when the forwarder
 *   reaches it (in the kernel, later, from a work item), and sees the
 *   setting of that moment.
 * - L5 set once: @parent, @root, @cfg, @ops, @id, @depth and @owner never
 *   change after init; @tag and the ring's buffer change only under
 *   ns->lock while the namespace has stored nothing and holds no pending
 *   line, so every record and copy label sees one value of each.
 * - L6 no sleeping under a lock: allocations, a reader's wait, copies out
 *   to the caller and the embedder's capability and security hooks run
 *   with no klog lock held; a root's ops->emit runs under the root's lock
 *   for the root's own records and must not sleep.  A function that may
 *   sleep says "Context: process context" and starts with
 *   kl_might_sleep().
 * - L7 short sections: a message's text is formatted, and a copy is
 *   made, with no lock held; a locked section stores one message (with
 *   the pending line it commits), copies one record out for a reader
 *   (klog_ring_copy(): at most KLOG_COPY_MAX bytes), or commits a
 *   reader's cursor, and a walk over a ring counts (never formats) at
 *   most KLOG_WALK_CHUNK records.  Readers format their copy with the
 *   lock dropped: no formatter of format.c runs under a klog lock.  The
 *   only text formatted under one is the store path's own, short and of
 *   a fixed form: a copy's label, dictionary and suppression note (under
 *   the parent's lock) and a child's first record (cfg->announce).
 *   Readers are woken and forwarders queued after the lock is dropped (in
 *   user space a deferred call runs at once, in the same thread).
 * - L8 one forwarder: @up_busy, set and cleared under ns->lock, lets one
 *   forwarder at a time move @up_cur, in ring order, so a child's records
 *   reach its parent in the order it stored them.
 */
#include "internal.h"
#include "klog/printk.h"

#define CONT_SIZE ((u32)sizeof(((struct klog_cont *)0)->buf))

/* The store formats, and the forwarder copies, one record in a scratch. */
static_assert(KL_SCRATCH_SIZE >= KLOG_RECORD_MAX, "scratch too small");
#define CONT_FLUSH_AT (CONT_SIZE * 80 / 100)
/*
 * The byte that starts a level prefix: the kernel's KERN_SOH_ASCII, under
 * a name of the core's own (the core defines nothing in KERN_*).
 */
#define KLOG_SOH ('\001')

/**
 * klog_parse_prefix() - strip KERN_SOH prefixes as 6.12 does.
 * @text:  the text.
 * @len:   its length.
 * @level: in: -1 (default); out: the first level prefix seen, if any.
 * @flags: KLOG_F_CONT is added for "\001c", KLOG_F_PREFIX for a level.
 *
 * Recognised: "\001" followed by '0'..'7' (level), 'c' (KERN_CONT) or
 * 'd' (an explicit default level, accepted for older callers).  Anything
 * else ends the prefix and stays in the text.
 *
 * Context: any.
 * Return: the number of prefix bytes.
 */
u32 klog_parse_prefix(const char *text, u32 len, int *level, u32 *flags)
{
	u32 n = 0;

	while (n + 1 < len && text[n] == KLOG_SOH) {
		char ch = text[n + 1];

		if (ch >= '0' && ch <= '7') {
			if (*level < 0)
				*level = ch - '0';
			*flags |= KLOG_F_PREFIX;
		} else if (ch == 'c') {
			*flags |= KLOG_F_CONT;
		} else if (ch != 'd') {
			break;
		}
		n += 2;
	}
	return n;
}

/**
 * klog_ratelimit_check() - the 6.12 ___ratelimit() rule on a ns clock.
 * @rl:          the state.
 * @now:         current time in ns.
 * @burst:       events allowed per window; 0 refuses everything.
 * @interval_ms: window length; 0 allows everything.
 * @missed:      set to the events refused in the window that just ended
 *               (non-zero once, when a new window opens after refusals).
 *
 * Context: the owner's lock held.
 * Return: true if the event may pass.
 */
bool klog_ratelimit_check(struct klog_ratelimit *rl, u64 now, u32 burst,
			  u32 interval_ms, u32 *missed)
{
	*missed = 0;
	if (!interval_ms)
		return true;
	if (!rl->started) {
		rl->started = true;
		rl->begin_ns = now;
	}
	/* time_is_before_jiffies(begin + interval): strictly after. */
	if (now - rl->begin_ns > (u64)interval_ms * 1000000) {
		*missed = rl->missed;
		rl->missed = 0;
		rl->printed = 0;
		rl->begin_ns = now;
	}
	if (burst && rl->printed < burst) {
		rl->printed++;
		return true;
	}
	rl->missed++;
	return false;
}

static void announce_locked(struct klog_ns *ns, u64 ts_nsec);

/* Store one record in a ring and count it. */
static void ring_store_locked(struct klog_ns *ns, const struct klog_entry *e)
{
	if (!ns->ring.next_seq && ns->parent &&
	    kl_read_once(ns->cfg->announce))
		announce_locked(ns, e->ts_nsec);
	ns->stats.dropped_overwrite += klog_ring_store(&ns->ring, e);
	ns->stats.stored++;
}

/*
 * Emit a record of @ns: store it in @ns's ring, or hand it to the store
 * hook (ops->emit) of a root that has one.
 */
static void emit_locked(struct klog_ns *ns, const struct klog_entry *e)
{
	if (ns->ops && ns->ops->emit) {
		/*
		 * The hook stores elsewhere and counts for itself.  Here it
		 * runs under @ns's lock (a root's own record: L6, it must not
		 * sleep); copies reach it from copy_to_parent() with no klog
		 * lock held.
		 */
		ns->ops->emit(ns, e);
		return;
	}
	ring_store_locked(ns, e);
}

static inline bool has_hook(const struct klog_ns *ns)
{
	return ns->ops && ns->ops->emit;
}

/*
 * May a record of @ns with record flags @flags go to its parent at all?
 * The parent's policy decides (its own, or the tree's); @pol receives it.
 */
static bool may_propagate(const struct klog_ns *ns, u8 flags,
			  struct klog_copy_policy *pol)
{
	if (!ns->parent || (flags & KLOG_F_LOCAL))
		return false;
	klog_ns_get_copy_policy(ns->parent, pol);
	if (pol->propagate == KLOG_PROPAGATE_NONE)
		return false;
	return pol->propagate == KLOG_PROPAGATE_ALL || !(flags & KLOG_F_USER);
}

/* "[label] " of @ns into @pre (KLOG_LABEL_MAX bytes); its length. */
static u32 copy_prefix(const struct klog_ns *ns, char *pre, u32 size)
{
	int n = klog_ns_name(ns, pre + 1, size - 3);

	if (n < 0)
		n = 0;
	if ((u32)n > size - 4)
		n = size - 4;
	pre[0] = '[';
	pre[n + 1] = ']';
	pre[n + 2] = ' ';
	return n + 3;
}

/* @a + @b, at most U32 max: a count of refusals never wraps to a small one. */
static inline u32 add_sat(u32 a, u64 b)
{
	return b >= (u32)~0u - a ? (u32)~0u : a + (u32)b;
}

/*
 * Take a copy of @child's newest record from the budget that @child's
 * parent @p shares among all of its children.  Invariants: at most
 * prop_burst lines (copies and notes) per window enter @p, whatever the
 * number of children; a child's records take at most its fair share
 * (prop_burst / children, at least 1) of a window; a suppression note
 * only ever goes with a record, when the window has room for both, so a
 * note can neither starve the child's records nor its siblings.  A
 * refusal is counted in the child.  A window ends when its interval has
 * passed or the parent's settings change.  @p is locked, and guards
 * @child's copy_* fields and copy counters too (L3).  On a refusal
 * *@until is when the window ends: until then nothing of @child's is
 * taken, unless the parent's settings change first.
 * Return: 0 refused, 1 the record may be stored, 2 a note first, then
 * the record.
 */
static int budget_take_locked(struct klog_ns *p, struct klog_ns *child,
			      const struct klog_copy_policy *pol, u64 *until)
{
	struct klog_budget *b = &p->budget;
	u32 burst = pol->burst;
	u32 ms = pol->interval_ms;
	u64 now = kl_coarse_ns();
	u32 share;

	if (burst > KLOG_PROP_BURST_MAX)
		burst = KLOG_PROP_BURST_MAX;
	if (ms < KLOG_PROP_INTERVAL_MIN_MS)
		ms = KLOG_PROP_INTERVAL_MIN_MS;
	if (ms > KLOG_PROP_INTERVAL_MAX_MS)
		ms = KLOG_PROP_INTERVAL_MAX_MS;
	if (!b->started || now - b->begin_ns >= (u64)ms * 1000000 ||
	    b->burst != burst || b->interval_ms != ms) {
		b->started = true;
		b->begin_ns = now;
		b->burst = burst;
		b->interval_ms = ms;
		b->epoch++;
		b->used = 0;
	}
	if (child->copy_epoch != b->epoch) {
		child->copy_epoch = b->epoch;
		child->copy_used = 0;
	}
	share = b->children ? burst / b->children : burst;
	if (!share)
		share = 1;
	if (b->used >= burst || child->copy_used >= share) {
		child->copy_missed = add_sat(child->copy_missed, 1);
		child->stats.suppressed++;
		*until = b->begin_ns + (u64)ms * 1000000;
		return 0;
	}
	b->used++;
	child->copy_used++;
	if (child->copy_missed && b->used < burst) {
		b->used++;
		return 2;
	}
	return 1;
}

/* The origin of a message (KLOG_MSG_*) as record flags (KLOG_F_*). */
static inline u8 origin_flags(u32 origin)
{
	return (origin & KLOG_MSG_USER ? KLOG_F_USER : 0) |
	       (origin & KLOG_MSG_LOCAL ? KLOG_F_LOCAL : 0);
}

/*
 * Does the parent's budget still refuse @ns, under the parent's policy
 * @pol?  A refusal lasts until the end of the window it came in, or
 * until @ns sees the parent's burst or interval differ from what they
 * were (a new window then opens at the next copy); an ended refusal is
 * forgotten here.  A child refused in a window learns of what else
 * would give it room in that window (a sibling that ends, and so a
 * larger share; a setting changed and changed back before its next
 * record) only when the window ends, at most prop_interval_ms later.
 */
static bool refusal_holds_locked(struct klog_ns *ns,
				 const struct klog_copy_policy *pol)
{
	if (!ns->up_refused_until)
		return false;
	if (kl_coarse_ns() < ns->up_refused_until &&
	    pol->burst == ns->up_refused_burst &&
	    pol->interval_ms == ns->up_refused_ms)
		return true;
	ns->up_refused_until = 0;
	return false;
}

/* Pass over a record of @ns that its parent's budget would refuse. */
static inline void pass_over_locked(struct klog_ns *ns)
{
	ns->up_skipped = add_sat(ns->up_skipped, 1);
	ns->up_passed++;
}

/**
 * klog_ns_suppressed_locked() - copies of @ns's records refused so far.
 * @ns: the namespace, locked.
 *
 * Those its parent's budget refused or that were overwritten before
 * their turn (counted under the parent's lock, read once), and those
 * @ns passed over while refused (under its own): it never decreases.
 *
 * Context: ns->lock held.
 * Return: the count.
 */
u64 klog_ns_suppressed_locked(struct klog_ns *ns)
{
	return kl_read_once(ns->stats.suppressed) + ns->up_passed;
}

/*
 * @ns just stored a record with @flags.  If nothing waits to be offered
 * to the parent and the parent would not take this one, move the
 * parent's cursor past it: with copies off, the forwarder never runs.
 * Nor does it while the parent's budget refuses @ns: the record is
 * passed over and counted, and the forwarder's first run after the
 * refusal ended (for the next record that may be copied) adds it to the
 * count that the next note reports.
 */
static void offered_locked(struct klog_ns *ns, u8 flags)
{
	struct klog_copy_policy pol;

	if (ns->up_cur.seq + 1 != ns->ring.next_seq)
		return;
	if (!may_propagate(ns, flags, &pol)) {
		klog_ring_cursor_end(&ns->ring, &ns->up_cur);
	} else if (refusal_holds_locked(ns, &pol)) {
		klog_ring_cursor_end(&ns->ring, &ns->up_cur);
		pass_over_locked(ns);
	}
}

/*
 * Under cfg->announce a child's log begins as the host's does, with a
 * record that says what it is: stored just before the first record of
 * any kind (its own, or a copy from a child), so it names the tag and
 * ring size the owner settled on, which may change only until then (L5).
 * A kernel record, never copied; a fixed format of two numbers and a
 * name (at most KLOG_LABEL_MAX bytes), short enough for L7.  It takes
 * the timestamp of the record it comes before, so time never runs
 * backwards in the log.
 */
static void announce_locked(struct klog_ns *ns, u64 ts_nsec)
{
	char name[KLOG_LABEL_MAX + 1], text[KLOG_LABEL_MAX + 80];
	struct klog_entry e = {
		.ts_nsec = ts_nsec,
		.level = 6,				/* KERN_INFO */
		.flags = KLOG_F_NEWLINE | KLOG_F_LOCAL,
		.text = text,
	};
	int n;

	if (klog_ns_name(ns, name, sizeof(name)) < 0)
		name[0] = '\0';
	n = kl_snprintf(text, sizeof(text),
			"syslog_ns: log of %s begins (depth %u, ring %u bytes)",
			name, ns->depth, ns->ring.size);
	if (n < 0)
		n = 0;
	e.text_len = (u32)n < sizeof(text) ? (u32)n : sizeof(text) - 1;
	ns->stats.dropped_overwrite += klog_ring_store(&ns->ring, &e);
	ns->stats.stored++;
	offered_locked(ns, e.flags);
}

/* Do records wait in @ns for its forwarder? */
static inline bool backlog_locked(const struct klog_ns *ns)
{
	return ns->parent && ns->up_cur.seq != ns->ring.next_seq;
}

/* Store a record in @ns, with its origin; the forwarder copies it up. */
static void commit_locked(struct klog_ns *ns, struct klog_entry *e,
			  u32 origin)
{
	e->flags = (e->flags & KLOG_F_TEXT_MASK) | origin_flags(origin);
	emit_locked(ns, e);
	if (!has_hook(ns))
		offered_locked(ns, e->flags);
}

/* Commit the pending line, if any. */
static void cont_flush_locked(struct klog_ns *ns)
{
	struct klog_cont *c = &ns->cont;
	struct klog_entry e = {
		.ts_nsec = c->ts_nsec,
		.caller_id = c->caller_id,
		.facility = c->facility,
		.level = c->level,
		.flags = c->flags,
		.text = c->buf,
		.text_len = c->len,
	};

	if (!c->pending)
		return;
	c->pending = false;
	c->len = 0;
	commit_locked(ns, &e, (c->user ? KLOG_MSG_USER : 0) |
			      (c->local ? KLOG_MSG_LOCAL : 0));
}

/*
 * A pending line more than 80% full is committed at once, so that a
 * reader never waits for it; 6.12 (read_commits off) has no such rule.
 */
static inline bool cont_full(const struct klog_ns *ns)
{
	return ns->cfg->read_commits && ns->cont.len > CONT_FLUSH_AT;
}

/*
 * The common store.  @m->level is resolved and @m->text has no trailing
 * newline (NEWLINE says there was one).  At most two records are
 * committed: the pending line, then the new text or the merged line.
 */
static void store_locked(struct klog_ns *ns, const struct klog_msg *m)
{
	struct klog_cont *c = &ns->cont;
	u32 origin = m->flags & (KLOG_MSG_USER | KLOG_MSG_LOCAL);
	bool user = origin & KLOG_MSG_USER;
	bool local = origin & KLOG_MSG_LOCAL;
	u32 len = m->text_len;
	struct klog_entry e;

	/* A line only joins fragments of the same caller and origin. */
	if (c->pending && (c->caller_id != m->caller_id ||
			   !(m->flags & KLOG_F_CONT) || m->dict_len ||
			   c->user != user || c->local != local))
		cont_flush_locked(ns);

	if (c->pending) {
		/* Same caller, a continuation: append if it fits. */
		if (c->len + len <= KLOG_RECORD_MAX) {
			kl_memmove(c->buf + c->len, m->text, len);
			c->len += len;
			c->flags |= m->flags & (KLOG_F_NEWLINE | KLOG_F_TRUNC);
			if ((m->flags & KLOG_F_NEWLINE) || cont_full(ns))
				cont_flush_locked(ns);
			return;
		}
		cont_flush_locked(ns);
	}

	if (!(m->flags & KLOG_F_NEWLINE) && !m->dict_len) {
		/* Start a pending line (an empty one too, as 6.12). */
		kl_memmove(c->buf, m->text, len);
		c->pending = true;
		c->len = len;
		c->caller_id = m->caller_id;
		c->ts_nsec = kl_clock_ns();
		c->facility = m->facility;
		c->level = m->level;
		c->flags = m->flags & (KLOG_F_CONT | KLOG_F_PREFIX |
				       KLOG_F_TRUNC);
		c->user = user;
		c->local = local;
		if (cont_full(ns))
			cont_flush_locked(ns);
		return;
	}

	e.ts_nsec = kl_clock_ns();
	e.caller_id = m->caller_id;
	e.facility = m->facility;
	e.level = m->level;
	e.flags = m->flags & 0xff;
	e.pre = NULL;
	e.pre_len = 0;
	e.text = m->text;
	e.text_len = len;
	e.dict = m->dict;
	e.dict_len = m->dict_len;
	commit_locked(ns, &e, origin);
}

/**
 * klog_ns_wake() - wake the readers of a namespace.
 * @ns: the namespace.
 *
 * Context: any that may take a spinlock (not NMI); a klog lock may be
 * held.
 */
void klog_ns_wake(struct klog_ns *ns)
{
	kl_waitq_wake(&ns->wait);
}

/*
 * @missed records of @child that its forwarder did not offer to @p go
 * into the count that @child's next note to @p reports; @suppressed of
 * them (those overwritten before their turn) count as refused by the
 * budget too.  The rest, passed over while refused, were counted then.
 */
static void add_missed(struct klog_ns *child, struct klog_ns *p, u64 missed,
		       u64 suppressed)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&p->lock, flags);		/* L3 */
	child->copy_missed = add_sat(child->copy_missed, missed);
	child->stats.suppressed += suppressed;
	kl_unlock_irqrestore(&p->lock, flags);
}

/*
 * A copy of user-influenced text is one line of notice severity at most,
 * in the user facility: control characters (but tab) become '?', more
 * severe levels notice, and a facility the writer chose (auth, say: any
 * <N> a /dev/kmsg writer puts first) becomes LOG_USER.
 */
static void user_copy_sanitise(struct klog_entry *copy, char *text)
{
	u32 i;

	for (i = 0; i < copy->text_len; i++) {
		unsigned char ch = text[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			text[i] = '?';
	}
	if (copy->level < KLOG_USER_COPY_LEVEL)
		copy->level = KLOG_USER_COPY_LEVEL;
	copy->facility = KLOG_USER_COPY_FACILITY;
}

/*
 * Offer @copy, a record of @cur (its text in a scratch buffer), to
 * @cur's parent, under the parent's lock alone (L1).  A root with a store
 * hook gets it after that lock (which guards its budget) is dropped.
 * It returns 0, or, when the parent's budget refused the copy, the time
 * at which the window that refused it ends.
 */
static u64 copy_to_parent(struct klog_ns *cur, struct klog_entry *copy,
			  const struct klog_copy_policy *pol)
{
	char pre[KLOG_LABEL_MAX + 1], dict[KLOG_LABEL_DICT_MAX], text[48];
	struct klog_ns *p = cur->parent;
	struct klog_entry note;
	kl_irqflags_t flags;
	u64 until = 0;
	bool kick;
	int take;

	kl_lock_irqsave(&p->lock, flags);
	take = budget_take_locked(p, cur, pol, &until);
	if (!take) {
		kl_unlock_irqrestore(&p->lock, flags);
		return until;
	}
	/* Label and dictionary only for a copy that goes. */
	copy->pre = pre;
	copy->pre_len = copy_prefix(cur, pre, sizeof(pre));
	copy->dict = dict;
	copy->dict_len = klog_ns_copy_dict(cur, dict, sizeof(dict));
	if (take == 2) {
		/* The note is in order with the copy and goes no further. */
		note = *copy;
		note.facility = 0;
		note.level = KLOG_DEFAULT_LEVEL;
		note.flags = KLOG_F_NEWLINE | KLOG_F_LOCAL;
		note.text = text;
		note.text_len = kl_snprintf(text, sizeof(text),
					    "%u messages suppressed",
					    cur->copy_missed);
		cur->copy_missed = 0;
	}
	cur->stats.propagated++;
	if (has_hook(p)) {
		kl_unlock_irqrestore(&p->lock, flags);
		if (take == 2)
			p->ops->emit(p, &note);
		p->ops->emit(p, copy);
		return 0;
	}
	if (take == 2) {
		ring_store_locked(p, &note);
		offered_locked(p, note.flags);
	}
	ring_store_locked(p, copy);
	offered_locked(p, copy->flags);
	kick = backlog_locked(p);
	kl_unlock_irqrestore(&p->lock, flags);
	klog_ns_wake(p);				/* L7 */
	if (kick)
		kl_defer_queue(&p->forward);
	return 0;
}

/*
 * The records @ns passed over while its parent's budget refused it, once
 * that refusal has ended: the forwarder adds them to the count of the
 * next note before it offers the parent anything more.
 */
static u32 take_skipped_locked(struct klog_ns *ns)
{
	struct klog_copy_policy pol;
	u32 n = ns->up_skipped;

	if (!n)
		return 0;
	klog_ns_get_copy_policy(ns->parent, &pol);
	if (refusal_holds_locked(ns, &pol))
		return 0;
	ns->up_skipped = 0;
	return n;
}

/*
 * The forwarder of @ns: offer @ns's records to its parent in ring order,
 * at most KLOG_FORWARD_BATCH of them.  One forwarder runs per namespace
 * at a time (@ns->up_busy); a store that finds one running leaves its
 * record to it, and the running one looks for more under @ns's lock
 * before it stops, so no record is left behind.  It holds its context's
 * scratch buffer for one record at a time, so it is preemptible between
 * records where its context is (a work item in the kernel).  Refused by
 * the parent's budget, it passes over @ns's records under @ns's lock
 * alone until the window that refused it ends, and so does the store
 * path (offered_locked()), which then queues no forwarder at all.
 * Return: true if records remain (the caller queues the forwarder again).
 */
static bool forward(struct klog_ns *ns)
{
	struct klog_copy_policy pol;
	struct klog_entry copy;
	struct klog_record rec;
	kl_irqflags_t flags;
	bool more = false;
	u64 lost, until;
	u32 n = 0, skipped;
	char *buf;

	kl_lock_irqsave(&ns->lock, flags);
	if (ns->up_busy) {
		kl_unlock_irqrestore(&ns->lock, flags);
		return false;
	}
	ns->up_busy = true;				/* L8 */
	for (;;) {
		lost = klog_ring_cursor_fix(&ns->ring, &ns->up_cur);
		skipped = take_skipped_locked(ns);
		if (lost || skipped) {
			kl_unlock_irqrestore(&ns->lock, flags);
			add_missed(ns, ns->parent, lost + skipped, lost);
			kl_lock_irqsave(&ns->lock, flags);
			continue;
		}
		more = backlog_locked(ns);
		if (!more || n++ == KLOG_FORWARD_BATCH)
			break;
		/* Always free: a forwarder never runs inside the store path. */
		buf = kl_scratch_get();
		if (kl_warn_on_once(!buf)) {
			more = false;
			break;
		}
		klog_ring_peek(&ns->ring, &ns->up_cur, &rec);
		klog_ring_advance(&ns->ring, &ns->up_cur);
		if (!may_propagate(ns, rec.flags, &pol)) {
			kl_scratch_put(buf);
			continue;
		}
		if (refusal_holds_locked(ns, &pol)) {
			pass_over_locked(ns);
			kl_scratch_put(buf);
			continue;
		}
		kl_memset(&copy, 0, sizeof(copy));
		copy.ts_nsec = rec.ts_nsec;
		copy.caller_id = rec.caller_id;
		copy.facility = rec.facility;
		copy.level = rec.level;
		copy.flags = rec.flags;
		copy.text = buf;
		copy.text_len = rec.text_len;
		kl_memcpy(buf, rec.text, rec.text_len);
		/* L1: the child's lock goes before the parent's is taken. */
		kl_unlock_irqrestore(&ns->lock, flags);
		if (copy.flags & KLOG_F_USER)
			user_copy_sanitise(&copy, buf);
		until = copy_to_parent(ns, &copy, &pol);
		kl_scratch_put(buf);
		kl_lock_irqsave(&ns->lock, flags);
		if (until) {
			ns->up_refused_until = until;
			ns->up_refused_burst = pol.burst;
			ns->up_refused_ms = pol.interval_ms;
		}
	}
	ns->up_busy = false;
	kl_unlock_irqrestore(&ns->lock, flags);
	return more;
}

/**
 * klog_ns_forward_work() - the forwarder of a namespace (struct klog_ns's
 * @forward): copy its records to its parent.
 * @work: &ns->forward.
 *
 * Queued by the store path (klog_ns_copy_up()) after the namespace's lock
 * is dropped; handles at most KLOG_FORWARD_BATCH records, each under one
 * lock at a time, and queues itself again while records remain.  The
 * scratch buffer of its context is always free (a forwarder never runs
 * inside the store path); should it not be, it warns and stops until the
 * next store queues it again.
 *
 * Context: any that may take a spinlock (not NMI); no klog lock held.
 */
void klog_ns_forward_work(kl_defer_t *work)
{
	struct klog_ns *ns = kl_container_of(work, struct klog_ns, forward);

	if (forward(ns))
		kl_defer_queue(work);
}

/**
 * klog_ns_copy_up() - have the records that a locked section committed
 * copied to the ancestors that take them.
 * @ns: the namespace (a reference held), after
 *      klog_ns_reader_commit_locked() returned true and @ns's lock was
 *      dropped.
 *
 * Context: any that may take a spinlock (not NMI); no klog lock held.
 */
void klog_ns_copy_up(struct klog_ns *ns)
{
	kl_defer_queue(&ns->forward);
}

/* Strip one trailing newline into NEWLINE; resolve a default level. */
static void normalise(struct klog_ns *ns, struct klog_msg *m)
{
	if (m->text_len && m->text[m->text_len - 1] == '\n') {
		m->text_len--;
		m->flags |= KLOG_F_NEWLINE;
	}
	if (m->text_len > KLOG_RECORD_MAX) {
		m->text_len = KLOG_RECORD_MAX;
		m->flags |= KLOG_F_TRUNC;
	}
	/* Past the cap the ring cuts at a pair boundary and flags it. */
	if (m->dict_len > KLOG_DICT_MAX + 1)
		m->dict_len = KLOG_DICT_MAX + 1;
	if (m->level < 0 || m->level > 7)		/* L4 */
		m->level = kl_read_once(ns->cfg->default_level);
}

/*
 * Store @m (normalised) under @ns's lock; then give back @scratch (the
 * buffer @m's text is in, or NULL), wake the readers and copy up.
 */
static void store(struct klog_ns *ns, const struct klog_msg *m,
		  char *scratch)
{
	kl_irqflags_t flags;
	bool kick;

	kl_lock_irqsave(&ns->lock, flags);
	store_locked(ns, m);
	kick = backlog_locked(ns);
	kl_unlock_irqrestore(&ns->lock, flags);
	if (scratch)
		kl_scratch_put(scratch);
	/* L7: readers woken and the forwarder queued with the lock dropped. */
	klog_ns_wake(ns);
	if (kick)
		klog_ns_copy_up(ns);
}

/*
 * Normalise @m and store it, then give back @scratch (the calling
 * context's scratch buffer that @m's text is in, or NULL): the tail of
 * klog_ns_store() and of klog_ns_vprintk() (a user-space call).
 */
void klog_ns_store_msg(struct klog_ns *ns, struct klog_msg *m, char *scratch)
{
	normalise(ns, m);
	store(ns, m, scratch);
}

/**
 * klog_ns_store() - store a message whose text is already in memory.
 * @ns: the namespace (a reference held by the caller).
 * @m:  the message.  No prefix parsing is done; a trailing newline is
 *      stripped and sets NEWLINE; a level outside 0..7 means the default.
 *      Text beyond KLOG_RECORD_MAX bytes is truncated and flagged.
 *
 * Context: any that may take a spinlock (not NMI); no klog lock held.
 * Return: text bytes accepted (after stripping the newline), or -EINVAL
 * for a NULL @m or NULL text with a non-zero length.
 */
int klog_ns_store(struct klog_ns *ns, const struct klog_msg *m)
{
	struct klog_msg msg;

	if (!ns || !m || (!m->text && m->text_len) ||
	    (!m->dict && m->dict_len))
		return -EINVAL;
	msg = *m;
	if (!msg.text)
		msg.text = "";
	klog_ns_store_msg(ns, &msg, NULL);
	return msg.text_len;
}

/**
 * klog_ns_reader_commit_locked() - what a reader commits before it reads.
 * @ns: the namespace, locked.
 *
 * Every read path calls this first: the pending continuation line is
 * committed if the tree's read_commits says that readers commit it, so
 * that a reader never waits for a line that may never be finished; with
 * read_commits off (6.12's behaviour) it stays pending.
 *
 * Context: ns->lock held.
 * Return: true if records wait to be copied to the parent: the caller
 * then calls klog_ns_copy_up() once it has dropped the lock.
 */
bool klog_ns_reader_commit_locked(struct klog_ns *ns)
{
	if (ns->cfg->read_commits)
		return klog_ns_flush_locked(ns);
	return backlog_locked(ns);
}

/**
 * klog_ns_flush_locked() - commit the pending continuation line.
 * @ns: the namespace, locked.
 *
 * Whatever read_commits says (the locked half of klog_ns_flush(), a
 * user-space call, and of a reader's commit when read_commits is on).
 *
 * Context: ns->lock held.
 * Return: as klog_ns_reader_commit_locked().
 */
bool klog_ns_flush_locked(struct klog_ns *ns)
{
	cont_flush_locked(ns);
	return backlog_locked(ns);
}
