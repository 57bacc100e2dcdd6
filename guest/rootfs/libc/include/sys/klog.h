// SPDX-License-Identifier: MIT
#ifndef _SYS_KLOG_H
#define _SYS_KLOG_H
int klogctl(int type, char *buf, int len);
#endif
