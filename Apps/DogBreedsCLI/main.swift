import DogBreedsCLIKit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// DogBreedsCLI: the process around the app. Everything it does is in DogBreedsCLIKit.

signal(SIGPIPE, SIG_IGN)
// A write past a file size limit (`ulimit -f`) fails, as on a full disk, rather than ending
// the program: the cache's write is not worth the run. (Where it writes, a Dispatch thread,
// the signal is blocked anyway; this holds on any thread.)
signal(SIGXFSZ, SIG_IGN)
exit(
  await CommandLineApp.run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
