// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl: YAML output through the libyaml emitter, with lnetctl's indent
 * of 6 so that sequence items come out as "-     key: value".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lnetctl.h"

#define YOUT_INDENT	6

static void yout_emit(struct yout *y, yaml_event_t *ev, int ok)
{
	if (y->failed)
		return;
	if (!ok || !yaml_emitter_emit(&y->emitter, ev))
		y->failed = true;
}

void yout_begin(struct yout *y, FILE *f)
{
	yaml_event_t ev;
	int ok;

	y->failed = false;
	yaml_emitter_initialize(&y->emitter);
	yaml_emitter_set_output_file(&y->emitter, f);
	yaml_emitter_set_indent(&y->emitter, YOUT_INDENT);
	yaml_emitter_set_width(&y->emitter, -1);
	yaml_emitter_set_unicode(&y->emitter, 1);
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	yout_emit(y, &ev, ok);
	ok = yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	yout_emit(y, &ev, ok);
}

/* Return: 0, or -EIO if anything could not be emitted. */
int yout_end(struct yout *y)
{
	yaml_event_t ev;

	yout_emit(y, &ev, yaml_document_end_event_initialize(&ev, 1));
	yout_emit(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (!y->failed && !yaml_emitter_flush(&y->emitter))
		y->failed = true;
	yaml_emitter_delete(&y->emitter);
	return y->failed ? -EIO : 0;
}

void yout_map(struct yout *y)
{
	yaml_event_t ev;

	int ok = yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						     YAML_BLOCK_MAPPING_STYLE);

	yout_emit(y, &ev, ok);
}

void yout_seq(struct yout *y)
{
	yaml_event_t ev;

	int ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						      YAML_BLOCK_SEQUENCE_STYLE);

	yout_emit(y, &ev, ok);
}

/* A sequence on one line: "[1, 2]". */
void yout_flow_seq(struct yout *y)
{
	yaml_event_t ev;

	int ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						      YAML_FLOW_SEQUENCE_STYLE);

	yout_emit(y, &ev, ok);
}

void yout_end_map(struct yout *y)
{
	yaml_event_t ev;

	yout_emit(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

void yout_end_seq(struct yout *y)
{
	yaml_event_t ev;

	yout_emit(y, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void yout_scalar(struct yout *y, const char *s,
			yaml_scalar_style_t style)
{
	yaml_event_t ev;

	int ok = yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
					      strlen(s), 1, 1, style);

	yout_emit(y, &ev, ok);
}

void yout_str(struct yout *y, const char *s)
{
	yout_scalar(y, s, YAML_ANY_SCALAR_STYLE);
}

void yout_quoted(struct yout *y, const char *s)
{
	yout_scalar(y, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

void yout_kv_str(struct yout *y, const char *key, const char *val)
{
	yout_str(y, key);
	yout_str(y, val);
}

void yout_kv_int(struct yout *y, const char *key, long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", val);
	yout_kv_str(y, key, buf);
}

void yout_kv_uint(struct yout *y, const char *key, unsigned long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", val);
	yout_kv_str(y, key, buf);
}

static void report(const char *op, const char *what, int errnum,
		   const char *descr)
{
	struct yout y;

	yout_begin(&y, stderr);
	yout_map(&y);
	yout_str(&y, op);
	yout_seq(&y);
	yout_map(&y);
	yout_str(&y, what);
	yout_map(&y);
	yout_kv_int(&y, "errno", -(long long)errnum);
	yout_str(&y, "descr");
	yout_quoted(&y, descr);
	yout_end_map(&y);
	yout_end_map(&y);
	yout_end_seq(&y);
	yout_end_map(&y);
	if (yout_end(&y))
		fprintf(stderr, "%s: %s: %s\n", op, what, descr);
}

void report_error(const char *op, const char *what, int errnum,
		  const char *fmt, ...)
{
	char descr[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(descr, sizeof(descr), fmt, ap);
	va_end(ap);
	report(op, what, errnum, descr);
}

void report_nl_error(const char *op, const char *what, const char *prefix,
		     const struct lnl_error *err)
{
	char descr[512];

	if (err->msg[0])
		snprintf(descr, sizeof(descr), "%s: %s", prefix, err->msg);
	else if (err->errnum == EPERM)	/* refused before any handler */
		snprintf(descr, sizeof(descr),
			 "%s: %s (CAP_NET_ADMIN is required)", prefix,
			 strerror(err->errnum));
	else
		snprintf(descr, sizeof(descr), "%s: %s", prefix,
			 strerror(err->errnum));
	report(op, what, err->errnum, descr);
}
