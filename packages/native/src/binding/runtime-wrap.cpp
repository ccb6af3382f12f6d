#include "binding/runtime-wrap.hpp"

#include <cstdlib>
#include <cstring>

#include "binding/addon-data.hpp"
#include "binding/checkpoint-wrap.hpp"
#include "binding/convert.hpp"
#include "binding/profiler-wrap.hpp"
#include "binding/promise-worker.hpp"
#include "binding/graph-wrap.hpp"
#include "binding/queue-wrap.hpp"

namespace kreplay::binding {

namespace {

std::uint32_t agentOf(const Napi::Value& value) {
  return static_cast<std::uint32_t>(toUint64(value));
}

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

// memoryInfo(agent) -> { freeBytes, totalBytes }
Napi::Value RuntimeWrap::memoryInfo(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  const MemoryInfo memory = driverCall(info.Env(), [&] { return driver_->memoryInfo(agentOf(info[0])); });
  Napi::Object object = Napi::Object::New(info.Env());
  object.Set("freeBytes", static_cast<double>(memory.freeBytes));
  object.Set("totalBytes", static_cast<double>(memory.totalBytes));
  return object;
}

// allocate(agent, bytes) -> { address, injectedFault, availableBytes }
Napi::Value RuntimeWrap::allocate(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const AllocationResult result =
      driverCall(info.Env(), [&] { return driver_->allocate(agentOf(info[0]), toUint64(info[1])); });
  return allocationResultObject(info.Env(), result);
}

// free(agent, address)
Napi::Value RuntimeWrap::free(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  driverCall(info.Env(), [&] { driver_->free(agentOf(info[0]), toUint64(info[1])); });
  return info.Env().Undefined();
}

// allocateHost(bytes, pinned) -> address (0: out of memory)
Napi::Value RuntimeWrap::allocateHost(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const std::uint64_t bytes = toUint64(info[0]);
  const bool pinned = info[1].ToBoolean();
  const std::uint64_t address = driverCall(info.Env(), [&] { return driver_->allocateHost(bytes, pinned); });
  if (address != 0) {
    externalBytes_ += static_cast<std::int64_t>(bytes);
    Napi::MemoryManagement::AdjustExternalMemory(info.Env(), static_cast<std::int64_t>(bytes));
  }
  return Napi::Number::New(info.Env(), static_cast<double>(address));
}

// freeHost(address, bytes)
Napi::Value RuntimeWrap::freeHost(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  driverCall(info.Env(), [&] { driver_->freeHost(toUint64(info[0])); });
  const auto bytes = static_cast<std::int64_t>(toUint64(info[1]));
  externalBytes_ -= bytes;
  Napi::MemoryManagement::AdjustExternalMemory(info.Env(), -bytes);
  return info.Env().Undefined();
}

// hostView(address, bytes) -> ArrayBuffer over the live bytes; detach it (detachView) before freeing.
// The view keeps the driver alive, so a view that outlives a garbage-collected runtime never dangles.
Napi::Value RuntimeWrap::hostView(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  auto* keepAlive = new std::shared_ptr<Driver>(driver_);
  return Napi::ArrayBuffer::New(
      info.Env(), pointerOf(toUint64(info[0])), static_cast<std::size_t>(toUint64(info[1])),
      [](Napi::Env, void*, std::shared_ptr<Driver>* driver) { delete driver; }, keepAlive);
}

// detachView(view: ArrayBuffer)
Napi::Value RuntimeWrap::detachView(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  if (info[0].IsArrayBuffer()) {
    Napi::ArrayBuffer view = info[0].As<Napi::ArrayBuffer>();
    if (!view.IsDetached()) view.Detach();
  }
  return info.Env().Undefined();
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

// createGraph(agent, steps: graph steps, see toGraphSteps) -> NativeGraph | { code, message }: the
// driver's graph of the steps, or why it could not make it.
Napi::Value RuntimeWrap::createGraph(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const Napi::Env env = info.Env();
  std::vector<GraphStep> steps = toGraphSteps(info[1]);
  try {
    return GraphWrap::wrap(env, driver_->createGraph(agentOf(info[0]), std::move(steps)));
  } catch (const OperationFailure& failure) {
    Napi::Object object = Napi::Object::New(env);
    object.Set("code", failure.code());
    object.Set("message", failure.what());
    return object;
  } catch (const std::exception& error) {
    Napi::Object object = Napi::Object::New(env);
    object.Set("code", "internal");
    object.Set("message", error.what());
    return object;
  }
}

// loadKernel(image: Uint8Array, name, parameterBytes: Uint8Array) -> Promise<number | { code, message }>:
// the kernel's id, or why the driver could not load it. The image is copied now; loading (a JIT
// compile for PTX) runs off the JavaScript thread.
Napi::Value RuntimeWrap::loadKernel(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  std::size_t imageBytes = 0;
  const std::uint8_t* image = typedArrayBytes(info[0], imageBytes);
  auto copied = std::make_shared<std::vector<std::uint8_t>>(image, image + imageBytes);
  const std::string name = info[1].As<Napi::String>().Utf8Value();
  std::size_t parameterCount = 0;
  const std::uint8_t* sizes = typedArrayBytes(info[2], parameterCount);
  std::vector<std::uint8_t> parameterBytes(sizes, sizes + parameterCount);
  struct Loaded {
    std::int64_t id = -1;
    std::string code;
    std::string message;
  };
  auto driver = driver_;
  return PromiseWorker<Loaded>::start(
      info.Env(), "kreplay:load-kernel",
      [driver, copied, name, parameterBytes] {
        try {
          return Loaded{driver->loadUserKernel(*copied, name, parameterBytes), "", ""};
        } catch (const OperationFailure& failure) {
          return Loaded{-1, failure.code(), failure.what()};
        }
      },
      [](Napi::Env env, Loaded& loaded) -> Napi::Value {
        if (loaded.id >= 0) return Napi::Number::New(env, static_cast<double>(loaded.id));
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("code", loaded.code);
        failure.Set("message", loaded.message);
        return failure;
      });
}

namespace {

/** What a call that can fail for a reason of its own resolves to: null, or { code, message }. */
struct Outcome {
  std::string code;
  std::string message;
};

template <typename Body>
Outcome outcomeOf(Body body) {
  try {
    body();
    return {};
  } catch (const OperationFailure& failure) {
    return {failure.code(), failure.what()};
  } catch (const std::exception& error) {
    return {"internal", error.what()};
  }
}

Napi::Value outcomeValue(Napi::Env env, const Outcome& outcome) {
  if (outcome.code.empty()) return env.Null();
  Napi::Object failure = Napi::Object::New(env);
  failure.Set("code", outcome.code);
  failure.Set("message", outcome.message);
  return failure;
}

}  // namespace

// allocateAt(agent, address, bytes) -> Promise<null | { code, message }>: device memory at exactly
// that address (mapping it may take a while, so off the JavaScript thread); freed by free().
Napi::Value RuntimeWrap::allocateAt(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const std::uint32_t agent = agentOf(info[0]);
  const std::uint64_t address = toUint64(info[1]);
  const std::uint64_t bytes = toUint64(info[2]);
  auto driver = driver_;
  return PromiseWorker<Outcome>::start(
      info.Env(), "kreplay:allocate-at",
      [driver, agent, address, bytes] { return outcomeOf([&] { driver->allocateAt(agent, address, bytes); }); },
      [](Napi::Env env, Outcome& outcome) { return outcomeValue(env, outcome); });
}

// allocateHostAt(address, bytes) -> Promise<null | { code, message }>: pinned host memory at exactly
// that address; freed by freeHost().
Napi::Value RuntimeWrap::allocateHostAt(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const std::uint64_t address = toUint64(info[0]);
  const std::uint64_t bytes = toUint64(info[1]);
  auto driver = driver_;
  auto* self = this;
  return PromiseWorker<Outcome>::start(
      info.Env(), "kreplay:allocate-host-at",
      [driver, address, bytes] { return outcomeOf([&] { driver->allocateHostAt(address, bytes); }); },
      [self, bytes](Napi::Env env, Outcome& outcome) {
        if (outcome.code.empty()) {  // freeHost reports the bytes freed, as for allocateHost
          self->externalBytes_ += static_cast<std::int64_t>(bytes);
          Napi::MemoryManagement::AdjustExternalMemory(env, static_cast<std::int64_t>(bytes));
        }
        return outcomeValue(env, outcome);
      });
}

// kernelGlobal(kernel, agent, name) -> { address, bytes } | { code, message }
Napi::Value RuntimeWrap::kernelGlobal(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const auto kernel = static_cast<std::uint32_t>(toUint64(info[0]));
  const std::uint32_t agent = agentOf(info[1]);
  const std::string name = info[2].As<Napi::String>().Utf8Value();
  Range range{0, 0};
  const Outcome outcome = outcomeOf([&] { range = driver_->kernelGlobal(kernel, agent, name); });
  if (!outcome.code.empty()) return outcomeValue(info.Env(), outcome);
  Napi::Object object = Napi::Object::New(info.Env());
  object.Set("address", static_cast<double>(range.address));
  object.Set("bytes", static_cast<double>(range.bytes));
  return object;
}

// read(agent, address, bytes) -> Promise<Uint8Array>, after the agent's queued work.
Napi::Value RuntimeWrap::read(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const std::uint32_t agent = agentOf(info[0]);
  const std::uint64_t address = toUint64(info[1]);
  const std::uint64_t bytes = toUint64(info[2]);
  auto driver = driver_;
  auto fence = driver_->agentFence(agent);
  struct Bytes {
    std::uint8_t* data = nullptr;
    std::uint64_t length = 0;
  };
  return PromiseWorker<Bytes>::start(
      info.Env(), "kreplay:agent-read",
      [driver, fence, agent, address, bytes] {
        fence();
        auto* data = static_cast<std::uint8_t*>(std::malloc(bytes > 0 ? bytes : 1));
        if (!data) throw std::bad_alloc();
        driver->read(agent, address, bytes, data);
        return Bytes{data, bytes};
      },
      [](Napi::Env env, Bytes& result) -> Napi::Value {
        auto buffer = Napi::ArrayBuffer::New(env, result.data, result.length,
                                             [](Napi::Env, void* data) { std::free(data); });
        result.data = nullptr;
        return Napi::Uint8Array::New(env, result.length, buffer, 0);
      });
}

// write(agent, address, data: Uint8Array) -> Promise<void>; the bytes are copied now.
Napi::Value RuntimeWrap::write(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const std::uint32_t agent = agentOf(info[0]);
  const std::uint64_t address = toUint64(info[1]);
  std::size_t length = 0;
  const std::uint8_t* source = typedArrayBytes(info[2], length);
  auto data = std::make_shared<std::vector<std::uint8_t>>(source, source + length);
  auto driver = driver_;
  auto fence = driver_->agentFence(agent);
  return PromiseWorker<Nothing>::start(
      info.Env(), "kreplay:agent-write",
      [driver, fence, agent, address, data] {
        fence();
        driver->write(agent, address, data->data(), data->size());
        return Nothing{};
      },
      resolveUndefined);
}

// checkpointUnavailableReason() -> string | null: why checkpoints cannot be taken (loads CUPTI once).
Napi::Value RuntimeWrap::checkpointUnavailableReason(const Napi::CallbackInfo& info) {
  const std::string reason = driverCall(info.Env(), [&] { return driver_->checkpointUnavailableReason(); });
  return reason.empty() ? info.Env().Null() : Napi::String::New(info.Env(), reason);
}

// openCheckpoint(queue: NativeQueue) -> Promise<NativeCheckpoint | { code, message }>: CUPTI is
// loaded off the JavaScript thread.
Napi::Value RuntimeWrap::openCheckpoint(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  auto queue = QueueWrap::queueOf(info.Env(), info[0]);
  if (!queue)
    throw Napi::TypeError::New(info.Env(), "[native] [binding] openCheckpoint needs a NativeQueue.");
  struct Opened {
    std::shared_ptr<CheckpointSession> session;
    std::string code;
    std::string message;
  };
  auto driver = driver_;
  auto completions = completions_;
  return PromiseWorker<Opened>::start(
      info.Env(), "kreplay:open-checkpoint",
      [driver, queue] {
        try {
          return Opened{driver->openCheckpoint(queue), "", ""};
        } catch (const OperationFailure& failure) {
          return Opened{nullptr, failure.code(), failure.what()};
        }
      },
      [completions](Napi::Env env, Opened& opened) -> Napi::Value {
        if (opened.session) return CheckpointWrap::wrap(env, {opened.session, completions});
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("code", opened.code);
        failure.Set("message", opened.message);
        return failure;
      });
}

// profilerUnavailableReason() -> string | null: why counters cannot be collected (loads CUPTI once).
Napi::Value RuntimeWrap::profilerUnavailableReason(const Napi::CallbackInfo& info) {
  const std::string reason = driverCall(info.Env(), [&] { return driver_->profilerUnavailableReason(); });
  return reason.empty() ? info.Env().Null() : Napi::String::New(info.Env(), reason);
}

// profilerChipName(agent) -> string | { code, message }: the chip CUPTI knows the agent by.
Napi::Value RuntimeWrap::profilerChipName(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  const std::uint32_t agent = agentOf(info[0]);
  try {
    return Napi::String::New(info.Env(), driver_->profilerChipName(agent));
  } catch (const OperationFailure& failure) {
    Napi::Object object = Napi::Object::New(info.Env());
    object.Set("code", failure.code());
    object.Set("message", failure.what());
    return object;
  }
}

// createProfiler(agent, metrics: string[], range: 'kernel' | 'dispatch', l2Flush: 'write-discard' | 'read' |
// 'none', instructionCache: 'evict' | 'keep') -> Promise<NativeProfiler | { code, message }>: CUPTI's
// plan (config image, passes) is computed off the JavaScript thread. profiler.ts validated the choices.
Napi::Value RuntimeWrap::createProfiler(const Napi::CallbackInfo& info) {
  requireArguments(info, 5);
  const std::uint32_t agent = agentOf(info[0]);
  const std::vector<std::string> metrics = toStrings(info[1]);
  const ProfilerRange range =
      info[2].ToString().Utf8Value() == "dispatch" ? ProfilerRange::Dispatch : ProfilerRange::Kernel;
  const std::string flush = info[3].ToString().Utf8Value();
  ProfilerConditions conditions;
  conditions.l2Flush = flush == "read" ? L2Flush::Read : flush == "none" ? L2Flush::None : L2Flush::WriteDiscard;
  conditions.evictInstructionCaches = info[4].ToString().Utf8Value() == "evict";
  struct Created {
    std::shared_ptr<ProfilerSession> session;
    std::string code;
    std::string message;
  };
  auto driver = driver_;
  return PromiseWorker<Created>::start(
      info.Env(), "kreplay:create-profiler",
      [driver, agent, metrics, range, conditions] {
        try {
          return Created{driver->createProfilerSession(agent, metrics, range, conditions), "", ""};
        } catch (const OperationFailure& failure) {
          return Created{nullptr, failure.code(), failure.what()};
        }
      },
      [](Napi::Env env, Created& created) -> Napi::Value {
        if (created.session) return ProfilerWrap::wrap(env, created.session);
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("code", created.code);
        failure.Set("message", created.message);
        return failure;
      });
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
