// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * stress.c - threaded stress run of libklog with a validating reader on
 * every interface (docs/design.md section 5, tier 2; docs/reliability.md,
 * "Threaded stress").
 *
 * Tree: root ("host", 64 KiB) <- T ("t", the namespace under test, small
 * ring so that readers fall behind) <- short-lived children of T.
 *
 * Threads, all running a fixed amount of work:
 *
 * - N writers write self-describing messages to T: klog_ns_printk() with
 *   a level prefix and 1-3 KERN_CONT fragments, klog_ns_store() with an
 *   explicit caller id (fragments flagged KLOG_F_CONT, some with a
 *   dictionary), and klog_kmsg_write() with a "<prio>" prefix;
 * - M readers of T, each with its own cursor: even ones are /dev/kmsg
 *   files (klog_kmsg_read() nonblocking, with poll and small-buffer
 *   reads, sometimes reopened), odd ones use klog_ns_read();
 * - one klog_ns_read() reader of the root (T's propagated copies);
 * - one destructive reader (SYSLOG_ACTION_READ and /proc/kmsg reads,
 *   nonblocking, with buffer sizes that force partial reads);
 * - one clearer (CLEAR, READ_CLEAR, READ_ALL, SIZE_UNREAD, SIZE_BUFFER);
 * - one churn thread: creates children of T (klog_ns_create with the
 *   size and tag, klog_ns_create bare and then klog_ns_resize and
 *   klog_ns_set_tag as the kernel's sysctls do, klog_ns_init in its own
 *   memory), sometimes a grandchild, writes to them (copies propagate
 *   to T and the root, kept within T's copy budget), checks that their
 *   tag and size are then fixed (-EBUSY), floods some of them past T's
 *   budget (W_FLOOD, whose copies may be refused), keeps one alive
 *   through an open /dev/kmsg file after dropping its own reference,
 *   and destroys them.
 *
 * Every fragment of every message is a self-checking fragment
 * (tests/common/selfcheck.h: "W<w> S<s> F<f>/<k> L<n> C<crc> ", n filler
 * bytes and '|'), so that every committed record, however the
 * continuation buffer split or joined the fragments, can be checked on
 * its own.  For every record seen, each reader checks:
 *
 * - corruption: each fragment parses and its checksum matches, the
 *   fragments of a record are consecutive parts of one message, the
 *   record's level, facility, caller id, CONT flag and dictionary are
 *   those the writer used, prefixes are those propagation adds;
 * - duplicates and order: per writer, (message, fragment) strictly
 *   increases;
 * - loss: a per-writer gap is allowed only if the reader was told about
 *   a loss since it last saw that writer (-EPIPE or an -EINVAL record
 *   for /dev/kmsg, out->lost for klog_ns_read(), whose count must also
 *   match the sequence numbers exactly).  Readers for which the contract
 *   reports no loss (the destructive syslog reader, READ_CLEAR, the root
 *   with its copy budget) may have gaps, which are counted.  Copies
 *   carry "[ns:<id>] " or "[ns:<id>:<tag>] " labels and the dictionary
 *   "SUBSYSTEM=syslog_ns", "DEVICE=+syslog_ns:<id>" of the last hop.
 *
 * At the end every exact reader has seen each writer's last fragment
 * unless told about a loss since, and every reference count and release
 * balances.
 *
 * The library's own invariants are checked as it runs: every namespace's
 * ring and cursors (R1-R8, klog_ns_check_locked()) at the end of every
 * locked section, in every thread (klog_testing_set_unlock_check()); each
 * reader's own cursor after each of its reads; and that no thread holds a
 * klog lock when it leaves the library (the user-space platform aborts on
 * a second lock, or a call that may sleep under one).
 *
 * Exit status: 0, or 1 on any violation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"
#include "selfcheck.h"

#define MAX_WRITERS 32
#define MAX_READERS 32
#define NWID (MAX_WRITERS + 3)	/* writers, churn, flood, child-user */
#define STORE_CALLER(w) (0x7ff00000u + (u32)(w))
#define DEFAULT_LEVEL KLOG_DEFAULT_LEVEL
#define FAC_PRINTK 0
#define FAC_STORE 3
#define FAC_KMSG 2
#define CHURN_LEVEL 6
#define CHILD_RING 4096
#define CHURN_EXACT_MAX 4	/* per child, plus up to 3 from a grandchild */

enum method { M_PRINTK, M_STORE, M_KMSG };

/* ---- options and shared state ------------------------------------ */

static struct {
	int writers;
	int readers;
	long msgs;		/* per writer */
	long churn;		/* child create/destroy cycles */
	u32 ring;		/* T's ring size */
	u64 seed;
	int verbose;
} opt = {
	.writers = 4,
	.readers = 3,
	.msgs = 2000,
	.churn = 200,
	.ring = 16384,
	.seed = 1,
};

static struct klog_config cfg;
static struct klog_ns *root, *tns;
static pthread_barrier_t start_barrier;
static atomic_int producers_left;
static atomic_uint writer_tid[NWID];
static atomic_long churn_msgs;		/* exact churn messages written */
static atomic_long violations;
static atomic_long resized, releases, inits;
static atomic_long invariant_checks;

static int W_CHURN, W_FLOOD, W_CHILDUSER;

/* ---- small helpers ------------------------------------------------- */

static u64 mix64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static u64 hash3(u64 a, u64 b, u64 c)
{
	return mix64(opt.seed * 0x9e3779b97f4a7c15ull ^ mix64(a ^ mix64(b ^
		     mix64(c))));
}

struct rng {
	u64 s;
};

static u64 rnd(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

static u32 rnd_below(struct rng *r, u32 n)
{
	return n ? (u32)(rnd(r) % n) : 0;
}

static void rng_init(struct rng *r, u64 a, u64 b)
{
	r->s = hash3(a, b, 0x5eed) | 1;
}

static void relax(int *idle)
{
	if (++*idle < 64) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 50000 };

		nanosleep(&ts, NULL);
	}
}

__attribute__((format(printf, 2, 3)))
static void violation(const char *who, const char *fmt, ...)
{
	long n = atomic_fetch_add(&violations, 1);
	va_list ap;

	if (n >= 30)
		return;
	fprintf(stderr, "stress: VIOLATION [%s]: ", who);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- the library's invariants ------------------------------------- */

/* At the end of every locked section, in any thread: R1-R8. */
static void check_at_unlock(klog_lock_t *lock)
{
	struct klog_ns *ns = kl_container_of(lock, struct klog_ns, lock);
	int ret = klog_ns_check_locked(ns);

	atomic_fetch_add_explicit(&invariant_checks, 1, memory_order_relaxed);
	if (ret)
		violation("invariant", "R%d broken in namespace %llu", -ret,
			  (unsigned long long)ns->id);
}

/* A reader's own cursor of @ns, under @ns's lock (R8). */
static void check_cursor(const char *who, struct klog_ns *ns,
			 const struct klog_cursor *c)
{
	kl_irqflags_t flags = 0;
	int ret;

	kl_lock_irqsave(&ns->lock, flags);
	ret = klog_ring_check_cursor(&ns->ring, c);
	kl_unlock_irqrestore(&ns->lock, flags);
	if (ret)
		violation(who, "cursor %llu: R%d broken",
			  (unsigned long long)c->seq, -ret);
}

/* A thread leaves the library holding no klog lock. */
static void check_no_lock(const char *who)
{
	if (klog_testing_locks_held())
		violation(who, "returned holding %u klog lock(s)",
			  klog_testing_locks_held());
}

/* ---- the message plan (deterministic from writer, sequence) --------- */

static enum method method_of(int w, u32 s)
{
	if (w >= opt.writers)
		return M_PRINTK;
	return (enum method)(hash3(w, s, 1) % 3);
}

static u32 frags_of(int w, u32 s)
{
	if (w >= opt.writers || method_of(w, s) == M_KMSG)
		return 1;
	return 1 + (u32)(hash3(w, s, 2) % 3);
}

static int level_of(int w, u32 s)
{
	if (w >= opt.writers)
		return CHURN_LEVEL;
	return (int)(hash3(w, s, 3) % 8);
}

static bool has_dict(int w, u32 s)
{
	return method_of(w, s) == M_STORE && frags_of(w, s) == 1 &&
	       hash3(w, s, 4) % 2;
}

static u32 filler_len(int w, u32 s, u32 f)
{
	u64 h = hash3(w, s, 16 + f);
	u32 max = w >= opt.writers ? 120 : SC_FILL_MAX / frags_of(w, s);

	/* Half short, half anywhere up to the largest. */
	if (h & 1)
		return (u32)((h >> 1) % 41);
	return (u32)((h >> 1) % (max + 1));
}

static const char alnum[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* One fragment into @buf (SC_FRAG_MAX bytes); its length. */
static size_t make_frag(char *buf, int w, u32 s, u32 f, u32 k)
{
	struct sc_frag fr = { .w = (u32)w, .s = s, .f = f, .k = k };
	u32 n = filler_len(w, s, f), i;
	char fill[SC_FILL_MAX];
	struct rng r;

	rng_init(&r, ((u64)w << 32) | s, f);
	for (i = 0; i < n; i++)
		fill[i] = alnum[rnd(&r) % (sizeof(alnum) - 1)];
	return sc_format(buf, &fr, fill, n);
}

/* ---- validation --------------------------------------------------- */

struct wstate {
	bool seen;
	u32 s, f, k;
	u64 epoch;
};

enum rmode { EXACT, GAPS_OK };

struct reader {
	char name[24];
	enum rmode mode;
	int depth;		/* prefixes every record carries ("[t] ") */
	u64 epoch;		/* told losses so far */
	bool known;		/* saw the log from its start */
	struct wstate ws[NWID];
	/* counters */
	u64 records, frags, losses, lost_records, gaps, notes, trunc,
	    partial_dropped, calls;
};

/* What the interface told us about a record besides its text. */
struct meta {
	bool has_prio;
	int level, facility;
	bool has_caller;
	u32 caller;
	bool has_cont;
	bool cont;
	bool has_trunc;
	bool trunc;
	bool has_dict;
	const char *dict;	/* KEY=value\0... */
	size_t dict_len;
};

static void reader_init(struct reader *rd, const char *name, enum rmode mode,
			int depth)
{
	memset(rd, 0, sizeof(*rd));
	snprintf(rd->name, sizeof(rd->name), "%s", name);
	rd->mode = mode;
	rd->depth = depth;
	rd->known = true;
}

/* Forget positions (a reopened /dev/kmsg file starts wherever the ring
 * starts now, which may already have dropped records silently). */
static void reader_reset(struct reader *rd)
{
	memset(rd->ws, 0, sizeof(rd->ws));
	rd->known = false;
}

/* One fragment at *@p: sc_parse(), then the limits of this run. */
static bool parse_frag(const char **p, const char *end, struct sc_frag *fr,
		       const char **why)
{
	const char *q = *p;

	if (!sc_parse(&q, end, fr, why))
		return false;
	if (fr->w >= (u32)NWID || fr->k > 3) {
		*why = "fragment fields out of range";
		return false;
	}
	*p = q;
	return true;
}

static bool is_writer(u32 w)
{
	return w < (u32)opt.writers;
}

/* Per-writer order and loss check of one fragment. */
static void check_order(struct reader *rd, const struct sc_frag *fr)
{
	struct wstate *ws = &rd->ws[fr->w];
	u32 es, ef;
	bool gap;

	if (ws->seen) {
		if (fr->s < ws->s || (fr->s == ws->s && fr->f <= ws->f)) {
			violation(rd->name, "W%u: S%u F%u after S%u F%u "
				  "(duplicate or out of order)", fr->w, fr->s,
				  fr->f, ws->s, ws->f);
			return;
		}
		es = ws->f < ws->k ? ws->s : ws->s + 1;
		ef = ws->f < ws->k ? ws->f + 1 : 1;
		gap = fr->s != es || fr->f != ef;
	} else {
		gap = rd->known && (fr->s != 0 || fr->f != 1);
	}
	if (gap && fr->w != (u32)W_FLOOD) {
		if (rd->mode == EXACT && ws->epoch == rd->epoch) {
			violation(rd->name, "W%u: silent loss before S%u F%u "
				  "(last S%u F%u, no loss reported)", fr->w,
				  fr->s, fr->f, ws->seen ? ws->s : 0,
				  ws->seen ? ws->f : 0);
		}
		rd->gaps++;
	}
	ws->seen = true;
	ws->s = fr->s;
	ws->f = fr->f;
	ws->k = fr->k;
	ws->epoch = rd->epoch;
}

static bool is_note(const char *p, const char *end)
{
	const char *q = p;
	u32 n;
	static const char tail[] = " messages suppressed";

	if (!sc_parse_u32(&q, end, &n))
		return false;
	return (size_t)(end - q) == sizeof(tail) - 1 &&
	       !memcmp(q, tail, sizeof(tail) - 1);
}

/*
 * Parse one copy label "[ns:<id>] " or "[ns:<id>:<tag>] " at *@p (tag:
 * 1 to KLOG_TAG_MAX bytes of [A-Za-z0-9._-]); its id in *@id.
 */
static bool parse_label(const char **p, const char *end, u64 *id)
{
	const char *q = *p;
	size_t n = 0;

	if (end - q < 4 || memcmp(q, "[ns:", 4))
		return false;
	q += 4;
	*id = 0;
	while (q < end && *q >= '0' && *q <= '9' && n < 20) {
		*id = *id * 10 + (u64)(*q++ - '0');
		n++;
	}
	if (!n)
		return false;
	if (q < end && *q == ':') {
		n = 0;
		for (q++; q < end && n <= KLOG_TAG_MAX; q++, n++) {
			char ch = *q;

			if (!((ch >= 'a' && ch <= 'z') ||
			      (ch >= 'A' && ch <= 'Z') ||
			      (ch >= '0' && ch <= '9') || ch == '.' ||
			      ch == '_' || ch == '-'))
				break;
		}
		if (!n || n > KLOG_TAG_MAX)
			return false;
	}
	if (end - q < 2 || q[0] != ']' || q[1] != ' ')
		return false;
	*p = q + 2;
	return true;
}

/* Check one record's text (without a trailing newline) and metadata. */
static void check_record(struct reader *rd, const char *text, size_t len,
			 const struct meta *m)
{
	const char *p = text, *end = text + len, *why = NULL;
	int prefixes = 0;
	struct sc_frag fr, first = { 0 };
	u32 nfr = 0;
	u64 id, from_id = 0;
	char dict[64];
	int dlen;

	rd->records++;
	/* Copy labels added by propagation, the last hop's first. */
	while (p < end && *p == '[') {
		if (!parse_label(&p, end, &id)) {
			if (m->has_trunc && m->trunc)
				break;	/* a copy cut inside its labels */
			violation(rd->name, "bad prefix in '%.*s'",
				  (int)(len > 120 ? 120 : len), text);
			return;
		}
		if (!prefixes)
			from_id = id;
		prefixes++;
	}
	if (prefixes < rd->depth) {
		violation(rd->name, "missing propagation prefix: '%.*s'",
			  (int)(len > 120 ? 120 : len), text);
		return;
	}
	if (prefixes && prefixes >= rd->depth && is_note(p, end)) {
		rd->notes++;
		return;
	}

	while (p < end) {
		if (!parse_frag(&p, end, &fr, &why)) {
			if (m->has_trunc && m->trunc) {
				/* The copy was cut: the rest is a prefix. */
				rd->trunc++;
				break;
			}
			violation(rd->name, "%s at offset %zu of '%.*s'", why,
				  (size_t)(p - text),
				  (int)(len > 160 ? 160 : len), text);
			return;
		}
		if (nfr && (fr.w != first.w || fr.s != first.s ||
			    fr.k != first.k || fr.f != first.f + nfr)) {
			violation(rd->name, "record joins W%u S%u F%u with "
				  "W%u S%u F%u", first.w, first.s,
				  first.f + nfr - 1, fr.w, fr.s, fr.f);
			return;
		}
		if (!nfr)
			first = fr;
		nfr++;
		rd->frags++;
		check_order(rd, &fr);
	}
	if (!nfr) {
		if (m->has_trunc && m->trunc)
			return;
		violation(rd->name, "empty record '%.*s'", (int)len, text);
		return;
	}

	/* Where it came from decides the prefixes. */
	if (is_writer(first.w) != (prefixes == rd->depth) ||
	    first.w == (u32)W_CHILDUSER) {
		violation(rd->name, "W%u S%u with %d prefixes", first.w,
			  first.s, prefixes);
		return;
	}

	/* Metadata. */
	if (m->has_prio) {
		int lvl, fac;

		if (!is_writer(first.w)) {
			lvl = CHURN_LEVEL;
			fac = FAC_PRINTK;
		} else {
			enum method me = method_of(first.w, first.s);

			lvl = first.f == 1 ? level_of(first.w, first.s) :
				DEFAULT_LEVEL;
			fac = me == M_PRINTK ? FAC_PRINTK :
				me == M_STORE ? FAC_STORE : FAC_KMSG;
		}
		if (m->level != lvl || m->facility != fac)
			violation(rd->name, "W%u S%u F%u: level %d facility "
				  "%d, want %d %d", first.w, first.s, first.f,
				  m->level, m->facility, lvl, fac);
	}
	if (m->has_caller) {
		u32 want = is_writer(first.w) &&
			method_of(first.w, first.s) == M_STORE ?
			STORE_CALLER(first.w) :
			atomic_load(&writer_tid[first.w]);

		if (m->caller != want)
			violation(rd->name, "W%u S%u: caller %#x, want %#x",
				  first.w, first.s, m->caller, want);
	}
	if (m->has_cont && m->cont != (first.f > 1))
		violation(rd->name, "W%u S%u F%u: CONT flag %d", first.w,
			  first.s, first.f, m->cont);
	if (m->has_dict) {
		/* A copy carries the dictionary of the last hop's label. */
		if (prefixes)
			dlen = snprintf(dict, sizeof(dict), "SUBSYSTEM="
					"syslog_ns%cDEVICE=+syslog_ns:%llu",
					0, from_id);
		else if (is_writer(first.w) && has_dict(first.w, first.s))
			dlen = snprintf(dict, sizeof(dict), "W=%u%cS=%u",
					first.w, 0, first.s);
		else
			dlen = 0;
		if (m->dict_len != (size_t)dlen ||
		    memcmp(m->dict, dict, dlen))
			violation(rd->name, "W%u S%u: dictionary of %zu bytes, "
				  "want %d", first.w, first.s, m->dict_len,
				  dlen);
	}
}

/* Told about @n lost records (n may be unknown: pass 1). */
static void told_loss(struct reader *rd, u64 n)
{
	rd->epoch++;
	rd->losses++;
	rd->lost_records += n;
}

/* After the run: the last fragment of every writer, unless told. */
static void check_tail(struct reader *rd)
{
	int w;

	if (rd->mode != EXACT)
		return;
	for (w = 0; w < opt.writers; w++) {
		struct wstate *ws = &rd->ws[w];
		u32 last = (u32)opt.msgs - 1;

		if (!opt.msgs || ws->epoch != rd->epoch)
			continue;
		if (!ws->seen) {
			if (rd->known)
				violation(rd->name, "W%d: nothing seen, no "
					  "loss reported", w);
			continue;
		}
		if (ws->s != last || ws->f != frags_of(w, last))
			violation(rd->name, "W%d: ends at S%u F%u, want S%u "
				  "F%u, no loss reported", w, ws->s, ws->f,
				  last, frags_of(w, last));
	}
	if (atomic_load(&churn_msgs) && rd->ws[W_CHURN].epoch == rd->epoch &&
	    rd->depth == 0) {
		struct wstate *ws = &rd->ws[W_CHURN];

		if (!ws->seen && !rd->known)
			return;
		if (!ws->seen || ws->s + 1 != (u32)atomic_load(&churn_msgs))
			violation(rd->name, "churn: ends at S%u of %ld, no "
				  "loss reported", ws->s,
				  atomic_load(&churn_msgs));
	}
}

/* ---- parsing the text formats --------------------------------------- */

/* "<prio>[time] text": check one syslog(2) line (no newline). */
static void check_syslog_line(struct reader *rd, const char *line, size_t n)
{
	const char *p = line, *end = line + n;
	struct meta m = { 0 };
	u32 prio;

	if (!sc_expect(&p, end, '<') || !sc_parse_u32(&p, end, &prio) ||
	    !sc_expect(&p, end, '>') || !sc_expect(&p, end, '[')) {
		violation(rd->name, "bad syslog line '%.*s'",
			  (int)(n > 100 ? 100 : n), line);
		return;
	}
	p = memchr(p, ']', end - p);
	if (!p || p + 1 >= end || p[1] != ' ') {
		violation(rd->name, "bad syslog timestamp '%.*s'",
			  (int)(n > 100 ? 100 : n), line);
		return;
	}
	p += 2;
	m.has_prio = true;
	m.level = prio & 7;
	m.facility = prio >> 3;
	check_record(rd, p, end - p, &m);
}

/* Complete lines of a READ_ALL / READ_CLEAR result. */
static void check_syslog_text(struct reader *rd, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			violation(rd->name, "READ_ALL returned a cut line");
			return;
		}
		check_syslog_line(rd, p, nl - p);
		p = nl + 1;
	}
}

/* One /dev/kmsg record: "prio,seq,usec,flags;text\n" [" K=v\n"...]. */
static void check_kmsg(struct reader *rd, const char *buf, size_t n,
		       u64 *seq)
{
	const char *p = buf, *end = buf + n, *nl;
	struct meta m = { 0 };
	char dict[128];
	size_t dlen = 0;
	u32 prio;
	u64 sq = 0;
	char flag;

	if (!sc_parse_u32(&p, end, &prio) || !sc_expect(&p, end, ',')) {
		violation(rd->name, "bad kmsg header '%.*s'",
			  (int)(n > 80 ? 80 : n), buf);
		return;
	}
	while (p < end && *p >= '0' && *p <= '9')
		sq = sq * 10 + (u64)(*p++ - '0');
	if (!sc_expect(&p, end, ',')) {
		violation(rd->name, "bad kmsg seq");
		return;
	}
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (!sc_expect(&p, end, ',') || p >= end) {
		violation(rd->name, "bad kmsg time");
		return;
	}
	flag = *p++;
	if ((flag != '-' && flag != 'c') || !sc_expect(&p, end, ';')) {
		violation(rd->name, "bad kmsg flags");
		return;
	}
	nl = memchr(p, '\n', end - p);
	if (!nl) {
		violation(rd->name, "kmsg record without newline");
		return;
	}
	/* Dictionary lines. */
	{
		const char *d = nl + 1;

		while (d < end) {
			const char *e = memchr(d, '\n', end - d);

			if (*d != ' ' || !e || (size_t)(e - d) + dlen >
			    sizeof(dict)) {
				violation(rd->name, "bad kmsg dict line");
				return;
			}
			memcpy(dict + dlen, d + 1, e - d - 1);
			dlen += e - d - 1;
			dict[dlen++] = '\0';
			d = e + 1;
		}
	}
	*seq = sq;
	m.has_prio = true;
	m.level = prio & 7;
	m.facility = prio >> 3;
	m.has_cont = true;
	m.cont = flag == 'c';
	m.has_dict = true;
	m.dict = dict;
	m.dict_len = dlen ? dlen - 1 : 0;
	check_record(rd, p, nl - p, &m);
}

static void check_msgbuf(struct reader *rd, const struct klog_msgbuf *mb)
{
	struct meta m = {
		.has_prio = true,
		.level = mb->rec.level,
		.facility = mb->rec.facility,
		.has_caller = true,
		.caller = mb->rec.caller_id,
		.has_cont = true,
		.cont = mb->rec.flags & KLOG_F_CONT,
		.has_trunc = true,
		.trunc = mb->rec.flags & KLOG_F_TRUNC,
		.has_dict = true,
		.dict = mb->rec.dict,
		.dict_len = mb->rec.dict_len,
	};

	check_record(rd, mb->rec.text, mb->rec.text_len, &m);
}

/* ---- threads ------------------------------------------------------ */

static bool producing(void)
{
	return atomic_load(&producers_left) > 0;
}

struct writer_arg {
	int w;
	pthread_t th;
};

static void write_message(int w, u32 s, struct klog_kmsg *kf, struct rng *r)
{
	u32 k = frags_of(w, s), f;
	int level = level_of(w, s);
	char frag[SC_FRAG_MAX + 8];
	size_t n;

	for (f = 1; f <= k; f++) {
		bool last = f == k;

		n = make_frag(frag, w, s, f, k);
		switch (method_of(w, s)) {
		case M_PRINTK:
			if (f == 1)
				klog_ns_printk(tns, "\001%c%s%s", '0' + level,
					       frag, last ? "\n" : "");
			else
				klog_ns_printk(tns, "\001c%s%s", frag,
					       last ? "\n" : "");
			break;
		case M_STORE: {
			char dict[64];
			struct klog_msg m = {
				.facility = FAC_STORE,
				.level = f == 1 ? level : -1,
				.flags = f > 1 ? KLOG_F_CONT : 0,
				.caller_id = STORE_CALLER(w),
				.text = frag,
				.text_len = n,
			};

			if (last)
				frag[n++] = '\n';
			m.text_len = n;
			if (has_dict(w, s)) {
				m.dict = dict;
				m.dict_len = snprintf(dict, sizeof(dict),
						      "W=%d%cS=%u", w, 0, s);
			}
			if (klog_ns_store(tns, &m) < 0)
				violation("writer", "klog_ns_store failed");
			break;
		}
		case M_KMSG: {
			char line[SC_FRAG_MAX + 16];
			int len = snprintf(line, sizeof(line), "<%d>%s\n",
					   FAC_KMSG << 3 | level, frag);

			if (klog_kmsg_write(kf, line, len, "stress") != len)
				violation("writer", "klog_kmsg_write failed");
			break;
		}
		}
		if (!last && rnd_below(r, 4) == 0)
			sched_yield();
	}
}

static void *writer_main(void *arg)
{
	struct writer_arg *a = arg;
	struct klog_syslog_ctx ctx = { .ns = tns, .nonblock = true };
	struct klog_kmsg *kf = calloc(1, sizeof(*kf));
	struct rng r;
	u32 s;

	rng_init(&r, a->w, 77);
	atomic_store(&writer_tid[a->w], klog_plat_caller_id());
	if (!kf || klog_kmsg_open(kf, &ctx, KLOG_KMSG_WRITE))
		violation("writer", "cannot open /dev/kmsg for writing");
	pthread_barrier_wait(&start_barrier);
	for (s = 0; s < (u32)opt.msgs; s++) {
		write_message(a->w, s, kf, &r);
		check_no_lock("writer");
	}
	klog_kmsg_release(kf);
	free(kf);
	atomic_fetch_sub(&producers_left, 1);
	return NULL;
}

struct reader_arg {
	int idx;
	pthread_t th;
	struct reader rd;
};

/* /dev/kmsg reader of T. */
static void *kmsg_reader_main(void *arg)
{
	struct reader_arg *a = arg;
	struct reader *rd = &a->rd;
	struct klog_syslog_ctx ctx = { .ns = tns, .nonblock = true };
	struct klog_kmsg *kf = calloc(1, sizeof(*kf));
	struct rng r;
	/* The next record's seq is exactly @next, or above @next after a
	 * loss (@exact false), or anything after a reopen (@any). */
	u64 next = 0, seq;
	bool exact = true, any = false, must_pipe;
	int idle = 0, drained = 0;

	rng_init(&r, 1000 + a->idx, 1);
	if (!kf || klog_kmsg_open(kf, &ctx, KLOG_KMSG_READ))
		violation(rd->name, "open failed");
	pthread_barrier_wait(&start_barrier);
	for (;;) {
		bool live = producing();
		unsigned int pl = 0;
		size_t count = KLOG_MESSAGE_MAX;
		ssize_t n;

		rd->calls++;
		if (rnd_below(&r, 4) == 0)
			pl = klog_kmsg_poll(kf) | 0x10000;
		must_pipe = pl & KLOG_POLLERR;
		if (rnd_below(&r, 20) == 0)
			count = 100;
		n = klog_kmsg_read(kf, count, true);
		check_no_lock(rd->name);
		check_cursor(rd->name, kf->ns, &kf->cur);
		if (must_pipe && n != -EPIPE)
			violation(rd->name, "poll said POLLERR, read %zd", n);
		if ((pl & KLOG_POLLIN) && n == -EAGAIN)
			violation(rd->name, "poll said POLLIN, read EAGAIN");
		if (n == -EAGAIN) {
			if (!live && ++drained > 2)
				break;
			relax(&idle);
			continue;
		}
		idle = 0;
		drained = 0;
		if (n == -EPIPE) {
			told_loss(rd, 1);
			exact = false;
			continue;
		}
		if (n == -EINVAL) {
			/* One record was consumed: too long for count. */
			if (count == KLOG_MESSAGE_MAX)
				violation(rd->name, "EINVAL with full buffer");
			told_loss(rd, 1);
			if (exact)
				next++;
			else
				any = true;
			continue;
		}
		if (n <= 0) {
			violation(rd->name, "read returned %zd", n);
			continue;
		}
		seq = next;
		check_kmsg(rd, kf->outbuf, n, &seq);
		if (!any && (exact ? seq != next : seq <= next))
			violation(rd->name, "seq %llu, want %s%llu",
				  seq, exact ? "" : "> ", next);
		next = seq + 1;
		exact = true;
		any = false;

		/* Now and then, close and reopen: a new reader. */
		if (live && rnd_below(&r, 2000) == 0) {
			klog_kmsg_release(kf);
			if (klog_kmsg_open(kf, &ctx, KLOG_KMSG_READ))
				violation(rd->name, "reopen failed");
			reader_reset(rd);
			any = true;
		}
	}
	klog_kmsg_release(kf);
	free(kf);
	return NULL;
}

/* klog_ns_read() reader of T (or of the root). */
static void *cursor_reader_main(void *arg)
{
	struct reader_arg *a = arg;
	struct reader *rd = &a->rd;
	struct klog_ns *ns = rd->depth ? root : tns;
	struct klog_msgbuf *mb = malloc(sizeof(*mb));
	struct klog_cursor cur = { 0 };
	u64 expect_seq = 0;
	int idle = 0, drained = 0;

	pthread_barrier_wait(&start_barrier);
	for (;;) {
		bool live = producing();
		int ret;

		rd->calls++;
		ret = klog_ns_read(ns, &cur, mb);
		check_no_lock(rd->name);
		check_cursor(rd->name, ns, &cur);
		if (ret < 0) {
			violation(rd->name, "klog_ns_read: %d", ret);
			break;
		}
		if (!ret) {
			if (!live && ++drained > 2)
				break;
			relax(&idle);
			continue;
		}
		idle = 0;
		drained = 0;
		if (mb->rec.seq != expect_seq + mb->lost)
			violation(rd->name, "seq %llu after %llu"
				  " with %llu lost", mb->rec.seq,
				  expect_seq, mb->lost);
		if (mb->lost)
			told_loss(rd, mb->lost);
		expect_seq = mb->rec.seq + 1;
		check_msgbuf(rd, mb);
	}
	free(mb);
	return NULL;
}

/* The destructive reader: SYSLOG_ACTION_READ and /proc/kmsg. */
static void *syslog_reader_main(void *arg)
{
	struct reader_arg *a = arg;
	struct reader *rd = &a->rd;
	char *scratch = malloc(KLOG_MESSAGE_MAX);
	char *line = malloc(KLOG_MESSAGE_MAX + 8);
	char *buf = malloc(8192);
	struct klog_syslog_ctx ctx = {
		.ns = tns, .nonblock = true, .scratch = scratch,
		.source = KLOG_FROM_READER,
	};
	struct klog_syslog_ctx pctx = ctx;
	size_t ll = 0;
	struct rng r;
	int idle = 0, drained = 0;

	pctx.source = KLOG_FROM_PROC;
	rng_init(&r, 3000, 1);
	if (klog_proc_kmsg_open(&pctx))
		violation(rd->name, "/proc/kmsg open");
	pthread_barrier_wait(&start_barrier);
	for (;;) {
		bool live = producing();
		int size = rnd_below(&r, 10) < 7 ? 4096 :
			1 + (int)rnd_below(&r, 200);
		long n;
		int i;

		rd->calls++;
		if (rnd_below(&r, 3) == 0)
			n = klog_proc_kmsg_read(&pctx, buf, size, true);
		else
			n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ, buf,
					size);
		check_no_lock(rd->name);
		if (n == -EAGAIN || n == 0) {
			if (!live && ++drained > 2)
				break;
			relax(&idle);
			continue;
		}
		idle = 0;
		drained = 0;
		if (n < 0 || n > size) {
			violation(rd->name, "READ returned %ld", n);
			continue;
		}
		for (i = 0; i < n; i++) {
			char c = buf[i];

			if (c == '<' && ll) {
				/* A cut line whose rest was overwritten. */
				rd->partial_dropped++;
				ll = 0;
			}
			if (c == '\n') {
				check_syslog_line(rd, line, ll);
				ll = 0;
				continue;
			}
			if (ll >= KLOG_MESSAGE_MAX) {
				violation(rd->name, "line too long");
				ll = 0;
			}
			line[ll++] = c;
		}
	}
	if (ll)
		violation(rd->name, "stream ends in the middle of a line");
	klog_proc_kmsg_release(&pctx);
	free(scratch);
	free(line);
	free(buf);
	return NULL;
}

/* CLEAR, READ_CLEAR, READ_ALL, SIZE_*. */
static void *clearer_main(void *arg)
{
	struct reader_arg *a = arg;
	struct reader *rd = &a->rd;
	struct reader *all = calloc(1, sizeof(*all));
	char *scratch = malloc(KLOG_MESSAGE_MAX);
	char *buf = malloc(16384);
	struct klog_syslog_ctx ctx = {
		.ns = tns, .nonblock = true, .scratch = scratch,
	};
	struct rng r;
	int idle = 0, i;

	rng_init(&r, 4000, 1);
	pthread_barrier_wait(&start_barrier);
	for (i = 0; producing() || i % 8; i++) {
		u32 op = rnd_below(&r, 16);
		int size = 1 + (int)rnd_below(&r, 16384);
		int n;

		rd->calls++;
		if (op < 2) {
			if (klog_syslog(&ctx, KLOG_SYSLOG_ACTION_CLEAR, NULL,
					0))
				violation(rd->name, "CLEAR failed");
			/* Records before the clear point are skipped. */
			told_loss(rd, 0);
		} else if (op < 9) {
			n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ_CLEAR,
					buf, size);
			if (n < 0 || n > size)
				violation(rd->name, "READ_CLEAR: %d", n);
			else
				check_syslog_text(rd, buf, n);
		} else if (op < 13) {
			n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ_ALL,
					buf, size);
			reader_init(all, "read-all", GAPS_OK, 0);
			all->known = false;
			if (n < 0 || n > size)
				violation(rd->name, "READ_ALL: %d", n);
			else
				check_syslog_text(all, buf, n);
			rd->records += all->records;
			rd->frags += all->frags;
		} else if (op < 15) {
			n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD,
					NULL, 0);
			if (n < 0)
				violation(rd->name, "SIZE_UNREAD: %d", n);
		} else {
			n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_SIZE_BUFFER,
					NULL, 0);
			if (n != (int)opt.ring)
				violation(rd->name, "SIZE_BUFFER: %d", n);
		}
		check_no_lock(rd->name);
		relax(&idle);
		if (idle > 70)
			idle = 0;
	}
	free(all);
	free(scratch);
	free(buf);
	return NULL;
}

/* ---- churn --------------------------------------------------------- */

static void churn_release(struct klog_ns *ns)
{
	atomic_fetch_add(&releases, 1);
	free(ns);
}

static const struct klog_ns_ops churn_ns_ops = {
	.release = churn_release,
};

/*
 * kernel.syslog_ns_size and kernel.syslog_ns_tag in a child that has
 * logged nothing: the size first (it allocates), then the tag.
 */
static int churn_set_up(struct klog_ns *c, const char *tag)
{
	int ret;

	if (c->ring.size != KLOG_NS_DEFAULT_SIZE || c->tag[0])
		violation("churn", "a bare child has %u bytes, tag '%s'",
			  c->ring.size, c->tag);
	ret = klog_ns_resize(c, CHILD_RING);
	if (!ret)
		ret = klog_ns_set_tag(c, tag);
	if (!ret)
		atomic_fetch_add(&resized, 1);
	return ret;
}

static void churn_write(struct klog_ns *ns, int w, u32 s)
{
	char frag[SC_FRAG_MAX];

	make_frag(frag, w, s, 1, 1);
	if (klog_ns_printk(ns, "\001%c%s\n", '0' + CHURN_LEVEL, frag) < 0)
		violation("churn", "printk failed");
}

/*
 * T's copy budget (KLOG_PROPAGATE_KERNEL: prop_burst copies per window
 * that all of T's children share) is used by the churn thread alone, so
 * it can keep its exact messages within it: before a child of T sends
 * @n copies, wait for a window with room for @n of them in the child's
 * fair share.  What the budget refuses is then only floods (W_FLOOD),
 * and a silent loss of an exact message stays a violation.
 */
static void churn_wait_for_budget(u32 n)
{
	u64 ms = cfg.prop_interval_ms, win, now;
	u32 burst = cfg.prop_burst, share, room;
	struct klog_budget b;
	kl_irqflags_t fl = 0;

	if (ms < KLOG_PROP_INTERVAL_MIN_MS)
		ms = KLOG_PROP_INTERVAL_MIN_MS;
	win = ms * 1000000;
	for (;;) {
		kl_lock_irqsave(&tns->lock, fl);
		b = tns->budget;
		kl_unlock_irqrestore(&tns->lock, fl);
		share = b.children ? burst / b.children : burst;
		if (!share)
			share = 1;
		now = klog_plat_clock_ns();
		if (!b.started || now - b.begin_ns >= win)
			room = burst;
		else
			room = burst - b.used;
		if (room > share)
			room = share;
		if (room >= n)
			return;
		{
			u64 left = b.begin_ns + win - now + 100000;
			struct timespec ts = {
				(time_t)(left / 1000000000),
				(long)(left % 1000000000),
			};

			nanosleep(&ts, NULL);
		}
	}
}

/* Check that a child holds what was written to it. */
static void churn_verify_child(struct klog_ns *c, long own, long gcopies)
{
	struct klog_msgbuf *mb = malloc(sizeof(*mb));
	struct klog_cursor cur = { 0 };
	struct reader *rd = calloc(1, sizeof(*rd));
	long exact = 0;

	reader_init(rd, "child", GAPS_OK, 0);
	rd->known = false;
	while (klog_ns_read(c, &cur, mb) == 1) {
		const char *t = mb->rec.text;
		size_t n = mb->rec.text_len;

		if (mb->lost)
			violation("child", "child ring lost %llu",
				  mb->lost);
		if (n >= 3 && !memcmp(t, "W", 1) &&
		    atoi(t + 1) == W_CHURN)
			exact++;
		else if (n && t[0] == '[') {
			/* a grandchild's copy: "[g..] W.." */
			const char *q = memchr(t, ']', n);

			if (q && (size_t)(q - t) + 3 < n &&
			    atoi(q + 3) == W_CHURN)
				exact++;
			else
				rd->notes++;
		}
	}
	if (exact != own + gcopies)
		violation("churn", "child holds %ld exact records, want %ld",
			  exact, own + gcopies);
	free(rd);
	free(mb);
}

static void *churn_main(void *arg)
{
	struct rng r;
	char tag[KLOG_TAG_MAX + 1];
	struct klog_kmsg *kf = calloc(1, sizeof(*kf));
	u32 flood_s = 0, user_s = 0;
	long i;

	(void)arg;
	rng_init(&r, 5000, 1);
	atomic_store(&writer_tid[W_CHURN], klog_plat_caller_id());
	atomic_store(&writer_tid[W_FLOOD], klog_plat_caller_id());
	atomic_store(&writer_tid[W_CHILDUSER], klog_plat_caller_id());
	pthread_barrier_wait(&start_barrier);
	for (i = 0; i < opt.churn; i++) {
		struct klog_ns_params p = { .size = CHILD_RING };
		struct klog_ns *c = NULL, *g = NULL;
		u32 how = rnd_below(&r, 3), own, gown = 0, j;
		bool flooded = false;
		int ret;

		if (rnd_below(&r, 2)) {
			snprintf(tag, sizeof(tag), "c%ld", i);
			p.tag = tag;
		}
		if (how == 0) {
			ret = klog_ns_create(tns, &p, &c);
		} else if (how == 1) {
			/* unshare(CLONE_NEWSYSLOG), then the two sysctls */
			struct klog_ns_params bare = { 0 };

			ret = klog_ns_create(tns, &bare, &c);
			if (!ret)
				ret = churn_set_up(c, p.tag);
			if (ret && c) {
				klog_ns_put(c);
				c = NULL;
			}
		} else {
			c = calloc(1, sizeof(*c));
			p.ops = &churn_ns_ops;
			ret = c ? klog_ns_init(c, tns, &p) : -ENOMEM;
			if (ret) {
				free(c);
				c = NULL;
			} else {
				atomic_fetch_add(&inits, 1);
			}
		}
		if (ret || !c) {
			violation("churn", "create #%ld (way %u): %d", i, how,
				  ret);
			continue;
		}
		if (c->ring.size != CHILD_RING ||
		    strcmp(c->tag, p.tag ? p.tag : ""))
			violation("churn", "child #%ld (way %u): %u bytes, "
				  "tag '%s'", i, how, c->ring.size, c->tag);

		/*
		 * Exact messages: copied to T (within its budget, see
		 * churn_wait_for_budget(): the child's own and up to 3 from a
		 * grandchild) and, when the root's budget allows, the root.
		 */
		own = 1 + rnd_below(&r, CHURN_EXACT_MAX);
		churn_wait_for_budget(own + 3);
		for (j = 0; j < own; j++)
			churn_write(c, W_CHURN,
				    (u32)atomic_fetch_add(&churn_msgs, 1));
		/* Logged into: its tag and size are fixed now. */
		if (klog_ns_set_tag(c, "late") != -EBUSY ||
		    klog_ns_resize(c, CHILD_RING * 2) != -EBUSY ||
		    c->ring.size != CHILD_RING)
			violation("churn", "child #%ld changed after a record",
				  i);
		if (rnd_below(&r, 4) == 0) {
			struct klog_ns_params gp = { .size = CHILD_RING };

			if (rnd_below(&r, 2))
				gp.tag = "g";
			ret = klog_ns_create(c, &gp, &g);
			if (ret) {
				violation("churn", "grandchild: %d", ret);
			} else {
				gown = 1 + rnd_below(&r, 3);
				for (j = 0; j < gown; j++)
					churn_write(g, W_CHURN, (u32)
						atomic_fetch_add(&churn_msgs,
								 1));
			}
		}
		/* A /dev/kmsg write in the child: user, never propagated. */
		{
			struct klog_syslog_ctx cctx = { .ns = c };
			char frag[SC_FRAG_MAX], line[SC_FRAG_MAX + 8];
			int len;

			if (klog_kmsg_open(kf, &cctx, KLOG_KMSG_READ |
					   KLOG_KMSG_WRITE))
				violation("churn", "child kmsg open");
			make_frag(frag, W_CHILDUSER, user_s++, 1, 1);
			len = snprintf(line, sizeof(line), "%s\n", frag);
			klog_kmsg_write(kf, line, len, "churn");
			/* Drop the creator's reference: the file keeps it. */
			if (rnd_below(&r, 2)) {
				if (g) {
					klog_ns_put(g);
					g = NULL;
				}
				churn_verify_child(c, own, gown);
				klog_ns_put(c);
				c = NULL;
				while (klog_kmsg_read(kf, KLOG_MESSAGE_MAX,
						      true) > 0)
					;
			}
			klog_kmsg_release(kf);
		}
		/* Flood past T's copy budget now and then. */
		if (c && rnd_below(&r, 8) == 0) {
			flooded = true;
			for (j = 0; j < cfg.prop_burst + 20; j++)
				churn_write(c, W_FLOOD, flood_s++);
			if (rnd_below(&r, 2)) {
				struct timespec ts = {
					0, (long)cfg.prop_interval_ms * 1000000 +
					1000000 };

				nanosleep(&ts, NULL);
				churn_write(c, W_FLOOD, flood_s++);
			}
		}
		if (g)
			klog_ns_put(g);
		if (c) {
			if (!flooded && !rnd_below(&r, 4))
				churn_verify_child(c, own, gown);
			klog_ns_put(c);
		}
		check_no_lock("churn");
	}
	free(kf);
	atomic_fetch_sub(&producers_left, 1);
	return NULL;
}

/* ---- main ---------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: stress [-w WRITERS] [-r READERS] [-n MSGS_PER_WRITER]\n"
		"              [-c CHURN_CYCLES] [-s RING_BYTES] [-S SEED] [-v]\n");
	exit(2);
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*end || v < 0)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	struct klog_ns_params p = { 0 };
	struct reader_arg *ra;
	struct writer_arg *wa;
	struct reader_arg rroot, rsys, rclr;
	pthread_t churn;
	int i, nthreads, ret;
	u64 total = 0, frags = 0, losses = 0, gaps = 0;
	struct timespec t0, t1;
	struct klog_ns_stats st, rst;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-v")) {
			opt.verbose = 1;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(a, "-w"))
			opt.writers = (int)num(argv[++i]);
		else if (!strcmp(a, "-r"))
			opt.readers = (int)num(argv[++i]);
		else if (!strcmp(a, "-n"))
			opt.msgs = num(argv[++i]);
		else if (!strcmp(a, "-c"))
			opt.churn = num(argv[++i]);
		else if (!strcmp(a, "-s"))
			opt.ring = (u32)num(argv[++i]);
		else if (!strcmp(a, "-S"))
			opt.seed = (u64)num(argv[++i]);
		else
			usage();
	}
	if (opt.writers < 1 || opt.writers > MAX_WRITERS || opt.readers < 0 ||
	    opt.readers > MAX_READERS || opt.msgs > 0x7fffffff)
		usage();
	W_CHURN = opt.writers;
	W_FLOOD = opt.writers + 1;
	W_CHILDUSER = opt.writers + 2;

	klog_testing_set_unlock_check(check_at_unlock);
	klog_config_init(&cfg);
	cfg.propagate = KLOG_PROPAGATE_KERNEL;	/* the default is none */
	cfg.devkmsg = KLOG_DEVKMSG_ON;
	cfg.prop_burst = 64;
	cfg.prop_interval_ms = 10;
	p.cfg = &cfg;
	p.tag = "host";
	ret = klog_ns_create(NULL, &p, &root);
	if (ret) {
		fprintf(stderr, "stress: root: %d\n", ret);
		return 1;
	}
	memset(&p, 0, sizeof(p));
	p.size = opt.ring;
	p.tag = "t";
	ret = klog_ns_create(root, &p, &tns);
	if (ret) {
		fprintf(stderr, "stress: t: %d (ring %u)\n", ret, opt.ring);
		return 1;
	}
	opt.ring = tns->ring.size;

	nthreads = opt.writers + opt.readers + 4 + 1;
	pthread_barrier_init(&start_barrier, NULL, nthreads);
	atomic_store(&producers_left, opt.writers + 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);

	wa = calloc(opt.writers, sizeof(*wa));
	ra = calloc(opt.readers ? opt.readers : 1, sizeof(*ra));
	for (i = 0; i < opt.readers; i++) {
		char name[24];

		ra[i].idx = i;
		snprintf(name, sizeof(name), "%s%d", i % 2 ? "cursor" : "kmsg",
			 i);
		reader_init(&ra[i].rd, name, EXACT, 0);
		pthread_create(&ra[i].th, NULL, i % 2 ? cursor_reader_main :
			       kmsg_reader_main, &ra[i]);
	}
	reader_init(&rroot.rd, "root", GAPS_OK, 1);
	pthread_create(&rroot.th, NULL, cursor_reader_main, &rroot);
	reader_init(&rsys.rd, "syslog", GAPS_OK, 0);
	pthread_create(&rsys.th, NULL, syslog_reader_main, &rsys);
	reader_init(&rclr.rd, "clearer", GAPS_OK, 0);
	pthread_create(&rclr.th, NULL, clearer_main, &rclr);
	pthread_create(&churn, NULL, churn_main, NULL);
	for (i = 0; i < opt.writers; i++) {
		wa[i].w = i;
		pthread_create(&wa[i].th, NULL, writer_main, &wa[i]);
	}
	pthread_barrier_wait(&start_barrier);

	for (i = 0; i < opt.writers; i++)
		pthread_join(wa[i].th, NULL);
	pthread_join(churn, NULL);
	for (i = 0; i < opt.readers; i++)
		pthread_join(ra[i].th, NULL);
	pthread_join(rroot.th, NULL);
	pthread_join(rsys.th, NULL);
	pthread_join(rclr.th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	for (i = 0; i < opt.readers; i++)
		check_tail(&ra[i].rd);

	klog_ns_get_stats(tns, &st);
	klog_ns_get_stats(root, &rst);
	printf("stress: %d writers x %ld messages, %d readers, %ld churn "
	       "cycles, ring %u, seed %llu, %.2f s\n", opt.writers,
	       opt.msgs, opt.readers, opt.churn, opt.ring, opt.seed,
	       (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("stress: t stored %llu (overwritten %llu"
	       ", propagated %llu, suppressed %llu); root "
	       "stored %llu\n", st.stored, st.dropped_overwrite,
	       st.propagated, st.suppressed, rst.stored);
	{
		struct reader *all[MAX_READERS + 3];
		int nr = 0;

		for (i = 0; i < opt.readers; i++)
			all[nr++] = &ra[i].rd;
		all[nr++] = &rroot.rd;
		all[nr++] = &rsys.rd;
		all[nr++] = &rclr.rd;
		for (i = 0; i < nr; i++) {
			struct reader *rd = all[i];

			printf("stress:   %-8s %8llu records %8llu"
			       " fragments %6llu losses reported"
			       " (%llu records) %6llu gaps %4llu"
			       " notes %4llu truncated %4llu"
			       " cut lines\n", rd->name, rd->records,
			       rd->frags, rd->losses, rd->lost_records,
			       rd->gaps, rd->notes, rd->trunc,
			       rd->partial_dropped);
			total += rd->records;
			frags += rd->frags;
			losses += rd->losses;
			gaps += rd->gaps;
		}
	}

	/* Everything balances once all threads are gone. */
	if (kl_ref_read(&tns->ref) != 1)
		violation("main", "t holds %u references, want 1",
			  kl_ref_read(&tns->ref));
	if (kl_ref_read(&root->ref) != 2)
		violation("main", "root holds %u references, want 2",
			  kl_ref_read(&root->ref));
	if (atomic_load(&releases) != atomic_load(&inits))
		violation("main", "%ld releases for %ld klog_ns_init children",
			  atomic_load(&releases), atomic_load(&inits));

	klog_ns_put(tns);
	klog_ns_put(root);
	check_no_lock("main");
	klog_testing_set_unlock_check(NULL);
	free(wa);
	free(ra);
	pthread_barrier_destroy(&start_barrier);

	if (!atomic_load(&invariant_checks))
		violation("main", "the invariants were never checked");
	printf("stress: %llu records (%llu fragments) "
	       "validated, %llu losses reported, %llu"
	       " allowed gaps, %ld resized, %ld invariant checks;"
	       " %ld violations\n", total, frags, losses, gaps,
	       atomic_load(&resized), atomic_load(&invariant_checks),
	       atomic_load(&violations));
	return atomic_load(&violations) ? 1 : 0;
}
