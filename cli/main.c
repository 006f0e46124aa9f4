/*
 * main.c - entry point of the hangdx program: global options, then a
 * dispatch through the command table that also drives --help.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "cli.h"

static int cmd_help_run(int argc, char **argv);
static int cmd_version_run(int argc, char **argv);

static const struct cli_cmd cmd_help = {
	"help", N_("show help for hangdx or for one command"), N_("help [COMMAND]"),
	cmd_help_run
};
static const struct cli_cmd cmd_version = {
	"version", N_("print the version"), N_("version"), cmd_version_run
};

static const struct cli_cmd *const commands[] = {
	&cmd_diagnose,
	&cmd_facts,
	&cmd_simulate,
	&cmd_parse,
	&cmd_check,
	&cmd_replay,
	&cmd_watch,
	&cmd_help,
	&cmd_version,
};

static const struct cli_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void main_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, _("usage: hangdx [--version] [--help] [--lang zh|en] <command> [options]\n\n"
		      "Find out why a distributed job on Ascend NPUs hung.\n\n"
		      "commands:\n"));
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(fp, "  %-10s %s\n", commands[i]->name,
			_(commands[i]->summary));
	fprintf(fp, _("\nglobal options:\n"
		      "  --lang zh|en  language of the reports and messages (default: from\n"
		      "                LANGUAGE, LC_ALL, LC_MESSAGES, LANG); JSON is the same\n"
		      "                in every language\n"));
	fprintf(fp, _("\nexit status:\n"
		      "  0  ran fine, no hang found\n"
		      "  1  hang or deadlock found (diagnose: or not ruled out)\n"
		      "  2  usage error\n"
		      "  3  bad input (file:line:col diagnostics on stderr)\n"
		      "  4  system or I/O error\n"
		      "  5  undecided (check: a state-space limit was reached;\n"
		      "     watch: the logs read so far do not decide)\n"
		      "\n'hangdx help COMMAND' shows a command's options; see also hangdx(1).\n"));
}

static int cmd_help_run(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		main_usage(stdout);
		return EXIT_OK_NOHANG;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, _("%s: no such command: %s\n"), cli_prog, argv[1]);
		return EXIT_USAGE;
	}
	return cli_help(c, stdout);
}

static int cmd_version_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("hangdx %s\n", HANGDX_VERSION);
	return EXIT_OK_NOHANG;
}

/*
 * Keep freed memory in the process for the next allocation: the phases of
 * a diagnosis free and allocate hundreds of MB in turn, and a page the
 * kernel must hand out and zero again cost more than the work done on it
 * (at 100,000 ranks, 24% of `diagnose --facts` went to zeroing pages; in
 * a virtual machine each is a fault of the host too).  One arena: what
 * the second reading thread frees serves the rest of the run (with an
 * arena of its own, 4,096 ranks peaked at 152 MB instead of 115 MB).
 */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	mallopt(M_ARENA_MAX, 1);
#endif
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;
	int rc;

	keep_freed_memory();
	rc = cli_i18n_init(&argc, argv);

	if (rc)
		return rc;
	if (argc < 2) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_help_run(1, argv);
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		return cmd_version_run(1, argv);
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, _("%s: unknown command '%s'\n"), cli_prog, argv[1]);
		main_usage(stderr);
		return EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
