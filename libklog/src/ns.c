// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ns.c - the namespace object.
 *
 * DOC: namespace object
 *
 * A struct klog_ns is one kernel log: a ring, its cursors (the destructive
 * syslog cursor, the clear point), the continuation buffer, a wait queue,
 * settings and counters, a reference count and a parent.  The root has no
 * parent and models the host log; it owns the struct klog_config that the
 * whole tree shares unless the embedder passes its own (the kernel passes
 * its sysctls).
 *
 * Creation checks everything before it allocates, allocates the ring
 * last, and frees what it allocated on every error path, so a failed
 * create leaves nothing behind.  A child holds a reference on its parent;
 * the last klog_ns_put() destroys the namespace, calls the embedder's
 * release hook (or frees it) and drops the parent's reference.
 *
 * Locking: the invariants L1-L8 of "DOC: printk store path", field by
 * field in struct klog_ns.  Init and destroy run with no other user of
 * the object; they take the root's and the parent's lock one after the
 * other (L1), and allocate and free with no lock held (L6).
 */
#include "internal.h"
#include "klog/ns.h"

/**
 * klog_config_init() - fill a config with the defaults.
 * @cfg: the config.
 *
 * Context: any.
 */
void klog_config_init(struct klog_config *cfg)
{
	kl_memset(cfg, 0, sizeof(*cfg));
	cfg->max_size = KLOG_NS_DEFAULT_MAX_SIZE;
	cfg->default_size = KLOG_NS_DEFAULT_SIZE;
	cfg->default_level = KLOG_DEFAULT_LEVEL;
	cfg->propagate = KLOG_PROPAGATE_NONE;
	cfg->prop_burst = KLOG_PROP_BURST;
	cfg->prop_interval_ms = KLOG_PROP_INTERVAL_MS;
	cfg->devkmsg = KLOG_DEVKMSG_RATELIMIT;
	cfg->devkmsg_burst = 10;
	cfg->devkmsg_interval_ms = 5000;
	cfg->con_level = 7;
	cfg->con_saved_level = -1;
	cfg->con_min_level = 1;
	cfg->printk_time = true;
	cfg->read_commits = true;
	cfg->next_id = 1;
}

/* The characters a tag may use: a label must not look like anything else. */
static bool tag_char_ok(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
	       ch == '-';
}

/**
 * klog_ns_check_tag() - validate a tag.
 * @tag: NULL, or a NUL-terminated string.
 *
 * A tag is NULL or 1 to KLOG_TAG_MAX bytes of [A-Za-z0-9._-]: it is
 * printed inside the copy label "[ns:<id>:<tag>] ", after a namespace id
 * that the tag cannot change.  An empty string means no tag.
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int klog_ns_check_tag(const char *tag)
{
	size_t i, len;

	if (!tag)
		return 0;
	len = kl_strnlen(tag, KLOG_TAG_MAX + 1);
	if (len > KLOG_TAG_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!tag_char_ok(tag[i]))
			return -EINVAL;
	}
	return 0;
}

/**
 * klog_ns_round_size() - round a requested ring size to the size it gets.
 * @cfg:  the tree's settings.
 * @size: requested bytes; 0 means cfg->default_size.
 * @out:  the size: @size rounded up to a power of two, at least
 *        KLOG_RING_MIN.  The default is never refused: with a
 *        cfg->max_size below it, 0 gets the largest power of two that
 *        cfg->max_size allows.
 *
 * Nothing is allocated: this is the rule klog_ns_init() and
 * klog_ns_resize() apply, for an embedder that checks a size first.
 *
 * Context: any.
 * Return: 0, or -EINVAL if a requested (nonzero) @size, rounded, exceeds
 * cfg->max_size.
 */
int klog_ns_round_size(const struct klog_config *cfg, u32 size, u32 *out)
{
	u32 max = kl_read_once(cfg->max_size);
	u32 s = KLOG_RING_MIN;

	if (!size) {
		size = kl_read_once(cfg->default_size);
		if (size > max) {
			/* a lowered maximum: the largest ring it allows */
			while (s <= max / 2)
				s <<= 1;
			if (s > max)
				return -EINVAL;
			*out = s;
			return 0;
		}
	}
	if (size > max || size > KLOG_RING_LIMIT)
		return -EINVAL;
	while (s < size)
		s <<= 1;
	if (s > max)
		return -EINVAL;
	*out = s;
	return 0;
}

/**
 * klog_ns_init() - set up a namespace in caller-provided memory.
 * @ns:     zeroed memory.
 * @parent: the parent, or NULL for a root.
 * @p:      parameters.  A root's size may be 0 only if @p->ops->emit is
 *          set (its records then go elsewhere and it has no ring).
 *
 * On success @ns holds one reference and, if @parent, a reference on it.
 *
 * Context: process context (allocates, may sleep).
 * Return: 0; -EINVAL for a bad size or tag; -ENOSPC if the tree would be
 * deeper than KLOG_NS_MAX_DEPTH; -ENOMEM.  On error nothing is allocated
 * and @parent is untouched.
 */
int klog_ns_init(struct klog_ns *ns, struct klog_ns *parent,
		 const struct klog_ns_params *p)
{
	struct klog_config *cfg;
	kl_irqflags_t flags;
	u32 size = 0;
	void *buf;
	int ret;

	kl_might_sleep();
	if (parent) {
		cfg = parent->cfg;
	} else {
		cfg = p->cfg;
		if (!cfg) {
			klog_config_init(&ns->own_cfg);
			cfg = &ns->own_cfg;
		}
	}
	if (parent && parent->depth >= KLOG_NS_MAX_DEPTH)
		return -ENOSPC;
	ret = klog_ns_check_tag(p->tag);
	if (ret)
		return ret;
	if (parent || p->size || !p->ops || !p->ops->emit) {
		ret = klog_ns_round_size(cfg, p->size, &size);
		if (ret)
			return ret;
	}

	if (size) {
		buf = kl_alloc(size);
		if (!buf)
			return -ENOMEM;
		ret = klog_ring_init(&ns->ring, buf, size);
		if (kl_warn_on_once(ret)) {
			kl_free(buf);
			return ret;
		}
	}

	kl_lock_init(&ns->lock);
	kl_waitq_init(&ns->wait);
	kl_defer_init(&ns->forward, klog_ns_forward_work);
	klog_ring_cursor_first(&ns->ring, &ns->up_cur);
	kl_ref_init(&ns->ref, 1);
	ns->cfg = cfg;
	ns->ops = p->ops;
	ns->owner = p->owner;
	ns->depth = parent ? parent->depth + 1 : 0;
	ns->parent = parent ? klog_ns_get(parent) : NULL;
	ns->root = parent ? parent->root : ns;
	ns->dmesg_restrict = parent ? parent->dmesg_restrict : 0;
	if (p->tag)
		kl_memcpy(ns->tag, p->tag, kl_strnlen(p->tag, KLOG_TAG_MAX));
	ns->id = p->id;
	if (!ns->id) {
		kl_lock_irqsave(&ns->root->lock, flags);
		ns->id = cfg->next_id++;
		kl_unlock_irqrestore(&ns->root->lock, flags);
	}
	if (parent) {
		/* L1: after the root's lock, not inside it. */
		kl_lock_irqsave(&parent->lock, flags);
		parent->budget.children++;
		kl_unlock_irqrestore(&parent->lock, flags);
	}
	return 0;
}

/**
 * klog_ns_destroy() - free what klog_ns_init() allocated.
 * @ns: a namespace nobody else uses any more.
 *
 * Does not drop the parent's reference (klog_ns_put() does).  Setters
 * that may still run on @ns (an embedder's sysctl handler, until it is
 * unregistered) then fail with -ENOENT.
 *
 * Context: process context.
 */
void klog_ns_destroy(struct klog_ns *ns)
{
	kl_irqflags_t flags;

	kl_might_sleep();
	/* A late klog_ns_resize() must not install a ring nobody frees. */
	kl_lock_irqsave(&ns->lock, flags);
	ns->dead = true;				/* L2 */
	kl_unlock_irqrestore(&ns->lock, flags);
	kl_defer_sync(&ns->forward);			/* L6 */
	kl_free(ns->ring.buf);
	ns->ring.buf = NULL;
	kl_waitq_destroy(&ns->wait);
	kl_lock_destroy(&ns->lock);
}

/**
 * klog_ns_get() - take a reference.
 * @ns: a namespace the caller already holds a reference on.
 *
 * Context: any.
 * Return: @ns.
 */
struct klog_ns *klog_ns_get(struct klog_ns *ns)
{
	kl_ref_get(&ns->ref);
	return ns;
}

/**
 * klog_ns_put() - drop a reference; the last one frees the namespace.
 * @ns: the namespace, or NULL.
 *
 * Freeing walks up: a parent whose last reference was its child's is
 * freed too.
 *
 * Context: process context.  Any put may turn out to be the last (another
 * holder may drop its reference at any time), so a caller in atomic
 * context hands its reference to process context instead.
 */
void klog_ns_put(struct klog_ns *ns)
{
	kl_irqflags_t flags;

	kl_might_sleep();
	while (ns && kl_ref_put(&ns->ref)) {
		struct klog_ns *parent = ns->parent;

		if (parent) {
			kl_lock_irqsave(&parent->lock, flags);
			parent->budget.children--;		/* L2 */
			kl_unlock_irqrestore(&parent->lock, flags);
		}
		klog_ns_destroy(ns);				/* L1, L6 */
		if (ns->ops && ns->ops->release)
			ns->ops->release(ns);
		else
			kl_free(ns);
		ns = parent;
	}
}

/**
 * klog_ns_get_stats() - copy the counters.
 * @ns:  the namespace.
 * @out: the copy, with @out->held the number of records in the ring.
 *
 * Context: any that may take a spinlock.
 */
void klog_ns_get_stats(struct klog_ns *ns, struct klog_ns_stats *out)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns->lock, flags);
	*out = ns->stats;
	/* Written under the parent's lock (the copy budget's accounting). */
	out->propagated = kl_read_once(ns->stats.propagated);
	out->suppressed = klog_ns_suppressed_locked(ns);
	out->held = ns->ring.next_seq - ns->ring.first_seq;
	kl_unlock_irqrestore(&ns->lock, flags);
}

/*
 * Nothing stored yet, nothing pending: the caller holds @ns->lock.  L5:
 * only then may @tag or the ring's buffer change.
 */
static bool ns_unused_locked(const struct klog_ns *ns)
{
	return ns->ring.next_seq == 0 && !ns->cont.pending;
}

/**
 * klog_ns_set_tag() - set the tag of a namespace that has logged nothing.
 * @ns:  a child namespace.
 * @tag: NULL or "" for no tag, else as klog_ns_check_tag().
 *
 * The tag names the namespace in the labels of its copies, so it may
 * change only before the namespace's first record: afterwards a label
 * would name the same sender two ways.
 *
 * Context: any that may take a spinlock.
 * Return: 0; -EINVAL for a bad tag or a root; -EBUSY once @ns has
 * stored or is holding a record (nothing changes then); -ENOENT after
 * klog_ns_destroy().
 */
int klog_ns_set_tag(struct klog_ns *ns, const char *tag)
{
	kl_irqflags_t flags;
	size_t len;
	int ret;

	ret = klog_ns_check_tag(tag);
	if (ret)
		return ret;
	if (!ns->parent)
		return -EINVAL;
	len = tag ? kl_strnlen(tag, KLOG_TAG_MAX) : 0;
	kl_lock_irqsave(&ns->lock, flags);
	if (ns->dead) {
		ret = -ENOENT;
	} else if (ns_unused_locked(ns)) {
		kl_memset(ns->tag, 0, sizeof(ns->tag));
		if (len)
			kl_memcpy(ns->tag, tag, len);
	} else {
		ret = -EBUSY;
	}
	kl_unlock_irqrestore(&ns->lock, flags);
	return ret;
}

/**
 * klog_ns_get_tag() - copy the tag.
 * @ns:  the namespace.
 * @buf: KLOG_TAG_MAX + 1 bytes; receives the tag, "" if none.
 *
 * Context: any that may take a spinlock.
 */
void klog_ns_get_tag(struct klog_ns *ns, char *buf)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns->lock, flags);
	kl_memcpy(buf, ns->tag, KLOG_TAG_MAX + 1);
	kl_unlock_irqrestore(&ns->lock, flags);
}

/**
 * klog_ns_resize() - give a namespace that has logged nothing a new ring.
 * @ns:   a child namespace.
 * @size: requested bytes, rounded by klog_ns_round_size() (0: the default).
 *
 * The new ring replaces the old one only while @ns has stored nothing,
 * so no record, cursor or reader position is lost or moved: every
 * cursor of an unused ring is at sequence 0, index 0.
 *
 * Context: process context (allocates, may sleep).
 * Return: 0; -EINVAL for a bad size or a root; -ENOMEM; -EBUSY once @ns
 * has stored or is holding a record (the old ring stays); -ENOENT after
 * klog_ns_destroy() (nothing is installed).
 */
int klog_ns_resize(struct klog_ns *ns, u32 size)
{
	kl_irqflags_t flags;
	struct klog_ring ring;
	void *buf, *old;
	u32 rounded;
	int ret;

	kl_might_sleep();
	if (!ns->parent)
		return -EINVAL;
	ret = klog_ns_round_size(ns->cfg, size, &rounded);
	if (ret)
		return ret;
	/* Refuse a used ring before allocating; checked again below. */
	kl_lock_irqsave(&ns->lock, flags);
	ret = ns->dead ? -ENOENT : ns_unused_locked(ns) ? 0 : -EBUSY;
	kl_unlock_irqrestore(&ns->lock, flags);
	if (ret)
		return ret;
	buf = kl_alloc(rounded);			/* L6: no lock held */
	if (!buf)
		return -ENOMEM;
	ret = klog_ring_init(&ring, buf, rounded);
	if (kl_warn_on_once(ret)) {
		kl_free(buf);
		return ret;
	}
	kl_lock_irqsave(&ns->lock, flags);
	if (ns->dead) {
		old = buf;
		ret = -ENOENT;
	} else if (ns_unused_locked(ns)) {		/* L5 */
		old = ns->ring.buf;
		ns->ring = ring;
		klog_ring_cursor_first(&ns->ring, &ns->up_cur);
	} else {
		old = buf;
		ret = -EBUSY;
	}
	kl_unlock_irqrestore(&ns->lock, flags);
	kl_free(old);
	return ret;
}

/**
 * klog_ns_set_dmesg_restrict() - set this namespace's dmesg_restrict.
 * @ns:    the namespace.
 * @value: 0 or 1 (other values are clamped to 1).
 *
 * Children created later inherit the value; existing ones keep theirs.
 *
 * Context: any that may take a spinlock.
 */
void klog_ns_set_dmesg_restrict(struct klog_ns *ns, int value)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns->lock, flags);
	ns->dmesg_restrict = !!value;
	kl_unlock_irqrestore(&ns->lock, flags);
}

/**
 * klog_ns_set_copy_policy() - what @ns takes from its children, its own.
 * @ns:  the namespace (its children's copies are governed).
 * @pol: the policy; out of range is -EINVAL and changes nothing.
 *
 * From then on @ns no longer follows the tree's settings.  Only copies
 * into @ns are concerned: what @ns sends its own parent is the parent's
 * policy.
 *
 * Context: any that may take a spinlock.
 * Return: 0 or -EINVAL.
 */
int klog_ns_set_copy_policy(struct klog_ns *ns,
			    const struct klog_copy_policy *pol)
{
	kl_irqflags_t flags;

	if (pol->propagate < KLOG_PROPAGATE_NONE ||
	    pol->propagate > KLOG_PROPAGATE_ALL ||
	    pol->burst > KLOG_PROP_BURST_MAX ||
	    pol->interval_ms < KLOG_PROP_INTERVAL_MIN_MS ||
	    pol->interval_ms > KLOG_PROP_INTERVAL_MAX_MS)
		return -EINVAL;
	/* L4: written under the lock, read without it. */
	kl_lock_irqsave(&ns->lock, flags);
	ns->policy = *pol;
	ns->own_policy = true;
	kl_unlock_irqrestore(&ns->lock, flags);
	return 0;
}

/**
 * klog_ns_get_copy_policy() - the policy @ns applies to its children.
 * @ns:  the namespace.
 * @out: its own policy, or the tree's settings if it has none.
 *
 * Context: any.
 */
void klog_ns_get_copy_policy(const struct klog_ns *ns,
			     struct klog_copy_policy *out)
{
	if (ns->own_policy) {
		*out = ns->policy;
		return;
	}
	out->propagate = kl_read_once(ns->cfg->propagate);
	out->burst = kl_read_once(ns->cfg->prop_burst);
	out->interval_ms = kl_read_once(ns->cfg->prop_interval_ms);
}

/**
 * klog_ns_name() - the label used on copies: "ns:<id>" or "ns:<id>:<tag>".
 * @ns:   the namespace.
 * @buf:  output, NUL-terminated.
 * @size: its size (KLOG_LABEL_MAX holds any label with its brackets).
 *
 * The id is assigned by the embedder or the core, never by the child, so
 * a copy's origin cannot be forged with a tag such as "drm".
 *
 * Context: any.
 * Return: the length of the label (as snprintf).
 */
int klog_ns_name(const struct klog_ns *ns, char *buf, size_t size)
{
	if (ns->tag[0])
		return kl_snprintf(buf, size, "ns:%llu:%s",
				   (unsigned long long)ns->id, ns->tag);
	return kl_snprintf(buf, size, "ns:%llu", (unsigned long long)ns->id);
}

/**
 * klog_ns_copy_dict() - the dictionary a copy from @ns carries.
 * @ns:   the namespace the copy comes from.
 * @buf:  output: "SUBSYSTEM=syslog_ns\0DEVICE=+syslog_ns:<id>" (pairs
 *        separated by NUL, no final NUL), the form 6.12's /dev/kmsg
 *        prints as dictionary lines and journald turns into
 *        _KERNEL_SUBSYSTEM= and _KERNEL_DEVICE= fields.
 * @size: its size; KLOG_LABEL_DICT_MAX is enough.
 *
 * Context: any.
 * Return: the length written, 0 if @size is too small.
 */
u32 klog_ns_copy_dict(const struct klog_ns *ns, char *buf, u32 size)
{
	static const char subsys[] = "SUBSYSTEM=syslog_ns";
	int n;

	if (size < sizeof(subsys) + 1)
		return 0;
	kl_memcpy(buf, subsys, sizeof(subsys));	/* with its NUL */
	n = kl_snprintf(buf + sizeof(subsys), size - sizeof(subsys),
			"DEVICE=+syslog_ns:%llu", (unsigned long long)ns->id);
	if (n < 0 || (u32)n >= size - sizeof(subsys))
		return 0;
	return sizeof(subsys) + n;
}
