/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/ns.h - the namespace object: creation, settings, references.
 */
#ifndef KLOG_NS_H
#define KLOG_NS_H

#include <klog/types.h>
#include <klog/ring.h>

/* Defaults: ring sizes, depth, tags, levels and the copy budget. */
#define KLOG_NS_DEFAULT_SIZE (64u * 1024)
#define KLOG_NS_DEFAULT_MAX_SIZE (1024u * 1024)
#define KLOG_NS_MAX_DEPTH 32
#define KLOG_TAG_MAX 31
#define KLOG_DEFAULT_LEVEL 4
#define KLOG_PROP_BURST 10
#define KLOG_PROP_INTERVAL_MS 5000
/* Bounds of the copy budget's settings (the sysctls use the same). */
#define KLOG_PROP_BURST_MAX 10000
#define KLOG_PROP_INTERVAL_MIN_MS 10
#define KLOG_PROP_INTERVAL_MAX_MS 3600000
/* Longest copy dictionary, see klog_ns_copy_dict(). */
#define KLOG_LABEL_DICT_MAX 64
/* The most severe level a copy of user-influenced text keeps (notice). */
#define KLOG_USER_COPY_LEVEL 5
/* The facility every copy of user-influenced text has (LOG_USER). */
#define KLOG_USER_COPY_FACILITY 1

/*
 * Propagation policies (kernel.syslog_ns_propagate).  The default is
 * KLOG_PROPAGATE_NONE: nothing a child stores reaches its parent unless
 * the parent's administrator asks for copies.
 */
enum klog_propagate {
	KLOG_PROPAGATE_NONE = 0,
	KLOG_PROPAGATE_KERNEL = 1,
	KLOG_PROPAGATE_ALL = 2,
};

/* /dev/kmsg write modes (printk.devkmsg), as upstream's DEVKMSG_LOG_MASK. */
enum klog_devkmsg {
	KLOG_DEVKMSG_RATELIMIT = 0,
	KLOG_DEVKMSG_ON = 1,
	KLOG_DEVKMSG_OFF = 2,
};

/**
 * struct klog_config - settings shared by a whole namespace tree.
 * @max_size:            largest ring a child may ask for.
 * @default_size:        ring size for a request of 0.
 * @default_level:       level of messages without a level prefix.
 * @propagate:           enum klog_propagate; default KLOG_PROPAGATE_NONE.
 * @prop_burst:          copies per window that all children of one
 *                       parent may send it together (0..KLOG_PROP_BURST_MAX).
 * @prop_interval_ms:    the window (KLOG_PROP_INTERVAL_MIN_MS..
 *                       KLOG_PROP_INTERVAL_MAX_MS; values outside are
 *                       clamped, never "unlimited").
 * @devkmsg:             enum klog_devkmsg.
 * @devkmsg_burst:       /dev/kmsg writes per interval and namespace.
 * @devkmsg_interval_ms: their window.
 * @con_level:    the (global) console level, syslog actions 6-8.
 * @con_saved_level: level saved by CONSOLE_OFF, -1 if none.
 * @con_min_level: floor for CONSOLE_LEVEL.
 * @printk_time:         whether syslog text carries timestamps.
 * @printk_caller:       records are formatted with their caller id, as
 *                       CONFIG_PRINTK_CALLER does ("[T123]" in syslog
 *                       text, ",caller=T123" in /dev/kmsg); default false.
 * @read_commits:        readers commit a pending continuation line before
 *                       reading, and a line more than 80% full is
 *                       committed at once (the default).
 *                       False gives 6.12's behaviour exactly: the line
 *                       stays invisible until the next store (used by the
 *                       golden tests).
 * @announce:            a child's log begins with a record that names it
 *                       (its id, tag, depth and ring size), stored just
 *                       before its first record, as the host's begins
 *                       with the kernel banner: a child's first record
 *                       of its own then has sequence number 1, never 0;
 *                       default false.
 * @next_id:             next automatic namespace id.
 *
 * Locking: plain integers written by the administrator (sysctl) and read
 * without locks (L4, "DOC: printk store path"); @next_id is written
 * under the root's lock.
 */
struct klog_config {
	__u32 max_size;
	__u32 default_size;
	int default_level;
	int propagate;
	__u32 prop_burst;
	__u32 prop_interval_ms;
	int devkmsg;
	__u32 devkmsg_burst;
	__u32 devkmsg_interval_ms;
	int con_level;
	int con_saved_level;
	int con_min_level;
	bool printk_time;
	bool printk_caller;
	bool read_commits;
	bool announce;
	__u64 next_id;
};

/**
 * struct klog_ratelimit - the state of one ratelimit window.
 * @begin_ns: start of the current window.
 * @printed:  events allowed in it.
 * @missed:   events refused in it.
 * @started:  @begin_ns is valid.
 */
struct klog_ratelimit {
	__u64 begin_ns;
	__u32 printed;
	__u32 missed;
	bool started;
};

/**
 * struct klog_budget - the copies that all children of a namespace may
 * send it in one window.
 * @begin_ns: start of the current window (kl_coarse_ns() clock).
 * @epoch:    window number; a child's share restarts when it changes.
 * @used:     copies (and suppression notes) taken in the window.
 * @children: live children, for the fair share.
 * @burst:    the (clamped) burst the window was opened with.
 * @interval_ms: the (clamped) interval it was opened with; a window
 *            opened under other settings ends at once, so a new setting
 *            applies to the next copy.
 * @started:  @begin_ns is valid.
 *
 * Locking: the owner's lock (L2, "DOC: printk store path").
 */
struct klog_budget {
	__u64 begin_ns;
	__u64 epoch;
	__u32 used;
	__u32 children;
	__u32 burst;
	__u32 interval_ms;
	bool started;
};

/**
 * struct klog_copy_policy - what a namespace takes from its children.
 * @propagate:   enum klog_propagate: which of its children's records it
 *               receives as copies.
 * @burst:       lines (copies and notes) per window from all of its
 *               children together, 0..KLOG_PROP_BURST_MAX.
 * @interval_ms: the window, KLOG_PROP_INTERVAL_MIN_MS..
 *               KLOG_PROP_INTERVAL_MAX_MS.
 *
 * A namespace without a policy of its own follows the tree's settings
 * (struct klog_config: propagate, prop_burst, prop_interval_ms).
 */
struct klog_copy_policy {
	int propagate;
	__u32 burst;
	__u32 interval_ms;
};

/**
 * struct klog_ns_stats - counters of one namespace.
 * @stored:            records stored in this namespace's ring.
 * @dropped_overwrite: records the ring dropped to make room for new ones.
 * @dropped_ratelimit: /dev/kmsg writes refused by the write ratelimit.
 * @propagated:        copies sent to the parent.
 * @suppressed:        copies refused by the parent's copy budget.
 * @held:              records in the ring now (filled in by
 *                     klog_ns_get_stats() only).
 */
struct klog_ns_stats {
	__u64 stored;
	__u64 dropped_overwrite;
	__u64 dropped_ratelimit;
	__u64 propagated;
	__u64 suppressed;
	__u64 held;
};

/**
 * struct klog_cont - the continuation-line buffer of a namespace.
 * @buf:      pending text (and scratch space for formatting behind it).
 * @len:      pending bytes.
 * @pending:  a line is pending (possibly an empty one).
 * @caller_id: who owns the pending line.
 * @ts_nsec:  time of its first fragment.
 * @facility: of its first fragment.
 * @level:    of its first fragment.
 * @flags:    of its first fragment (KLOG_F_*).
 * @user:     it came from user space (KLOG_MSG_USER).
 * @local:    it must not be copied (KLOG_MSG_LOCAL).
 */
struct klog_cont {
	__u32 len;
	bool pending;
	__u32 caller_id;
	__u64 ts_nsec;
	__u8 facility;
	__u8 level;
	__u8 flags;
	bool user;
	bool local;
	char buf[KLOG_RECORD_MAX + 1];	/* last: the fields above stay hot */
};

struct klog_ns;

/**
 * struct klog_ns_ops - hooks of the embedding code.
 * @release: called by the last klog_ns_put() after klog_ns_destroy();
 *           frees the object.  NULL: kl_free() it.
 * @emit:    root only: store a record somewhere else instead of the ring
 *           (the kernel's own printk ring for the host).  The text is
 *           @e->pre then @e->text.
 */
struct klog_ns_ops {
	void (*release)(struct klog_ns *ns);
	void (*emit)(struct klog_ns *ns, const struct klog_entry *e);
};

/**
 * struct klog_ns_params - how to create a namespace.
 * @size:  ring bytes; 0 for the default (at most the config's max_size);
 *         rounded up to a power of two and to KLOG_RING_MIN; more than
 *         the config's max_size is -EINVAL.
 * @tag:   NULL, or up to KLOG_TAG_MAX bytes of [A-Za-z0-9._-],
 *         NUL-terminated (klog_ns_check_tag()).
 * @id:    identifier for "[ns:<id>] "; 0 picks the next automatic one.
 * @owner: opaque owner (the kernel's user namespace), for permissions.
 * @cfg:   root only: shared settings; NULL uses the root's own defaults.
 * @ops:   hooks, or NULL.
 */
struct klog_ns_params {
	__u32 size;
	const char *tag;
	__u64 id;
	void *owner;
	struct klog_config *cfg;
	const struct klog_ns_ops *ops;
};

/**
 * struct klog_ns - one kernel log.
 * @lock:           protects what the Locking paragraph below lists.
 * @ring:           the records.
 * @up_cur:         the next record to offer the parent.
 * @up_busy:        a forwarder runs.
 * @up_skipped:     records passed over since the parent's budget refused
 *                  this namespace, not yet in @copy_missed (saturates).
 * @up_refused_until: the kl_coarse_ns() time at which the parent's budget
 *                  window that refused this namespace ends; 0 if none.
 * @up_refused_burst: the parent's burst when it refused this namespace.
 * @up_refused_ms:  The parent's interval then.  The refusal ends early if
 *                  either differs from the parent's policy now.
 * @up_passed:      records passed over while refused, ever: a part of
 *                  the suppressed count klog_ns_get_stats() reports.
 * @syslog_cur:     the reading cursor of syslog(2) actions 2 and 9 and of
 *                  /proc/kmsg.
 * @syslog_partial: bytes of the record at @syslog_cur already read.
 * @syslog_time:    printk_time for that record, fixed when it was begun.
 * @clear_cur:      where actions 3 and 4 start (moved by 4 and 5).
 * @wait:           blocked readers.
 * @ref:            references; the last klog_ns_put() frees.
 * @parent:         the namespace copies go to; NULL for a root.
 * @root:           the tree's root (its config is the tree's).
 * @cfg:            the tree's settings (@root's @own_cfg or the caller's).
 * @ops:            the embedding code's hooks, or NULL.
 * @owner:          opaque owner for permission checks.
 * @priv:           the embedding code's pointer.
 * @id:             the "[ns:<id>]" label's id.
 * @depth:          depth in the tree: 0 for a root, at most
 *                  KLOG_NS_MAX_DEPTH.
 * @dmesg_restrict: this namespace's dmesg_restrict.
 * @tag:            the label's tag, or "".
 * @budget:         the copies this namespace's children may send it.
 * @own_policy:     @policy applies instead of @cfg's.
 * @dead:           klog_ns_destroy() ran.
 * @policy:         what this namespace takes from its children.
 * @copy_epoch:     the parent-budget window this namespace last used.
 * @copy_used:      copies it sent the parent in that window.
 * @copy_missed:    copies refused since its last suppression note.
 * @kmsg_rl:        the /dev/kmsg write ratelimit.
 * @stats:          counters (klog_ns_get_stats()).
 * @cont:           the continuation-line buffer.
 * @own_cfg:        a root's settings when the caller gave none.
 * @forward:        the forwarder (printk.c).
 *
 * Locking, by the invariants L1-L8 of "DOC: printk store path": @lock
 * protects @ring, @cont, every cursor, @stats, the ratelimit states,
 * @budget (the copies this namespace's children may send it),
 * @dmesg_restrict writes, @dead, @up_cur (the next record to offer the
 * parent), @up_busy (a forwarder runs) and what this namespace knows
 * of its parent's refusal (the up_refused_* fields, @up_skipped and
 * @up_passed) (L2).  @copy_epoch, @copy_used
 * and @copy_missed (this namespace's use of its parent's budget) and the
 * copy counters of @stats are written under the *parent's* lock and read
 * once without it (L3).
 * @own_policy and @policy are written under @lock and read without it,
 * like the settings of struct klog_config (L4).  No code holds two
 * namespaces' locks at once (L1).  @forward is the forwarder (printk.c,
 * L8).  @ref, @parent, @root, @cfg, @ops, @id, @depth and @owner are set
 * at init and then read-only.  @tag and the ring's buffer change only
 * under @lock while nothing is stored (klog_ns_set_tag(),
 * klog_ns_resize()); the store path reads them under @lock, and
 * everything else reads @tag once a record exists (klog_ns_get_tag() at
 * any time) (L5).
 *
 * Layout: what every store touches (@lock, @ring, @wait, @cfg, @parent,
 * @stats, the head of @cont) comes first and close together; @cont's
 * 1 KiB text buffer and @own_cfg come last, so that a store into one of
 * many namespaces touches few cache lines.
 */
struct klog_ns {
	klog_lock_t lock;
	struct klog_ring ring;
	struct klog_cursor up_cur;
	bool up_busy;
	__u32 up_skipped;
	__u64 up_refused_until;
	__u32 up_refused_burst;
	__u32 up_refused_ms;
	__u64 up_passed;
	struct klog_cursor syslog_cur;
	__u32 syslog_partial;
	bool syslog_time;
	struct klog_cursor clear_cur;
	klog_waitq_t wait;
	klog_ref_t ref;
	struct klog_ns *parent;
	struct klog_ns *root;
	struct klog_config *cfg;
	const struct klog_ns_ops *ops;
	void *owner;
	void *priv;
	__u64 id;
	__u32 depth;
	int dmesg_restrict;
	char tag[KLOG_TAG_MAX + 1];
	struct klog_budget budget;
	bool own_policy;
	bool dead;
	struct klog_copy_policy policy;
	__u64 copy_epoch;
	__u32 copy_used;
	__u32 copy_missed;
	struct klog_ratelimit kmsg_rl;
	struct klog_ns_stats stats;
	struct klog_cont cont;
	struct klog_config own_cfg;
	klog_defer_t forward;
};

void klog_config_init(struct klog_config *cfg);
int klog_ns_check_tag(const char *tag);
int klog_ns_round_size(const struct klog_config *cfg, __u32 size, __u32 *out);
int klog_ns_set_tag(struct klog_ns *ns, const char *tag);
void klog_ns_get_tag(struct klog_ns *ns, char *buf);
int klog_ns_resize(struct klog_ns *ns, __u32 size);
int klog_ns_init(struct klog_ns *ns, struct klog_ns *parent,
		 const struct klog_ns_params *p);
void klog_ns_destroy(struct klog_ns *ns);
struct klog_ns *klog_ns_get(struct klog_ns *ns);
void klog_ns_put(struct klog_ns *ns);
void klog_ns_get_stats(struct klog_ns *ns, struct klog_ns_stats *out);
void klog_ns_set_dmesg_restrict(struct klog_ns *ns, int value);
int klog_ns_name(const struct klog_ns *ns, char *buf, size_t size);
__u32 klog_ns_copy_dict(const struct klog_ns *ns, char *buf, __u32 size);
int klog_ns_set_copy_policy(struct klog_ns *ns,
			    const struct klog_copy_policy *pol);
void klog_ns_get_copy_policy(const struct klog_ns *ns,
			     struct klog_copy_policy *out);

/* Built in user space only: the kernel has no caller for these. */
int klog_ns_create(struct klog_ns *parent, const struct klog_ns_params *p,
		   struct klog_ns **out);

#endif /* KLOG_NS_H */
