/// Tunes the C allocator for one short, allocation-heavy run.
///
/// By default glibc returns large freed blocks to the kernel at once (the
/// file's bytes after parsing, the node tree after decoding), so the next
/// allocations fault fresh pages in again; on a virtual machine each first
/// touch of a page costs about two microseconds. Keeping freed memory in the
/// process, and growing the heap in large steps, lets later allocations reuse
/// pages already mapped. A short-lived command-line run loses nothing by it.
package enum AllocatorTuning {
    package static func apply() {
        #if os(Linux)
        // <malloc.h>: M_TRIM_THRESHOLD -1, M_TOP_PAD -2, M_MMAP_THRESHOLD -3.
        _ = glibcMallopt(-3, 256 << 20)
        _ = glibcMallopt(-1, 512 << 20)
        _ = glibcMallopt(-2, 16 << 20)
        #endif
    }
}

#if os(Linux)
/// glibc's `mallopt`, which the Glibc module does not import (it lives in <malloc.h>).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
