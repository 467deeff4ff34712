// SPDX-License-Identifier: GPL-2.0
/*
 * printkbench - the cost of one printk() of a 64-byte message, measured in
 * the kernel: loading it with count=N calls printk(KERN_INFO ...) N times
 * from the module's init function (process context, insmod's) and leaves
 * the nanoseconds per call in /sys/module/printkbench/parameters/ns.
 * The host-cost benchmark (tests/guest/hostcost.sh) loads it in the QEMU
 * guest of the stock and of the patched kernel, booted alternately, and
 * compares.  Only ever loaded in the QEMU guest.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/timekeeping.h>

static int count = 10000;
module_param(count, int, 0444);
MODULE_PARM_DESC(count, "how many printk() calls to time");

static unsigned long ns;
module_param(ns, ulong, 0444);
MODULE_PARM_DESC(ns, "result: nanoseconds per printk() call");

static int __init printkbench_init(void)
{
	u64 t0, t;
	int i;

	if (count <= 0)
		return -EINVAL;
	t0 = ktime_get_ns();
	for (i = 0; i < count; i++)
		/* 63 bytes and the newline, as tests/guest/kmsgbench.c */
		pr_info("bench %08d: 0123456789abcdef0123456789abcdef0123456789abcde\n",
			i);
	t = ktime_get_ns() - t0;
	ns = (unsigned long)div_u64(t, count);
	return 0;
}
module_init(printkbench_init);

static void __exit printkbench_exit(void)
{
}
module_exit(printkbench_exit);

MODULE_DESCRIPTION("printk() cost, for the host-cost benchmark");
MODULE_LICENSE("GPL");
