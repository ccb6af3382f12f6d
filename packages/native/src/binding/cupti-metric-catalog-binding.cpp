#include "binding/cupti-metric-catalog-binding.hpp"

#include "binding/convert.hpp"
#include "binding/profiler-wrap.hpp"
#include "binding/promise-worker.hpp"
#include "drivers/cuda/cupti-metric-catalog.hpp"

namespace kreplay::binding {

Napi::Value queryCuptiMetrics(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const std::string chip = info[0].As<Napi::String>().Utf8Value();
  const bool named = !info[1].IsNull();
  const std::vector<std::string> names = named ? toStrings(info[1]) : std::vector<std::string>{};
  struct Listed {
    std::vector<CuptiMetricInfo> metrics;
    std::string code;
    std::string message;
  };
  return PromiseWorker<Listed>::start(
      info.Env(), "kreplay:query-cupti-metrics",
      [chip, named, names] {
        try {
          return Listed{named ? describeCuptiMetrics(chip, names) : listCuptiMetrics(chip), "", ""};
        } catch (const OperationFailure& failure) {
          return Listed{{}, failure.code(), failure.what()};
        }
      },
      [](Napi::Env env, Listed& listed) -> Napi::Value {
        if (!listed.code.empty()) {
          Napi::Object failure = Napi::Object::New(env);
          failure.Set("code", listed.code);
          failure.Set("message", listed.message);
          return failure;
        }
        Napi::Array metrics = Napi::Array::New(env, listed.metrics.size());
        for (std::size_t index = 0; index < listed.metrics.size(); ++index) {
          const CuptiMetricInfo& metric = listed.metrics[index];
          Napi::Object object = Napi::Object::New(env);
          object.Set("name", metric.name);
          object.Set("type", metric.type);
          object.Set("unit", metric.unit);
          object.Set("hardwareUnit", metric.hardwareUnit);
          object.Set("description", metric.description);
          Napi::Array subMetrics = Napi::Array::New(env, metric.subMetrics.size());
          for (std::size_t at = 0; at < metric.subMetrics.size(); ++at) subMetrics.Set(at, metric.subMetrics[at]);
          object.Set("subMetrics", subMetrics);
          metrics.Set(index, object);
        }
        return metrics;
      });
}

}  // namespace kreplay::binding
