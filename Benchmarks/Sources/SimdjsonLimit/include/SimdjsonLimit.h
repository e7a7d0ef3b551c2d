// simdjson On-Demand decoding the benchmark payloads into C++ structs with the members of
// BenchSupport's @DataModel types: the limit `kiln-bench decode` prints beside Foundation's row.
//
// Linux only: built against Debian's libsimdjson-dev. Elsewhere every function reports that the
// limit is unavailable and kiln-bench skips the row with a line saying so.
#ifndef KILN_SIMDJSON_LIMIT_H
#define KILN_SIMDJSON_LIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which payload, and so which structs, a decode builds.
typedef enum {
    KilnLimitPayloadArticles = 0,
    KilnLimitPayloadTwitter = 1,
    KilnLimitPayloadCatalog = 2,
    KilnLimitPayloadCanada = 3,
} KilnLimitPayload;

/// What the last decode built, summed so that two decoders of the same members can be compared:
/// BenchSupport's `ModelDigest` computes the same sums from Kiln's models.
typedef struct {
    /// Array elements and dictionary entries.
    uint64_t elements;
    /// Wrapping sum of every integer member and element.
    uint64_t integers;
    /// Members that are `true`.
    uint64_t trues;
    /// Strings (members, elements and dictionary keys).
    uint64_t strings;
    /// Their UTF-8 bytes.
    uint64_t stringBytes;
    /// Wrapping sum of each string's FNV-1a 64 hash.
    uint64_t stringHashes;
    /// Optional members that are absent.
    uint64_t nils;
    /// Wrapping sum of every double's bit pattern.
    uint64_t doubleBits;
} KilnLimitDigest;

/// A parser and one padded copy of a document, reused by every decode.
typedef struct KilnLimitDecoder KilnLimitDecoder;

/// Whether this build has simdjson (false where the shim was built without it).
bool kiln_limit_available(void);

/// The simdjson kernel On-Demand runs with (e.g. "icelake", "haswell"), or "unavailable".
const char *kiln_limit_implementation(void);

/// The kernel that finds the document's structure (simdjson's stage 1), chosen when the program
/// runs: the best the processor has, or the one named by `SIMDJSON_FORCE_IMPLEMENTATION`
/// (`westmere` for 128-bit vectors, `haswell` for 256, `icelake` for 512); "unavailable" where
/// simdjson is not built in.
const char *kiln_limit_structure_implementation(void);

/// simdjson's description of an error code `kiln_limit_decode` returned.
const char *kiln_limit_error_message(int code);

/// A decoder over a copy of `bytes` (padded as simdjson requires), or NULL when unavailable.
KilnLimitDecoder *kiln_limit_create(const uint8_t *bytes, size_t length);

/// Decodes the document into the payload's structs, replacing the previous result.
/// Returns 0, or simdjson's error code.
int kiln_limit_decode(KilnLimitDecoder *decoder, KilnLimitPayload payload);

/// The digest of the last successful decode of `payload`.
KilnLimitDigest kiln_limit_digest(const KilnLimitDecoder *decoder, KilnLimitPayload payload);

/// Frees the decoder and what it decoded.
void kiln_limit_destroy(KilnLimitDecoder *decoder);

#ifdef __cplusplus
}
#endif

#endif
