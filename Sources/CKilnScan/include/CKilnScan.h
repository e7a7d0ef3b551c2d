// Byte scans of Kiln's JSON reader, sixteen bytes at a time with the vector unit every target
// CPU has: SSE2 on x86-64, NEON on 64-bit ARM. No target attributes or unsafe flags are needed,
// and any other CPU gets a portable eight-byte loop. The functions are `static inline` so that
// Swift inlines them into the reader's loops.
#ifndef KILN_SCAN_H
#define KILN_SCAN_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#endif

/// Whether `b` ends a run of plain string text: a quote, a backslash, a control character (below
/// 0x20), or a byte of a multi-byte UTF-8 sequence (0x80 and above).
static inline int kiln_ends_plain_text(uint8_t b) {
    return b == '"' || b == '\\' || b < 0x20 || b >= 0x80;
}

// One block of the scan: `kiln_plain_stops` marks the bytes of the block at `p` that end plain
// text (`kiln_ends_plain_text`), nonzero when one does, and `kiln_non_spaces` the bytes that are
// not spaces; `kiln_first_stop` gives the first marked byte's place in the block.
#if defined(__SSE2__)
enum { KILN_SCAN_BLOCK = 16 };
static inline uint64_t kiln_plain_stops(const uint8_t *p) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    // A signed comparison: bytes from 0x80 are negative, so below 0x20 with the controls.
    __m128i special = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)), _mm_cmplt_epi8(x, space));
    return (uint64_t)(unsigned)_mm_movemask_epi8(special);
}
static inline uint64_t kiln_non_spaces(const uint8_t *p) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    return (uint64_t)((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' '))) ^ 0xFFFFu);
}
static inline size_t kiln_first_stop(uint64_t stops) { return (size_t)__builtin_ctzll(stops); }
#elif defined(__ARM_NEON) && defined(__aarch64__)
enum { KILN_SCAN_BLOCK = 16 };
static inline uint64_t kiln_plain_stops(const uint8_t *p) {
    const uint8x16_t quote = vdupq_n_u8('"');
    const uint8x16_t backslash = vdupq_n_u8('\\');
    const uint8x16_t space = vdupq_n_u8(0x20);
    const uint8x16_t high = vdupq_n_u8(0x80);
    uint8x16_t x = vld1q_u8(p);
    uint8x16_t special = vorrq_u8(
        vorrq_u8(vceqq_u8(x, quote), vceqq_u8(x, backslash)), vorrq_u8(vcltq_u8(x, space), vcgeq_u8(x, high)));
    // Four bits per byte: the narrowing shift keeps the middle of each 16-bit lane.
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(special), 4)), 0);
}
static inline uint64_t kiln_non_spaces(const uint8_t *p) {
    uint8x16_t other = vmvnq_u8(vceqq_u8(vld1q_u8(p), vdupq_n_u8(' ')));
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(other), 4)), 0);
}
static inline size_t kiln_first_stop(uint64_t stops) { return (size_t)(__builtin_ctzll(stops) >> 2); }
#else
enum { KILN_SCAN_BLOCK = 8 };
static inline uint64_t kiln_plain_stops(const uint8_t *p) {
    const uint64_t ones = 0x0101010101010101ULL;
    const uint64_t highs = 0x8080808080808080ULL;
    uint64_t x;
    __builtin_memcpy(&x, p, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    uint64_t quote = x ^ (ones * 0x22);
    uint64_t backslash = x ^ (ones * 0x5C);
    return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((x - ones * 0x20) & ~x) | x) & highs;
}
static inline uint64_t kiln_non_spaces(const uint8_t *p) {
    uint64_t x;
    __builtin_memcpy(&x, p, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    // Nonzero in every byte that is not a space: the lowest set bit is in the first one.
    return x ^ 0x2020202020202020ULL;
}
static inline size_t kiln_first_stop(uint64_t stops) { return (size_t)(__builtin_ctzll(stops) >> 3); }
#endif

/// The number of bytes from `p` before the first one that `marks` marks in its block (a block's
/// scan: `kiln_plain_stops` or `kiln_non_spaces`), reading a block at a time. The first block
/// is scanned apart: most runs end in it, and then no loop is set up. Such a byte must exist
/// within the readable memory, and the memory must stay readable for up to fifteen bytes after
/// it. `marks` is a constant wherever this is called, and inlined.
static inline size_t kiln_length_before_mark(const uint8_t *p, uint64_t (*marks)(const uint8_t *)) {
    uint64_t first = marks(p);
    if (first != 0) return kiln_first_stop(first);
    size_t i = KILN_SCAN_BLOCK;
    for (;;) {
        uint64_t marked = marks(p + i);
        if (marked != 0) return i + kiln_first_stop(marked);
        i += KILN_SCAN_BLOCK;
    }
}

/// The number of bytes from `p` before the first one that ends a run of plain string text
/// (`kiln_ends_plain_text`).
///
/// Reads sixteen bytes at a time, so such a byte must exist within the readable memory, and
/// the memory must stay readable for up to fifteen bytes after it (Kiln's reader pads the
/// document with sixteen zero bytes, and a zero byte is a control character).
static inline size_t kiln_plain_text_length(const uint8_t *p) {
    return kiln_length_before_mark(p, kiln_plain_stops);
}

/// The number of spaces (0x20) from `p`: the indentation of a pretty-printed line. Under the
/// same terms as `kiln_plain_text_length`.
static inline size_t kiln_space_run_length(const uint8_t *p) {
    return kiln_length_before_mark(p, kiln_non_spaces);
}

/// Whether the bytes at `p` are `n` spaces and then a byte that is not a space, for `n` below
/// `KILN_SCAN_BLOCK`; 0 for a larger `n`. `kiln_space_run_length(p) == n`, tested on the bits of
/// one block without counting them: a reader that guesses a line's indentation can read on at
/// the guess while this confirms it (a count would hold the next read up until it is known).
/// Reads one block, under the terms of `kiln_space_run_length`.
static inline int kiln_is_space_run(const uint8_t *p, size_t n) {
    if (n >= KILN_SCAN_BLOCK) return 0;
    uint64_t others = kiln_non_spaces(p);
#if defined(__SSE2__)
    return (others & ((2ULL << n) - 1)) == (1ULL << n);
#elif defined(__ARM_NEON) && defined(__aarch64__)
    return (others & ((16ULL << (4 * n)) - 1)) == (15ULL << (4 * n));
#else
    // A byte that is not a space is nonzero here, and the bytes are in order from the low one.
    return (others & ((1ULL << (8 * n)) - 1)) == 0 && ((others >> (8 * n)) & 0xFF) != 0;
#endif
}

/// `kiln_plain_text_length` within the `n` bytes at `p`: the same count, at most `n`, reading no
/// byte at or after `p + n` (a block at a time while a block remains, then one at a time). For
/// text whose end is not followed by readable padding.
static inline size_t kiln_plain_text_length_within(const uint8_t *p, size_t n) {
    size_t i = 0;
    for (; i + KILN_SCAN_BLOCK <= n; i += KILN_SCAN_BLOCK) {
        uint64_t stops = kiln_plain_stops(p + i);
        if (stops != 0) return i + kiln_first_stop(stops);
    }
    for (; i < n; i++) {
        if (kiln_ends_plain_text(p[i])) return i;
    }
    return n;
}

// One block of the run of three-byte UTF-8 sequences: `kiln_three_byte_breaks` marks the bytes
// of the first fifteen at `p` that do not fit five sequences led by E1–EC or EE–EF (most CJK text
// and full-width forms): a lead where a lead belongs (bytes 0, 3, 6, 9, 12), a continuation byte
// (80–BF) elsewhere. A lead of E0 or ED, whose second byte has a narrower range, is marked: the
// caller's full check reads it. Zero when all fifteen fit; the sixteenth byte is never marked.
#if defined(__SSE2__)
static inline uint64_t kiln_three_byte_breaks(const uint8_t *p) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i lead = _mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xF0)), _mm_set1_epi8((char)0xE0));
    __m128i narrow = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xE0)), _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xED)));
    lead = _mm_andnot_si128(narrow, lead);
    __m128i continuation = _mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xC0)), _mm_set1_epi8((char)0x80));
    const __m128i leads = _mm_setr_epi8(-1, 0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, 0);
    const __m128i continuations = _mm_setr_epi8(0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0);
    const __m128i last = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1);
    __m128i fits = _mm_or_si128(_mm_or_si128(_mm_and_si128(lead, leads), _mm_and_si128(continuation, continuations)), last);
    return (uint64_t)((unsigned)_mm_movemask_epi8(fits) ^ 0xFFFFu);
}
#elif defined(__ARM_NEON) && defined(__aarch64__)
static inline uint64_t kiln_three_byte_breaks(const uint8_t *p) {
    static const uint8_t leadBytes[16] = {0xFF, 0, 0, 0xFF, 0, 0, 0xFF, 0, 0, 0xFF, 0, 0, 0xFF, 0, 0, 0};
    static const uint8_t continuationBytes[16] = {0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0};
    static const uint8_t lastByte[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF};
    uint8x16_t x = vld1q_u8(p);
    uint8x16_t lead = vceqq_u8(vandq_u8(x, vdupq_n_u8(0xF0)), vdupq_n_u8(0xE0));
    uint8x16_t narrow = vorrq_u8(vceqq_u8(x, vdupq_n_u8(0xE0)), vceqq_u8(x, vdupq_n_u8(0xED)));
    lead = vbicq_u8(lead, narrow);
    uint8x16_t continuation = vceqq_u8(vandq_u8(x, vdupq_n_u8(0xC0)), vdupq_n_u8(0x80));
    uint8x16_t fits = vorrq_u8(
        vorrq_u8(vandq_u8(lead, vld1q_u8(leadBytes)), vandq_u8(continuation, vld1q_u8(continuationBytes))), vld1q_u8(lastByte));
    // Four bits per byte, as `kiln_plain_stops` gives them.
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(vmvnq_u8(fits)), 4)), 0);
}
#else
// No vector unit: no run is counted (the first byte is marked), and the caller checks each
// sequence itself.
static inline uint64_t kiln_three_byte_breaks(const uint8_t *p) {
    (void)p;
    return 1;
}
#endif

/// The number of bytes from `p` that are three-byte UTF-8 sequences led by E1–EC or EE–EF (see
/// `kiln_three_byte_breaks`), a multiple of three, counted fifteen bytes at a time. Any byte
/// below 0x80 ends the run, so under the terms of `kiln_plain_text_length` (a quote, a control
/// character or the zero padding ahead, readable memory for fifteen bytes after it) the reads
/// stay inside the document.
static inline size_t kiln_three_byte_run_length(const uint8_t *p) {
    size_t i = 0;
    for (;;) {
        uint64_t breaks = kiln_three_byte_breaks(p + i);
        if (breaks != 0) return i + kiln_first_stop(breaks) / 3 * 3;
        i += 15;
    }
}

/// How many bytes of the `n` at `p` are `,` `:` `{` or `[`: the separators before a JSON value or
/// key. The reader counts them in samples of a large document to size its tape.
static inline size_t kiln_separator_count(const uint8_t *p, size_t n) {
    size_t count = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i colon = _mm_set1_epi8(':');
    const __m128i brace = _mm_set1_epi8('{');
    // `[` is `{` without the 0x20 bit.
    const __m128i bit = _mm_set1_epi8(0x20);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, comma), _mm_cmpeq_epi8(x, colon)), _mm_cmpeq_epi8(_mm_or_si128(x, bit), brace));
        count += (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(hit));
    }
#elif defined(__ARM_NEON) && defined(__aarch64__)
    const uint8x16_t comma = vdupq_n_u8(',');
    const uint8x16_t colon = vdupq_n_u8(':');
    const uint8x16_t brace = vdupq_n_u8('{');
    const uint8x16_t bit = vdupq_n_u8(0x20);
    const uint8x16_t one = vdupq_n_u8(1);
    for (; i + 16 <= n; i += 16) {
        uint8x16_t x = vld1q_u8(p + i);
        uint8x16_t hit = vorrq_u8(vorrq_u8(vceqq_u8(x, comma), vceqq_u8(x, colon)), vceqq_u8(vorrq_u8(x, bit), brace));
        count += (size_t)vaddvq_u8(vandq_u8(hit, one));
    }
#endif
    for (; i < n; i++) {
        uint8_t b = p[i];
        count += (size_t)((b == ',') | (b == ':') | ((b | 0x20) == '{'));
    }
    return count;
}

#endif
