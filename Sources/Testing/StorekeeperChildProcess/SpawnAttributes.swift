import StorekeeperPlatform

/// The signal state a child starts with: no signal blocked, every signal handled the default way.
///
/// A child inherits the spawning thread's signal mask and this process's ignored signals: spawned
/// from a Dispatch worker thread, which blocks SIGTERM among others, a child would not end on
/// SIGTERM, and one with SIGPIPE ignored would write on to a closed pipe. Programs expect neither.
final class SpawnAttributes {
    #if canImport(Darwin)
    typealias Attributes = posix_spawnattr_t?
    #else
    typealias Attributes = posix_spawnattr_t
    #endif

    /// The attributes, for `posix_spawn`.
    var attributes = Attributes()

    init() {
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        // Their handling cannot be changed, and some systems refuse a set that names them.
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    deinit {
        posix_spawnattr_destroy(&attributes)
    }
}
