// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_syslog.c - the syslog(2) action layer (klog_syslog()).
 *
 * Expected bytes and errno values are those of Linux 6.12's do_syslog(),
 * syslog_print() and syslog_print_all() (kernel/printk/printk.c), acting
 * on one namespace.  Callers are klog_syslog_ctx values whose capability
 * callback grants CAP_SYSLOG over an explicit list of owners, so every
 * permission decision is under the test's control.  Time is a fake clock:
 * a record printed at second N shows "[    N.000000]".
 */
#include <pthread.h>
#include <time.h>

#include "caller.h"

/* ---- fixture ----------------------------------------------------------- */

static char out[16384];

/*
 * caller.h's fixture; copies are off by default, the host here wants
 * kernel ones.
 */
static int setup(void **state)
{
	(void)state;
	return caller_fixture_setup(KLOG_PROPAGATE_KERNEL);
}

static int teardown(void **state)
{
	(void)state;
	caller_fixture_teardown();
	return 0;
}

static int sys(struct tcaller *c, int type, int len)
{
	return klog_syslog(&c->ctx, type, out, len);
}

static void expect_out(int n, const char *want)
{
	assert_true(n >= 0 && (size_t)n < sizeof(out));
	out[n] = '\0';
	assert_string_equal(out, want);
	assert_int_equal(n, (int)strlen(want));
}

/* Three records of 24 bytes each in syslog format with time. */
#define HELLO "<6>[    1.000000] hello\n"
#define WORLD "<6>[    2.000000] world\n"
#define AGAIN "<6>[    3.000000] again\n"

static void log_three(struct klog_ns *ns, int n)
{
	clock_set_sec(1);
	klog_ns_printk(ns, "\0016hello\n");
	if (n < 2)
		return;
	clock_set_sec(2);
	klog_ns_printk(ns, "\0016world\n");
	if (n < 3)
		return;
	clock_set_sec(3);
	klog_ns_printk(ns, "\0016again\n");
}

/* ---- permissions ------------------------------------------------------- */

static void perm_checked_before_arguments(void **state)
{
	struct tcaller u;

	(void)state;
	caller_init(&u, root);
	assert_int_equal(klog_syslog(&u.ctx, KLOG_SYSLOG_ACTION_READ, out, -1),
			 -EPERM);
	assert_int_equal(klog_syslog(&u.ctx, KLOG_SYSLOG_ACTION_READ, NULL, 8),
			 -EPERM);
	assert_int_equal(klog_syslog(&u.ctx, KLOG_SYSLOG_ACTION_READ_CLEAR,
				     NULL, -1), -EPERM);
	assert_int_equal(klog_syslog(&u.ctx, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL,
				     NULL, 0), -EPERM);
	assert_int_equal(klog_syslog(&u.ctx, 12, NULL, 0), -EPERM);
	/* The question asked: CAP_SYSLOG over the namespace's owner. */
	assert_int_equal(u.last_cap, KLOG_CAP_SYSLOG);
	assert_ptr_equal(u.last_owner, &init_userns);
	caller_fini(&u);
}

static void perm_unprivileged_matrix(void **state)
{
	static const int denied[] = {
		KLOG_SYSLOG_ACTION_CLOSE, KLOG_SYSLOG_ACTION_OPEN,
		KLOG_SYSLOG_ACTION_READ, KLOG_SYSLOG_ACTION_READ_CLEAR,
		KLOG_SYSLOG_ACTION_CLEAR, KLOG_SYSLOG_ACTION_CONSOLE_OFF,
		KLOG_SYSLOG_ACTION_CONSOLE_ON, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL,
		KLOG_SYSLOG_ACTION_SIZE_UNREAD, -1, 11, 12, 100,
	};
	struct tcaller u;
	size_t i;

	(void)state;
	log_three(root, 1);
	caller_init(&u, root);
	for (i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		assert_int_equal(sys(&u, denied[i], 100), -EPERM);
	/* READ_ALL and SIZE_BUFFER are free unless dmesg_restrict... */
	expect_out(sys(&u, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 16384);
	/* ...so their argument checks are reached. */
	assert_int_equal(klog_syslog(&u.ctx, KLOG_SYSLOG_ACTION_READ_ALL,
				     NULL, 10), -EINVAL);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_READ_ALL, -1), -EINVAL);
	/* Nothing was cleared or consumed by the refused calls. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 24);
	caller_fini(&u);
}

static void perm_dmesg_restrict(void **state)
{
	struct tcaller u;

	(void)state;
	log_three(root, 1);
	klog_ns_set_dmesg_restrict(root, 1);
	caller_init(&u, root);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_READ_ALL, 100), -EPERM);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), -EPERM);
	/* Restricted: the argument check comes after the permission. */
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_READ_ALL, -1), -EPERM);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 16384);
	klog_ns_set_dmesg_restrict(root, 0);
	expect_out(sys(&u, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	caller_fini(&u);
}

static void perm_dmesg_restrict_per_namespace(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	struct tcaller in_child, in_root;

	(void)state;
	klog_ns_printk(child, "\0016hello\n");
	klog_ns_set_dmesg_restrict(root, 1);
	assert_int_equal(child->dmesg_restrict, 0);
	caller_init(&in_child, child);
	caller_init(&in_root, root);
	expect_out(sys(&in_child, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	assert_int_equal(sys(&in_root, KLOG_SYSLOG_ACTION_READ_ALL, 100),
			 -EPERM);

	klog_ns_set_dmesg_restrict(child, 1);
	klog_ns_set_dmesg_restrict(root, 0);
	assert_int_equal(sys(&in_child, KLOG_SYSLOG_ACTION_READ_ALL, 100),
			 -EPERM);
	assert_int_equal(sys(&in_child, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0),
			 -EPERM);
	assert_int_equal(sys(&in_root, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0),
			 16384);
	caller_fini(&in_child);
	caller_fini(&in_root);
	klog_ns_put(child);
}

static void perm_dmesg_restrict_inherited_at_creation(void **state)
{
	struct klog_ns *child, *grandchild;
	struct tcaller u;

	(void)state;
	klog_ns_set_dmesg_restrict(root, 1);
	child = mk_user_child(root, NULL, 0);
	assert_ptr_equal(child->parent, root);
	assert_int_equal(child->dmesg_restrict, 1);
	/* Later changes of the parent do not reach the child. */
	klog_ns_set_dmesg_restrict(root, 0);
	assert_int_equal(child->dmesg_restrict, 1);
	caller_init(&u, child);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_READ_ALL, 10), -EPERM);
	caller_fini(&u);
	/* Neither do the sysctls set after the creation. */
	assert_int_equal(klog_ns_set_tag(child, "c"), 0);
	assert_int_equal(klog_ns_resize(child, 4096), 0);
	assert_int_equal(child->dmesg_restrict, 1);
	/* A namespace created now inherits its parent's current value. */
	grandchild = mk_user_child(child, NULL, 0);
	assert_int_equal(grandchild->dmesg_restrict, 1);
	klog_ns_set_dmesg_restrict(child, 0);
	assert_int_equal(grandchild->dmesg_restrict, 1);
	klog_ns_put(grandchild);
	klog_ns_put(child);
}

static void perm_is_over_the_namespace_owner(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 4096);
	struct tcaller c_in_child, c_in_root;

	(void)state;
	klog_ns_printk(child, "\0016hello\n");
	klog_ns_printk(root, "\0016hello\n");
	caller_init(&c_in_child, child);
	grant(&c_in_child, &child_userns);
	caller_init(&c_in_root, root);
	grant(&c_in_root, &child_userns);

	expect_out(sys(&c_in_child, KLOG_SYSLOG_ACTION_READ, 100), HELLO);
	assert_ptr_equal(c_in_child.last_owner, &child_userns);
	assert_int_equal(sys(&c_in_child, KLOG_SYSLOG_ACTION_CLEAR, 0), 0);
	/* The same privilege means nothing in the parent's log. */
	assert_int_equal(sys(&c_in_root, KLOG_SYSLOG_ACTION_READ, 100),
			 -EPERM);
	assert_int_equal(sys(&c_in_root, KLOG_SYSLOG_ACTION_CLEAR, 0),
			 -EPERM);
	assert_int_equal(sys(&c_in_root, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 -EPERM);
	assert_ptr_equal(c_in_root.last_owner, &init_userns);
	caller_fini(&c_in_child);
	caller_fini(&c_in_root);
	klog_ns_put(child);
}

static void proc_source_skips_the_check(void **state)
{
	struct tcaller u;

	(void)state;
	log_three(root, 2);
	caller_init(&u, root);
	u.ctx.source = KLOG_FROM_PROC;
	/* /proc/kmsg checks at open (OPEN), not on each read. */
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_OPEN, 0), -EPERM);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 2);
	expect_out(sys(&u, KLOG_SYSLOG_ACTION_READ, 30), HELLO);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_CLOSE, 0), 0);
	caller_fini(&u);
}

/* ---- the capability and security hooks -------------------------------- */

/*
 * As 6.12's check_syslog_permissions(): a restricted action asks the
 * capability once and, if it is held, the security hook (LSM) once; an
 * unrestricted one (READ_ALL, SIZE_BUFFER without dmesg_restrict) and
 * /proc/kmsg's actions other than OPEN ask the security hook only.  A
 * missing capability is -EPERM before the security hook is asked; the
 * security hook's error is returned as it is.
 */

#define NACTIONS (KLOG_SYSLOG_ACTION_SIZE_BUFFER + 1)

/* 6.12's syslog_action_restricted(). */
static bool restricted(int type, bool dmesg_restrict)
{
	return dmesg_restrict || (type != KLOG_SYSLOG_ACTION_READ_ALL &&
				  type != KLOG_SYSLOG_ACTION_SIZE_BUFFER);
}

/* The hooks asked by action @type are exactly @want, in this order. */
static void expect_hooks(const struct tcaller *c, int type, const char *want)
{
	int i, caps = 0, secs = 0;

	if (strcmp(c->hooks, want))
		fail_msg("action %d: hooks \"%s\", want \"%s\"", type,
			 c->hooks, want);
	for (i = 0; want[i]; i++) {
		caps += want[i] == 'c';
		secs += want[i] == 's';
	}
	assert_int_equal(c->cap_calls, caps);
	assert_int_equal(c->sec_calls, secs);
	for (i = 0; i < secs; i++)
		assert_int_equal(c->sec_type[i], type);
}

static void perm_hooks_asked_once_per_action(void **state)
{
	static const int bad[] = { -1, 12, 100 };
	struct tcaller u;
	int dr, priv, type, ret;
	size_t i;

	(void)state;
	for (dr = 0; dr < 2; dr++) {
		klog_ns_set_dmesg_restrict(root, dr);
		for (priv = 0; priv < 2; priv++) {
			caller_init(&u, root);
			if (priv)
				grant(&u, &init_userns);
			log_three(root, 2);
			for (type = 0; type < NACTIONS; type++) {
				bool need = restricted(type, dr);

				hooks_reset(&u);
				ret = sys(&u, type, 100);
				expect_hooks(&u, type, !need ? "s" :
					     priv ? "cs" : "c");
				if (need && !priv)
					assert_int_equal(ret, -EPERM);
				else
					assert_int_not_equal(ret, -EPERM);
			}
			/* Unknown actions are restricted; -EINVAL after. */
			for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
				hooks_reset(&u);
				ret = sys(&u, bad[i], 100);
				expect_hooks(&u, bad[i], priv ? "cs" : "c");
				assert_int_equal(ret, priv ? -EINVAL : -EPERM);
			}
			caller_fini(&u);
		}
	}
}

/*
 * A /proc/kmsg file was checked at open: its other actions skip the
 * capability, dmesg_restrict or not, but the security hook is still
 * asked each time (6.12: "goto ok", then security_syslog()).
 */
static void perm_proc_source_asks_the_security_hook_only(void **state)
{
	struct tcaller u, p;
	int dr, type, ret;

	(void)state;
	caller_init(&u, root);
	u.ctx.source = KLOG_FROM_PROC;
	caller_init(&p, root);
	p.ctx.source = KLOG_FROM_PROC;
	grant(&p, &init_userns);
	for (dr = 0; dr < 2; dr++) {
		klog_ns_set_dmesg_restrict(root, dr);
		log_three(root, 1);
		for (type = 0; type < NACTIONS; type++) {
			hooks_reset(&u);
			ret = sys(&u, type, 100);
			if (type == KLOG_SYSLOG_ACTION_OPEN) {
				expect_hooks(&u, type, "c");
				assert_int_equal(ret, -EPERM);
			} else {
				expect_hooks(&u, type, "s");
				assert_int_not_equal(ret, -EPERM);
			}
			if (type == KLOG_SYSLOG_ACTION_READ)
				expect_out(ret, HELLO);
		}
		hooks_reset(&p);
		assert_int_equal(sys(&p, KLOG_SYSLOG_ACTION_OPEN, 0), 0);
		expect_hooks(&p, KLOG_SYSLOG_ACTION_OPEN, "cs");
	}
	caller_fini(&u);
	caller_fini(&p);
}

/*
 * The security hook's error is the action's result, before any argument
 * check, and nothing is read, cleared, consumed or changed.  Without the
 * capability the hook is not asked at all: -EPERM.
 */
static void perm_security_error_returned_nothing_done(void **state)
{
	struct tcaller p, u;
	int type, ret, level = cfg.con_level;
	size_t i;

	(void)state;
	log_three(root, 3);
	caller_init(&p, root);
	grant(&p, &init_userns);
	p.sec_ret = -EACCES;
	memset(out, 'x', sizeof(out));
	for (type = 0; type < NACTIONS; type++) {
		int len = type == KLOG_SYSLOG_ACTION_CONSOLE_LEVEL ? 3 : 100;

		hooks_reset(&p);
		ret = sys(&p, type, len);
		assert_int_equal(ret, -EACCES);
		expect_hooks(&p, type, restricted(type, false) ? "cs" : "s");
	}
	/* The permission comes before the arguments. */
	assert_int_equal(klog_syslog(&p.ctx, KLOG_SYSLOG_ACTION_READ, NULL, -1),
			 -EACCES);
	assert_int_equal(klog_syslog(&p.ctx, KLOG_SYSLOG_ACTION_READ_ALL, NULL,
				     -1), -EACCES);
	/* Whatever the module answers. */
	p.sec_ret = -EIO;
	assert_int_equal(sys(&p, KLOG_SYSLOG_ACTION_READ_ALL, 100), -EIO);
	/* Through /proc/kmsg too. */
	p.ctx.source = KLOG_FROM_PROC;
	assert_int_equal(sys(&p, KLOG_SYSLOG_ACTION_READ, 100), -EIO);
	assert_int_equal(sys(&p, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), -EIO);

	/* Nothing was copied out, read, cleared or set. */
	assert_int_equal(p.copies, 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 'x');
	assert_int_equal(cfg.con_level, level);
	assert_int_equal(cfg.con_saved_level, -1);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 72);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   HELLO WORLD AGAIN);

	/* No capability: -EPERM, and the module is never asked. */
	caller_init(&u, root);
	u.sec_ret = -EACCES;
	for (type = 0; type < NACTIONS; type++) {
		hooks_reset(&u);
		ret = sys(&u, type, 100);
		if (restricted(type, false)) {
			assert_int_equal(ret, -EPERM);
			expect_hooks(&u, type, "c");
		} else {
			assert_int_equal(ret, -EACCES);
			expect_hooks(&u, type, "s");
		}
	}
	caller_fini(&u);
	caller_fini(&p);
}

/*
 * ctx->checked: the embedder ran klog_syslog_check() itself, so
 * klog_syslog() asks neither hook, whatever they would say.  The console
 * actions of a child namespace still need CAP_SYSLOG over the root's
 * owner: that is the action's own check, asked once.
 */
static void perm_checked_asks_no_hook(void **state)
{
	static const int want[NACTIONS] = {
		[KLOG_SYSLOG_ACTION_READ] = 72,
		[KLOG_SYSLOG_ACTION_READ_ALL] = 72,
		[KLOG_SYSLOG_ACTION_READ_CLEAR] = 72,
		[KLOG_SYSLOG_ACTION_CONSOLE_LEVEL] = -EINVAL,	/* 100 */
		[KLOG_SYSLOG_ACTION_SIZE_BUFFER] = 16384,
	};
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	struct tcaller u, c;
	int type;

	(void)state;
	log_three(root, 3);
	klog_ns_set_dmesg_restrict(root, 1);
	caller_init(&u, root);
	u.sec_ret = -EACCES;
	/* Unchecked, this caller gets nothing. */
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_READ, 100), -EPERM);
	expect_hooks(&u, KLOG_SYSLOG_ACTION_READ, "c");
	u.ctx.checked = true;
	for (type = 0; type < NACTIONS; type++) {
		hooks_reset(&u);
		assert_int_equal(sys(&u, type, 100), want[type]);
		expect_hooks(&u, type, "");
	}
	/* From /proc/kmsg too, OPEN included. */
	u.ctx.source = KLOG_FROM_PROC;
	hooks_reset(&u);
	assert_int_equal(sys(&u, KLOG_SYSLOG_ACTION_OPEN, 0), 0);
	expect_hooks(&u, KLOG_SYSLOG_ACTION_OPEN, "");
	caller_fini(&u);

	/* In a child, privileged there only. */
	klog_ns_printk(child, "\0016hello\n");
	caller_init(&c, child);
	grant(&c, &child_userns);
	c.ctx.checked = true;
	c.sec_ret = -EACCES;
	for (type = 0; type < NACTIONS; type++) {
		int ret;

		hooks_reset(&c);
		ret = sys(&c, type, 100);
		if (type >= KLOG_SYSLOG_ACTION_CONSOLE_OFF &&
		    type <= KLOG_SYSLOG_ACTION_CONSOLE_LEVEL) {
			expect_hooks(&c, type, "c");
			assert_ptr_equal(c.last_owner, &init_userns);
			assert_int_equal(ret, -EPERM);
		} else {
			expect_hooks(&c, type, "");
			assert_int_not_equal(ret, -EPERM);
			assert_int_not_equal(ret, -EACCES);
		}
	}
	/*
	 * Unchecked, a console action in a child asks the capability twice,
	 * over two owners: the child's (klog_syslog_check()), then the
	 * root's (the console is global).
	 */
	c.ctx.checked = false;
	c.sec_ret = 0;
	grant(&c, &init_userns);
	hooks_reset(&c);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_ON, 0), 0);
	expect_hooks(&c, KLOG_SYSLOG_ACTION_CONSOLE_ON, "csc");
	assert_ptr_equal(c.last_owner, &init_userns);
	caller_fini(&c);
	klog_ns_put(child);
}

/* ---- argument checks ----------------------------------------------------- */

static void read_actions_reject_null_and_negative(void **state)
{
	static const int reads[] = {
		KLOG_SYSLOG_ACTION_READ, KLOG_SYSLOG_ACTION_READ_ALL,
		KLOG_SYSLOG_ACTION_READ_CLEAR,
	};
	size_t i;

	(void)state;
	log_three(root, 1);
	for (i = 0; i < 3; i++) {
		assert_int_equal(klog_syslog(&me.ctx, reads[i], NULL, 10),
				 -EINVAL);
		assert_int_equal(klog_syslog(&me.ctx, reads[i], NULL, 0),
				 -EINVAL);
		assert_int_equal(sys(&me, reads[i], -1), -EINVAL);
		assert_int_equal(sys(&me, reads[i], -2147483647 - 1), -EINVAL);
	}
	/* Nothing was consumed or cleared. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 24);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
}

static void read_actions_len_zero(void **state)
{
	(void)state;
	log_three(root, 1);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 0), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 0), 0);
	/* READ_CLEAR with len 0 returns before clearing. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 0), 0);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 24);
}

static void unknown_actions_einval(void **state)
{
	struct klog_ns_stats st;

	(void)state;
	assert_int_equal(sys(&me, -1, 10), -EINVAL);
	assert_int_equal(sys(&me, 12, 10), -EINVAL);
	/*
	 * 11 is unknown too, as upstream: a namespace is created with
	 * unshare(CLONE_NEWSYSLOG).  With a tag, a size or NULL, nothing is
	 * created, stored or moved.
	 */
	strcpy(out, "web");
	assert_int_equal(sys(&me, 11, 8192), -EINVAL);
	assert_int_equal(klog_syslog(&me.ctx, 11, NULL, 0), -EINVAL);
	assert_ptr_equal(me.ctx.ns, root);
	assert_int_equal(kl_ref_read(&root->ref), 2);
	assert_int_equal(cfg.next_id, 2);
	klog_ns_get_stats(root, &st);
	assert_int_equal(st.stored, 0);
	assert_int_equal(sys(&me, 0x7fffffff, 10), -EINVAL);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_OPEN, 0), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CLOSE, 0), 0);
}

/* ---- READ ------------------------------------------------------------------ */

static void read_returns_records_then_eagain(void **state)
{
	(void)state;
	log_three(root, 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), HELLO WORLD);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
}

static void read_nonblock_empty_eagain(void **state)
{
	(void)state;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
}

static void read_partial_across_calls(void **state)
{
	(void)state;
	log_three(root, 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 10), "<6>[    1.");
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 10), "000000] he");
	/* The rest of the first record, then the whole second one. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), "llo\n" WORLD);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);
}

static void read_never_splits_a_later_record(void **state)
{
	(void)state;
	log_three(root, 2);
	/* 30 bytes: the first record, but not a piece of the second. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 30), HELLO);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 30), WORLD);
	/* Exactly one record's length. */
	log_three(root, 1);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 24), HELLO);
}

static void read_partial_keeps_time_setting(void **state)
{
	(void)state;
	log_three(root, 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 5), "<6>[ ");
	cfg.printk_time = false;
	/* The started record keeps its time; the next one has none. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 (24 - 5) + 9);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100),
		   "   1.000000] hello\n<6>world\n");
}

static void read_is_destructive_read_all_is_not(void **state)
{
	(void)state;
	log_three(root, 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), HELLO WORLD);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO WORLD);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO WORLD);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
}

static void read_copy_fault(void **state)
{
	(void)state;
	log_three(root, 3);
	/* A fault on the first copy: -EFAULT, and the record is gone. */
	me.fail_copy_from = 1;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), -EFAULT);
	/* A fault after a copy: what was copied counts. */
	me.copies = 0;
	me.fail_copy_from = 2;
	clock_set_sec(4);
	klog_ns_printk(root, "\0016fourth\n");
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), WORLD);
	me.fail_copy_from = 0;
	/* "again" was consumed by the faulting copy, as upstream. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100),
		   "<6>[    4.000000] fourth\n");
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);
}

static int reader_result;

static void *late_writer(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	(void)arg;
	nanosleep(&ts, NULL);
	klog_ns_printk(root, "\0016hello\n");
	return NULL;
}

static void read_blocks_until_a_record(void **state)
{
	pthread_t t;

	(void)state;
	me.ctx.nonblock = false;
	assert_int_equal(pthread_create(&t, NULL, late_writer, NULL), 0);
	reader_result = sys(&me, KLOG_SYSLOG_ACTION_READ, 100);
	pthread_join(t, NULL);
	expect_out(reader_result, HELLO);
}

/* ---- READ_ALL, READ_CLEAR, CLEAR ----------------------------------------- */

static void read_all_newest_that_fit(void **state)
{
	(void)state;
	log_three(root, 3);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 72),
		   HELLO WORLD AGAIN);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 71), WORLD AGAIN);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 50), WORLD AGAIN);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 47), AGAIN);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 24), AGAIN);
	/* Not even the newest fits: nothing, not a piece. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 23), 0);
	/* READ_ALL consumed nothing. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 72);
}

static void read_all_uses_current_time_setting(void **state)
{
	(void)state;
	log_three(root, 2);
	cfg.printk_time = false;
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   "<6>hello\n<6>world\n");
	/* Without time, both fit in 18 bytes. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 18),
		   "<6>hello\n<6>world\n");
}

static void read_clear_then_read_all_empty(void **state)
{
	(void)state;
	log_three(root, 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 100), HELLO WORLD);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 100), 0);
	clock_set_sec(3);
	klog_ns_printk(root, "\0016again\n");
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), AGAIN);
	/* The destructive cursor is not the clear point. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100),
		   HELLO WORLD AGAIN);
}

static void read_clear_short_buffer_clears_all(void **state)
{
	(void)state;
	log_three(root, 3);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 30), AGAIN);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 1000), 0);
}

static void read_clear_fault_keeps_failed_record(void **state)
{
	(void)state;
	log_three(root, 3);
	/*
	 * syslog_print_all() breaks out of its loop on the faulting record,
	 * so READ_CLEAR leaves the clear point on it, and returns -EFAULT
	 * even after successful copies.
	 */
	me.fail_copy_from = 2;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 100),
			 -EFAULT);
	me.fail_copy_from = 0;
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), WORLD AGAIN);

	me.copies = 0;
	me.fail_copy_from = 1;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 100),
			 -EFAULT);
	me.fail_copy_from = 0;
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), WORLD AGAIN);
}

static void clear_moves_only_the_clear_point(void **state)
{
	(void)state;
	log_three(root, 2);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CLEAR, 0), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 48);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), HELLO WORLD);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100), 0);
}

/* ---- console actions ------------------------------------------------------- */

static void console_level_out_of_range(void **state)
{
	(void)state;
	assert_int_equal(cfg.con_level, 7);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 0),
			 -EINVAL);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 9),
			 -EINVAL);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, -1),
			 -EINVAL);
	assert_int_equal(cfg.con_level, 7);
	assert_int_equal(cfg.con_saved_level, -1);
}

static void console_level_sets_root_config(void **state)
{
	int l;

	(void)state;
	for (l = 1; l <= 8; l++) {
		assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_OFF, 0),
				 0);
		assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL,
				     l), 0);
		assert_int_equal(cfg.con_level, l);
		/* Setting a level implicitly re-enables the console. */
		assert_int_equal(cfg.con_saved_level, -1);
	}
}

static void console_level_clamped_to_minimum(void **state)
{
	(void)state;
	cfg.con_min_level = 4;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 2), 0);
	assert_int_equal(cfg.con_level, 4);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 6), 0);
	assert_int_equal(cfg.con_level, 6);
}

static void console_off_on_save_and_restore(void **state)
{
	(void)state;
	cfg.con_level = 6;
	cfg.con_min_level = 2;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_OFF, 0), 0);
	assert_int_equal(cfg.con_level, 2);
	assert_int_equal(cfg.con_saved_level, 6);
	/* A second OFF does not overwrite the saved level. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_OFF, 0), 0);
	assert_int_equal(cfg.con_saved_level, 6);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_ON, 0), 0);
	assert_int_equal(cfg.con_level, 6);
	assert_int_equal(cfg.con_saved_level, -1);
	/* ON without a saved level changes nothing. */
	cfg.con_level = 5;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_ON, 0), 0);
	assert_int_equal(cfg.con_level, 5);
	/* OFF then LEVEL: the saved level is forgotten. */
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_OFF, 0), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 3), 0);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_CONSOLE_ON, 0), 0);
	assert_int_equal(cfg.con_level, 3);
}

static void console_from_child_needs_root_privilege(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	struct tcaller c;

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_OFF, 0), -EPERM);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_ON, 0), -EPERM);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 3),
			 -EPERM);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 0),
			 -EPERM);
	assert_ptr_equal(c.last_owner, &init_userns);
	assert_int_equal(cfg.con_level, 7);
	assert_int_equal(cfg.con_saved_level, -1);
	/* The child's own log is still its to read. */
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);

	/* With privilege over the root's owner it acts on the root. */
	grant(&c, &init_userns);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 3), 0);
	assert_ptr_equal(child->cfg, root->cfg);
	assert_int_equal(root->cfg->con_level, 3);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CONSOLE_LEVEL, 9),
			 -EINVAL);
	caller_fini(&c);
	klog_ns_put(child);
}

/* ---- SIZE_UNREAD, SIZE_BUFFER ---------------------------------------------- */

static void size_unread_bytes_and_records(void **state)
{
	struct tcaller proc;

	(void)state;
	caller_init(&proc, root);
	proc.ctx.source = KLOG_FROM_PROC;
	log_three(root, 2);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 48);
	assert_int_equal(sys(&proc, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 10), "<6>[    1.");
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 38);
	assert_int_equal(sys(&proc, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 2);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 14), "000000] hello\n");
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 24);
	assert_int_equal(sys(&proc, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 1);
	expect_out(sys(&proc, KLOG_SYSLOG_ACTION_READ, 100), WORLD);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
	assert_int_equal(sys(&proc, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
	caller_fini(&proc);
}

static void size_unread_multiline(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016a\nb\n");
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 2 * 18 + 3 + 1);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100),
		   "<6>[    1.000000] a\n<6>[    1.000000] b\n");
}

static void size_buffer_is_ring_size(void **state)
{
	static const struct {
		u32 req;
		int size;
	} sizes[] = {
		{ 0, 65536 }, { 1, 4096 }, { 4096, 4096 }, { 5000, 8192 },
		{ 65537, 131072 }, { 1 << 20, 1 << 20 },
	};
	struct klog_ns *child;
	struct tcaller c;
	size_t i;

	(void)state;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 16384);
	/* A new namespace's ring, then kernel.syslog_ns_size written. */
	child = mk_user_child(root, NULL, 0);
	caller_init(&c, child);
	grant(&c, &child_userns);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 65536);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(klog_ns_resize(child, sizes[i].req), 0);
		assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0),
				 sizes[i].size);
		assert_int_equal(child->ring.size, (u32)sizes[i].size);
	}
	caller_fini(&c);
	klog_ns_put(child);
}

/* ---- loss ---------------------------------------------------------------- */

static struct klog_ns *flood(struct tcaller *c, unsigned int first,
			     unsigned int n)
{
	struct klog_ns *ns = c->ctx.ns;
	unsigned int i;

	for (i = first; i < first + n; i++)
		klog_ns_printk(ns, "\0016msg %03u\n", i);
	return ns;
}

static void read_skips_ahead_after_overwrite(void **state)
{
	struct klog_ns *child = mk_user_child(root, "f", 4096);
	struct tcaller c;
	char want[64];
	u64 first, n;
	int got;

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	flood(&c, 0, 300);
	first = child->ring.first_seq;
	n = child->ring.next_seq - first;
	assert_true(first > 0 && n > 10);
	assert_int_equal(child->stats.dropped_overwrite, first);

	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 (int)(n * 26));
	got = sys(&c, KLOG_SYSLOG_ACTION_READ, sizeof(out) - 1);
	assert_int_equal(got, (int)(n * 26));
	snprintf(want, sizeof(want), "<6>[    1.000000] msg %03u\n",
		 (unsigned int)first);
	assert_memory_equal(out, want, 26);
	snprintf(want, sizeof(want), "<6>[    1.000000] msg 299\n");
	assert_memory_equal(out + got - 26, want, 26);
	caller_fini(&c);
	klog_ns_put(child);
}

static void loss_resets_partial_read(void **state)
{
	struct klog_ns *child = mk_user_child(root, "f", 4096);
	struct tcaller c;
	char want[64];

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	flood(&c, 0, 1);
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ, 5), "<6>[ ");
	flood(&c, 1, 300);
	assert_true(child->ring.first_seq > 1);
	snprintf(want, sizeof(want), "<6>[    1.000000] msg %03u\n",
		 (unsigned int)child->ring.first_seq);
	/* The oldest record from its first byte: the partial is dropped. */
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 (int)((child->ring.next_seq - child->ring.first_seq) *
			       26));
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ, 26), want);
	caller_fini(&c);
	klog_ns_put(child);
}

static void read_all_after_clear_point_lost(void **state)
{
	struct klog_ns *child = mk_user_child(root, "f", 4096);
	struct tcaller c;
	char want[64];
	int got;

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	flood(&c, 0, 1);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CLEAR, 0), 0);
	flood(&c, 1, 300);
	/* The clear point was overwritten: READ_ALL starts at the oldest. */
	got = sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, sizeof(out) - 1);
	assert_int_equal(got, (int)((child->ring.next_seq -
				     child->ring.first_seq) * 26));
	snprintf(want, sizeof(want), "<6>[    1.000000] msg %03u\n",
		 (unsigned int)child->ring.first_seq);
	assert_memory_equal(out, want, 26);
	caller_fini(&c);
	klog_ns_put(child);
}

/*
 * ---- formatting outside the lock ------------------------------------------
 *
 * Readers copy a record under the namespace's lock, format the copy with
 * the lock dropped, and READ commits its cursor under the lock again.
 */

/* Each reading action formats with no lock held; the sizes are counted. */
static void readers_format_with_no_lock_held(void **state)
{
	struct tcaller p;
	unsigned int before;

	(void)state;
	log_three(root, 3);
	watch_start(NULL);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 5), "<6>[ ");
	assert_true(watch_calls > 0);
	before = watch_calls;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 72 - 5);
	assert_int_equal(watch_calls, before);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 50), WORLD AGAIN);
	assert_true(watch_calls > before);
	before = watch_calls;
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_CLEAR, 100),
		   HELLO WORLD AGAIN);
	assert_true(watch_calls > before);
	before = watch_calls;
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 30),
		   "   1.000000] hello\n");
	assert_true(watch_calls > before);
	before = watch_calls;
	caller_init(&p, root);
	p.ctx.source = KLOG_FROM_PROC;
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, 100, true), 48);
	assert_true(watch_calls > before);
	caller_fini(&p);
	watch_stop();
}

/* A second caller that reads while the first one formats. */
static struct tcaller other;
static char other_out[256];
static int other_len, other_got;

static void other_reads(void)
{
	other_got = klog_syslog(&other.ctx, KLOG_SYSLOG_ACTION_READ,
				other_out, other_len);
}

/*
 * READ copies the record at the syslog cursor, formats it, then commits:
 * if another reader moved the cursor meanwhile, it commits nothing and
 * starts over from where that reader left it, so no bytes are returned
 * twice and none are skipped.
 */
static void read_starts_over_when_another_reader_moved_the_cursor(void **state)
{
	(void)state;
	caller_init(&other, root);
	grant(&other, &init_userns);
	log_three(root, 3);
	/* The other reader takes the whole first record. */
	other_len = 24;
	watch_start(other_reads);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), WORLD AGAIN);
	assert_int_equal(other_got, 24);
	assert_memory_equal(other_out, HELLO, 24);

	/* A part of it: the first reader goes on from there. */
	log_three(root, 2);
	other_len = 5;
	watch_start(other_reads);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100),
		   "   1.000000] hello\n" WORLD);
	assert_int_equal(other_got, 5);
	assert_memory_equal(other_out, "<6>[ ", 5);

	/* All of it: nothing is left for the first reader. */
	log_three(root, 2);
	other_len = 100;
	watch_start(other_reads);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), 0);
	assert_int_equal(other_got, 48);
	assert_memory_equal(other_out, HELLO WORLD, 48);
	watch_stop();
	caller_fini(&other);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
}

/* READ_ALL while another reader reads: neither cursor is the other's. */
static void read_all_leaves_the_syslog_cursor_alone(void **state)
{
	(void)state;
	caller_init(&other, root);
	grant(&other, &init_userns);
	log_three(root, 3);
	other_len = 24;
	watch_start(other_reads);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   HELLO WORLD AGAIN);
	assert_int_equal(other_got, 24);
	watch_stop();
	/* Only the other READ moved the syslog cursor. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ, 100), WORLD AGAIN);
	caller_fini(&other);
}

/* Records flooded in while a reader formats. */
static struct tcaller *flood_caller;

static struct klog_ns *flood(struct tcaller *c, unsigned int first,
			     unsigned int n);

static void flood_while_formatting(void)
{
	flood(flood_caller, 1, 300);
}

/*
 * A record overwritten while it is formatted is still returned whole:
 * what is formatted is the reader's copy.  The records lost meanwhile
 * are skipped, as if they were lost after the read.
 */
static void read_formats_its_copy_of_an_overwritten_record(void **state)
{
	struct klog_ns *child = mk_user_child(root, "f", 4096);
	struct tcaller c;
	char want[64];
	int got, action;
	u64 held;

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	flood_caller = &c;
	for (action = 0; action < 2; action++) {
		assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CLEAR, 0), 0);
		flood(&c, 0, 1);
		watch_start(flood_while_formatting);
		got = sys(&c, action ? KLOG_SYSLOG_ACTION_READ_ALL :
			  KLOG_SYSLOG_ACTION_READ, sizeof(out) - 1);
		watch_stop();
		/* msg 000 and msg 001 were overwritten. */
		assert_true(child->ring.first_seq > child->ring.next_seq - 300);
		held = child->ring.next_seq - child->ring.first_seq;
		assert_int_equal(got, (int)(26 + held * 26));
		assert_memory_equal(out, "<6>[    1.000000] msg 000\n", 26);
		snprintf(want, sizeof(want), "<6>[    1.000000] msg %03u\n",
			 (unsigned int)(300 - held + 1));
		assert_memory_equal(out + 26, want, 26);
	}
	caller_fini(&c);
	klog_ns_put(child);
}

/*
 * ---- creation: klog_ns_create(), then the tag and the size ----------------
 *
 * The kernel creates a namespace with unshare(CLONE_NEWSYSLOG) (the
 * library's klog_ns_create() or klog_ns_init()), then its owner writes
 * kernel.syslog_ns_tag and kernel.syslog_ns_size: klog_ns_set_tag() and
 * klog_ns_resize(), which work only until the namespace's first record.
 */

/* klog_ns_get_tag() gives @want, NUL-terminated. */
static void expect_tag(struct klog_ns *ns, const char *want)
{
	char tag[KLOG_TAG_MAX + 2];

	memset(tag, '#', sizeof(tag));
	klog_ns_get_tag(ns, tag);
	assert_int_equal(tag[KLOG_TAG_MAX + 1], '#');	/* wrote 32 bytes */
	assert_string_equal(tag, want);
}

static void expect_name(struct klog_ns *ns, const char *want)
{
	char name[KLOG_LABEL_MAX];

	assert_int_equal(klog_ns_name(ns, name, sizeof(name)),
			 (int)strlen(want));
	assert_string_equal(name, want);
}

static void create_then_set_tag_and_size(void **state)
{
	struct klog_ns *child;
	struct tcaller c;

	(void)state;
	child = mk_user_child(root, NULL, 0);
	/* As unshare(CLONE_NEWSYSLOG) leaves it: no tag, default size. */
	assert_ptr_equal(child->parent, root);
	assert_ptr_equal(child->root, root);
	assert_int_equal(child->depth, 1);
	assert_ptr_equal(child->owner, &child_userns);
	assert_int_equal(child->id, 2);
	expect_tag(child, "");
	expect_name(child, "ns:2");
	assert_int_equal(child->ring.size, 65536);
	/* kernel.syslog_ns_tag=web, kernel.syslog_ns_size=8192 */
	assert_int_equal(klog_ns_set_tag(child, "web"), 0);
	assert_int_equal(klog_ns_resize(child, 8192), 0);
	expect_tag(child, "web");
	expect_name(child, "ns:2:web");
	assert_int_equal(child->ring.size, 8192);
	assert_int_equal(child->id, 2);
	/* The root's own, the fixture caller's and the child's. */
	assert_int_equal(kl_ref_read(&root->ref), 3);
	assert_int_equal(kl_ref_read(&child->ref), 1);

	caller_init(&c, child);
	grant(&c, &child_userns);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 8192);
	klog_ns_printk(child, "\0016hello\n");
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ, 100), HELLO);
	/* Its owner is the creator's user namespace. */
	assert_ptr_equal(c.last_owner, &child_userns);
	/* The host's copy carries the tag set after the creation. */
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   "<6>[    1.000000] [ns:2:web] hello\n");
	caller_fini(&c);
	klog_ns_put(child);
}

static void set_tag_valid_tags(void **state)
{
	static const char longest[] = "0123456789-abcdefghij.ABCDEFGH_";
	struct klog_ns *child = mk_user_child(root, NULL, 0);

	(void)state;
	assert_int_equal(strlen(longest), KLOG_TAG_MAX);
	assert_int_equal(klog_ns_set_tag(child, longest), 0);
	expect_tag(child, longest);
	/* Every character a tag may use; the longer tag leaves nothing. */
	assert_int_equal(klog_ns_set_tag(child, "AZaz09._-"), 0);
	expect_tag(child, "AZaz09._-");
	assert_int_equal(klog_ns_set_tag(child, "db"), 0);
	expect_tag(child, "db");
	expect_name(child, "ns:2:db");
	/* An empty string or NULL is no tag. */
	assert_int_equal(klog_ns_set_tag(child, ""), 0);
	expect_tag(child, "");
	expect_name(child, "ns:2");
	assert_int_equal(klog_ns_set_tag(child, "x"), 0);
	assert_int_equal(klog_ns_set_tag(child, NULL), 0);
	expect_tag(child, "");
	expect_name(child, "ns:2");
	klog_ns_put(child);
}

static void set_tag_invalid_changes_nothing(void **state)
{
	static const char *bad[] = {
		"0123456789012345678901234567890x",	/* 32 bytes */
		"0123456789012345678901234567890123456789",
		"a b", "a]", "[a", "tab\t", "del\x7f", "\xc3\xa9t\xc3\xa9",
		"new\nline", "a:b", "ns:1", "a/b", "bang!", "~", "@host",
		"~!#$%&()*+,-./:;<=>?@\\^_`{|}",
	};
	struct klog_ns *child = mk_user_child(root, NULL, 0);
	size_t i;

	(void)state;
	assert_int_equal(klog_ns_set_tag(child, "web"), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(klog_ns_set_tag(child, bad[i]), -EINVAL);
		expect_tag(child, "web");
	}
	expect_name(child, "ns:2:web");
	/* Still unused: a good tag is taken. */
	assert_int_equal(klog_ns_set_tag(child, "web2"), 0);
	expect_tag(child, "web2");
	klog_ns_put(child);
}

/* The host log has no tag or size sysctl of its own to write. */
static void tag_and_size_of_root_einval(void **state)
{
	void *buf = root->ring.buf;

	(void)state;
	assert_int_equal(klog_ns_set_tag(root, "host"), -EINVAL);
	assert_int_equal(klog_ns_set_tag(root, NULL), -EINVAL);
	expect_tag(root, "");
	klog_testing_fail_alloc(0);
	assert_int_equal(klog_ns_resize(root, 8192), -EINVAL);
	assert_int_equal(klog_ns_resize(root, 0), -EINVAL);
	/* Refused before anything is allocated. */
	assert_int_equal(klog_testing_alloc_count(), 0);
	assert_int_equal(root->ring.size, 16384);
	assert_ptr_equal(root->ring.buf, buf);
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 16384);
}

/*
 * The kernel unregisters a namespace's sysctls only in its release hook,
 * after klog_ns_destroy() freed the ring: a tag or size write that races
 * with the last put must change nothing, and above all must not install
 * a new ring that nobody would free.
 */
static int late_resize_ret, late_tag_ret;

static void late_setters_release(struct klog_ns *ns)
{
	late_resize_ret = klog_ns_resize(ns, 8192);
	late_tag_ret = klog_ns_set_tag(ns, "late");
	assert_null(ns->ring.buf);
	free(ns);
}

static void tag_and_size_enoent_after_destroy(void **state)
{
	static const struct klog_ns_ops ops = {
		.release = late_setters_release,
	};
	struct klog_ns_params p = { .owner = &child_userns, .ops = &ops };
	struct klog_ns *ns = calloc(1, sizeof(*ns));

	(void)state;
	assert_non_null(ns);
	assert_int_equal(klog_ns_init(ns, root, &p), 0);
	late_resize_ret = late_tag_ret = 1;
	klog_ns_put(ns);
	assert_int_equal(late_resize_ret, -ENOENT);
	assert_int_equal(late_tag_ret, -ENOENT);
}

/* Nothing a refused write changes: tag, ring, the records in it. */
static void expect_busy(struct klog_ns *ns, const char *tag, u32 size)
{
	void *buf = ns->ring.buf;

	assert_int_equal(klog_ns_set_tag(ns, "other"), -EBUSY);
	assert_int_equal(klog_ns_set_tag(ns, NULL), -EBUSY);
	assert_int_equal(klog_ns_resize(ns, size * 2), -EBUSY);
	assert_int_equal(klog_ns_resize(ns, size), -EBUSY);
	expect_tag(ns, tag);
	assert_int_equal(ns->ring.size, size);
	assert_ptr_equal(ns->ring.buf, buf);
}

static void tag_and_size_ebusy_after_first_record(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 0);
	struct klog_ns *sib, *below;
	struct tcaller c;

	(void)state;
	assert_int_equal(klog_ns_set_tag(child, "web"), 0);
	assert_int_equal(klog_ns_resize(child, 8192), 0);
	log_three(child, 1);
	assert_int_equal(child->ring.next_seq, 1);
	expect_busy(child, "web", 8192);
	caller_init(&c, child);
	grant(&c, &child_userns);
	/* The record is still there, with the label it was stored under. */
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	expect_out(sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   "<6>[    1.000000] [ns:2:web] hello\n");
	/* Read and cleared, the log still has had a record. */
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ, 100), HELLO);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CLEAR, 0), 0);
	expect_busy(child, "web", 8192);
	caller_fini(&c);

	/* A copy from a child is a record too. */
	sib = mk_user_child(root, NULL, 4096);
	below = mk_user_child(sib, NULL, 4096);
	klog_ns_printk(below, "\0016from below\n");
	assert_int_equal(sib->ring.next_seq, 1);
	expect_busy(sib, "", 4096);
	expect_busy(below, "", 4096);
	klog_ns_put(below);
	klog_ns_put(sib);
	klog_ns_put(child);
}

static void tag_and_size_ebusy_while_line_pending(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	struct tcaller c;

	(void)state;
	klog_ns_printk(child, "\0016part");
	klog_ns_printk(child, "\001c one");
	/* Nothing stored yet, but a line is waiting in the cont buffer. */
	assert_int_equal(child->ring.next_seq, 0);
	assert_true(child->cont.pending);
	expect_busy(child, "c", 4096);
	/* The pending line is not lost: a reader commits it. */
	caller_init(&c, child);
	grant(&c, &child_userns);
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   "<6>[    1.000000] part one\n");
	assert_int_equal(child->ring.next_seq, 1);
	expect_busy(child, "c", 4096);
	caller_fini(&c);
	klog_ns_put(child);
}

static void resize_size_rules(void **state)
{
	static const u32 bad[] = {
		(1u << 20) + 1, 0x7fffffffu, 0x80000001u, 0xffffffffu,
	};
	struct klog_ns *child = mk_user_child(root, NULL, 0);
	void *buf = child->ring.buf;
	size_t i;

	(void)state;
	klog_testing_fail_alloc(0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(klog_ns_resize(child, bad[i]), -EINVAL);
		assert_int_equal(child->ring.size, 65536);
		assert_ptr_equal(child->ring.buf, buf);
	}
	assert_int_equal(klog_testing_alloc_count(), 0);
	/* kernel.syslog_ns_max_size bounds the rounded size... */
	cfg.max_size = 8192;
	assert_int_equal(klog_ns_resize(child, 8193), -EINVAL);
	assert_int_equal(child->ring.size, 65536);
	assert_ptr_equal(child->ring.buf, buf);
	/* ...and the default (0 asks for it, 64 KiB) gets the largest ring
	 * the maximum allows instead of failing. */
	assert_int_equal(klog_ns_resize(child, 0), 0);
	assert_int_equal(child->ring.size, 8192);
	assert_int_equal(klog_ns_resize(child, 5000), 0);
	assert_int_equal(child->ring.size, 8192);
	assert_int_equal(klog_ns_resize(child, 1), 0);
	assert_int_equal(child->ring.size, 4096);
	cfg.default_size = 8192;
	assert_int_equal(klog_ns_resize(child, 0), 0);
	assert_int_equal(child->ring.size, 8192);
	klog_ns_put(child);
}

/* Readers that opened before the resize read what is stored after it. */
static void resize_keeps_readers_opened_before(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 0);
	static const char rec[] = "6,0,2000000,-;after\n";
	struct klog_kmsg kf;
	struct tcaller c;
	ssize_t n;

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	memset(&kf, 0, sizeof(kf));
	assert_int_equal(klog_kmsg_open(&kf, &c.ctx, KLOG_KMSG_READ), 0);
	assert_int_equal(klog_kmsg_read(&kf, KLOG_MESSAGE_MAX, true), -EAGAIN);
	assert_int_equal(klog_kmsg_poll(&kf), 0);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);

	assert_int_equal(klog_ns_resize(child, 8192), 0);
	assert_int_equal(child->ring.size, 8192);
	clock_set_sec(2);
	klog_ns_printk(child, "\0016after\n");

	assert_int_equal(klog_kmsg_poll(&kf),
			 KLOG_POLLIN | KLOG_POLLRDNORM);
	n = klog_kmsg_read(&kf, KLOG_MESSAGE_MAX, true);
	assert_int_equal(n, (ssize_t)strlen(rec));
	assert_memory_equal(kf.outbuf, rec, strlen(rec));
	assert_int_equal(klog_kmsg_read(&kf, KLOG_MESSAGE_MAX, true), -EAGAIN);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 24);
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ, 100),
		   "<6>[    2.000000] after\n");
	klog_kmsg_release(&kf);
	caller_fini(&c);
	klog_ns_put(child);
}

static void resize_enomem_keeps_old_ring(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	void *buf = child->ring.buf;
	struct tcaller c;

	(void)state;
	klog_testing_fail_alloc(1);
	assert_int_equal(klog_ns_resize(child, 8192), -ENOMEM);
	assert_int_equal(klog_testing_alloc_count(), 1);
	klog_testing_fail_alloc(0);
	assert_int_equal(child->ring.size, 4096);
	assert_ptr_equal(child->ring.buf, buf);
	expect_tag(child, "c");
	/* The old ring works, and the namespace is still unused. */
	caller_init(&c, child);
	grant(&c, &child_userns);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_BUFFER, 0), 4096);
	assert_int_equal(klog_ns_resize(child, 8192), 0);
	assert_int_equal(child->ring.size, 8192);
	assert_ptr_not_equal(child->ring.buf, NULL);
	log_three(child, 1);
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	/* Once the log is used a resize is refused before it allocates. */
	buf = child->ring.buf;
	klog_testing_fail_alloc(1);
	assert_int_equal(klog_ns_resize(child, 4096), -EBUSY);
	assert_int_equal(klog_testing_alloc_count(), 0);
	klog_testing_fail_alloc(0);
	assert_ptr_equal(child->ring.buf, buf);
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, 100), HELLO);
	caller_fini(&c);
	klog_ns_put(child);
}

static void child_is_isolated(void **state)
{
	struct tcaller host, c;
	struct klog_ns *child;

	(void)state;
	caller_init(&host, root);
	grant(&host, &init_userns);
	log_three(root, 1);
	child = mk_user_child(root, NULL, 0);
	assert_int_equal(klog_ns_set_tag(child, "web"), 0);
	assert_int_equal(klog_ns_resize(child, 4096), 0);
	caller_init(&c, child);
	grant(&c, &child_userns);
	/* Nothing of the host log shows in the child. */
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, 100), 0);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), 0);
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_READ, 100), -EAGAIN);

	clock_set_sec(2);
	klog_ns_printk(child, "\0016inside\n");
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ, 100),
		   "<6>[    2.000000] inside\n");
	assert_int_equal(sys(&c, KLOG_SYSLOG_ACTION_CLEAR, 0), 0);
	/* The host keeps its own cursors and gets the labelled copy. */
	assert_int_equal(child->id, 2);
	assert_int_equal(sys(&host, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0),
			 24 + 36);
	expect_out(sys(&host, KLOG_SYSLOG_ACTION_READ_ALL, 100),
		   HELLO "<6>[    2.000000] [ns:2:web] inside\n");
	expect_out(sys(&host, KLOG_SYSLOG_ACTION_READ, 100),
		   HELLO "<6>[    2.000000] [ns:2:web] inside\n");
	/* The host's reads did not touch the child's cursor either. */
	clock_set_sec(3);
	klog_ns_printk(child, "\0016again\n");
	expect_out(sys(&c, KLOG_SYSLOG_ACTION_READ_ALL, 100), AGAIN);
	caller_fini(&c);
	caller_fini(&host);
	klog_ns_put(child);
}

/*
 * The walks of READ_ALL and SIZE_UNREAD let writers in every few dozen
 * records; with nobody writing, their answers are exact over a ring of
 * hundreds of records, and READ_ALL still returns the newest that fit.
 */
static void walks_over_many_records_are_exact(void **state)
{
	int i, n, total = 0, want_last;
	char line[32];

	(void)state;
	for (i = 0; i < 300; i++) {
		n = snprintf(line, sizeof(line), "record %03d\n", i);
		klog_ns_printk(root, "%s", line);
		total += 3 + n;			/* "<4>" + text + "\n" */
	}
	cfg.printk_time = false;
	assert_int_equal(sys(&me, KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0), total);
	n = sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, sizeof(out));
	assert_int_equal(n, total);
	out[n] = '\0';
	assert_non_null(strstr(out, "<4>record 000\n<4>record 001\n"));
	assert_non_null(strstr(out, "<4>record 299\n"));
	/* A buffer for the last 100 records gets exactly those. */
	want_last = 100 * 14;
	n = sys(&me, KLOG_SYSLOG_ACTION_READ_ALL, want_last);
	assert_int_equal(n, want_last);
	out[n] = '\0';
	assert_int_equal(strncmp(out, "<4>record 200\n", 14), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
/* A test with this file's fixture (setup, teardown). */
#define TC(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		TC(walks_over_many_records_are_exact),
		TC(perm_checked_before_arguments),
		TC(perm_unprivileged_matrix),
		TC(perm_dmesg_restrict),
		TC(perm_dmesg_restrict_per_namespace),
		TC(perm_dmesg_restrict_inherited_at_creation),
		TC(perm_is_over_the_namespace_owner),
		TC(proc_source_skips_the_check),
		TC(perm_hooks_asked_once_per_action),
		TC(perm_proc_source_asks_the_security_hook_only),
		TC(perm_security_error_returned_nothing_done),
		TC(perm_checked_asks_no_hook),
		TC(read_actions_reject_null_and_negative),
		TC(read_actions_len_zero),
		TC(unknown_actions_einval),
		TC(read_returns_records_then_eagain),
		TC(read_nonblock_empty_eagain),
		TC(read_partial_across_calls),
		TC(read_never_splits_a_later_record),
		TC(read_partial_keeps_time_setting),
		TC(read_is_destructive_read_all_is_not),
		TC(read_copy_fault),
		TC(read_blocks_until_a_record),
		TC(read_all_newest_that_fit),
		TC(read_all_uses_current_time_setting),
		TC(read_clear_then_read_all_empty),
		TC(read_clear_short_buffer_clears_all),
		TC(read_clear_fault_keeps_failed_record),
		TC(clear_moves_only_the_clear_point),
		TC(console_level_out_of_range),
		TC(console_level_sets_root_config),
		TC(console_level_clamped_to_minimum),
		TC(console_off_on_save_and_restore),
		TC(console_from_child_needs_root_privilege),
		TC(size_unread_bytes_and_records),
		TC(size_unread_multiline),
		TC(size_buffer_is_ring_size),
		TC(read_skips_ahead_after_overwrite),
		TC(loss_resets_partial_read),
		TC(read_all_after_clear_point_lost),
		TC(readers_format_with_no_lock_held),
		TC(read_starts_over_when_another_reader_moved_the_cursor),
		TC(read_all_leaves_the_syslog_cursor_alone),
		TC(read_formats_its_copy_of_an_overwritten_record),
		TC(create_then_set_tag_and_size),
		TC(set_tag_valid_tags),
		TC(set_tag_invalid_changes_nothing),
		TC(tag_and_size_of_root_einval),
		TC(tag_and_size_enoent_after_destroy),
		TC(tag_and_size_ebusy_after_first_record),
		TC(tag_and_size_ebusy_while_line_pending),
		TC(resize_size_rules),
		TC(resize_keeps_readers_opened_before),
		TC(resize_enomem_keeps_old_ring),
		TC(child_is_isolated),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
