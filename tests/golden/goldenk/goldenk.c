// SPDX-License-Identifier: GPL-2.0
/*
 * goldenk - kernel messages on demand, for the "kernel" golden transcript
 * (tests/golden/kernel.ops, recorded by tests/golden/regenerate.sh on the
 * stock kernel with CONFIG_PRINTK_CALLER).  Only ever loaded in the QEMU
 * guest.
 *
 * Writing bytes to /sys/module/goldenk/parameters/printk makes the module
 * call printk("%s", bytes) in the writer's context: printk() reads the
 * level and KERN_CONT from the formatted text, so the bytes' own KERN_SOH
 * prefixes count, and the writer is the record's caller.  Writing to
 * .../dev_printk calls dev_info() for the module's platform device
 * "goldenk", whose records carry the dictionary SUBSYSTEM=platform and
 * DEVICE=+platform:goldenk.  The sysfs write passes the bytes up to the
 * first NUL, the newline (if any) included.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

static struct platform_device *goldenk_dev;

static int goldenk_printk(const char *val, const struct kernel_param *kp)
{
	/* no KERN_<LEVEL>: the bytes' own prefixes are the point */
	printk("%s", val);
	return 0;
}

static int goldenk_dev_printk(const char *val, const struct kernel_param *kp)
{
	dev_info(&goldenk_dev->dev, "%s", val);
	return 0;
}

static const struct kernel_param_ops printk_ops = {
	.set = goldenk_printk,
};

static const struct kernel_param_ops dev_printk_ops = {
	.set = goldenk_dev_printk,
};

module_param_cb(printk, &printk_ops, NULL, 0200);
MODULE_PARM_DESC(printk, "printk(\"%s\", the bytes written)");
module_param_cb(dev_printk, &dev_printk_ops, NULL, 0200);
MODULE_PARM_DESC(dev_printk, "dev_info() of the goldenk device");

static int __init goldenk_init(void)
{
	goldenk_dev = platform_device_register_simple("goldenk", -1, NULL, 0);
	return PTR_ERR_OR_ZERO(goldenk_dev);
}
module_init(goldenk_init);

static void __exit goldenk_exit(void)
{
	platform_device_unregister(goldenk_dev);
}
module_exit(goldenk_exit);

MODULE_DESCRIPTION("kernel messages on demand for the golden transcripts");
MODULE_LICENSE("GPL");
