/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/syslog.h - syslog(2) actions per namespace, and who may take them.
 */
#ifndef KLOG_SYSLOG_H
#define KLOG_SYSLOG_H

#include <klog/types.h>
#include <klog/ns.h>
#include <klog/printk.h>
#include <klog/format.h>

/* syslog(2) actions, as include/linux/syslog.h. */
#define KLOG_SYSLOG_ACTION_CLOSE 0
#define KLOG_SYSLOG_ACTION_OPEN 1
#define KLOG_SYSLOG_ACTION_READ 2
#define KLOG_SYSLOG_ACTION_READ_ALL 3
#define KLOG_SYSLOG_ACTION_READ_CLEAR 4
#define KLOG_SYSLOG_ACTION_CLEAR 5
#define KLOG_SYSLOG_ACTION_CONSOLE_OFF 6
#define KLOG_SYSLOG_ACTION_CONSOLE_ON 7
#define KLOG_SYSLOG_ACTION_CONSOLE_LEVEL 8
#define KLOG_SYSLOG_ACTION_SIZE_UNREAD 9
#define KLOG_SYSLOG_ACTION_SIZE_BUFFER 10

/* Where a request comes from (upstream's SYSLOG_FROM_*). */
#define KLOG_FROM_READER 0
#define KLOG_FROM_PROC 1

/* Capabilities the layer asks about (Linux numbers). */
#define KLOG_CAP_SYS_ADMIN 21
#define KLOG_CAP_SYSLOG 34

struct klog_syslog_ctx;

/**
 * struct klog_syslog_ops - what the embedder decides.
 * @capable:  does the caller hold @cap over the user namespace @owner?
 *            NULL: yes, always.
 * @security: the security module's word on action @type, asked after the
 *            capability check passed or was not needed, as upstream's
 *            security_syslog(); 0 or a negative errno.  NULL: 0.
 * @copy_to:  copy @n bytes to @off bytes into the caller's buffer @dst,
 *            the pointer given to klog_syslog() or klog_proc_kmsg_read(),
 *            which the core never dereferences when @copy_to is set (the
 *            kernel passes a kernel object that knows the user buffer).
 *            0 or -EFAULT.  NULL: @dst is memory, copied with memcpy.
 *
 * Creating a namespace is not a syslog action: the embedder calls
 * klog_ns_create() or klog_ns_init() (the kernel on
 * unshare(CLONE_NEWSYSLOG)), then klog_ns_set_tag() and klog_ns_resize()
 * for the namespace's sysctls.
 */
struct klog_syslog_ops {
	bool (*capable)(const struct klog_syslog_ctx *ctx, void *owner,
			int cap);
	int (*security)(const struct klog_syslog_ctx *ctx, int type);
	int (*copy_to)(const struct klog_syslog_ctx *ctx, void *dst,
		       size_t off, const char *src, size_t n);
};

/**
 * struct klog_syslog_ctx - who is asking.
 * @ns:       the caller's namespace.  The ctx takes no reference: the
 *            caller keeps @ns alive while it uses the ctx (klog_kmsg_open()
 *            takes one for the open file).
 * @source:   KLOG_FROM_READER (syscall) or KLOG_FROM_PROC (/proc/kmsg).
 * @nonblock: READ returns -EAGAIN instead of sleeping when nothing is
 *            unread.
 * @ops:      decisions of the embedder; NULL for all defaults.
 * @priv:     for the embedder.
 * @scratch:  KLOG_MESSAGE_MAX bytes for one record: its text is copied
 *            there under the namespace's lock and formatted in place
 *            once the lock is dropped.
 * @checked:  the embedder already ran klog_syslog_check() for this
 *            action (it needed the verdict before its own argument
 *            checks): klog_syslog() and klog_kmsg_open() do not ask the
 *            capability and security hooks a second time.
 */
struct klog_syslog_ctx {
	struct klog_ns *ns;
	int source;
	bool nonblock;
	const struct klog_syslog_ops *ops;
	void *priv;
	char *scratch;
	bool checked;
};

int klog_syslog(struct klog_syslog_ctx *ctx, int type, void *buf, int len);
int klog_syslog_check(const struct klog_syslog_ctx *ctx, int type);

#endif /* KLOG_SYSLOG_H */
