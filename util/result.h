// Expected failures as values: a Result holds either a value or the reason it could not be
// produced. Exceptions are kept for bugs and fatal setup problems.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kopt {

/// The reason an operation failed, in one human-readable line.
struct Error {
  std::string message;
  /// Trying again later cannot help (a refused key, an unknown model); most failures can.
  bool permanent = false;
};

/// Builds an Error from a message.
inline Error fail(std::string message) {
  return Error{std::move(message)};
}

/// A value of type T or an Error.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  /// True when a value is present.
  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; only valid when ok().
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The value, or `fallback` when there is none.
  T value_or(T fallback) const& { return ok() ? value() : std::move(fallback); }

  /// The failure; only valid when !ok().
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

/// A Result with no value: success or an Error.
class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), failed_(true) {}

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace kopt
