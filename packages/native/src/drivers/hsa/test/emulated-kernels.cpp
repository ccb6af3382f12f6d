// The kernels of src/kernels-amdgpu compiled for the CPU emulation (see kernel-emulator.hpp): the
// OpenCL address spaces vanish, work-group arrays become statics shared by the work-item threads
// (one work-group runs at a time), and the AMDGPU builtins map to the emulation.
#include <cstdint>

#include "drivers/hsa/test/kernel-emulator.hpp"

#define KERNEL
#define GROUP_SHARED static
#define __kernel
#define __global
#define __local
#define __constant
#define __builtin_amdgcn_workitem_id_x() ::kreplay::hsa::test::emulation::localId()
#define __builtin_amdgcn_workgroup_id_x() ::kreplay::hsa::test::emulation::groupId()
#define __builtin_amdgcn_dispatch_ptr() ::kreplay::hsa::test::emulation::dispatchPacket()
#define __builtin_amdgcn_s_barrier() ::kreplay::hsa::test::emulation::barrier()
#define __builtin_amdgcn_fence(order, scope) ((void)0)
#define __builtin_astype(value, type) ::kreplay::hsa::test::emulation::bitCast<type>(value)
#define __scoped_atomic_fetch_add(pointer, value, order, scope) __atomic_fetch_add(pointer, value, order)
#define __scoped_atomic_load_n(pointer, order, scope) __atomic_load_n(pointer, order)
#define __scoped_atomic_compare_exchange_n(pointer, expected, desired, weak, success, failure, scope) \
  __atomic_compare_exchange_n(pointer, expected, desired, weak, success, failure)
#define __MEMORY_SCOPE_DEVICE 1

namespace kreplay::hsa::test::emulated {
#include "kernels-amdgpu/kreplay-kernels.cl"
}  // namespace kreplay::hsa::test::emulated

namespace kreplay::hsa::test {

namespace {

/** The explicit arguments of a dispatch, read from its kernarg bytes at the metadata's offsets. */
class Arguments {
 public:
  Arguments(const KernelMetadata& metadata, const std::uint8_t* kernargs)
      : metadata_(metadata), kernargs_(kernargs) {}

  template <class T>
  T value(std::size_t index) const {
    const auto& argument = metadata_.arguments.at(index);
    if (argument.size != sizeof(T)) throw std::runtime_error("argument size mismatch in " + metadata_.name);
    T result;
    std::memcpy(&result, kernargs_ + argument.offset, sizeof result);
    return result;
  }

  template <class T>
  T* pointer(std::size_t index) const {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(value<std::uint64_t>(index)));
  }

 private:
  const KernelMetadata& metadata_;
  const std::uint8_t* kernargs_;
};

}  // namespace

void callEmulatedKernel(DeviceKernel kernel, const KernelMetadata& metadata, const std::uint8_t* kernargs) {
  using namespace emulated;
  const Arguments a(metadata, kernargs);
  switch (kernel) {
    case DeviceKernel::HashPages:
      return kreplay_hash_pages(a.pointer<const page_table_entry>(0), a.value<u32>(1), a.value<u64>(2),
                                a.value<u64>(3), a.pointer<u64>(4));
    case DeviceKernel::CopyChangedPages:
      return kreplay_copy_changed_pages(a.pointer<const page_table_entry>(0), a.value<u32>(1),
                                        a.value<u64>(2), a.value<u64>(3), a.pointer<u64>(4),
                                        a.pointer<u32>(5), a.pointer<u32>(6), a.value<u32>(7));
    case DeviceKernel::CheckPageList:
      return kreplay_check_page_list(a.pointer<const u32>(0), a.pointer<const u32>(1), a.value<u64>(2),
                                     a.pointer<u64>(3));
    case DeviceKernel::CopyPageList:
      return kreplay_copy_page_list(a.pointer<const page_table_entry>(0), a.value<u32>(1), a.value<u64>(2),
                                    a.pointer<const u32>(3), a.pointer<const u32>(4), a.pointer<u64>(5),
                                    a.pointer<const u64>(6));
    case DeviceKernel::Fill:
      return kreplay_fill(a.pointer<u8>(0), a.value<u64>(1), a.value<u32>(2));
    case DeviceKernel::XorDigest:
      return kreplay_xor_digest(a.pointer<const u8>(0), a.value<u64>(1), a.pointer<u64>(2));
    case DeviceKernel::ScatterWrite:
      return kreplay_scatter_write(a.pointer<u8>(0), a.value<u64>(1), a.value<u64>(2), a.value<double>(3),
                                   a.value<u64>(4), a.pointer<const u8>(5), a.value<u64>(6));
    case DeviceKernel::Triad:
      return kreplay_triad(a.pointer<float>(0), a.pointer<const float>(1), a.pointer<const float>(2),
                           a.value<float>(3), a.value<u64>(4));
    case DeviceKernel::StencilEdges:
      return kreplay_stencil_edges(a.pointer<const float>(0), a.value<u64>(1), a.pointer<float>(2));
    case DeviceKernel::Stencil:
      return kreplay_stencil(a.pointer<float>(0), a.value<u64>(1), a.pointer<const float>(2));
    case DeviceKernel::Accumulate:
      return kreplay_accumulate(a.pointer<const float>(0), a.value<u64>(1), a.pointer<float>(2),
                                a.value<u64>(3));
    case DeviceKernel::Marker:
      return kreplay_marker();
  }
}

}  // namespace kreplay::hsa::test
