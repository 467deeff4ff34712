// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_null.c - the harness alone as a kbench backend: a write that does
 * nothing, so that the harness's own cost per record (loop, call through
 * a pointer), included in every number, can be read off.
 */
#include <stdlib.h>

#include "bench.h"

static void *null_create(uint32_t size)
{
	uint32_t *p = bk_zalloc(sizeof(*p));

	if (p)
		*p = size;
	return p;
}

static size_t null_mem(void *ring)
{
	return *(uint32_t *)ring;
}

static int null_write(void *ring, const struct bk_msg *m)
{
	__asm__ __volatile__("" : : "r"(ring), "r"(m) : "memory");
	return 0;
}

static void null_cursor_first(void *ring, struct bk_cursor *c)
{
	(void)ring;
	c->seq = 0;
}

static int null_read(void *ring, struct bk_cursor *c, struct bk_rec *r)
{
	(void)ring;
	(void)c;
	(void)r;
	return 0;
}

const struct bk_ops bk_null = {
	.name = "null",
	.what = "a write that does nothing: the harness's own cost per record "
		"(loop, call through a pointer), included in every number",
	.create = null_create,
	.destroy = free,
	.mem = null_mem,
	.write = null_write,
	.cursor_first = null_cursor_first,
	.read = null_read,
};
