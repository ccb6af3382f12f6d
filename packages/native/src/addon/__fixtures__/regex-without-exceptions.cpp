#include <regex>
#include <string>
// Instantiates std::regex's compiler and matcher without exceptions, as a host program (Node.js 22
// and newer) may: a malformed pattern then aborts inside it instead of throwing std::regex_error.
bool searchWithoutExceptions(const std::string& pattern, const std::string& text) {
  return std::regex_search(text, std::regex(pattern, std::regex::ECMAScript));
}
