// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl's help, in the shapes of stock lnetctl's (its libcfs parser's
 * "help" and "--list-commands", and check_cmd()/print_help() for
 * "COMMAND --help" and "COMMAND SUBCOMMAND --help").  The texts are
 * stock's where it has one, naming the options this lnetctl parses.
 * Nothing here talks to the kernel: help works with no module loaded.
 */
#include "lnetctl.h"

/* A subcommand ("add"; for fault "drop add") and its text. */
struct help_sub {
	const char *name;
	const char *text;
};

/*
 * A command: its subcommands, or (@subs NULL) its own text.  @help_word:
 * "COMMAND help" is a help form too (for import and export, "help" is a
 * file name, as in stock).
 */
struct help_cmd {
	const char *name;
	const struct help_sub *subs;
	unsigned int n_subs;
	const char *text;
	bool help_word;
};

static const struct help_sub lnet_subs[] = {
	{ "configure", "configure lnet\n"
	  "\t--all: load NI configuration from module parameters\n" },
	{ "unconfigure", "unconfigure lnet\n" },
};

static const struct help_sub route_subs[] = {
	{ "add", "add a route\n"
	  "\t--net: net name (e.g. tcp0)\n"
	  "\t--gateway: gateway nid (e.g. 10.1.1.2@tcp), or a list or range of them,\n"
	  "\t           or a router's name in the nidmap table\n"
	  "\t--hop|--hop-count: number to final destination (1 <= hops <= 255)\n"
	  "\t--priority: priority of route (0 - highest prio)\n" },
	{ "del", "delete a route\n"
	  "\t--net: net name (e.g. tcp0)\n"
	  "\t--gateway: gateway nid (e.g. 10.1.1.2@tcp)\n" },
	{ "show", "show routes\n"
	  "\t--net: net name (e.g. tcp0) to filter on\n"
	  "\t--gateway: gateway nid (e.g. 10.1.1.2@tcp) to filter on\n"
	  "\t--hop|--hop-count: number to final destination (1 <= hops <= 255) to filter on\n"
	  "\t--priority: priority of route (0 - highest prio) to filter on\n"
	  "\t--verbose: display detailed output per route\n" },
};

static const struct help_sub net_subs[] = {
	{ "add", "add a network\n"
	  "\t--net: net name (e.g. tcp0)\n"
	  "\t--if: physical interface (e.g. eth0)\n"
	  "\t--nid: bring up NI based on the address of the specified LNet NID\n"
	  "\t--ip2net: specify networks based on IP address patterns\n"
	  "\t--peer-timeout: time to wait before declaring a peer dead\n"
	  "\t--peer-credits: define the max number of inflight messages\n"
	  "\t--peer-buffer-credits: the number of buffer credits per peer\n"
	  "\t--credits: Network Interface credits\n"
	  "\t--conns-per-peer: number of connections per peer\n"
	  "\t--tos: IP's Type of Service\n" },
	{ "del", "delete a network\n"
	  "\t--net: net name (e.g. tcp0)\n"
	  "\t--if: physical interface (e.g. eth0)\n"
	  "\t--nid: delete the NI of this NID\n" },
	{ "show", "show networks\n"
	  "\t--net: net name (e.g. tcp0) to filter on\n"
	  "\t--verbose: display detailed output per network.\n"
	  "\t           Optional argument of '2' outputs more stats\n" },
	{ "set", "set local NI specific parameter\n"
	  "\t--nid: NI NID to set the value of\n"
	  "\t--health: specify health value to set\n"
	  "\t--conns-per-peer: number of connections per peer\n"
	  "\t--all: set all NIs value to the one specified\n"
	  "\t--net: the net whose LND --lnd-timeout sets\n"
	  "\t--lnd-timeout: set lnd timeout value (seconds)\n" },
};

static const struct help_sub routing_subs[] = {
	{ "show", "show routing information\n" },
};

/* Stock's order; it has no text for max_recovery_ping_interval's line. */
static const struct help_sub set_subs[] = {
	{ "tiny_buffers", "set tiny routing buffers\n"
	  "\tVALUE must be greater than 0\n" },
	{ "small_buffers", "set small routing buffers\n"
	  "\tVALUE must be greater than 0\n" },
	{ "large_buffers", "set large routing buffers\n"
	  "\tVALUE must be greater than 0\n" },
	{ "routing", "enable/disable routing\n"
	  "\t0 - disable routing\n"
	  "\t1 - enable routing\n" },
	{ "numa_range", "set NUMA range for NI selection\n"
	  "\tVALUE must be at least 0\n" },
	{ "max_interfaces", "set the default value for max interfaces\n"
	  "\tValue must be greater than 16\n" },
	{ "discovery", "enable/disable peer discovery\n"
	  "\t0 - disable peer discovery\n"
	  "\t1 - enable peer discovery (default)\n" },
	{ "drop_asym_route", "drop/accept asymmetrical route messages\n"
	  "\t0 - accept asymmetrical route messages (default)\n"
	  "\t1 - drop asymmetrical route messages\n" },
	{ "retry_count", "number of retries\n"
	  "\t0 - turn of retries\n"
	  "\t>0 - number of retries\n" },
	{ "transaction_timeout", "Message/Response timeout\n"
	  "\t>0 - timeout in seconds\n" },
	{ "health_sensitivity", "sensitivity to failure\n"
	  "\t0 - turn off health evaluation\n"
	  "\t>0 - sensitivity value not more than 1000\n" },
	{ "recovery_interval", "interval to ping in seconds (at least 1)\n"
	  "\t>0 - time in seconds between pings\n" },
	{ "router_sensitivity", "router sensitivity to failure\n"
	  "\t0 - turn off health evaluation\n"
	  "\t>0 - sensitivity value not more than 100\n" },
	{ "response_tracking", "Set the behavior of response tracking\n"
	  "\t0 - Only LNet pings and discovery pushes utilize response tracking\n"
	  "\t1 - GETs are eligible for response tracking\n"
	  "\t2 - PUTs are eligible for response tracking\n"
	  "\t3 - Both PUTs and GETs are eligible for response tracking (default)\n"
	  "\tNote: Regardless of the value of the response_tracking parameter LNet\n"
	  "\t      pings and discovery pushes always utilize response tracking\n" },
	{ "recovery_limit", "Set how long LNet will attempt to recover unhealthy interfaces.\n"
	  "\t0 - Recover indefinitely (default)\n"
	  "\t>0 - Recover for the specified number of seconds.\n" },
	{ "max_recovery_ping_interval", "maximum recovery ping interval\n"
	  "\t>0 - maximum recovery ping interval in seconds\n" },
};

static const struct help_sub stats_subs[] = {
	{ "show", "show LNET statistics\n" },
	{ "reset", "reset LNET statistics\n" },
};

static const struct help_sub debug_subs[] = {
	{ "recovery", "list recovery queues\n"
	  "\t--local : list local recovery queue\n"
	  "\t--peer : list peer recovery queue\n" },
	{ "peer", "show peer debug info\n"
	  "\t--nid: peer's NID\n" },
};

static const struct help_sub global_subs[] = {
	{ "show", "show global variables\n" },
};

static const struct help_sub peer_subs[] = {
	{ "add", "add a peer NID\n"
	  "\t--prim_nid: Primary NID of the peer.\n"
	  "\t--nid: one or more peer NIDs\n"
	  "\t--non_mr: create this peer as not Multi-Rail capable\n"
	  "\t--lock_prim: lock primary nid\n" },
	{ "del", "delete a peer NID\n"
	  "\t--prim_nid: Primary NID of the peer.\n"
	  "\t--nid: list of NIDs to remove. If none provided,\n"
	  "\t       peer is deleted\n"
	  "\t--force: force-delete locked primary NID\n" },
	{ "show", "show peer information\n"
	  "\t--nid: NID of peer to filter on.\n"
	  "\t--verbose: display detailed output per peer.\n"
	  "\t           Optional argument of '2' outputs more stats\n" },
	{ "list", "list all peers\n" },
	{ "set", "set peer ni specific parameter\n"
	  "\t--nid: Peer NI NID to set the value of\n"
	  "\t--health: specify health value to set\n"
	  "\t--all: set all peer_nis values to the one specified\n" },
};

static const struct help_sub udsp_subs[] = {
	{ "add", "add a udsp\n"
	  "\t--src nid|net: ip2nets style NID or LNet network e.g. 10.1.1.[2-10]@tcp or tcp1\n"
	  "\t--dst nid|net: ip2nets style NID or LNet network e.g. 10.1.1.[2-10]@tcp or tcp1\n"
	  "\t--rte nid|net: ip2nets style NID or LNet network e.g. 10.1.1.[2-10]@tcp or tcp1\n"
	  "\t--priority p: Assign priority value p where p >= 0.\n"
	  "\t              Note: 0 is the highest priority.\n"
	  "\t--idx n: Insert the rule in the n'th position on the list of rules.\n"
	  "\t         By default, rules are appended to the end of the rule list.\n" },
	{ "del", "delete a udsp\n"
	  "\t--all: delete all rules\n"
	  "\t--idx n: delete the n'th rule\n" },
	{ "show", "show udsps\n"
	  "\t--idx n: show the n'th rule\n" },
};

#define FAULT_ADD_COMMON \
	"\t--source|-s NID: source NID of the messages (*@NET: any on NET)\n" \
	"\t--dest|-d NID: destination NID of the messages (*@NET: any on NET)\n" \
	"\t--rate|-r R: one message in every R that match\n" \
	"\t--interval|-i S: one matching message in every S seconds\n" \
	"\t--portal|-p P: messages to portal P only (repeatable)\n" \
	"\t--message|-m put|ack|get|reply: messages of this type only (repeatable)\n"

static const struct help_sub fault_subs[] = {
	{ "drop add", "add an LNet drop rule\n"
	  FAULT_ADD_COMMON
	  "\t--health_error|-e ERROR|random: fail the message with this health error\n"
	  "\t--random|-n: with --interval, each match with probability 1/2\n"
	  "\t--local_nid|-o NID: messages received on this local NI only\n"
	  "\t--drop_all|-x: drop every matching message\n" },
	{ "drop del", "delete LNet drop rules\n"
	  "\t--all|-a: delete all drop rules\n"
	  "\t--source|-s NID, --dest|-d NID: delete the rules of this pair\n" },
	{ "drop reset", "reset the drop rules' counters\n" },
	{ "drop show", "show the drop rules\n" },
	{ "delay add", "add an LNet delay rule\n"
	  FAULT_ADD_COMMON
	  "\t--latency|-l S: delay matching messages S seconds\n"
	  "\t--local_nid|-o NID: accepted; with it the rule never matches, as stock's\n" },
	{ "delay del", "delete LNet delay rules\n"
	  "\t--all|-a: delete all delay rules\n"
	  "\t--source|-s NID, --dest|-d NID: delete the rules of this pair\n" },
	{ "delay reset", "reset the delay rules' counters\n" },
	{ "delay show", "show the delay rules\n" },
};

static const struct help_sub nidmap_subs[] = {
	{ "publish", "publish this node's target-to-NID table\n"
	  "\t--max-entries: the most targets the table holds\n"
	  "\t--max-tombstones: the most removed targets remembered\n"
	  "\t--tombstone-age: seconds a removed target is remembered (0: no bound)\n"
	  "\t--max-subscribers: the most subscribers\n"
	  "\t--relay-fanout: subscribers a relay forwards to (1: a chain)\n" },
	{ "unpublish", "stop publishing the table\n" },
	{ "subscribe", "keep a copy of a publisher's table\n"
	  "\t--publisher: the publisher's NID\n"
	  "\t--relay: forward its notices to other subscribers\n"
	  "\t--routes: install the routes of the table's routers\n" },
	{ "unsubscribe", "stop subscribing\n" },
	{ "register", "register targets' NIDs with a publisher\n"
	  "\t--publisher: the publisher's NID\n"
	  "\t--name: a target's name (up to 256, each with its --nid)\n"
	  "\t--nid: its NIDs, in failover order\n"
	  "\t--router: the target (one --name) is a router\n"
	  "\t--net: with --router, the nets it routes to (e.g. o2ib,tcp1)\n" },
	{ "remove", "remove targets from a publisher's table\n"
	  "\t--publisher: the publisher's NID\n"
	  "\t--name: a target's name (up to 256)\n" },
	{ "show", "show the publisher's and subscriber's state\n" },
	{ "table", "show the published table\n"
	  "\t--copy: this node's copy instead\n" },
	{ "lookup", "resolve a target's name as a send by name does\n"
	  "\t--name: the target's name\n" },
	{ "key add", "add a key to sign and check messages with (at most two;\n"
	  "\tthe first one added signs)\n"
	  "\t--id: its id (1 to 4294967295), the same on every node\n"
	  "\t--secret-file: the file of its secret: its bytes less one trailing\n"
	  "\t               newline, 16 to 64 of them; mode 600 or stricter\n" },
	{ "key use", "sign with this key from now on\n"
	  "\t--id: a key held\n" },
	{ "key del", "delete a key: messages signed with it are refused\n"
	  "\t--id: a key held (the signing one only when it is the last)\n" },
};

/* Stock's cmd_list order; fault and nidmap are this lnetctl's. */
static const struct help_cmd help_cmds[] = {
	{ "lnet", lnet_subs, ARRAY_SIZE(lnet_subs), NULL, true },
	{ "route", route_subs, ARRAY_SIZE(route_subs), NULL, true },
	{ "net", net_subs, ARRAY_SIZE(net_subs), NULL, true },
	{ "routing", routing_subs, ARRAY_SIZE(routing_subs), NULL, true },
	{ "set", set_subs, ARRAY_SIZE(set_subs), NULL, true },
	{ "import", NULL, 0, "import FILE\n"
	  "import < FILE : import a file\n"
	  "\t--add: add configuration\n"
	  "\t--del: delete configuration\n"
	  "\t--show: show configuration\n"
	  "\t--exec: execute command\n"
	  "\t--old-api: accepted, changes nothing\n"
	  "\t--help: display this help\n"
	  "If no command option is given then --add is assumed by default\n",
	  false },
	{ "export", NULL, 0, "export FILE\n"
	  "export > FILE.yaml : export configuration\n"
	  "\t--backup: export only what's necessary for reconfig\n"
	  "\t--help: display this help\n", false },
	{ "stats", stats_subs, ARRAY_SIZE(stats_subs), NULL, true },
	{ "debug", debug_subs, ARRAY_SIZE(debug_subs), NULL, true },
	{ "global", global_subs, ARRAY_SIZE(global_subs), NULL, true },
	{ "peer", peer_subs, ARRAY_SIZE(peer_subs), NULL, true },
	{ "ping", NULL, 0, "ping nid[,nid,...]\n"
	  "\t --source: source nid\n"
	  "\t --timeout: ping timeout\n"
	  "\t --help: display this help\n", true },
	{ "discover", NULL, 0, "discover nid[,nid,...]\n"
	  "\t --force: force discovery\n"
	  "\t --timeout: discovery timeout\n"
	  "\t --help: display this help\n", true },
	{ "udsp", udsp_subs, ARRAY_SIZE(udsp_subs), NULL, true },
	{ "fault", fault_subs, ARRAY_SIZE(fault_subs), NULL, true },
	{ "nidmap", nidmap_subs, ARRAY_SIZE(nidmap_subs), NULL, true },
};

/* Listed after the commands, as stock's parser lists its own. */
static const struct help_sub help_builtins[] = {
	{ "help", "help [COMMAND [SUBCOMMAND]]" },
	{ "--list-commands", "list commands" },
};

static bool is_help_flag(const char *s)
{
	return !strcmp(s, "--help") || !strcmp(s, "-h");
}

static bool is_help_word(const char *s)
{
	return is_help_flag(s) || !strcmp(s, "help");
}

static const struct help_cmd *find_help_cmd(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(help_cmds); i++)
		if (!strcmp(help_cmds[i].name, name))
			return &help_cmds[i];
	return NULL;
}

/* Stock's print_help(): "CMD SUB: TEXT" of the subcommands starting @prefix. */
static unsigned int print_subs(const struct help_cmd *c, const char *prefix)
{
	size_t len = strlen(prefix);
	unsigned int i, n = 0;

	for (i = 0; i < c->n_subs; i++) {
		const char *name = c->subs[i].name;

		if (len && (strncmp(name, prefix, len) ||
			    (name[len] && name[len] != ' ')))
			continue;
		printf("%s %s: %s\n", c->name, name, c->subs[i].text);
		n++;
	}
	return n;
}

/* The subcommand named by argv[1] (and argv[2], for "fault drop add"). */
static const struct help_sub *find_sub(const struct help_cmd *c, int argc,
				       char **argv, int *words)
{
	unsigned int i;

	for (i = 0; i < c->n_subs; i++) {
		const char *name = c->subs[i].name;
		const char *sp = strchr(name, ' ');

		if (!sp && !strcmp(name, argv[1])) {
			*words = 1;
			return &c->subs[i];
		}
		if (sp && argc > 2 && strlen(argv[1]) == (size_t)(sp - name) &&
		    !strncmp(name, argv[1], sp - name) &&
		    !strcmp(sp + 1, argv[2])) {
			*words = 2;
			return &c->subs[i];
		}
	}
	return NULL;
}

/* Whether one of argv[from..] asks for help ("--" ends the options). */
static bool help_flag_in(int from, int argc, char **argv)
{
	int i;

	for (i = from; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help_flag(argv[i]))
			return true;
	return false;
}

/* "lnetctl help": the commands, in the shape of stock's parser's list. */
static void print_commands(FILE *f)
{
	unsigned int i;

	fputs("usage: lnetctl [COMMAND] [OPTIONS]... [ARGS]\n"
	      "\nAvailable commands are:\n", f);
	for (i = 0; i < ARRAY_SIZE(help_cmds); i++)
		fprintf(f, "\t%s\n", help_cmds[i].name);
	for (i = 0; i < ARRAY_SIZE(help_builtins); i++)
		fprintf(f, "\t%s\n", help_builtins[i].name);
	fputs("\nFor more help type: help command-name\n", f);
}

/* "lnetctl --list-commands": the names in four columns of 20, as stock. */
static void list_commands(void)
{
	unsigned int n = ARRAY_SIZE(help_cmds) + ARRAY_SIZE(help_builtins);
	unsigned int i;

	for (i = 0; i < n; i++) {
		const char *name = i < ARRAY_SIZE(help_cmds) ? help_cmds[i].name :
				   help_builtins[i - ARRAY_SIZE(help_cmds)].name;

		printf("%-20s%s", name, i % 4 == 3 || i + 1 == n ? "\n" : "");
	}
}

/*
 * "COMMAND ..." (argv[0] the command) if it is a help form: "COMMAND
 * --help|-h|help", "COMMAND SUB ... --help|-h" (an option anywhere after
 * the subcommand, as stock's commands take it), "fault drop|delay
 * --help|-h|help".  Return: the exit status if it was one, else -1.
 */
static int command_help(int argc, char **argv)
{
	const struct help_cmd *c = find_help_cmd(argv[0]);
	const struct help_sub *s;
	int words;

	if (!c || argc < 2)
		return -1;
	if (!c->subs) {
		if (help_flag_in(1, argc, argv) ||
		    (c->help_word && argc == 2 && !strcmp(argv[1], "help"))) {
			fputs(c->text, stdout);
			return 0;
		}
		return -1;
	}
	if (is_help_word(argv[1])) {
		print_subs(c, "");
		return 0;
	}
	s = find_sub(c, argc, argv, &words);
	if (s) {
		if (!help_flag_in(1 + words, argc, argv))
			return -1;
		printf("%s %s: %s\n", c->name, s->name, s->text);
		return 0;
	}
	/* "fault drop --help": the rule type's subcommands */
	if (argc > 2 && is_help_word(argv[2]) && print_subs(c, argv[1]))
		return 0;
	return -1;
}

/**
 * help_main() - answer lnetctl's help forms, without the kernel
 * @argc: lnetctl's
 * @argv: lnetctl's (argv[0] the program)
 *
 * "lnetctl help [COMMAND [SUBCOMMAND]]", "lnetctl --help|-h",
 * "lnetctl --list-commands" and the forms of command_help().
 *
 * Return: the exit status (0, or 1 for help on a command there is none
 * of), or -1 if the arguments are not a help form.
 */
int help_main(int argc, char **argv)
{
	char *args[4];
	int i, rc;

	if (argc < 2)
		return -1;
	if (!strcmp(argv[1], "--list-commands") && argc == 2) {
		list_commands();
		return 0;
	}
	if (strcmp(argv[1], "help") && !is_help_flag(argv[1]))
		return command_help(argc - 1, argv + 1);
	if (argc == 2) {
		print_commands(stdout);
		return 0;
	}
	for (i = 0; i < (int)ARRAY_SIZE(help_builtins); i++) {
		if (argc == 3 && !strcmp(argv[2], help_builtins[i].name)) {
			printf("%s: %s\n", help_builtins[i].name,
			       help_builtins[i].text);
			return 0;
		}
	}
	/* "help COMMAND [SUB [SUB]]" is "COMMAND [SUB [SUB]] --help" */
	if (argc <= 5) {
		for (i = 2; i < argc; i++)
			args[i - 2] = argv[i];
		args[argc - 2] = "--help";
		rc = command_help(argc - 1, args);
		if (rc >= 0)
			return rc;
	}
	fputs("lnetctl: no command '", stderr);
	for (i = 2; i < argc; i++)
		fprintf(stderr, "%s%s", i > 2 ? " " : "", argv[i]);
	fputs("'; 'lnetctl help' lists them\n", stderr);
	return 1;
}

/**
 * help_usage() - the list of commands on stderr, for a command line
 * without one
 */
void help_usage(void)
{
	print_commands(stderr);
}
