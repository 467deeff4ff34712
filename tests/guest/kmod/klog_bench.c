// SPDX-License-Identifier: GPL-2.0
/*
 * klog_bench - the in-guest cost of printk() against ns_printk().
 *
 * Built against the patched kernel (tests/guest/bench.sh) and loaded only
 * in the QEMU guest, from inside a child syslog namespace.  At load time
 * it stores @count messages with printk() into the host log and @count
 * with ns_printk() into the loader's syslog namespace, @rounds times,
 * alternating, and keeps the best round of each (the guest runs under
 * software emulation: the minimum is the least disturbed).  The results
 * are read from /sys/module/klog_bench/parameters/{printk_ns,ns_printk_ns}
 * (nanoseconds per message); the module is then removed.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/syslog_namespace.h>

static unsigned int count = 20000;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "messages per round and per function");

static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds; the best one counts");

static unsigned long printk_ns;
module_param(printk_ns, ulong, 0444);
MODULE_PARM_DESC(printk_ns, "result: best ns per printk() message");

static unsigned long ns_printk_ns;
module_param(ns_printk_ns, ulong, 0444);
MODULE_PARM_DESC(ns_printk_ns, "result: best ns per ns_printk() message");

/*
 * The same text for both, 63 bytes and the newline, as kmsgbench writes;
 * KERN_DEBUG stays off the console.
 */
#define BENCH_FMT KERN_DEBUG "bench %08u: 0123456789abcdef0123456789abcdef" \
	"0123456789abcde\n"

static u64 bench_printk(void)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < count; i++)
		printk(BENCH_FMT, i);
	return ktime_get_ns() - t0;
}

static u64 bench_ns_printk(struct syslog_namespace *ns)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < count; i++)
		ns_printk(ns, BENCH_FMT, i);
	return ktime_get_ns() - t0;
}

static int __init klog_bench_init(void)
{
	struct syslog_namespace *ns = current_syslog_ns();
	u64 best_p = U64_MAX, best_n = U64_MAX, t;
	unsigned int r;

	if (ns == &init_syslog_ns || !count || !rounds)
		return -EINVAL;	/* load it from a child namespace */
	for (r = 0; r < rounds; r++) {
		t = bench_printk();
		best_p = min(best_p, t);
		t = bench_ns_printk(ns);
		best_n = min(best_n, t);
	}
	printk_ns = div_u64(best_p, count);
	ns_printk_ns = div_u64(best_n, count);
	return 0;
}

static void __exit klog_bench_exit(void)
{
}

module_init(klog_bench_init);
module_exit(klog_bench_exit);
MODULE_DESCRIPTION("printk() against ns_printk(), measured in the guest");
MODULE_LICENSE("GPL");
