#include "binding/runtime-wrap.hpp"

#include "binding/addon-data.hpp"
#include "binding/convert.hpp"
#include "binding/operation-outcome.hpp"
#include "binding/promise-worker.hpp"
#include "binding/queue-wrap.hpp"

namespace kreplay::binding {

namespace {

Napi::Object describeAgent(Napi::Env env, const AgentDescription& agent) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("name", agent.name);
  object.Set("architecture", agent.architecture);
  object.Set("deviceMemoryBytes", static_cast<double>(agent.deviceMemoryBytes));
  if (agent.hasHostLink) {
    Napi::Object link = Napi::Object::New(env);
    link.Set("name", agent.hostLink.name);
    link.Set("bytesPerSecond", agent.hostLink.bytesPerSecond < 0
                                   ? env.Null()
                                   : Napi::Number::New(env, agent.hostLink.bytesPerSecond));
    object.Set("hostLink", link);
  } else {
    object.Set("hostLink", env.Null());
  }
  return object;
}

}  // namespace

Napi::Function RuntimeWrap::define(Napi::Env env) {
  return DefineClass(
      env, "NativeRuntime",
      {
          InstanceMethod<&RuntimeWrap::describe>("describe"),
          InstanceMethod<&RuntimeWrap::allocate>("allocate"),
          InstanceMethod<&RuntimeWrap::memoryInfo>("memoryInfo"),
          InstanceMethod<&RuntimeWrap::free>("free"),
          InstanceMethod<&RuntimeWrap::allocateHost>("allocateHost"),
          InstanceMethod<&RuntimeWrap::freeHost>("freeHost"),
          InstanceMethod<&RuntimeWrap::hostView>("hostView"),
          InstanceMethod<&RuntimeWrap::detachView>("detachView"),
          InstanceMethod<&RuntimeWrap::injectFault>("injectFault"),
          InstanceMethod<&RuntimeWrap::clearFaults>("clearFaults"),
          InstanceMethod<&RuntimeWrap::createQueue>("createQueue"),
          InstanceMethod<&RuntimeWrap::createGraph>("createGraph"),
          InstanceMethod<&RuntimeWrap::loadKernel>("loadKernel"),
          InstanceMethod<&RuntimeWrap::allocateAt>("allocateAt"),
          InstanceMethod<&RuntimeWrap::allocateHostAt>("allocateHostAt"),
          InstanceMethod<&RuntimeWrap::kernelGlobal>("kernelGlobal"),
          InstanceMethod<&RuntimeWrap::kernelRegisters>("kernelRegisters"),
          InstanceMethod<&RuntimeWrap::read>("read"),
          InstanceMethod<&RuntimeWrap::write>("write"),
          InstanceMethod<&RuntimeWrap::checkpointUnavailableReason>("checkpointUnavailableReason"),
          InstanceMethod<&RuntimeWrap::openCheckpoint>("openCheckpoint"),
          InstanceMethod<&RuntimeWrap::profilerUnavailableReason>("profilerUnavailableReason"),
          InstanceMethod<&RuntimeWrap::profilerChipName>("profilerChipName"),
          InstanceMethod<&RuntimeWrap::createProfiler>("createProfiler"),
          InstanceMethod<&RuntimeWrap::dispose>("dispose"),
      });
}

Napi::Object RuntimeWrap::wrap(Napi::Env env, const std::shared_ptr<Driver>& driver) {
  auto owned = driver;
  return addonData(env).runtimeConstructor.New({Napi::External<std::shared_ptr<Driver>>::New(env, &owned)});
}

RuntimeWrap::RuntimeWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<RuntimeWrap>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(), "[native] [binding] NativeRuntime is created by openRuntime().");
  }
  driver_ = *info[0].As<Napi::External<std::shared_ptr<Driver>>>().Data();
  completions_ = CompletionChannel::create(info.Env());
}

// describe() -> { driver, version, agents: [{ name, architecture, deviceMemoryBytes, hostLink }],
//   userKernels, checkpoints, profiler }
Napi::Value RuntimeWrap::describe(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  Napi::Object object = Napi::Object::New(env);
  object.Set("driver", driver_->name());
  object.Set("version", driver_->version());
  Napi::Array agents = Napi::Array::New(env, driver_->agents().size());
  for (std::size_t index = 0; index < driver_->agents().size(); ++index) {
    agents.Set(static_cast<std::uint32_t>(index), describeAgent(env, driver_->agents()[index]));
  }
  object.Set("agents", agents);
  object.Set("userKernels", driver_->runsUserKernels());
  object.Set("checkpoints", driver_->offersCheckpoints());
  object.Set("fixedAddresses", driver_->offersFixedAddresses());
  object.Set("profiler", driver_->offersProfiler());
  object.Set("graphs", driver_->runsGraphs());
  return object;
}

// injectFault(operation, after, count, agentId (-1: any), delayMilliseconds (-1: fail))
Napi::Value RuntimeWrap::injectFault(const Napi::CallbackInfo& info) {
  requireArguments(info, 5);
  driver_->faults().add({static_cast<OperationKind>(info[0].As<Napi::Number>().Int32Value()),
                         toUint64(info[1]), toUint64(info[2]), info[3].As<Napi::Number>().Int64Value(),
                         info[4].As<Napi::Number>().DoubleValue()});
  return info.Env().Undefined();
}

Napi::Value RuntimeWrap::clearFaults(const Napi::CallbackInfo& info) {
  driver_->faults().clear();
  return info.Env().Undefined();
}

// createQueue(agent) -> NativeQueue
Napi::Value RuntimeWrap::createQueue(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  auto queue = driverCall(info.Env(), [&] { return driver_->createQueue(agentOf(info[0])); });
  return QueueWrap::wrap(info.Env(), {std::move(queue), completions_});
}

// dispose() -> Promise<void>: drains and stops every queue, frees all memory, joins the threads.
Napi::Value RuntimeWrap::dispose(const Napi::CallbackInfo& info) {
  Napi::MemoryManagement::AdjustExternalMemory(info.Env(), -externalBytes_);
  externalBytes_ = 0;
  auto driver = driver_;
  return PromiseWorker<Nothing>::start(
      info.Env(), "kreplay:runtime-dispose",
      [driver] {
        driver->shutdown();
        return Nothing{};
      },
      resolveUndefined);
}

}  // namespace kreplay::binding
