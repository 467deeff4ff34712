// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kmsg.c - /dev/kmsg and /proc/kmsg of one namespace.
 *
 * DOC: /dev/kmsg and /proc/kmsg
 *
 * A struct klog_kmsg is one open /dev/kmsg file, as 6.12's devkmsg_user:
 * it binds the opener's namespace (holding a reference), starts at the
 * first record, reads one record per call in the extended format, loses
 * records with -EPIPE once, and seeks to the first record, the clear point
 * or the end.  Writes parse an optional "<N>" prefix exactly as
 * devkmsg_write() (facility N >> 3, LOG_USER when that is 0) and are
 * rate limited per namespace, not per file (more files buy no more),
 * under the printk.devkmsg mode.
 *
 * /proc/kmsg is the namespace's destructive syslog reader: its functions
 * wrap klog_syslog() with source KLOG_FROM_PROC as fs/proc/kmsg.c does.
 *
 * klog_kmsg_read() formats nothing under the namespace lock (L7): in one
 * locked section it copies the record at the file's cursor into f->raw
 * (klog_ring_copy(), KLOG_COPY_MAX bytes: any record whole, dictionary
 * included) and moves the cursor past it, then formats the copy into
 * f->outbuf with the lock dropped.  The read takes effect when it copies,
 * as the old single section did: a seek or a write that comes while it
 * formats comes after it.
 *
 * Locking: takes ns->lock alone (L1), which guards each file's cursor
 * (L2); klog_kmsg_read() may sleep unless nonblock, in its wait, with no
 * lock held (L6).  Concurrent klog_kmsg_read() calls on one struct
 * klog_kmsg must be serialised by the caller (they copy into f->raw and
 * format into f->outbuf; the kernel glue holds a per-file mutex, as
 * upstream's devkmsg_user.lock).
 * klog_kmsg_seek(), klog_kmsg_poll() and klog_kmsg_write() may run
 * concurrently with a read and with each other: they touch the cursor
 * only under ns->lock and never touch f->raw or f->outbuf, so a reader
 * sleeping in read() does not block them, as upstream.
 */
#include "internal.h"
#include "klog/kmsg.h"

/**
 * klog_kmsg_open() - open /dev/kmsg in the caller's namespace.
 * @f:    the file state (zeroed or not; fully set on success).
 * @ctx:  the opener.
 * @mode: KLOG_KMSG_READ and/or KLOG_KMSG_WRITE.
 *
 * Context: process context (the permission check).
 * Return: 0; -EPERM if printk.devkmsg=off, or for readers when the
 * namespace's dmesg_restrict holds and the opener lacks CAP_SYSLOG over
 * its owner.
 */
int klog_kmsg_open(struct klog_kmsg *f, const struct klog_syslog_ctx *ctx,
		   unsigned int mode)
{
	struct klog_ns *ns = ctx->ns;
	kl_irqflags_t flags;
	int err;

	kl_might_sleep();
	if (kl_read_once(ns->cfg->devkmsg) == KLOG_DEVKMSG_OFF)
		return -EPERM;
	if ((mode & KLOG_KMSG_READ) && !ctx->checked) {
		struct klog_syslog_ctx c = *ctx;

		c.source = KLOG_FROM_READER;
		err = klog_syslog_check(&c, KLOG_SYSLOG_ACTION_READ_ALL);
		if (err)
			return err;
	}
	f->ns = klog_ns_get(ns);
	kl_lock_irqsave(&ns->lock, flags);
	klog_ring_cursor_first(&ns->ring, &f->cur);
	kl_unlock_irqrestore(&ns->lock, flags);
	return 0;
}

/* Wait condition: a record (or a loss) at the file's cursor. */
static bool kmsg_ready(void *arg)
{
	struct klog_kmsg *f = arg;
	struct klog_ns *ns = f->ns;
	kl_irqflags_t flags;
	bool ready, kick;

	kl_lock_irqsave(&ns->lock, flags);
	kick = klog_ns_reader_commit_locked(ns);
	ready = f->cur.seq < ns->ring.next_seq;
	kl_unlock_irqrestore(&ns->lock, flags);
	if (kick)
		klog_ns_copy_up(ns);
	return ready;
}

/**
 * klog_kmsg_read() - format the next record into f->outbuf.
 * @f:        the file.
 * @count:    the reader's buffer size.
 * @nonblock: O_NONBLOCK.
 *
 * As 6.12: after a loss the call returns -EPIPE and the cursor moves to
 * the oldest record; a record longer than @count is consumed and the
 * call returns -EINVAL.  The record is copied into f->raw, and the
 * cursor moved, under the namespace's lock; it is formatted after the
 * lock is dropped.
 *
 * Context: process context; may sleep unless @nonblock.
 * Return: the record's length (in f->outbuf), -EAGAIN, -EPIPE, -EINVAL
 * or -ERESTARTSYS.
 */
ssize_t klog_kmsg_read(struct klog_kmsg *f, size_t count, bool nonblock)
{
	struct klog_ns *ns = f->ns;
	struct klog_record rec;
	kl_irqflags_t flags;
	unsigned int opts;
	ssize_t ret;
	size_t n;

	kl_might_sleep();
	if (!kmsg_ready(f)) {
		if (nonblock)
			return -EAGAIN;
		ret = kl_waitq_wait(&ns->wait, kmsg_ready, f);
		if (ret)
			return ret;
	}

	kl_lock_irqsave(&ns->lock, flags);
	if (klog_ring_cursor_fix(&ns->ring, &f->cur)) {
		kl_unlock_irqrestore(&ns->lock, flags);
		return -EPIPE;
	}
	/* L7: copy the record under the lock, format it without. */
	if (!klog_ring_copy(&ns->ring, &f->cur, &rec, f->raw,
			    sizeof(f->raw))) {
		kl_unlock_irqrestore(&ns->lock, flags);
		return -EAGAIN;
	}
	opts = ns->cfg->printk_caller ? KLOG_FMT_CALLER : 0;
	klog_ring_advance(&ns->ring, &f->cur);
	kl_unlock_irqrestore(&ns->lock, flags);
	n = klog_fmt_kmsg(&rec, opts, f->outbuf, sizeof(f->outbuf));
	return n > count ? -EINVAL : (ssize_t)n;
}

/* simple_strtoul(s, &end, 10) for the "<N>" prefix. */
static unsigned int parse_uint(const char *s, const char *end,
			       const char **stop)
{
	unsigned int v = 0;

	while (s < end && *s >= '0' && *s <= '9')
		v = v * 10 + (unsigned int)(*s++ - '0');
	*stop = s;
	return v;
}

/*
 * The ratelimit's note, as 6.12's devkmsg_write() prints it.  It names a
 * comm that the writer chose, so it is user-influenced text
 * (KLOG_MSG_USER): copied to a parent only under KLOG_PROPAGATE_ALL.
 */
static void note_suppressed(struct klog_ns *ns, const char *comm, u32 missed)
{
	char note[96];
	struct klog_msg m = { 0 };
	int n;

	n = kl_snprintf(note, sizeof(note),
			"printk: %.16s: %u output lines suppressed due to ratelimiting",
			comm ? comm : "kmsg", missed);
	if (n < 0)
		return;
	m.level = 4;
	m.flags = KLOG_F_NEWLINE | KLOG_MSG_USER;
	m.caller_id = kl_caller_id();
	m.text = note;
	m.text_len = (u32)n < sizeof(note) ? (u32)n : sizeof(note) - 1;
	klog_ns_store(ns, &m);
}

/**
 * klog_kmsg_write() - one /dev/kmsg write: one record.
 * @f:    the file.
 * @buf:  the bytes written (already in memory; at most KLOG_RECORD_MAX).
 * @len:  their number.
 * @comm: the writer's name, for the "suppressed" note; may be NULL.
 *
 * Context: any that may take a spinlock.
 * Return: @len (also when the write is dropped by printk.devkmsg=off or
 * the ratelimit, as upstream), or -EINVAL if @len > KLOG_RECORD_MAX.
 */
ssize_t klog_kmsg_write(struct klog_kmsg *f, const char *buf, size_t len,
			const char *comm)
{
	struct klog_ns *ns = f->ns;
	struct klog_config *cfg = ns->cfg;
	const char *line = buf, *end = buf + len, *stop;
	struct klog_msg m = { 0 };
	kl_irqflags_t flags;
	u32 missed = 0;
	bool ok = true;
	int mode;

	if (len > KLOG_RECORD_MAX)
		return -EINVAL;
	mode = kl_read_once(cfg->devkmsg);
	if (mode == KLOG_DEVKMSG_OFF)
		return len;
	if (mode != KLOG_DEVKMSG_ON) {
		kl_lock_irqsave(&ns->lock, flags);
		ok = klog_ratelimit_check(&ns->kmsg_rl, kl_coarse_ns(),
					  cfg->devkmsg_burst,
					  cfg->devkmsg_interval_ms, &missed);
		if (!ok)
			ns->stats.dropped_ratelimit++;
		kl_unlock_irqrestore(&ns->lock, flags);
		/* L1: the note is stored after the lock is dropped. */
		if (missed)
			note_suppressed(ns, comm, missed);
		if (!ok)
			return len;
	}

	m.facility = 1;
	m.level = -1;
	if (len && line[0] == '<') {
		unsigned int u = parse_uint(line + 1, end, &stop);

		if (stop < end && *stop == '>') {
			m.level = u & 7;
			/* LOG_FACILITY(u): 2048 is facility 0 (LOG_USER). */
			if ((u >> 3) & 0xff)
				m.facility = (u >> 3) & 0xff;
			line = stop + 1;
		}
	}
	/* The text ends at the first NUL, as "%s" would. */
	stop = kl_memchr(line, '\0', end - line);
	m.text = line;
	m.text_len = (stop ? stop : end) - line;
	/*
	 * vprintk_store() formats "%s" into at most PRINTKRB_RECORD_MAX
	 * bytes with the terminator: 1023 bytes of text (a newline that
	 * was the 1024th byte is cut, not stripped).
	 */
	if (m.text_len > KLOG_RECORD_MAX - 1)
		m.text_len = KLOG_RECORD_MAX - 1;
	m.flags = KLOG_MSG_USER;
	/* devkmsg_emit("%s", "") stores an empty record too (pending). */
	m.caller_id = kl_caller_id();
	klog_ns_store(ns, &m);
	return len;
}

/**
 * klog_kmsg_seek() - devkmsg_llseek().
 * @f:      the file.
 * @offset: must be 0.
 * @whence: KLOG_SEEK_SET (first record), KLOG_SEEK_DATA (clear point) or
 *          KLOG_SEEK_END (after the last record).
 *
 * Context: any that may take a spinlock.
 * Return: 0, -ESPIPE for a non-zero offset, -EINVAL for another whence.
 */
s64 klog_kmsg_seek(struct klog_kmsg *f, s64 offset, int whence)
{
	struct klog_ns *ns = f->ns;
	kl_irqflags_t flags;
	s64 ret = 0;

	/* The VFS refuses whence beyond SEEK_MAX (SEEK_HOLE) first. */
	if (whence < 0 || whence > 4)
		return -EINVAL;
	if (offset)
		return -ESPIPE;
	kl_lock_irqsave(&ns->lock, flags);
	switch (whence) {
	case KLOG_SEEK_SET:
		klog_ring_cursor_first(&ns->ring, &f->cur);
		break;
	case KLOG_SEEK_DATA:
		f->cur = ns->clear_cur;
		break;
	case KLOG_SEEK_END:
		/*
		 * A pending line is not skipped: it gets the next sequence
		 * number, as 6.12's unfinalized record is after prb_next_seq().
		 */
		klog_ring_cursor_end(&ns->ring, &f->cur);
		break;
	default:
		ret = -EINVAL;
	}
	kl_unlock_irqrestore(&ns->lock, flags);
	return ret;
}

/**
 * klog_kmsg_poll() - devkmsg_poll(), without the wait-queue registration
 * (the glue registers on ns->wait).
 * @f: the file.
 *
 * Context: any that may take a spinlock.
 * Return: POLLIN|POLLRDNORM if a record is there, with POLLERR|POLLPRI
 * too if records were lost; else 0.
 */
unsigned int klog_kmsg_poll(struct klog_kmsg *f)
{
	struct klog_ns *ns = f->ns;
	kl_irqflags_t flags;
	unsigned int ret = 0;
	bool kick;

	kl_lock_irqsave(&ns->lock, flags);
	kick = klog_ns_reader_commit_locked(ns);
	if (ns->ring.first_seq < ns->ring.next_seq &&
	    f->cur.seq < ns->ring.next_seq) {
		ret = KLOG_POLLIN | KLOG_POLLRDNORM;
		if (f->cur.seq < ns->ring.first_seq)
			ret |= KLOG_POLLERR | KLOG_POLLPRI;
	}
	kl_unlock_irqrestore(&ns->lock, flags);
	if (kick)
		klog_ns_copy_up(ns);
	return ret;
}

/**
 * klog_kmsg_release() - close: drop the namespace reference.
 * @f: the file.
 *
 * Context: process context (may free the namespace).
 */
void klog_kmsg_release(struct klog_kmsg *f)
{
	kl_might_sleep();
	klog_ns_put(f->ns);
	f->ns = NULL;
}

/**
 * klog_proc_kmsg_read() - kmsg_read() of fs/proc/kmsg.c.
 * @ctx:      the opener (source KLOG_FROM_PROC).
 * @buf:      destination, as klog_syslog()'s.
 * @count:    its size.
 * @nonblock: O_NONBLOCK.
 *
 * Context: process context; may sleep unless @nonblock.
 * Return: as klog_syslog(KLOG_SYSLOG_ACTION_READ), or -EAGAIN.
 */
ssize_t klog_proc_kmsg_read(struct klog_syslog_ctx *ctx, void *buf,
			    size_t count, bool nonblock)
{
	kl_might_sleep();
	if (nonblock &&
	    !klog_syslog(ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD, NULL, 0))
		return -EAGAIN;
	if (count > 0x7fffffff)
		count = 0x7fffffff;
	return klog_syslog(ctx, KLOG_SYSLOG_ACTION_READ, buf, (int)count);
}

/**
 * klog_proc_kmsg_poll() - kmsg_poll() of fs/proc/kmsg.c.
 * @ctx: the opener.
 *
 * Context: process context (the permission check).
 * Return: POLLIN|POLLRDNORM if anything is unread, else 0.
 */
unsigned int klog_proc_kmsg_poll(struct klog_syslog_ctx *ctx)
{
	kl_might_sleep();
	if (klog_syslog(ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD, NULL, 0))
		return KLOG_POLLIN | KLOG_POLLRDNORM;
	return 0;
}
