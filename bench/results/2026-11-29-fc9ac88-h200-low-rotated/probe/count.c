// Counts calls of the libc functions libsplit.so defines in front of libc's; prints at exit.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>
static atomic_long n_free, n_realloc, n_mmap, n_munmap, n_mprotect, n_madvise, n_read;
static void (*next_free)(void *);
void free(void *p) {
  atomic_fetch_add_explicit(&n_free, 1, memory_order_relaxed);
  if (!next_free) next_free = dlsym(RTLD_NEXT, "free");
  if (next_free) next_free(p);
}
void *realloc(void *p, size_t n) {
  static void *(*next)(void *, size_t);
  atomic_fetch_add_explicit(&n_realloc, 1, memory_order_relaxed);
  if (!next) next = dlsym(RTLD_NEXT, "realloc");
  return next(p, n);
}
void *mmap(void *a, size_t n, int p, int f, int fd, off_t o) {
  static void *(*next)(void *, size_t, int, int, int, off_t);
  atomic_fetch_add_explicit(&n_mmap, 1, memory_order_relaxed);
  if (!next) next = dlsym(RTLD_NEXT, "mmap");
  return next(a, n, p, f, fd, o);
}
int munmap(void *a, size_t n) {
  static int (*next)(void *, size_t);
  atomic_fetch_add_explicit(&n_munmap, 1, memory_order_relaxed);
  if (!next) next = dlsym(RTLD_NEXT, "munmap");
  return next(a, n);
}
int mprotect(void *a, size_t n, int p) {
  static int (*next)(void *, size_t, int);
  atomic_fetch_add_explicit(&n_mprotect, 1, memory_order_relaxed);
  if (!next) next = dlsym(RTLD_NEXT, "mprotect");
  return next(a, n, p);
}
int madvise(void *a, size_t n, int v) {
  static int (*next)(void *, size_t, int);
  atomic_fetch_add_explicit(&n_madvise, 1, memory_order_relaxed);
  if (!next) next = dlsym(RTLD_NEXT, "madvise");
  return next(a, n, v);
}
ssize_t read(int fd, void *b, size_t n) {
  static ssize_t (*next)(int, void *, size_t);
  atomic_fetch_add_explicit(&n_read, 1, memory_order_relaxed);
  if (!next) next = dlsym(RTLD_NEXT, "read");
  return next(fd, b, n);
}
__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "calls: free %ld realloc %ld mmap %ld munmap %ld mprotect %ld madvise %ld read %ld\n",
          n_free, n_realloc, n_mmap, n_munmap, n_mprotect, n_madvise, n_read);
}
