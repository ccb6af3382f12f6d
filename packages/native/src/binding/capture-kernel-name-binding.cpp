#include "binding/capture-kernel-name-binding.hpp"

#include "binding/convert.hpp"
#include "capture/kernel-name-filter.hpp"
#include "capture/kernel-name-pattern.hpp"
#include "binding/profiler-wrap.hpp"

namespace kreplay::binding {

Napi::Value kernelNamePatternProblem(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireArguments(info, 1);
  const std::optional<std::string> problem =
      capture::kernelNamePatternProblem(info[0].As<Napi::String>().Utf8Value());
  return problem ? Napi::Value(Napi::String::New(env, *problem)) : env.Null();
}

Napi::Value kernelNames(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireArguments(info, 1);
  const std::string mangled = info[0].As<Napi::String>().Utf8Value();
  const std::string demangled = capture::demangledName(mangled);
  Napi::Object names = Napi::Object::New(env);
  names.Set("demangled", demangled);
  names.Set("function", capture::functionName(demangled));
  return names;
}

Napi::Value kernelNameFilterMatches(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireArguments(info, 3);
  const std::optional<capture::KernelNameBase> base =
      capture::parseKernelNameBase(info[1].As<Napi::String>().Utf8Value());
  if (!base) throw Napi::TypeError::New(env, "[native] [binding] the kernel-name base is not function, demangled or mangled.");
  try {
    const capture::KernelNameFilter filter(info[0].As<Napi::String>().Utf8Value(), *base);
    const std::vector<std::string> symbols = toStrings(info[2]);
    Napi::Array matches = Napi::Array::New(env, symbols.size());
    for (std::size_t index = 0; index < symbols.size(); ++index) matches.Set(index, filter.matches(symbols[index]));
    return matches;
  } catch (const capture::KernelNamePatternError& error) {
    throw Napi::Error::New(env, std::string("[native] [capture] ") + error.what() + ".");
  }
}

}  // namespace kreplay::binding
