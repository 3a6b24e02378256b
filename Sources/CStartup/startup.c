// hkctl's process entry on Linux x86-64: how a command started with its binary out of the page cache (the first
// command after a boot, or after other work pushed the binary out) reads only the pages of the binary it runs.
//
// The kernel reads a program's pages by faults, and reads ahead around each fault: on a fault in code from the
// faulting page up to the block device's read-ahead size or the mapping's end (Linux 6.16 and later;
// madvise(MADV_RANDOM) does not stop it), on a fault in data the read-ahead size around it. On a virtual disk whose
// read-ahead is 8 MiB, a cold `hkctl --version` read 20 MB of the binary and took twice as long as sqlite3's cold
// start; `stats steps --week` 2.5 times as long (BENCHMARKS.md, session 36). Three things make it read about 1 MB:
//
// 1. The end of the data segment's file part falls on a page boundary (the sections at the end of this file), so the
//    kernel has no partial last page to clear while it loads the program: that clearing was a fault, before any of
//    the program ran, that read 8 MiB around the end of the data.
// 2. Before the C library or the Swift runtime runs, the entry below marks every segment MADV_RANDOM (a fault in the
//    data then reads its own page; in the code it stops the asynchronous read-ahead a page marked while the kernel
//    read the file's header would start: the entry's own page is the only page touched before). It reaches the
//    symbols it needs relative to the code, never through the global offset table, which lies in the data.
// 3. When the binary's hot code is not in the page cache (a mincore(2) of it), it cuts the code segment's mapping into
//    64 KiB mappings (every other one also MADV_DONTDUMP, so neighbours differ and stay apart), which bounds each
//    fault's read to the end of its 64 KiB, and asks for the pages the command will run (MADV_WILLNEED: read in
//    parallel, in the background): the pages profiled for commands with its first word (hot-pages.h, written by
//    bench/order-functions --pages; each run of pages named by a symbol and an offset from it, so that code that
//    grows before it moves it along). Then it jumps to the C library's _start as if the kernel had.
//
// None of this changes what the program does: the sections are empty and madvise hints only decide what the kernel
// reads when. With the binary in the page cache (the usual case) step 3 is skipped and the entry costs four system
// calls. On other Linux architectures the entry only jumps to _start; on other systems this file is empty.
#include "CStartup.h"
#if defined(__linux__) && !defined(__x86_64__)
// Other Linux architectures (untested): the entry the link names only jumps to the C library's _start, unchanged.
__attribute__((naked)) void hkctl_entry(void) {
#if defined(__aarch64__) || defined(__arm__) || defined(__powerpc64__)
    __asm__ volatile("b _start\n");
#elif defined(__riscv)
    __asm__ volatile("tail _start\n");
#elif defined(__s390x__)
    __asm__ volatile("jg _start\n");
#else
#error "hkctl_entry: add this architecture's jump to _start (Sources/CStartup/startup.c)"
#endif
}
#endif
#if defined(__linux__) && defined(__x86_64__)
#include <elf.h>
#include <stdint.h>

// Code that runs before the C library has set up the stack guard and thread-local storage, and before any
// sanitizer's run time: no stack protector, no instrumentation. It calls nothing of the C library either: in a
// static program memset and memcpy are resolved at start-up, after this runs (so no array initialisers, which a
// debug build compiles into memset calls).
#define HKCTL_EARLY __attribute__((no_stack_protector, no_sanitize("address", "thread", "undefined")))

enum { page_size = 4096, chunk_size = 65536, hot_pages_checked = 64 };
enum { sys_madvise = 28, sys_mincore = 27 };
enum { advice_random = 1, advice_willneed = 3, advice_dontdump = 16 };

// Hidden, so that the compiler reaches them relative to the code rather than through the global offset table,
// which lies in the data segment: a read there before read_pages_singly() would read 8 MiB around it.
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char etext[] __attribute__((visibility("hidden")));
extern const char edata[] __attribute__((visibility("hidden")));
// The program's main, the first function of the release link's hot-function order (Sources/hkctl/hot-functions.txt).
extern const char hkctl_program_main[] __asm__("main") __attribute__((visibility("hidden")));

// The entry point (the linker's -e): %rdx carries the dynamic loader's exit function to _start, so it is kept in
// %rbx across the calls. In the release link (gold) this object's code comes first, on the file's first pages, which
// the kernel has read with the header: the first system call runs before any other code page is touched.
__attribute__((naked)) void hkctl_entry(void) {
    __asm__ volatile(
        "mov %rdx, %rbx\n"
        "lea __ehdr_start(%rip), %rdi\n"
        "lea etext(%rip), %rsi\n"
        "sub %rdi, %rsi\n"
        "mov $1, %edx\n"  // MADV_RANDOM
        "mov $28, %eax\n" // madvise
        "syscall\n"
        "mov %rsp, %rdi\n"  // argc, then argv: hkctl_prepare_image(stack)
        "call hkctl_prepare_image\n"
        "mov %rbx, %rdx\n"
        "jmp _start\n");
}

HKCTL_EARLY static inline long hkctl_syscall3(long number, long a, long b, long c) {
    long result;
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return result;
}

HKCTL_EARLY static inline uintptr_t page_down(uintptr_t address) { return address & ~(uintptr_t)(page_size - 1); }
HKCTL_EARLY static inline uintptr_t page_up(uintptr_t address) { return page_down(address + page_size - 1); }

/// Whether most of the first pages of the hot code are in the page cache (or there is no hot code to look at).
HKCTL_EARLY static int hot_code_cached(void) {
    unsigned char resident[hot_pages_checked];
    uintptr_t start = page_down((uintptr_t)hkctl_program_main);
    uintptr_t end = start + hot_pages_checked * page_size;
    if (end > page_up((uintptr_t)etext)) end = page_up((uintptr_t)etext);
    if (end <= start || hkctl_syscall3(sys_mincore, (long)start, (long)(end - start), (long)resident) != 0) return 1;
    int count = (int)((end - start) / page_size), cached = 0;
#pragma clang loop vectorize(disable) interleave(disable)
    for (int index = 0; index < count; index++) cached += resident[index] & 1;
    return cached * 2 >= count;
}

/// Asks for the pages of [start, end) that lie in the binary (a stale or foreign entry of hot-pages.h can name
/// anything): madvise(MADV_WILLNEED) starts their reads and returns.
HKCTL_EARLY static void will_need(uintptr_t start, uintptr_t end) {
    uintptr_t low = page_down((uintptr_t)__ehdr_start), high = page_up((uintptr_t)edata);
    start = page_down(start);
    end = page_up(end);
    if (start < low) start = low;
    if (end > high) end = high;
    if (start < end) hkctl_syscall3(sys_madvise, (long)start, (long)(end - start), advice_willneed);
}

HKCTL_EARLY static void read_listed_pages(unsigned groups);

// Words are compared as numbers the code holds (up to 8 bytes each, little-endian), not as strings, which the
// compiler would keep in the data segment: each data page read before the pages are asked for is a read of its own.
#define HKCTL_WORD(a, b, c, d, e, f, g, h)                                                               \
    ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | (uint64_t)(e) << 32 | \
     (uint64_t)(f) << 40 | (uint64_t)(g) << 48 | (uint64_t)(h) << 56)

/// The first `count` 8-byte pieces of `text` and whether it ends within them (bytes after its end are zero).
HKCTL_EARLY static int read_word(const char *text, uint64_t *pieces, int count) {
    for (int index = 0; index < count * 8; index++) {
        if (!text[index]) return 1;
        pieces[index / 8] |= (uint64_t)(unsigned char)text[index] << (8 * (index % 8));
    }
    return !text[count * 8];
}

/// The group bits of the command `argv[1]` names, in the order of hot-pages.h's bits (bench/order-functions'
/// GROUPS: --version, add, stats, list, today); every group's for another command (`import`, `doctor`, ...).
HKCTL_EARLY static unsigned command_groups(const long *stack) {
    unsigned every = (1u << 5) - 1;
    if (stack[0] < 2 || !((const char *const *)(stack + 1))[1]) return every;
    uint64_t word[2];
    word[0] = word[1] = 0;  // not an initialiser list, which an unoptimised build makes a memset call: see below
    if (!read_word(((const char *const *)(stack + 1))[1], word, 2)) return every;
    if (word[0] == HKCTL_WORD('-', '-', 'v', 'e', 'r', 's', 'i', 'o') && word[1] == 'n') return 1u << 0;
    if (word[1] != 0) return every;
    if (word[0] == HKCTL_WORD('a', 'd', 'd', 0, 0, 0, 0, 0)) return 1u << 1;
    if (word[0] == HKCTL_WORD('s', 't', 'a', 't', 's', 0, 0, 0)) return 1u << 2;
    if (word[0] == HKCTL_WORD('l', 'i', 's', 't', 0, 0, 0, 0)) return 1u << 3;
    if (word[0] == HKCTL_WORD('t', 'o', 'd', 'a', 'y', 0, 0, 0)) return 1u << 4;
    return every;
}

/// Whether the environment holds HKCTL_PAGE_PROFILE=1: bench/order-functions finding the pages a command runs. The
/// code segment is then cut into single pages and nothing is asked for, so that the pages read are the pages run.
HKCTL_EARLY static int profiling_pages(const long *stack) {
    const char *const *entry = (const char *const *)(stack + 1) + stack[0] + 1;
    for (; *entry; entry++) {
        uint64_t word[3];
        word[0] = word[1] = word[2] = 0;
        if (read_word(*entry, word, 3) && word[0] == HKCTL_WORD('H', 'K', 'C', 'T', 'L', '_', 'P', 'A') &&
            word[1] == HKCTL_WORD('G', 'E', '_', 'P', 'R', 'O', 'F', 'I') &&
            word[2] == HKCTL_WORD('L', 'E', '=', '1', 0, 0, 0, 0))
            return 1;
    }
    return 0;
}

/// Marks every loaded segment's file pages MADV_RANDOM: a fault in the data segment then reads its own page, not
/// the 8 MiB around it (the code segment's faults read ahead regardless; see the top of this file).
HKCTL_EARLY static void read_pages_singly(void) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)__ehdr_start;
    const Elf64_Phdr *segments = (const Elf64_Phdr *)(__ehdr_start + header->e_phoff);
    for (int index = 0; index < header->e_phnum; index++) {
        const Elf64_Phdr *segment = &segments[index];
        if (segment->p_type != PT_LOAD || segment->p_filesz == 0) continue;
        uintptr_t start = page_down(segment->p_vaddr), end = page_up(segment->p_vaddr + segment->p_filesz);
        hkctl_syscall3(sys_madvise, (long)start, (long)(end - start), advice_random);
    }
}

/// Steps 2 and 3 above; `stack` is the process's initial stack: argc, argv, a null, the environment, a null.
HKCTL_EARLY void hkctl_prepare_image(const long *stack) {
    read_pages_singly();
    if (hot_code_cached()) return;
    int profiling = profiling_pages(stack);
    uintptr_t size = profiling ? page_size : chunk_size;
    uintptr_t start = page_down((uintptr_t)__ehdr_start), end = page_up((uintptr_t)etext);
    for (uintptr_t chunk = start + size; chunk < end; chunk += 2 * size) {
        uintptr_t length = end - chunk < size ? end - chunk : size;
        hkctl_syscall3(sys_madvise, (long)chunk, (long)length, advice_dontdump);
    }
    if (!profiling) read_listed_pages(command_groups(stack));
}

// The profiled code: each HKCTL_PAGES(number, symbol, offset, bytes, groups) line of hot-pages.h names the pages
// holding `bytes` bytes from `offset` bytes after `symbol`, which the commands of `groups` ran. A symbol the link
// does not hold (another toolchain) is skipped.
#define HKCTL_PAGES(number, symbol, offset, bytes, groups) \
    extern const char hkctl_anchor_##number[] __asm__(symbol) __attribute__((weak, visibility("hidden")));
#include "hot-pages.h"
#undef HKCTL_PAGES

HKCTL_EARLY static void read_listed_pages(unsigned wanted) {
#define HKCTL_PAGES(number, symbol, offset, bytes, groups) \
    if (((groups) & wanted) && hkctl_anchor_##number)      \
        will_need((uintptr_t)hkctl_anchor_##number + (offset), (uintptr_t)hkctl_anchor_##number + (offset) + (bytes));
#include "hot-pages.h"
#undef HKCTL_PAGES
}
#endif

// The data segment's last sections with content are the C library's __libc_subfreeres, __libc_IO_vtables and
// __libc_atexit (gold places sections it has no rule for in the order it first meets them, and the C library comes
// last in the link), 0x8b0 bytes after the Swift runtime's page-aligned, 64 KiB swift5_backtrace: so the file part
// ended 0x8b0 bytes into a page. Empty sections of the same names in this object, which the link meets first, put
// those three before the Swift sections, and the segment's file part ends where swift5_backtrace ends, on a page
// boundary (step 1 above; `readelf -l`: the RW segment's offset plus its file size is a multiple of 4096). Empty
// and retained (R), they add nothing to the C library's lists, which it reads between its own start and stop symbols.
#if defined(__linux__) && defined(__x86_64__)
__asm__(".section __libc_subfreeres,\"awR\",@progbits\n"
        ".section __libc_IO_vtables,\"awR\",@progbits\n"
        ".section __libc_atexit,\"awR\",@progbits\n.previous\n");
#endif
