// The message of the std::invalid_argument a call throws: how the tests check that bad input is named.
#pragma once

#include <stdexcept>
#include <string>

namespace oblique::testing {

/// what() of the std::invalid_argument thrown by `action`, or "no error" when it returns normally.
template <typename F>
std::string message_of(F&& action) {
  try {
    action();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace oblique::testing
