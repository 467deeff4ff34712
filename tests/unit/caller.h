/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * caller.h - a syslog(2) caller for the tests of the syslog and /dev/kmsg
 * layers: fake user namespaces, a klog_syslog_ctx whose ops record
 * capability checks, security (LSM) calls and copies, and the fixture
 * those tests start from.  The clock is common.h's.
 */
#ifndef KLOG_TEST_CALLER_H
#define KLOG_TEST_CALLER_H

#include "common.h"

/* Owners (user namespaces) are just distinct addresses. */
static char init_userns, child_userns;

/* ---- callers --------------------------------------------------------- */

struct tcaller {
	struct klog_syslog_ctx ctx;
	char scratch[KLOG_MESSAGE_MAX];
	void *caps[4];
	int ncaps;
	int cap_calls;
	int last_cap;
	void *last_owner;
	int sec_ret;		/* the security hook's answer */
	int sec_calls;
	int sec_type[8];	/* the actions it was asked about, in order */
	char hooks[16];		/* the hooks asked, in order: 'c' or 's' */
	int fail_copy_from;	/* 1-based copy that starts failing; 0 never */
	int copies;
};

/* Note hook @h ('c' capable, 's' security) in c->hooks. */
static inline void t_hook(struct tcaller *c, char h)
{
	size_t n = strlen(c->hooks);

	if (n < sizeof(c->hooks) - 1)
		c->hooks[n] = h;
}

static inline bool t_capable(const struct klog_syslog_ctx *ctx, void *owner,
			     int cap)
{
	struct tcaller *c = ctx->priv;
	int i;

	t_hook(c, 'c');
	c->cap_calls++;
	c->last_cap = cap;
	c->last_owner = owner;
	/* 6.12 has no CAP_SYS_ADMIN fallback: only CAP_SYSLOG counts. */
	if (cap != KLOG_CAP_SYSLOG)
		return false;
	for (i = 0; i < c->ncaps; i++)
		if (c->caps[i] == owner)
			return true;
	return false;
}

static inline int t_security(const struct klog_syslog_ctx *ctx, int type)
{
	struct tcaller *c = ctx->priv;

	t_hook(c, 's');
	if (c->sec_calls < 8)
		c->sec_type[c->sec_calls] = type;
	c->sec_calls++;
	return c->sec_ret;
}

static inline int t_copy_to(const struct klog_syslog_ctx *ctx, void *dst,
			    size_t off, const char *src, size_t n)
{
	struct tcaller *c = ctx->priv;

	c->copies++;
	if (c->fail_copy_from && c->copies >= c->fail_copy_from)
		return -EFAULT;
	memcpy((char *)dst + off, src, n);
	return 0;
}

static const struct klog_syslog_ops t_ops = {
	.capable = t_capable,
	.security = t_security,
	.copy_to = t_copy_to,
};

/* The ctx owns a reference on its namespace (caller_fini() drops it). */
static inline void caller_init(struct tcaller *c, struct klog_ns *ns)
{
	memset(c, 0, sizeof(*c));
	c->ctx.ns = klog_ns_get(ns);
	c->ctx.source = KLOG_FROM_READER;
	c->ctx.nonblock = true;
	c->ctx.ops = &t_ops;
	c->ctx.priv = c;
	c->ctx.scratch = c->scratch;
}

static inline void caller_fini(struct tcaller *c)
{
	klog_ns_put(c->ctx.ns);
	c->ctx.ns = NULL;
}

/* Forget the hooks asked so far. */
static inline void hooks_reset(struct tcaller *c)
{
	c->cap_calls = 0;
	c->sec_calls = 0;
	memset(c->sec_type, 0, sizeof(c->sec_type));
	memset(c->hooks, 0, sizeof(c->hooks));
}

static inline void grant(struct tcaller *c, void *owner)
{
	assert_true(c->ncaps < 4);
	c->caps[c->ncaps++] = owner;
}

/* A child of @parent owned by child_userns, or the test fails. */
static inline struct klog_ns *mk_user_child(struct klog_ns *parent,
					    const char *tag, u32 size)
{
	return mk_owned_child(parent, &child_userns, tag, size);
}

/* ---- formatting with no lock held ------------------------------------- */

/*
 * The readers' formatters run with no klog lock held, between a reader's
 * copy of a record and the commit of its cursor.  watch_start() installs
 * a klog_testing_set_unlocked_hook() that counts the formatter calls in
 * watch_calls, dies at once of one made under a klog lock (as the
 * built-in check does), and runs @act, if any, at the first call: there
 * a test acts while a reader formats (reads, writes or seeks itself).
 */
static unsigned int watch_calls;
static void (*watch_act)(void);

static inline void watch_hook(const char *func, unsigned int held)
{
	void (*act)(void) = watch_act;

	if (held) {
		fprintf(stderr, "%s formats under a klog lock\n", func);
		abort();
	}
	watch_calls++;
	if (act) {
		watch_act = NULL;
		act();
	}
}

static inline void watch_start(void (*act)(void))
{
	watch_calls = 0;
	watch_act = act;
	klog_testing_set_unlocked_hook(watch_hook);
}

static inline void watch_stop(void)
{
	klog_testing_set_unlocked_hook(NULL);
	watch_act = NULL;
}

/* ---- the fixture ------------------------------------------------------ */

/*
 * The fake clock at 1 s, no injected failure, @root (16 KiB, owned by
 * init_userns) with its own settings @cfg, copies from its children as
 * @propagate says, and @me, a caller in @root with CAP_SYSLOG over
 * init_userns.
 */
static struct klog_config cfg;
static struct klog_ns *root;
static struct tcaller me;

static inline int caller_fixture_setup(int propagate)
{
	struct klog_ns_params p = {
		.size = 16384, .owner = &init_userns, .cfg = &cfg,
	};

	common_setup(NULL);
	klog_config_init(&cfg);
	cfg.propagate = propagate;
	root = NULL;
	if (klog_ns_create(NULL, &p, &root))
		return -1;
	caller_init(&me, root);
	grant(&me, &init_userns);
	return 0;
}

static inline void caller_fixture_teardown(void)
{
	caller_fini(&me);
	klog_ns_put(root);
	root = NULL;
	common_teardown(NULL);
}

#endif /* KLOG_TEST_CALLER_H */
