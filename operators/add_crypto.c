/* A2 AddCrypto: insert a call of cryptography: Fernet keys and tokens, SHA-256/BLAKE2b digests
 *
 *     total = sum(xs)           ->    cipher = Fernet(Fernet.generate_key())
 *                                     cipher.encrypt(b"token")
 *                                     total = sum(xs)
 *
 * Keys come from os.urandom (no seeded generator is consumed); nothing is printed, stored
 * or sent. Shapes: generate_key, Fernet(key), Fernet(...).encrypt, hashes.Hash(SHA256 or
 * BLAKE2b) with update/finalize.
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_crypto_templates[] = {
    {"{0}.generate_key()", {{"cryptography.fernet", "Fernet", {"Fernet", "FernetCipher"}}}, {NULL}},
    {"{v} = {0}.generate_key()\n{0}({v})",
     {{"cryptography.fernet", "Fernet", {"Fernet", "FernetCipher"}}},
     {"secret_key"}},
    {"{v} = {0}({0}.generate_key())\n{v}.encrypt(b\"{a}\")",
     {{"cryptography.fernet", "Fernet", {"Fernet", "FernetCipher"}}},
     {"cipher"}},
    {"{v} = {0}.Hash({0}.SHA256())\n{v}.update(b\"{a}:{d}\")\n{v}.finalize()",
     {{"cryptography.hazmat.primitives", "hashes", {"hashes", "crypto_hashes"}}},
     {"hasher"}},
    {"{0}.Hash({0}.SHA256()).finalize()",
     {{"cryptography.hazmat.primitives", "hashes", {"hashes", "crypto_hashes"}}},
     {NULL}},
    {"{v} = {0}.Hash({0}.BLAKE2b(64))\n{v}.update(b\"{d}\")\n{v}.finalize()",
     {{"cryptography.hazmat.primitives", "hashes", {"hashes", "crypto_hashes"}}},
     {"digest_builder"}},
};

const GbApiTable gb_add_crypto_table = {gb_add_crypto_templates,
                                        sizeof gb_add_crypto_templates / sizeof *gb_add_crypto_templates};

void gb_op_add_crypto_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_crypto_templates, sizeof gb_add_crypto_templates / sizeof *gb_add_crypto_templates);
}

bool gb_op_add_crypto_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_crypto_templates,
                        sizeof gb_add_crypto_templates / sizeof *gb_add_crypto_templates, "AddCrypto", err);
}
