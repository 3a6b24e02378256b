// SHA-1's block compression with x86-64's SHA extensions (Intel SHA-NI, also on AMD since Zen): about four times
// faster than the portable code in HealthCore's SHA1.swift, which the export.xml import runs for every record's
// identity (BENCHMARKS.md, session 45). Other processors and architectures answer 0 and the Swift code runs.
#include "CDigest.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

// -1 not looked yet, 0 no, 1 yes. Looking twice from two threads gives the same answer, so relaxed atomics suffice.
static int sha_extensions = -1;

static int look_for_sha_extensions(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!ssse3 || !sse41) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx >> 29) & 1;
}

// One group of four rounds, `j` from 0 to 19, with the message schedule for later groups interleaved as the
// instructions are meant to be used: m[j % 4] holds the group's four message words; group j computes part of the
// words of groups j + 1 to j + 3 in the registers those groups' words replace.
#define SHA1_GROUP(j)                                                                          \
    do {                                                                                       \
        if ((j) == 0) {                                                                        \
            e0 = _mm_add_epi32(e0, m[0]);                                                      \
        } else if ((j) % 2 == 0) {                                                             \
            e0 = _mm_sha1nexte_epu32(e0, m[(j) % 4]);                                          \
        } else {                                                                               \
            e1 = _mm_sha1nexte_epu32(e1, m[(j) % 4]);                                          \
        }                                                                                      \
        if ((j) % 2 == 0) {                                                                    \
            e1 = abcd;                                                                         \
            abcd = _mm_sha1rnds4_epu32(abcd, e0, (j) / 5);                                     \
        } else {                                                                               \
            e0 = abcd;                                                                         \
            abcd = _mm_sha1rnds4_epu32(abcd, e1, (j) / 5);                                     \
        }                                                                                      \
        if ((j) >= 3 && (j) <= 18) m[((j) + 1) % 4] = _mm_sha1msg2_epu32(m[((j) + 1) % 4], m[(j) % 4]); \
        if ((j) >= 1 && (j) <= 16) m[((j) + 3) % 4] = _mm_sha1msg1_epu32(m[((j) + 3) % 4], m[(j) % 4]); \
        if ((j) >= 2 && (j) <= 17) m[((j) + 2) % 4] = _mm_xor_si128(m[((j) + 2) % 4], m[(j) % 4]);      \
    } while (0)

__attribute__((target("sha,sse4.1,ssse3")))
static void compress_with_sha_extensions(uint32_t state[5], const uint8_t *data, size_t count) {
    const __m128i byte_order = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1B);
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);
    for (size_t block = 0; block < count; block++, data += 64) {
        const __m128i abcd_before = abcd, e_before = e0;
        __m128i e1, m[4];
        for (int word = 0; word < 4; word++) {
            m[word] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * word)), byte_order);
        }
        SHA1_GROUP(0);  SHA1_GROUP(1);  SHA1_GROUP(2);  SHA1_GROUP(3);  SHA1_GROUP(4);
        SHA1_GROUP(5);  SHA1_GROUP(6);  SHA1_GROUP(7);  SHA1_GROUP(8);  SHA1_GROUP(9);
        SHA1_GROUP(10); SHA1_GROUP(11); SHA1_GROUP(12); SHA1_GROUP(13); SHA1_GROUP(14);
        SHA1_GROUP(15); SHA1_GROUP(16); SHA1_GROUP(17); SHA1_GROUP(18); SHA1_GROUP(19);
        e0 = _mm_sha1nexte_epu32(e0, e_before);
        abcd = _mm_add_epi32(abcd, abcd_before);
    }
    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1B));
    state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

int hkctl_sha1_blocks(uint32_t state[5], const uint8_t *blocks, size_t count) {
    int available = __atomic_load_n(&sha_extensions, __ATOMIC_RELAXED);
    if (available < 0) {
        available = look_for_sha_extensions();
        __atomic_store_n(&sha_extensions, available, __ATOMIC_RELAXED);
    }
    if (!available) return 0;
    compress_with_sha_extensions(state, blocks, count);
    return 1;
}

#else

int hkctl_sha1_blocks(uint32_t state[5], const uint8_t *blocks, size_t count) {
    (void)state;
    (void)blocks;
    (void)count;
    return 0;
}

#endif
