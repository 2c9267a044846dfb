/* eval's prompts lines and reply-cache entries (src/doc/eval_prompts.h, eval_cache.h): the bytes
 * eval has always written, write -> parse -> write gives the same bytes, and each parser refuses
 * missing, mistyped and unknown keys naming the file (and line) and the key. */
#include "src/doc/eval_prompts.h"

#include <stdlib.h>
#include <string.h>

#include "src/doc/eval_cache.h"
#include "tests/unit/helpers.h"

/* One refusal: the first `from` in the good text replaced by `to` must fail with an error that
 * contains `message`. */
typedef struct {
    const char *from, *to, *message;
} BadCase;

/* ---- prompts lines ---- */

static const char *const stops[] = {"[/ANSWER]", NULL};

static void test_prompt_line_writes_chat_and_completions(void **state)
{
    (void)state;
    GbEvalPromptLine chat = {.item = "he/add",
                             .version = 1,
                             .sample = 2,
                             .task = "output",
                             .chat = true,
                             .system = "Be brief.",
                             .prompt = "caf\xc3\xa9 \"x\"\n\xf0\x9f\x98\x80\x1b",
                             .stop = stops,
                             .expected = "3",
                             .prompt_sha256 = "ab12"};
    char *line = gb_eval_prompt_line_write(&chat);
    assert_string_equal(line,
                        "{\"task_id\":\"he/add@v1\",\"item\":\"he/add\",\"version\":1,\"sample\":2,\"task\":"
                        "\"output\",\"api\":\"chat\",\"messages\":[{\"role\":\"system\",\"content\":\"Be "
                        "brief.\"},{\"role\":\"user\",\"content\":\"caf\\u00E9 \\\"x\\\"\\n\\uD83D\\uDE00\\u001B\"}],"
                        "\"stop\":[\"[/ANSWER]\"],\"expected\":\"3\",\"prompt_sha256\":\"ab12\"}\n");
    free(line);
    GbEvalPromptLine plain = {.item = "x", .task = "repair", .prompt = "def f():", .prompt_sha256 = "ff"};
    line = gb_eval_prompt_line_write(&plain);
    assert_string_equal(line, "{\"task_id\":\"x@v0\",\"item\":\"x\",\"version\":0,\"sample\":0,\"task\":\"repair\","
                              "\"api\":\"completions\",\"prompt\":\"def f():\",\"stop\":[],\"expected\":null,"
                              "\"prompt_sha256\":\"ff\"}\n");
    free(line);
}

static void test_prompt_line_round_trips(void **state)
{
    (void)state;
    GbEvalPromptLine lines[] = {
        {.item = "crux/0",
         .version = 2,
         .sample = 1,
         .task = "input",
         .chat = true,
         .prompt = "p\xff",
         .stop = stops,
         .expected = "f(1)",
         .prompt_sha256 = "00"},
        {.item = "he/add",
         .version = 0,
         .sample = 0,
         .task = "output",
         .chat = true,
         .system = "s",
         .prompt = "q",
         .prompt_sha256 = "01"},
        {.item = "b", .version = 3, .sample = 4, .task = "translate", .prompt = "x\ty", .prompt_sha256 = "02"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char *first = gb_eval_prompt_line_write(&lines[i]);
        GbEvalPromptLine back;
        GbError err = {{0}};
        if (!gb_eval_prompt_line_parse(first, strlen(first) - 1, "p.jsonl:1", &back, &err))
            fail_msg("line %zu: %s", i, err.msg);
        assert_int_equal(back.chat, lines[i].chat);
        assert_int_equal(back.version, lines[i].version);
        assert_int_equal(back.sample, lines[i].sample);
        assert_true((back.system == NULL) == (lines[i].system == NULL));
        char *second = gb_eval_prompt_line_write(&back);
        assert_string_equal(second, first);
        gb_eval_prompt_line_destroy(&back);
        free(first);
        free(second);
    }
}

static void test_prompt_line_refuses_mistyped_input(void **state)
{
    (void)state;
    GbEvalPromptLine chat = {.item = "he/add",
                             .version = 1,
                             .task = "output",
                             .chat = true,
                             .system = "s",
                             .prompt = "q",
                             .stop = stops,
                             .expected = "3",
                             .prompt_sha256 = "ab"};
    char *good = gb_eval_prompt_line_write(&chat);
    const BadCase cases[] = {
        {"\"item\":\"he/add\"", "\"item\":\"he/sub\"", "p.jsonl:7: \"task_id\": expected \"he/sub@v1\""},
        {"\"version\":1", "\"version\":\"1\"", "p.jsonl:7: \"version\": expected an integer, not a string"},
        {"\"sample\":0,", "", "\"sample\": expected an integer (missing)"},
        {"\"api\":\"chat\"", "\"api\":\"chit\"", "\"api\": expected \"chat\" or \"completions\""},
        {"\"api\":\"chat\"", "\"api\":\"completions\"", "\"messages\": unknown key"},
        {"\"role\":\"system\"", "\"role\":\"user\"", "\"messages[0].role\": expected \"system\""},
        {"\"content\":\"q\"", "\"content\":1", "\"messages[1].content\": expected a string"},
        {"[\"[/ANSWER]\"]", "[1]", "\"stop[0]\": expected a string"},
        {"\"expected\":\"3\"", "\"expected\":3", "\"expected\": expected"},
        {"\"prompt_sha256\"", "\"hash\"", "\"hash\": unknown key"},
        {"{\"task_id\"", "[{\"task_id\"", "p.jsonl:7: malformed JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(good, cases[i].from);
        if (!at) fail_msg("case %zu: \"%s\" is not in the line", i, cases[i].from);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - good), good, cases[i].to, at + strlen(cases[i].from));
        GbEvalPromptLine back;
        GbError err = {{0}};
        if (gb_eval_prompt_line_parse(bad, strlen(bad), "p.jsonl:7", &back, &err)) {
            gb_eval_prompt_line_destroy(&back);
            fail_msg("case %zu was accepted", i);
        }
        if (!strstr(err.msg, cases[i].message))
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err.msg, cases[i].message);
        free(bad);
    }
    free(good);
}

/* ---- reply-cache entries ---- */

static void test_cache_entry_writes_and_round_trips(void **state)
{
    (void)state;
    GbEvalCacheEntry full = {.model = "sim",
                             .reply = "caf\xc3\xa9\x1b\xff",
                             .finish_reason = "length",
                             .prompt_tokens = 12,
                             .completion_tokens = 0};
    GbEvalCacheEntry bare = {.model = "m", .reply = "", .prompt_tokens = -1, .completion_tokens = -1};
    const char *want[] = {"{\"model\":\"sim\",\"reply\":\"caf\xc3\xa9\\u001B\xef\xbf\xbd\",\"finish_reason\":"
                          "\"length\",\"prompt_tokens\":12,\"completion_tokens\":0}",
                          "{\"model\":\"m\",\"reply\":\"\"}"};
    const GbEvalCacheEntry *entries[] = {&full, &bare};
    for (size_t i = 0; i < 2; i++) {
        char *first = gb_eval_cache_entry_write(entries[i]);
        assert_string_equal(first, want[i]);
        GbEvalCacheEntry back;
        GbError err = {{0}};
        if (!gb_eval_cache_entry_parse(first, strlen(first), "c.json", &back, &err)) fail_msg("%s", err.msg);
        assert_int_equal(back.prompt_tokens, entries[i]->prompt_tokens);
        assert_true((back.finish_reason == NULL) == (entries[i]->finish_reason == NULL));
        char *second = gb_eval_cache_entry_write(&back);
        assert_string_equal(second, first);
        gb_eval_cache_entry_destroy(&back);
        free(first);
        free(second);
    }
}

static void test_cache_entry_refuses_mistyped_input(void **state)
{
    (void)state;
    const char *good = "{\"model\":\"sim\",\"reply\":\"r\",\"finish_reason\":\"stop\",\"prompt_tokens\":1,"
                       "\"completion_tokens\":2}";
    const BadCase cases[] = {
        {"\"model\":\"sim\",", "", "c.json: \"model\": expected a string (missing)"},
        {"\"reply\":\"r\"", "\"reply\":null", "c.json: \"reply\": expected a string"},
        {"\"finish_reason\":\"stop\"", "\"finish_reason\":1", "\"finish_reason\": expected a string"},
        {"\"prompt_tokens\":1", "\"prompt_tokens\":1.5", "\"prompt_tokens\": expected an integer"},
        {"\"completion_tokens\"", "\"tokens\"", "\"tokens\": unknown key"},
        {"{", "[", "c.json: malformed JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(good, cases[i].from);
        if (!at) fail_msg("case %zu: \"%s\" is not in the entry", i, cases[i].from);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - good), good, cases[i].to, at + strlen(cases[i].from));
        GbEvalCacheEntry back;
        GbError err = {{0}};
        if (gb_eval_cache_entry_parse(bad, strlen(bad), "c.json", &back, &err)) {
            gb_eval_cache_entry_destroy(&back);
            fail_msg("case %zu was accepted", i);
        }
        if (!strstr(err.msg, cases[i].message))
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err.msg, cases[i].message);
        free(bad);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prompt_line_writes_chat_and_completions),
        cmocka_unit_test(test_prompt_line_round_trips),
        cmocka_unit_test(test_prompt_line_refuses_mistyped_input),
        cmocka_unit_test(test_cache_entry_writes_and_round_trips),
        cmocka_unit_test(test_cache_entry_refuses_mistyped_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
