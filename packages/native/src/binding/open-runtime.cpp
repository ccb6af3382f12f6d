#include "binding/open-runtime.hpp"

#include "binding/convert.hpp"
#include "binding/promise-worker.hpp"
#include "binding/runtime-wrap.hpp"
#include "drivers/driver-registry.hpp"

namespace kreplay::binding {

Napi::Value openRuntime(const Napi::CallbackInfo& info) {
  requireArguments(info, 4);
  const std::string choice = info[0].As<Napi::String>().Utf8Value();
  const DriverOptions options{static_cast<std::uint32_t>(toUint64(info[1])), toUint64(info[2]),
                              static_cast<std::uint32_t>(toUint64(info[3]))};
  return PromiseWorker<OpenedDriver>::start(
      info.Env(), "kreplay:open-runtime", [choice, options] { return openDriver(choice, options); },
      [](Napi::Env env, OpenedDriver& opened) -> Napi::Value {
        if (opened.driver) return RuntimeWrap::wrap(env, opened.driver);
        Napi::Object unavailable = Napi::Object::New(env);
        unavailable.Set("driver", opened.driverName);
        unavailable.Set("reason", opened.availability.reason);
        unavailable.Set("fix", opened.availability.fix);
        Napi::Object result = Napi::Object::New(env);
        result.Set("unavailable", unavailable);
        return result;
      });
}

}  // namespace kreplay::binding
