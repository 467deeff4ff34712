/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * nfrule.h - netfilter for the in-guest helpers: loopback up, a LOG rule
 * installed without the iptables binary, and UDP packets over lo that the
 * rule logs.  The includer defines die(WHAT): report errno and exit.
 */
#ifndef GUEST_NFRULE_H
#define GUEST_NFRULE_H

#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_LOG.h>
#include <linux/netfilter_ipv4/ip_tables.h>

static void die(const char *what);

static void lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		die("SIOCGIFFLAGS");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr))
		die("SIOCSIFFLAGS");
	close(s);
}

#define STD_SIZE XT_ALIGN(sizeof(struct xt_standard_target))
#define ERR_SIZE XT_ALIGN(sizeof(struct xt_error_target))
#define LOG_SIZE XT_ALIGN(sizeof(struct xt_entry_target) + \
			  sizeof(struct xt_log_info))
#define ENT_SIZE XT_ALIGN(sizeof(struct ipt_entry))

/* An unconditional entry with a standard ACCEPT target at @p. */
static unsigned int put_accept(char *p)
{
	struct ipt_entry *e = (struct ipt_entry *)p;
	struct xt_standard_target *t = (void *)(p + ENT_SIZE);

	e->target_offset = ENT_SIZE;
	e->next_offset = ENT_SIZE + STD_SIZE;
	t->target.u.user.target_size = STD_SIZE;
	strcpy(t->target.u.user.name, XT_STANDARD_TARGET);
	t->verdict = -NF_ACCEPT - 1;
	return e->next_offset;
}

/* A rule "-i/-o lo -p udp -j LOG --log-prefix PREFIX" at @p. */
static unsigned int put_log(char *p, int out, const char *prefix)
{
	struct ipt_entry *e = (struct ipt_entry *)p;
	struct xt_entry_target *t = (void *)(p + ENT_SIZE);
	struct xt_log_info *li = (struct xt_log_info *)t->data;

	e->ip.proto = IPPROTO_UDP;
	strcpy(out ? e->ip.outiface : e->ip.iniface, "lo");
	memset(out ? e->ip.outiface_mask : e->ip.iniface_mask, 0xff,
	       strlen("lo") + 1);
	e->target_offset = ENT_SIZE;
	e->next_offset = ENT_SIZE + LOG_SIZE;
	t->u.user.target_size = LOG_SIZE;
	strcpy(t->u.user.name, "LOG");
	li->level = 4;
	snprintf(li->prefix, sizeof(li->prefix), "%s", prefix);
	return e->next_offset;
}

/*
 * The filter table of the current netns replaced by
 *   -A INPUT -i lo -p udp -j LOG --log-prefix PREFIX
 *   -A OUTPUT -o lo -p udp -j LOG --log-prefix PREFIX
 * and ACCEPT policies: iptables without the iptables binary, which every
 * other guest program runs.  The churn installs these rules hundreds of
 * times, and two execs of iptables per cycle cost four times the cycle
 * itself under TCG.  A packet over lo is logged twice: on output (process
 * context) and on input (in the softirq that loopback raises).
 */
static void add_log_rule(const char *prefix)
{
	struct ipt_getinfo info;
	struct ipt_replace *rep;
	struct xt_counters *cnt;
	struct xt_error_target *et;
	struct ipt_entry *e;
	socklen_t len = sizeof(info);
	unsigned int off = 0, size;
	char *p;
	int s;

	s = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (s < 0)
		die("socket(SOCK_RAW)");
	memset(&info, 0, sizeof(info));
	strcpy(info.name, "filter");
	if (getsockopt(s, IPPROTO_IP, IPT_SO_GET_INFO, &info, &len))
		die("IPT_SO_GET_INFO");
	size = 3 * (ENT_SIZE + STD_SIZE) + 2 * (ENT_SIZE + LOG_SIZE) +
	       ENT_SIZE + ERR_SIZE;
	rep = calloc(1, sizeof(*rep) + size);
	cnt = calloc(info.num_entries, sizeof(*cnt));
	if (!rep || !cnt)
		die("calloc");
	strcpy(rep->name, "filter");
	rep->valid_hooks = info.valid_hooks;
	rep->num_entries = 6;
	rep->size = size;
	rep->num_counters = info.num_entries;
	rep->counters = cnt;
	p = (char *)rep->entries;

	rep->hook_entry[NF_INET_LOCAL_IN] = off;
	off += put_log(p + off, 0, prefix);
	rep->underflow[NF_INET_LOCAL_IN] = off;
	off += put_accept(p + off);
	rep->hook_entry[NF_INET_FORWARD] = off;
	rep->underflow[NF_INET_FORWARD] = off;
	off += put_accept(p + off);
	rep->hook_entry[NF_INET_LOCAL_OUT] = off;
	off += put_log(p + off, 1, prefix);
	rep->underflow[NF_INET_LOCAL_OUT] = off;
	off += put_accept(p + off);

	e = (struct ipt_entry *)(p + off);
	e->target_offset = ENT_SIZE;
	e->next_offset = ENT_SIZE + ERR_SIZE;
	et = (struct xt_error_target *)(p + off + ENT_SIZE);
	et->target.u.user.target_size = ERR_SIZE;
	strcpy(et->target.u.user.name, XT_ERROR_TARGET);
	strcpy(et->errorname, XT_ERROR_TARGET);
	off += e->next_offset;
	if (off != size) {
		errno = EINVAL;
		die("table layout");
	}
	if (setsockopt(s, IPPROTO_IP, IPT_SO_SET_REPLACE, rep,
		       sizeof(*rep) + size))
		die("IPT_SO_SET_REPLACE");
	free(rep);
	free(cnt);
	close(s);
}

/* A UDP socket sending to 127.0.0.1:9 (a bound receiver takes them). */
static int udp_open(int *rx)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(9),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s;

	*rx = socket(AF_INET, SOCK_DGRAM, 0);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (*rx < 0 || s < 0)
		die("socket");
	if (bind(*rx, (struct sockaddr *)&a, sizeof(a)))
		die("bind");
	if (connect(s, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	return s;
}

static void udp_send(int s, int rx)
{
	char drain[64];

	if (send(s, "x", 1, 0) != 1)
		die("send");
	/* keep the receive queue short; the LOG rule saw it anyway */
	while (recv(rx, drain, sizeof(drain), MSG_DONTWAIT) > 0)
		;
}

#endif /* GUEST_NFRULE_H */
