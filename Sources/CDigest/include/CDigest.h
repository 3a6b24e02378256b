#ifndef CDIGEST_H
#define CDIGEST_H

#include <stddef.h>
#include <stdint.h>

/// Runs SHA-1's compression over `count` consecutive 64-byte blocks at `blocks`, updating the five state words,
/// with the processor's SHA instructions (x86-64's SHA extensions). Returns 1 when it did, 0 (state untouched) when
/// this processor or build has no such instructions: the caller then compresses the blocks itself (HealthCore's
/// `SHA1`, which is the definition these instructions are checked against).
int hkctl_sha1_blocks(uint32_t state[5], const uint8_t *blocks, size_t count);

#endif
