/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/printk.h - the store path: storing, formatting and reading records.
 */
#ifndef KLOG_PRINTK_H
#define KLOG_PRINTK_H

#include <klog/types.h>
#include <klog/ring.h>
#include <klog/ns.h>

/*
 * Message flags for klog_ns_store() beyond the record flags.
 * KLOG_MSG_USER: the text is chosen or influenced by user space (a
 * /dev/kmsg write, a note naming a task's comm, a netfilter log prefix);
 * copied only under KLOG_PROPAGATE_ALL.
 * KLOG_MSG_LOCAL: never copied to a parent, whatever the policy.
 */
#define KLOG_MSG_USER 0x100
#define KLOG_MSG_LOCAL 0x200

/**
 * struct klog_msg - one message for klog_ns_store().
 * @facility:  syslog facility (0 = kernel).
 * @level:     0-7, or -1 for the configured default.
 * @flags:     KLOG_F_CONT, KLOG_F_NEWLINE, KLOG_F_PREFIX, KLOG_MSG_USER.
 * @caller_id: upstream-style caller id.
 * @text:      the text; a trailing newline is stripped and sets NEWLINE.
 * @text_len:  its length.
 * @dict:      NULL or KEY=value pairs separated by NUL.
 * @dict_len:  its length.
 */
struct klog_msg {
	__u8 facility;
	int level;
	__u32 flags;
	__u32 caller_id;
	const char *text;
	size_t text_len;
	const char *dict;
	size_t dict_len;
};

/**
 * struct klog_msgbuf - a record copied out of a namespace.
 * @rec:  the record; its text and dict point into @text and @dict.
 * @lost: records the cursor lost before this one.
 * @text: storage for the record's text.
 * @dict: storage for its dictionary.
 */
struct klog_msgbuf {
	struct klog_record rec;
	__u64 lost;
	char text[KLOG_RECORD_MAX];
	char dict[KLOG_DICT_MAX];
};

int klog_ns_store(struct klog_ns *ns, const struct klog_msg *m);
__u32 klog_parse_prefix(const char *text, __u32 len, int *level, __u32 *flags);

/* Built in user space only: the kernel has no caller for these. */
KLOG_PRINTF(2, 0)
int klog_ns_vprintk(struct klog_ns *ns, const char *fmt, va_list args);
KLOG_PRINTF(2, 3)
int klog_ns_printk(struct klog_ns *ns, const char *fmt, ...);
void klog_ns_flush(struct klog_ns *ns);
int klog_ns_read(struct klog_ns *ns, struct klog_cursor *c,
		 struct klog_msgbuf *out);

#endif /* KLOG_PRINTK_H */
