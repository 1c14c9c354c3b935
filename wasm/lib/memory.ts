// Raw allocation for the host: it allocates every buffer first, then makes its views (memory growth detaches
// old views), passes pointers to the kernel, and frees afterwards. Every kernel module re-exports these.
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes < 8 ? 8 : bytes);
}

export function free(ptr: usize): void {
  heap.free(ptr);
}
