#ifndef C_PSEUDO_TERMINAL_H
#define C_PSEUDO_TERMINAL_H
#include <stddef.h>

/// Opens a new pseudo-terminal master (O_RDWR | O_NOCTTY), grants and unlocks it, and
/// writes the slave's path into `name`. Returns the master fd, or -1 with errno set.
int dogbreeds_open_pty(char *name, size_t length);

/// Adds to `actions` (a `posix_spawn_file_actions_t`) the closing of every descriptor from
/// `lowest` up in the child, where the C library can (glibc 2.34 and later). Returns 0 or
/// an error number.
int dogbreeds_spawn_close_from(void *actions, int lowest);

#endif
