// Checks the byte scans of CKilnScan.h against their one-byte-at-a-time definitions, on random
// and edge-case bytes at every alignment. Built by scripts/check-scan.sh once for each branch of
// the header: SSE2 (x86-64), NEON (64-bit ARM, run under qemu-user) and the portable loop.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CKilnScan.h"

// The most a block reads past the byte that stops it, and then some: every buffer has this many
// zero bytes after its content, as Kiln's reader pads a document.
enum { SLACK = 64, MAX_CONTENT = 600, ROUNDS = 200000 };

static uint64_t state = 0x9E3779B97F4A7C15ULL;

static uint64_t next_random(void) {
    // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

static size_t below(size_t n) { return (size_t)(next_random() % n); }

static long failures = 0;
static long checks = 0;

static void report(const char *what, const uint8_t *p, size_t n, size_t got, size_t expected) {
    failures++;
    if (failures > 10) return;
    fprintf(stderr, "%s: got %zu, expected %zu, for %zu bytes:", what, got, expected, n);
    for (size_t i = 0; i < n && i < 80; i++) fprintf(stderr, " %02X", p[i]);
    fprintf(stderr, "\n");
}

// One byte of text of the kind a JSON string holds, with the scans' stops and the bytes near
// their boundaries more often than chance gives them.
static uint8_t text_byte(void) {
    static const uint8_t edges[] = {'"', '\\', 0x00, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF,
                                    0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xFF, ' ', ':', ',', '{', '[', '}', ']'};
    size_t kind = below(10);
    if (kind < 5) return (uint8_t)(0x21 + below(0x5E));  // printable ASCII
    if (kind < 7) return edges[below(sizeof edges)];
    return (uint8_t)below(256);
}

// A run of text in one of several shapes: plain ASCII, spaces, three-byte sequences (CJK), or
// noise; `n` bytes at `p`.
static void fill(uint8_t *p, size_t n) {
    size_t shape = below(5);
    size_t i = 0;
    while (i < n) {
        switch (shape) {
        case 0: p[i++] = (uint8_t)(0x21 + below(0x5E)); if (p[i - 1] == '"' || p[i - 1] == '\\') p[i - 1] = 'a'; break;
        case 1: p[i++] = ' '; break;
        case 2:
            if (n - i >= 3) {
                static const uint8_t leads[] = {0xE1, 0xE3, 0xE5, 0xE9, 0xEC, 0xEE, 0xEF};
                p[i++] = leads[below(sizeof leads)];
                p[i++] = (uint8_t)(0x80 + below(0x40));
                p[i++] = (uint8_t)(0x80 + below(0x40));
            } else {
                p[i++] = 'x';
            }
            break;
        default: p[i++] = text_byte(); break;
        }
        // A stray byte now and then breaks the run somewhere in a block.
        if (below(shape == 3 ? 2 : 40) == 0) p[i - 1] = text_byte();
    }
}

static size_t ref_plain_text_length(const uint8_t *p) {
    size_t i = 0;
    while (!kiln_ends_plain_text(p[i])) i++;
    return i;
}

static size_t ref_plain_text_length_within(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n && !kiln_ends_plain_text(p[i])) i++;
    return i;
}

static size_t ref_space_run_length(const uint8_t *p) {
    size_t i = 0;
    while (p[i] == ' ') i++;
    return i;
}

static int fits_three_byte(const uint8_t *p) {
    uint8_t lead = p[0];
    int lead_ok = lead >= 0xE1 && lead <= 0xEF && lead != 0xED;
    return lead_ok && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80;
}

static size_t ref_three_byte_run_length(const uint8_t *p) {
    size_t i = 0;
    while (fits_three_byte(p + i)) i += 3;
    return i;
}

static size_t ref_separator_count(const uint8_t *p, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) count += p[i] == ',' || p[i] == ':' || p[i] == '{' || p[i] == '[';
    return count;
}

static void check_at(uint8_t *p, size_t n) {
    // The scans that need a stop ahead find one: the zero padding after the content.
    size_t got = kiln_plain_text_length(p), expected = ref_plain_text_length(p);
    checks++;
    if (got != expected) report("kiln_plain_text_length", p, n, got, expected);

    size_t limit = below(n + 1);
    got = kiln_plain_text_length_within(p, limit);
    expected = ref_plain_text_length_within(p, limit);
    checks++;
    if (got != expected) report("kiln_plain_text_length_within", p, limit, got, expected);

    got = kiln_space_run_length(p);
    expected = ref_space_run_length(p);
    checks++;
    if (got != expected) report("kiln_space_run_length", p, n, got, expected);

    // Every guess of the run's length, right or wrong.
    for (size_t guess = 0; guess <= KILN_SCAN_BLOCK; guess++) {
        got = (size_t)kiln_is_space_run(p, guess);
        expected = guess < KILN_SCAN_BLOCK && ref_space_run_length(p) == guess;
        checks++;
        if (got != expected) report("kiln_is_space_run", p, guess, got, expected);
    }

    got = kiln_three_byte_run_length(p);
    expected = ref_three_byte_run_length(p);
    checks++;
#if defined(__SSE2__) || (defined(__ARM_NEON) && defined(__aarch64__))
    if (got != expected) report("kiln_three_byte_run_length", p, n, got, expected);
#else
    // Without a vector unit no run is counted: the reader checks each sequence itself.
    if (got != 0) report("kiln_three_byte_run_length (portable)", p, n, got, 0);
#endif

    got = kiln_separator_count(p, n);
    expected = ref_separator_count(p, n);
    checks++;
    if (got != expected) report("kiln_separator_count", p, n, got, expected);
}

int main(void) {
    // Room for every alignment of the content within a 64-byte line, and the padding after it.
    static uint8_t buffer[64 + MAX_CONTENT + SLACK];
    for (long round = 0; round < ROUNDS; round++) {
        size_t offset = below(64);
        size_t n = round < 1000 ? (size_t)round % 200 : below(MAX_CONTENT);
        uint8_t *p = buffer + offset;
        memset(buffer, 0xAA, sizeof buffer);
        fill(p, n);
        memset(p + n, 0, SLACK);
        check_at(p, n);
        // The same bytes with a stop placed at a chosen distance: every place in and across blocks.
        if (n > 0) {
            size_t at = below(n);
            static const uint8_t stops[] = {'"', '\\', 0x1F, 0x80, 0xFF, 'a'};
            p[at] = stops[below(sizeof stops)];
            check_at(p, n);
        }
    }
    // Long runs of one kind, so that the loops go round many blocks.
    for (size_t n = 0; n <= 300; n++) {
        for (size_t offset = 0; offset < 16; offset++) {
            uint8_t *p = buffer + offset;
            memset(buffer, 0xAA, sizeof buffer);
            memset(p, ' ', n);
            memset(p + n, 0, SLACK);
            check_at(p, n);
            memset(p, 'a', n);
            check_at(p, n);
            for (size_t i = 0; i + 3 <= n; i += 3) memcpy(p + i, "\xE3\x81\x82", 3);
            check_at(p, n);
        }
    }
#if defined(__SSE2__)
    const char *branch = "SSE2";
#elif defined(__ARM_NEON) && defined(__aarch64__)
    const char *branch = "NEON";
#else
    const char *branch = "portable";
#endif
    printf("CKilnScan %s: %ld checks, %ld failing\n", branch, checks, failures);
    return failures == 0 ? 0 : 1;
}
