// Registers the addon's classes and functions; nothing else happens here.
#include <napi.h>

#include "binding/addon-data.hpp"
#include "binding/address-reservations-binding.hpp"
#include "binding/capture-kernel-name-binding.hpp"
#include "binding/checkpoint-wrap.hpp"
#include "binding/cupti-metric-catalog-binding.hpp"
#include "binding/event-wrap.hpp"
#include "binding/graph-wrap.hpp"
#include "binding/module-image-binding.hpp"
#include "binding/open-runtime.hpp"
#include "binding/profiler-wrap.hpp"
#include "binding/queue-wrap.hpp"
#include "binding/runtime-wrap.hpp"

namespace kreplay::binding {

Napi::Object initialize(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  data->runtimeConstructor = Napi::Persistent(RuntimeWrap::define(env));
  data->queueConstructor = Napi::Persistent(QueueWrap::define(env));
  data->eventConstructor = Napi::Persistent(EventWrap::define(env));
  data->graphConstructor = Napi::Persistent(GraphWrap::define(env));
  data->checkpointConstructor = Napi::Persistent(CheckpointWrap::define(env));
  data->profilerConstructor = Napi::Persistent(ProfilerWrap::define(env));
  env.SetInstanceData<AddonData>(data);

  exports.Set("version", Napi::String::New(env, KREPLAY_VERSION));
  exports.Set("openRuntime", Napi::Function::New<openRuntime>(env, "openRuntime"));
  exports.Set("reserveAddresses", Napi::Function::New<reserveAddresses>(env, "reserveAddresses"));
  exports.Set("planCuptiMetrics", Napi::Function::New<planCuptiMetrics>(env, "planCuptiMetrics"));
  exports.Set("queryCuptiMetrics", Napi::Function::New<queryCuptiMetrics>(env, "queryCuptiMetrics"));
  exports.Set("readModuleImage", Napi::Function::New<readModuleImage>(env, "readModuleImage"));
  exports.Set("kernelNamePatternProblem",
              Napi::Function::New<kernelNamePatternProblem>(env, "kernelNamePatternProblem"));
  exports.Set("kernelNames", Napi::Function::New<kernelNames>(env, "kernelNames"));
  exports.Set("kernelNameFilterMatches", Napi::Function::New<kernelNameFilterMatches>(env, "kernelNameFilterMatches"));
  return exports;
}

}  // namespace kreplay::binding

namespace {

Napi::Object initializeAddon(Napi::Env env, Napi::Object exports) {
  return kreplay::binding::initialize(env, exports);
}

}  // namespace

NODE_API_MODULE(kreplay, initializeAddon)
