// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * targets.c - the goals kbench checks a run against.
 *
 * DOC: kbench targets
 *
 * Each entry is a goal for one quantity of the run, named the way the
 * CSV names it (scenario, param, backend, metric), and the quantities
 * shown with it.  Ratios are of numbers of the same run, so that they
 * mean the same on any machine; the values are the best of the accepted
 * runs.  struct target (targets.h) says how an entry reads; report.c
 * evaluates them.  A new goal is a new entry here, nothing else.
 */
#include <stddef.h>

#include "targets.h"

/* The best ns per record of @b at (@s, @p). */
#define NS(s, p, b) { s, p, b, "ns_per_rec" }

const struct target targets[] = {
	{
		.what = "W1 libklog / floor, 64 B, 128 KiB ring",
		.op = "<=", .goal = 1.3,
		.value = { NULL, NS("W1-size", "64/128K", "libklog"),
			   NS("W1-size", "64/128K", "floor") },
		.detail = {
			{ "libklog ns", NS("W1-size", "64/128K", "libklog") },
			{ "floor ns", NS("W1-size", "64/128K", "floor") },
			{ "harness ns", NS("W1-size", "64/128K", "null") },
			{ "net of the harness",
			  NS("W1-size", "64/128K", "libklog"),
			  NS("W1-size", "64/128K", "floor"),
			  NS("W1-size", "64/128K", "null") },
			{ "1 MiB ring", NS("W1-size", "64/1M", "libklog"),
			  NS("W1-size", "64/1M", "floor") },
			{ "ring without lock",
			  NS("W1-size", "64/128K", "libklog-nolock"),
			  NS("W1-size", "64/128K", "floor") },
		},
	},
	{
		.what = "W1 prb / libklog, worst size",
		.op = ">=", .goal = 5,
		.value = { NULL, NS("W1-size", "*", "prb"),
			   NS("W1-size", "*", "libklog") },
		.detail = {
			{ "prb / floor there", NS("W1-size", "*", "prb"),
			  NS("W1-size", "*", "floor") },
			{ "at 64/128K", NS("W1-size", "64/128K", "prb"),
			  NS("W1-size", "64/128K", "libklog") },
		},
	},
	{
		.what = "W1 libklog / spin, worst size",
		.op = "<=", .goal = 1,
		.value = { NULL, NS("W1-size", "*", "libklog"),
			   NS("W1-size", "*", "spin") },
		.detail = {
			{ "at 64/128K", NS("W1-size", "64/128K", "libklog"),
			  NS("W1-size", "64/128K", "spin") },
			{ "mixed sizes", NS("W1-size", "mixed/128K", "libklog"),
			  NS("W1-size", "mixed/128K", "spin") },
			{ "like for like (spin-caller) there",
			  NS("W1-size", "*", "libklog"),
			  NS("W1-size", "*", "spin-caller") },
			{ "like for like at 64/128K",
			  NS("W1-size", "64/128K", "libklog"),
			  NS("W1-size", "64/128K", "spin-caller") },
		},
	},
	{
		.what = "R-scan libklog / spin, 1 reader",
		.op = "<=", .goal = 1,
		.value = { NULL, NS("R-scan", "1r", "libklog"),
			   NS("R-scan", "1r", "spin") },
		.detail = {
			{ "2 readers", NS("R-scan", "2r", "libklog"),
			  NS("R-scan", "2r", "spin") },
			{ "like for like (spin-caller)",
			  NS("R-scan", "1r", "libklog"),
			  NS("R-scan", "1r", "spin-caller") },
		},
	},
	{
		.what = "R-scan libklog / prb, 1 reader",
		.op = "<=", .goal = 0.6,
		.value = { NULL, NS("R-scan", "1r", "libklog"),
			   NS("R-scan", "1r", "prb") },
		.detail = {
			{ "2 readers", NS("R-scan", "2r", "libklog"),
			  NS("R-scan", "2r", "prb") },
			{ "libklog-ns 1 reader",
			  NS("R-scan", "1r", "libklog-ns"),
			  NS("R-scan", "1r", "prb") },
		},
	},
	{
		.what = "NS-scale libklog-ns, 64 / 1 namespaces, round-robin",
		.op = "<=", .goal = 1.2,
		.value = { NULL, NS("NS-scale", "64-rr", "libklog-ns"),
			   NS("NS-scale", "1", "libklog-ns") },
		.detail = {
			{ "hot-spot", NS("NS-scale", "64-hot", "libklog-ns"),
			  NS("NS-scale", "1", "libklog-ns") },
			{ "libklog ring rr",
			  NS("NS-scale", "64-rr", "libklog"),
			  NS("NS-scale", "1", "libklog") },
			{ "prb rr", NS("NS-scale", "64-rr", "prb"),
			  NS("NS-scale", "1", "prb") },
			{ "512 rr", NS("NS-scale", "512-rr", "libklog-ns"),
			  NS("NS-scale", "1", "libklog-ns") },
		},
	},
	{
		.what = "memory per namespace - 64 KiB ring (bytes)",
		.op = "<=", .goal = 2048,
		.value = { NULL, { "NS-scale", "mem-64K", "libklog-ns",
				   "overhead_bytes" } },
		.detail = {
			{ "heap per namespace, ring included",
			  { "NS-scale", "mem-64K", "libklog-ns",
			    "heap_bytes" } },
			{ "prb metadata bytes",
			  { "NS-scale", "mem-64K", "prb", "overhead_bytes" } },
		},
	},
	{
		.what = "W2 libklog / prb aggregate records/s",
		.op = ">=", .goal = 1,
		.value = { NULL, { "W2-contend", "64", "libklog", "rec_per_s" },
			   { "W2-contend", "64", "prb", "rec_per_s" } },
		.detail = {
			{ "libklog records/s",
			  { "W2-contend", "64", "libklog", "rec_per_s" } },
			{ "prb records/s",
			  { "W2-contend", "64", "prb", "rec_per_s" } },
			{ "prb failed reservations",
			  { "W2-contend", "64", "prb", "fails" } },
		},
	},
	{
		.what = "W2 libklog lost records (read back)",
		.op = "==", .goal = 0,
		.value = { NULL, { "W2-contend", "64", "libklog", "lost" } },
		.detail = {
			{ "records read back",
			  { "W2-contend", "64", "libklog", "held" } },
			{ "failed stores",
			  { "W2-contend", "64", "libklog", "fails" } },
		},
	},
	{
		.what = "in guest: child /dev/kmsg write / host's",
		.op = "<=", .goal = 1.1,
		.elsewhere = "not measured by kbench: make bench-guest (QEMU)",
	},
};
