// Integer values of an IR function as the static roofline assumes them: parameters (the
// driver's arguments, else the problem size for 64-bit integers, a default for narrower ones,
// 0 for pointers), values scalar evolution describes, and the divisions, remainders and shifts
// it leaves opaque, evaluated from their IR definitions.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/roofline/llvm_ir.h"
#include "tools/roofline/scev.h"

namespace kopt {

/// What kopt assumes where the code does not say.
struct TripAssumptions {
  double size = 1000;         ///< Value of 64-bit integer parameters (the problem size n).
  double default_trips = 16;  ///< Trip count of a loop whose count is unknown, and value of
                              ///< narrower integer parameters nobody gave.
  /// Values of the entry functions' parameters by position, where known (from the driver).
  std::vector<std::optional<double>> arguments;
};

class IrValues {
 public:
  /// `trips` gives a loop's trip count (for add recurrences); `entry` says whether the driver's
  /// arguments apply to this function's parameters.
  IrValues(const IrFunction& f, const ScevFacts* facts, const TripAssumptions& assume, bool entry,
           std::function<std::optional<double>(const std::string&)> trips);

  /// The environment for evaluating SCEV expressions of this function.
  const ScevEnvironment& environment() const { return env_; }

  /// The assumed value of a named value ("%n", "%div"); nullopt when unknown.
  std::optional<double> value(const std::string& name);
  /// The value of an operand: a constant ("32") or a name.
  std::optional<double> operand(const std::string& text);
  /// The same, but nullopt when the value rests on an assumed parameter (the size or the
  /// default) rather than on constants and the arguments the driver passes.
  std::optional<double> known(const std::string& text);

 private:
  std::optional<double> parameter(const std::string& name);
  std::optional<double> defined(const IrInstruction& inst);
  std::optional<double> chosen(const IrInstruction& inst);
  std::optional<double> merged(const IrInstruction& inst);

  const IrFunction& f_;
  const ScevFacts* facts_;
  const TripAssumptions& assume_;
  bool entry_;
  std::map<std::string, const IrInstruction*> definitions_;
  ScevEnvironment env_;
  int depth_ = 0;
  bool assumed_ = false;  ///< Set when a parameter took an assumed value.
};

}  // namespace kopt
