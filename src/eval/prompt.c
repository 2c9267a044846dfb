/* Prompt templates and CRUXEval's prompt format (prompt.h). */
#include "src/eval/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/sha256.h"

static const char *const gb_eval__ph_names[GB_EVAL_PH_COUNT] = {
#define GB_EVAL_PH(ID, name, tasks, help) #name,
    GB_EVAL_PLACEHOLDER_LIST
#undef GB_EVAL_PH
};

static const unsigned gb_eval__ph_tasks[GB_EVAL_PH_COUNT] = {
#define GB_EVAL_PH(ID, name, tasks, help) tasks,
    GB_EVAL_PLACEHOLDER_LIST
#undef GB_EVAL_PH
};

/* A template as pieces: literal text, or a placeholder. */
typedef struct {
    char *text; /* owned; NULL: a placeholder */
    GbEvalPlaceholder ph;
} GbEvalTemplatePiece;

struct GbEvalTemplate {
    GbArray(GbEvalTemplatePiece) pieces;
    char sha256[65];
};

/* The placeholder {{ NAME }} starting at p (p points at "{{"): its name's bounds and the end of
 * the closing braces; false when p does not start one (the text is then literal). */
static bool gb_eval__ph_at(const char *p, const char **name, size_t *len, const char **end)
{
    const char *q = p + 2;
    while (*q == ' ' || *q == '\t') q++;
    const char *n = q;
    while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') q++;
    if (q == n) return false;
    size_t nl = (size_t)(q - n);
    while (*q == ' ' || *q == '\t') q++;
    if (q[0] != '}' || q[1] != '}') return false;
    *name = n;
    *len = nl;
    *end = q + 2;
    return true;
}

static unsigned gb_eval__line_of(const char *text, const char *p)
{
    unsigned line = 1;
    for (const char *q = text; q < p; q++) line += *q == '\n';
    return line;
}

/* The placeholders task has, for an error message (owned). */
static char *gb_eval__ph_known(GbEvalTask task)
{
    GbStr s;
    gb_str_init(&s);
    for (int i = 0; i < GB_EVAL_PH_COUNT; i++)
        if (gb_eval__ph_tasks[i] & (1u << task))
            gb_str_appendf(&s, "%s{{%s}}", s.len ? ", " : "", gb_eval__ph_names[i]);
    return gb_str_take(&s);
}

static void gb_eval__template_push_text(GbEvalTemplate *t, const char *p, size_t n)
{
    if (!n) return;
    GbEvalTemplatePiece piece = {.text = gb_strndup(p, n)};
    gb_array_push(&t->pieces, piece);
}

/* Split text into pieces, checking every placeholder against task; false with err. */
static bool gb_eval__template_parse(GbEvalTemplate *t, const char *path, const char *text, GbEvalTask task,
                                    GbError *err)
{
    const char *lit = text, *p = text;
    while ((p = strstr(p, "{{"))) {
        const char *name, *end;
        size_t len;
        if (!gb_eval__ph_at(p, &name, &len, &end)) {
            p++;
            continue;
        }
        int found = -1;
        for (int i = 0; i < GB_EVAL_PH_COUNT && found < 0; i++)
            if (strlen(gb_eval__ph_names[i]) == len && strncmp(gb_eval__ph_names[i], name, len) == 0) found = i;
        if (found < 0 || !(gb_eval__ph_tasks[found] & (1u << task))) {
            char *known = gb_eval__ph_known(task);
            const char *why = found < 0 ? "unknown placeholder"
                              : (task == GB_EVAL_TASK_OUTPUT && found == GB_EVAL_PH_OUTPUT) ||
                                      (task == GB_EVAL_TASK_INPUT && found == GB_EVAL_PH_INPUT)
                                  ? "placeholder that is the answer itself, not available in"
                                  : "placeholder not available in";
            bool in = found >= 0;
            gb_error_set(err, "%s:%u: %s {{%.*s}}%s%s%s (the %s prompt has %s)", path, gb_eval__line_of(text, p), why,
                         (int)len, name, in ? " " : "", in ? gb_eval_task_names[task] : "", in ? " prediction" : "",
                         gb_eval_task_names[task], known);
            free(known);
            return false;
        }
        gb_eval__template_push_text(t, lit, (size_t)(p - lit));
        GbEvalTemplatePiece piece = {.text = NULL, .ph = (GbEvalPlaceholder)found};
        gb_array_push(&t->pieces, piece);
        p = lit = end;
    }
    gb_eval__template_push_text(t, lit, strlen(lit));
    return true;
}

GbEvalTemplate *gb_eval_template_load(const char *path, GbEvalTask task, GbError *err)
{
    size_t len;
    GbError rerr = {0};
    char *text = gb_read_file(path, &len, &rerr);
    if (!text) {
        gb_error_set(err, "%s: the prompt template cannot be read: %s", path, rerr.msg);
        return NULL;
    }
    if (strlen(text) != len || len == 0) {
        gb_error_set(err, "%s: the prompt template is %s", path, len == 0 ? "empty" : "not text (a NUL byte)");
        free(text);
        return NULL;
    }
    GbEvalTemplate *t = gb_calloc(1, sizeof *t);
    gb_sha256_hex(text, len, t->sha256);
    bool ok = gb_eval__template_parse(t, path, text, task, err);
    free(text);
    if (!ok) {
        gb_eval_template_delete(t);
        return NULL;
    }
    return t;
}

void gb_eval_template_delete(GbEvalTemplate *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->pieces.len; i++) free(t->pieces.items[i].text);
    gb_array_free(&t->pieces);
    free(t);
}

const char *gb_eval_template_sha256(const GbEvalTemplate *t)
{
    return t->sha256;
}

char *gb_eval_template_expand(const GbEvalTemplate *t, const GbEvalPromptFill *fill)
{
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < t->pieces.len; i++) {
        const GbEvalTemplatePiece *p = &t->pieces.items[i];
        const char *v = p->text ? p->text : fill->v[p->ph];
        if (v) gb_str_append(&s, v);
    }
    return gb_str_take(&s);
}

/* ---- CRUXEval ------------------------------------------------------------------------------ */

char *gb_eval_cruxeval_prompt(GbAnswerPart part, const char *program, const char *entry, const char *args,
                              const char *expected)
{
    size_t n = strlen(program);
    while (n && (program[n - 1] == '\n' || program[n - 1] == '\r')) n--;
    if (part == GB_ANSWER_VALUE)
        return gb_asprintf(
            "You are given a Python function and an assertion containing an input to the function. Complete the "
            "assertion with a literal (no unsimplified expressions, no function calls) containing the output when "
            "executing the provided code on the given input, even if the function is incorrect or incomplete. Do NOT "
            "output any extra information. Provide the full assertion with the correct output in [ANSWER] and "
            "[/ANSWER] tags, following the examples.\n\n"
            "[PYTHON]\ndef f(n):\n    return n\nassert f(17) == ?\?\n[/PYTHON]\n"
            "[ANSWER]\nassert f(17) == 17\n[/ANSWER]\n\n"
            "[PYTHON]\ndef f(s):\n    return s + \"a\"\nassert f(\"x9j\") == ?\?\n[/PYTHON]\n"
            "[ANSWER]\nassert f(\"x9j\") == \"x9ja\"\n[/ANSWER]\n\n"
            "[PYTHON]\n%.*s\nassert %s(%s) == ?\?\n[/PYTHON]\n[ANSWER]\n",
            (int)n, program, entry, args);
    return gb_asprintf(
        "You will be given a function f and an output in the form f(?\?) == output. Find any input such that "
        "executing f on the input leads to the given output. There may be multiple answers, but you should only "
        "output one. In [ANSWER] and [/ANSWER] tags, complete the assertion with one such input that will produce "
        "the output when executing the function.\n\n"
        "[PYTHON]\ndef f(my_list):\n    count = 0\n    for i in my_list:\n        if len(i) %% 2 == 0:\n"
        "            count += 1\n    return count\nassert f(?\?) == 3\n[/PYTHON]\n"
        "[ANSWER]\nassert f([\"mq\", \"px\", \"zy\"]) == 3\n[/ANSWER]\n\n"
        "[PYTHON]\ndef f(s1, s2):\n    return s1 + s2\nassert f(?\?) == \"banana\"\n[/PYTHON]\n"
        "[ANSWER]\nassert f(\"ba\", \"nana\") == \"banana\"\n[/ANSWER]\n\n"
        "[PYTHON]\n%.*s\nassert %s(?\?) == %s\n[/PYTHON]\n[ANSWER]\n",
        (int)n, program, entry, expected);
}

const char *gb_eval_prompt_version(GbEvalPromptStyle style, bool template_given)
{
    if (template_given) return "template";
    return style == GB_EVAL_STYLE_CRUXEVAL ? GB_EVAL_PROMPT_VERSION_CRUXEVAL : GB_EVAL_PROMPT_VERSION;
}
