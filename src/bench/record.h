#pragma once
/* The output record of `genebench evolve` as JSON: the only module that knows the shape of a
 * task's "original" and "genebench" fields (format in nsga2/record.h). Everything that writes or
 * reads those fields (evolve, merge, the summary, the report, inject-bugs, the test tools) goes
 * through here. jansson stays inside src/bench/record.c. Stateless and thread-safe. */
#include <stdbool.h>

#include "nsga2/record.h"
#include "src/model/program.h"
#include "src/model/task.h"
#include "src/base/util.h"

/* The "genebench" field of r as compact JSON text (owned). Absent parts (sentinels, has_ flags
 * false) are left out; numbers follow gb_json_number's rules. */
char *gb_record_genebench_json(const GbRecord *r);
/* The "original" field {"source", "extra_files"} of r as compact JSON text (owned); NULL when
 * r->original_source is NULL. */
char *gb_record_original_json(const GbRecord *r);
/* Set t's "original" (when r has one) and "genebench" fields from r, replacing earlier ones. */
void gb_record_attach(GbTask *t, const GbRecord *r);

/* Parse the two fields' JSON texts (original_json may be NULL) into out (caller storage,
 * initialised here; destroy it in every case). Absent fields keep their sentinels; a field of the
 * wrong type, a malformed entry or JSON text that does not parse is an error: returns false with
 * err naming the field ("field \"genebench.edits[2].start\" must be a non-negative integer"). */
bool gb_record_parse(const char *genebench_json, const char *original_json, GbRecord *out, GbError *err);
/* Read t's record (its "genebench" and "original" fields) into out, as gb_record_parse. A task
 * without a "genebench" field is an error ("no \"genebench\" field: not an output of genebench
 * evolve"). The caller adds file, line and task id to the message. */
bool gb_record_read(const GbTask *t, GbRecord *out, GbError *err);
/* True when t has a "genebench" field (without parsing it). */
bool gb_record_present(const GbTask *t);

/* For inject-bugs: as gb_record_read, and the record must also hold the program it started from
 * ("original") and, unless its status says nothing was applied, the pick's edit history
 * ("genebench.edits"); otherwise false with err set. */
bool gb_record_read_hardening(const GbTask *t, GbRecord *out, GbError *err);
/* The record's original program (main module + extra files, empty history) into out (caller
 * storage, initialised here). */
void gb_record_original_program(const GbRecord *r, GbProgram *out);
