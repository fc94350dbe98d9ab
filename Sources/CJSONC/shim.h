// The one header CanopyServer sees of json-c 0.16. Macros do not import into Swift; the helpers below stand in.
#ifndef CANOPY_CJSONC_SHIM_H
#define CANOPY_CJSONC_SHIM_H

#include <json-c/json.h>

/// A tokener with a nesting limit, in strict mode with UTF-8 validation (no trailing characters allowed).
static inline struct json_tokener *canopy_json_tokener_new(int depth) {
    struct json_tokener *tok = json_tokener_new_ex(depth);
    if (tok != NULL) json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    return tok;
}

#endif
