// The fake ROCr (fake-hsa.hpp) as a shared library, build/tests/fake-hsa/libhsa-runtime64.so.1, that
// exports the HSA entry points under their C names: with KREPLAY_HSA_LIBRARY set to it, the addon's
// hsa driver opens on it, so the TypeScript conformance kit runs on the hsa driver here
// (`pnpm --filter @kreplay/native test:fake-hsa`). Not part of the test program.
#include <cstdlib>

#include "drivers/hsa/test/fake-hsa.hpp"

using namespace kreplay::hsa;

namespace {

/** The fake's entry points; KREPLAY_FAKE_HSA_GPUS sets how many GPU agents it has (default 1). */
const EntryPoints& api() {
  static const std::unique_ptr<HsaRuntime> runtime = [] {
    const char* gpus = std::getenv("KREPLAY_FAKE_HSA_GPUS");
    test::FakeHsa::reset("gfx90a", 64, gpus && *gpus ? static_cast<std::uint32_t>(std::atoi(gpus)) : 1);
    return test::FakeHsa::runtime();
  }();
  return runtime->api();
}

}  // namespace

#define KREPLAY_EXPORT extern "C" __attribute__((visibility("default")))

// clang-format off
KREPLAY_EXPORT hsa_status_t hsa_init() { return api().hsa_init(); }
KREPLAY_EXPORT hsa_status_t hsa_shut_down() { return api().hsa_shut_down(); }
KREPLAY_EXPORT hsa_status_t hsa_status_string(hsa_status_t s, const char** t) { return api().hsa_status_string(s, t); }
KREPLAY_EXPORT hsa_status_t hsa_system_get_info(hsa_system_info_t a, void* v) { return api().hsa_system_get_info(a, v); }
KREPLAY_EXPORT hsa_status_t hsa_iterate_agents(AgentCallback c, void* d) { return api().hsa_iterate_agents(c, d); }
KREPLAY_EXPORT hsa_status_t hsa_agent_get_info(hsa_agent_t g, hsa_agent_info_t a, void* v) { return api().hsa_agent_get_info(g, a, v); }
KREPLAY_EXPORT hsa_status_t hsa_signal_create(hsa_signal_value_t i, std::uint32_t n, const hsa_agent_t* c, hsa_signal_t* s) { return api().hsa_signal_create(i, n, c, s); }
KREPLAY_EXPORT hsa_status_t hsa_signal_destroy(hsa_signal_t s) { return api().hsa_signal_destroy(s); }
KREPLAY_EXPORT hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t s) { return api().hsa_signal_load_scacquire(s); }
KREPLAY_EXPORT void hsa_signal_store_screlease(hsa_signal_t s, hsa_signal_value_t v) { api().hsa_signal_store_screlease(s, v); }
KREPLAY_EXPORT void hsa_signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) { api().hsa_signal_store_relaxed(s, v); }
KREPLAY_EXPORT hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v, std::uint64_t t, hsa_wait_state_t w) { return api().hsa_signal_wait_scacquire(s, c, v, t, w); }
KREPLAY_EXPORT hsa_status_t hsa_queue_create(hsa_agent_t g, std::uint32_t n, hsa_queue_type32_t t, QueueErrorCallback c, void* d, std::uint32_t p, std::uint32_t r, hsa_queue_t** q) { return api().hsa_queue_create(g, n, t, c, d, p, r, q); }
KREPLAY_EXPORT hsa_status_t hsa_queue_destroy(hsa_queue_t* q) { return api().hsa_queue_destroy(q); }
KREPLAY_EXPORT std::uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t* q) { return api().hsa_queue_load_read_index_scacquire(q); }
KREPLAY_EXPORT std::uint64_t hsa_queue_add_write_index_screlease(const hsa_queue_t* q, std::uint64_t v) { return api().hsa_queue_add_write_index_screlease(q, v); }
KREPLAY_EXPORT hsa_status_t hsa_code_object_reader_create_from_memory(const void* o, std::size_t n, hsa_code_object_reader_t* r) { return api().hsa_code_object_reader_create_from_memory(o, n, r); }
KREPLAY_EXPORT hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t r) { return api().hsa_code_object_reader_destroy(r); }
KREPLAY_EXPORT hsa_status_t hsa_executable_create_alt(hsa_profile_t p, hsa_default_float_rounding_mode_t m, const char* o, hsa_executable_t* e) { return api().hsa_executable_create_alt(p, m, o, e); }
KREPLAY_EXPORT hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t e, hsa_agent_t g, hsa_code_object_reader_t r, const char* o, hsa_loaded_code_object_t* l) { return api().hsa_executable_load_agent_code_object(e, g, r, o, l); }
KREPLAY_EXPORT hsa_status_t hsa_executable_freeze(hsa_executable_t e, const char* o) { return api().hsa_executable_freeze(e, o); }
KREPLAY_EXPORT hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t e, const char* n, const hsa_agent_t* g, hsa_executable_symbol_t* s) { return api().hsa_executable_get_symbol_by_name(e, n, g, s); }
KREPLAY_EXPORT hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a, void* v) { return api().hsa_executable_symbol_get_info(s, a, v); }
KREPLAY_EXPORT hsa_status_t hsa_executable_destroy(hsa_executable_t e) { return api().hsa_executable_destroy(e); }
KREPLAY_EXPORT hsa_status_t hsa_amd_agent_iterate_memory_pools(hsa_agent_t g, PoolCallback c, void* d) { return api().hsa_amd_agent_iterate_memory_pools(g, c, d); }
KREPLAY_EXPORT hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t p, hsa_amd_memory_pool_info_t a, void* v) { return api().hsa_amd_memory_pool_get_info(p, a, v); }
KREPLAY_EXPORT hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t p, std::size_t n, std::uint32_t f, void** r) { return api().hsa_amd_memory_pool_allocate(p, n, f, r); }
KREPLAY_EXPORT hsa_status_t hsa_amd_memory_pool_free(void* p) { return api().hsa_amd_memory_pool_free(p); }
KREPLAY_EXPORT hsa_status_t hsa_amd_agents_allow_access(std::uint32_t n, const hsa_agent_t* g, const std::uint32_t* f, const void* p) { return api().hsa_amd_agents_allow_access(n, g, f, p); }
KREPLAY_EXPORT hsa_status_t hsa_amd_memory_lock(void* h, std::size_t n, hsa_agent_t* g, int c, void** p) { return api().hsa_amd_memory_lock(h, n, g, c, p); }
KREPLAY_EXPORT hsa_status_t hsa_amd_memory_unlock(void* h) { return api().hsa_amd_memory_unlock(h); }
KREPLAY_EXPORT hsa_status_t hsa_amd_memory_async_copy(void* d, hsa_agent_t dg, const void* s, hsa_agent_t sg, std::size_t n, std::uint32_t c, const hsa_signal_t* w, hsa_signal_t o) { return api().hsa_amd_memory_async_copy(d, dg, s, sg, n, c, w, o); }
KREPLAY_EXPORT hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* q, int e) { return api().hsa_amd_profiling_set_profiler_enabled(q, e); }
KREPLAY_EXPORT hsa_status_t hsa_amd_profiling_get_dispatch_time(hsa_agent_t g, hsa_signal_t s, hsa_amd_profiling_dispatch_time_t* t) { return api().hsa_amd_profiling_get_dispatch_time(g, s, t); }
// clang-format on
