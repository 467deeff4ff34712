// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * golden_replay - replay a transcript recorded on a stock Linux 6.12 kernel
 * (tests/golden/, format in docs/golden-format.md) through libklog and
 * compare every result byte for byte.
 *
 * Only two things are normalised: sequence numbers (the kernel's log has
 * boot records before the capture, libklog starts at 0; the offset must be
 * the same for every record) and timestamps.  Any other difference is a
 * bug in libklog.
 *
 * usage: golden_replay [--devkmsg=on|ratelimit] [--caller] [--layout-free]
 *                      [--deliberate=FILE] [--print-differences] TRANSCRIPT
 *
 * --caller (kernel.txt, recorded with CONFIG_PRINTK_CALLER): records are
 * formatted with their caller id; the transcript's "# pid: N" header
 * line makes N the caller of every record the operations store, as it
 * was in the guest.
 *
 * --layout-free (loss.txt): which records survive an overwrite depends on
 * the ring's layout, so sequence numbers are not compared and
 * SIZE_UNREAD counts are skipped; everything else (EPIPE once, poll bits,
 * the text of the oldest surviving record, skip-ahead) still is.
 * --deliberate=FILE (ratelimit.txt): the operations where libklog differs
 * from 6.12 on purpose (docs/design.md S6: the /dev/kmsg write budget is per
 * namespace, not per open file, and its note is stored when the next
 * window opens, not at close).  FILE has one line per such result,
 * "LINE<TAB>RESULT": LINE is the transcript's "< " line, RESULT libklog's
 * exact answer there.  Every operation is still run and compared: with
 * 6.12's result, or, where FILE lists it, with libklog's documented one
 * byte for byte.  A listed result that agrees with 6.12, or one never
 * reached, is a failure too (a stale list).
 * --plant=LINE: a positive control.  The expected result on the "< " line
 * LINE (and its --deliberate entry, if any) is altered before comparing;
 * the exit status is 0 only if exactly that one difference is reported.
 * --plant-flags=LINE, --plant-text=LINE: the same, altering one byte of
 * the record in the result's "data=" instead of its return value (the
 * flags field, "-" and "c" swapped; the text's first byte), so the length
 * stays what the return value says.
 * --print-differences: print every differing result as a FILE line
 * (to write FILE after checking each one by hand), compare nothing.
 * Every "> " operation must have its "< " result line: the whole
 * transcript is compared, never a prefix.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

#define MAX_FILES 16
#define BUF_MAX (1 << 20)

struct gfile {
	char name[32];
	bool open;
	bool proc;
	bool nonblock;
	unsigned int mode;
	struct klog_kmsg f;
	struct klog_syslog_ctx ctx;
};

static struct gfile files[MAX_FILES];
static struct klog_ns *host;
static struct klog_config cfg;
static char scratch[KLOG_MESSAGE_MAX];
static uint64_t now = 5000000000ull;
static long long seq_offset;
static bool seq_offset_set;
static int failures, ops, skipped;
/* loss.txt: which records survive depends on the ring layout. */
static bool layout_free;
/*
 * ratelimit.txt: libklog's documented answers where it differs
 * (docs/design.md S6).
 */
#define MAX_DELIBERATE 256
static struct {
	int line;
	bool used;
	char *res;
} deliberate[MAX_DELIBERATE];
static int ndeliberate, nmatched;
static bool print_differences;
static int plant_line, fail_line;
static enum { PLANT_RET, PLANT_FLAGS, PLANT_TEXT } plant_kind;

/*
 * plant() - alter the expected result RES (a "ret=N ..." line in a
 * buffer of CAP bytes) as plant_kind says.  Returns 0, or -1 when RES has
 * nothing to alter or no room (the control then fails: no difference is
 * reported).
 */
static int plant(char *res, size_t cap)
{
	char *data = strstr(res, "data="), *p;
	int i;

	switch (plant_kind) {
	case PLANT_RET:		/* "ret=N" -> "ret=1N" */
		if (strncmp(res, "ret=", 4) || strlen(res) + 2 > cap)
			return -1;
		memmove(res + 5, res + 4, strlen(res + 4) + 1);
		res[4] = '1';
		return 0;
	case PLANT_FLAGS:	/* "L,S,T,F..." -> F swapped */
		if (!data)
			return -1;
		p = data + 5;
		for (i = 0; i < 3 && (p = strchr(p, ',')); i++)
			p++;
		if (!p || (*p != '-' && *p != 'c'))
			return -1;
		*p = *p == '-' ? 'c' : '-';
		return 0;
	case PLANT_TEXT:	/* the text's first byte */
		p = data ? strchr(data, ';') : NULL;
		if (!p || !p[1] || p[1] == '\\')	/* not an escape */
			return -1;
		p[1] = p[1] == 'X' ? 'Y' : 'X';
		return 0;
	}
	return -1;
}

static void load_deliberate(const char *path)
{
	static char line[BUF_MAX * 4 + 64];
	FILE *in = fopen(path, "r");
	char *tab;

	if (!in) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		tab = strchr(line, '\t');
		if (!tab || ndeliberate == MAX_DELIBERATE) {
			fprintf(stderr, "%s: bad line: %.60s\n", path, line);
			exit(2);
		}
		deliberate[ndeliberate].line = atoi(line);
		deliberate[ndeliberate].res = strdup(tab + 1);
		if (deliberate[ndeliberate].line == plant_line)
			deliberate[ndeliberate].res[0] ^= 1;
		ndeliberate++;
	}
	fclose(in);
}

static int deliberate_at(int line)
{
	int i;

	for (i = 0; i < ndeliberate; i++)
		if (deliberate[i].line == line)
			return i;
	return -1;
}

static uint64_t fake_clock(void)
{
	return now;
}

static const struct {
	int e;
	const char *n;
} errnames[] = {
	{ EPERM, "EPERM" }, { EINVAL, "EINVAL" }, { EAGAIN, "EAGAIN" },
	{ EPIPE, "EPIPE" }, { ESPIPE, "ESPIPE" }, { ENOMEM, "ENOMEM" },
	{ ENOSPC, "ENOSPC" }, { EFAULT, "EFAULT" }, { EBADF, "EBADF" },
};

static const char *errname(long e)
{
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].e == e)
			return errnames[i].n;
	return "E?";
}

/* \xNN decoding of a transcript field. */
static size_t unescape(const char *in, char *out)
{
	size_t n = 0;

	while (*in) {
		if (in[0] == '\\' && in[1] == 'x' && in[2] && in[3]) {
			char hex[3] = { in[2], in[3], 0 };

			out[n++] = (char)strtol(hex, NULL, 16);
			in += 4;
		} else {
			out[n++] = *in++;
		}
	}
	return n;
}

static void escape(const char *in, size_t len, char *out)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = in[i];

		if (c < 0x20 || c >= 0x7f || c == '\\' || c == '"')
			out += sprintf(out, "\\x%02x", c);
		else
			*out++ = c;
	}
	*out = '\0';
}

/*
 * Replace every "[%5lu.%06lu]" timestamp with "[T]", and "%5lu.%06lu]" at
 * the start (the rest of a partial read cut after the '[') with "T]".
 */
static size_t norm_time(char *s, size_t len)
{
	size_t i = 0, o = 0, j = 0;

	while (j < len && (s[j] == ' ' || (s[j] >= '0' && s[j] <= '9')))
		j++;
	if (j > 0 && j + 7 < len && s[j] == '.' && s[j + 7] == ']') {
		memcpy(s, "T]", 2);
		o = 2;
		i = j + 8;
	}

	while (i < len) {
		if (s[i] == '[') {
			j = i + 1;
			while (j < len && (s[j] == ' ' || (s[j] >= '0' &&
							   s[j] <= '9')))
				j++;
			if (j + 7 < len + 0 && s[j] == '.' && s[j + 7] == ']' &&
			    j > i + 1) {
				memcpy(s + o, "[T]", 3);
				o += 3;
				i = j + 8;
				continue;
			}
		}
		s[o++] = s[i++];
	}
	return o;
}

/* "prio,seq,usec,flags..." -> "prio,<seq-offset>,T,flags...". */
static size_t norm_kmsg(char *s, size_t len, bool kernel, bool *bad)
{
	char out[KLOG_MESSAGE_MAX * 2 + 64], *p, *q;
	long long seq;
	size_t n;

	p = memchr(s, ',', len);
	if (!p)
		return len;
	seq = strtoll(p + 1, &q, 10);
	if (*q != ',')
		return len;
	if (layout_free)
		seq = -1;
	else if (kernel) {
		if (!seq_offset_set)
			return len;	/* compared after the offset is known */
		seq -= seq_offset;
	}
	p = memchr(q + 1, ',', s + len - (q + 1));
	if (!p)
		return len;
	n = snprintf(out, sizeof(out), "%.*s,%lld,T", (int)(strchr(s, ',') -
						      s), s, seq);
	memcpy(out + n, p, s + len - p);
	n += s + len - p;
	memcpy(s, out, n);
	(void)bad;
	return n;
}

static struct gfile *file_by_name(const char *name, bool create)
{
	int i;

	for (i = 0; i < MAX_FILES; i++)
		if (files[i].open && !strcmp(files[i].name, name))
			return &files[i];
	if (!create)
		return NULL;
	for (i = 0; i < MAX_FILES; i++)
		if (!files[i].open) {
			memset(&files[i], 0, sizeof(files[i]));
			snprintf(files[i].name, sizeof(files[i].name), "%s",
				 name);
			return &files[i];
		}
	return NULL;
}

/* "caps drop": the caller has no CAP_SYSLOG (nor CAP_SYS_ADMIN). */
static bool unprivileged;
/* "# pid: N": the recording process, the caller of its records */
static unsigned int caller_pid;

static bool replay_capable(const struct klog_syslog_ctx *ctx, void *owner,
			   int cap)
{
	(void)ctx;
	(void)owner;
	(void)cap;
	return !unprivileged;
}

static const struct klog_syslog_ops replay_ops = {
	.capable = replay_capable,
};

/*
 * kernel.printk_devkmsg reads back the string last written (6.12's
 * devkmsg_log_str, at most 9 bytes), not the mode's name: "onX" is
 * accepted as "on" and reads back as "onX".  Empty: the mode's name.
 */
static char devkmsg_str[10];

/*
 * file_write to kernel.printk_devkmsg as 6.12's devkmsg_sysctl_set_loglvl():
 * the string up to the first newline or NUL must start with "on", "off"
 * or "ratelimit", and the write must be exactly one byte longer than that
 * word (echo's newline; any byte passes).
 */
static long write_devkmsg(const char *v, size_t len)
{
	static const char *const word[] = { "ratelimit", "on", "off" };
	static const int mode[] = { KLOG_DEVKMSG_RATELIMIT, KLOG_DEVKMSG_ON,
				    KLOG_DEVKMSG_OFF };
	size_t n = strnlen(v, len), i;

	if (memchr(v, '\n', n))
		n = (const char *)memchr(v, '\n', n) - v;
	for (i = 0; i < 3; i++) {
		size_t w = strlen(word[i]);

		if (n >= w && !memcmp(v, word[i], w)) {
			if (w + 1 != len)
				return -EINVAL;
			cfg.devkmsg = mode[i];
			snprintf(devkmsg_str, sizeof(devkmsg_str), "%.*s",
				 (int)n, v);
			return len;
		}
	}
	return -EINVAL;
}

/*
 * file_write to kernel.dmesg_restrict as proc_dointvec_minmax_sysadmin():
 * CAP_SYS_ADMIN, then a decimal 0 or 1 (blanks and a newline around it).
 */
static long write_restrict(const char *v, size_t len)
{
	char tmp[32], *end;
	long val;

	if (unprivileged)
		return -EPERM;
	if (len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, v, len);
	tmp[len] = '\0';
	val = strtol(tmp, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (end == tmp || *end || val < 0 || val > 1)
		return -EINVAL;
	klog_ns_set_dmesg_restrict(host, (int)val);
	return len;
}

/* file_write to printk.time's module parameter: kstrtobool(). */
static long write_time(const char *v, size_t len)
{
	if (!len)
		return -EINVAL;
	switch (v[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		cfg.printk_time = true;
		return len;
	case 'n': case 'N': case 'f': case 'F': case '0':
		cfg.printk_time = false;
		return len;
	case 'o': case 'O':
		if (len > 1 && (v[1] == 'n' || v[1] == 'N')) {
			cfg.printk_time = true;
			return len;
		}
		if (len > 1 && (v[1] == 'f' || v[1] == 'F')) {
			cfg.printk_time = false;
			return len;
		}
	}
	return -EINVAL;
}

/*
 * tests/golden/goldenk's parameters: printk("%s", bytes) in the writer's
 * context, and dev_info() of its platform device "goldenk", whose driver
 * string is the bus's name.
 */
#define GOLDENK "/sys/module/goldenk/parameters/"

static long goldenk_printk(const char *v, size_t len)
{
	klog_ns_printk(host, "%.*s", (int)len, v);
	return len;
}

static long goldenk_dev_printk(const char *v, size_t len)
{
	static const char dict[] =
		"SUBSYSTEM=platform\0DEVICE=+platform:goldenk";
	static char text[8192];
	struct klog_msg m = {
		.facility = 0,
		.level = 6,
		.caller_id = caller_pid,
		.text = text,
		.dict = dict,
		.dict_len = sizeof(dict) - 1,
	};

	m.text_len = snprintf(text, sizeof(text), "platform goldenk: %.*s",
			      (int)len, v);
	klog_ns_store(host, &m);
	return len;
}

static void ctx_init(struct klog_syslog_ctx *ctx, int source)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ns = host;
	ctx->ops = &replay_ops;
	ctx->source = source;
	ctx->nonblock = true;
	ctx->scratch = scratch;
}

static void preload(const char *line)
{
	static char text[8192], dict[8192];
	static size_t dict_len;
	static struct klog_msg pending;
	static bool have;
	struct klog_msg m = { 0 };
	const char *semi, *caller;
	unsigned int prio;
	char flags;

	if (!line) {		/* flush */
		if (have) {
			pending.dict = dict_len ? dict : NULL;
			pending.dict_len = dict_len ? dict_len - 1 : 0;
			klog_ns_store(host, &pending);
		}
		have = false;
		dict_len = 0;
		return;
	}
	if (line[1] == ' ' && line[2] == ' ') {	/* dictionary line */
		dict_len += unescape(line + 3, dict + dict_len);
		dict[dict_len++] = '\0';
		return;
	}
	preload(NULL);
	semi = strchr(line, ';');
	if (!semi || sscanf(line + 2, "%u,%c", &prio, &flags) != 2) {
		fprintf(stderr, "bad preload line: %s\n", line);
		failures++;
		return;
	}
	m.facility = prio >> 3;
	m.level = prio & 7;
	m.flags = KLOG_F_NEWLINE | (flags == 'c' ? KLOG_F_CONT : 0);
	m.text_len = unescape(semi + 1, text);
	m.text = text;
	m.caller_id = 1;
	/* ",caller=T123" (a task) or ",caller=C1" (a CPU), if recorded */
	caller = strstr(line, ",caller=");
	if (caller && caller < semi) {
		unsigned long id = strtoul(caller + 9, NULL, 10);

		m.caller_id = caller[8] == 'C' ? 0x80000000u | id : id;
	}
	pending = m;
	have = true;
}

/* Run one op; write its result line (without "< ") into @res. */
static void run_op(char *op, char *res, const char *expect)
{
	static char buf[BUF_MAX], esc[BUF_MAX * 4 + 8];
	char *argv[6] = { 0 }, *p = op;
	struct gfile *f;
	long ret = 0;
	int argc = 0;
	size_t n = 0;
	bool data = false;
	unsigned int revents = 0;
	bool has_revents = false;

	while (argc < 6 && *p) {
		argv[argc++] = p;
		if (argc == 3 && (!strcmp(argv[0], "kmsg_write") ||
				  !strcmp(argv[0], "file_write")))
			break;
		if (argc == 4 && !strcmp(argv[0], "kmsg_flood"))
			break;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	now += 1000000;

	if (!strcmp(argv[0], "kmsg_open")) {
		unsigned int mode = 0;

		f = file_by_name(argv[1], true);
		if (strstr(argv[2], "rdonly") || strstr(argv[2], "rdwr"))
			mode |= KLOG_KMSG_READ;
		if (strstr(argv[2], "wronly") || strstr(argv[2], "rdwr"))
			mode |= KLOG_KMSG_WRITE;
		f->nonblock = strstr(argv[2], "nonblock");
		f->mode = mode;
		ctx_init(&f->ctx, KLOG_FROM_READER);
		ret = klog_kmsg_open(&f->f, &f->ctx, mode);
		f->open = !ret;
	} else if (!strcmp(argv[0], "proc_open")) {
		f = file_by_name(argv[1], true);
		ctx_init(&f->ctx, KLOG_FROM_PROC);
		f->proc = true;
		ret = klog_proc_kmsg_open(&f->ctx);
		f->open = !ret;
	} else if (!strcmp(argv[0], "file_read")) {
		if (!strcmp(argv[1], "/proc/sys/kernel/printk"))
			n = sprintf(buf, "%d\t%d\t%d\t%d\n", cfg.con_level,
				    cfg.default_level, cfg.con_min_level, 7);
		else if (!strcmp(argv[1], "/proc/sys/kernel/printk_devkmsg"))
			n = sprintf(buf, "%s\n", devkmsg_str[0] ? devkmsg_str :
				    cfg.devkmsg == KLOG_DEVKMSG_ON ? "on" :
				    cfg.devkmsg == KLOG_DEVKMSG_OFF ? "off" :
				    "ratelimit");
		else if (!strcmp(argv[1], "/proc/sys/kernel/dmesg_restrict"))
			n = sprintf(buf, "%d\n", host->dmesg_restrict);
		else if (!strcmp(argv[1], "/sys/module/printk/parameters/time"))
			n = sprintf(buf, "%c\n", cfg.printk_time ? 'Y' : 'N');
		ret = n;
		data = n > 0;
	} else if (!strcmp(argv[0], "file_write")) {
		size_t len = unescape(argc > 2 ? argv[2] : "", buf);

		if (!strcmp(argv[1], "/proc/sys/kernel/printk_devkmsg"))
			ret = write_devkmsg(buf, len);
		else if (!strcmp(argv[1], "/proc/sys/kernel/dmesg_restrict"))
			ret = write_restrict(buf, len);
		else if (!strcmp(argv[1], "/sys/module/printk/parameters/time"))
			ret = write_time(buf, len);
		else if (!strcmp(argv[1], GOLDENK "printk"))
			ret = goldenk_printk(buf, len);
		else if (!strcmp(argv[1], GOLDENK "dev_printk"))
			ret = goldenk_dev_printk(buf, len);
		else
			ret = -ENOENT;
	} else if (!strcmp(argv[0], "caps")) {
		unprivileged = !strcmp(argv[1], "drop");
	} else if (!strcmp(argv[0], "sleep_ms")) {
		now += strtoull(argv[1], NULL, 10) * 1000000ull;
	} else if (!strcmp(argv[0], "syslog")) {
		int action = atoi(argv[1]), len = atoi(argv[2]);
		struct klog_syslog_ctx ctx;

		ctx_init(&ctx, KLOG_FROM_READER);
		if (len > BUF_MAX)
			len = BUF_MAX;
		ret = klog_syslog(&ctx, action,
				  argc > 3 && !strcmp(argv[3], "null") ?
				  NULL : buf, len);
		if (ret > 0 && action >= 2 && action <= 4) {
			n = ret;
			data = true;
		}
	} else {
		f = file_by_name(argv[1], false);
		if (!f) {
			sprintf(res, "ret=-1 errno=EBADF");
			return;
		}
		if (!strcmp(argv[0], "kmsg_write")) {
			size_t len = unescape(argc > 2 ? argv[2] : "", buf);

			ret = !(f->mode & KLOG_KMSG_WRITE) ? -EBADF :
				klog_kmsg_write(&f->f, buf, len, "capture");
		} else if (!strcmp(argv[0], "kmsg_flood")) {
			long count = atol(argv[2]), i, r;
			size_t len;

			/* argv[3] holds "<bytes>" after the count. */
			len = unescape(argv[3] ? argv[3] : "", buf);
			for (i = 0, ret = 0; i < count; i++) {
				now += 1000;
				r = !(f->mode & KLOG_KMSG_WRITE) ? -EBADF :
					klog_kmsg_write(&f->f, buf, len,
							"capture");
				if (r < 0) {
					ret = r;
					break;
				}
				ret += r;
			}
		} else if (!strcmp(argv[0], "kmsg_read")) {
			ret = !(f->mode & KLOG_KMSG_READ) ? -EBADF :
				klog_kmsg_read(&f->f, atol(argv[2]),
					       f->nonblock);
			if (ret > 0) {
				memcpy(buf, f->f.outbuf, ret);
				n = ret;
				data = true;
			}
		} else if (!strcmp(argv[0], "kmsg_seek")) {
			static const char *const w[] = { "set", "cur", "end",
							 "data", "hole" };
			int whence = atoi(argv[3]), i;

			for (i = 0; i < 5; i++)
				if (!strcmp(argv[3], w[i]))
					whence = i;
			ret = klog_kmsg_seek(&f->f, atoll(argv[2]), whence);
		} else if (!strcmp(argv[0], "kmsg_poll")) {
			revents = klog_kmsg_poll(&f->f);
			has_revents = true;
			ret = revents ? 1 : 0;
		} else if (!strcmp(argv[0], "kmsg_close")) {
			klog_kmsg_release(&f->f);
			f->open = false;
		} else if (!strcmp(argv[0], "proc_read")) {
			f->ctx.scratch = scratch;
			ret = klog_proc_kmsg_read(&f->ctx, buf, atol(argv[2]),
						  true);
			if (ret > 0) {
				n = ret;
				data = true;
			}
		} else if (!strcmp(argv[0], "proc_poll")) {
			revents = klog_proc_kmsg_poll(&f->ctx);
			has_revents = true;
			ret = revents ? 1 : 0;
		} else if (!strcmp(argv[0], "proc_close")) {
			klog_proc_kmsg_release(&f->ctx);
			f->open = false;
		} else {
			sprintf(res, "unknown op %s", argv[0]);
			return;
		}
	}

	if (ret < 0)
		p = res + sprintf(res, "ret=-1 errno=%s", errname(-ret));
	else
		p = res + sprintf(res, "ret=%ld", ret);
	if (data) {
		escape(buf, n, esc);
		p += sprintf(p, " data=%s", esc);
	}
	if (has_revents)
		p += sprintf(p, " revents=0x%02x", revents);
	(void)expect;
}

/* Compare a result line with the expectation, normalising. */
static bool same(const char *got, const char *want, bool kmsg_read)
{
	static char g[BUF_MAX * 4], w[BUF_MAX * 4];
	const char *gd = strstr(got, " data="), *wd = strstr(want, " data=");
	size_t gl, wl;

	if (!gd || !wd)
		return !strcmp(got, want);
	gl = unescape(gd + 6, g);
	wl = unescape(wd + 6, w);
	/* ret is the data's length on both sides; the data is compared. */
	if (layout_free && kmsg_read) {
		bool ok = strtol(got + 4, NULL, 10) == (long)gl &&
			strtol(want + 4, NULL, 10) == (long)wl;

		gl = norm_kmsg(g, gl, false, NULL);
		wl = norm_kmsg(w, wl, true, NULL);
		return ok && gl == wl && !memcmp(g, w, gl);
	}
	if (strtol(got + 4, NULL, 10) != (long)gl ||
	    strtol(want + 4, NULL, 10) != (long)wl)
		return false;
	if (kmsg_read) {
		long long ks, ls;
		const char *kp = memchr(w, ',', wl), *lp = memchr(g, ',', gl);

		if (kp && lp) {
			ks = strtoll(kp + 1, NULL, 10);
			ls = strtoll(lp + 1, NULL, 10);
			if (!seq_offset_set) {
				seq_offset = ks - ls;
				seq_offset_set = true;
			}
		}
		gl = norm_kmsg(g, gl, false, NULL);
		wl = norm_kmsg(w, wl, true, NULL);
	}
	gl = norm_time(g, gl);
	wl = norm_time(w, wl);
	return gl == wl && !memcmp(g, w, gl);
}

/* The ring size the transcript's SIZE_BUFFER reports, else 128 KiB. */
static unsigned int ring_size(FILE *in)
{
	char line[8192];
	unsigned int size = 128 * 1024;
	bool next = false;

	while (fgets(line, sizeof(line), in)) {
		if (next && !strncmp(line, "< ret=", 6))
			size = strtoul(line + 6, NULL, 10);
		next = !strncmp(line, "> syslog 10 ", 12);
	}
	rewind(in);
	return size;
}

int main(int argc, char **argv)
{
	static char line[BUF_MAX * 4 + 64], op[BUF_MAX * 4 + 64];
	static char res[BUF_MAX * 4 + 256];
	struct klog_ns_params p = { 0 };
	bool have_op = false, kmsg_read = false, layout_count = false;
	const char *path = NULL, *deliberate_path = NULL;
	int i, d, lineno = 0, nops = 0, nfail;
	FILE *in;

	klog_config_init(&cfg);
	cfg.read_commits = false;	/* 6.12: pending lines stay hidden */
	cfg.devkmsg = KLOG_DEVKMSG_ON;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--layout-free"))
			layout_free = true;
		else if (!strncmp(argv[i], "--deliberate=", 13))
			deliberate_path = argv[i] + 13;
		else if (!strncmp(argv[i], "--plant=", 8))
			plant_line = atoi(argv[i] + 8);
		else if (!strncmp(argv[i], "--plant-flags=", 14)) {
			plant_line = atoi(argv[i] + 14);
			plant_kind = PLANT_FLAGS;
		} else if (!strncmp(argv[i], "--plant-text=", 13)) {
			plant_line = atoi(argv[i] + 13);
			plant_kind = PLANT_TEXT;
		}
		else if (!strcmp(argv[i], "--print-differences"))
			print_differences = true;
		else if (!strcmp(argv[i], "--devkmsg=ratelimit"))
			cfg.devkmsg = KLOG_DEVKMSG_RATELIMIT;
		else if (!strcmp(argv[i], "--devkmsg=on"))
			cfg.devkmsg = KLOG_DEVKMSG_ON;
		else if (!strcmp(argv[i], "--caller"))
			cfg.printk_caller = true;
		else
			path = argv[i];
	}
	if (deliberate_path)
		load_deliberate(deliberate_path);
	if (!path) {
		fprintf(stderr, "usage: golden_replay [--devkmsg=on|ratelimit] [--caller] [--layout-free] [--deliberate=FILE] [--print-differences] TRANSCRIPT\n");
		return 2;
	}
	in = fopen(path, "r");
	if (!in) {
		perror(path);
		return 2;
	}
	klog_testing_set_clock(fake_clock);
	cfg.max_size = 1u << 24;
	p.cfg = &cfg;
	p.size = ring_size(in);
	if (klog_ns_create(NULL, &p, &host)) {
		fprintf(stderr, "cannot create a %u-byte log\n", p.size);
		return 2;
	}

	while (fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!strncmp(line, "# pid: ", 7)) {
			if (cfg.printk_caller) {	/* only --caller's */
				caller_pid = strtoul(line + 7, NULL, 10);
				klog_testing_set_caller_id(caller_pid);
			}
			continue;
		}
		if (!strncmp(line, "# /proc/sys/kernel/printk: ", 27)) {
			sscanf(line + 27, "%d %d %d", &cfg.con_level,
			       &cfg.default_level, &cfg.con_min_level);
			continue;
		}
		if (line[0] == '=') {
			preload(line);
			continue;
		}
		if (line[0] == '>' && line[1] == ' ') {
			preload(NULL);
			if (have_op) {
				failures++;
				printf("%s:%d: the operation before has no result\n",
				       path, lineno);
			}
			nops++;
			snprintf(op, sizeof(op), "%s", line + 2);
			kmsg_read = !strncmp(op, "kmsg_read ", 10);
			layout_count = layout_free &&
				!strncmp(op, "syslog 9 ", 9);
			run_op(op, res, NULL);
			have_op = true;
			continue;
		}
		if (line[0] == '<' && line[1] == ' ' && have_op) {
			ops++;
			nfail = failures;
			if (lineno == plant_line &&
			    plant(line + 2, sizeof(line) - 2))
				fprintf(stderr, "%s:%d: nothing to plant in\n",
					path, lineno);
			/* Counts that follow from the ring's layout. */
			if (layout_count) {
				skipped++;
				have_op = false;
				continue;
			}
			d = deliberate_at(lineno);
			if (same(res, line + 2, kmsg_read)) {
				if (d >= 0) {
					failures++;
					deliberate[d].used = true;
					printf("%s:%d: listed as a deliberate difference, but agrees with Linux 6.12\n",
					       path, lineno);
				}
			} else if (print_differences) {
				printf("%d\t%s\n", lineno, res);
			} else if (d >= 0) {
				deliberate[d].used = true;
				if (strcmp(res, deliberate[d].res)) {
					failures++;
					printf("%s:%d: differs from Linux 6.12 and from libklog's documented answer\n"
					       "  kernel:     %s\n  documented: %s\n  libklog:    %s\n",
					       path, lineno, line + 2,
					       deliberate[d].res, res);
				} else {
					nmatched++;
				}
			} else {
				failures++;
				printf("%s:%d: differs from Linux 6.12\n"
				       "  kernel:  %s\n  libklog: %s\n",
				       path, lineno, line + 2, res);
			}
			if (failures != nfail)
				fail_line = lineno;
			have_op = false;
		}
	}
	fclose(in);
	if (have_op) {
		failures++;
		printf("%s: the last operation has no result\n", path);
	}
	if (ops != nops) {
		failures++;
		printf("%s: %d operations but %d results compared\n", path,
		       nops, ops);
	}
	for (i = 0; i < ndeliberate; i++) {
		if (deliberate[i].used || print_differences)
			continue;
		failures++;
		printf("%s:%d: listed as a deliberate difference, but no result there\n",
		       path, deliberate[i].line);
	}
	for (i = 0; i < MAX_FILES; i++) {
		if (!files[i].open)
			continue;
		if (files[i].proc)
			klog_proc_kmsg_release(&files[i].ctx);
		else
			klog_kmsg_release(&files[i].f);
	}
	klog_ns_put(host);
	for (i = 0; i < ndeliberate; i++)
		free(deliberate[i].res);
	printf("%s: %d of %d operations compared, %d differences, %d layout-dependent counts skipped, %d deliberate differences (of %d listed) as documented\n",
	       path, ops, nops, failures, skipped, nmatched, ndeliberate);
	if (plant_line) {
		bool caught = failures == 1 && fail_line == plant_line;

		printf("%s: planted defect at line %d %s\n", path, plant_line,
		       caught ? "caught (the one difference above)" :
		       "NOT caught as the only difference: the comparison is broken");
		return caught ? 0 : 1;
	}
	return failures || print_differences ? 1 : 0;
}
