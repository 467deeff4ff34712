// SPDX-License-Identifier: GPL-2.0
/*
 * kleak - a planted kernel memory leak, the positive control of the
 * in-guest kmemleak checks (tests/guest/tap.sh kmemleak_control): loading
 * it allocates KLEAK_SIZE bytes starting with KLEAK_MARK and forgets the
 * only pointer, so the next kmemleak scans must report an unreferenced
 * object allocated by insmod whose hex dump shows the marker (the init
 * function's symbol is gone from the backtrace once init memory is
 * freed).  Only ever loaded in the QEMU guest.
 */
#include <linux/module.h>
#include <linux/slab.h>

#define KLEAK_SIZE 1234
#define KLEAK_MARK "KLEAK-PLANTED-LEAK-FOR-KMEMLEAK"

static void *kleak_ptr;

/*
 * KLEAK_COUNT objects: a stale copy of the last pointer (in a register
 * spilled to insmod's kernel stack) can hide one from a scan, not all.
 */
#define KLEAK_COUNT 16

static int __init kleak_init(void)
{
	int i;

	for (i = 0; i < KLEAK_COUNT; i++) {
		char *p = kmalloc(KLEAK_SIZE, GFP_KERNEL);

		if (!p)
			return i ? 0 : -ENOMEM;
		memcpy(p, KLEAK_MARK, sizeof(KLEAK_MARK));
		WRITE_ONCE(kleak_ptr, p);
		WRITE_ONCE(kleak_ptr, NULL);
	}
	return 0;
}
module_init(kleak_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("a planted leak for the kmemleak positive control");
