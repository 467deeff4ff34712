/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * internal.h - what the core files share with each other and nobody else.
 *
 * The core's private header, as kernel/printk/internal.h is printk's:
 * never installed, never included by an embedder.  Every core file
 * includes it first, then the public header of its own layer (ring.c
 * <klog/ring.h>, printk.c <klog/printk.h>, ...).  It brings the platform
 * seam (platform.h) and declares the calls that cross core files but are
 * no part of the library's API.
 */
#ifndef KLOG_INTERNAL_H
#define KLOG_INTERNAL_H

#include "platform/platform.h"

struct klog_msg;
struct klog_ns;
struct klog_ratelimit;

/* Longest copy label: "[ns:" u64 ":" tag "] ". */
#define KLOG_LABEL_MAX (4 + 20 + 1 + KLOG_TAG_MAX + 2)
/* Records a forwarder handles per run before it queues itself again. */
#define KLOG_FORWARD_BATCH 16

/*
 * A namespace's invariants (R1-R8), for tests and debugging: built in
 * user space only, with the library's user-space calls.
 */
int klog_ns_check_locked(const struct klog_ns *ns);

/*
 * printk.c: the store path's steps, for ns.c, syslog.c and kmsg.c and the
 * user-space calls.
 */
void klog_ns_store_msg(struct klog_ns *ns, struct klog_msg *m, char *scratch);
bool klog_ns_reader_commit_locked(struct klog_ns *ns);
bool klog_ns_flush_locked(struct klog_ns *ns);
void klog_ns_copy_up(struct klog_ns *ns);
u64 klog_ns_suppressed_locked(struct klog_ns *ns);
void klog_ns_forward_work(kl_defer_t *work);
void klog_ns_wake(struct klog_ns *ns);
bool klog_ratelimit_check(struct klog_ratelimit *rl, u64 now, u32 burst,
			  u32 interval_ms, u32 *missed);

#endif /* KLOG_INTERNAL_H */
