// Shared by the embind translation units: how a C++ error reaches JavaScript.
//
// A binding never lets an exception, C++ or JS, cross into JavaScript. Emscripten 3.1.6 would deliver a
// C++ exception as a bare number, and a JS Error thrown from inside C++ (val::throw_) skips both the
// release of the caught exception and embind's clean-up of the marshalled arguments (its invoker frees a
// std::string argument only on a normal return), leaking memory on every error. Instead each binding
// catches, stores the message here and returns a neutral value; the JS wrapper (web/src/engine) checks
// hasError() after each call and throws an Error carrying the message.
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace oblique::bindings {

/// The message of the last failed call, empty when the last call succeeded.
inline std::string& pending_error() {
  static std::string message;
  return message;
}

/// Calls `f`; on an exception stores what() and returns `fallback`.
template <typename F, typename T>
auto guarded(F&& f, T fallback) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    pending_error() = e.what();
  } catch (...) {
    pending_error() = "internal error in the Oblique core";
  }
  return fallback;
}

/// guarded for calls that return nothing.
template <typename F>
void guarded_void(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    pending_error() = e.what();
  } catch (...) {
    pending_error() = "internal error in the Oblique core";
  }
}

/// True when the last call failed (cheap: no string crosses).
inline bool has_error() { return !pending_error().empty(); }

/// The message of the last failed call, cleared.
inline std::string take_error() { return std::exchange(pending_error(), std::string()); }

}  // namespace oblique::bindings
