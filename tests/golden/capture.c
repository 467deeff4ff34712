// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * capture.c - record a golden transcript of the kernel log interfaces.
 *
 * Runs inside the QEMU guest of the stock Linux 6.12 kernel (built static,
 * gcc -static) and writes to stdout the transcript format described in
 * docs/golden-format.md:
 *
 *   # comment lines (header, and the comments of the ops file)
 *   = <prio>,<flags>;<text>        the preload: every record already in the
 *   =  <KEY=value>                  log (and its dictionary lines)
 *   > <op> <args>                  one operation ...
 *   < ret=<n>[ errno=E][ data=D][ revents=0xNN]   ... and its result
 *
 * Usage: capture OPS-FILE
 *
 * The ops file holds one operation per line in the transcript's "> " syntax
 * (without the "> "), '#' comment lines (copied to the transcript) and
 * blank lines.  Byte arguments may use \xNN, \n, \r, \t, \\ and \" escapes;
 * the transcript always shows the canonical \xNN form.  One macro exists
 * only in ops files:
 *
 *   kmsg_write_rep <fd> <count> <unit> [<prefix> [<suffix>]]
 *
 * writes prefix + count * unit + suffix (tokens escaped, no spaces; "-" is
 * empty) and is recorded as the plain kmsg_write it expands to.
 *
 * Exit status: 0 when every operation ran and no kernel-originated record
 * raced with the capture; 1 when the transcript must not be trusted (an
 * operation blocked, or a foreign kernel record appeared); 2 on a bad ops
 * file or usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 64
#define OP_TIMEOUT_S 10		/* an op that blocks this long is a bug */
#define KMSG_MAX_RECORD 8192	/* larger than any /dev/kmsg record */

/* Every poll asks for all of these, so revents shows the whole mask. */
#define POLL_EVENTS (POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND | \
		     POLLWRNORM | POLLWRBAND)

static const char *ops_path;
static int ops_line;
static int failures;
static unsigned long long preload_next_seq;

struct named_fd {
	char name[32];
	int fd;
};
static struct named_fd fds[MAX_FDS];

static __attribute__((noreturn, format(printf, 1, 2)))
void die_ops(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "capture: %s:%d: ", ops_path, ops_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* ---- output ------------------------------------------------------------- */

/*
 * Transcript escaping: bytes below 0x20, at or above 0x7f, backslash and
 * double quote become \xNN (lowercase); a space that ends the field does
 * too, so that no line ends in whitespace.  Everything else is literal.
 */
static void put_escaped(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (c < 0x20 || c >= 0x7f || c == '\\' || c == '"' ||
		    (c == ' ' && i == n - 1))
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static void end_line(void)
{
	putchar('\n');
	fflush(stdout);
}

static const char *errno_name(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case ESPIPE: return "ESPIPE";
	case EPIPE: return "EPIPE";
	case ENOSYS: return "ENOSYS";
	case EOVERFLOW: return "EOVERFLOW";
	case EMSGSIZE: return "EMSGSIZE";
	case ENXIO: return "ENXIO";
	case ENODEV: return "ENODEV";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* result() - print the "< " line; data is shown when ret > 0. */
static void result(long long ret, int err, const void *data, bool poll_op,
		   short revents)
{
	printf("< ret=%lld", ret);
	if (ret < 0)
		printf(" errno=%s", errno_name(err));
	if (data && ret > 0) {
		printf(" data=");
		put_escaped(data, (size_t)ret);
	}
	if (poll_op)
		printf(" revents=0x%02x", (unsigned short)revents);
	end_line();
}

/* ---- ops-file parsing -------------------------------------------------- */

/* unescape() - decode \xNN \n \r \t \\ \" in place; returns the length. */
static size_t unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		r++;
		switch (*r) {
		case 'n': *w++ = '\n'; r++; break;
		case 't': *w++ = '\t'; r++; break;
		case 'r': *w++ = '\r'; r++; break;
		case '\\': *w++ = '\\'; r++; break;
		case '"': *w++ = '"'; r++; break;
		case 'x':
			if (!isxdigit((unsigned char)r[1]) ||
			    !isxdigit((unsigned char)r[2]))
				die_ops("bad \\x escape");
			{
				char hex[3] = { r[1], r[2], 0 };

				*w++ = (char)strtoul(hex, NULL, 16);
			}
			r += 3;
			break;
		default:
			die_ops("unknown escape \\%c", *r);
		}
	}
	*w = 0;
	return (size_t)(w - s);
}

/* next_tok() - split off the next space-separated token (NULL at end). */
static char *next_tok(char **rest)
{
	char *s = *rest, *e;

	if (!s)
		return NULL;
	while (*s == ' ')
		s++;
	if (!*s) {
		*rest = NULL;
		return NULL;
	}
	e = strchr(s, ' ');
	if (e) {
		*e = 0;
		*rest = e + 1;
	} else {
		*rest = NULL;
	}
	return s;
}

static char *need_tok(char **rest, const char *what)
{
	char *t = next_tok(rest);

	if (!t)
		die_ops("missing %s", what);
	return t;
}

static long long need_num(char **rest, const char *what)
{
	char *t = need_tok(rest, what), *end;
	long long v;

	errno = 0;
	v = strtoll(t, &end, 0);
	if (errno || *end)
		die_ops("bad %s '%s'", what, t);
	return v;
}

static void no_more(char **rest)
{
	char *t = next_tok(rest);

	if (t)
		die_ops("unexpected argument '%s'", t);
}

static struct named_fd *find_fd(const char *name, bool create)
{
	struct named_fd *free_slot = NULL;

	for (int i = 0; i < MAX_FDS; i++) {
		if (fds[i].name[0] && !strcmp(fds[i].name, name)) {
			if (create)
				die_ops("fd name '%s' is already open", name);
			return &fds[i];
		}
		if (!fds[i].name[0] && !free_slot)
			free_slot = &fds[i];
	}
	if (!create)
		die_ops("no open fd named '%s'", name);
	if (!free_slot)
		die_ops("too many open fds");
	if (strlen(name) >= sizeof(free_slot->name))
		die_ops("fd name too long");
	return free_slot;
}

/* ---- the operations ---------------------------------------------------- */

static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("capture: malloc");
		exit(2);
	}
	return p;
}

static void op_open(char *rest, bool proc)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, true);
	int flags;
	char *mode = NULL;

	if (proc) {
		char *block = next_tok(&rest);

		if (block && strcmp(block, "block"))
			die_ops("unexpected '%s' (only 'block')", block);
		flags = O_RDONLY | (block ? 0 : O_NONBLOCK);
		printf("> proc_open %s%s", name, block ? " block" : "");
	} else {
		mode = need_tok(&rest, "mode");
		char base[16];
		const char *comma = strchr(mode, ',');
		size_t bl = comma ? (size_t)(comma - mode) : strlen(mode);

		if (comma && strcmp(comma, ",nonblock"))
			die_ops("bad mode flag '%s'", comma);
		if (bl >= sizeof(base))
			die_ops("bad open mode '%s'", mode);
		memcpy(base, mode, bl);
		base[bl] = 0;
		flags = comma ? O_NONBLOCK : 0;
		if (!strcmp(base, "rdonly"))
			flags |= O_RDONLY;
		else if (!strcmp(base, "wronly"))
			flags |= O_WRONLY;
		else if (!strcmp(base, "rdwr"))
			flags |= O_RDWR;
		else
			die_ops("bad open mode '%s'", mode);
		printf("> kmsg_open %s %s", name, mode);
	}
	no_more(&rest);
	end_line();

	int fd = open(proc ? "/proc/kmsg" : "/dev/kmsg", flags | O_CLOEXEC);
	int err = errno;

	if (fd >= 0) {
		snprintf(nf->name, sizeof(nf->name), "%s", name);
		nf->fd = fd;
	}
	/* The fd number means nothing to a replayer: success is ret=0. */
	result(fd >= 0 ? 0 : -1, err, NULL, false, 0);
}

static void op_close(char *rest, const char *op)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);

	no_more(&rest);
	printf("> %s %s", op, name);
	end_line();
	int r = close(nf->fd);
	int err = errno;

	nf->name[0] = 0;
	result(r, err, NULL, false, 0);
}

static void do_write(struct named_fd *nf, const unsigned char *buf, size_t n)
{
	printf("> kmsg_write %s ", nf->name);
	put_escaped(buf, n);
	end_line();
	ssize_t r = write(nf->fd, buf, n);

	result(r, errno, NULL, false, 0);
}

static void op_write(char *rest)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);
	char *bytes = rest ? rest : (char *)"";
	size_t n = unescape(bytes);

	do_write(nf, (unsigned char *)bytes, n);
}

static void op_write_rep(char *rest)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);
	long long count = need_num(&rest, "count");
	char *unit = need_tok(&rest, "unit");
	char *prefix = next_tok(&rest);
	char *suffix = next_tok(&rest);
	size_t ul, pl = 0, sl = 0;

	no_more(&rest);
	if (count < 0 || count > 100000)
		die_ops("bad count");
	ul = unescape(unit);
	if (prefix && strcmp(prefix, "-"))
		pl = unescape(prefix);
	if (suffix && strcmp(suffix, "-"))
		sl = unescape(suffix);

	size_t n = pl + (size_t)count * ul + sl;
	unsigned char *buf = xmalloc(n), *p = buf;

	if (pl)
		memcpy(p, prefix, pl);
	p += pl;
	for (long long i = 0; i < count; i++, p += ul)
		memcpy(p, unit, ul);
	if (sl)
		memcpy(p, suffix, sl);
	do_write(nf, buf, n);
	free(buf);
}

static void op_flood(char *rest)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);
	long long count = need_num(&rest, "count");
	char *bytes = rest ? rest : (char *)"";
	size_t n = unescape(bytes);
	long long total = 0;
	int err = 0;

	printf("> kmsg_flood %s %lld ", name, count);
	put_escaped((unsigned char *)bytes, n);
	end_line();
	for (long long i = 0; i < count; i++) {
		ssize_t r = write(nf->fd, bytes, n);

		if (r < 0) {
			err = errno;
			total = -1;
			break;
		}
		total += r;
	}
	result(total, err, NULL, false, 0);
}

static void op_read(char *rest, const char *op)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);
	long long size = need_num(&rest, "buffer size");

	no_more(&rest);
	if (size < 0 || size > (1 << 24))
		die_ops("bad buffer size");
	printf("> %s %s %lld", op, name, size);
	end_line();
	char *buf = xmalloc((size_t)size);
	ssize_t r = read(nf->fd, buf, (size_t)size);

	result(r, errno, buf, false, 0);
	free(buf);
}

static void op_poll(char *rest, const char *op)
{
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);
	struct pollfd p = { .fd = nf->fd, .events = POLL_EVENTS };

	no_more(&rest);
	printf("> %s %s", op, name);
	end_line();
	int r = poll(&p, 1, 0);

	result(r, errno, NULL, true, r < 0 ? 0 : p.revents);
}

static void op_seek(char *rest)
{
	static const char *const names[] = { "set", "cur", "end", "data", "hole" };
	char *name = need_tok(&rest, "fd name");
	struct named_fd *nf = find_fd(name, false);
	long long off = need_num(&rest, "offset");
	char *w = need_tok(&rest, "whence");
	int whence = -1;

	no_more(&rest);
	for (int i = 0; i < 5; i++)
		if (!strcmp(w, names[i]))
			whence = i;
	if (whence < 0) {
		char *end;

		whence = (int)strtol(w, &end, 10);
		if (*end || !*w)
			die_ops("bad whence '%s'", w);
	}
	printf("> kmsg_seek %s %lld %s", name, off, w);
	end_line();
	off_t r = lseek(nf->fd, (off_t)off, whence);

	result((long long)r, errno, NULL, false, 0);
}

static void op_syslog(char *rest)
{
	static char small[64];
	long long action = need_num(&rest, "action");
	long long len = need_num(&rest, "length");
	char *t = next_tok(&rest);
	bool null = false;

	if (t && !strcmp(t, "null"))
		null = true;
	else if (t)
		die_ops("unexpected '%s' (only 'null')", t);
	no_more(&rest);
	if (len > (1 << 24))
		die_ops("length too large");
	printf("> syslog %lld %lld%s", action, len, null ? " null" : "");
	end_line();

	char *buf = NULL;

	if (!null)
		buf = len > (long long)sizeof(small) ? xmalloc((size_t)len) : small;
	long r = syscall(SYS_syslog, (int)action, buf, (int)len);
	int err = errno;
	bool reads = action == 2 || action == 3 || action == 4;

	result(r, err, reads ? buf : NULL, false, 0);
	if (buf && buf != small)
		free(buf);
}

static void op_file_read(char *rest)
{
	char *path = need_tok(&rest, "path");
	long long size = need_num(&rest, "buffer size");

	no_more(&rest);
	printf("> file_read %s %lld", path, size);
	end_line();
	char *buf = xmalloc((size_t)size);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r = fd < 0 ? -1 : read(fd, buf, (size_t)size);
	int err = errno;

	if (fd >= 0)
		close(fd);
	result(r, err, buf, false, 0);
	free(buf);
}

/*
 * file_write PATH BYTES: one write() of BYTES to PATH (a sysctl, a module
 * parameter), opened O_WRONLY.  ret is write()'s.
 */
static void op_file_write(char *rest)
{
	char *path = need_tok(&rest, "path");
	char *bytes = rest ? rest : (char *)"";
	size_t n = unescape(bytes);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t r = fd < 0 ? -1 : write(fd, bytes, n);
	int err = errno;

	printf("> file_write %s ", path);
	put_escaped((unsigned char *)bytes, n);
	end_line();
	if (fd >= 0)
		close(fd);
	result(r, err, NULL, false, 0);
}

/*
 * caps drop|raise: take CAP_SYSLOG and CAP_SYS_ADMIN out of the effective
 * set (they stay permitted), or put them back.  Still uid 0, so file
 * permissions do not change: what changes is what the syslog checks see
 * (an unprivileged caller), and back.
 */
static void op_caps(char *rest)
{
	char *how = need_tok(&rest, "drop or raise");
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	__u32 bits = (1u << (CAP_SYSLOG - 32)), admin = 1u << CAP_SYS_ADMIN;
	long r;

	no_more(&rest);
	if (strcmp(how, "drop") && strcmp(how, "raise"))
		die_ops("caps: 'drop' or 'raise', not '%s'", how);
	printf("> caps %s", how);
	end_line();
	r = syscall(SYS_capget, &h, d);
	if (!r) {
		if (!strcmp(how, "drop")) {
			d[1].effective &= ~bits;
			d[0].effective &= ~admin;
		} else {
			d[1].effective |= bits & d[1].permitted;
			d[0].effective |= admin & d[0].permitted;
		}
		r = syscall(SYS_capset, &h, d);
	}
	result(r, errno, NULL, false, 0);
}

static void op_sleep(char *rest)
{
	long long ms = need_num(&rest, "milliseconds");
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	no_more(&rest);
	printf("> sleep_ms %lld", ms);
	end_line();
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	result(0, 0, NULL, false, 0);
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

/*
 * proc_state() - the state letter of process @pid (/proc/PID/stat's third
 * field), or 0.
 */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * sig_read syslog|<fd> restart|norestart: a read that blocks (syslog(2)
 * READ with 4096 bytes, or read() of 4096 bytes on the named file), a
 * SIGUSR1 whose handler has SA_RESTART or not once the reader sleeps,
 * then a record "sig_read wake" written by the helper that sent it.
 * Without SA_RESTART the read fails with EINTR (the record stays for
 * the next read); with it the read goes on and returns the record.
 */
static void op_sig_read(char *rest)
{
	char *what = need_tok(&rest, "syslog or fd name");
	char *how = need_tok(&rest, "restart or norestart");
	struct named_fd *nf = NULL;
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	pid_t reader = getpid(), helper;
	char *buf;
	long r;
	int err;

	no_more(&rest);
	if (strcmp(what, "syslog"))
		nf = find_fd(what, false);
	if (!strcmp(how, "restart"))
		sa.sa_flags = SA_RESTART;
	else if (strcmp(how, "norestart"))
		die_ops("bad mode '%s' (restart or norestart)", how);
	printf("> sig_read %s %s", what, how);
	end_line();
	fflush(stdout);
	usr1_seen = 0;
	sigaction(SIGUSR1, &sa, &old);
	helper = fork();
	if (helper < 0) {
		perror("capture: fork");
		exit(2);
	}
	if (helper == 0) {
		int i, fd;

		/* wait until the reader sleeps in the read, then a while */
		for (i = 0; i < 5000 && proc_state(reader) != 'S'; i++)
			pause_ms(1);
		pause_ms(50);
		kill(reader, SIGUSR1);
		pause_ms(200);
		fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "<5>sig_read wake\n", 17) != 17)
			_exit(1);
		_exit(0);
	}
	buf = xmalloc(4096);
	if (nf)
		r = read(nf->fd, buf, 4096);
	else
		r = syscall(SYS_syslog, 2, buf, 4096);
	err = errno;
	waitpid(helper, NULL, 0);
	sigaction(SIGUSR1, &old, NULL);
	if (usr1_seen != 1) {
		printf("# WARNING: the signal handler ran %d times, not once",
		       (int)usr1_seen);
		end_line();
		failures++;
	}
	result(r, err, buf, false, 0);
	free(buf);
}

static void run_op(char *line)
{
	char *rest = line;
	char *op = need_tok(&rest, "operation");

	alarmed = 0;
	alarm(OP_TIMEOUT_S);
	if (!strcmp(op, "kmsg_open"))
		op_open(rest, false);
	else if (!strcmp(op, "proc_open"))
		op_open(rest, true);
	else if (!strcmp(op, "kmsg_close") || !strcmp(op, "proc_close"))
		op_close(rest, op);
	else if (!strcmp(op, "kmsg_write"))
		op_write(rest);
	else if (!strcmp(op, "kmsg_write_rep"))
		op_write_rep(rest);
	else if (!strcmp(op, "kmsg_flood"))
		op_flood(rest);
	else if (!strcmp(op, "kmsg_read") || !strcmp(op, "proc_read"))
		op_read(rest, op);
	else if (!strcmp(op, "kmsg_poll") || !strcmp(op, "proc_poll"))
		op_poll(rest, op);
	else if (!strcmp(op, "kmsg_seek"))
		op_seek(rest);
	else if (!strcmp(op, "syslog"))
		op_syslog(rest);
	else if (!strcmp(op, "file_read"))
		op_file_read(rest);
	else if (!strcmp(op, "file_write"))
		op_file_write(rest);
	else if (!strcmp(op, "caps"))
		op_caps(rest);
	else if (!strcmp(op, "sleep_ms"))
		op_sleep(rest);
	else if (!strcmp(op, "sig_read"))
		op_sig_read(rest);
	else
		die_ops("unknown operation '%s'", op);
	alarm(0);
	if (alarmed) {
		printf("# WARNING: the operation above blocked for %d s and was interrupted",
		       OP_TIMEOUT_S);
		end_line();
		failures++;
	}
}

/* ---- the preload and the final check ---------------------------------- */

/*
 * kmsg_unescape() - undo /dev/kmsg's \xNN escaping of @n bytes at @s, in
 * place; returns the new length.
 */
static size_t kmsg_unescape(char *s, size_t n)
{
	size_t r = 0, w = 0;

	while (r < n) {
		if (s[r] == '\\' && r + 3 < n && s[r + 1] == 'x' &&
		    isxdigit((unsigned char)s[r + 2]) &&
		    isxdigit((unsigned char)s[r + 3])) {
			char hex[3] = { s[r + 2], s[r + 3], 0 };

			s[w++] = (char)strtoul(hex, NULL, 16);
			r += 4;
		} else {
			s[w++] = s[r++];
		}
	}
	return w;
}

struct kmsg_rec {
	unsigned prio;
	unsigned long long seq;
	char flags;
	char caller[16];	/* "T123", "C1" (PRINTK_CALLER) or "" */
	char *text;		/* unescaped, not NUL-terminated */
	size_t text_len;
	char *dict;		/* the rest: " KEY=value\n" lines, raw */
	size_t dict_len;
};

/* parse_kmsg() - split one /dev/kmsg record; false if malformed. */
static bool parse_kmsg(char *buf, size_t n, struct kmsg_rec *rec)
{
	char *semi = memchr(buf, ';', n), *nl;
	unsigned long long usec;

	char *c;

	if (!semi || sscanf(buf, "%u,%llu,%llu,%c", &rec->prio, &rec->seq,
			    &usec, &rec->flags) != 4)
		return false;
	rec->caller[0] = 0;
	c = memmem(buf, (size_t)(semi - buf), ",caller=", 8);
	if (c && semi - (c + 8) < (long)sizeof(rec->caller)) {
		memcpy(rec->caller, c + 8, (size_t)(semi - (c + 8)));
		rec->caller[semi - (c + 8)] = 0;
	}
	rec->text = semi + 1;
	nl = memchr(rec->text, '\n', (size_t)(buf + n - rec->text));
	if (!nl)
		nl = buf + n;
	rec->dict = nl < buf + n ? nl + 1 : nl;
	rec->dict_len = (size_t)(buf + n - rec->dict);
	rec->text_len = kmsg_unescape(rec->text, (size_t)(nl - rec->text));
	return true;
}

/* preload() - print every record already in the log as "= " lines. */
static void preload(void)
{
	char *buf = xmalloc(KMSG_MAX_RECORD);
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	unsigned long long first = 0, count = 0;
	ssize_t n;

	if (fd < 0) {
		perror("capture: /dev/kmsg");
		exit(2);
	}
	while ((n = read(fd, buf, KMSG_MAX_RECORD)) > 0) {
		struct kmsg_rec rec;

		if (!parse_kmsg(buf, (size_t)n, &rec)) {
			fprintf(stderr, "capture: malformed /dev/kmsg record\n");
			exit(2);
		}
		if (!count++)
			first = rec.seq;
		preload_next_seq = rec.seq + 1;
		printf("= %u,%c%s%s;", rec.prio, rec.flags,
		       rec.caller[0] ? ",caller=" : "", rec.caller);
		put_escaped((unsigned char *)rec.text, rec.text_len);
		end_line();
		/* dictionary lines: " KEY=value\n" each */
		char *d = rec.dict, *end = rec.dict + rec.dict_len;

		while (d < end) {
			char *e = memchr(d, '\n', (size_t)(end - d));
			size_t l;

			if (!e)
				e = end;
			if (*d == ' ')
				d++;
			l = kmsg_unescape(d, (size_t)(e - d));
			printf("=  ");
			put_escaped((unsigned char *)d, l);
			end_line();
			d = e + 1;
		}
	}
	if (n < 0 && errno != EAGAIN) {
		perror("capture: reading the preload");
		exit(2);
	}
	close(fd);
	printf("# preload: %llu records, seq %llu..%llu", count, first,
	       preload_next_seq ? preload_next_seq - 1 : 0);
	end_line();
	free(buf);
}

/*
 * check_intruders() - every record stored after the preload must come from
 * the operations: user-space facility, one of the kernel's own messages
 * that /dev/kmsg operations cause (the ratelimit report on release), or,
 * with CONFIG_PRINTK_CALLER, a kernel message whose caller is this
 * process (goldenk prints in the writer's context).  A
 * kernel message from elsewhere (a late boot message, a warning) would make
 * the transcript depend on timing: report it and fail.
 */
static void check_intruders(void)
{
	char *buf = xmalloc(KMSG_MAX_RECORD);
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	unsigned intruders = 0;
	char self[16];
	ssize_t n;

	snprintf(self, sizeof(self), "T%d", (int)getpid());
	if (fd < 0) {
		perror("capture: /dev/kmsg");
		exit(2);
	}
	for (;;) {
		struct kmsg_rec rec;

		n = read(fd, buf, KMSG_MAX_RECORD);
		if (n < 0 && errno == EPIPE)
			continue;	/* lost records: go on from the oldest */
		if (n <= 0)
			break;
		if (!parse_kmsg(buf, (size_t)n, &rec) || rec.seq < preload_next_seq)
			continue;
		if (rec.prio >> 3)
			continue;	/* user space */
		/*
		 * Printed for an operation, unless it is a kernel report
		 * (an operation that makes the kernel warn is a finding)
		 */
		if (!strcmp(rec.caller, self) &&
		    !memmem(rec.text, rec.text_len, "WARNING:", 8) &&
		    !memmem(rec.text, rec.text_len, "BUG:", 4) &&
		    !memmem(rec.text, rec.text_len, "Call Trace:", 11))
			continue;
		if (memmem(rec.text, rec.text_len,
			   " output lines suppressed due to ratelimiting", 44))
			continue;
		printf("# INTRUDER: seq %llu prio %u: ", rec.seq, rec.prio);
		put_escaped((unsigned char *)rec.text, rec.text_len);
		end_line();
		intruders++;
	}
	close(fd);
	free(buf);
	printf("# check: %u foreign kernel records during the capture", intruders);
	end_line();
	if (intruders)
		failures++;
}

/* ---- main ---------------------------------------------------------------- */

static void header(void)
{
	static const char *const files[] = {
		"/proc/sys/kernel/printk", "/proc/sys/kernel/printk_devkmsg",
		"/proc/sys/kernel/dmesg_restrict", "/proc/cmdline",
	};
	struct utsname u;
	char buf[1024];

	uname(&u);
	printf("# libklog golden transcript: format in docs/golden-format.md");
	end_line();
	printf("# ops: %s", ops_path);
	end_line();
	printf("# kernel: %s %s", u.sysname, u.release);
	end_line();
	/* the caller id of its own records, with CONFIG_PRINTK_CALLER */
	printf("# pid: %d", (int)getpid());
	end_line();
	/* current->comm, as the kernel's own messages about us show it. */
	FILE *f = fopen("/proc/self/comm", "r");

	if (f && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = 0;
		printf("# comm: %s", buf);
		end_line();
	}
	if (f)
		fclose(f);
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		f = fopen(files[i], "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = 0;
			printf("# %s: %s", files[i], buf);
			end_line();
		}
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *ops;

	if (argc != 2) {
		fprintf(stderr, "usage: capture OPS-FILE\n");
		return 2;
	}
	ops_path = argv[1];
	ops = fopen(ops_path, "r");
	if (!ops) {
		perror(ops_path);
		return 2;
	}
	/* One write() per line: nothing else can split our lines. */
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	sigaction(SIGALRM, &sa, NULL);

	header();
	preload();
	while ((len = getline(&line, &cap, ops)) >= 0) {
		ops_line++;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		if (!len)
			continue;
		if (line[0] == '#') {
			printf("%s", line);
			end_line();
			continue;
		}
		run_op(line);
	}
	free(line);
	fclose(ops);
	check_intruders();
	return failures ? 1 : 0;
}
