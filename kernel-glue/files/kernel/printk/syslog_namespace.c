// SPDX-License-Identifier: GPL-2.0
/*
 * syslog_namespace.c - syslog namespaces: the kernel side of libklog.
 *
 * A struct syslog_namespace embeds one libklog namespace object (struct
 * klog_ns).  The initial namespace has no ring of its own: its log is the
 * kernel's printk ringbuffer, and syslog(2), /dev/kmsg and /proc/kmsg keep
 * using upstream's code for it, so the host log is byte-for-byte stock.
 * Every other namespace has a ring kept by the libklog core, which is
 * compiled unchanged from libklog/ (see the klog_*.c wrappers).  This file
 * only decides, for each entry point, whose log it is, checks the
 * capabilities the core asks about, copies to and from user memory, and
 * moves the caller into a new namespace.
 *
 * Permissions: actions on a child's log need CAP_SYSLOG over the user
 * namespace that created it (its owner); console actions (6, 7, 8) act on
 * the global console and go through upstream's code and its
 * capable(CAP_SYSLOG).  No other CAP_SYSLOG check of the kernel changes.
 *
 * Lifetime: the libklog reference count is the namespace's.  An nsproxy,
 * an open /dev/kmsg or /proc/kmsg file and a child namespace each hold a
 * reference; the last put frees the ring, then the object after an RCU
 * grace period.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/ns_common.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/proc_ns.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/syslog.h>
#include <linux/syslog_namespace.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include <klog/klog.h>

#include "internal.h"

/**
 * struct syslog_namespace - one kernel log.
 * @klog:    the libklog namespace: ring, cursors, wait queue, settings,
 *           parent and the reference count.  First, so that the core may
 *           one day allocate the whole object itself.
 * @user_ns: the owner (the creator's user namespace), referenced.
 * @ns:      inode number (also the "[ns:<inode>]" label); the proc ns
 *           file will use the rest.
 * @ucounts: the creator's per-user count of syslog namespaces, charged
 *           against user.max_syslog_namespaces.
 * @rcu:     frees the object after lockless lookups are done with it.
 * @node:    on syslog_ns_list (RCU), for netfilter's lookup by user ns.
 * @put_work: drops a reference taken in atomic context, if it is the last.
 */
struct syslog_namespace {
	struct klog_ns klog;
	struct user_namespace *user_ns;
	struct ns_common ns;
	struct ucounts *ucounts;
	struct rcu_head rcu;
	struct list_head node;
	struct work_struct put_work;
};

/*
 * Every child namespace, newest first, for syslog_ns_net_printk().  The
 * list holds no reference: lookups take one with refcount_inc_not_zero()
 * under RCU, and a namespace leaves the list when its last reference is
 * gone.
 */
static LIST_HEAD(syslog_ns_list);
static DEFINE_SPINLOCK(syslog_ns_list_lock);

static void syslog_ns_host_emit(struct klog_ns *klog,
				const struct klog_entry *e);

static const struct klog_ns_ops syslog_ns_host_ops = {
	.emit = syslog_ns_host_emit,
};

struct syslog_namespace init_syslog_ns = {
	.user_ns = &init_user_ns,
};
EXPORT_SYMBOL_GPL(init_syslog_ns);

static inline struct syslog_namespace *to_syslog_ns(struct klog_ns *klog)
{
	return container_of(klog, struct syslog_namespace, klog);
}

/**
 * get_syslog_ns - take a reference on a syslog namespace
 * @ns: a namespace the caller already holds a reference on
 *
 * Return: @ns.
 */
struct syslog_namespace *get_syslog_ns(struct syslog_namespace *ns)
{
	klog_ns_get(&ns->klog);
	return ns;
}
EXPORT_SYMBOL_GPL(get_syslog_ns);

/**
 * put_syslog_ns - drop a reference; the last one frees the namespace
 * @ns: the namespace, or NULL
 *
 * Context: process context (the last put frees the ring).
 */
void put_syslog_ns(struct syslog_namespace *ns)
{
	might_sleep();
	if (ns)
		klog_ns_put(&ns->klog);
}
EXPORT_SYMBOL_GPL(put_syslog_ns);

/**
 * current_syslog_ns - the syslog namespace of the current task
 *
 * No reference is taken: the result stays valid until the task changes
 * its namespaces, which only the task itself can do.
 *
 * Return: the namespace.
 */
struct syslog_namespace *current_syslog_ns(void)
{
	struct nsproxy *nsproxy = current->nsproxy;

	return nsproxy ? nsproxy->syslog_ns : &init_syslog_ns;
}
EXPORT_SYMBOL_GPL(current_syslog_ns);

/* Called by the last klog_ns_put(), after the core freed the ring. */
static void syslog_ns_release(struct klog_ns *klog)
{
	struct syslog_namespace *ns = to_syslog_ns(klog);

	spin_lock(&syslog_ns_list_lock);
	list_del_rcu(&ns->node);
	spin_unlock(&syslog_ns_list_lock);
	ns_free_inum(&ns->ns);
	dec_ucount(ns->ucounts, UCOUNT_SYSLOG_NAMESPACES);
	put_user_ns(ns->user_ns);
	kfree_rcu(ns, rcu);
}

static const struct klog_ns_ops syslog_ns_child_ops = {
	.release = syslog_ns_release,
};

static __printf(3, 4) void host_store(int facility, int level,
				      const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk_store(facility, level, NULL, fmt, args);
	va_end(args);
}

/*
 * The host log's store hook: a record that a child copies up (with its
 * "[tag] " prefix) goes into the printk ringbuffer.  It runs under the
 * child's lock with interrupts off, so the consoles are left to the
 * deferred path, as for printk_deferred().
 */
static void syslog_ns_host_emit(struct klog_ns *klog,
				const struct klog_entry *e)
{
	host_store(e->facility, e->level, "%.*s%.*s\n",
		   (int)e->pre_len, e->pre ? e->pre : "",
		   (int)e->text_len, e->text ? e->text : "");
	defer_console_output();
}

/*
 * Child namespaces follow the host's printk.time, printk.devkmsg and
 * default message level, which the administrator may change at any time.
 */
static void syslog_ns_sync(void)
{
	struct klog_config *cfg = init_syslog_ns.klog.cfg;
	int devkmsg, level = default_message_loglevel;
	bool time;

	printk_syslog_ns_settings(&time, &devkmsg);
	if (READ_ONCE(cfg->printk_time) != time)
		WRITE_ONCE(cfg->printk_time, time);
	if (READ_ONCE(cfg->devkmsg) != devkmsg)
		WRITE_ONCE(cfg->devkmsg, devkmsg);
	if (READ_ONCE(cfg->default_level) != level)
		WRITE_ONCE(cfg->default_level, level);
}

/* What the core asks the kernel (struct klog_syslog_ops). */
static bool syslog_ns_capable(const struct klog_syslog_ctx *ctx, void *owner,
			      int cap)
{
	return ns_capable(owner, cap);
}

static int syslog_ns_copy_to(const struct klog_syslog_ctx *ctx, char *dst,
			     const char *src, size_t n)
{
	return copy_to_user((__force char __user *)dst, src, n) ? -EFAULT : 0;
}

static const struct klog_syslog_ops syslog_ns_ops = {
	.capable = syslog_ns_capable,
	.copy_to = syslog_ns_copy_to,
	.ns_ops = &syslog_ns_child_ops,
};

static void syslog_ns_ctx(struct klog_syslog_ctx *ctx,
			  struct syslog_namespace *ns, int source, char *scratch)
{
	*ctx = (struct klog_syslog_ctx) {
		.ns = &ns->klog,
		.user_ns = current_user_ns(),
		.source = source,
		.ops = &syslog_ns_ops,
		.scratch = scratch,
	};
}

/**
 * ns_vprintk - store a kernel message in a syslog namespace
 * @ns:   the namespace (a reference held by the caller); NULL or the
 *        initial namespace mean the host log
 * @fmt:  printf format, optionally with KERN_<LEVEL> / KERN_CONT prefixes
 * @args: its arguments
 *
 * Context: any context that may take a spinlock.  In NMI context the
 * message goes to the host log.
 * Return: the number of text bytes stored.
 */
int ns_vprintk(struct syslog_namespace *ns, const char *fmt, va_list args)
{
	if (!ns || ns == &init_syslog_ns || in_nmi())
		return vprintk(fmt, args);
	return klog_ns_vprintk(&ns->klog, fmt, args);
}
EXPORT_SYMBOL_GPL(ns_vprintk);

/**
 * ns_printk - store a kernel message in a syslog namespace
 * @ns:  the namespace, as for ns_vprintk()
 * @fmt: printf format, optionally with KERN_<LEVEL> / KERN_CONT prefixes
 *
 * Context: as ns_vprintk().
 * Return: the number of text bytes stored.
 */
int ns_printk(struct syslog_namespace *ns, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = ns_vprintk(ns, fmt, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(ns_printk);

static void syslog_ns_put_work(struct work_struct *work)
{
	put_syslog_ns(container_of(work, struct syslog_namespace, put_work));
}

/* Drop a reference in any context; a last one is dropped by a worker. */
static void syslog_ns_put_atomic(struct syslog_namespace *ns)
{
	if (!refcount_dec_not_one(&ns->klog.ref))
		schedule_work(&ns->put_work);
}

/*
 * The namespace that serves @user_ns: the newest one created in it or in
 * its nearest ancestor that has one, below the initial user namespace
 * (whose network namespaces log to the host).  Called under RCU; takes a
 * reference (@get) or only tells whether there is one.
 */
static struct syslog_namespace *
syslog_ns_of_user_ns(const struct user_namespace *user_ns, bool get)
{
	const struct user_namespace *u;
	struct syslog_namespace *ns;

	for (u = user_ns; u && u != &init_user_ns; u = u->parent) {
		list_for_each_entry_rcu(ns, &syslog_ns_list, node) {
			if (ns->user_ns != u)
				continue;
			if (get ? refcount_inc_not_zero(&ns->klog.ref) :
				  refcount_read(&ns->klog.ref))
				return ns;
		}
	}
	return NULL;
}

/**
 * syslog_ns_serves_net - does a syslog namespace serve this netns?
 * @net: the network namespace
 *
 * Return: true if syslog_ns_net_printk() would log into a child
 * namespace rather than the host log.
 */
bool syslog_ns_serves_net(const struct net *net)
{
	bool ret;

	rcu_read_lock();
	ret = syslog_ns_of_user_ns(net->user_ns, false);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(syslog_ns_serves_net);

/**
 * syslog_ns_net_printk - log a message for a network namespace
 * @net: the network namespace (netfilter's LOG target)
 * @fmt: printf format, optionally with KERN_<LEVEL> prefixes
 *
 * The message goes to the syslog namespace that serves @net's owner user
 * namespace (see syslog_ns_of_user_ns()), as a kernel-originated record
 * (copied up under the propagation policy), else to the host log.  No
 * reference is kept between the namespaces: the lookup is made per call.
 *
 * Context: any context that may take a spinlock.
 */
void syslog_ns_net_printk(const struct net *net, const char *fmt, ...)
{
	struct syslog_namespace *ns = NULL;
	va_list args;

	if (!in_nmi()) {
		rcu_read_lock();
		ns = syslog_ns_of_user_ns(net->user_ns, true);
		rcu_read_unlock();
	}
	va_start(args, fmt);
	if (ns) {
		klog_ns_vprintk(&ns->klog, fmt, args);
		syslog_ns_put_atomic(ns);
	} else {
		vprintk(fmt, args);
	}
	va_end(args);
}
EXPORT_SYMBOL_GPL(syslog_ns_net_printk);

/*
 * SYSLOG_ACTION_NEW_NS: create a child of the caller's namespace and move
 * the caller into it.  The permission check comes first, as for every
 * syslog action; every error leaves nothing behind.
 */
static int syslog_ns_create(const char __user *utag, int size)
{
	struct syslog_namespace *parent = current_syslog_ns(), *ns;
	struct user_namespace *user_ns = current_user_ns();
	struct klog_ns_params p = { };
	struct ucounts *ucounts;
	char tag[KLOG_TAG_MAX + 1];
	long n;
	int err;

	if (!ns_capable(user_ns, CAP_SYSLOG))
		return -EPERM;
	err = security_syslog(SYSLOG_ACTION_NEW_NS);
	if (err)
		return err;
	if (size < 0)
		return -EINVAL;
	if (utag) {
		n = strncpy_from_user(tag, utag, sizeof(tag));
		if (n < 0)
			return n;
		if (n == sizeof(tag))
			return -EINVAL;
		if (n)
			p.tag = tag;
	}
	err = klog_ns_check_tag(p.tag);
	if (err)
		return err;
	err = klog_ns_size(parent->klog.cfg, size, &p.size);
	if (err)
		return err;

	ucounts = inc_ucount(user_ns, current_euid(), UCOUNT_SYSLOG_NAMESPACES);
	if (!ucounts)
		return -ENOSPC;
	ns = kzalloc(sizeof(*ns), GFP_KERNEL_ACCOUNT);
	if (!ns) {
		err = -ENOMEM;
		goto out_ucounts;
	}
	ns->ucounts = ucounts;
	err = ns_alloc_inum(&ns->ns);
	if (err)
		goto out_free;

	syslog_ns_sync();
	/* The host's dmesg_restrict is the kernel's own sysctl. */
	if (parent == &init_syslog_ns)
		klog_ns_set_dmesg_restrict(&parent->klog,
					   READ_ONCE(dmesg_restrict));
	ns->user_ns = get_user_ns(user_ns);
	p.owner = user_ns;
	p.id = ns->ns.inum;
	p.ops = &syslog_ns_child_ops;
	err = klog_ns_init(&ns->klog, &parent->klog, &p);
	if (err)
		goto out_user;

	/* From here the reference count owns the namespace. */
	INIT_WORK(&ns->put_work, syslog_ns_put_work);
	spin_lock(&syslog_ns_list_lock);
	list_add_rcu(&ns->node, &syslog_ns_list);
	spin_unlock(&syslog_ns_list_lock);
	err = switch_syslog_ns(ns);
	if (err)
		put_syslog_ns(ns);
	return err;

out_user:
	put_user_ns(ns->user_ns);
	ns_free_inum(&ns->ns);
out_free:
	kfree(ns);
out_ucounts:
	dec_ucount(ucounts, UCOUNT_SYSLOG_NAMESPACES);
	return err;
}

/* do_syslog() on a child namespace. */
static int syslog_ns_do_syslog(struct syslog_namespace *ns, int type,
			       char __user *buf, int len, int source)
{
	struct klog_syslog_ctx ctx;
	char *scratch = NULL;
	int err;

	syslog_ns_sync();
	syslog_ns_ctx(&ctx, ns, source, NULL);
	err = klog_syslog_check(&ctx, type);
	if (!err)
		err = security_syslog(type);
	if (err)
		return err;

	switch (type) {
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len <= 0)
			break;	/* the core returns -EINVAL or 0 */
		if (!access_ok(buf, len))
			return -EFAULT;
		scratch = kmalloc(KLOG_MESSAGE_MAX, GFP_KERNEL);
		if (!scratch)
			return -ENOMEM;
		ctx.scratch = scratch;
		break;
	}
	err = klog_syslog(&ctx, type, (__force char *)buf, len);
	kfree(scratch);
	return err;
}

/**
 * syslog_ns_syslog - route syslog(2) by the caller's syslog namespace
 * @type: the action
 * @buf:  the user buffer (the tag for SYSLOG_ACTION_NEW_NS)
 * @len:  its length (the ring size for SYSLOG_ACTION_NEW_NS)
 * @ret:  the syscall's result, when handled here
 *
 * Return: false if upstream's do_syslog() acts (the initial namespace,
 * and console actions from anywhere), true if @ret holds the result.
 */
bool syslog_ns_syslog(int type, char __user *buf, int len, int *ret)
{
	struct syslog_namespace *ns = current_syslog_ns();

	if (type == SYSLOG_ACTION_NEW_NS) {
		*ret = syslog_ns_create(buf, len);
		return true;
	}
	if (ns == &init_syslog_ns)
		return false;
	switch (type) {
	case SYSLOG_ACTION_CONSOLE_OFF:
	case SYSLOG_ACTION_CONSOLE_ON:
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		/* The console is global: upstream's capable(CAP_SYSLOG). */
		return false;
	}
	*ret = syslog_ns_do_syslog(ns, type, buf, len, SYSLOG_FROM_READER);
	return true;
}

/* /dev/kmsg opened in a child namespace. */
struct syslog_ns_kmsg {
	struct mutex lock;	/* serialises readers, as devkmsg_user.lock */
	struct klog_kmsg kmsg;
};

static ssize_t syslog_ns_kmsg_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct syslog_ns_kmsg *f = file->private_data;
	ssize_t ret;

	ret = mutex_lock_interruptible(&f->lock);
	if (ret)
		return ret;
	ret = klog_kmsg_read(&f->kmsg, count, file->f_flags & O_NONBLOCK);
	if (ret > 0 && copy_to_user(buf, f->kmsg.outbuf, ret))
		ret = -EFAULT;
	mutex_unlock(&f->lock);
	return ret;
}

static ssize_t syslog_ns_kmsg_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct syslog_ns_kmsg *f = iocb->ki_filp->private_data;
	size_t len = iov_iter_count(from);
	ssize_t ret;
	char *buf;

	if (len > KLOG_RECORD_MAX)
		return -EINVAL;
	syslog_ns_sync();
	/* Ignored when user logging is off, as upstream. */
	if (READ_ONCE(f->kmsg.ns->cfg->devkmsg) == KLOG_DEVKMSG_OFF)
		return len;

	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (!copy_from_iter_full(buf, len, from)) {
		kfree(buf);
		return -EFAULT;
	}
	buf[len] = '\0';
	ret = klog_kmsg_write(&f->kmsg, buf, len, current->comm);
	kfree(buf);
	return ret;
}

/*
 * Seeks and polls work under the namespace lock alone, as upstream's do
 * without devkmsg_user.lock: a reader sleeping in read() does not block
 * them.
 */
static loff_t syslog_ns_kmsg_llseek(struct file *file, loff_t offset,
				    int whence)
{
	struct syslog_ns_kmsg *f = file->private_data;

	return klog_kmsg_seek(&f->kmsg, offset, whence);
}

static __poll_t syslog_ns_poll_bits(unsigned int bits)
{
	return (__force __poll_t)bits;
}

static __poll_t syslog_ns_kmsg_poll(struct file *file, poll_table *wait)
{
	struct syslog_ns_kmsg *f = file->private_data;

	poll_wait(file, &f->kmsg.ns->wait, wait);
	return syslog_ns_poll_bits(klog_kmsg_poll(&f->kmsg));
}

static int syslog_ns_kmsg_release(struct inode *inode, struct file *file)
{
	struct syslog_ns_kmsg *f = file->private_data;

	klog_kmsg_release(&f->kmsg);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

static const struct file_operations syslog_ns_kmsg_fops = {
	.read = syslog_ns_kmsg_read,
	.write_iter = syslog_ns_kmsg_write,
	.llseek = syslog_ns_kmsg_llseek,
	.poll = syslog_ns_kmsg_poll,
	.release = syslog_ns_kmsg_release,
};

/**
 * syslog_ns_devkmsg_open - bind an opening /dev/kmsg to a child namespace
 * @file: the file being opened
 * @ret:  open's result, when handled here
 *
 * In a child namespace the file gets that namespace's log (a reference is
 * held until release) and file operations of its own.  Readers need what
 * upstream asks (SYSLOG_ACTION_READ_ALL), over the namespace's owner.
 *
 * Return: false for the initial namespace (upstream's /dev/kmsg), true
 * if @ret holds the result.
 */
bool syslog_ns_devkmsg_open(struct file *file, int *ret)
{
	struct syslog_namespace *ns = current_syslog_ns();
	struct klog_syslog_ctx ctx;
	struct syslog_ns_kmsg *f;
	unsigned int mode = 0;

	if (ns == &init_syslog_ns)
		return false;

	syslog_ns_sync();
	syslog_ns_ctx(&ctx, ns, SYSLOG_FROM_READER, NULL);
	/* write-only does not need any permission, as upstream */
	if ((file->f_flags & O_ACCMODE) != O_WRONLY) {
		mode |= KLOG_KMSG_READ;
		*ret = klog_syslog_check(&ctx, SYSLOG_ACTION_READ_ALL);
		if (!*ret)
			*ret = security_syslog(SYSLOG_ACTION_READ_ALL);
		if (*ret)
			return true;
	}
	if (file->f_mode & FMODE_WRITE)
		mode |= KLOG_KMSG_WRITE;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		*ret = -ENOMEM;
		return true;
	}
	*ret = klog_kmsg_open(&f->kmsg, &ctx, mode);
	if (*ret) {
		kfree(f);
		return true;
	}
	mutex_init(&f->lock);
	file->private_data = f;
	replace_fops(file, &syslog_ns_kmsg_fops);
	return true;
}

/**
 * syslog_ns_proc_kmsg_open - bind an opening /proc/kmsg to a child namespace
 * @file: the file being opened
 * @ret:  open's result, when handled here
 *
 * Return: false for the initial namespace (upstream's /proc/kmsg), true
 * if @ret holds the result.  On success @file holds a reference.
 */
bool syslog_ns_proc_kmsg_open(struct file *file, int *ret)
{
	struct syslog_namespace *ns = current_syslog_ns();

	if (ns == &init_syslog_ns)
		return false;
	*ret = syslog_ns_do_syslog(ns, SYSLOG_ACTION_OPEN, NULL, 0,
				   SYSLOG_FROM_PROC);
	if (!*ret)
		file->private_data = get_syslog_ns(ns);
	return true;
}

/**
 * syslog_ns_proc_kmsg_bound - is this /proc/kmsg file a child's?
 * @file: an open /proc/kmsg
 *
 * Return: true if syslog_ns_proc_kmsg_open() bound it.
 */
bool syslog_ns_proc_kmsg_bound(struct file *file)
{
	return file->private_data;
}

/**
 * syslog_ns_proc_kmsg_release - close a child's /proc/kmsg
 * @file: the file
 *
 * Return: 0.
 */
int syslog_ns_proc_kmsg_release(struct file *file)
{
	struct syslog_namespace *ns = file->private_data;

	syslog_ns_do_syslog(ns, SYSLOG_ACTION_CLOSE, NULL, 0,
			    SYSLOG_FROM_PROC);
	put_syslog_ns(ns);
	return 0;
}

/**
 * syslog_ns_proc_kmsg_read - kmsg_read() on a child's /proc/kmsg
 * @file:  the file
 * @buf:   the user buffer
 * @count: its size
 *
 * Return: as upstream's kmsg_read().
 */
ssize_t syslog_ns_proc_kmsg_read(struct file *file, char __user *buf,
				 size_t count)
{
	struct syslog_namespace *ns = file->private_data;
	struct klog_syslog_ctx ctx;
	ssize_t ret;
	char *scratch;

	syslog_ns_sync();
	ret = security_syslog(SYSLOG_ACTION_READ);
	if (ret)
		return ret;
	if (count && buf && !access_ok(buf, min_t(size_t, count, INT_MAX)))
		return -EFAULT;
	scratch = kmalloc(KLOG_MESSAGE_MAX, GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	syslog_ns_ctx(&ctx, ns, SYSLOG_FROM_PROC, scratch);
	ret = klog_proc_kmsg_read(&ctx, (__force char *)buf, count,
				  file->f_flags & O_NONBLOCK);
	kfree(scratch);
	return ret;
}

/**
 * syslog_ns_proc_kmsg_poll - kmsg_poll() on a child's /proc/kmsg
 * @file: the file
 * @wait: the poll table
 *
 * Return: EPOLLIN | EPOLLRDNORM if anything is unread, else 0.
 */
__poll_t syslog_ns_proc_kmsg_poll(struct file *file,
				  struct poll_table_struct *wait)
{
	struct syslog_namespace *ns = file->private_data;
	struct klog_syslog_ctx ctx;

	poll_wait(file, &ns->klog.wait, wait);
	syslog_ns_ctx(&ctx, ns, SYSLOG_FROM_PROC, NULL);
	return syslog_ns_poll_bits(klog_proc_kmsg_poll(&ctx));
}

#ifdef CONFIG_SYSCTL
/*
 * kernel.syslog_ns_*: settings shared by the whole namespace tree (the
 * root's struct klog_config), so only the initial namespace's
 * administrator may change them, whatever uid a user namespace maps.
 */
static unsigned int syslog_ns_size_min = KLOG_RING_MIN;
static unsigned int syslog_ns_size_max = KLOG_RING_LIMIT;

static int syslog_ns_dointvec(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}

static int syslog_ns_douintvec(const struct ctl_table *table, int write,
			       void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	return proc_douintvec_minmax(table, write, buffer, lenp, ppos);
}

static struct ctl_table syslog_ns_sysctls[] = {
	{
		.procname	= "syslog_ns_propagate",
		.data		= &init_syslog_ns.klog.own_cfg.propagate,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= syslog_ns_dointvec,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_TWO,
	},
	{
		.procname	= "syslog_ns_propagate_burst",
		.data		= &init_syslog_ns.klog.own_cfg.prop_burst,
		.maxlen		= sizeof(u32),
		.mode		= 0644,
		.proc_handler	= syslog_ns_douintvec,
	},
	{
		.procname	= "syslog_ns_propagate_interval_ms",
		.data		= &init_syslog_ns.klog.own_cfg.prop_interval_ms,
		.maxlen		= sizeof(u32),
		.mode		= 0644,
		.proc_handler	= syslog_ns_douintvec,
	},
	{
		.procname	= "syslog_ns_max_size",
		.data		= &init_syslog_ns.klog.own_cfg.max_size,
		.maxlen		= sizeof(u32),
		.mode		= 0644,
		.proc_handler	= syslog_ns_douintvec,
		.extra1		= &syslog_ns_size_min,
		.extra2		= &syslog_ns_size_max,
	},
};

/**
 * syslog_ns_dmesg_restrict - kernel.dmesg_restrict in a child namespace
 * @table:  the dmesg_restrict entry (0..1)
 * @write:  as for a proc_handler
 * @buffer: as for a proc_handler
 * @lenp:   as for a proc_handler
 * @ppos:   as for a proc_handler
 * @ret:    the handler's result, when handled here
 *
 * In a child namespace the value shown and set is that namespace's own;
 * setting it needs CAP_SYS_ADMIN over the namespace's owner.
 *
 * Return: false in the initial namespace (upstream's global variable),
 * true if @ret holds the result.
 */
bool syslog_ns_dmesg_restrict(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos,
			      int *ret)
{
	struct syslog_namespace *ns = current_syslog_ns();
	struct ctl_table t;
	int val;

	if (ns == &init_syslog_ns)
		return false;
	if (write && !ns_capable(ns->user_ns, CAP_SYS_ADMIN)) {
		*ret = -EPERM;
		return true;
	}
	val = READ_ONCE(ns->klog.dmesg_restrict);
	t = *table;
	t.data = &val;
	*ret = proc_dointvec_minmax(&t, write, buffer, lenp, ppos);
	if (!*ret && write)
		klog_ns_set_dmesg_restrict(&ns->klog, val);
	return true;
}

static int __init syslog_ns_sysctl_init(void)
{
	register_sysctl_init("kernel", syslog_ns_sysctls);
	return 0;
}
late_initcall(syslog_ns_sysctl_init);
#endif /* CONFIG_SYSCTL */

/**
 * syslog_ns_init - set up the initial syslog namespace
 *
 * Called from nsproxy_cache_init(), early in start_kernel(): kernel
 * threads copy init_nsproxy (kdevtmpfs unshares its mount namespace)
 * long before the first initcall.
 */
void __init syslog_ns_init(void)
{
	struct klog_ns_params p = {
		.owner = &init_user_ns,
		.ops = &syslog_ns_host_ops,
	};

	/* The core speaks Linux's numbers. */
	BUILD_BUG_ON(KLOG_SYSLOG_ACTION_NEW_NS != SYSLOG_ACTION_NEW_NS);
	BUILD_BUG_ON(KLOG_SYSLOG_ACTION_SIZE_BUFFER !=
		     SYSLOG_ACTION_SIZE_BUFFER);
	BUILD_BUG_ON(KLOG_FROM_PROC != SYSLOG_FROM_PROC);
	BUILD_BUG_ON(KLOG_CAP_SYSLOG != CAP_SYSLOG);
	BUILD_BUG_ON(KLOG_RECORD_MAX != PRINTKRB_RECORD_MAX);
	BUILD_BUG_ON(KLOG_MESSAGE_MAX != PRINTK_MESSAGE_MAX);
	BUILD_BUG_ON(KLOG_SEEK_SET != SEEK_SET);
	BUILD_BUG_ON(KLOG_SEEK_DATA != SEEK_DATA);
	BUILD_BUG_ON(KLOG_SEEK_END != SEEK_END);
	BUILD_BUG_ON(KLOG_POLLIN != (__force unsigned int)EPOLLIN ||
		     KLOG_POLLPRI != (__force unsigned int)EPOLLPRI ||
		     KLOG_POLLERR != (__force unsigned int)EPOLLERR ||
		     KLOG_POLLRDNORM != (__force unsigned int)EPOLLRDNORM);

	/* A root with a store hook and no ring: it cannot fail. */
	WARN_ON(klog_ns_init(&init_syslog_ns.klog, NULL, &p));
}
