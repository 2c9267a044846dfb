/* Pinned names: what the tests use and the program defines. */
#include "src/model/pinned.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

typedef struct {
    const char *name;
    GbTestKind kind;
    const char *entry;
    const char *source;
    const char *helper; /* extra file helpers.py, or NULL */
    const char *tests;
    const char *want; /* pinned names joined by "," */
} PinCase;

static const PinCase cases[] = {
    {"humaneval style: entry point only", GB_TESTS_ASSERT, "add",
     "def _helper(a):\n    return a\n\ndef add(a, b):\n    total = _helper(a) + b\n    return total\n", NULL,
     "def check(candidate):\n    assert candidate(1, 2) == 3\n    total = 4\n\ncheck(add)\n", "add"},
    {"tests call a helper the program defines", GB_TESTS_ASSERT, "decode",
     "def encode(s):\n    return s[::-1]\n\ndef decode(s):\n    return encode(s)\n", NULL,
     "def check(candidate):\n    assert candidate(encode('ab')) == 'ab'\n\ncheck(decode)\n", "decode,encode"},
    {"cruxeval f and a module constant", GB_TESTS_ASSERT, "f",
     "LIMIT = 3\ndef f(xs):\n    out = [x for x in xs if x < LIMIT]\n    return out\n", NULL,
     "assert f([1, 5]) == [1]\nassert LIMIT == 3\n", "f,LIMIT"},
    {"locals and parameters are not pinned", GB_TESTS_ASSERT, "f",
     "def f(xs):\n    out = 0\n    for x in xs:\n        out += x\n    return out\n", NULL,
     "out = f([1, 2])\nx = 3\nassert out == x\n", "f"},
    {"unittest: class, methods, attributes, imports", GB_TESTS_UNITTEST, "Stack",
     "import datetime\nfrom collections import deque as dq\n\nclass Stack:\n    LIMIT = 10\n\n"
     "    def __init__(self):\n        self.items = []\n        self._hidden = 0\n\n"
     "    def push(self, x):\n        self.items.append(x)\n\n    def size(self):\n        return len(self.items)\n\n"
     "    def unused(self):\n        return 0\n",
     NULL,
     "import unittest\n\nclass StackTest(unittest.TestCase):\n    def test_push(self):\n        s = Stack()\n"
     "        s.push(1)\n        self.assertEqual(s.size(), 1)\n        self.assertEqual(s.items, [1])\n"
     "        self.assertTrue(Stack.LIMIT > 0)\n        self.assertIsNotNone(datetime.date.today())\n",
     "Stack,LIMIT,datetime,items,push,size"},
    {"getattr string and keyword argument", GB_TESTS_UNITTEST, "Box",
     "class Box:\n    def __init__(self, width=1):\n        self.width = width\n    def area(self):\n"
     "        return self.width ** 2\n",
     NULL,
     "import unittest\nclass T(unittest.TestCase):\n    def test(self):\n        b = Box(width=2)\n"
     "        self.assertEqual(getattr(b, 'area')(), 4)\n",
     "Box,area,width"},
    {"definitions in extra files count", GB_TESTS_ASSERT, "run",
     "from helpers import scale\n\ndef run(x):\n    return scale(x)\n", "def scale(x):\n    return 2 * x\n",
     "assert run(2) == scale(2)\n", "run,scale"},
    {"stdio pins nothing", GB_TESTS_STDIO, NULL, "def main():\n    print(input())\n\nmain()\n", NULL, NULL, ""},
};

static char *join(const GbTask *t)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    for (size_t i = 0; i < t->pinned.len; i++) {
        if (i) gb_str_append(&s, ",");
        gb_str_append(&s, t->pinned.items[i]);
    }
    return gb_str_take(&s);
}

static void test_pinned_cases(void **state)
{
    (void)state;
    TSParser *parser = gb_parser_new();
    assert_non_null(parser);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const PinCase *c = &cases[i];
        GbTask t;
        gb_task_init(&t);
        t.id = gb_strdup(c->name);
        t.kind = c->kind;
        t.entry_point = gb_strdup(c->entry);
        t.source = gb_strdup(c->source);
        t.test_code = gb_strdup(c->tests);
        if (c->helper) gb_task_set_file(&t, "helpers.py", c->helper);
        gb_array_push(&t.pinned, gb_strdup("stale"));
        gb_task_compute_pinned(&t, parser);
        char *got = join(&t);
        if (strcmp(got, c->want) != 0) {
            print_error("case '%s': pinned '%s', expected '%s'\n", c->name, got, c->want);
            fail();
        }
        free(got);
        gb_task_destroy(&t);
    }
    ts_parser_delete(parser);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pinned_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
