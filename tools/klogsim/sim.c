// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * sim.c - the klogsim simulator: drive libklog from a script and show
 * what each namespace's clients see.  The language is described in
 * docs/man/klogsim.1.md, the interface in sim.h.
 *
 * Every namespace made with "ns" stands for a container: a user namespace
 * that owns a syslog namespace ("unshare" adds a nested log in the same
 * user namespace; "sysctl" sets a log's tag and size before its first
 * record, as the kernel does).  Commands run "as" a namespace's root
 * (privileged) or as an unprivileged user there ("priv NAME off").  Time
 * is virtual: it starts at 1 s and every script line advances it by 1 ms
 * ("sleep MS" adds more), so the output is the same on every run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

#include "sim.h"

#define MAX_ARGS 8

/* The simulation the library's clock reads (see sim.h). */
static struct sim *sim_current;

static uint64_t sim_clock(void)
{
	return sim_current->now;
}

__attribute__((format(printf, 2, 3)))
static void fail(struct sim *sim, const char *fmt, ...)
{
	va_list ap;

	printf("%s:%d: error: ", sim->file, sim->line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	sim->errors++;
}

static const char *errname(long e)
{
	static const struct { int e; const char *n; } t[] = {
		{ EPERM, "EPERM" }, { EINVAL, "EINVAL" }, { EAGAIN, "EAGAIN" },
		{ EPIPE, "EPIPE" }, { ESPIPE, "ESPIPE" }, { ENOMEM, "ENOMEM" },
		{ ENOSPC, "ENOSPC" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ EACCES, "EACCES" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == -e)
			return t[i].n;
	return "E?";
}

static void result(long ret)
{
	if (ret < 0)
		printf("  -> %s\n", errname(ret));
	else
		printf("  -> %ld\n", ret);
}

static struct sim_ns *find_ns(struct sim *sim, const char *name)
{
	int i;

	for (i = 0; i < sim->nr_ns; i++)
		if (sim->ns[i].ns && !strcmp(sim->ns[i].name, name))
			return &sim->ns[i];
	fail(sim, "no namespace named '%s'", name);
	return NULL;
}

static struct sim_fd *find_fd(struct sim *sim, const char *name, bool create)
{
	int i, slot = -1;

	for (i = 0; i < SIM_MAX_FD; i++) {
		if (sim->fd[i].open && !strcmp(sim->fd[i].name, name)) {
			if (create) {
				fail(sim, "file '%s' is already open", name);
				return NULL;
			}
			return &sim->fd[i];
		}
		if (!sim->fd[i].open && slot < 0)
			slot = i;
	}
	if (!create) {
		fail(sim, "no open file named '%s'", name);
		return NULL;
	}
	if (slot < 0) {
		fail(sim, "too many open files");
		return NULL;
	}
	snprintf(sim->fd[slot].name, sizeof(sim->fd[slot].name), "%s", name);
	return &sim->fd[slot];
}

/*
 * Root over the user namespace @owner: @me is privileged and @owner is
 * its own user namespace or one created below it.
 */
static bool root_over(const struct sim_ns *me, const struct sim_ns *owner)
{
	const struct sim_ns *o;

	if (!me->privileged)
		return false;
	for (o = owner; o; o = o->parent)
		if (o == me->user)
			return true;
	return false;
}

/* Any capability over @owner: root there. */
static bool sim_capable(const struct klog_syslog_ctx *ctx, void *owner,
			int cap)
{
	(void)cap;
	return root_over(ctx->priv, owner);
}

static const struct klog_syslog_ops sim_ops = {
	.capable = sim_capable,
};

static void make_ctx(struct sim *sim, struct klog_syslog_ctx *ctx,
		     struct sim_ns *who)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ns = who->ns;
	ctx->nonblock = true;
	ctx->ops = &sim_ops;
	ctx->priv = who;
	ctx->scratch = sim->scratch;
}

/* Decode C escapes (\n \t \\ \001 \xNN) in place; return the length. */
static size_t unescape(char *s)
{
	char *in = s, *out = s;

	while (*in) {
		if (*in != '\\' || !in[1]) {
			*out++ = *in++;
			continue;
		}
		in++;
		switch (*in) {
		case 'n': *out++ = '\n'; in++; break;
		case 't': *out++ = '\t'; in++; break;
		case 'x': {
			char hex[3] = { 0 };

			strncpy(hex, in + 1, 2);
			*out++ = (char)strtol(hex, NULL, 16);
			in += 1 + strlen(hex);
			break;
		}
		default:
			if (*in >= '0' && *in <= '7') {
				int v = 0, k;

				for (k = 0; k < 3 && *in >= '0' && *in <= '7';
				     k++)
					v = v * 8 + (*in++ - '0');
				*out++ = (char)v;
			} else {
				*out++ = *in++;
			}
		}
	}
	*out = '\0';
	return out - s;
}

/* Show bytes with control characters escaped, as one line. */
static void show(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (c == '\n' && i + 1 == n)
			break;
		if (c == '\n')
			fputs("\n     ", stdout);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('\n');
}

static void dump(struct sim_ns *who, const char *buf, long n)
{
	const char *p = buf, *end = buf + n, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		nl = nl ? nl + 1 : end;
		fputs("  | ", stdout);
		fwrite(p, 1, nl - p, stdout);
		if (nl[-1] != '\n')
			fputs("\\ (partial)\n", stdout);
		p = nl;
	}
	(void)who;
}

static long parse_num(struct sim *sim, const char *s, bool *ok)
{
	char *end;
	long v = strtol(s, &end, 0);

	*ok = *s && !*end;
	if (!*ok)
		fail(sim, "'%s' is not a number", s);
	return v;
}

static bool ns_exists(struct sim *sim, const char *name)
{
	int i;

	for (i = 0; i < sim->nr_ns; i++)
		if (sim->ns[i].ns && !strcmp(sim->ns[i].name, name))
			return true;
	return false;
}

/* kernel.syslog_ns_size=@v: an unsigned int sysctl. */
static int write_size(struct klog_ns *ns, long v)
{
	if (v < 0 || v > 0xffffffffL)
		return -EINVAL;
	return klog_ns_resize(ns, (u32)v);
}

static int cmd_ns(struct sim *sim, char **argv, int argc)
{
	struct sim_ns *parent = &sim->ns[0], *n;
	struct klog_ns_params p = { 0 };
	const char *tag = NULL, *step = NULL;
	bool ok = true, sized = false;
	long size = 0;
	int i, ret;

	if (argc < 2)
		return fail(sim, "usage: ns NAME [parent=P] [size=N] "
			    "[tag=T]"), 0;
	if (sim->nr_ns >= SIM_MAX_NS)
		return fail(sim, "too many namespaces"), 0;
	if (ns_exists(sim, argv[1]))
		return fail(sim, "namespace '%s' exists", argv[1]), 0;
	for (i = 2; i < argc && ok; i++) {
		if (!strncmp(argv[i], "parent=", 7)) {
			parent = find_ns(sim, argv[i] + 7);
		} else if (!strncmp(argv[i], "size=", 5)) {
			size = parse_num(sim, argv[i] + 5, &ok);
			sized = true;
		} else if (!strncmp(argv[i], "tag=", 4)) {
			tag = argv[i] + 4;
		} else {
			return fail(sim, "unknown option '%s'", argv[i]), 0;
		}
		if (!parent)
			return 0;
	}
	if (!ok)
		return 0;
	/*
	 * A process in P: unshare(CLONE_NEWUSER | CLONE_NEWSYSLOG), then, as
	 * root there, kernel.syslog_ns_size and kernel.syslog_ns_tag.
	 */
	n = &sim->ns[sim->nr_ns];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", argv[1]);
	n->parent = parent;
	n->user = n;
	n->privileged = true;
	p.owner = n;
	ret = klog_ns_create(parent->ns, &p, &n->ns);
	if (ret) {
		printf("ns %s: unshare(CLONE_NEWSYSLOG) failed: %s\n",
		       argv[1], errname(ret));
		return 0;
	}
	if (sized) {
		ret = write_size(n->ns, size);
		step = "kernel.syslog_ns_size";
	}
	if (!ret && tag) {
		ret = klog_ns_set_tag(n->ns, tag);
		step = "kernel.syslog_ns_tag";
	}
	if (ret) {
		/* The container does not start: its namespace goes. */
		printf("ns %s: sysctl %s failed: %s\n", argv[1], step,
		       errname(ret));
		klog_ns_put(n->ns);
		n->ns = NULL;
		return 0;
	}
	sim->nr_ns++;
	return 0;
}

/*
 * unshare(CLONE_NEWSYSLOG) by a process in NAME: a child of NAME's log in
 * the same user namespace, called CHILD (default NAME/new).  It needs
 * root in that user namespace (CAP_SYSLOG there, docs/design.md S2) and counts
 * against the quota of the entry that unshares.
 */
static int cmd_unshare(struct sim *sim, char **argv, int argc)
{
	struct klog_ns_params p = { 0 };
	struct sim_ns *me, *n;
	char name[sizeof(n->name)];
	int ret;

	if (argc < 2 || argc > 3)
		return fail(sim, "usage: unshare NAME [CHILD]"), 0;
	me = find_ns(sim, argv[1]);
	if (!me)
		return 0;
	if (sim->nr_ns >= SIM_MAX_NS)
		return fail(sim, "too many namespaces"), 0;
	if (argc == 3)
		snprintf(name, sizeof(name), "%s", argv[2]);
	else
		snprintf(name, sizeof(name), "%.27s/new", me->name);
	if (ns_exists(sim, name))
		return fail(sim, "namespace '%s' exists", name), 0;
	printf("unshare(CLONE_NEWSYSLOG) in %s, as %s:\n", me->name, name);
	n = &sim->ns[sim->nr_ns];
	if (!me->privileged) {
		ret = -EPERM;
	} else if (me->created >= sim->quota) {
		ret = -ENOSPC;
	} else {
		memset(n, 0, sizeof(*n));
		p.owner = me->user;
		ret = klog_ns_create(me->ns, &p, &n->ns);
	}
	result(ret);
	if (ret)
		return 0;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->parent = me;
	n->user = me->user;
	n->privileged = me->privileged;
	me->created++;
	sim->nr_ns++;
	return 0;
}

/*
 * NAME's own kernel.syslog_ns_tag or kernel.syslog_ns_size, read or
 * written by a process in NAME.  The files belong to root in the
 * namespace's owner user namespace (EACCES for anyone else); the
 * library says the rest (EINVAL, EBUSY once NAME has logged).
 */
static int cmd_sysctl(struct sim *sim, char **argv, int argc)
{
	char tag[KLOG_TAG_MAX + 1];
	const char *val;
	struct sim_ns *n;
	bool size, ok = true;
	long v = 0;
	int ret;

	if (argc < 3 || argc > 4 || (strcmp(argv[2], "syslog_ns_tag") &&
				     strcmp(argv[2], "syslog_ns_size")))
		return fail(sim, "usage: sysctl NAME "
			    "syslog_ns_tag|syslog_ns_size [VALUE]"), 0;
	n = find_ns(sim, argv[1]);
	if (!n)
		return 0;
	size = !strcmp(argv[2], "syslog_ns_size");
	if (argc == 3) {
		printf("sysctl kernel.%s in %s:\n", argv[2], n->name);
		klog_ns_get_tag(n->ns, tag);
		if (size)
			printf("  = %u\n", n->ns->ring.size);
		else
			printf("  = %s\n", tag);
		return 0;
	}
	val = argv[3];
	if (size)
		v = parse_num(sim, val, &ok);
	else if (!strcmp(val, "\"\""))
		val = "";
	if (!ok)
		return 0;
	printf("sysctl kernel.%s=%s in %s:\n", argv[2], val, n->name);
	if (!root_over(n, n->ns->owner))
		ret = -EACCES;
	else if (size)
		ret = write_size(n->ns, v);
	else
		ret = klog_ns_set_tag(n->ns, val);
	result(ret);
	return 0;
}

static int cmd_printk(struct sim *sim, char **argv, int argc, char *rest)
{
	struct sim_ns *n;

	if (argc < 3)
		return fail(sim, "usage: printk NAME TEXT"), 0;
	n = find_ns(sim, argv[1]);
	if (!n)
		return 0;
	unescape(rest);
	klog_ns_printk(n->ns, "%s", rest);
	return 0;
}

static void print_dmesg(struct sim *sim, struct sim_ns *n, int action)
{
	struct klog_syslog_ctx ctx;
	static char buf[1 << 20];
	long ret;

	make_ctx(sim, &ctx, n);
	ret = klog_syslog(&ctx, action, buf, sizeof(buf));
	if (ret < 0) {
		printf("  dmesg: %s\n", errname(ret));
		return;
	}
	dump(n, buf, ret);
}

static int cmd_dmesg(struct sim *sim, char **argv, int argc)
{
	struct klog_syslog_ctx ctx;
	struct sim_ns *n;
	long ret;

	if (argc < 2)
		return fail(sim, "usage: dmesg NAME [-c|-C]"), 0;
	n = find_ns(sim, argv[1]);
	if (!n)
		return 0;
	printf("dmesg in %s%s%s:\n", n->name, argc > 2 ? " " : "",
	       argc > 2 ? argv[2] : "");
	if (argc > 2 && !strcmp(argv[2], "-C")) {
		make_ctx(sim, &ctx, n);
		ret = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_CLEAR, NULL, 0);
		if (ret)
			printf("  dmesg: %s\n", errname(ret));
		return 0;
	}
	print_dmesg(sim, n, argc > 2 && !strcmp(argv[2], "-c") ?
		    KLOG_SYSLOG_ACTION_READ_CLEAR :
		    KLOG_SYSLOG_ACTION_READ_ALL);
	return 0;
}

static int cmd_syslog(struct sim *sim, char **argv, int argc)
{
	struct klog_syslog_ctx ctx;
	static char buf[1 << 20];
	struct sim_ns *n;
	bool ok = true;
	long action, len = 0, ret;
	char *arg = buf;

	if (argc < 3)
		return fail(sim, "usage: syslog NAME ACTION [LEN [null]]"), 0;
	n = find_ns(sim, argv[1]);
	if (!n)
		return 0;
	action = parse_num(sim, argv[2], &ok);
	if (ok && argc > 3) {
		len = parse_num(sim, argv[3], &ok);
		if (argc > 4 && !strcmp(argv[4], "null"))
			arg = NULL;
	}
	if (!ok)
		return 0;
	if (len > (long)sizeof(buf))
		return fail(sim, "length %ld is over the simulator's "
			    "buffer", len), 0;
	make_ctx(sim, &ctx, n);
	printf("syslog(%ld, %ld) in %s:\n", action, len, n->name);
	ret = klog_syslog(&ctx, action, arg, len);
	result(ret);
	if (ret > 0 && action >= 2 && action <= 4)
		dump(n, buf, ret);
	return 0;
}

/* Close an open file: its reference on the namespace goes with it. */
static void close_fd(struct sim_fd *fd)
{
	if (fd->proc) {
		klog_proc_kmsg_release(&fd->ctx);
		klog_ns_put(fd->ctx.ns);
	} else {
		klog_kmsg_release(&fd->f);
	}
	fd->open = false;
}

static int cmd_kmsg(struct sim *sim, char **argv, int argc, char *rest)
{
	struct sim_fd *fd;
	struct sim_ns *n;
	bool ok = true;
	long ret;

	if (!strcmp(argv[0], "open")) {
		unsigned int mode = KLOG_KMSG_READ | KLOG_KMSG_WRITE;

		if (argc < 3)
			return fail(sim, "usage: open FILE NAME "
				    "[r|w|rw|proc]"), 0;
		n = find_ns(sim, argv[2]);
		fd = n ? find_fd(sim, argv[1], true) : NULL;
		if (!fd)
			return 0;
		if (argc > 3 && !strcmp(argv[3], "r"))
			mode = KLOG_KMSG_READ;
		else if (argc > 3 && !strcmp(argv[3], "w"))
			mode = KLOG_KMSG_WRITE;
		fd->who = n;
		fd->proc = argc > 3 && !strcmp(argv[3], "proc");
		make_ctx(sim, &fd->ctx, n);
		if (fd->proc) {
			fd->ctx.source = KLOG_FROM_PROC;
			ret = klog_proc_kmsg_open(&fd->ctx);
		} else {
			ret = klog_kmsg_open(&fd->f, &fd->ctx, mode);
		}
		/* an open /proc/kmsg keeps its namespace, as the kernel's */
		if (fd->proc && !ret)
			klog_ns_get(fd->ctx.ns);
		printf("open %s (%s) in %s:\n", fd->proc ? "/proc/kmsg" :
		       "/dev/kmsg", fd->name, n->name);
		result(ret);
		fd->open = !ret;
		return 0;
	}
	if (argc < 2)
		return fail(sim, "usage: %s FILE ...", argv[0]), 0;
	fd = find_fd(sim, argv[1], false);
	if (!fd)
		return 0;
	/* /dev/kmsg-only commands: a /proc/kmsg file has no struct klog_kmsg */
	if (fd->proc && (!strcmp(argv[0], "readall") ||
			 !strcmp(argv[0], "seek")))
		return fail(sim, "%s: not for /proc/kmsg (%s)", argv[0],
			    fd->name), 0;
	if (!strcmp(argv[0], "close")) {
		close_fd(fd);
		return 0;
	}
	if (!strcmp(argv[0], "write")) {
		size_t len;

		if (!rest)
			return fail(sim, "usage: write FILE TEXT"), 0;
		len = unescape(rest);
		if (fd->proc)
			return fail(sim, "/proc/kmsg is not writable"), 0;
		ret = klog_kmsg_write(&fd->f, rest, len, "klogsim");
		if (ret < 0)
			printf("write %s: %s\n", fd->name, errname(ret));
		return 0;
	}
	if (!strcmp(argv[0], "read")) {
		long size = argc > 2 ? parse_num(sim, argv[2], &ok) : 8192;
		static char buf[8192];

		if (!ok)
			return 0;
		if (size > (long)sizeof(buf))
			size = sizeof(buf);
		printf("read %s:", fd->name);
		if (fd->proc) {
			fd->ctx.scratch = sim->scratch;
			ret = klog_proc_kmsg_read(&fd->ctx, buf, size, true);
			if (ret < 0) {
				printf(" %s\n", errname(ret));
				return 0;
			}
			putchar('\n');
			dump(fd->who, buf, ret);
			return 0;
		}
		ret = klog_kmsg_read(&fd->f, size, true);
		if (ret < 0) {
			printf(" %s\n", errname(ret));
			return 0;
		}
		putchar(' ');
		show(fd->f.outbuf, ret);
		return 0;
	}
	if (!strcmp(argv[0], "readall")) {
		printf("read %s until empty:\n", fd->name);
		for (;;) {
			ret = klog_kmsg_read(&fd->f, KLOG_MESSAGE_MAX, true);
			if (ret == -EAGAIN)
				break;
			if (ret < 0) {
				printf("  %s\n", errname(ret));
				continue;
			}
			fputs("  ", stdout);
			show(fd->f.outbuf, ret);
		}
		return 0;
	}
	if (!strcmp(argv[0], "seek")) {
		static const char *const w[] = { "set", "cur", "end", "data" };
		int whence = -1, i;
		long off = argc > 3 ? parse_num(sim, argv[3], &ok) : 0;

		for (i = 0; argc > 2 && i < 4; i++)
			if (!strcmp(argv[2], w[i]))
				whence = i;
		if (whence < 0 || !ok)
			return fail(sim, "usage: seek FILE set|data|end "
				    "[OFF]"), 0;
		printf("seek %s %s %ld:", fd->name, argv[2], off);
		result(klog_kmsg_seek(&fd->f, off, whence));
		return 0;
	}
	if (!strcmp(argv[0], "poll")) {
		unsigned int ev = fd->proc ? klog_proc_kmsg_poll(&fd->ctx) :
			klog_kmsg_poll(&fd->f);

		printf("poll %s: %s%s%s%s\n", fd->name,
		       ev & KLOG_POLLIN ? "IN " : "",
		       ev & KLOG_POLLRDNORM ? "RDNORM " : "",
		       ev & KLOG_POLLERR ? "ERR " : "",
		       ev & KLOG_POLLPRI ? "PRI " : "");
		return 0;
	}
	return fail(sim, "unknown command '%s'", argv[0]), 0;
}

static int cmd_set(struct sim *sim, char **argv, int argc)
{
	struct sim_ns *n;
	bool ok = true;
	long v;

	if (argc < 3)
		return fail(sim, "usage: set KEY VALUE | "
			    "set NAME dmesg_restrict V"), 0;
	if (!strcmp(argv[1], "devkmsg")) {
		if (!strcmp(argv[2], "on"))
			sim->cfg.devkmsg = KLOG_DEVKMSG_ON;
		else if (!strcmp(argv[2], "off"))
			sim->cfg.devkmsg = KLOG_DEVKMSG_OFF;
		else if (!strcmp(argv[2], "ratelimit"))
			sim->cfg.devkmsg = KLOG_DEVKMSG_RATELIMIT;
		else
			fail(sim, "devkmsg is on, off or ratelimit");
		return 0;
	}
	if (argc == 4) {
		n = find_ns(sim, argv[1]);
		if (!n)
			return 0;
		v = parse_num(sim, argv[3], &ok);
		if (!ok)
			return 0;
		if (!strcmp(argv[2], "dmesg_restrict"))
			klog_ns_set_dmesg_restrict(n->ns, v);
		else
			fail(sim, "unknown namespace setting '%s'", argv[2]);
		return 0;
	}
	v = parse_num(sim, argv[2], &ok);
	if (!ok)
		return 0;
	if (!strcmp(argv[1], "propagate") && v >= 0 && v <= 2)
		sim->cfg.propagate = v;
	else if (!strcmp(argv[1], "burst") && v >= 0)
		sim->cfg.prop_burst = v;
	else if (!strcmp(argv[1], "interval_ms") && v >= 0)
		sim->cfg.prop_interval_ms = v;
	else if (!strcmp(argv[1], "printk_time"))
		sim->cfg.printk_time = v;
	else if (!strcmp(argv[1], "announce"))
		sim->cfg.announce = v;
	else if (!strcmp(argv[1], "max_size") && v > 0)
		sim->cfg.max_size = v;
	else if (!strcmp(argv[1], "quota") && v >= 0)
		sim->quota = v;
	else
		fail(sim, "bad setting '%s %s'", argv[1], argv[2]);
	return 0;
}

static int cmd_stats(struct sim *sim, char **argv, int argc)
{
	struct klog_ns_stats st;
	struct sim_ns *n;

	if (argc < 2)
		return fail(sim, "usage: stats NAME"), 0;
	n = find_ns(sim, argv[1]);
	if (!n)
		return 0;
	klog_ns_get_stats(n->ns, &st);
	printf("stats %s: stored=%llu overwritten=%llu ratelimited=%llu propagated=%llu suppressed=%llu\n",
	       n->name, (unsigned long long)st.stored,
	       (unsigned long long)st.dropped_overwrite,
	       (unsigned long long)st.dropped_ratelimit,
	       (unsigned long long)st.propagated,
	       (unsigned long long)st.suppressed);
	return 0;
}

static void run_line(struct sim *sim, char *line)
{
	char *argv[MAX_ARGS], *rest = NULL, *p = line;
	bool ok = true;
	int argc = 0;
	long v;

	while (argc < MAX_ARGS) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			break;
		/* Text commands take the rest of the line as one argument. */
		if (argc == 2 && (!strcmp(argv[0], "printk") ||
				  !strcmp(argv[0], "write"))) {
			rest = p;
			argv[argc++] = p;
			break;
		}
		if (argc == 0 && !strcmp(p, "echo")) {
			putchar('\n');
			return;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		if (argc == 1 && !strcmp(argv[0], "echo")) {
			while (*p == ' ')
				p++;
			printf("%s\n", p);
			return;
		}
	}
	if (!argc)
		return;

	if (!strcmp(argv[0], "ns"))
		cmd_ns(sim, argv, argc);
	else if (!strcmp(argv[0], "printk"))
		cmd_printk(sim, argv, argc, rest);
	else if (!strcmp(argv[0], "dmesg"))
		cmd_dmesg(sim, argv, argc);
	else if (!strcmp(argv[0], "syslog"))
		cmd_syslog(sim, argv, argc);
	else if (!strcmp(argv[0], "unshare"))
		cmd_unshare(sim, argv, argc);
	else if (!strcmp(argv[0], "sysctl"))
		cmd_sysctl(sim, argv, argc);
	else if (!strcmp(argv[0], "set"))
		cmd_set(sim, argv, argc);
	else if (!strcmp(argv[0], "stats"))
		cmd_stats(sim, argv, argc);
	else if (!strcmp(argv[0], "priv") && argc == 3) {
		struct sim_ns *n = find_ns(sim, argv[1]);

		if (n)
			n->privileged = !strcmp(argv[2], "on");
	} else if (!strcmp(argv[0], "sleep") && argc == 2) {
		v = parse_num(sim, argv[1], &ok);
		if (ok)
			sim->now += (uint64_t)v * 1000000;
	} else if (!strcmp(argv[0], "put") && argc == 2) {
		struct sim_ns *n = find_ns(sim, argv[1]);

		if (n) {
			klog_ns_put(n->ns);
			n->ns = NULL;
		}
	} else if (!strcmp(argv[0], "open") || !strcmp(argv[0], "close") ||
		   !strcmp(argv[0], "write") || !strcmp(argv[0], "read") ||
		   !strcmp(argv[0], "readall") || !strcmp(argv[0], "seek") ||
		   !strcmp(argv[0], "poll")) {
		cmd_kmsg(sim, argv, argc, rest);
	} else {
		fail(sim, "unknown command '%s'", argv[0]);
	}
}


int sim_init(struct sim *sim, const char *file)
{
	struct klog_ns_params p = { 0 };
	struct sim_ns *host = &sim->ns[0];
	int ret;

	memset(sim, 0, sizeof(*sim));
	sim->file = file;
	sim->now = 1000000000ull;
	sim->quota = 16;
	klog_config_init(&sim->cfg);
	/* As the kernel: a child's log begins with its announcement. */
	sim->cfg.announce = true;
	sim_current = sim;
	klog_testing_set_clock(sim_clock);
	p.cfg = &sim->cfg;
	p.size = 128 * 1024;
	p.owner = host;
	snprintf(host->name, sizeof(host->name), "host");
	host->privileged = true;
	host->user = host;
	ret = klog_ns_create(NULL, &p, &host->ns);
	if (ret) {
		fprintf(stderr, "klogsim: cannot create the host log: %s\n",
			errname(ret));
		klog_testing_set_clock(NULL);
		sim_current = NULL;
		return -1;
	}
	sim->nr_ns = 1;
	return 0;
}

void sim_run(struct sim *sim, FILE *in)
{
	char line[4096];

	while (fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);

		sim->line++;
		sim->now += 1000000;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (!feof(in))
			fail(sim, "line longer than %zu bytes",
			     sizeof(line) - 2);
		run_line(sim, line);
		fflush(stdout);
	}
}

void sim_fini(struct sim *sim)
{
	int i;

	for (i = 0; i < SIM_MAX_FD; i++) {
		if (sim->fd[i].open)
			close_fd(&sim->fd[i]);
	}
	for (i = sim->nr_ns - 1; i >= 0; i--)
		klog_ns_put(sim->ns[i].ns);
	sim->nr_ns = 0;
	klog_testing_set_clock(NULL);
	sim_current = NULL;
}
