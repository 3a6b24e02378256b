// glibc's statx(2) wrapper (glibc 2.28 and later), which its headers declare only for _GNU_SOURCE and Swift's Glibc
// module therefore leaves out: declared here as glibc declares it, with the kernel's struct statx. HealthCore reads
// one field, the unique id of the mount a store lies on (BootIdentity). Linux only; elsewhere the module is empty.
#ifdef __linux__
#include <linux/stat.h>

int statx(int dirfd, const char *pathname, int flags, unsigned int mask, struct statx *statxbuf);

/// STATX_MNT_ID_UNIQUE (Linux 6.8): stx_mnt_id holds a 64-bit id never reused while the machine runs, instead of the
/// reusable one of STATX_MNT_ID. Kernel headers older than 6.8 lack the name.
#define HKCTL_STATX_MNT_ID_UNIQUE 0x00004000U
#endif
