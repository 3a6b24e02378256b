// The unique id of the mount a path lies on, from the statx(2) system call, which Swift's Glibc module does not
// expose (glibc declares its wrapper only for _GNU_SOURCE, and only from glibc 2.28). Self-contained, so it builds
// with any kernel headers and C library: the kernel's struct statx is laid out here (256 bytes, fixed by the
// kernel's ABI) and the call made through syscall(2). HealthCore's BootIdentity reads it. Linux only; elsewhere
// the module is empty.
#ifdef __linux__
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

/// The kernel's struct statx: the fields up to stx_mnt_id (Linux 5.8), then what later kernels added.
struct hkctl_statx {
    uint32_t mask;
    uint32_t blksize;
    uint64_t attributes;
    uint32_t nlink;
    uint32_t uid;
    uint32_t gid;
    uint16_t mode;
    uint16_t spare0;
    uint64_t ino;
    uint64_t size;
    uint64_t blocks;
    uint64_t attributes_mask;
    uint8_t times[64];  // atime, btime, ctime, mtime: 16 bytes each
    uint32_t rdev_major;
    uint32_t rdev_minor;
    uint32_t dev_major;
    uint32_t dev_minor;
    uint64_t mnt_id;    // at byte 144
    uint8_t rest[104];
};
_Static_assert(sizeof(struct hkctl_statx) == 256, "the kernel's struct statx is 256 bytes");
_Static_assert(__builtin_offsetof(struct hkctl_statx, mnt_id) == 144, "stx_mnt_id is at byte 144");

/// The kernel's unique id of the mount `path` lies on (STATX_MNT_ID_UNIQUE, Linux 6.8 and later: never given to
/// another mount while the machine runs), following symbolic links; 0 when the kernel does not tell it (an older
/// kernel, a seccomp filter that refuses statx, a path that does not exist).
static inline uint64_t hkctl_unique_mount_id(const char *path) {
#ifdef SYS_statx
    const int atFDCWD = -100;              // AT_FDCWD
    const int dontSync = 0x4000;           // AT_STATX_DONT_SYNC: no round trip to a network file system's server
    const unsigned int uniqueID = 0x4000;  // STATX_MNT_ID_UNIQUE
    struct hkctl_statx info = {0};
    if (syscall(SYS_statx, atFDCWD, path, dontSync, uniqueID, &info) != 0) return 0;
    return (info.mask & uniqueID) ? info.mnt_id : 0;
#else
    return 0;
#endif
}
#endif
