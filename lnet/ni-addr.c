// SPDX-License-Identifier: GPL-2.0
/*
 * NIDs that follow the address (Documentation/multirail.rst, "NIDs that
 * follow the address"): when the IPv4 address of an NI's interface
 * changes, the NI takes the NID of the new address, without a restart of
 * LNet, and in-kernel users are told (lnet_nid_change_notifier_register()).
 */
#include <linux/export.h>
#include <linux/notifier.h>

#include <lnet/api.h>
#include <lnet/lib-lnet.h>

static BLOCKING_NOTIFIER_HEAD(lnet_nid_change_chain);

/**
 * lnet_nid_change_notifier_register() - be told when an NI's NID changes
 * @nb: its notifier_call is called with event 0 and a
 *	&struct lnet_nid_change (the NI's old and new NID), after the NI
 *	moved to its new NID and the ping buffer announcing it was rebuilt
 *
 * The callbacks run in process context, one change at a time, with no
 * LNet lock held (LNet's configuration mutex included): they may call
 * LNet, send and sleep.  The data is valid during the call only.
 *
 * Context: Process context.
 * Return: 0, or -EEXIST if @nb is registered already.
 */
int lnet_nid_change_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&lnet_nid_change_chain, nb);
}
EXPORT_SYMBOL(lnet_nid_change_notifier_register);

/**
 * lnet_nid_change_notifier_unregister() - stop being told of NID changes
 * @nb: a block registered with lnet_nid_change_notifier_register()
 *
 * Once this returns no callback of @nb runs (a call in progress has
 * ended), so its module may go.
 *
 * Context: Process context; not from the callback itself.
 * Return: 0, or -ENOENT if @nb is not registered.
 */
int lnet_nid_change_notifier_unregister(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&lnet_nid_change_chain, nb);
}
EXPORT_SYMBOL(lnet_nid_change_notifier_unregister);
