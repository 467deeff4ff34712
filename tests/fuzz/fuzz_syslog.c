// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_syslog - the syslog(2) action layer over a 4 KiB ring.
 *
 * Input: a stream of operations.  Each is one byte (the operation) and
 * its arguments: klog_syslog() with any action number (-1..12), any
 * length and an exactly sized buffer, nonblocking; printk and store of
 * arbitrary text (KERN_SOH prefixes included), flushes; capability bits,
 * dmesg_restrict, printk.time and propagation policy changes (copies of
 * kernel records at first, so that the budget and its notes are
 * exercised); creating a child as unshare(CLONE_NEWSYSLOG) does (the ctx
 * moves into it) and setting its tag and size as the sysctls
 * kernel.syslog_ns_tag and kernel.syslog_ns_size do, with an arbitrary
 * tag and size, or setting them later in the current namespace; leaving
 * a child again; /proc/kmsg and /dev/kmsg files (read, seek, poll) on
 * the current namespace.  Time is a fake clock the input advances.
 *
 * Checks: every return value is one the contract allows; the permission
 * rule runs first (no CAP_SYSLOG: -EPERM for every restricted action);
 * reads never return more than asked and the copy callback never writes
 * outside the buffer; READ_ALL and READ_CLEAR return whole lines;
 * SIZE_BUFFER is the ring size; a tag is accepted only if it has 0 to
 * KLOG_TAG_MAX bytes of [A-Za-z0-9._-], a size only up to the maximum,
 * neither in the root nor once the namespace has stored or holds a
 * record (-EBUSY), and a refused one changes nothing; references balance
 * at the end.  After every operation: the rings' and cursors' invariants
 * (R1-R8), checked at the end of every locked section, each open
 * /dev/kmsg file's cursor, and no klog lock left held.
 */
#include "fuzz.h"

#define MAX_DEPTH 6
#define NFILES 3

struct state {
	struct klog_ns *stack[MAX_DEPTH + 1];
	int depth;
	bool cap_syslog;
	char *buf;
	int buf_len;
};

static struct state st;

static bool f_capable(const struct klog_syslog_ctx *ctx, void *owner,
		      int cap)
{
	(void)ctx;
	(void)owner;
	return cap == KLOG_CAP_SYSLOG && st.cap_syslog;
}

static int f_copy_to(const struct klog_syslog_ctx *ctx, void *dst,
		     size_t off, const char *src, size_t n)
{
	(void)ctx;
	FCHECK(st.buf && dst == st.buf && off + n <= (size_t)st.buf_len);
	memcpy(st.buf + off, src, n);
	return 0;
}

static const struct klog_syslog_ops f_ops = {
	.capable = f_capable,
	.copy_to = f_copy_to,
};

static bool restricted(struct klog_ns *ns, int type)
{
	if (ns->dmesg_restrict)
		return true;
	return type != KLOG_SYSLOG_ACTION_READ_ALL &&
	       type != KLOG_SYSLOG_ACTION_SIZE_BUFFER;
}

static void whole_lines(const char *b, int n)
{
	FCHECK(n == 0 || b[n - 1] == '\n');
	FCHECK(n == 0 || b[0] == '<');
}

static void do_syslog(struct klog_syslog_ctx *ctx, struct in *in)
{
	int type = (int)(in_u8(in) % 14) - 1;
	uint16_t raw = in_u16(in);
	int len = raw & 0x8000 ? -(int)(raw & 0xff) : (int)(raw % 6000);
	bool no_buf = in_u8(in) & 1;
	bool perm;
	int ret;

	if (type == KLOG_SYSLOG_ACTION_CONSOLE_LEVEL)
		len = (int)(raw % 12) - 2;
	st.buf_len = len > 0 ? len : 0;
	st.buf = no_buf ? NULL : malloc(st.buf_len ? st.buf_len : 1);
	perm = !restricted(ctx->ns, type) || st.cap_syslog;
	ret = klog_syslog(ctx, type, st.buf, len);
	if (!perm) {
		FCHECK(ret == -EPERM);
	} else {
		switch (type) {
		case KLOG_SYSLOG_ACTION_CLOSE:
		case KLOG_SYSLOG_ACTION_OPEN:
		case KLOG_SYSLOG_ACTION_CLEAR:
		case KLOG_SYSLOG_ACTION_CONSOLE_OFF:
		case KLOG_SYSLOG_ACTION_CONSOLE_ON:
			FCHECK(ret == 0);
			break;
		case KLOG_SYSLOG_ACTION_CONSOLE_LEVEL:
			FCHECK(ret == ((len < 1 || len > 8) ? -EINVAL : 0));
			break;
		case KLOG_SYSLOG_ACTION_READ:
			if (!st.buf || len < 0)
				FCHECK(ret == -EINVAL);
			else if (!len)
				FCHECK(ret == 0);
			else
				FCHECK(ret == -EAGAIN ||
				       (ret > 0 && ret <= len));
			break;
		case KLOG_SYSLOG_ACTION_READ_ALL:
		case KLOG_SYSLOG_ACTION_READ_CLEAR:
			if (!st.buf || len < 0) {
				FCHECK(ret == -EINVAL);
			} else {
				FCHECK(ret >= 0 && ret <= len);
				whole_lines(st.buf, ret);
			}
			break;
		case KLOG_SYSLOG_ACTION_SIZE_UNREAD:
			FCHECK(ret >= 0);
			break;
		case KLOG_SYSLOG_ACTION_SIZE_BUFFER:
			FCHECK(ret == (int)ctx->ns->ring.size);
			break;
		default:
			FCHECK(ret == -EINVAL);
		}
	}
	free(st.buf);
	st.buf = NULL;
	st.buf_len = 0;
}

/* A tag the sysctl accepts: up to KLOG_TAG_MAX bytes of [A-Za-z0-9._-]. */
static bool tag_ok(const char *tag)
{
	size_t i, n = strlen(tag);

	if (n > KLOG_TAG_MAX)
		return false;
	for (i = 0; i < n; i++) {
		char ch = tag[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
		      ch == '-'))
			return false;
	}
	return true;
}

/*
 * kernel.syslog_ns_tag and kernel.syslog_ns_size written in @ns (the
 * fuzzer's max_size is 16384, its default size 4096): the result each
 * must have, and nothing changed by a refusal.
 */
static void do_sysctls(struct klog_ns *ns, const char *tag, int size)
{
	bool used = ns->ring.next_seq || ns->cont.pending;
	char before[KLOG_TAG_MAX + 1], after[KLOG_TAG_MAX + 1];
	u32 ring = ns->ring.size, want = KLOG_RING_MIN;
	void *buf = ns->ring.buf;
	int ret, expect;

	klog_ns_get_tag(ns, before);
	ret = klog_ns_set_tag(ns, tag);
	expect = tag && !tag_ok(tag) ? -EINVAL : !ns->parent ? -EINVAL :
		 used ? -EBUSY : 0;
	FCHECK(ret == expect);
	klog_ns_get_tag(ns, after);
	FCHECK(!strcmp(after, ret ? before : tag ? tag : ""));

	ret = klog_ns_resize(ns, (u32)size);
	expect = !ns->parent || size < 0 || size > 16384 ? -EINVAL :
		 used ? -EBUSY : 0;
	while (!expect && want < (u32)(size ? size : 4096))
		want <<= 1;
	FCHECK(ret == expect);
	if (ret) {
		FCHECK(ns->ring.size == ring && ns->ring.buf == buf);
	} else {
		FCHECK(ns->ring.size == want);
		FCHECK(ns->ring.next_seq == 0 && !ns->cont.pending);
	}
}

/*
 * unshare(CLONE_NEWSYSLOG) and the two sysctls in the child, or (bit 1 of
 * the flags) the sysctls alone in the current namespace.
 */
static void do_unshare(struct klog_syslog_ctx *ctx, struct in *in)
{
	char tag[40];
	size_t tl;
	const uint8_t *t = in_bytes(in, in_u8(in) % 40, &tl);
	int size = (int)(in_u16(in) % 40) * 512 - 1024;
	uint8_t flags = in_u8(in);
	struct klog_ns_params p = { 0 };
	struct klog_ns *before = ctx->ns, *child = NULL;
	u32 ref = kl_ref_read(&before->ref);
	int ret;

	memcpy(tag, t, tl);
	tag[tl] = '\0';
	if (flags & 2) {
		do_sysctls(ctx->ns, flags & 1 ? NULL : tag, size);
		return;
	}
	if (st.depth >= MAX_DEPTH)
		return;
	ret = klog_ns_create(before, &p, &child);
	FCHECK(ret == 0);
	if (ret)
		return;
	FCHECK(child->parent == before);
	FCHECK(kl_ref_read(&before->ref) == ref + 1);
	FCHECK(child->ring.size == 4096 && !child->tag[0]);
	FCHECK(child->dmesg_restrict == before->dmesg_restrict);
	st.stack[++st.depth] = child;
	ctx->ns = child;
	do_sysctls(child, flags & 1 ? NULL : tag, size);
}

static void do_leave(struct klog_syslog_ctx *ctx)
{
	if (!st.depth)
		return;
	klog_ns_put(st.stack[st.depth--]);
	ctx->ns = st.stack[st.depth];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct klog_config cfg;
	struct klog_ns_params p = { .size = 4096 };
	struct klog_syslog_ctx ctx = { 0 }, pctx;
	struct klog_kmsg *files = calloc(NFILES, sizeof(*files));
	bool open[NFILES] = { false };
	char *scratch = malloc(KLOG_MESSAGE_MAX);
	int ops = 0, i;

	memset(&st, 0, sizeof(st));
	fuzz_now = 1000000000ull;
	klog_testing_set_clock(fuzz_clock);
	klog_testing_set_unlock_check(fuzz_check_at_unlock);
	klog_config_init(&cfg);
	cfg.max_size = 16384;
	cfg.default_size = 4096;	/* what a bare child gets */
	cfg.propagate = KLOG_PROPAGATE_KERNEL;	/* the default is none */
	cfg.prop_burst = 5;
	cfg.prop_interval_ms = 3;
	p.cfg = &cfg;
	FCHECK(klog_ns_create(NULL, &p, &st.stack[0]) == 0);
	ctx.ns = st.stack[0];
	ctx.ops = &f_ops;
	ctx.nonblock = true;
	ctx.scratch = scratch;
	st.cap_syslog = true;

	while (in.n && ops++ < 400) {
		uint8_t op = in_u8(&in);

		switch (op % 16) {
		case 0: case 1: case 2: case 3:
			do_syslog(&ctx, &in);
			break;
		case 4: case 5: {
			size_t n;
			const uint8_t *t = in_bytes(&in, in_u16(&in) % 1300,
						    &n);

			klog_ns_printk(ctx.ns, "%.*s", (int)n, (const char *)t);
			break;
		}
		case 6: {
			size_t n, dn;
			uint8_t fl = in_u8(&in);
			struct klog_msg m = {
				.facility = in_u8(&in),
				.level = (int)(in_u8(&in) % 10) - 1,
				.flags = (fl & (KLOG_F_CONT | KLOG_F_NEWLINE |
					       KLOG_F_PREFIX | KLOG_F_TRUNC)) |
					(fl & 1 ? KLOG_MSG_USER : 0),
				.caller_id = in_u8(&in) % 3,
			};

			m.text = (const char *)in_bytes(&in, in_u16(&in) % 1300,
							&n);
			m.text_len = n;
			if (fl & 0x80) {
				m.dict = (const char *)in_bytes(&in,
						in_u16(&in) % 1100, &dn);
				m.dict_len = dn;
			}
			FCHECK(klog_ns_store(ctx.ns, &m) >= 0);
			break;
		}
		case 7:
			klog_ns_flush(ctx.ns);
			break;
		case 8: {
			uint8_t b = in_u8(&in);

			st.cap_syslog = b & 1;
			if (b & 2)
				klog_ns_set_dmesg_restrict(ctx.ns, b & 4);
			if (b & 8)
				cfg.printk_time = b & 16;
			if (b & 32)
				cfg.read_commits = b & 64;
			if (b & 128)
				cfg.propagate = (cfg.propagate + 1) % 3;
			break;
		}
		case 9:
			do_unshare(&ctx, &in);
			break;
		case 10:
			do_leave(&ctx);
			break;
		case 11: {
			/* /proc/kmsg */
			int len = in_u16(&in) % 3000;
			int ret;

			pctx = ctx;
			pctx.source = KLOG_FROM_PROC;
			st.buf_len = len;
			st.buf = malloc(len ? len : 1);
			ret = (int)klog_proc_kmsg_read(&pctx, st.buf, len,
						       true);
			FCHECK(ret == -EAGAIN || ret == -EINVAL ||
			       (ret >= 0 && ret <= len));
			(void)klog_proc_kmsg_poll(&pctx);
			free(st.buf);
			st.buf = NULL;
			break;
		}
		case 12: {
			int fi = in_u8(&in) % NFILES;
			int ret;

			if (open[fi]) {
				klog_kmsg_release(&files[fi]);
				open[fi] = false;
				break;
			}
			ret = klog_kmsg_open(&files[fi], &ctx, KLOG_KMSG_READ);
			FCHECK(ret == 0 || ret == -EPERM);
			FCHECK(ret == 0 || (!st.cap_syslog &&
					    ctx.ns->dmesg_restrict));
			open[fi] = !ret;
			break;
		}
		case 13: {
			int fi = in_u8(&in) % NFILES;
			size_t count = in_u16(&in) % 2100;
			ssize_t ret;

			if (!open[fi])
				break;
			ret = klog_kmsg_read(&files[fi], count, true);
			FCHECK(ret == -EAGAIN || ret == -EPIPE ||
			       ret == -EINVAL || (ret > 0 &&
						  (size_t)ret <= count));
			/* Whole records, unless cut at the buffer size. */
			if (ret > 0 && ret < KLOG_MESSAGE_MAX)
				FCHECK(files[fi].outbuf[ret - 1] == '\n');
			break;
		}
		case 14: {
			int fi = in_u8(&in) % NFILES;
			uint8_t b = in_u8(&in);
			s64 ret;

			if (!open[fi])
				break;
			if (b & 0x80) {
				(void)klog_kmsg_poll(&files[fi]);
				break;
			}
			ret = klog_kmsg_seek(&files[fi], b & 0x40 ? 1 : 0,
					     b % 5);
			if (b & 0x40)
				FCHECK(ret == -ESPIPE);
			else if (b % 5 == 1 || b % 5 == 4)
				FCHECK(ret == -EINVAL);
			else
				FCHECK(ret == 0);
			break;
		}
		default:
			fuzz_now += (uint64_t)in_u8(&in) * 100000ull;
			break;
		}
		FCHECK(klog_testing_locks_held() == 0);
		for (i = 0; i < NFILES; i++)
			if (open[i])
				fuzz_check_cursor(files[i].ns, &files[i].cur);
	}

	for (i = 0; i < NFILES; i++)
		if (open[i])
			klog_kmsg_release(&files[i]);
	while (st.depth)
		do_leave(&ctx);
	FCHECK(kl_ref_read(&st.stack[0]->ref) == 1);
	klog_ns_put(st.stack[0]);
	free(files);
	free(scratch);
	FCHECK(klog_testing_locks_held() == 0);
	klog_testing_set_unlock_check(NULL);
	klog_testing_set_clock(NULL);
	return 0;
}
