// Which kernels a name selects, as Nsight Compute's --kernel-name and --kernel-name-base read it: a
// name is matched whole, unless it starts with `regex:`, when the rest is a regular expression
// searched in the name (std::regex, ECMAScript grammar: kernel-name-pattern.hpp); the name matched is
// the function's (its demangled name without return type, scope, template arguments and parameters:
// `elementwise_kernel`), its demangled name (`void at::native::elementwise_kernel<4>(int)`) or its
// mangled name (`_ZN2at6native18elementwise_kernelILi4EEEvi`). The capture library selects launches
// with it, and the addon's captured-launch selection uses the same code.
#pragma once

#include <optional>
#include <regex>
#include <string>

namespace kreplay::capture {

/** Which name of a kernel a filter matches (ncu's --kernel-name-base). */
enum class KernelNameBase { Function, Demangled, Mangled };

/** `function`, `demangled` or `mangled`; nullopt for another word. */
std::optional<KernelNameBase> parseKernelNameBase(const std::string& text);

/** The demangled name of a C++ function's symbol (`_Z...`, abi::__cxa_demangle), or the name itself when it is not one. */
std::string demangledName(const std::string& mangled);

/**
 * The function's name alone from a demangled name: without its parameter list, its template
 * arguments, its return type and its namespaces or classes (`void a::b<int>(float*)` -> `b`).
 */
std::string functionName(const std::string& demangled);

/** The name of a kernel (its symbol, `mangled`) that `base` names. */
std::string kernelName(const std::string& mangled, KernelNameBase base);

class KernelNameFilter {
 public:
  /**
   * `text`: a name, matched whole, or `regex:EXPRESSION`, searched.
   * @throws KernelNamePatternError when EXPRESSION does not compile.
   */
  KernelNameFilter(const std::string& text, KernelNameBase base);

  /** Whether the kernel whose symbol is `mangled` is selected. */
  bool matches(const std::string& mangled) const;

 private:
  KernelNameBase base_;
  std::string name_;
  std::optional<std::regex> pattern_;
};

}  // namespace kreplay::capture
