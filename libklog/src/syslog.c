// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * syslog.c - the syslog(2) actions of one namespace.
 *
 * DOC: syslog actions
 *
 * klog_syslog() is Linux 6.12's do_syslog() acting on ctx->ns instead of
 * the global log: the same permission rule first (restricted actions need
 * CAP_SYSLOG over the namespace's owner; READ_ALL and SIZE_BUFFER are free
 * unless dmesg_restrict; /proc/kmsg requests were checked at open), then
 * the same argument checks and the same return values.  READ is the
 * destructive reader with a partial-line position kept across calls;
 * READ_ALL returns the newest records that fit; READ_CLEAR and CLEAR move
 * the clear point.  Console actions act on the tree's console level and
 * need CAP_SYSLOG over the root's owner.  Every other action number is
 * unknown, 11 included: -EINVAL once the permission check passed, as in
 * 6.12.  A namespace is not created through syslog(2) but with
 * unshare(CLONE_NEWSYSLOG): klog_ns_init() (in user space also
 * klog_ns_create()), then klog_ns_set_tag() and klog_ns_resize() for the
 * sysctls kernel.syslog_ns_tag and kernel.syslog_ns_size.
 *
 * Nothing is formatted under the namespace lock (L7).  A reader copies
 * one record at a time into ctx->scratch under the lock (klog_ring_copy(),
 * the text: at most KLOG_RECORD_MAX bytes), drops the lock, formats the
 * copy in place, as upstream formats in the buffer it read the record
 * into, and copies the result out.  READ then takes the lock again to
 * commit: if the syslog cursor or the partial position moved meanwhile
 * (another READ or /proc/kmsg reader, or a repair after a loss), it
 * commits nothing and starts over from where the cursor is now, so no
 * two readers return the same bytes; otherwise it moves the cursor past
 * the record, or records how much of it was read, exactly as it would
 * have with the lock held throughout.  Only READ's commit moves the
 * syslog cursor (the wait condition and SIZE_UNREAD only repair an
 * overtaken one); it moves before the copy out, as upstream moves
 * syslog_seq before copy_to_user(), so a fault loses the record as in
 * 6.12.  READ_ALL and READ_CLEAR walk a cursor of their own and never
 * move the syslog cursor; READ_CLEAR moves the clear point at the end.
 * The sizes READ_ALL and SIZE_UNREAD need are counted under the lock
 * (klog_fmt_syslog_size() counts digits and lines), never formatted.
 *
 * Locking: takes ns->lock alone (L1), to copy one record, to commit it,
 * or for one chunk of a walk (L7); formats only with it dropped; sleeps
 * only in READ's wait, and copies out with the lock dropped (L6).  The
 * console actions take the root's lock alone.
 */
#include "internal.h"
#include "klog/syslog.h"

static bool capable_over(const struct klog_syslog_ctx *ctx, void *owner,
			 int cap)
{
	if (!ctx->ops || !ctx->ops->capable)
		return true;
	return ctx->ops->capable(ctx, owner, cap);
}

/* @n bytes to @off bytes into the caller's buffer @dst (opaque here). */
static int copy_out(const struct klog_syslog_ctx *ctx, void *dst,
		    size_t off, const char *src, size_t n)
{
	if (ctx->ops && ctx->ops->copy_to)
		return ctx->ops->copy_to(ctx, dst, off, src, n);
	kl_memcpy((char *)dst + off, src, n);
	return 0;
}

static unsigned int fmt_opts(const struct klog_ns *ns, bool time)
{
	return KLOG_FMT_PRIO | (time ? KLOG_FMT_TIME : 0) |
	       (ns->cfg->printk_caller ? KLOG_FMT_CALLER : 0);
}

/* The security module's word, after the capability check. */
static int security_ok(const struct klog_syslog_ctx *ctx, int type)
{
	if (!ctx->ops || !ctx->ops->security)
		return 0;
	return ctx->ops->security(ctx, type);
}

/**
 * klog_syslog_check() - upstream's check_syslog_permissions().
 * @ctx:  the caller.
 * @type: the action.
 *
 * The capability hook is asked at most once, and only for a restricted
 * action; the security hook once, unless the capability was missing.
 *
 * Context: process context (the hooks are the embedder's capability and
 * security checks).
 * Return: 0, -EPERM, or the security hook's error.
 */
int klog_syslog_check(const struct klog_syslog_ctx *ctx, int type)
{
	struct klog_ns *ns = ctx->ns;

	kl_might_sleep();
	if (ctx->source == KLOG_FROM_PROC && type != KLOG_SYSLOG_ACTION_OPEN)
		return security_ok(ctx, type);
	if (!ns->dmesg_restrict && (type == KLOG_SYSLOG_ACTION_READ_ALL ||
				    type == KLOG_SYSLOG_ACTION_SIZE_BUFFER))
		return security_ok(ctx, type);
	if (!capable_over(ctx, ns->owner, KLOG_CAP_SYSLOG))
		return -EPERM;
	return security_ok(ctx, type);
}

/* Wait condition: something unread at the syslog cursor. */
static bool syslog_ready(void *arg)
{
	struct klog_ns *ns = arg;
	kl_irqflags_t flags;
	bool ready, kick;

	kl_lock_irqsave(&ns->lock, flags);
	kick = klog_ns_reader_commit_locked(ns);
	/* A cut line whose record is gone restarts at the next record. */
	if (klog_ring_cursor_fix(&ns->ring, &ns->syslog_cur))
		ns->syslog_partial = 0;
	ready = ns->syslog_cur.seq < ns->ring.next_seq;
	kl_unlock_irqrestore(&ns->lock, flags);
	if (kick)
		klog_ns_copy_up(ns);
	return ready;
}

/* syslog_print(): the destructive read.  @size > 0. */
static int syslog_read(struct klog_syslog_ctx *ctx, void *buf, int size)
{
	struct klog_ns *ns = ctx->ns;
	struct klog_cursor at, next;
	struct klog_record rec;
	kl_irqflags_t flags;
	int len = 0, err;
	size_t n, skip;
	bool time;

	if (!syslog_ready(ns)) {
		if (ctx->nonblock)
			return -EAGAIN;
		err = kl_waitq_wait(&ns->wait, syslog_ready, ns);
		if (err)
			return err;
	}

	do {
		/* L7: copy the record under the lock, format it without. */
		kl_lock_irqsave(&ns->lock, flags);
		if (klog_ring_cursor_fix(&ns->ring, &ns->syslog_cur))
			ns->syslog_partial = 0;
		at = ns->syslog_cur;
		skip = ns->syslog_partial;
		/* A cut record keeps the time setting it was begun with. */
		time = skip ? ns->syslog_time :
			kl_read_once(ns->cfg->printk_time);
		if (!klog_ring_copy(&ns->ring, &at, &rec, ctx->scratch,
				    KLOG_RECORD_MAX)) {
			kl_unlock_irqrestore(&ns->lock, flags);
			break;
		}
		next = at;
		klog_ring_advance(&ns->ring, &next);
		kl_unlock_irqrestore(&ns->lock, flags);

		n = klog_fmt_syslog(&rec, fmt_opts(ns, time), ctx->scratch,
				    KLOG_MESSAGE_MAX);

		kl_lock_irqsave(&ns->lock, flags);
		if (ns->syslog_cur.seq != at.seq ||
		    ns->syslog_partial != skip) {
			/* Another reader moved the cursor: start over. */
			kl_unlock_irqrestore(&ns->lock, flags);
			continue;
		}
		if (!skip)
			ns->syslog_time = time;
		if (n - skip <= (size_t)size) {
			ns->syslog_cur = next;
			n -= skip;
			ns->syslog_partial = 0;
		} else if (!len) {
			n = size;
			ns->syslog_partial += n;
		} else {
			n = 0;
		}
		kl_unlock_irqrestore(&ns->lock, flags);
		if (!n)
			break;

		/* L6: the copy may fault and sleep, with the lock dropped. */
		err = copy_out(ctx, buf, len, ctx->scratch + skip, n);
		if (err) {
			if (!len)
				len = err;
			break;
		}
		len += n;
		size -= n;
	} while (size);
	return len;
}

/*
 * A walk over a ring holds the namespace's lock (interrupts off) for at
 * most KLOG_WALK_CHUNK records at a time; between chunks writers may
 * drop old records (the cursor skips them) or add new ones (the walk
 * stops at the end it saw first).  Upstream walks its ring without a
 * lock and is approximate in the same way.
 */
#define KLOG_WALK_CHUNK 16

/* L7: let writers in after every KLOG_WALK_CHUNK records of a walk. */
static void walk_pause(struct klog_ns *ns, struct klog_cursor *c, u32 *n,
		       kl_irqflags_t *flags)
{
	if (++*n % KLOG_WALK_CHUNK)
		return;
	kl_unlock_irqrestore(&ns->lock, *flags);
	kl_lock_irqsave(&ns->lock, *flags);
	klog_ring_cursor_fix(&ns->ring, c);
}

/*
 * Formatted size, with @opts, of the records from *@c up to @end (a
 * sequence number), counted, not formatted (L7); *@c ends there.  Called
 * and returns with ns->lock held, which it drops between chunks.
 */
static size_t walk_size_locked(struct klog_ns *ns, struct klog_cursor *c,
			       u64 end, unsigned int opts,
			       kl_irqflags_t *flags)
{
	struct klog_record rec;
	size_t total = 0;
	u32 n = 0;

	while (c->seq < end && klog_ring_peek(&ns->ring, c, &rec)) {
		total += klog_fmt_syslog_size(&rec, opts);
		klog_ring_advance(&ns->ring, c);
		walk_pause(ns, c, &n, flags);
	}
	return total;
}

/* Records from the clear point on that fit in @size: the first cursor. */
static void first_fitting_locked(struct klog_ns *ns, size_t size, bool time,
				 struct klog_cursor *start,
				 kl_irqflags_t *flags)
{
	struct klog_cursor c = ns->clear_cur;
	struct klog_record rec;
	u64 end = ns->ring.next_seq;
	size_t total;
	u32 n = 0;

	klog_ring_cursor_fix(&ns->ring, &c);
	*start = c;
	total = walk_size_locked(ns, &c, end, fmt_opts(ns, time), flags);
	klog_ring_cursor_fix(&ns->ring, start);
	while (total > size && start->seq < end &&
	       klog_ring_peek(&ns->ring, start, &rec)) {
		total -= klog_fmt_syslog_size(&rec, fmt_opts(ns, time));
		klog_ring_advance(&ns->ring, start);
		walk_pause(ns, start, &n, flags);
	}
}

/* syslog_print_all(): READ_ALL and READ_CLEAR.  @size > 0. */
static int syslog_read_all(struct klog_syslog_ctx *ctx, void *buf, int size,
			   bool clear)
{
	struct klog_ns *ns = ctx->ns;
	struct klog_cursor c, before;
	struct klog_record rec;
	kl_irqflags_t flags;
	bool time = kl_read_once(ns->cfg->printk_time);
	int len = 0;
	size_t n;
	bool kick;

	kl_lock_irqsave(&ns->lock, flags);
	kick = klog_ns_reader_commit_locked(ns);
	first_fitting_locked(ns, size, time, &c, &flags);
	kl_unlock_irqrestore(&ns->lock, flags);
	if (kick)
		klog_ns_copy_up(ns);

	for (;;) {
		/* L7: copy the record under the lock, format it without. */
		kl_lock_irqsave(&ns->lock, flags);
		klog_ring_cursor_fix(&ns->ring, &c);
		before = c;
		if (!klog_ring_copy(&ns->ring, &c, &rec, ctx->scratch,
				    KLOG_RECORD_MAX)) {
			kl_unlock_irqrestore(&ns->lock, flags);
			break;
		}
		klog_ring_advance(&ns->ring, &c);
		kl_unlock_irqrestore(&ns->lock, flags);

		n = klog_fmt_syslog(&rec, fmt_opts(ns, time), ctx->scratch,
				    KLOG_MESSAGE_MAX);

		if (len + n > (size_t)size) {
			c = before;
			break;
		}
		if (copy_out(ctx, buf, len, ctx->scratch, n)) {
			/* 6.12 breaks before advancing: clear stays here. */
			c = before;
			len = -EFAULT;
			break;
		}
		len += n;
	}

	if (clear) {
		kl_lock_irqsave(&ns->lock, flags);
		ns->clear_cur = c;
		kl_unlock_irqrestore(&ns->lock, flags);
	}
	return len;
}

/* SIZE_UNREAD. */
static int syslog_size_unread(struct klog_syslog_ctx *ctx)
{
	struct klog_ns *ns = ctx->ns;
	struct klog_record rec;
	struct klog_cursor c;
	kl_irqflags_t flags;
	bool time;
	int ret = 0;
	bool kick;

	kl_lock_irqsave(&ns->lock, flags);
	kick = klog_ns_reader_commit_locked(ns);
	if (klog_ring_cursor_fix(&ns->ring, &ns->syslog_cur))
		ns->syslog_partial = 0;
	c = ns->syslog_cur;
	if (ctx->source == KLOG_FROM_PROC) {
		ret = ns->ring.next_seq - c.seq;
	} else if (klog_ring_peek(&ns->ring, &c, &rec)) {
		/* A cut record keeps the time setting it was started with. */
		time = ns->syslog_partial ? ns->syslog_time :
			kl_read_once(ns->cfg->printk_time);
		ret = klog_fmt_syslog_size(&rec, fmt_opts(ns, time)) -
		      ns->syslog_partial;
		klog_ring_advance(&ns->ring, &c);
		time = kl_read_once(ns->cfg->printk_time);
		ret += walk_size_locked(ns, &c, ns->ring.next_seq,
					fmt_opts(ns, time), &flags);
	}
	kl_unlock_irqrestore(&ns->lock, flags);
	if (kick)
		klog_ns_copy_up(ns);
	return ret;
}

/**
 * klog_syslog() - do_syslog() on the caller's namespace.
 * @ctx:  the caller; ctx->scratch must hold KLOG_MESSAGE_MAX bytes for the
 *        read actions.
 * @type: KLOG_SYSLOG_ACTION_*.
 * @buf:  the caller's buffer, or an object that names it: handed to
 *        ops->copy_to with an offset, and written directly only when
 *        ops->copy_to is NULL.
 * @len:  its length, or the console level.
 *
 * Context: process context; READ may sleep unless ctx->nonblock.
 * Return: as Linux 6.12: bytes read, a size, 0, or -EPERM, -EINVAL
 * (also for an unknown action), -EFAULT, -EAGAIN (nonblocking READ),
 * -ERESTARTSYS.
 */
int klog_syslog(struct klog_syslog_ctx *ctx, int type, void *buf, int len)
{
	struct klog_ns *ns = ctx->ns;
	struct klog_config *cfg = ns->cfg;
	kl_irqflags_t flags;
	int error;

	kl_might_sleep();
	error = ctx->checked ? 0 : klog_syslog_check(ctx, type);
	if (error)
		return error;

	switch (type) {
	case KLOG_SYSLOG_ACTION_CLOSE:
	case KLOG_SYSLOG_ACTION_OPEN:
		return 0;
	case KLOG_SYSLOG_ACTION_READ:
		if (!buf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		return syslog_read(ctx, buf, len);
	case KLOG_SYSLOG_ACTION_READ_CLEAR:
	case KLOG_SYSLOG_ACTION_READ_ALL:
		if (!buf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		return syslog_read_all(ctx, buf, len,
				       type == KLOG_SYSLOG_ACTION_READ_CLEAR);
	case KLOG_SYSLOG_ACTION_CLEAR:
		/* Like SEEK_END: a pending line stays after the clear point. */
		kl_lock_irqsave(&ns->lock, flags);
		klog_ring_cursor_end(&ns->ring, &ns->clear_cur);
		kl_unlock_irqrestore(&ns->lock, flags);
		return 0;
	case KLOG_SYSLOG_ACTION_CONSOLE_OFF:
	case KLOG_SYSLOG_ACTION_CONSOLE_ON:
	case KLOG_SYSLOG_ACTION_CONSOLE_LEVEL:
		/* The console is global: privilege over the root. */
		if (ns != ns->root &&
		    !capable_over(ctx, ns->root->owner, KLOG_CAP_SYSLOG))
			return -EPERM;
		break;
	case KLOG_SYSLOG_ACTION_SIZE_UNREAD:
		return syslog_size_unread(ctx);
	case KLOG_SYSLOG_ACTION_SIZE_BUFFER:
		return ns->ring.size;
	default:
		return -EINVAL;
	}

	kl_lock_irqsave(&ns->root->lock, flags);
	switch (type) {
	case KLOG_SYSLOG_ACTION_CONSOLE_OFF:
		if (cfg->con_saved_level == -1)
			cfg->con_saved_level = cfg->con_level;
		cfg->con_level = cfg->con_min_level;
		break;
	case KLOG_SYSLOG_ACTION_CONSOLE_ON:
		if (cfg->con_saved_level != -1) {
			cfg->con_level = cfg->con_saved_level;
			cfg->con_saved_level = -1;
		}
		break;
	default:
		if (len < 1 || len > 8) {
			error = -EINVAL;
			break;
		}
		if (len < cfg->con_min_level)
			len = cfg->con_min_level;
		cfg->con_level = len;
		cfg->con_saved_level = -1;
		break;
	}
	kl_unlock_irqrestore(&ns->root->lock, flags);
	return error;
}
