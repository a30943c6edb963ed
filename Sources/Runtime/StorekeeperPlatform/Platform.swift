// The one place that names the C library. Every target that calls libc
// (open, fstat, flock, posix_spawn, errno) imports StorekeeperPlatform
// instead of repeating this block, so a new platform is one edit.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#elseif canImport(Bionic)
@_exported import Bionic
#else
#error("Storekeeper needs a C library: Glibc, Musl, Darwin or Bionic")
#endif
