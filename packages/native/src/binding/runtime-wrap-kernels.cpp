// NativeRuntime's user kernels: loading a module's kernel, its module's globals, and graphs of kernels.
#include "binding/runtime-wrap.hpp"

#include <vector>

#include "binding/convert.hpp"
#include "binding/graph-wrap.hpp"
#include "binding/operation-outcome.hpp"
#include "binding/promise-worker.hpp"

namespace kreplay::binding {

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

// kernelRegisters(kernel, agent) -> number | null | { code, message }: registers per thread of the
// kernel as the driver loaded it on the agent, null where the driver does not say.
Napi::Value RuntimeWrap::kernelRegisters(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const auto kernel = static_cast<std::uint32_t>(toUint64(info[0]));
  const std::uint32_t agent = agentOf(info[1]);
  int registers = -1;
  const Outcome outcome = outcomeOf([&] { registers = driver_->userKernelRegisters(kernel, agent); });
  if (!outcome.code.empty()) return outcomeValue(info.Env(), outcome);
  return registers < 0 ? info.Env().Null() : Napi::Value(Napi::Number::New(info.Env(), registers));
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

}  // namespace kreplay::binding
