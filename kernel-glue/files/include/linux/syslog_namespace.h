/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syslog namespaces: a kernel log per namespace.
 *
 * A task's syslog namespace lives in its nsproxy and is inherited by
 * fork and clone.  The initial namespace's log is the kernel's own printk
 * ringbuffer; every other namespace has a ring of its own, kept by the
 * libklog core (kernel/printk/libklog/).  syslog(2), /dev/kmsg and
 * /proc/kmsg act on the caller's (or the opener's) namespace.
 */
#ifndef _LINUX_SYSLOG_NAMESPACE_H
#define _LINUX_SYSLOG_NAMESPACE_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/printk.h>
#include <linux/stdarg.h>
#include <linux/types.h>

struct ctl_table;
struct file;
struct net;
struct poll_table_struct;
struct syslog_namespace;

#ifdef CONFIG_SYSLOG_NS

extern struct syslog_namespace init_syslog_ns;

/* kernel/nsproxy.c: before the first nsproxy copy (kdevtmpfs unshares). */
void __init syslog_ns_init(void);

struct syslog_namespace *get_syslog_ns(struct syslog_namespace *ns);
void put_syslog_ns(struct syslog_namespace *ns);
struct syslog_namespace *current_syslog_ns(void);

/* kernel/nsproxy.c: move current into @ns, consuming a reference. */
int switch_syslog_ns(struct syslog_namespace *ns);

__printf(2, 0)
int ns_vprintk(struct syslog_namespace *ns, const char *fmt, va_list args);
__printf(2, 3)
int ns_printk(struct syslog_namespace *ns, const char *fmt, ...);

/* netfilter's LOG target: the namespace serving a netns's owner user ns. */
bool syslog_ns_serves_net(const struct net *net);
__printf(2, 3)
void syslog_ns_net_printk(const struct net *net, const char *fmt, ...);

/* kernel.dmesg_restrict shows and sets the reader's namespace's value. */
bool syslog_ns_dmesg_restrict(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos,
			      int *ret);

/* Hooks of the syslog(2), /dev/kmsg and /proc/kmsg entry points. */
bool syslog_ns_syslog(int type, char __user *buf, int len, int *ret);
bool syslog_ns_devkmsg_open(struct file *file, int *ret);
bool syslog_ns_proc_kmsg_open(struct file *file, int *ret);
bool syslog_ns_proc_kmsg_bound(struct file *file);
int syslog_ns_proc_kmsg_release(struct file *file);
ssize_t syslog_ns_proc_kmsg_read(struct file *file, char __user *buf,
				 size_t count);
__poll_t syslog_ns_proc_kmsg_poll(struct file *file,
				  struct poll_table_struct *wait);

#else /* !CONFIG_SYSLOG_NS */

static inline void syslog_ns_init(void)
{
}

static inline __printf(2, 0)
int ns_vprintk(struct syslog_namespace *ns, const char *fmt, va_list args)
{
	return vprintk(fmt, args);
}

static inline __printf(2, 3)
int ns_printk(struct syslog_namespace *ns, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vprintk(fmt, args);
	va_end(args);
	return ret;
}

static inline bool syslog_ns_serves_net(const struct net *net)
{
	return false;
}

static inline __printf(2, 3)
void syslog_ns_net_printk(const struct net *net, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

static inline bool syslog_ns_dmesg_restrict(const struct ctl_table *table,
					    int write, void *buffer,
					    size_t *lenp, loff_t *ppos,
					    int *ret)
{
	return false;
}

static inline bool syslog_ns_syslog(int type, char __user *buf, int len,
				    int *ret)
{
	return false;
}

static inline bool syslog_ns_devkmsg_open(struct file *file, int *ret)
{
	return false;
}

static inline bool syslog_ns_proc_kmsg_open(struct file *file, int *ret)
{
	return false;
}

static inline bool syslog_ns_proc_kmsg_bound(struct file *file)
{
	return false;
}

static inline int syslog_ns_proc_kmsg_release(struct file *file)
{
	return 0;
}

static inline ssize_t syslog_ns_proc_kmsg_read(struct file *file,
					       char __user *buf, size_t count)
{
	return -EINVAL;
}

static inline __poll_t syslog_ns_proc_kmsg_poll(struct file *file,
						struct poll_table_struct *wait)
{
	return 0;
}

#endif /* CONFIG_SYSLOG_NS */

#endif /* _LINUX_SYSLOG_NAMESPACE_H */
