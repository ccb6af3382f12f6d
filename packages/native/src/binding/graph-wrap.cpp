#include "binding/graph-wrap.hpp"

#include "binding/addon-data.hpp"
#include "binding/convert.hpp"

namespace kreplay::binding {

Napi::Function GraphWrap::define(Napi::Env env) {
  return DefineClass(env, "NativeGraph", {InstanceMethod<&GraphWrap::dispose>("dispose")});
}

Napi::Object GraphWrap::wrap(Napi::Env env, std::shared_ptr<KernelGraph> graph) {
  return addonData(env).graphConstructor.New({Napi::External<std::shared_ptr<KernelGraph>>::New(env, &graph)});
}

GraphWrap::GraphWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<GraphWrap>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(), "[native] [binding] NativeGraph is created by NativeRuntime.createGraph().");
  }
  graph_ = *info[0].As<Napi::External<std::shared_ptr<KernelGraph>>>().Data();
}

std::shared_ptr<KernelGraph> GraphWrap::unwrap(const Napi::Value& value) {
  const Napi::Env env = value.Env();
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(addonData(env).graphConstructor.Value())) {
    throw Napi::TypeError::New(env, "[native] [binding] expected a NativeGraph.");
  }
  std::shared_ptr<KernelGraph> graph = GraphWrap::Unwrap(value.As<Napi::Object>())->graph_;
  if (!graph) throw Napi::TypeError::New(env, "[native] [binding] the NativeGraph was disposed.");
  return graph;
}

// dispose(): drops this object's hold; launches still queued keep the graph until they have run.
Napi::Value GraphWrap::dispose(const Napi::CallbackInfo& info) {
  graph_.reset();
  return info.Env().Undefined();
}

namespace {

std::uint64_t numberField(const Napi::Object& object, const char* name) {
  return toUint64(object.Get(name));
}

}  // namespace

std::vector<GraphStep> toGraphSteps(const Napi::Value& value) {
  const Napi::Env env = value.Env();
  if (!value.IsArray()) throw Napi::TypeError::New(env, "[native] [binding] expected an array of graph steps.");
  const Napi::Array array = value.As<Napi::Array>();
  std::vector<GraphStep> steps(array.Length());
  for (std::uint32_t index = 0; index < array.Length(); ++index) {
    const Napi::Object object = array.Get(index).As<Napi::Object>();
    GraphStep& step = steps[index];
    step.kind = static_cast<GraphStep::Kind>(numberField(object, "kind"));
    switch (step.kind) {
      case GraphStep::Kind::BuiltinKernel: {
        const int kernel = static_cast<int>(numberField(object, "kernel"));
        step.builtin = static_cast<BuiltinKernel>(kernel);
        step.words = toWords(object.Get("args"));
        const std::size_t expected = builtinKernelArgumentCount(kernel);
        if (expected == 0 || step.words.size() != expected) {
          throw Napi::TypeError::New(env, "[native] [binding] unknown kernel or wrong argument count in a graph step.");
        }
        break;
      }
      case GraphStep::Kind::UserKernel: {
        step.userKernel = static_cast<std::uint32_t>(numberField(object, "kernel"));
        std::size_t shapeBytes = 0;
        const auto* words = reinterpret_cast<const std::uint32_t*>(typedArrayBytes(object.Get("shape"), shapeBytes));
        if (shapeBytes < 10 * sizeof(std::uint32_t)) {
          throw Napi::TypeError::New(env, "[native] [binding] expected a launch shape of 10 numbers.");
        }
        step.shape = LaunchShape{{words[0], words[1], words[2]}, {words[3], words[4], words[5]}, words[6],
                                 {words[7], words[8], words[9]}};
        step.arguments.words = toWords(object.Get("args"));
        const Napi::Value buffer = object.Get("buffer");
        if (buffer.IsTypedArray()) {
          std::size_t length = 0;
          const std::uint8_t* bytes = typedArrayBytes(buffer, length);
          step.arguments.buffer.assign(bytes, bytes + length);
        }
        break;
      }
      case GraphStep::Kind::Memset:
        step.range = {numberField(object, "address"), numberField(object, "bytes")};
        step.value = static_cast<std::uint8_t>(numberField(object, "value"));
        break;
      case GraphStep::Kind::Copy:
        step.segment = {numberField(object, "source"), numberField(object, "destination"), numberField(object, "bytes")};
        break;
      default:
        throw Napi::TypeError::New(env, "[native] [binding] unknown graph step kind.");
    }
  }
  return steps;
}

}  // namespace kreplay::binding
