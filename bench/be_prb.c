// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_prb.c - Linux 6.12's lockless printk_ringbuffer as a kbench backend.
 *
 * kernel/printk/printk_ringbuffer.c is compiled unchanged through
 * prb/prb_shim.h.  The ring is sized as the kernel sizes its own:
 * PRB_AVGBITS (5) gives one descriptor per 32 text bytes, so a text ring
 * of 2^n bytes comes with 2^(n-5) descriptors and as many printk_info.
 *
 * Writers follow 6.12's vprintk_store(): prb_reserve(), copy the text, fill
 * the info, prb_final_commit() for a line with its newline and
 * prb_commit() for one that may be continued; a KERN_CONT fragment first
 * tries prb_reserve_in_last() (up to PRINTKRB_RECORD_MAX bytes).  The
 * timestamp is read on every call, as vprintk_store() reads local_clock().
 * A failed reservation is returned as -1: the record is lost.
 */
#include "prb_shim.h"
#include "printk_ringbuffer.h"

#include <stdlib.h>

#include "bench.h"

struct prb_be {
	struct printk_ringbuffer rb;
	char *text;
	struct prb_desc *descs;
	struct printk_info *infos;
	unsigned int textbits;
	unsigned int descbits;
};

static void *prb_be_create(uint32_t size)
{
	struct prb_be *p = calloc(1, sizeof(*p));
	unsigned int bits = 0;

	if (!p)
		return NULL;
	while ((1u << bits) < size)
		bits++;
	p->textbits = bits;
	p->descbits = bits - PRB_AVGBITS;
	p->text = aligned_alloc(64, 1ul << bits);
	p->descs = aligned_alloc(64, sizeof(*p->descs) << p->descbits);
	p->infos = aligned_alloc(64, sizeof(*p->infos) << p->descbits);
	if (!p->text || !p->descs || !p->infos) {
		free(p->text);
		free(p->descs);
		free(p->infos);
		free(p);
		return NULL;
	}
	memset(p->text, 0, 1ul << bits);
	/* The third argument is log2 of the text size. */
	prb_init(&p->rb, p->text, p->textbits, p->descs, p->descbits,
		 p->infos);
	return p;
}

static void prb_be_destroy(void *ring)
{
	struct prb_be *p = ring;

	free(p->text);
	free(p->descs);
	free(p->infos);
	free(p);
}

static size_t prb_be_mem(void *ring)
{
	struct prb_be *p = ring;

	return sizeof(*p) + (1ul << p->textbits) +
	       ((sizeof(struct prb_desc) + sizeof(struct printk_info))
		<< p->descbits);
}

/* A new record, as vprintk_store() without a continuation. */
static int prb_be_new(struct prb_be *p, const struct bk_msg *m, uint64_t ts,
		      bool final)
{
	struct prb_reserved_entry e;
	struct printk_record r;

	prb_rec_init_wr(&r, m->len);
	if (!prb_reserve(&e, &p->rb, &r))
		return -1;
	memcpy(r.text_buf, m->text, m->len);
	r.info->text_len = m->len;
	r.info->ts_nsec = ts;
	r.info->caller_id = m->caller;
	r.info->facility = 0;
	r.info->level = 6;
	if (m->part == BK_MID || m->part == BK_LAST)
		r.info->flags |= LOG_CONT;
	if (final) {
		r.info->flags |= LOG_NEWLINE;
		prb_final_commit(&e);
	} else {
		prb_commit(&e);
	}
	return 0;
}

static int prb_be_write(void *ring, const struct bk_msg *m)
{
	uint64_t ts = m->ts == BK_TS_NOW ? bk_now() : m->ts;

	return prb_be_new(ring, m, ts, true);
}

static int prb_be_write_part(void *ring, const struct bk_msg *m)
{
	struct prb_be *p = ring;
	uint64_t ts = bk_now();	/* vprintk_store() reads the clock first */
	struct prb_reserved_entry e;
	struct printk_record r;

	if (m->part == BK_MID || m->part == BK_LAST) {
		prb_rec_init_wr(&r, m->len);
		if (prb_reserve_in_last(&e, &p->rb, &r, m->caller,
					PRINTKRB_RECORD_MAX)) {
			memcpy(&r.text_buf[r.info->text_len], m->text, m->len);
			r.info->text_len += m->len;
			if (m->part == BK_LAST) {
				r.info->flags |= LOG_NEWLINE;
				prb_final_commit(&e);
			} else {
				prb_commit(&e);
			}
			return 0;
		}
	}
	return prb_be_new(p, m, ts, m->part == BK_WHOLE || m->part == BK_LAST);
}

static void prb_be_cursor_first(void *ring, struct bk_cursor *c)
{
	struct prb_be *p = ring;

	c->seq = prb_first_valid_seq(&p->rb);
}

struct prb_scratch {
	struct printk_info info;
	char text[BK_TEXT_MAX + 8];
};
_Static_assert(sizeof(struct prb_scratch) <= BK_SCRATCH, "scratch");

static int prb_be_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	struct prb_be *p = ring;
	struct prb_scratch *s = c->scratch;
	struct printk_record r;

	prb_rec_init_rd(&r, &s->info, s->text, sizeof(s->text));
	if (!prb_read_valid(&p->rb, c->seq, &r))
		return 0;
	c->seq = s->info.seq + 1;
	out->text = s->text;
	out->len = s->info.text_len < sizeof(s->text) ? s->info.text_len
						      : sizeof(s->text);
	out->ts = s->info.ts_nsec;
	return 1;
}

const struct bk_ops bk_prb = {
	.name = "prb",
	.what = "Linux 6.12 kernel/printk/printk_ringbuffer.c, lockless",
	.create = prb_be_create,
	.destroy = prb_be_destroy,
	.mem = prb_be_mem,
	.write = prb_be_write,
	.write_part = prb_be_write_part,
	.cursor_first = prb_be_cursor_first,
	.read = prb_be_read,
};
