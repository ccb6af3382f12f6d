#include "capture/kernel-name-filter.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "capture/kernel-name-pattern.hpp"

namespace kreplay::capture {

namespace {

const char* const kRegexPrefix = "regex:";

/** The index of the `open` that matches the `close` at `end`, scanning back; npos when unbalanced. */
std::size_t matchingOpen(const std::string& text, std::size_t end, char open, char close) {
  int depth = 0;
  for (std::size_t at = end + 1; at-- > 0;) {
    if (text[at] == close) ++depth;
    if (text[at] == open && --depth == 0) return at;
  }
  return std::string::npos;
}

/** The index after the last `separator` of `text` outside brackets and parentheses, or 0. */
std::size_t afterLastTopLevel(const std::string& text, const std::string& separator) {
  int depth = 0;
  std::size_t after = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (depth == 0 && text.compare(at, separator.size(), separator) == 0) after = at + separator.size();
  }
  return after;
}

}  // namespace

std::optional<KernelNameBase> parseKernelNameBase(const std::string& text) {
  if (text == "function") return KernelNameBase::Function;
  if (text == "demangled") return KernelNameBase::Demangled;
  if (text == "mangled") return KernelNameBase::Mangled;
  return std::nullopt;
}

std::string demangledName(const std::string& mangled) {
  // A function's symbol starts with _Z; abi::__cxa_demangle also reads a type's code (`b`: bool).
  if (mangled.compare(0, 2, "_Z") != 0) return mangled;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

std::string functionName(const std::string& demangled) {
  std::string name = demangled;
  // The parameter list (and qualifiers after it, such as ` const`).
  const std::size_t close = name.rfind(')');
  if (close != std::string::npos) {
    const std::size_t open = matchingOpen(name, close, '(', ')');
    if (open != std::string::npos && open > 0) name.erase(open);
  }
  while (!name.empty() && name.back() == ' ') name.pop_back();
  // The template arguments.
  if (!name.empty() && name.back() == '>') {
    const std::size_t open = matchingOpen(name, name.size() - 1, '<', '>');
    if (open != std::string::npos && open > 0) name.erase(open);
  }
  // The return type, then the namespaces and classes.
  name = name.substr(afterLastTopLevel(name, " "));
  return name.substr(afterLastTopLevel(name, "::"));
}

std::string kernelName(const std::string& mangled, KernelNameBase base) {
  switch (base) {
    case KernelNameBase::Mangled:
      return mangled;
    case KernelNameBase::Demangled:
      return demangledName(mangled);
    case KernelNameBase::Function:
    default:
      return functionName(demangledName(mangled));
  }
}

KernelNameFilter::KernelNameFilter(const std::string& text, KernelNameBase base) : base_(base) {
  if (text.compare(0, std::char_traits<char>::length(kRegexPrefix), kRegexPrefix) == 0) {
    pattern_.emplace(compileKernelNamePattern(text.substr(std::char_traits<char>::length(kRegexPrefix))));
  } else {
    name_ = text;
  }
}

bool KernelNameFilter::matches(const std::string& mangled) const {
  const std::string name = kernelName(mangled, base_);
  return pattern_ ? std::regex_search(name, *pattern_) : name == name_;
}

}  // namespace kreplay::capture
