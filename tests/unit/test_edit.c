#include "operators/edit.h"

#include "tests/unit/op_helpers.h"

static void test_edit_format_indents_and_converts_units(void **state)
{
    (void)state;
    char *s = gb_edit_format("if a:\n    b = 1\n\n    c = 2\n", "\t", "\t", true);
    assert_string_equal(s, "\tif a:\n\t\tb = 1\n\n\t\tc = 2\n");
    free(s);
    s = gb_edit_format("x = 1\nwhile x:\n    x = 0", "  ", "  ", false);
    assert_string_equal(s, "x = 1\n  while x:\n    x = 0");
    free(s);
}

static void test_edit_indent_unit_follows_the_file(void **state)
{
    (void)state;
    const struct {
        const char *src, *unit;
    } cases[] = {
        {"def f():\n\treturn 1\n", "\t"},
        {"def f():\n  return 1\n", "  "},
        {"if x: y = 1\nfor a in b:\n   pass\n", "   "},
        {"x = 1\n", "    "},
    };
    TSParser *p = gb_parser_new();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        TSTree *t = gb_parse(p, cases[i].src, strlen(cases[i].src));
        char *u = gb_indent_unit(cases[i].src, ts_tree_root_node(t));
        assert_string_equal(u, cases[i].unit);
        free(u);
        ts_tree_delete(t);
    }
    ts_parser_delete(p);
}

/* The first statement whose text starts with text. */
static TSNode stmt_starting(OpEnv *e, const char *text)
{
    GbNodes all = {0};
    gb_stmts_collect(ts_tree_root_node(gb_op_ctx_tree(&e->ctx, 0)), &all);
    TSNode found = {0};
    for (size_t i = 0; i < all.len && ts_node_is_null(found); i++) {
        uint32_t s = ts_node_start_byte(all.items[i]);
        if (strncmp(op_env_src(e) + s, text, strlen(text)) == 0) found = all.items[i];
    }
    gb_array_free(&all);
    assert_false(ts_node_is_null(found));
    return found;
}

static void test_edit_wrap_keeps_strings_comments_and_tabs(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e,
                "def f(x):\n"
                "\t# keep me\n"
                "\ty = '''first\n"
                "second'''  # trailing\n"
                "\treturn y\n",
                NULL, NULL);
    GbEditSet set;
    gb_edits_init(&set);
    TSNode s = stmt_starting(&e, "y = '''");
    gb_edits_wrap(&e.ctx, &set, 0, s, s, "try:", "finally:\n    pass");
    GbError err;
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    assert_string_equal(op_env_src(&e), "def f(x):\n"
                                        "\t# keep me\n"
                                        "\ttry:\n"
                                        "\t\ty = '''first\n"
                                        "second'''  # trailing\n"
                                        "\tfinally:\n"
                                        "\t\tpass\n"
                                        "\treturn y\n");
    gb_edits_destroy(&set);
    op_env_close(&e);
}

static void test_edit_insert_before_after_and_history(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, "def f():\n    a = 1\n    return a", NULL, NULL);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_insert_before(&e.ctx, &set, 0, stmt_starting(&e, "a = 1"), "b = 2\nc = 3");
    gb_edits_insert_after(&e.ctx, &set, 0, stmt_starting(&e, "return a"), "d = 4");
    GbError err;
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    assert_string_equal(op_env_src(&e), "def f():\n    b = 2\n    c = 3\n    a = 1\n    return a\n    d = 4\n");
    assert_int_equal(e.prog.history.len, 2);
    gb_edits_destroy(&set);
    op_env_close(&e);
}

/* Node by node, a and b have the same kinds, bytes and points (rows, columns). */
static void same_tree(TSNode a, TSNode b)
{
    assert_string_equal(ts_node_type(a), ts_node_type(b));
    assert_int_equal(ts_node_start_byte(a), ts_node_start_byte(b));
    assert_int_equal(ts_node_end_byte(a), ts_node_end_byte(b));
    TSPoint pa = ts_node_start_point(a), pb = ts_node_start_point(b), qa = ts_node_end_point(a),
            qb = ts_node_end_point(b);
    if (pa.row != pb.row || pa.column != pb.column || qa.row != qb.row || qa.column != qb.column)
        fail_msg("%s at byte %u: %u:%u-%u:%u, fresh %u:%u-%u:%u", ts_node_type(a), ts_node_start_byte(a), pa.row,
                 pa.column, qa.row, qa.column, pb.row, pb.column, qb.row, qb.column);
    assert_int_equal(ts_node_child_count(a), ts_node_child_count(b));
    for (uint32_t i = 0; i < ts_node_child_count(a); i++) same_tree(ts_node_child(a, i), ts_node_child(b, i));
}

/* A commit parses its result from the module's tree and the edits: the tree the context then
 * holds is a fresh parse's, points included (edits that add and remove lines, several at one
 * position, on several lines). */
static void test_edit_commit_tree_is_a_fresh_parse(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, "def f(a):\n    b = a + 1\n    if b:\n        return b\n    return 0\n\nprint(f(2))\n", NULL, NULL);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_insert_before(&e.ctx, &set, 0, stmt_starting(&e, "b = a"), "c = 2\nd = [c,\n     c]");
    gb_edits_insert_after(&e.ctx, &set, 0, stmt_starting(&e, "b = a"), "e = 3");
    gb_edits_insert_before(&e.ctx, &set, 0, stmt_starting(&e, "b = a"), "g = 0");
    gb_edits_replace(&set, 0, 73, 74, "3) + f(4");
    GbError err;
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    const char *src = op_env_src(&e);
    TSParser *p = gb_parser_new();
    TSTree *fresh = ts_parser_parse_string(p, NULL, src, (uint32_t)strlen(src));
    same_tree(ts_tree_root_node(gb_op_ctx_tree(&e.ctx, 0)), ts_tree_root_node(fresh));
    /* and again on the result: a second commit starts from the first one's tree */
    gb_edits_replace(&set, 0, 0, 3, "async def");
    gb_edits_insert_after(&e.ctx, &set, 0, stmt_starting(&e, "return 0"), "x = 1\ny = 2");
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    src = op_env_src(&e);
    TSTree *fresh2 = ts_parser_parse_string(p, NULL, src, (uint32_t)strlen(src));
    same_tree(ts_tree_root_node(gb_op_ctx_tree(&e.ctx, 0)), ts_tree_root_node(fresh2));
    ts_tree_delete(fresh);
    ts_tree_delete(fresh2);
    ts_parser_delete(p);
    gb_edits_destroy(&set);
    op_env_close(&e);
}

static void test_edit_commit_rejects_broken_code_and_keeps_program(void **state)
{
    (void)state;
    OpEnv e;
    const char *src = "x = 1\ny = 2\n";
    op_env_open(&e, src, NULL, NULL);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace(&set, 0, 4, 5, "(1");
    GbError err = {{0}};
    assert_false(gb_edits_commit(&e.ctx, &set, &err));
    assert_non_null(strstr(err.msg, "does not parse"));
    assert_string_equal(op_env_src(&e), src);
    assert_int_equal(e.prog.history.len, 0);
    /* Overlapping edits are refused too. */
    gb_edits_replace(&set, 0, 0, 5, "z = 3");
    gb_edits_replace(&set, 0, 2, 3, "=");
    assert_false(gb_edits_commit(&e.ctx, &set, &err));
    assert_non_null(strstr(err.msg, "overlapping"));
    assert_string_equal(op_env_src(&e), src);
    gb_edits_destroy(&set);
    op_env_close(&e);
}

static void test_edit_import_after_docstring_and_future(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e,
                "#!/usr/bin/env python3\n"
                "\"\"\"Doc.\"\"\"\n"
                "from __future__ import annotations\n"
                "import os\n"
                "\n"
                "def f():\n"
                "    return os.sep\n",
                NULL, NULL);
    GbEditSet set;
    gb_edits_init(&set);
    char *name = gb_edits_add_import(&e.ctx, &set, 0, "time", NULL, NULL);
    assert_string_equal(name, "time");
    free(name);
    /* Identical import already there: reused, no edit. */
    name = gb_edits_add_import(&e.ctx, &set, 0, "os", NULL, NULL);
    assert_string_equal(name, "os");
    free(name);
    name = gb_edits_add_import(&e.ctx, &set, 0, "dateutil.parser", "parse", NULL);
    assert_string_equal(name, "parse");
    free(name);
    GbError err;
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    assert_string_equal(op_env_src(&e), "#!/usr/bin/env python3\n"
                                        "\"\"\"Doc.\"\"\"\n"
                                        "from __future__ import annotations\n"
                                        "import os\n"
                                        "import time\n"
                                        "from dateutil.parser import parse\n"
                                        "\n"
                                        "def f():\n"
                                        "    return os.sep\n");
    gb_edits_destroy(&set);
    op_env_close(&e);
}

static void test_edit_import_gets_alias_when_name_is_used(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, "def f(time):\n    return time\n", NULL, NULL);
    GbEditSet set;
    gb_edits_init(&set);
    char *name = gb_edits_add_import(&e.ctx, &set, 0, "time", NULL, NULL);
    assert_string_equal(name, "time_1");
    free(name);
    GbError err;
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    assert_string_equal(op_env_src(&e), "import time as time_1\ndef f(time):\n    return time\n");
    gb_edits_destroy(&set);
    op_env_close(&e);
    /* An import whose name is rebound elsewhere is not reused. */
    op_env_open(&e, "import math\nmath = 3\n", NULL, NULL);
    gb_edits_init(&set);
    name = gb_edits_add_import(&e.ctx, &set, 0, "math", NULL, NULL);
    assert_string_equal(name, "math_1");
    free(name);
    gb_edits_destroy(&set);
    op_env_close(&e);
}

static void test_edit_fresh_names_avoid_everything(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, "def check(flag):\n    flag_1 = obj.flag_2\n    return flag_1\n", "check",
                "assert check(flag_3=1)\n");
    char *a = gb_op_ctx_fresh_name(&e.ctx, "flag");
    char *b = gb_op_ctx_fresh_name(&e.ctx, "flag");
    char *c = gb_op_ctx_fresh_name(&e.ctx, "len");
    char *d = gb_op_ctx_fresh_name(&e.ctx, "lambda");
    assert_string_equal(a, "flag_4"); /* flag_2: attribute, flag_3: in the tests */
    assert_string_equal(b, "flag_5");
    assert_string_equal(c, "len_1");
    assert_string_equal(d, "lambda_1");
    assert_true(gb_op_ctx_is_pinned(&e.ctx, "check"));
    assert_true(gb_op_ctx_is_pinned(&e.ctx, "flag_3"));
    assert_false(gb_op_ctx_is_pinned(&e.ctx, "flag_1"));
    free(a);
    free(b);
    free(c);
    free(d);
    op_env_close(&e);
}

static void test_edit_statement_predicates(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e,
                "\"\"\"Doc.\"\"\"\n"
                "a = 1; b = 2\n"
                "if a: c = 3\n"
                "d = 4  # note\n"
                "class K:\n"
                "    \"\"\"Class doc.\"\"\"\n"
                "    e = 5\n",
                NULL, NULL);
    const char *src = op_env_src(&e);
    assert_true(gb_stmt_is_docstring(stmt_starting(&e, "\"\"\"Doc")));
    assert_true(gb_stmt_is_docstring(stmt_starting(&e, "\"\"\"Class")));
    assert_false(gb_stmt_is_docstring(stmt_starting(&e, "a = 1")));
    assert_false(gb_stmt_owns_lines(src, stmt_starting(&e, "a = 1")));
    assert_false(gb_stmt_owns_lines(src, stmt_starting(&e, "b = 2")));
    assert_true(gb_stmt_owns_lines(src, stmt_starting(&e, "if a")));
    assert_false(gb_stmt_owns_lines(src, stmt_starting(&e, "c = 3")));
    assert_true(gb_stmt_owns_lines(src, stmt_starting(&e, "d = 4")));
    assert_true(gb_stmt_wrappable(&e.ctx, 0, stmt_starting(&e, "d = 4"), 0));
    assert_false(gb_stmt_wrappable(&e.ctx, 0, stmt_starting(&e, "e = 5"), 0)); /* class body */
    op_env_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_format_indents_and_converts_units),
        cmocka_unit_test(test_edit_indent_unit_follows_the_file),
        cmocka_unit_test(test_edit_wrap_keeps_strings_comments_and_tabs),
        cmocka_unit_test(test_edit_insert_before_after_and_history),
        cmocka_unit_test(test_edit_commit_tree_is_a_fresh_parse),
        cmocka_unit_test(test_edit_commit_rejects_broken_code_and_keeps_program),
        cmocka_unit_test(test_edit_import_after_docstring_and_future),
        cmocka_unit_test(test_edit_import_gets_alias_when_name_is_used),
        cmocka_unit_test(test_edit_fresh_names_avoid_everything),
        cmocka_unit_test(test_edit_statement_predicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
