#define _GNU_SOURCE
#include "CPseudoTerminal.h"
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <unistd.h>

int dogbreeds_open_pty(char *name, size_t length) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return -1;
  if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, length) != 0) {
    close(master);
    return -1;
  }
  return master;
}

int dogbreeds_spawn_close_from(void *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
#else
  (void)actions;
  (void)lowest;
  return 0;
#endif
}
