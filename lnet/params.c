// SPDX-License-Identifier: GPL-2.0
/*
 * Global parameters ("lnetctl global show" / "lnetctl set"), by their
 * lnetctl names, with the defaults and checks of the features spec,
 * section 1b.  Each is also a module parameter under Lustre's name
 * (lnet_retry_count, ...), writable in sysfs with the same checks, so
 * modprobe.d files written for Lustre keep working.  lnd_timeout is
 * derived and read-only, as on Lustre.
 */
#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include <lnet/lib-lnet.h>

enum lnet_global_idx {
	LNET_G_NUMA_RANGE,
	LNET_G_DISCOVERY,
	LNET_G_MAX_INTERFACES,
	LNET_G_DROP_ASYM_ROUTE,
	LNET_G_RETRY_COUNT,
	LNET_G_TRANSACTION_TIMEOUT,
	LNET_G_HEALTH_SENSITIVITY,
	LNET_G_RECOVERY_INTERVAL,
	LNET_G_ROUTER_SENSITIVITY,
	LNET_G_LND_TIMEOUT,
	LNET_G_RESPONSE_TRACKING,
	LNET_G_RECOVERY_LIMIT,
	LNET_G_MAX_RECOVERY_PING_INTERVAL,
	LNET_G_COUNT
};

#define LNET_INTERFACES_MIN	16
#define LNET_INTERFACES_DEFAULT	4096

static DEFINE_MUTEX(lnet_params_mutex);

/* Values, in the form Lustre's module parameters have them. */
static int lnet_values[LNET_G_COUNT] = {
	[LNET_G_NUMA_RANGE]			= 0,
	[LNET_G_DISCOVERY]			= 0,	/* ..._disabled */
	[LNET_G_MAX_INTERFACES]			= LNET_INTERFACES_DEFAULT,
	[LNET_G_DROP_ASYM_ROUTE]		= 0,
	[LNET_G_RETRY_COUNT]			= 2,
	[LNET_G_TRANSACTION_TIMEOUT]		= 150,
	[LNET_G_HEALTH_SENSITIVITY]		= 100,
	[LNET_G_RECOVERY_INTERVAL]		= 1,
	[LNET_G_ROUTER_SENSITIVITY]		= 100,
	[LNET_G_LND_TIMEOUT]			= 49,
	[LNET_G_RESPONSE_TRACKING]		= 3,
	[LNET_G_RECOVERY_LIMIT]			= 0,
	[LNET_G_MAX_RECOVERY_PING_INTERVAL]	= 900,
};

static const char * const lnet_global_names[LNET_G_COUNT] = {
	[LNET_G_NUMA_RANGE]			= "numa_range",
	[LNET_G_DISCOVERY]			= "discovery",
	[LNET_G_MAX_INTERFACES]			= "max_interfaces",
	[LNET_G_DROP_ASYM_ROUTE]		= "drop_asym_route",
	[LNET_G_RETRY_COUNT]			= "retry_count",
	[LNET_G_TRANSACTION_TIMEOUT]		= "transaction_timeout",
	[LNET_G_HEALTH_SENSITIVITY]		= "health_sensitivity",
	[LNET_G_RECOVERY_INTERVAL]		= "recovery_interval",
	[LNET_G_ROUTER_SENSITIVITY]		= "router_sensitivity",
	[LNET_G_LND_TIMEOUT]			= "lnd_timeout",
	[LNET_G_RESPONSE_TRACKING]		= "response_tracking",
	[LNET_G_RECOVERY_LIMIT]			= "recovery_limit",
	[LNET_G_MAX_RECOVERY_PING_INTERVAL]	= "max_recovery_ping_interval",
};

int lnet_max_interfaces(void)
{
	return READ_ONCE(lnet_values[LNET_G_MAX_INTERFACES]);
}

/* Drop what a gateway we would not route back through sent us (spec 7). */
bool lnet_drop_asym_route(void)
{
	return READ_ONCE(lnet_values[LNET_G_DROP_ASYM_ROUTE]);
}

/* "lnetctl set discovery": lnet_peer_discovery_disabled inverted. */
bool lnet_discovery_enabled(void)
{
	return !READ_ONCE(lnet_values[LNET_G_DISCOVERY]);
}

unsigned int lnet_transaction_timeout(void)
{
	return READ_ONCE(lnet_values[LNET_G_TRANSACTION_TIMEOUT]);
}
EXPORT_SYMBOL_GPL(lnet_transaction_timeout);

unsigned int lnet_response_tracking(void)
{
	return READ_ONCE(lnet_values[LNET_G_RESPONSE_TRACKING]);
}

unsigned int lnet_retry_count(void)
{
	return READ_ONCE(lnet_values[LNET_G_RETRY_COUNT]);
}
EXPORT_SYMBOL_GPL(lnet_retry_count);

unsigned int lnet_health_sensitivity(void)
{
	return READ_ONCE(lnet_values[LNET_G_HEALTH_SENSITIVITY]);
}
EXPORT_SYMBOL_GPL(lnet_health_sensitivity);

/* Seconds after its last sign of life a peer NI is still recovered. */
unsigned int lnet_recovery_limit(void)
{
	return READ_ONCE(lnet_values[LNET_G_RECOVERY_LIMIT]);
}
EXPORT_SYMBOL_GPL(lnet_recovery_limit);

unsigned int lnet_max_recovery_ping_interval(void)
{
	return READ_ONCE(lnet_values[LNET_G_MAX_RECOVERY_PING_INTERVAL]);
}
EXPORT_SYMBOL_GPL(lnet_max_recovery_ping_interval);

/**
 * lnet_get_lnd_timeout() - LNet's lnd_timeout, seconds
 *
 * What an LND whose own timeout tunable is 0 uses (spec 3d: Lustre's
 * socklnd sock_timeout and o2iblnd timeout of 0).
 *
 * Return: max((transaction_timeout - 1) / (retry_count + 1), 1).
 */
unsigned int lnet_get_lnd_timeout(void)
{
	return READ_ONCE(lnet_values[LNET_G_LND_TIMEOUT]);
}
EXPORT_SYMBOL_GPL(lnet_get_lnd_timeout);

/* lnd_timeout = max((transaction_timeout - 1) / (retry_count + 1), 1) */
static void lnet_update_lnd_timeout(void)
{
	int t = (lnet_values[LNET_G_TRANSACTION_TIMEOUT] - 1) /
		(lnet_values[LNET_G_RETRY_COUNT] + 1);

	WRITE_ONCE(lnet_values[LNET_G_LND_TIMEOUT], max(t, 1));
}

/* Check and apply an lnetctl value; lnet_params_mutex held. */
static int lnet_global_apply(unsigned int idx, s64 v,
			     struct netlink_ext_ack *extack)
{
	int *val = &lnet_values[idx];

	if (idx == LNET_G_LND_TIMEOUT) {
		NL_SET_ERR_MSG(extack, "lnd_timeout is read-only");
		return -EPERM;
	}
	if (v < 0 || v > INT_MAX)
		goto range;

	switch (idx) {
	case LNET_G_DISCOVERY:
		if (v > 1)
			goto range;
		if (*val == !v)
			return 0;
		WRITE_ONCE(*val, !v);
		/*
		 * The ping buffer's DISCOVERY bit follows, and every
		 * multi-rail peer gets it by a push (spec features 1b).
		 */
		lnet_ping_target_update_later(true);
		return 0;
	case LNET_G_MAX_INTERFACES:
		if (v < LNET_INTERFACES_MIN) {
			pr_warn("LNet: max_interfaces %lld below %d, using %d\n",
				v, LNET_INTERFACES_MIN,
				LNET_INTERFACES_DEFAULT);
			v = LNET_INTERFACES_DEFAULT;
		}
		break;
	case LNET_G_DROP_ASYM_ROUTE:
		if (v > 1)
			goto range;
		break;
	case LNET_G_RETRY_COUNT:
		if (v > lnet_values[LNET_G_TRANSACTION_TIMEOUT]) {
			NL_SET_ERR_MSG(extack,
				       "retry_count must not exceed transaction_timeout");
			return -EINVAL;
		}
		if (v && !lnet_values[LNET_G_HEALTH_SENSITIVITY]) {
			NL_SET_ERR_MSG(extack,
				       "retry_count must be 0 while health_sensitivity is 0");
			return -EINVAL;
		}
		WRITE_ONCE(*val, v);
		lnet_update_lnd_timeout();
		return 0;
	case LNET_G_TRANSACTION_TIMEOUT:
		if (!v || v <= lnet_values[LNET_G_RETRY_COUNT]) {
			NL_SET_ERR_MSG(extack,
				       "transaction_timeout must be non-zero and above retry_count");
			return -EINVAL;
		}
		WRITE_ONCE(*val, v);
		lnet_update_lnd_timeout();
		return 0;
	case LNET_G_HEALTH_SENSITIVITY:
		if (v > 1000)
			goto range;
		WRITE_ONCE(*val, v);
		if (!v) {
			WRITE_ONCE(lnet_values[LNET_G_RETRY_COUNT], 0);
			lnet_update_lnd_timeout();
		}
		return 0;
	case LNET_G_RECOVERY_INTERVAL:
		pr_warn("LNet: recovery_interval is deprecated and has no effect\n");
		return 0;
	case LNET_G_ROUTER_SENSITIVITY:
		if (v > 100)
			goto range;
		break;
	case LNET_G_RESPONSE_TRACKING:
		if (v > 3)
			goto range;
		break;
	case LNET_G_MAX_RECOVERY_PING_INTERVAL:
		if (!v)
			goto range;
		break;
	default:	/* RECOVERY_LIMIT (seconds), NUMA_RANGE: any */
		break;
	}
	WRITE_ONCE(*val, v);
	return 0;
range:
	NL_SET_ERR_MSG(extack, "value out of range");
	return -EINVAL;
}

static int lnet_global_idx(const char *name)
{
	unsigned int i;

	for (i = 0; i < LNET_G_COUNT; i++)
		if (!strcmp(name, lnet_global_names[i]))
			return i;
	return -ENOENT;
}

/**
 * lnet_global_name() - the @idx-th global parameter's lnetctl name
 * @idx: index from 0
 *
 * Return: the name, or NULL past the last one.
 */
const char *lnet_global_name(unsigned int idx)
{
	return idx < LNET_G_COUNT ? lnet_global_names[idx] : NULL;
}
EXPORT_SYMBOL(lnet_global_name);

/**
 * lnet_global_get() - read a global parameter
 * @name: its lnetctl name
 * @value: where the value goes
 *
 * Return: 0, or -ENOENT for an unknown name.
 */
int lnet_global_get(const char *name, s64 *value)
{
	int idx = lnet_global_idx(name);

	if (idx < 0)
		return idx;
	*value = READ_ONCE(lnet_values[idx]);
	if (idx == LNET_G_DISCOVERY)
		*value = !*value;
	return 0;
}
EXPORT_SYMBOL(lnet_global_get);

/**
 * lnet_global_set() - set a global parameter
 * @name: its lnetctl name
 * @value: the new value
 * @extack: where to report an error
 *
 * Context: Process context.
 * Return: 0; -ENOENT for an unknown name; -EINVAL for a value out of
 * range or in conflict with another parameter; -EPERM for lnd_timeout.
 */
int lnet_global_set(const char *name, s64 value,
		    struct netlink_ext_ack *extack)
{
	int idx = lnet_global_idx(name);
	int rc;

	if (idx < 0) {
		NL_SET_ERR_MSG(extack, "unknown parameter");
		return idx;
	}
	mutex_lock(&lnet_params_mutex);
	rc = lnet_global_apply(idx, value, extack);
	mutex_unlock(&lnet_params_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_global_set);

/* Module parameters: Lustre's names, values in Lustre's sense. */
static int lnet_param_set(const char *s, const struct kernel_param *kp)
{
	unsigned int idx = (int *)kp->arg - lnet_values;
	s64 v;
	int rc;

	rc = kstrtoll(s, 0, &v);
	if (rc)
		return rc;
	if (idx == LNET_G_DISCOVERY) {
		/* lnet_peer_discovery_disabled is the inverse of discovery */
		if (v != 0 && v != 1)
			return -EINVAL;
		v = !v;
	}
	mutex_lock(&lnet_params_mutex);
	rc = lnet_global_apply(idx, v, NULL);
	mutex_unlock(&lnet_params_mutex);
	return rc;
}

static int lnet_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(*(int *)kp->arg));
}

static const struct kernel_param_ops lnet_param_ops = {
	.set = lnet_param_set,
	.get = lnet_param_get,
};

/*
 * Stock's NUMA distance within which NIs count as equally close in
 * selection; this LNet has one CPT (every NI at the same distance), so the
 * value is kept and shown, and changes no choice.
 */
module_param_cb(lnet_numa_range, &lnet_param_ops,
		&lnet_values[LNET_G_NUMA_RANGE], 0444);
MODULE_PARM_DESC(lnet_numa_range,
		 "NUMA range to consider during Multi-Rail selection");
module_param_cb(lnet_peer_discovery_disabled, &lnet_param_ops,
		&lnet_values[LNET_G_DISCOVERY], 0644);
MODULE_PARM_DESC(lnet_peer_discovery_disabled,
		 "1 to disable peer discovery (default 0)");
module_param_cb(lnet_interfaces_max, &lnet_param_ops,
		&lnet_values[LNET_G_MAX_INTERFACES], 0644);
MODULE_PARM_DESC(lnet_interfaces_max,
		 "most NIs in a ping buffer (default 4096, min 16)");
module_param_cb(lnet_drop_asym_route, &lnet_param_ops,
		&lnet_values[LNET_G_DROP_ASYM_ROUTE], 0644);
MODULE_PARM_DESC(lnet_drop_asym_route,
		 "1 to drop asymmetrically routed messages (default 0)");
module_param_cb(lnet_retry_count, &lnet_param_ops,
		&lnet_values[LNET_G_RETRY_COUNT], 0644);
MODULE_PARM_DESC(lnet_retry_count,
		 "resends of a failed message (default 2)");
module_param_cb(lnet_transaction_timeout, &lnet_param_ops,
		&lnet_values[LNET_G_TRANSACTION_TIMEOUT], 0644);
MODULE_PARM_DESC(lnet_transaction_timeout,
		 "seconds to wait for an ACK or REPLY (default 150)");
module_param_cb(lnet_health_sensitivity, &lnet_param_ops,
		&lnet_values[LNET_G_HEALTH_SENSITIVITY], 0644);
MODULE_PARM_DESC(lnet_health_sensitivity,
		 "health decrement on failure, 0..1000 (default 100)");
module_param_cb(lnet_recovery_interval, &lnet_param_ops,
		&lnet_values[LNET_G_RECOVERY_INTERVAL], 0644);
MODULE_PARM_DESC(lnet_recovery_interval,
		 "deprecated, no effect");
module_param_cb(router_sensitivity_percentage, &lnet_param_ops,
		&lnet_values[LNET_G_ROUTER_SENSITIVITY], 0644);
MODULE_PARM_DESC(router_sensitivity_percentage,
		 "deprecated; router health threshold, 0..100 (default 100)");
module_param_cb(lnet_response_tracking, &lnet_param_ops,
		&lnet_values[LNET_G_RESPONSE_TRACKING], 0644);
MODULE_PARM_DESC(lnet_response_tracking,
		 "0 pings only, 1 +GET, 2 +PUT, 3 both (default 3)");
module_param_cb(lnet_recovery_limit, &lnet_param_ops,
		&lnet_values[LNET_G_RECOVERY_LIMIT], 0644);
MODULE_PARM_DESC(lnet_recovery_limit,
		 "seconds a peer NI is recovered after last alive, 0 forever");
module_param_cb(lnet_max_recovery_ping_interval, &lnet_param_ops,
		&lnet_values[LNET_G_MAX_RECOVERY_PING_INTERVAL], 0644);
MODULE_PARM_DESC(lnet_max_recovery_ping_interval,
		 "longest interval between recovery pings, seconds (default 900)");
