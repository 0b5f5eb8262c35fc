#ifndef C_PSEUDO_TERMINAL_H
#define C_PSEUDO_TERMINAL_H
#include <stddef.h>

/// Opens a new pseudo-terminal master (O_RDWR | O_NOCTTY), grants and unlocks it, and
/// writes the slave's path into `name`. Returns the master fd, or -1 with errno set.
int dogbreeds_open_pty(char *name, size_t length);

#endif
