/* The subcommands of the genebench CLI: one X-macro row each, in the order `genebench --help`
 * lists them. Each row is implemented by `int gb_cmd_<name>(int argc, char **argv)` in
 * src/cmd_<name>.c (argv[0] is the subcommand name). No include guard: included with
 * different definitions of GB_COMMAND. */
GB_COMMAND(version, "print the version of genebench and of its dependencies")
GB_COMMAND(import, "convert an upstream benchmark (humaneval, cruxeval, classeval, avatar) to canonical JSONL")
GB_COMMAND(export, "write a canonical benchmark back in an upstream format")
GB_COMMAND(validate, "check a canonical benchmark and summarise it")
