// hkctl's process entry on Linux (see startup.c). Nothing here is called from Swift.
#ifndef HKCTL_CSTARTUP_H
#define HKCTL_CSTARTUP_H
void hkctl_prepare_image(const long *stack);
#endif
