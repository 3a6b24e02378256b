// hkctl's arguments, handed to the Swift runtime before it looks for them.
//
// On Linux the runtime finds `CommandLine.arguments` in a static initialiser of its own (CommandLine.cpp): it opens
// /proc/self/maps, reads it line by line with fgets and sscanf to find the initial stack, then walks back from
// `environ` to argv. Every command paid for it: a file the kernel writes out afresh (a line per mapping, a dozen or
// more), scanned line by line, and the C library's scanf code paged in, about 15 µs of a 1 to 2 ms command. The GNU
// C library hands argc and argv to every initialiser, so this one, which runs first (priority 101, before the
// runtime's unprioritised ones), gives them to the runtime's own override (`_swift_stdlib_overrideUnsafeArgvArgc`, the
// hook the runtime keeps for programs that set their arguments), and the link (`--wrap=fopen`, Package.swift's
// coldStartEntry, the static links that start at hkctl_entry) sends the runtime's fopen here, which answers its look
// at /proc/self/maps with "no such file": the runtime then finds no stack, and reads the arguments from the override,
// as it always does first. Only before `main` (main.swift calls hkctl_arguments_taken() first), and only once; every
// other fopen goes to the C library's. With another C library than glibc (musl passes initialisers nothing) the
// wrapper only passes fopen on.
#include "CStartup.h"
#if defined(__linux__) && defined(HKCTL_ENTRY)
#include <errno.h>
#include <stdio.h>
#include <string.h>

// The C library's fopen, under the name the linker's --wrap gives it.
extern FILE *__real_fopen(const char *path, const char *mode);

// Whether the runtime has the arguments and has not yet looked for the stack (set before `main` only).
static int hkctl_arguments_given;

#if defined(__GLIBC__)
// The Swift runtime's (CommandLine.cpp), in the Swift calling convention, which passes these two as C does.
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((swiftcall));

__attribute__((constructor(101))) static void hkctl_give_arguments(int argc, char **argv, char **environment) {
    (void)environment;
    _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
    hkctl_arguments_given = 1;
}
#endif

FILE *__wrap_fopen(const char *path, const char *mode) {
    if (hkctl_arguments_given && strcmp(path, "/proc/self/maps") == 0) {
        hkctl_arguments_given = 0;
        errno = ENOENT;
        return NULL;
    }
    return __real_fopen(path, mode);
}

void hkctl_arguments_taken(void) { hkctl_arguments_given = 0; }
#else
void hkctl_arguments_taken(void) {}
#endif
