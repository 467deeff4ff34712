#include <stdio.h>
#include <string.h>
#include "klog/klog.h"
int main(void)
{
	struct klog_ns *root, *a, *b;
	struct klog_ns_params p = { 0 };
	struct klog_msgbuf mb;
	struct klog_cursor c;
	int i;

	if (klog_ns_create(NULL, &p, &root)) return 1;
	p.tag = "a";
	if (klog_ns_create(root, &p, &a)) return 2;
	p.tag = NULL;
	if (klog_ns_create(a, &p, &b)) return 3;
	klog_ns_printk(root, "\0013host %d\n", 1);
	klog_ns_printk(a, "in a %d\n", 2);
	klog_ns_printk(b, "in b ");
	klog_ns_printk(b, "\001ccont\n");
	for (i = 0; i < 20; i++)
		klog_ns_printk(b, "flood %d\n", i);
	struct klog_ns *all[] = { root, a, b };
	for (i = 0; i < 3; i++) {
		klog_ring_cursor_first(&all[i]->ring, &c);
		printf("-- ns %d\n", i);
		while (klog_ns_read(all[i], &c, &mb) == 1)
			printf("%llu <%d> %.*s\n", (unsigned long long)mb.rec.seq, mb.rec.level, (int)mb.rec.text_len, mb.rec.text);
	}
	klog_ns_put(b); klog_ns_put(a); klog_ns_put(root);
	return 0;
}
