// Makes Swift's Synchronization.Mutex visible to ThreadSanitizer (preloaded by
// scripts/sanitize for its TSan run only; test tooling, never part of the app).
//
// On Linux, Mutex is a PI futex: the uncontended lock and unlock are atomics
// inlined into our (instrumented) code, which TSan sees, but a contended lock
// spins and then sleeps inside libswiftSynchronization's
// `_MutexHandle._lockSlow` (an uninstrumented compare-exchange, or the kernel
// taking the lock in FUTEX_LOCK_PI), and a contended unlock hands the lock
// over in `_unlockSlow` (FUTEX_UNLOCK_PI). TSan then sees no happens-before
// edge between the two critical sections and reports every Mutex-protected
// value touched from two threads as a race (checked: two threads appending
// under one Mutex give 4-8 reports a run without this, none with it, while an
// unguarded counter beside them is still reported).
//
// mutex-visible.S defines those two exported functions under their mangled
// names; as a preloaded library they take the place of the originals, call
// them, and tell TSan: acquire on the mutex word after `_lockSlow`, release
// before `_unlockSlow`. In a process without TSan (__tsan_* absent) they only
// forward.
#define _GNU_SOURCE
#include <dlfcn.h>

extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN void (*tsan_mutex_real_lock)(void);
HIDDEN void (*tsan_mutex_real_unlock)(void);
HIDDEN void (*tsan_mutex_acquire)(void *);
HIDDEN void (*tsan_mutex_release)(void *);

// Finds the originals (also called from the wrappers when libswiftSynchronization
// was loaded after this library's constructor ran).
HIDDEN void tsan_mutex_resolve(void) {
    if (!tsan_mutex_real_lock)
        tsan_mutex_real_lock = (void (*)(void))dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
    if (!tsan_mutex_real_unlock)
        tsan_mutex_real_unlock = (void (*)(void))dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
    tsan_mutex_acquire = __tsan_acquire;
    tsan_mutex_release = __tsan_release;
}

__attribute__((constructor)) static void tsan_mutex_init(void) { tsan_mutex_resolve(); }
