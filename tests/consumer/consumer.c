// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * consumer.c - a program that uses the installed libklog as any other
 * program would: built by tests/consumer/run.sh with nothing but what
 * "pkg-config --cflags --libs libklog" gives for the installed tree.
 *
 * It includes libc's <syslog.h> next to <klog/klog.h> (a program that
 * logs to syslog and reads a klog ring), has integer typedefs of its own
 * that differ from the kernel's, and checks that the platform seam did
 * not come along.
 */
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <klog/klog.h>

/* A program's own names: libklog must not define these. */
typedef unsigned char u8;
typedef int u16;
typedef long u32;
typedef double u64;
typedef float s64;

#if !defined(LOG_ERR) || !defined(LOG_KERN) || !defined(LOG_MAKEPRI)
#error "<syslog.h> is not libc's"
#endif
#if defined(ERESTARTSYS) || defined(KLOG_PLATFORM_H) || \
	defined(kl_lock_irqsave) || defined(kl_alloc) || defined(__printf)
#error "the platform seam of libklog leaked into <klog/klog.h>"
#endif

static char out[4096];

int main(void)
{
	struct klog_config cfg;
	struct klog_ns_params p = { .size = 16384, .cfg = &cfg };
	struct klog_ns *root = NULL;
	struct klog_syslog_ctx ctx;
	char scratch[KLOG_MESSAGE_MAX];
	void (*libc_openlog)(const char *, int, int) = openlog;
	u64 mine = 1.5;
	int n;

	klog_config_init(&cfg);
	if (klog_ns_create(NULL, &p, &root)) {
		fprintf(stderr, "consumer: klog_ns_create failed\n");
		return 1;
	}
	klog_ns_printk(root, "<%d>consumer %d\n", LOG_ERR, 42);

	memset(&ctx, 0, sizeof(ctx));
	ctx.ns = root;
	ctx.source = KLOG_FROM_READER;
	ctx.scratch = scratch;
	n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ_ALL, out,
			sizeof(out) - 1);
	klog_ns_put(root);
	if (n <= 0 || !strstr(out, "<3>consumer 42\n")) {
		fprintf(stderr, "consumer: READ_ALL gave %d: \"%.*s\"\n", n,
			n > 0 ? n : 0, out);
		return 1;
	}
	printf("consumer: %d bytes read, LOG_KERN|LOG_ERR is %d, u64 %.1f%s\n",
	       n, LOG_MAKEPRI(LOG_KERN, LOG_ERR), mine,
	       libc_openlog ? "" : "?");
	return 0;
}
