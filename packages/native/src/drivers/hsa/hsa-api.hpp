// The part of the HSA runtime API (hsa.h, hsa_ext_amd.h of ROCr) the hsa driver uses, declared by
// the project so that the addon builds without ROCm: the runtime is loaded with dlopen at run time.
// Names and values mirror the headers (HSA Runtime Programmer's Reference 1.2, ROCr extensions);
// hsa-api-check.cpp compares every declaration here with the real headers when they are installed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kreplay::hsa {

enum hsa_status_t {
  HSA_STATUS_SUCCESS = 0x0,
  HSA_STATUS_INFO_BREAK = 0x1,
  HSA_STATUS_ERROR = 0x1000,
  HSA_STATUS_ERROR_INVALID_ARGUMENT = 0x1001,
  HSA_STATUS_ERROR_INVALID_AGENT = 0x1004,
  HSA_STATUS_ERROR_INVALID_SIGNAL = 0x1006,
  HSA_STATUS_ERROR_INVALID_QUEUE = 0x1007,
  HSA_STATUS_ERROR_OUT_OF_RESOURCES = 0x1008,
  HSA_STATUS_ERROR_NOT_INITIALIZED = 0x100B,
  HSA_STATUS_ERROR_INVALID_ISA = 0x100F,
  HSA_STATUS_ERROR_INVALID_CODE_OBJECT = 0x1010,
  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME = 0x1013,
  HSA_STATUS_ERROR_EXCEPTION = 0x1016,
  HSA_STATUS_ERROR_FATAL = 0x1026,
};

enum hsa_system_info_t {
  HSA_SYSTEM_INFO_VERSION_MAJOR = 0,
  HSA_SYSTEM_INFO_VERSION_MINOR = 1,
  HSA_SYSTEM_INFO_TIMESTAMP = 2,
  HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY = 3,
};

enum hsa_device_type_t { HSA_DEVICE_TYPE_CPU = 0, HSA_DEVICE_TYPE_GPU = 1, HSA_DEVICE_TYPE_DSP = 2 };
enum hsa_profile_t { HSA_PROFILE_BASE = 0, HSA_PROFILE_FULL = 1 };
enum hsa_default_float_rounding_mode_t { HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT = 0 };

enum hsa_agent_info_t {
  HSA_AGENT_INFO_NAME = 0,  // char[64], e.g. "gfx90a"
  HSA_AGENT_INFO_QUEUE_MAX_SIZE = 14,
  HSA_AGENT_INFO_DEVICE = 17,
};

/** ROCr's extra agent attributes, passed to hsa_agent_get_info. */
enum hsa_amd_agent_info_t {
  HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT = 0xA002,
  HSA_AMD_AGENT_INFO_PRODUCT_NAME = 0xA009,  // char[64], e.g. "AMD Instinct MI210"
};

struct hsa_agent_t {
  std::uint64_t handle;
};
struct hsa_signal_t {
  std::uint64_t handle;
};
struct hsa_amd_memory_pool_t {
  std::uint64_t handle;
};
struct hsa_code_object_reader_t {
  std::uint64_t handle;
};
struct hsa_executable_t {
  std::uint64_t handle;
};
struct hsa_executable_symbol_t {
  std::uint64_t handle;
};
struct hsa_loaded_code_object_t {
  std::uint64_t handle;
};

/** hsa_signal_value_t of the large (64-bit) machine model. */
using hsa_signal_value_t = std::int64_t;

enum hsa_signal_condition_t {
  HSA_SIGNAL_CONDITION_EQ = 0,
  HSA_SIGNAL_CONDITION_NE = 1,
  HSA_SIGNAL_CONDITION_LT = 2,
  HSA_SIGNAL_CONDITION_GTE = 3,
};
enum hsa_wait_state_t { HSA_WAIT_STATE_BLOCKED = 0, HSA_WAIT_STATE_ACTIVE = 1 };

using hsa_queue_type32_t = std::uint32_t;
enum hsa_queue_type_t { HSA_QUEUE_TYPE_MULTI = 0, HSA_QUEUE_TYPE_SINGLE = 1 };

/** The user-mode queue: a ring of `size` 64-byte AQL packets at base_address. */
struct hsa_queue_t {
  hsa_queue_type32_t type;
  std::uint32_t features;
  void* base_address;
  hsa_signal_t doorbell_signal;
  std::uint32_t size;
  std::uint32_t reserved1;
  std::uint64_t id;
};

enum hsa_packet_type_t {
  HSA_PACKET_TYPE_VENDOR_SPECIFIC = 0,
  HSA_PACKET_TYPE_INVALID = 1,
  HSA_PACKET_TYPE_KERNEL_DISPATCH = 2,
  HSA_PACKET_TYPE_BARRIER_AND = 3,
  HSA_PACKET_TYPE_AGENT_DISPATCH = 4,
  HSA_PACKET_TYPE_BARRIER_OR = 5,
};
enum hsa_fence_scope_t { HSA_FENCE_SCOPE_NONE = 0, HSA_FENCE_SCOPE_AGENT = 1, HSA_FENCE_SCOPE_SYSTEM = 2 };
/** Bit offsets of the fields of a packet header. */
enum hsa_packet_header_t {
  HSA_PACKET_HEADER_TYPE = 0,
  HSA_PACKET_HEADER_BARRIER = 8,
  HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE = 9,
  HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE = 11,
};
/** Bit widths of the fields of a packet header. */
enum hsa_packet_header_width_t {
  HSA_PACKET_HEADER_WIDTH_TYPE = 8,
  HSA_PACKET_HEADER_WIDTH_BARRIER = 1,
  HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE = 2,
  HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE = 2,
};
enum hsa_kernel_dispatch_packet_setup_t { HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS = 0 };
enum hsa_kernel_dispatch_packet_setup_width_t { HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS = 2 };

/** The AQL kernel dispatch packet (64 bytes). */
struct hsa_kernel_dispatch_packet_t {
  std::uint16_t header;
  std::uint16_t setup;
  std::uint16_t workgroup_size_x;
  std::uint16_t workgroup_size_y;
  std::uint16_t workgroup_size_z;
  std::uint16_t reserved0;
  std::uint32_t grid_size_x;
  std::uint32_t grid_size_y;
  std::uint32_t grid_size_z;
  std::uint32_t private_segment_size;
  std::uint32_t group_segment_size;
  std::uint64_t kernel_object;
  void* kernarg_address;
  std::uint64_t reserved2;
  hsa_signal_t completion_signal;
};

/** The AQL barrier-AND packet (64 bytes): waits until all five dependencies are 0. */
struct hsa_barrier_and_packet_t {
  std::uint16_t header;
  std::uint16_t reserved0;
  std::uint32_t reserved1;
  hsa_signal_t dep_signal[5];
  std::uint64_t reserved2;
  hsa_signal_t completion_signal;
};

enum hsa_executable_symbol_info_t {
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE = 11,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT = 12,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE = 13,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE = 14,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT = 22,
};

enum hsa_amd_segment_t { HSA_AMD_SEGMENT_GLOBAL = 0 };
enum hsa_amd_memory_pool_global_flag_t {
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT = 1,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED = 2,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4,
};
enum hsa_amd_memory_pool_info_t {
  HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0,
  HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1,
  HSA_AMD_MEMORY_POOL_INFO_SIZE = 2,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE = 6,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT = 7,
};

/** Packet processor timestamps of a completed dispatch, in ticks of the HSA system clock. */
struct hsa_amd_profiling_dispatch_time_t {
  std::uint64_t start;
  std::uint64_t end;
};

using AgentCallback = hsa_status_t (*)(hsa_agent_t agent, void* data);
using PoolCallback = hsa_status_t (*)(hsa_amd_memory_pool_t pool, void* data);
using QueueErrorCallback = void (*)(hsa_status_t status, hsa_queue_t* source, void* data);

/**
 * Every entry point the driver calls, as resolved with dlsym. Each member has the name and the
 * type of the function it points to.
 */
struct EntryPoints {
  hsa_status_t (*hsa_init)();
  hsa_status_t (*hsa_shut_down)();
  hsa_status_t (*hsa_status_string)(hsa_status_t status, const char** status_string);
  hsa_status_t (*hsa_system_get_info)(hsa_system_info_t attribute, void* value);
  hsa_status_t (*hsa_iterate_agents)(AgentCallback callback, void* data);
  hsa_status_t (*hsa_agent_get_info)(hsa_agent_t agent, hsa_agent_info_t attribute, void* value);

  hsa_status_t (*hsa_signal_create)(hsa_signal_value_t initial_value, std::uint32_t num_consumers,
                                    const hsa_agent_t* consumers, hsa_signal_t* signal);
  hsa_status_t (*hsa_signal_destroy)(hsa_signal_t signal);
  hsa_signal_value_t (*hsa_signal_load_scacquire)(hsa_signal_t signal);
  void (*hsa_signal_store_screlease)(hsa_signal_t signal, hsa_signal_value_t value);
  void (*hsa_signal_store_relaxed)(hsa_signal_t signal, hsa_signal_value_t value);
  hsa_signal_value_t (*hsa_signal_wait_scacquire)(hsa_signal_t signal, hsa_signal_condition_t condition,
                                                  hsa_signal_value_t compare_value,
                                                  std::uint64_t timeout_hint,
                                                  hsa_wait_state_t wait_state_hint);

  hsa_status_t (*hsa_queue_create)(hsa_agent_t agent, std::uint32_t size, hsa_queue_type32_t type,
                                   QueueErrorCallback callback, void* data,
                                   std::uint32_t private_segment_size, std::uint32_t group_segment_size,
                                   hsa_queue_t** queue);
  hsa_status_t (*hsa_queue_destroy)(hsa_queue_t* queue);
  std::uint64_t (*hsa_queue_load_read_index_scacquire)(const hsa_queue_t* queue);
  std::uint64_t (*hsa_queue_add_write_index_screlease)(const hsa_queue_t* queue, std::uint64_t value);

  hsa_status_t (*hsa_code_object_reader_create_from_memory)(const void* code_object, std::size_t size,
                                                            hsa_code_object_reader_t* code_object_reader);
  hsa_status_t (*hsa_code_object_reader_destroy)(hsa_code_object_reader_t code_object_reader);
  hsa_status_t (*hsa_executable_create_alt)(hsa_profile_t profile,
                                            hsa_default_float_rounding_mode_t default_float_rounding_mode,
                                            const char* options, hsa_executable_t* executable);
  hsa_status_t (*hsa_executable_load_agent_code_object)(hsa_executable_t executable, hsa_agent_t agent,
                                                        hsa_code_object_reader_t code_object_reader,
                                                        const char* options,
                                                        hsa_loaded_code_object_t* loaded_code_object);
  hsa_status_t (*hsa_executable_freeze)(hsa_executable_t executable, const char* options);
  hsa_status_t (*hsa_executable_get_symbol_by_name)(hsa_executable_t executable, const char* symbol_name,
                                                    const hsa_agent_t* agent,
                                                    hsa_executable_symbol_t* symbol);
  hsa_status_t (*hsa_executable_symbol_get_info)(hsa_executable_symbol_t executable_symbol,
                                                 hsa_executable_symbol_info_t attribute, void* value);
  hsa_status_t (*hsa_executable_destroy)(hsa_executable_t executable);

  hsa_status_t (*hsa_amd_agent_iterate_memory_pools)(hsa_agent_t agent, PoolCallback callback, void* data);
  hsa_status_t (*hsa_amd_memory_pool_get_info)(hsa_amd_memory_pool_t memory_pool,
                                               hsa_amd_memory_pool_info_t attribute, void* value);
  hsa_status_t (*hsa_amd_memory_pool_allocate)(hsa_amd_memory_pool_t memory_pool, std::size_t size,
                                               std::uint32_t flags, void** ptr);
  hsa_status_t (*hsa_amd_memory_pool_free)(void* ptr);
  hsa_status_t (*hsa_amd_agents_allow_access)(std::uint32_t num_agents, const hsa_agent_t* agents,
                                              const std::uint32_t* flags, const void* ptr);
  hsa_status_t (*hsa_amd_memory_lock)(void* host_ptr, std::size_t size, hsa_agent_t* agents, int num_agent,
                                      void** agent_ptr);
  hsa_status_t (*hsa_amd_memory_unlock)(void* host_ptr);
  hsa_status_t (*hsa_amd_memory_async_copy)(void* dst, hsa_agent_t dst_agent, const void* src,
                                            hsa_agent_t src_agent, std::size_t size,
                                            std::uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                                            hsa_signal_t completion_signal);
  hsa_status_t (*hsa_amd_profiling_set_profiler_enabled)(hsa_queue_t* queue, int enable);
  hsa_status_t (*hsa_amd_profiling_get_dispatch_time)(hsa_agent_t agent, hsa_signal_t signal,
                                                      hsa_amd_profiling_dispatch_time_t* time);
};

/** Whether hsa-api-check.cpp compared these declarations with ROCr's headers in this build. */
const char* headerCheck();

/** Calls `visit(name, member)` for every entry point, in declaration order. */
template <class Visitor>
void forEachEntryPoint(EntryPoints& points, Visitor&& visit) {
#define KREPLAY_HSA_ENTRY(name) visit(#name, points.name)
  KREPLAY_HSA_ENTRY(hsa_init);
  KREPLAY_HSA_ENTRY(hsa_shut_down);
  KREPLAY_HSA_ENTRY(hsa_status_string);
  KREPLAY_HSA_ENTRY(hsa_system_get_info);
  KREPLAY_HSA_ENTRY(hsa_iterate_agents);
  KREPLAY_HSA_ENTRY(hsa_agent_get_info);
  KREPLAY_HSA_ENTRY(hsa_signal_create);
  KREPLAY_HSA_ENTRY(hsa_signal_destroy);
  KREPLAY_HSA_ENTRY(hsa_signal_load_scacquire);
  KREPLAY_HSA_ENTRY(hsa_signal_store_screlease);
  KREPLAY_HSA_ENTRY(hsa_signal_store_relaxed);
  KREPLAY_HSA_ENTRY(hsa_signal_wait_scacquire);
  KREPLAY_HSA_ENTRY(hsa_queue_create);
  KREPLAY_HSA_ENTRY(hsa_queue_destroy);
  KREPLAY_HSA_ENTRY(hsa_queue_load_read_index_scacquire);
  KREPLAY_HSA_ENTRY(hsa_queue_add_write_index_screlease);
  KREPLAY_HSA_ENTRY(hsa_code_object_reader_create_from_memory);
  KREPLAY_HSA_ENTRY(hsa_code_object_reader_destroy);
  KREPLAY_HSA_ENTRY(hsa_executable_create_alt);
  KREPLAY_HSA_ENTRY(hsa_executable_load_agent_code_object);
  KREPLAY_HSA_ENTRY(hsa_executable_freeze);
  KREPLAY_HSA_ENTRY(hsa_executable_get_symbol_by_name);
  KREPLAY_HSA_ENTRY(hsa_executable_symbol_get_info);
  KREPLAY_HSA_ENTRY(hsa_executable_destroy);
  KREPLAY_HSA_ENTRY(hsa_amd_agent_iterate_memory_pools);
  KREPLAY_HSA_ENTRY(hsa_amd_memory_pool_get_info);
  KREPLAY_HSA_ENTRY(hsa_amd_memory_pool_allocate);
  KREPLAY_HSA_ENTRY(hsa_amd_memory_pool_free);
  KREPLAY_HSA_ENTRY(hsa_amd_agents_allow_access);
  KREPLAY_HSA_ENTRY(hsa_amd_memory_lock);
  KREPLAY_HSA_ENTRY(hsa_amd_memory_unlock);
  KREPLAY_HSA_ENTRY(hsa_amd_memory_async_copy);
  KREPLAY_HSA_ENTRY(hsa_amd_profiling_set_profiler_enabled);
  KREPLAY_HSA_ENTRY(hsa_amd_profiling_get_dispatch_time);
#undef KREPLAY_HSA_ENTRY
}

}  // namespace kreplay::hsa
