// hkctl's process entry on Linux x86-64: how a command started with its binary out of the page cache (the first
// command after a boot, or after other work pushed the binary out) reads only the pages of the binary it runs.
//
// The kernel reads a program's pages by faults, and reads ahead around each fault: on a fault in code from the
// faulting page up to the block device's read-ahead size or the mapping's end (Linux 6.16 and later;
// madvise(MADV_RANDOM) does not stop it), on a fault in data the read-ahead size around it. On a virtual disk whose
// read-ahead is 8 MiB, a cold `hkctl --version` read 20 MB of the binary and took twice as long as sqlite3's cold
// start; `stats steps --week` 2.5 times as long (BENCHMARKS.md, session 36). Three things make it read about 1 MB:
//
// 1. The end of each data segment's file part falls on a page boundary (the sections at the end of this file and
//    Sources/hkctl/relro-end.ld), so the kernel has no partial last page to clear while it loads the program: that
//    clearing was a fault, before any of the program ran, that read 8 MiB around the end of the data.
// 2. Before the C library or the Swift runtime runs, the entry below marks every segment MADV_RANDOM (a fault in the
//    data then reads its own page; in the code it stops the asynchronous read-ahead a page marked while the kernel
//    read the file's header would start: in the release link the entry's own page is the only page touched before).
//    It reaches what it needs relative to the code (see HKCTL_WORD); only hot-pages.h's weak references are read from
//    the global offset table in the data, one page read by itself.
// 3. When a few pages the command will run are not in the page cache (one-byte reads of /proc/self/exe that may not
//    wait; mincore where those are not supported), it asks for the pages profiled for commands with its first word
//    (MADV_WILLNEED: read in parallel, in the background; hot-pages.h, written by bench/order-functions --pages, names
//    each run of pages by a symbol and an offset from it, so that code that grows before it moves it along), and on
//    Linux 6.16 or later, whose faults in code read ahead to the end of their mapping whatever madvise says, it
//    first cuts the code segment's mapping into 64 KiB mappings (every other one also MADV_DONTDUMP, so neighbours
//    differ and stay apart). Before 6.16,
//    MADV_RANDOM alone has a fault read its own page; with the binary in the page cache the code gets its usual
//    read-ahead back. Then the entry jumps to the C library's _start as if the kernel had.
//
// None of this changes what the program does: the sections are empty and madvise hints only decide what the kernel
// reads when. With the binary in the page cache (the usual case) step 3 is skipped and the entry costs about ten
// system calls (10 µs). Where it cannot see that a page is missing (a binary the user may run but not read; on
// overlayfs, NFS or FUSE one the user cannot write) it takes the binary to be cached and the kernel reads as before.
// Static links on x86-64 only (Package.swift); elsewhere this file is empty.
#include "CStartup.h"
#if defined(__linux__) && defined(HKCTL_ENTRY) && !defined(__x86_64__)
// Another architecture than the building machine's x86-64 (a cross build; untested): the entry the link names only
// jumps to the C library's _start, registers unchanged. (On ppc64, _start finds its TOC from r12, which the
// kernel sets to the entry's address: a plain branch would not do.)
__attribute__((naked)) void hkctl_entry(void) {
#if defined(__aarch64__) || defined(__arm__)
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
#if defined(__linux__) && defined(HKCTL_ENTRY) && defined(__x86_64__)
#include <elf.h>
#include <stdint.h>

// Code that runs before the C library has set up the stack guard and thread-local storage, and before any
// sanitizer's run time: no stack protector, no instrumentation. It calls nothing of the C library either: in a
// static program memset and memcpy are resolved at start-up, after this runs (so no array initialisers, which a
// debug build compiles into memset calls).
#define HKCTL_EARLY __attribute__((no_stack_protector, no_sanitize("address", "thread", "undefined")))
// The code that runs before the code's mapping is cut up must lie in the file's first 16 KiB, which the kernel read
// with the header: a fault beyond them would read ahead to the end of the mapping, 8 MiB. This object's .text comes
// first in the release link (it holds hkctl_entry, the first name of Sources/hkctl/hot-symbols.txt, and the link
// starts the code on the header's page: Package.swift) and holds only that code (under 4 KiB); the long generated
// list of pages to ask for, which runs after the cut, has a section of its own, placed after it.
#define HKCTL_AFTER_CUT HKCTL_EARLY __attribute__((noinline, section(".text.hkctl_after_cut")))

enum { page_size = 4096, chunk_size = 65536 };
enum { sys_open = 2, sys_close = 3, sys_mincore = 27, sys_madvise = 28, sys_uname = 63, sys_getppid = 110,
       sys_preadv2 = 327 };
enum { advice_normal = 0, advice_random = 1, advice_willneed = 3, advice_dontdump = 16 };
enum { read_no_wait = 8 /* RWF_NOWAIT */, error_again = 11 /* EAGAIN */ };

// Hidden, so that the compiler reaches them relative to the code rather than through the global offset table,
// which lies in the data segment: a read there before read_pages_singly() would read 8 MiB around it. (The weak
// references of hot-pages.h are read from that table, after it: one page, read by itself.)
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char etext[] __attribute__((visibility("hidden")));
extern const char edata[] __attribute__((visibility("hidden")));

// The entry point (the linker's -e): %rdx carries the dynamic loader's exit function to _start, so it is kept in
// %rbx across the calls. In the release link this object's code comes first, on the file's first page, which the
// kernel has read with the header: the first system call runs before any other code page is touched.
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

HKCTL_EARLY static inline long hkctl_syscall6(long number, long a, long b, long c, long d, long e, long f) {
    long result;
    register long fourth __asm__("r10") = d;
    register long fifth __asm__("r8") = e;
    register long sixth __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(fourth), "r"(fifth), "r"(sixth)
                     : "rcx", "r11", "memory");
    return result;
}

HKCTL_EARLY static inline uintptr_t page_down(uintptr_t address) { return address & ~(uintptr_t)(page_size - 1); }
HKCTL_EARLY static inline uintptr_t page_up(uintptr_t address) { return page_down(address + page_size - 1); }

/// The program headers, their count, and how far the image lies from the addresses the link gave it (0 in a static
/// program, the load address in a position-independent one): a segment's bytes are at `image + p_vaddr`.
HKCTL_EARLY static const Elf64_Phdr *program_headers(int *count, uintptr_t *image) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)__ehdr_start;
    const Elf64_Phdr *segments = (const Elf64_Phdr *)(__ehdr_start + header->e_phoff);
    *count = header->e_phnum;
    *image = (uintptr_t)__ehdr_start;  // the segment that holds the header starts at file offset 0
    for (int index = 0; index < *count; index++)
        if (segments[index].p_type == PT_LOAD && segments[index].p_offset == 0) {
            *image -= segments[index].p_vaddr;
            break;
        }
    return segments;
}

// Words are compared as numbers the code holds (up to 8 bytes each, little-endian), not as strings, which the
// compiler would keep in the data segment: each data page read before the pages are asked for is a read of its own.
#define HKCTL_WORD(a, b, c, d, e, f, g, h)                                                               \
    ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | (uint64_t)(e) << 32 | \
     (uint64_t)(f) << 40 | (uint64_t)(g) << 48 | (uint64_t)(h) << 56)

/// Whether the kernel runs 6.16 or later, whose faults in code read ahead from the fault to the end of its mapping
/// whatever madvise says; before, MADV_RANDOM stops that read-ahead (then each page not asked for is read alone).
HKCTL_EARLY static int code_reads_ahead_to_mapping_end(void) {
    char names[6 * 65];  // struct utsname: six fields of 65 bytes; the release is the third
    if (hkctl_syscall3(sys_uname, (long)names, 0, 0) != 0) return 1;
    const char *release = names + 2 * 65;
    long major = 0, minor = 0;
    while (*release >= '0' && *release <= '9') major = major * 10 + (*release++ - '0');
    if (*release++ != '.') return 1;
    while (*release >= '0' && *release <= '9') minor = minor * 10 + (*release++ - '0');
    return major > 6 || (major == 6 && minor >= 16);
}

/// Where in the file the byte at `address` lies, from the program headers; -1 outside the file's segments.
HKCTL_EARLY static long file_offset(uintptr_t address) {
    int count;
    uintptr_t image;
    const Elf64_Phdr *segments = program_headers(&count, &image);
    for (int index = 0; index < count; index++) {
        const Elf64_Phdr *segment = &segments[index];
        uintptr_t start = image + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && address >= start && address < start + segment->p_filesz)
            return (long)(segment->p_offset + (address - start));
    }
    return -1;
}

/// Whether the binary's page at `address` is in the page cache: a one-byte read of /proc/self/exe that may not wait
/// (RWF_NOWAIT) fails with EAGAIN when it is not. mincore(2) needs no file, but it reports every page of a file the
/// caller cannot write as present, and an installed binary belongs to root; it answers where such reads are not
/// supported (overlayfs, tmpfs), for a binary the caller can write (a build), and says present otherwise.
HKCTL_EARLY static int page_cached(long file, uintptr_t address) {
    long offset = file_offset(address);
    if (offset < 0) return 1;
    char byte;
    struct { void *base; unsigned long length; } vector;
    vector.base = &byte;
    vector.length = 1;
    long read = hkctl_syscall6(sys_preadv2, file, (long)&vector, 1, offset, 0, read_no_wait);
    if (read >= 0 || read == -error_again) return read >= 0;
    unsigned char resident;
    resident = 1;
    if (hkctl_syscall3(sys_mincore, (long)page_down(address), page_size, (long)&resident) != 0) return 1;
    return resident & 1;
}

/// Asks for the pages of [start, end) that lie in the binary (a stale or foreign entry of hot-pages.h can name
/// anything): madvise(MADV_WILLNEED) starts their reads and returns.
HKCTL_AFTER_CUT static void will_need(uintptr_t start, uintptr_t end) {
    uintptr_t low = page_down((uintptr_t)__ehdr_start), high = page_up((uintptr_t)edata);
    start = page_down(start);
    end = page_up(end);
    if (start < low) start = low;
    if (end > high) end = high;
    if (start < end) hkctl_syscall3(sys_madvise, (long)start, (long)(end - start), advice_willneed);
}

HKCTL_AFTER_CUT static void read_listed_pages(unsigned groups);
HKCTL_EARLY static int listed_pages_cached(unsigned groups);

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

/// Whether the environment holds HKCTL_PAGE_PROFILE=<the parent's process id>: bench/order-functions finding the
/// pages a command runs, with the binary out of the page cache. The entry then takes the binary to be out of the page
/// cache without looking, cuts the code segment into single pages and asks for nothing, so that the pages read are
/// the pages run. (Tied to the parent, so that the variable left in a shell does not slow every later command.)
HKCTL_EARLY static int profiling_pages(const long *stack) {
    const char *const *entry = (const char *const *)(stack + 1) + stack[0] + 1;
    for (; *entry; entry++) {
        uint64_t word[3];
        word[0] = word[1] = word[2] = 0;
        const char *text = *entry;
        read_word(text, word, 3);
        if (word[0] != HKCTL_WORD('H', 'K', 'C', 'T', 'L', '_', 'P', 'A') ||
            word[1] != HKCTL_WORD('G', 'E', '_', 'P', 'R', 'O', 'F', 'I') ||
            (word[2] & 0xffffff) != HKCTL_WORD('L', 'E', '=', 0, 0, 0, 0, 0))
            continue;
        long parent = 0;
        const char *digit = text + 19;
        if (!*digit) return 0;
        for (; *digit; digit++) {
            if (*digit < '0' || *digit > '9' || parent > 1L << 40) return 0;
            parent = parent * 10 + (*digit - '0');
        }
        return parent == hkctl_syscall3(sys_getppid, 0, 0, 0);
    }
    return 0;
}

/// Marks every loaded segment's file pages MADV_RANDOM: a fault in the data segment then reads its own page, not
/// the 8 MiB around it (the code segment's faults read ahead regardless; see the top of this file).
HKCTL_EARLY static void read_pages_singly(void) {
    int count;
    uintptr_t image;
    const Elf64_Phdr *segments = program_headers(&count, &image);
    for (int index = 0; index < count; index++) {
        const Elf64_Phdr *segment = &segments[index];
        if (segment->p_type != PT_LOAD || segment->p_filesz == 0) continue;
        uintptr_t start = page_down(image + segment->p_vaddr);
        uintptr_t end = page_up(image + segment->p_vaddr + segment->p_filesz);
        hkctl_syscall3(sys_madvise, (long)start, (long)(end - start), advice_random);
    }
}

/// Steps 2 and 3 above; `stack` is the process's initial stack: argc, argv, a null, the environment, a null.
HKCTL_EARLY void hkctl_prepare_image(const long *stack) {
    read_pages_singly();
    unsigned wanted = command_groups(stack);
    int reads_to_mapping_end = code_reads_ahead_to_mapping_end();
    uintptr_t start = page_down((uintptr_t)__ehdr_start), end = page_up((uintptr_t)etext);
    int profiling = profiling_pages(stack);
    if (!profiling && listed_pages_cached(wanted)) {
        // Before 6.16 a fault in code with MADV_RANDOM reads its page alone: give the code its usual read-ahead.
        if (!reads_to_mapping_end) hkctl_syscall3(sys_madvise, (long)start, (long)(end - start), advice_normal);
        return;
    }
    uintptr_t size = profiling ? page_size : chunk_size;
    if (reads_to_mapping_end)
        for (uintptr_t chunk = start + size; chunk < end; chunk += 2 * size) {
            uintptr_t length = end - chunk < size ? end - chunk : size;
            hkctl_syscall3(sys_madvise, (long)chunk, (long)length, advice_dontdump);
        }
    if (!profiling) read_listed_pages(wanted);
}

// The profiled code: each HKCTL_PAGES(number, symbol, offset, bytes, groups) line of hot-pages.h names the pages
// holding `bytes` bytes from `offset` bytes after `symbol`, which the commands of `groups` ran. A symbol the link
// does not hold (another toolchain) is skipped.
#define HKCTL_PAGES(number, symbol, offset, bytes, groups) \
    extern const char hkctl_anchor_##number[] __asm__(symbol) __attribute__((weak, visibility("hidden")));
#define HKCTL_PROBE(number, offset, groups)
#include "hot-pages.h"
#undef HKCTL_PAGES
#undef HKCTL_PROBE

HKCTL_AFTER_CUT static void read_listed_pages(unsigned wanted) {
#define HKCTL_PAGES(number, symbol, offset, bytes, groups) \
    if (((groups) & wanted) && hkctl_anchor_##number)      \
        will_need((uintptr_t)hkctl_anchor_##number + (offset), (uintptr_t)hkctl_anchor_##number + (offset) + (bytes));
#define HKCTL_PROBE(number, offset, groups)
#include "hot-pages.h"
#undef HKCTL_PAGES
#undef HKCTL_PROBE
}

/// Whether all the probe pages hot-pages.h names for these groups (a few pages every profiled command of a group
/// ran: HKCTL_PROBE(number of the run, offset from its symbol, groups)) are in the page cache. Yes too when there
/// is nothing to look at or /proc/self/exe cannot be read: the kernel then reads as it would without this file.
HKCTL_EARLY static int listed_pages_cached(unsigned wanted) {
    uint64_t path[2];  // "/proc/self/exe", held in the code (see HKCTL_WORD)
    path[0] = HKCTL_WORD('/', 'p', 'r', 'o', 'c', '/', 's', 'e');
    path[1] = HKCTL_WORD('l', 'f', '/', 'e', 'x', 'e', 0, 0);
    long file = hkctl_syscall3(sys_open, (long)path, 02000000 /* O_RDONLY | O_CLOEXEC */, 0);
    if (file < 0) return 1;
    int probes = 0, missing = 0;  // one page missing is enough: each is one the command will read
#define HKCTL_PAGES(number, symbol, offset, bytes, groups)
#define HKCTL_PROBE(number, offset, groups)                                                     \
    if (((groups) & wanted) && hkctl_anchor_##number && !missing) {                             \
        probes++;                                                                               \
        missing += !page_cached(file, (uintptr_t)hkctl_anchor_##number + (offset));             \
    }
#include "hot-pages.h"
#undef HKCTL_PAGES
#undef HKCTL_PROBE
    hkctl_syscall3(sys_close, file, 0, 0);
    return probes == 0 || missing == 0;
}
#endif

// Each data segment's file part must end on a page (step 1 above). The release link (lld, Package.swift) gives the
// data that is read-only after start-up (RELRO: the metadata of the Swift runtime, the global offset tables, the
// init and fini arrays) a segment of its own, whose end it pads only in memory (a NOBITS `.relro_padding`): the
// kernel cleared that page's tail while it loaded the program, and a cold `--version` read 8.3 MB instead of 1.4
// (BENCHMARKS.md, session 43). Sources/hkctl/relro-end.ld puts a `.jcr` section after the last RELRO section
// (`.got.plt`, which `-z now` makes RELRO) that pads RELRO to a page in the file too; this object holds its one input,
// empty. The other data segment ends where the Swift runtime's page-aligned, 64 KiB swift5_backtrace ends, on a page
// (`readelf -l`: each RW segment's offset plus its file size is a multiple of 4096). The C library's last data
// sections (__libc_subfreeres, __libc_IO_vtables, __libc_atexit) are named here too, as the gold link of earlier
// builds needed. Empty and retained (R), they add nothing to any table or list.
#if defined(__linux__) && defined(HKCTL_ENTRY) && defined(__x86_64__)
__asm__(".section .jcr,\"awR\",@progbits\n"
        ".section __libc_subfreeres,\"awR\",@progbits\n"
        ".section __libc_IO_vtables,\"awR\",@progbits\n"
        ".section __libc_atexit,\"awR\",@progbits\n.previous\n");
#endif
