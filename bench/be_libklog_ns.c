// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_libklog_ns.c - libklog's namespace store path as kbench backends.
 *
 * libklog-ns       klog_ns_store()/klog_ns_read() as they run in
 *                  userspace: the namespace lock (a pthread mutex here),
 *                  the timestamp, the cont buffer, the wake-up.
 * libklog-printk   klog_ns_printk(): the same plus vsnprintf and prefix
 *                  parsing (Cont+ts only).
 */
#define _GNU_SOURCE
#include <string.h>

#include "klog/klog.h"
#include "internal.h"

#include "bench.h"

static void *ns_create(uint32_t size)
{
	struct klog_ns_params p = { .size = size };
	struct klog_ns *ns;

	if (klog_ns_create(NULL, &p, &ns))
		return NULL;
	return ns;
}

static void ns_destroy(void *ring)
{
	klog_ns_put(ring);
}

static size_t ns_mem(void *ring)
{
	struct klog_ns *ns = ring;

	return sizeof(*ns) + ns->ring.size;
}

static const u32 ns_part_flags[] = {
	[BK_WHOLE] = KLOG_F_NEWLINE,
	[BK_FIRST] = 0,
	[BK_MID] = KLOG_F_CONT,
	[BK_LAST] = KLOG_F_CONT | KLOG_F_NEWLINE,
};

static int ns_write(void *ring, const struct bk_msg *m)
{
	struct klog_msg msg = {
		.level = 6,
		.flags = ns_part_flags[m->part],
		.caller_id = m->caller,
		.text = m->text,
		.text_len = m->len,
	};

	return klog_ns_store(ring, &msg) < 0 ? -1 : 0;
}

static void ns_cursor_first(void *ring, struct bk_cursor *c)
{
	struct klog_ns *ns = ring;
	struct klog_cursor kc;
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns->lock, flags);
	klog_ring_cursor_first(&ns->ring, &kc);
	kl_unlock_irqrestore(&ns->lock, flags);
	c->seq = kc.seq;
	c->idx = kc.idx;
}

_Static_assert(sizeof(struct klog_msgbuf) <= BK_SCRATCH, "scratch");

static int ns_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	struct klog_cursor kc = { .seq = c->seq, .idx = c->idx };
	struct klog_msgbuf *mb = c->scratch;
	int ret = klog_ns_read(ring, &kc, mb);

	c->seq = kc.seq;
	c->idx = kc.idx;
	if (ret != 1)
		return 0;
	out->text = mb->text;
	out->len = mb->rec.text_len;
	out->ts = mb->rec.ts_nsec;
	return 1;
}

const struct bk_ops bk_libklog_ns = {
	.name = "libklog-ns",
	.what = "klog_ns_store()/klog_ns_read(): namespace lock (a pthread "
		"mutex in userspace), clock, cont buffer, wake-up",
	.create = ns_create,
	.destroy = ns_destroy,
	.mem = ns_mem,
	.write = ns_write,
	.write_part = ns_write,
	.cursor_first = ns_cursor_first,
	.read = ns_read,
};

static int nsp_write(void *ring, const struct bk_msg *m)
{
	int n, len = (int)m->len;

	switch (m->part) {
	case BK_WHOLE:
		n = klog_ns_printk(ring, "\0016%.*s\n", len, m->text);
		break;
	case BK_FIRST:
		n = klog_ns_printk(ring, "\0016%.*s", len, m->text);
		break;
	case BK_MID:
		n = klog_ns_printk(ring, "\001c%.*s", len, m->text);
		break;
	default:
		n = klog_ns_printk(ring, "\001c%.*s\n", len, m->text);
		break;
	}
	return n < 0 ? -1 : 0;
}

const struct bk_ops bk_libklog_printk = {
	.name = "libklog-printk",
	.what = "klog_ns_printk(): libklog-ns plus vsnprintf, prefix parsing "
		"and the caller id (a gettid() system call in userspace)",
	.create = ns_create,
	.destroy = ns_destroy,
	.mem = ns_mem,
	.write = nsp_write,
	.write_part = nsp_write,
	.cursor_first = ns_cursor_first,
	.read = ns_read,
};
