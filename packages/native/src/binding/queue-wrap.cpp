#include "binding/queue-wrap.hpp"

#include <atomic>

#include "binding/addon-data.hpp"
#include "binding/convert.hpp"
#include "binding/event-wrap.hpp"
#include "binding/graph-wrap.hpp"
#include "binding/promise-worker.hpp"

namespace kreplay::binding {

Napi::Function QueueWrap::define(Napi::Env env) {
  return DefineClass(env, "NativeQueue",
                     {
                         InstanceMethod<&QueueWrap::enqueueCopy>("enqueueCopy"),
                         InstanceMethod<&QueueWrap::enqueueHash>("enqueueHash"),
                         InstanceMethod<&QueueWrap::enqueueHashToHost>("enqueueHashToHost"),
                         InstanceMethod<&QueueWrap::enqueueConditionalCopy>("enqueueConditionalCopy"),
                         InstanceMethod<&QueueWrap::enqueuePageListCopy>("enqueuePageListCopy"),
                         InstanceMethod<&QueueWrap::enqueueKernel>("enqueueKernel"),
                         InstanceMethod<&QueueWrap::enqueueUserKernel>("enqueueUserKernel"),
                         InstanceMethod<&QueueWrap::enqueueGraph>("enqueueGraph"),
                         InstanceMethod<&QueueWrap::enqueueAllocate>("enqueueAllocate"),
                         InstanceMethod<&QueueWrap::enqueueFree>("enqueueFree"),
                         InstanceMethod<&QueueWrap::recordEvent>("recordEvent"),
                         InstanceMethod<&QueueWrap::waitForEvent>("waitForEvent"),
                         InstanceMethod<&QueueWrap::synchronize>("synchronize"),
                         InstanceMethod<&QueueWrap::dispose>("dispose"),
                     });
}

Napi::Object QueueWrap::wrap(Napi::Env env, Parts parts) {
  return addonData(env).queueConstructor.New({Napi::External<Parts>::New(env, &parts)});
}

QueueWrap::QueueWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<QueueWrap>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(),
                               "[native] [binding] NativeQueue is created by NativeRuntime.createQueue().");
  }
  const Parts& parts = *info[0].As<Napi::External<Parts>>().Data();
  queue_ = parts.queue;
  completions_ = parts.completions;
}

std::shared_ptr<Queue> QueueWrap::queueOf(Napi::Env env, const Napi::Value& value) {
  if (!value.IsObject()) return nullptr;
  Napi::Object object = value.As<Napi::Object>();
  if (!object.InstanceOf(addonData(env).queueConstructor.Value())) return nullptr;
  return QueueWrap::Unwrap(object)->queue_;
}

namespace {

/** Who finished first: the queue (completed) or the synchronize call (returned). */
struct SynchronizeState {
  static constexpr int kCalling = 0;
  static constexpr int kCompleted = 1;
  static constexpr int kReturned = 2;
  std::atomic<int> step{kCalling};
  std::optional<OperationError> error;
};

void settleSynchronize(Napi::Env env, const Napi::Promise::Deferred& deferred,
                       const std::optional<OperationError>& error) {
  if (!error) {
    deferred.Resolve(env.Null());
    return;
  }
  Napi::Object object = Napi::Object::New(env);
  object.Set("operation", error->operation);
  object.Set("code", error->code);
  object.Set("message", error->message);
  object.Set("workIndex", static_cast<double>(error->workIndex));
  deferred.Resolve(object);
}

}  // namespace

Napi::Object allocationResultObject(Napi::Env env, const AllocationResult& result) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("address", static_cast<double>(result.address));
  object.Set("injectedFault", result.injectedFault);
  object.Set("availableBytes", static_cast<double>(result.availableBytes));
  return object;
}

// enqueueCopy(segments: Float64Array)
Napi::Value QueueWrap::enqueueCopy(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  queue_->enqueueCopy(toSegments(info[0]));
  return info.Env().Undefined();
}

// enqueueHash(ranges: Float64Array, pageBytes, hashesAddress)
Napi::Value QueueWrap::enqueueHash(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  queue_->enqueueHash(toRanges(info[0]), toUint64(info[1]), toUint64(info[2]));
  return info.Env().Undefined();
}

// enqueueHashToHost(ranges: Float64Array, pageBytes, hashes: BigUint64Array kept alive by the caller)
Napi::Value QueueWrap::enqueueHashToHost(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  std::size_t byteLength = 0;
  std::uint8_t* hashes = typedArrayBytes(info[2], byteLength);
  queue_->enqueueHashToHost(toRanges(info[0]), toUint64(info[1]), hashes);
  return info.Env().Undefined();
}

// enqueueConditionalCopy(segments: Float64Array,
//   [pageBytes, hashDestination, storedHashesAddress, updateStoredHashes, pageListAddress, pageCountAddress])
Napi::Value QueueWrap::enqueueConditionalCopy(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  std::size_t byteLength = 0;
  const auto* p = reinterpret_cast<const double*>(typedArrayBytes(info[1], byteLength));
  if (byteLength < 6 * sizeof(double))
    throw Napi::TypeError::New(info.Env(), "[native] [binding] expected 6 options.");
  queue_->enqueueConditionalCopy({toSegments(info[0]), static_cast<std::uint64_t>(p[0]), p[1] != 0,
                                  static_cast<std::uint64_t>(p[2]), p[3] != 0,
                                  static_cast<std::uint64_t>(p[4]), static_cast<std::uint64_t>(p[5])});
  return info.Env().Undefined();
}

// enqueuePageListCopy(segments: Float64Array, pageBytes, pageListAddress, pageCountAddress,
//   storedHashesAddress (0: none), compactAddress (0: none), compactPages, compactIsDestination (0 or 1))
Napi::Value QueueWrap::enqueuePageListCopy(const Napi::CallbackInfo& info) {
  requireArguments(info, 8);
  const CompactPages compact{toUint64(info[5]), toUint64(info[6]), toUint64(info[7]) != 0};
  queue_->enqueuePageListCopy({toSegments(info[0]), toUint64(info[1]), toUint64(info[2]), toUint64(info[3]),
                               toUint64(info[4]), compact});
  return info.Env().Undefined();
}

// enqueueKernel(kernel: number, arguments: BigUint64Array)
Napi::Value QueueWrap::enqueueKernel(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const int kernel = info[0].As<Napi::Number>().Int32Value();
  std::vector<std::uint64_t> arguments = toWords(info[1]);
  const std::size_t expected = builtinKernelArgumentCount(kernel);
  if (expected == 0 || arguments.size() != expected) {
    throw Napi::TypeError::New(info.Env(), "[native] [binding] unknown kernel or wrong argument count.");
  }
  queue_->enqueueKernel(static_cast<BuiltinKernel>(kernel), std::move(arguments));
  return info.Env().Undefined();
}

// enqueueUserKernel(kernel: number (from loadKernel), shape: Uint32Array [grid x y z, block x y z,
//   sharedBytes, cluster x y z (0: none)], arguments: BigUint64Array, buffer?: Uint8Array (the raw
//   parameter buffer, passed instead of the words when given))
Napi::Value QueueWrap::enqueueUserKernel(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const auto kernel = static_cast<std::uint32_t>(toUint64(info[0]));
  std::size_t shapeBytes = 0;
  const auto* words = reinterpret_cast<const std::uint32_t*>(typedArrayBytes(info[1], shapeBytes));
  if (shapeBytes < 10 * sizeof(std::uint32_t))
    throw Napi::TypeError::New(info.Env(), "[native] [binding] expected a launch shape of 10 numbers.");
  const LaunchShape shape{
      {words[0], words[1], words[2]}, {words[3], words[4], words[5]}, words[6], {words[7], words[8], words[9]}};
  UserKernelArguments arguments;
  arguments.words = toWords(info[2]);
  if (info.Length() > 3 && info[3].IsTypedArray()) {
    std::size_t length = 0;
    const std::uint8_t* buffer = typedArrayBytes(info[3], length);
    arguments.buffer.assign(buffer, buffer + length);
  }
  driverCall(info.Env(), [&] { queue_->enqueueUserKernel(kernel, shape, std::move(arguments)); });
  return info.Env().Undefined();
}

// enqueueGraph(graph: NativeGraph of this queue's agent)
Napi::Value QueueWrap::enqueueGraph(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  std::shared_ptr<KernelGraph> graph = GraphWrap::unwrap(info[0]);
  driverCall(info.Env(), [&] { queue_->enqueueGraph(std::move(graph)); });
  return info.Env().Undefined();
}

// enqueueAllocate(bytes) -> { address, injectedFault, availableBytes }
Napi::Value QueueWrap::enqueueAllocate(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  const AllocationResult result =
      driverCall(info.Env(), [&] { return queue_->enqueueAllocate(toUint64(info[0])); });
  return allocationResultObject(info.Env(), result);
}

// enqueueFree(address)
Napi::Value QueueWrap::enqueueFree(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  queue_->enqueueFree(toUint64(info[0]));
  return info.Env().Undefined();
}

Napi::Value QueueWrap::recordEvent(const Napi::CallbackInfo& info) {
  return EventWrap::wrap(info.Env(), driverCall(info.Env(), [&] { return queue_->recordEvent(); }));
}

// waitForEvent(event: NativeEvent)
Napi::Value QueueWrap::waitForEvent(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  queue_->enqueueWait(EventWrap::unwrap(info[0]));
  return info.Env().Undefined();
}

// synchronize() -> Promise<null | { operation, code, message }>. An idle queue answers at once;
// otherwise the queue thread settles the Promise through the completion channel.
Napi::Value QueueWrap::synchronize(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  auto deferred = Napi::Promise::Deferred::New(env);
  auto state = std::make_shared<SynchronizeState>();
  auto completions = completions_;
  queue_->synchronize([state, completions, deferred](std::optional<OperationError> error) {
    state->error = std::move(error);
    if (state->step.exchange(SynchronizeState::kCompleted) == SynchronizeState::kReturned) {
      completions->post([state, deferred](Napi::Env env) { settleSynchronize(env, deferred, state->error); });
    }
  });
  if (state->step.exchange(SynchronizeState::kReturned) == SynchronizeState::kCompleted) {
    settleSynchronize(env, deferred, state->error);
  } else {
    completions_->expect(env);
  }
  return deferred.Promise();
}

// dispose() -> Promise<void>: runs the remaining work, then stops the worker thread.
Napi::Value QueueWrap::dispose(const Napi::CallbackInfo& info) {
  auto queue = queue_;
  return PromiseWorker<Nothing>::start(
      info.Env(), "kreplay:queue-dispose",
      [queue] {
        queue->shutdown();
        return Nothing{};
      },
      resolveUndefined);
}

}  // namespace kreplay::binding
