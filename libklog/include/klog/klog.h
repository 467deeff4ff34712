/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/klog.h - everything libklog offers.
 */
#ifndef KLOG_KLOG_H
#define KLOG_KLOG_H

#include <klog/ring.h>
#include <klog/format.h>
#include <klog/ns.h>
#include <klog/printk.h>
#include <klog/syslog.h>
#include <klog/kmsg.h>

#endif /* KLOG_KLOG_H */
