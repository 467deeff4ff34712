/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/format.h - the text formats of Linux 6.12's kernel log.
 */
#ifndef KLOG_FORMAT_H
#define KLOG_FORMAT_H

#include <klog/types.h>
#include <klog/ring.h>

/* Upstream's PRINTK_MESSAGE_MAX: one formatted record, either format. */
#define KLOG_MESSAGE_MAX 2048

/* Options of klog_fmt_syslog(). */
#define KLOG_FMT_PRIO 0x1	/* "<prio>" in front of every line */
#define KLOG_FMT_TIME 0x2	/* "[%5lu.%06lu]" */
#define KLOG_FMT_CALLER 0x4	/* "[T123]" / ",caller=T123" */

size_t klog_fmt_prefix(const struct klog_record *r, unsigned int opts,
		       char *buf);
size_t klog_fmt_prefix_len(const struct klog_record *r, unsigned int opts);
size_t klog_fmt_syslog(const struct klog_record *r, unsigned int opts,
		       char *buf, size_t size);
size_t klog_fmt_syslog_size(const struct klog_record *r, unsigned int opts);
size_t klog_fmt_kmsg(const struct klog_record *r, unsigned int opts,
		     char *buf, size_t size);

#endif /* KLOG_FORMAT_H */
