#include "binding/capture-kernel-name-binding.hpp"

#include "binding/convert.hpp"
#include "capture/kernel-name-pattern.hpp"

namespace kreplay::binding {

Napi::Value kernelNamePatternProblem(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireArguments(info, 1);
  const std::optional<std::string> problem =
      capture::kernelNamePatternProblem(info[0].As<Napi::String>().Utf8Value());
  return problem ? Napi::Value(Napi::String::New(env, *problem)) : env.Null();
}

}  // namespace kreplay::binding
