// SPDX-License-Identifier: GPL-2.0
/*
 * LNet's tracepoints are defined here (include/lnet/trace.h,
 * Documentation/tracepoints.rst); lnet_conn is exported for the LNDs.
 */
#include <lnet/lib-lnet.h>

#define CREATE_TRACE_POINTS
#include <lnet/trace.h>

EXPORT_TRACEPOINT_SYMBOL_GPL(lnet_conn);
EXPORT_TRACEPOINT_SYMBOL_GPL(lnet_health);
