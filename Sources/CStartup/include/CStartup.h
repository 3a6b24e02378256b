// hkctl's process entry on Linux (see startup.c and argv.c).
#ifndef HKCTL_CSTARTUP_H
#define HKCTL_CSTARTUP_H
void hkctl_prepare_image(const long *stack);
/// Called first thing in main: from then on no fopen of /proc/self/maps is answered for the runtime (argv.c).
void hkctl_arguments_taken(void);
#endif
