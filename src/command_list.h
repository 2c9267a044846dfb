/* The subcommands of the genebench CLI: one X-macro row each, in the order `genebench --help`
 * lists them. Each row is implemented by `int gb_cmd_<name>(int argc, char **argv)` in
 * src/cmd_<name>.c (argv[0] is the subcommand name). No include guard: included with
 * different definitions of GB_COMMAND. */
GB_COMMAND(version, "print the version of genebench and of its dependencies")
GB_COMMAND(report, "write a self-contained HTML report of hardening runs")
