/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/klog.h - everything libklog offers.
 */
#ifndef KLOG_KLOG_H
#define KLOG_KLOG_H

#include "ring.h"
#include "format.h"
#include "ns.h"
#include "printk.h"
#include "syslog.h"
#include "kmsg.h"

#endif /* KLOG_KLOG_H */
