// Checks hsa-api.hpp against ROCr's headers when they are installed (Debian's libhsa-runtime-dev puts
// them in /usr/include/hsa, ROCm in /opt/rocm/include/hsa): every struct's size and field offsets,
// every enumerator's value, and the exact type of every entry point. Without the headers this file
// compiles to nothing and the declarations are trusted as written.
#if __has_include(<hsa/hsa.h>) && __has_include(<hsa/hsa_ext_amd.h>)
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstddef>
#include <type_traits>

#include "drivers/hsa/hsa-api.hpp"

namespace kreplay::hsa {
namespace {

// ToReal<T>: the type of the real headers that a type of hsa-api.hpp stands for, through pointers,
// const and function signatures, so an entry point's whole signature can be compared.
template <class T>
struct ToReal {
  using type = T;
};
template <class T>
struct ToReal<T*> {
  using type = typename ToReal<T>::type*;
};
template <class T>
struct ToReal<const T> {
  using type = const typename ToReal<T>::type;
};
template <class Result, class... Parameters>
struct ToReal<Result(Parameters...)> {
  using type = typename ToReal<Result>::type(typename ToReal<Parameters>::type...);
};

#define KREPLAY_SAME_TYPE(ours) \
  template <>                   \
  struct ToReal<ours> {         \
    using type = ::ours;        \
  };                            \
  static_assert(sizeof(ours) == sizeof(::ours), #ours " has the size of the header's");

KREPLAY_SAME_TYPE(hsa_status_t)
KREPLAY_SAME_TYPE(hsa_system_info_t)
KREPLAY_SAME_TYPE(hsa_agent_info_t)
KREPLAY_SAME_TYPE(hsa_agent_t)
KREPLAY_SAME_TYPE(hsa_signal_t)
KREPLAY_SAME_TYPE(hsa_amd_memory_pool_t)
KREPLAY_SAME_TYPE(hsa_code_object_reader_t)
KREPLAY_SAME_TYPE(hsa_executable_t)
KREPLAY_SAME_TYPE(hsa_executable_symbol_t)
KREPLAY_SAME_TYPE(hsa_loaded_code_object_t)
KREPLAY_SAME_TYPE(hsa_signal_condition_t)
KREPLAY_SAME_TYPE(hsa_wait_state_t)
KREPLAY_SAME_TYPE(hsa_queue_t)
KREPLAY_SAME_TYPE(hsa_profile_t)
KREPLAY_SAME_TYPE(hsa_default_float_rounding_mode_t)
KREPLAY_SAME_TYPE(hsa_executable_symbol_info_t)
KREPLAY_SAME_TYPE(hsa_amd_memory_pool_info_t)
KREPLAY_SAME_TYPE(hsa_amd_profiling_dispatch_time_t)
KREPLAY_SAME_TYPE(hsa_kernel_dispatch_packet_t)
KREPLAY_SAME_TYPE(hsa_barrier_and_packet_t)
#undef KREPLAY_SAME_TYPE

static_assert(std::is_same_v<hsa_signal_value_t, ::hsa_signal_value_t>);
static_assert(std::is_same_v<hsa_queue_type32_t, ::hsa_queue_type32_t>);

#define KREPLAY_SAME_OFFSET(type, field)                          \
  static_assert(offsetof(type, field) == offsetof(::type, field), \
                #type "::" #field " is where the header has it");

KREPLAY_SAME_OFFSET(hsa_queue_t, type)
KREPLAY_SAME_OFFSET(hsa_queue_t, features)
KREPLAY_SAME_OFFSET(hsa_queue_t, base_address)
KREPLAY_SAME_OFFSET(hsa_queue_t, doorbell_signal)
KREPLAY_SAME_OFFSET(hsa_queue_t, size)
KREPLAY_SAME_OFFSET(hsa_queue_t, id)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, header)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, setup)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, workgroup_size_x)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, workgroup_size_y)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, workgroup_size_z)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, grid_size_x)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, grid_size_y)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, grid_size_z)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, private_segment_size)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, group_segment_size)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, kernel_object)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, kernarg_address)
KREPLAY_SAME_OFFSET(hsa_kernel_dispatch_packet_t, completion_signal)
KREPLAY_SAME_OFFSET(hsa_barrier_and_packet_t, header)
KREPLAY_SAME_OFFSET(hsa_barrier_and_packet_t, dep_signal)
KREPLAY_SAME_OFFSET(hsa_barrier_and_packet_t, completion_signal)
KREPLAY_SAME_OFFSET(hsa_amd_profiling_dispatch_time_t, start)
KREPLAY_SAME_OFFSET(hsa_amd_profiling_dispatch_time_t, end)
#undef KREPLAY_SAME_OFFSET

#define KREPLAY_SAME_VALUE(name) static_assert(static_cast<long>(name) == static_cast<long>(::name), #name);

KREPLAY_SAME_VALUE(HSA_STATUS_SUCCESS)
KREPLAY_SAME_VALUE(HSA_STATUS_INFO_BREAK)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_ARGUMENT)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_AGENT)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_SIGNAL)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_QUEUE)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_OUT_OF_RESOURCES)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_NOT_INITIALIZED)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_ISA)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_EXCEPTION)
KREPLAY_SAME_VALUE(HSA_STATUS_ERROR_FATAL)
KREPLAY_SAME_VALUE(HSA_SYSTEM_INFO_VERSION_MAJOR)
KREPLAY_SAME_VALUE(HSA_SYSTEM_INFO_VERSION_MINOR)
KREPLAY_SAME_VALUE(HSA_SYSTEM_INFO_TIMESTAMP)
KREPLAY_SAME_VALUE(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY)
KREPLAY_SAME_VALUE(HSA_DEVICE_TYPE_CPU)
KREPLAY_SAME_VALUE(HSA_DEVICE_TYPE_GPU)
KREPLAY_SAME_VALUE(HSA_PROFILE_FULL)
KREPLAY_SAME_VALUE(HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT)
KREPLAY_SAME_VALUE(HSA_AGENT_INFO_NAME)
KREPLAY_SAME_VALUE(HSA_AGENT_INFO_QUEUE_MAX_SIZE)
KREPLAY_SAME_VALUE(HSA_AGENT_INFO_DEVICE)
KREPLAY_SAME_VALUE(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT)
KREPLAY_SAME_VALUE(HSA_AMD_AGENT_INFO_PRODUCT_NAME)
KREPLAY_SAME_VALUE(HSA_SIGNAL_CONDITION_LT)
KREPLAY_SAME_VALUE(HSA_WAIT_STATE_BLOCKED)
KREPLAY_SAME_VALUE(HSA_WAIT_STATE_ACTIVE)
KREPLAY_SAME_VALUE(HSA_QUEUE_TYPE_MULTI)
KREPLAY_SAME_VALUE(HSA_QUEUE_TYPE_SINGLE)
KREPLAY_SAME_VALUE(HSA_PACKET_TYPE_INVALID)
KREPLAY_SAME_VALUE(HSA_PACKET_TYPE_KERNEL_DISPATCH)
KREPLAY_SAME_VALUE(HSA_PACKET_TYPE_BARRIER_AND)
KREPLAY_SAME_VALUE(HSA_FENCE_SCOPE_NONE)
KREPLAY_SAME_VALUE(HSA_FENCE_SCOPE_AGENT)
KREPLAY_SAME_VALUE(HSA_FENCE_SCOPE_SYSTEM)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_TYPE)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_BARRIER)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_WIDTH_TYPE)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_WIDTH_BARRIER)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE)
KREPLAY_SAME_VALUE(HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE)
KREPLAY_SAME_VALUE(HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS)
KREPLAY_SAME_VALUE(HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS)
KREPLAY_SAME_VALUE(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE)
KREPLAY_SAME_VALUE(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT)
KREPLAY_SAME_VALUE(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE)
KREPLAY_SAME_VALUE(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE)
KREPLAY_SAME_VALUE(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT)
KREPLAY_SAME_VALUE(HSA_AMD_SEGMENT_GLOBAL)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_INFO_SEGMENT)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_INFO_SIZE)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE)
KREPLAY_SAME_VALUE(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT)
#undef KREPLAY_SAME_VALUE

// hsa_queue_create takes hsa_queue_type32_t; the callbacks' parameter types follow ToReal.
#define KREPLAY_SAME_ENTRY_POINT(name)                                                           \
  static_assert(std::is_same_v<ToReal<std::remove_pointer_t<decltype(EntryPoints::name)>>::type, \
                               std::remove_pointer_t<decltype(&::name)>>,                        \
                "the declaration of " #name " matches the header's");

KREPLAY_SAME_ENTRY_POINT(hsa_init)
KREPLAY_SAME_ENTRY_POINT(hsa_shut_down)
KREPLAY_SAME_ENTRY_POINT(hsa_status_string)
KREPLAY_SAME_ENTRY_POINT(hsa_system_get_info)
KREPLAY_SAME_ENTRY_POINT(hsa_iterate_agents)
KREPLAY_SAME_ENTRY_POINT(hsa_agent_get_info)
KREPLAY_SAME_ENTRY_POINT(hsa_signal_create)
KREPLAY_SAME_ENTRY_POINT(hsa_signal_destroy)
KREPLAY_SAME_ENTRY_POINT(hsa_signal_load_scacquire)
KREPLAY_SAME_ENTRY_POINT(hsa_signal_store_screlease)
KREPLAY_SAME_ENTRY_POINT(hsa_signal_store_relaxed)
KREPLAY_SAME_ENTRY_POINT(hsa_signal_wait_scacquire)
KREPLAY_SAME_ENTRY_POINT(hsa_queue_create)
KREPLAY_SAME_ENTRY_POINT(hsa_queue_destroy)
KREPLAY_SAME_ENTRY_POINT(hsa_queue_load_read_index_scacquire)
KREPLAY_SAME_ENTRY_POINT(hsa_queue_add_write_index_screlease)
KREPLAY_SAME_ENTRY_POINT(hsa_code_object_reader_create_from_memory)
KREPLAY_SAME_ENTRY_POINT(hsa_code_object_reader_destroy)
KREPLAY_SAME_ENTRY_POINT(hsa_executable_create_alt)
KREPLAY_SAME_ENTRY_POINT(hsa_executable_load_agent_code_object)
KREPLAY_SAME_ENTRY_POINT(hsa_executable_freeze)
KREPLAY_SAME_ENTRY_POINT(hsa_executable_get_symbol_by_name)
KREPLAY_SAME_ENTRY_POINT(hsa_executable_symbol_get_info)
KREPLAY_SAME_ENTRY_POINT(hsa_executable_destroy)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_agent_iterate_memory_pools)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_memory_pool_get_info)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_memory_pool_allocate)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_memory_pool_free)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_agents_allow_access)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_memory_lock)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_memory_unlock)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_memory_async_copy)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_profiling_set_profiler_enabled)
KREPLAY_SAME_ENTRY_POINT(hsa_amd_profiling_get_dispatch_time)
#undef KREPLAY_SAME_ENTRY_POINT

}  // namespace
}  // namespace kreplay::hsa

namespace kreplay::hsa {
const char* headerCheck() {
  return "checked against <hsa/hsa.h> and <hsa/hsa_ext_amd.h>";
}
}  // namespace kreplay::hsa
#else
#include "drivers/hsa/hsa-api.hpp"

namespace kreplay::hsa {
const char* headerCheck() {
  return "not checked: the ROCr headers were not installed when this was built";
}
}  // namespace kreplay::hsa
#endif
