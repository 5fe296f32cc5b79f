// The two wrappers of mutex-visible.c (x86-64). Swift passes `self` (the
// address of the mutex word) in r13 and `_lockSlow`'s UInt32 argument in edi;
// both are kept across the calls made here (rbx and r12 are callee-saved).
#define LOCK_SLOW   $s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF
#define UNLOCK_SLOW $s15Synchronization12_MutexHandleV11_unlockSlowyyF
    .text
    .globl LOCK_SLOW
    .type LOCK_SLOW, @function
LOCK_SLOW:
    push %rbp
    mov %rsp, %rbp
    push %r13
    push %rbx
    push %r12
    sub $8, %rsp
    mov %r13, %rbx
    mov %edi, %r12d
    cmpq $0, tsan_mutex_real_lock(%rip)
    jnz 1f
    call tsan_mutex_resolve
1:  mov %rbx, %r13
    mov %r12d, %edi
    call *tsan_mutex_real_lock(%rip)       // the original: returns holding the lock
    mov tsan_mutex_acquire(%rip), %rax
    test %rax, %rax
    jz 2f
    mov %rbx, %rdi
    call *%rax                             // __tsan_acquire(mutex word)
2:  add $8, %rsp
    pop %r12
    pop %rbx
    pop %r13
    pop %rbp
    ret
    .size LOCK_SLOW, .-LOCK_SLOW

    .globl UNLOCK_SLOW
    .type UNLOCK_SLOW, @function
UNLOCK_SLOW:
    push %rbp
    mov %rsp, %rbp
    push %r13
    push %rbx
    mov %r13, %rbx
    cmpq $0, tsan_mutex_real_unlock(%rip)
    jnz 1f
    call tsan_mutex_resolve
1:  mov tsan_mutex_release(%rip), %rax
    test %rax, %rax
    jz 2f
    mov %rbx, %rdi
    call *%rax                             // __tsan_release(mutex word)
2:  mov %rbx, %r13
    call *tsan_mutex_real_unlock(%rip)     // the original: hands the lock over
    pop %rbx
    pop %r13
    pop %rbp
    ret
    .size UNLOCK_SLOW, .-UNLOCK_SLOW
    .section .note.GNU-stack,"",@progbits
