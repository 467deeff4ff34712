// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_ns.c - the namespace object: creation and its checks, sizes, tags,
 * depth, reference counting and freeing, isolation, dmesg_restrict,
 * counters, and allocation failures injected through the platform seam.
 *
 * Leaks are caught by the valgrind setup (meson test --setup=valgrind).
 */
#include "common.h"

/* ---- sizes ------------------------------------------------------------ */

static void ns_size_rounding(void **state)
{
	struct klog_config cfg;
	u32 out;

	(void)state;
	klog_config_init(&cfg);
	assert_int_equal(cfg.max_size, 1024 * 1024);
	assert_int_equal(klog_ns_round_size(&cfg, 0, &out), 0);
	assert_int_equal(out, 65536);
	assert_int_equal(klog_ns_round_size(&cfg, 1, &out), 0);
	assert_int_equal(out, 4096);
	assert_int_equal(klog_ns_round_size(&cfg, 4095, &out), 0);
	assert_int_equal(out, 4096);
	assert_int_equal(klog_ns_round_size(&cfg, 4096, &out), 0);
	assert_int_equal(out, 4096);
	assert_int_equal(klog_ns_round_size(&cfg, 4097, &out), 0);
	assert_int_equal(out, 8192);
	assert_int_equal(klog_ns_round_size(&cfg, 5000, &out), 0);
	assert_int_equal(out, 8192);
	assert_int_equal(klog_ns_round_size(&cfg, 65537, &out), 0);
	assert_int_equal(out, 131072);
	assert_int_equal(klog_ns_round_size(&cfg, 1024 * 1024, &out), 0);
	assert_int_equal(out, 1024 * 1024);
	out = 12345;
	assert_int_equal(klog_ns_round_size(&cfg, 1024 * 1024 + 1, &out), -EINVAL);
	assert_int_equal(klog_ns_round_size(&cfg, 0x80000001u, &out), -EINVAL);
	assert_int_equal(klog_ns_round_size(&cfg, 0xffffffffu, &out), -EINVAL);
	assert_int_equal(out, 12345);
}

static void ns_size_follows_config(void **state)
{
	struct klog_config cfg;
	u32 out;

	(void)state;
	klog_config_init(&cfg);
	cfg.max_size = 100000;			/* not a power of two */
	cfg.default_size = 8192;
	assert_int_equal(klog_ns_round_size(&cfg, 0, &out), 0);
	assert_int_equal(out, 8192);
	assert_int_equal(klog_ns_round_size(&cfg, 65536, &out), 0);
	assert_int_equal(out, 65536);
	/* 65537 rounds to 131072, above the maximum. */
	assert_int_equal(klog_ns_round_size(&cfg, 65537, &out), -EINVAL);
	assert_int_equal(klog_ns_round_size(&cfg, 100000, &out), -EINVAL);
	cfg.max_size = 4096;
	assert_int_equal(klog_ns_round_size(&cfg, 1, &out), 0);
	assert_int_equal(out, 4096);
	assert_int_equal(klog_ns_round_size(&cfg, 4097, &out), -EINVAL);
	/* A default above the maximum gets the largest ring it allows. */
	assert_int_equal(klog_ns_round_size(&cfg, 0, &out), 0);
	assert_int_equal(out, 4096);
	cfg.max_size = 100000;
	cfg.default_size = 1024 * 1024;
	assert_int_equal(klog_ns_round_size(&cfg, 0, &out), 0);
	assert_int_equal(out, 65536);
	cfg.max_size = 4095;		/* below the smallest ring */
	assert_int_equal(klog_ns_round_size(&cfg, 0, &out), -EINVAL);
}

static void ns_create_rounds_ring_size(void **state)
{
	static const u32 ask[] = { 0, 1, 4096, 5000, 65536, 1024 * 1024 };
	static const u32 want[] = { 65536, 4096, 4096, 8192, 65536,
				    1024 * 1024 };
	struct klog_ns *root = mk_root(NULL, 0), *ns, *keep;
	struct klog_ns_params p = { 0 };
	unsigned int i;

	(void)state;
	assert_int_equal(root->ring.size, 65536);
	for (i = 0; i < sizeof(ask) / sizeof(ask[0]); i++) {
		ns = mk_child(root, NULL, ask[i]);
		assert_int_equal(ns->ring.size, want[i]);
		assert_non_null(ns->ring.buf);
		klog_ns_put(ns);
	}
	keep = (struct klog_ns *)&p;	/* any non-NULL marker value */
	ns = keep;
	p.size = 1024 * 1024 + 1;
	assert_int_equal(klog_ns_create(root, &p, &ns), -EINVAL);
	assert_ptr_equal(ns, keep);
	p.size = 0xffffffffu;
	assert_int_equal(klog_ns_create(root, &p, &ns), -EINVAL);
	assert_ptr_equal(ns, keep);
	assert_int_equal(refs(root), 1);
	klog_ns_put(root);
}

static void ns_root_config_max_applies_to_children(void **state)
{
	struct klog_config cfg;
	struct klog_ns *root, *ns = NULL;
	struct klog_ns_params p = { 0 };

	(void)state;
	klog_config_init(&cfg);
	cfg.max_size = 16384;
	cfg.default_size = 8192;
	root = mk_root(&cfg, 4096);
	assert_ptr_equal(root->cfg, &cfg);
	ns = mk_child(root, "c", 0);
	assert_ptr_equal(ns->cfg, &cfg);
	assert_int_equal(ns->ring.size, 8192);
	klog_ns_put(ns);
	p.size = 16385;
	assert_int_equal(klog_ns_create(root, &p, &ns), -EINVAL);
	p.size = 16384;
	assert_int_equal(klog_ns_create(root, &p, &ns), 0);
	assert_int_equal(ns->ring.size, 16384);
	klog_ns_put(ns);
	klog_ns_put(root);
}

/* ---- tags ------------------------------------------------------------- */

/* The characters a tag may use: [A-Za-z0-9._-]. */
static bool tag_char(unsigned int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
	       ch == '-';
}

static void ns_check_tag_rules(void **state)
{
	char tag[64];
	unsigned int ch, ok = 0;

	(void)state;
	assert_int_equal(klog_ns_check_tag(NULL), 0);
	assert_int_equal(klog_ns_check_tag(""), 0);
	assert_int_equal(klog_ns_check_tag("web-1"), 0);
	assert_int_equal(klog_ns_check_tag("a.b_c-9"), 0);
	assert_int_equal(klog_ns_check_tag("drm"), 0);
	assert_int_equal(klog_ns_check_tag("-"), 0);
	/* Punctuation that used to be allowed is not any more. */
	assert_int_equal(klog_ns_check_tag("!~azAZ09_.:/@#"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("ns:1"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a:b"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a/b"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a!"), -EINVAL);
	/* Every single byte: valid exactly when it is in the set. */
	for (ch = 1; ch < 256; ch++) {
		tag[0] = (char)ch;
		tag[1] = '\0';
		if (tag_char(ch)) {
			assert_int_equal(klog_ns_check_tag(tag), 0);
			ok++;
		} else if (klog_ns_check_tag(tag) != -EINVAL) {
			fail_msg("tag byte 0x%02x accepted", ch);
		}
		/* A bad byte anywhere spoils a good tag. */
		snprintf(tag, sizeof(tag), "ok%cok", (char)ch);
		assert_int_equal(klog_ns_check_tag(tag),
				 tag_char(ch) ? 0 : -EINVAL);
	}
	assert_int_equal(ok, 26 + 26 + 10 + 3);
	memset(tag, 'x', sizeof(tag));
	tag[31] = '\0';
	assert_int_equal(klog_ns_check_tag(tag), 0);
	tag[31] = 'x';
	tag[32] = '\0';
	assert_int_equal(klog_ns_check_tag(tag), -EINVAL);
	tag[63] = '\0';
	assert_int_equal(klog_ns_check_tag(tag), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a b"), -EINVAL);
	assert_int_equal(klog_ns_check_tag(" a"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a\tb"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a\nb"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("\x01"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("del\x7f"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("caf\xc3\xa9"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("a]b"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("]"), -EINVAL);
	assert_int_equal(klog_ns_check_tag("[a"), -EINVAL);
}

static void ns_create_rejects_bad_tags(void **state)
{
	static const char *bad[] = {
		"0123456789012345678901234567890X",	/* 32 bytes */
		"has space", "tab\there", "bell\a", "x]", "[x", "\x80",
		"a:b", "ns:7", "a/b", "bang!", "[ns:1]", "x y",
	};
	struct klog_ns *root = mk_root(NULL, 4096), *ns, *keep;
	struct klog_ns_params p = { .size = 4096 };
	unsigned int i;

	(void)state;
	keep = root;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ns = keep;
		p.tag = bad[i];
		assert_int_equal(klog_ns_create(root, &p, &ns), -EINVAL);
		assert_ptr_equal(ns, keep);
		assert_int_equal(refs(root), 1);
	}
	/* A root with a bad tag fails the same way. */
	p.tag = "no good";
	ns = keep;
	assert_int_equal(klog_ns_create(NULL, &p, &ns), -EINVAL);
	assert_ptr_equal(ns, keep);
	klog_ns_put(root);
}

static void ns_tags_and_names(void **state)
{
	static const char t31[] = "abcdefghijklmnopqrstuvwxyz01234";
	struct klog_ns *root = mk_root(NULL, 4096), *a, *b, *c;
	char name[64], want[64];

	(void)state;
	assert_int_equal(strlen(t31), 31);
	a = mk_child(root, t31, 4096);
	b = mk_child(root, "", 4096);
	c = mk_child(root, NULL, 4096);
	assert_string_equal(a->tag, t31);
	/* A tag follows the id: "ns:<id>:<tag>". */
	snprintf(want, sizeof(want), "ns:%llu:%s", (unsigned long long)a->id,
		 t31);
	assert_int_equal(klog_ns_name(a, name, sizeof(name)),
			 (int)strlen(want));
	assert_string_equal(name, want);
	/* Empty tag = no tag: the label is "ns:<id>". */
	assert_int_equal(b->tag[0], '\0');
	assert_int_equal(c->tag[0], '\0');
	snprintf(name, sizeof(name), "ns:%llu", (unsigned long long)b->id);
	{
		char got[64];

		assert_int_equal(klog_ns_name(b, got, sizeof(got)),
				 (int)strlen(name));
		assert_string_equal(got, name);
	}
	klog_ns_put(a);
	klog_ns_put(b);
	klog_ns_put(c);
	klog_ns_put(root);
}

static void ns_ids_automatic_and_explicit(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *a, *b, *c;
	struct klog_ns_params p = { .size = 4096, .id = 4026531999ull };
	char name[64];

	(void)state;
	a = mk_child(root, NULL, 4096);
	b = mk_child(root, NULL, 4096);
	assert_int_not_equal(root->id, 0);
	assert_int_not_equal(a->id, 0);
	assert_int_not_equal(a->id, root->id);
	assert_int_not_equal(b->id, a->id);
	assert_int_not_equal(b->id, root->id);
	assert_int_equal(klog_ns_create(root, &p, &c), 0);
	assert_int_equal(c->id, 4026531999ull);
	klog_ns_name(c, name, sizeof(name));
	assert_string_equal(name, "ns:4026531999");
	klog_ns_put(c);
	klog_ns_put(b);
	klog_ns_put(a);
	klog_ns_put(root);
}

/* ---- depth ------------------------------------------------------------ */

static void ns_depth_limit(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *cur, *next, *keep;
	struct klog_ns_params p = { .size = 4096 };
	unsigned int i, before;

	(void)state;
	cur = klog_ns_get(root);
	for (i = 1; i <= KLOG_NS_MAX_DEPTH; i++) {
		next = mk_child(cur, NULL, 4096);
		assert_int_equal(next->depth, i);
		assert_ptr_equal(next->parent, cur);
		assert_ptr_equal(next->root, root);
		klog_ns_put(cur);		/* the child keeps it alive */
		cur = next;
	}
	before = refs(cur);
	keep = root;
	next = keep;
	assert_int_equal(klog_ns_create(cur, &p, &next), -ENOSPC);
	assert_ptr_equal(next, keep);
	assert_int_equal(refs(cur), before);
	/* Depth is checked before anything is allocated. */
	klog_testing_fail_alloc(0);
	assert_int_equal(klog_ns_create(cur, &p, &next), -ENOSPC);
	assert_true(klog_testing_alloc_count() <= 1);
	/* The whole chain hangs on the deepest namespace. */
	assert_int_equal(refs(root), 2);
	klog_ns_put(cur);
	assert_int_equal(refs(root), 1);
	klog_ns_put(root);
}

/* ---- references and freeing ------------------------------------------- */

static int released;
static struct klog_ns *release_order[8];

static void count_release(struct klog_ns *ns)
{
	release_order[released++] = ns;
}

static void free_release(struct klog_ns *ns)
{
	release_order[released++] = ns;
	free(ns);
}

static void ns_get_put_counts(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *a;

	(void)state;
	assert_int_equal(refs(root), 1);
	assert_ptr_equal(klog_ns_get(root), root);
	assert_int_equal(refs(root), 2);
	a = mk_child(root, "a", 4096);
	assert_int_equal(refs(root), 3);
	assert_int_equal(refs(a), 1);
	klog_ns_get(a);
	assert_int_equal(refs(a), 2);
	klog_ns_put(a);
	assert_int_equal(refs(a), 1);
	assert_int_equal(refs(root), 3);
	klog_ns_put(a);			/* frees a, drops its ref on root */
	assert_int_equal(refs(root), 2);
	klog_ns_put(root);
	assert_int_equal(refs(root), 1);
	klog_ns_put(root);
	klog_ns_put(NULL);		/* a no-op */
}

static void ns_last_put_releases_once(void **state)
{
	static const struct klog_ns_ops ops = { .release = count_release };
	static struct klog_ns embedded;
	struct klog_ns_params p = { .size = 4096, .ops = &ops };

	(void)state;
	released = 0;
	memset(&embedded, 0, sizeof(embedded));
	assert_int_equal(klog_ns_init(&embedded, NULL, &p), 0);
	assert_non_null(embedded.ring.buf);
	klog_ns_get(&embedded);
	klog_ns_put(&embedded);
	assert_int_equal(released, 0);
	klog_ns_put(&embedded);
	assert_int_equal(released, 1);
	assert_ptr_equal(release_order[0], &embedded);
	/* klog_ns_destroy() ran before the hook: the ring is gone. */
	assert_null(embedded.ring.buf);
}

static void ns_children_keep_parents_alive(void **state)
{
	static const struct klog_ns_ops ops = { .release = free_release };
	struct klog_ns_params p = { .size = 4096, .ops = &ops };
	struct klog_ns *root, *a, *b;

	(void)state;
	released = 0;
	assert_int_equal(klog_ns_create(NULL, &p, &root), 0);
	root->cfg->propagate = KLOG_PROPAGATE_KERNEL;
	p.tag = "a";
	assert_int_equal(klog_ns_create(root, &p, &a), 0);
	p.tag = "b";
	assert_int_equal(klog_ns_create(a, &p, &b), 0);
	assert_int_equal(refs(root), 2);
	assert_int_equal(refs(a), 2);
	klog_ns_put(root);
	klog_ns_put(a);
	assert_int_equal(released, 0);
	/* Both ancestors still work while b lives. */
	assert_int_equal(refs(root), 1);
	assert_int_equal(refs(a), 1);
	klog_ns_printk(b, "still here\n");
	assert_int_equal(committed(a), 1);
	assert_int_equal(committed(root), 1);
	klog_ns_put(b);
	assert_int_equal(released, 3);
	assert_ptr_equal(release_order[0], b);
	assert_ptr_equal(release_order[1], a);
	assert_ptr_equal(release_order[2], root);
}

static void ns_sibling_put_keeps_parent(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *a, *b;

	(void)state;
	a = mk_child(root, "a", 4096);
	b = mk_child(root, "b", 4096);
	assert_int_equal(refs(root), 3);
	klog_ns_put(a);
	assert_int_equal(refs(root), 2);
	klog_ns_printk(b, "b lives\n");
	assert_int_equal(committed(root), 1);
	klog_ns_put(root);
	assert_int_equal(refs(root), 1);
	klog_ns_put(b);			/* frees b, then root */
}

/*
 * The fair share of the copy budget divides by the parent's live
 * children: creating one counts it, its last reference uncounts it, a
 * failed creation changes nothing, and a grandchild counts only in its
 * own parent.
 */
static void ns_budget_counts_live_children(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *a, *b, *g, *keep;
	struct klog_ns_params p = { .size = 4096 };

	(void)state;
	assert_int_equal(root->budget.children, 0);
	a = mk_child(root, "a", 4096);
	b = mk_child(root, NULL, 4096);
	assert_int_equal(root->budget.children, 2);
	g = mk_child(a, "g", 4096);
	assert_int_equal(root->budget.children, 2);
	assert_int_equal(a->budget.children, 1);
	assert_int_equal(g->budget.children, 0);
	/* Refused creations: bad tag, bad size, no memory. */
	keep = root;
	p.tag = "no:good";
	assert_int_equal(klog_ns_create(root, &p, &keep), -EINVAL);
	p.tag = NULL;
	p.size = 0xffffffffu;
	assert_int_equal(klog_ns_create(root, &p, &keep), -EINVAL);
	p.size = 4096;
	klog_testing_fail_alloc(1);
	assert_int_equal(klog_ns_create(root, &p, &keep), -ENOMEM);
	klog_testing_fail_alloc(2);
	assert_int_equal(klog_ns_create(root, &p, &keep), -ENOMEM);
	klog_testing_fail_alloc(0);
	assert_ptr_equal(keep, root);
	assert_int_equal(root->budget.children, 2);
	/* A reference more or less is not a child more or less. */
	klog_ns_get(b);
	klog_ns_put(b);
	assert_int_equal(root->budget.children, 2);
	klog_ns_put(b);
	assert_int_equal(root->budget.children, 1);
	/* a lives on through g: it still counts. */
	klog_ns_put(a);
	assert_int_equal(root->budget.children, 1);
	klog_ns_put(g);				/* frees g, then a */
	assert_int_equal(root->budget.children, 0);
	klog_ns_put(root);
}

/* ---- isolation -------------------------------------------------------- */

static void ns_isolation_without_propagation(void **state)
{
	struct klog_ns *root = mk_root(NULL, 8192), *a, *b;
	struct rec_list l;

	(void)state;
	root->cfg->propagate = KLOG_PROPAGATE_NONE;
	a = mk_child(root, "a", 4096);
	b = mk_child(root, "b", 4096);
	klog_ns_printk(a, "only in a\n");
	klog_ns_printk(b, "only in b\n");
	klog_ns_printk(root, "only in root\n");
	read_all(a, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "only in a");
	rec_list_free(&l);
	read_all(b, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "only in b");
	rec_list_free(&l);
	read_all(root, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "only in root");
	rec_list_free(&l);
	klog_ns_put(a);
	klog_ns_put(b);
	klog_ns_put(root);
}

static void ns_isolation_siblings_and_root(void **state)
{
	struct klog_ns *root = mk_root(NULL, 8192), *a, *b, *a1;
	char la[LABEL_BUF], lb[LABEL_BUF], la1[LABEL_BUF], want[128];
	struct rec_list l;
	unsigned int i;

	(void)state;
	a = mk_child(root, "a", 4096);
	b = mk_child(root, "b", 4096);
	a1 = mk_child(a, "a1", 4096);
	label(a, la);
	label(b, lb);
	label(a1, la1);
	klog_ns_printk(root, "host\n");
	klog_ns_printk(a, "from a\n");
	klog_ns_printk(a1, "from a1\n");
	klog_ns_printk(b, "from b\n");
	/* Siblings never see each other; children never see parents. */
	read_all(b, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "from b");
	rec_list_free(&l);
	read_all(a1, &l);
	assert_int_equal(l.n, 1);
	assert_text(&l.m[0], "from a1");
	rec_list_free(&l);
	read_all(a, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "from a");
	snprintf(want, sizeof(want), "%sfrom a1", la1);
	assert_text(&l.m[1], want);
	rec_list_free(&l);
	/* The root has its own record and labelled copies only. */
	read_all(root, &l);
	assert_int_equal(l.n, 4);
	assert_text(&l.m[0], "host");
	snprintf(want, sizeof(want), "%sfrom a", la);
	assert_text(&l.m[1], want);
	snprintf(want, sizeof(want), "%s%sfrom a1", la, la1);
	assert_text(&l.m[2], want);
	snprintf(want, sizeof(want), "%sfrom b", lb);
	assert_text(&l.m[3], want);
	for (i = 0; i < l.n; i++)
		assert_int_equal(l.m[i].rec.seq, i);
	rec_list_free(&l);
	klog_ns_put(a1);
	klog_ns_put(a);
	klog_ns_put(b);
	klog_ns_put(root);
}

static void ns_sequence_numbers_are_private(void **state)
{
	struct klog_ns *root = mk_root(NULL, 8192), *a;
	struct rec_list l;

	(void)state;
	klog_ns_printk(root, "one\n");
	klog_ns_printk(root, "two\n");
	a = mk_child(root, "a", 4096);
	klog_ns_printk(a, "first in a\n");
	read_all(a, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.m[0].rec.seq, 0);
	rec_list_free(&l);
	read_all(root, &l);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.m[2].rec.seq, 2);
	rec_list_free(&l);
	klog_ns_put(a);
	klog_ns_put(root);
}

/* Does @mb's text contain @s? */
static bool has(const struct klog_msgbuf *mb, const char *s)
{
	return memmem(mb->rec.text, mb->rec.text_len, s, strlen(s)) != NULL;
}

/*
 * Under cfg->announce a child's log begins with a record naming it, stored
 * with its first record: the tag and size set before then are the ones
 * named, the first record of its own has sequence number 1, the window
 * for the tag and size closes as before, and the record is never copied.
 */
/* A clock that moves on at every reading. */
static uint64_t ticking_ns;

static uint64_t ticking_clock(void)
{
	return ticking_ns += 1000;
}

static void ns_announce_begins_a_child_log(void **state)
{
	struct klog_ns *root = mk_root(NULL, 65536), *a;
	char want[160];
	struct rec_list l;

	(void)state;
	root->cfg->announce = true;
	root->cfg->propagate = KLOG_PROPAGATE_ALL;
	klog_ns_printk(root, "host\n");
	a = mk_child(root, NULL, 4096);
	/* An empty log stays empty: nothing is stored by creating it. */
	read_all(a, &l);
	assert_int_equal(l.n, 0);
	rec_list_free(&l);
	assert_int_equal(klog_ns_set_tag(a, "web"), 0);
	assert_int_equal(klog_ns_resize(a, 8192), 0);
	klog_testing_set_clock(ticking_clock);
	klog_ns_printk(a, "mine\n");
	klog_testing_set_clock(NULL);
	read_all(a, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.m[0].rec.seq, 0);
	/* Time never runs backwards: it has the time of the record it leads. */
	assert_int_equal(l.m[0].rec.ts_nsec, l.m[1].rec.ts_nsec);
	snprintf(want, sizeof(want),
		 "syslog_ns: log of ns:%llu:web begins (depth 1, ring 8192 bytes)",
		 (unsigned long long)a->id);
	assert_text(&l.m[0], want);
	assert_int_equal(l.m[0].rec.level, 6);
	assert_int_equal(l.m[0].rec.facility, 0);
	assert_int_equal(l.m[1].rec.seq, 1);
	assert_text(&l.m[1], "mine");
	rec_list_free(&l);
	/* The window closed with the first record, announcement or not. */
	assert_int_equal(klog_ns_set_tag(a, "other"), -EBUSY);
	assert_int_equal(klog_ns_resize(a, 16384), -EBUSY);
	/* The parent got the copy of "mine" only (everything is copied). */
	read_all(root, &l);
	assert_int_equal(l.n, 2);
	assert_text(&l.m[0], "host");
	assert_true(has(&l.m[1], "mine"));
	assert_false(has(&l.m[1], "begins"));
	rec_list_free(&l);
	/* Only once. */
	klog_ns_printk(a, "again\n");
	read_all(a, &l);
	assert_int_equal(l.n, 3);
	assert_text(&l.m[2], "again");
	rec_list_free(&l);
	klog_ns_put(a);
	klog_ns_put(root);
}

/*
 * The announcement comes before the first record of any kind: a copy from
 * a grandchild into a middle namespace that had stored nothing.  A root
 * never announces, and with the setting off (the default) nothing does.
 */
static void ns_announce_before_a_first_copy_and_only_children(void **state)
{
	struct klog_ns *root = mk_root(NULL, 65536), *mid, *leaf, *quiet;
	struct rec_list l;

	(void)state;
	root->cfg->announce = true;
	root->cfg->propagate = KLOG_PROPAGATE_KERNEL;
	klog_ns_printk(root, "root\n");
	mid = mk_child(root, "mid", 4096);
	leaf = mk_child(mid, "leaf", 4096);
	klog_ns_printk(leaf, "deep\n");
	read_all(mid, &l);
	assert_int_equal(l.n, 2);
	assert_true(has(&l.m[0], "log of ns:"));
	assert_true(has(&l.m[0], ":mid begins (depth 1,"));
	assert_true(has(&l.m[1], "deep"));
	rec_list_free(&l);
	read_all(leaf, &l);
	assert_int_equal(l.n, 2);
	assert_true(has(&l.m[0], ":leaf begins (depth 2,"));
	rec_list_free(&l);
	/* The root: its own record and the copies of "deep", no banner. */
	read_all(root, &l);
	assert_text(&l.m[0], "root");
	assert_int_equal(l.n, 2);
	assert_true(has(&l.m[1], "deep"));
	rec_list_free(&l);

	root->cfg->announce = false;
	quiet = mk_child(root, "quiet", 4096);
	klog_ns_printk(quiet, "first\n");
	read_all(quiet, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.m[0].rec.seq, 0);
	assert_text(&l.m[0], "first");
	rec_list_free(&l);
	klog_ns_put(quiet);
	klog_ns_put(leaf);
	klog_ns_put(mid);
	klog_ns_put(root);
}

/* ---- dmesg_restrict --------------------------------------------------- */

static void ns_dmesg_restrict_inherited_at_creation(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *a, *b, *c, *d;

	(void)state;
	assert_int_equal(root->dmesg_restrict, 0);
	a = mk_child(root, "a", 4096);
	assert_int_equal(a->dmesg_restrict, 0);
	klog_ns_set_dmesg_restrict(root, 1);
	assert_int_equal(root->dmesg_restrict, 1);
	assert_int_equal(a->dmesg_restrict, 0);	/* existing ones keep theirs */
	b = mk_child(root, "b", 4096);
	assert_int_equal(b->dmesg_restrict, 1);
	klog_ns_set_dmesg_restrict(b, 0);
	c = mk_child(b, "c", 4096);
	assert_int_equal(c->dmesg_restrict, 0);
	assert_int_equal(root->dmesg_restrict, 1);
	klog_ns_set_dmesg_restrict(a, 7);		/* clamped */
	assert_int_equal(a->dmesg_restrict, 1);
	d = mk_child(a, "d", 4096);
	assert_int_equal(d->dmesg_restrict, 1);
	klog_ns_put(d);
	klog_ns_put(c);
	klog_ns_put(b);
	klog_ns_put(a);
	klog_ns_put(root);
}

/* ---- counters --------------------------------------------------------- */

static void ns_stats_count_stores_and_overwrites(void **state)
{
	struct klog_ns *root = mk_root(NULL, 65536), *a;
	struct klog_ns_stats st;
	char text[300];
	unsigned int i;

	(void)state;
	/* No copy refused here: a budget larger than the flood. */
	root->cfg->prop_burst = KLOG_PROP_BURST_MAX;
	a = mk_child(root, "a", 4096);
	klog_ns_get_stats(a, &st);
	assert_int_equal(st.stored, 0);
	assert_int_equal(st.dropped_overwrite, 0);
	assert_int_equal(st.dropped_ratelimit, 0);
	assert_int_equal(st.propagated, 0);
	assert_int_equal(st.suppressed, 0);
	assert_int_equal(st.held, 0);
	memset(text, 'z', sizeof(text));
	for (i = 0; i < 100; i++)
		klog_ns_printk(a, "%u %.*s\n", i, (int)sizeof(text), text);
	klog_ns_get_stats(a, &st);
	assert_int_equal(st.stored, 100);
	assert_true(st.dropped_overwrite > 80);
	assert_int_equal(st.dropped_overwrite, a->ring.first_seq);
	/* What the ring holds is what was stored and not overwritten. */
	assert_int_equal(st.held, st.stored - st.dropped_overwrite);
	assert_true(st.held > 0 && st.held < 20);
	assert_int_equal(st.propagated, 100);
	assert_int_equal(st.suppressed, 0);
	klog_ns_get_stats(root, &st);
	assert_int_equal(st.stored, 100);		/* the copies */
	assert_int_equal(st.propagated, 0);
	assert_int_equal(st.dropped_overwrite, root->ring.first_seq);
	klog_ns_put(a);
	klog_ns_put(root);
}

/* ---- allocation failures ---------------------------------------------- */

static long allocs_of_create(struct klog_ns *parent, const char *tag)
{
	struct klog_ns_params p = { .size = 8192, .tag = tag };
	struct klog_ns *ns;
	long n;

	klog_testing_fail_alloc(0);
	assert_int_equal(klog_ns_create(parent, &p, &ns), 0);
	n = klog_testing_alloc_count();
	klog_ns_put(ns);
	return n;
}

static void ns_create_alloc_failure_child(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096), *ns, *keep;
	struct klog_ns_params p = { .size = 8192, .tag = "t" };
	struct klog_ns_stats st;
	long total, n;

	(void)state;
	total = allocs_of_create(root, "t");
	assert_true(total >= 2);		/* the object and its ring */
	for (n = 1; n <= total; n++) {
		klog_testing_fail_alloc(n);
		keep = root;
		ns = keep;
		assert_int_equal(klog_ns_create(root, &p, &ns), -ENOMEM);
		assert_ptr_equal(ns, keep);
		assert_int_equal(refs(root), 1);
	}
	klog_testing_fail_alloc(0);
	/* The parent is intact and creation works again. */
	klog_ns_get_stats(root, &st);
	assert_int_equal(st.stored, 0);
	ns = mk_child(root, "t", 8192);
	klog_ns_printk(ns, "works\n");
	assert_int_equal(committed(root), 1);
	klog_ns_put(ns);
	klog_ns_put(root);
}

static void ns_create_alloc_failure_root(void **state)
{
	struct klog_ns_params p = { .size = 0 };
	struct klog_ns *ns, *keep = (struct klog_ns *)&p;
	long total, n;

	(void)state;
	klog_testing_fail_alloc(0);
	assert_int_equal(klog_ns_create(NULL, &p, &ns), 0);
	total = klog_testing_alloc_count();
	klog_ns_put(ns);
	assert_true(total >= 2);
	for (n = 1; n <= total; n++) {
		klog_testing_fail_alloc(n);
		ns = keep;
		assert_int_equal(klog_ns_create(NULL, &p, &ns), -ENOMEM);
		assert_ptr_equal(ns, keep);
	}
	klog_testing_fail_alloc(total + 1);	/* past the last: succeeds */
	assert_int_equal(klog_ns_create(NULL, &p, &ns), 0);
	klog_testing_fail_alloc(0);
	klog_ns_put(ns);
}

static void ns_init_alloc_failure_leaves_parent(void **state)
{
	struct klog_ns *root = mk_root(NULL, 4096);
	struct klog_ns_params p = { .size = 4096 };
	struct klog_ns child;

	(void)state;
	memset(&child, 0, sizeof(child));
	klog_testing_fail_alloc(1);
	assert_int_equal(klog_ns_init(&child, root, &p), -ENOMEM);
	klog_testing_fail_alloc(0);
	assert_int_equal(refs(root), 1);
	assert_null(child.parent);
	assert_null(child.ring.buf);
	klog_ns_put(root);
}

/* ---- a root whose records go elsewhere (the kernel's host log) -------- */

struct emitted {
	unsigned int n;
	char text[8][128];
	u8 level[8];
	char dict[8][KLOG_LABEL_DICT_MAX];
	u32 dict_len[8];
};

static struct emitted emitted;
static struct klog_ns *emit_child;

static void capture_emit(struct klog_ns *ns, const struct klog_entry *e)
{
	unsigned int i = emitted.n++;

	assert_true(i < 8);
	/* A copy reaches the hook with no klog lock held. */
	if (e->pre_len) {
		assert_int_equal(pthread_mutex_trylock(&ns->lock), 0);
		pthread_mutex_unlock(&ns->lock);
		assert_non_null(emit_child);
		assert_int_equal(pthread_mutex_trylock(&emit_child->lock), 0);
		pthread_mutex_unlock(&emit_child->lock);
	}
	snprintf(emitted.text[i], sizeof(emitted.text[i]), "%.*s%.*s",
		 (int)e->pre_len, e->pre ? e->pre : "",
		 (int)e->text_len, e->text);
	emitted.level[i] = e->level;
	assert_true(e->dict_len <= sizeof(emitted.dict[i]));
	if (e->dict_len)
		memcpy(emitted.dict[i], e->dict, e->dict_len);
	emitted.dict_len[i] = e->dict_len;
}

static void ns_emit_root_has_no_ring(void **state)
{
	static const struct klog_ns_ops ops = { .emit = capture_emit };
	struct klog_ns_params p = { .size = 0, .ops = &ops };
	struct klog_ns *root, *a;
	struct klog_msgbuf mb;
	struct klog_cursor c = { 0 };
	char want[128], la[LABEL_BUF], dict[KLOG_LABEL_DICT_MAX];
	size_t dlen;

	(void)state;
	memset(&emitted, 0, sizeof(emitted));
	assert_int_equal(klog_ns_create(NULL, &p, &root), 0);
	root->cfg->propagate = KLOG_PROPAGATE_KERNEL;
	assert_null(root->ring.buf);
	assert_int_equal(klog_ns_read(root, &c, &mb), -EINVAL);
	klog_ns_printk(root, "\0012host line\n");
	a = mk_child(root, "box", 4096);
	emit_child = a;
	klog_ns_printk(a, "\0016from the box\n");
	assert_int_equal(emitted.n, 2);
	assert_string_equal(emitted.text[0], "host line");
	assert_int_equal(emitted.level[0], 2);
	snprintf(want, sizeof(want), "%sfrom the box", label(a, la));
	assert_string_equal(emitted.text[1], want);
	assert_int_equal(emitted.level[1], 6);
	/* The hook gets the copy's dictionary too; the host line has none. */
	assert_int_equal(emitted.dict_len[0], 0);
	dlen = copy_dict(a, dict, sizeof(dict));
	assert_int_equal(emitted.dict_len[1], dlen);
	assert_memory_equal(emitted.dict[1], dict, dlen);
	assert_int_equal(committed(a), 1);
	emit_child = NULL;
	klog_ns_put(a);
	klog_ns_put(root);
}

/*
 * A ring broken behind the library's back is caught at the end of the
 * next locked section (common.h: the tests check every namespace's ring
 * and cursors at every unlock).
 */
static void ns_broken_ring_is_caught_at_unlock(void **state)
{
	struct klog_ns *ns = mk_root(NULL, 4096);
	struct klog_ns_stats st;
	struct klog_cursor clear;
	struct klog_ring ring;

	(void)state;
	assert_int_equal(store_msg(ns, CALLER(1), 0, 6, "one\n"), 3);
	assert_int_equal(store_msg(ns, CALLER(1), 0, 6, "two\n"), 3);
	assert_int_equal(take_broken_invariant(), 0);

	ring = ns->ring;
	ns->ring.first_seq = ns->ring.next_seq + 1;
	klog_ns_get_stats(ns, &st);
	assert_int_equal(take_broken_invariant(), -KLOG_RING_R2);
	ns->ring = ring;

	clear = ns->clear_cur;
	ns->clear_cur.seq = ns->ring.next_seq + 1;
	klog_ns_get_stats(ns, &st);
	assert_int_equal(take_broken_invariant(), -KLOG_RING_R8);
	ns->clear_cur = clear;

	klog_ns_get_stats(ns, &st);
	assert_int_equal(take_broken_invariant(), 0);
	klog_ns_put(ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(ns_size_rounding),
		T(ns_size_follows_config),
		T(ns_create_rounds_ring_size),
		T(ns_root_config_max_applies_to_children),
		T(ns_check_tag_rules),
		T(ns_create_rejects_bad_tags),
		T(ns_tags_and_names),
		T(ns_ids_automatic_and_explicit),
		T(ns_depth_limit),
		T(ns_broken_ring_is_caught_at_unlock),
		T(ns_get_put_counts),
		T(ns_last_put_releases_once),
		T(ns_children_keep_parents_alive),
		T(ns_sibling_put_keeps_parent),
		T(ns_budget_counts_live_children),
		T(ns_isolation_without_propagation),
		T(ns_isolation_siblings_and_root),
		T(ns_sequence_numbers_are_private),
		T(ns_announce_begins_a_child_log),
		T(ns_announce_before_a_first_copy_and_only_children),
		T(ns_dmesg_restrict_inherited_at_creation),
		T(ns_stats_count_stores_and_overwrites),
		T(ns_create_alloc_failure_child),
		T(ns_create_alloc_failure_root),
		T(ns_init_alloc_failure_leaves_parent),
		T(ns_emit_root_has_no_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
