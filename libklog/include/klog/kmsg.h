/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/kmsg.h - /dev/kmsg and /proc/kmsg per namespace.
 */
#ifndef KLOG_KMSG_H
#define KLOG_KMSG_H

#include <klog/types.h>
#include <klog/ring.h>
#include <klog/format.h>
#include <klog/syslog.h>

/**
 * struct klog_kmsg - one open /dev/kmsg file.
 * @ns:     the namespace bound at open (a reference is held).
 * @cur:    this reader's position.
 * @outbuf: the last record formatted by klog_kmsg_read().
 * @raw:    that record's text and dictionary, copied out of the ring by
 *          klog_kmsg_read() so that it formats with no lock held.
 *
 * About 4 KiB (4120 bytes on 64-bit machines): two buffers of 2 KiB
 * (KLOG_MESSAGE_MAX, KLOG_COPY_MAX), the reference and the cursor.
 */
struct klog_kmsg {
	struct klog_ns *ns;
	struct klog_cursor cur;
	char outbuf[KLOG_MESSAGE_MAX];
	char raw[KLOG_COPY_MAX];
};

/* Access modes of klog_kmsg_open(). */
#define KLOG_KMSG_READ 0x1
#define KLOG_KMSG_WRITE 0x2

/* Seek origins of klog_kmsg_seek() (Linux values). */
#define KLOG_SEEK_SET 0
#define KLOG_SEEK_CUR 1
#define KLOG_SEEK_END 2
#define KLOG_SEEK_DATA 3

/* Poll bits of klog_kmsg_poll() (Linux values). */
#define KLOG_POLLIN 0x001
#define KLOG_POLLPRI 0x002
#define KLOG_POLLERR 0x008
#define KLOG_POLLRDNORM 0x040

int klog_kmsg_open(struct klog_kmsg *f, const struct klog_syslog_ctx *ctx,
		   unsigned int mode);
ssize_t klog_kmsg_read(struct klog_kmsg *f, size_t count, bool nonblock);
ssize_t klog_kmsg_write(struct klog_kmsg *f, const char *buf, size_t len,
			const char *comm);
__s64 klog_kmsg_seek(struct klog_kmsg *f, __s64 offset, int whence);
unsigned int klog_kmsg_poll(struct klog_kmsg *f);
void klog_kmsg_release(struct klog_kmsg *f);

ssize_t klog_proc_kmsg_read(struct klog_syslog_ctx *ctx, void *buf,
			    size_t count, bool nonblock);
unsigned int klog_proc_kmsg_poll(struct klog_syslog_ctx *ctx);

/* Built in user space only: the kernel has no caller for these. */
int klog_proc_kmsg_open(struct klog_syslog_ctx *ctx);
void klog_proc_kmsg_release(struct klog_syslog_ctx *ctx);

#endif /* KLOG_KMSG_H */
