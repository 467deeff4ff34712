// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_kmsg_write - the /dev/kmsg write parser (klog_kmsg_write()).
 *
 * Input: one configuration byte, then writes, each a 16-bit length (mod
 * 1100, so that some exceed KLOG_RECORD_MAX) and that many bytes.  They
 * go to a child namespace (or the root) through one open file; then
 * everything is read back through klog_ns_read(), a /dev/kmsg reader and
 * READ_ALL.
 *
 * With printk.devkmsg=on every record is compared with what upstream's
 * devkmsg_write() makes of the write: "<N>" parsed by simple_strtoul,
 * level N & 7, facility (N >> 3) & 0xff unless that is 0 (then LOG_USER),
 * text up to the first NUL and at most 1023 bytes, one trailing newline
 * stripped, one record per write (an empty one too), and so is its copy
 * in the parent under propagate=2 (label "[ns:<id>] " or
 * "[ns:<id>:box] ", the copy dictionary).  The /dev/kmsg text is
 * unescaped and compared too.  Under propagate=1 nothing user space
 * wrote reaches the parent, the ratelimit's notes included.
 */
#include "fuzz.h"

#define MAX_WRITES 64

struct expect {
	int level, facility;
	bool newline;
	u32 len;
	const char *text;
};

static struct expect exp_[MAX_WRITES];

static void parse_expect(const uint8_t *buf, size_t len, struct expect *e)
{
	const char *line = (const char *)buf, *end = line + len, *q, *nul;
	unsigned long u = 0;

	e->level = KLOG_DEFAULT_LEVEL;
	e->facility = 1;
	if (len && line[0] == '<') {
		for (q = line + 1; q < end && *q >= '0' && *q <= '9'; q++)
			u = u * 10 + (unsigned long)(*q - '0');
		if (q < end && *q == '>') {
			e->level = (int)(u & 7);
			if ((u >> 3) & 0xff)
				e->facility = (int)((u >> 3) & 0xff);
			line = q + 1;
		}
	}
	nul = memchr(line, '\0', end - line);
	if (nul)
		end = nul;
	/* "%s" into PRINTKRB_RECORD_MAX bytes with the terminator. */
	if (end - line > KLOG_RECORD_MAX - 1)
		end = line + KLOG_RECORD_MAX - 1;
	e->newline = end > line && end[-1] == '\n';
	if (e->newline)
		end--;
	e->text = line;
	e->len = (u32)(end - line);
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Undo the \xNN escapes of a /dev/kmsg text; its length.  A record cut
 * at KLOG_MESSAGE_MAX may end in a cut escape (as upstream's scnprintf
 * leaves it): decoding stops there.
 */
static long unescape(const char *s, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		unsigned int v;

		if (s[i] != '\\') {
			FCHECK(s[i] >= ' ' && s[i] < 127);
			out[o++] = s[i];
			continue;
		}
		if (i + 3 >= n || s[i + 1] != 'x' || hex(s[i + 2]) < 0 ||
		    hex(s[i + 3]) < 0)
			break;
		v = (unsigned int)(hex(s[i + 2]) << 4 | hex(s[i + 3]));
		out[o++] = (char)v;
		i += 3;
	}
	return (long)o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct klog_config cfg;
	struct klog_ns_params p = { 0 };
	struct klog_ns *root, *child = NULL, *ns;
	struct klog_syslog_ctx ctx = { 0 };
	struct klog_kmsg *f = malloc(sizeof(*f)), *r = malloc(sizeof(*r));
	struct klog_msgbuf *mb = malloc(sizeof(*mb));
	char *scratch = malloc(KLOG_MESSAGE_MAX);
	char *text = malloc(KLOG_MESSAGE_MAX);
	char *line = malloc(KLOG_MESSAGE_MAX + 1);
	struct klog_cursor cur = { 0 };
	uint8_t conf = in_u8(&in);
	bool exact, small = conf & 1, to_child = conf & 2;
	u32 nexp = 0, max_text, i;
	u64 seq_base = 0;
	char *all;
	int n;

	fuzz_now = 1000000000ull;
	klog_testing_set_clock(fuzz_clock);
	klog_testing_set_unlock_check(fuzz_check_at_unlock);
	klog_config_init(&cfg);
	cfg.devkmsg = conf & 4 ? KLOG_DEVKMSG_RATELIMIT : KLOG_DEVKMSG_ON;
	cfg.devkmsg_burst = 3;
	cfg.devkmsg_interval_ms = 10;
	cfg.propagate = conf & 8 ? KLOG_PROPAGATE_ALL : KLOG_PROPAGATE_KERNEL;
	/* A copy budget larger than MAX_WRITES: every copy is made. */
	cfg.prop_burst = KLOG_PROP_BURST_MAX;
	exact = cfg.devkmsg == KLOG_DEVKMSG_ON;
	p.cfg = &cfg;
	p.size = small ? 4096 : 65536;
	FCHECK(klog_ns_create(NULL, &p, &root) == 0);
	ns = root;
	if (to_child) {
		struct klog_ns_params cp = { .size = small ? 4096 : 65536 };

		cp.tag = conf & 16 ? "box" : NULL;
		FCHECK(klog_ns_create(root, &cp, &child) == 0);
		ns = child;
	}
	ctx.ns = ns;
	ctx.scratch = scratch;
	FCHECK(klog_kmsg_open(f, &ctx, KLOG_KMSG_WRITE) == 0);

	while (in.n && nexp < MAX_WRITES) {
		size_t want = in_u16(&in) % 1100, len;
		const uint8_t *b = in_bytes(&in, want, &len);
		/* An exact-size copy: reads past the end are caught. */
		char *copy = malloc(len ? len : 1);
		ssize_t ret;

		memcpy(copy, b, len);
		ret = klog_kmsg_write(f, copy, len, "fuzz");
		if (len > KLOG_RECORD_MAX) {
			FCHECK(ret == -EINVAL);
		} else {
			FCHECK(ret == (ssize_t)len);
			parse_expect(b, len, &exp_[nexp++]);
		}
		free(copy);
		FCHECK(klog_testing_locks_held() == 0);
		fuzz_now += 1000000ull * (in_u8(&in) & 3);
	}

	/* Every record, in order, is what the writes said. */
	max_text = klog_ring_max_text(&ns->ring);
	while ((n = klog_ns_read(ns, &cur, mb)) == 1) {
		u64 idx = mb->rec.seq - seq_base;

		fuzz_check_cursor(ns, &cur);
		FCHECK(mb->rec.text_len <= max_text);
		if (!exact)
			continue;
		FCHECK(idx < nexp);
		FCHECK(mb->rec.level == exp_[idx].level);
		FCHECK(mb->rec.facility == exp_[idx].facility);
		/* (An empty write's NEWLINE flag is not specified.) */
		FCHECK(!exp_[idx].len || !!(mb->rec.flags & KLOG_F_NEWLINE) ==
		       exp_[idx].newline);
		FCHECK(mb->rec.text_len == exp_[idx].len);
		FCHECK(!memcmp(mb->rec.text, exp_[idx].text, exp_[idx].len));
	}
	FCHECK(n == 0);
	if (exact)
		FCHECK(cur.seq == nexp);

	/* The parent's copies under propagate=2. */
	if (child && exact && cfg.propagate == KLOG_PROPAGATE_ALL) {
		char pre[KLOG_LABEL_MAX + 1], dict[KLOG_LABEL_DICT_MAX];
		int pl;
		u32 rmax = klog_ring_max_text(&root->ring);
		u32 dl = klog_ns_copy_dict(child, dict, sizeof(dict));

		pl = snprintf(pre, sizeof(pre), conf & 16 ? "[ns:%llu:box] " :
			      "[ns:%llu] ", (unsigned long long)child->id);
		FCHECK(dl > 0);
		memset(&cur, 0, sizeof(cur));
		while (klog_ns_read(root, &cur, mb) == 1) {
			u64 idx = mb->rec.seq;
			u32 want = pl + exp_[idx].len;

			FCHECK(idx < nexp);
			if (want > rmax)
				want = rmax;
			FCHECK(mb->rec.text_len == want);
			FCHECK(!memcmp(mb->rec.text, pre, pl));
			/* A copy of user text: controls but tab become '?'. */
			for (u32 k = pl; k < want; k++) {
				unsigned char ch = exp_[idx].text[k - pl];

				if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
					ch = '?';
				FCHECK((unsigned char)mb->rec.text[k] == ch);
			}
			/* ... at most as severe as notice. */
			FCHECK(mb->rec.level ==
			       (exp_[idx].level < KLOG_USER_COPY_LEVEL ?
				KLOG_USER_COPY_LEVEL : exp_[idx].level));
			/* ... and filed under the user facility. */
			FCHECK(mb->rec.facility == KLOG_USER_COPY_FACILITY);
			FCHECK(mb->rec.dict_len == dl);
			FCHECK(!memcmp(mb->rec.dict, dict, dl));
		}
		/* Every write was copied, none refused. */
		FCHECK(root->ring.next_seq == nexp);
	} else if (child && cfg.propagate == KLOG_PROPAGATE_KERNEL) {
		/* User text stays, and so do the ratelimit's notes. */
		FCHECK(root->ring.next_seq == 0);
	}

	/* The /dev/kmsg view of the same records. */
	FCHECK(klog_kmsg_open(r, &ctx, KLOG_KMSG_READ) == 0);
	for (i = 0; i < 2 * MAX_WRITES + 2; i++) {
		size_t count = (conf & 32) ? 64 : KLOG_MESSAGE_MAX;
		ssize_t got = klog_kmsg_read(r, count, true);
		unsigned int prio;
		unsigned long long seq, usec;
		char flag;
		int off = 0;
		const char *semi, *nl;
		long tl;

		fuzz_check_cursor(ns, &r->cur);
		if (got == -EAGAIN)
			break;
		if (got == -EPIPE || got == -EINVAL)
			continue;
		FCHECK(got > 0 && got <= (ssize_t)count);
		/* outbuf is not NUL-terminated: parse a terminated copy. */
		memcpy(line, r->outbuf, got);
		line[got] = '\0';
		FCHECK(sscanf(line, "%u,%llu,%llu,%c;%n", &prio, &seq,
			      &usec, &flag, &off) == 4 && off > 0);
		semi = line + off;
		nl = memchr(semi, '\n', line + got - semi);
		tl = (long)(nl ? nl - semi : line + got - semi);
		/*
		 * In a full buffer the last escapes may be cut and followed
		 * by more bytes (upstream's scnprintf() and append_char()
		 * do the same): decode all but the last few.
		 */
		if (got == KLOG_MESSAGE_MAX)
			tl = tl > 8 ? tl - 8 : 0;
		tl = unescape(semi, (size_t)tl, text);
		if (!exact || seq >= nexp)
			continue;
		FCHECK(prio == (unsigned int)(exp_[seq].facility << 3 |
					      exp_[seq].level));
		/* A full buffer may be a cut record: then a prefix. */
		FCHECK((u32)tl <= exp_[seq].len);
		FCHECK(!memcmp(text, exp_[seq].text, tl));
		if (got < KLOG_MESSAGE_MAX)
			FCHECK(nl && (u32)tl == exp_[seq].len);
	}
	klog_kmsg_release(r);

	/* READ_ALL: whole lines only, never more than asked. */
	{
		int len = 1 + in_u16(&in) % 8192;

		all = malloc(len);
		n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ_ALL, all, len);
		FCHECK(n >= 0 && n <= len);
		FCHECK(n == 0 || all[n - 1] == '\n');
		free(all);
	}

	klog_kmsg_release(f);
	klog_ns_put(child);
	klog_ns_put(root);
	free(f);
	free(r);
	free(mb);
	free(scratch);
	free(text);
	free(line);
	FCHECK(klog_testing_locks_held() == 0);
	klog_testing_set_unlock_check(NULL);
	klog_testing_set_clock(NULL);
	return 0;
}
