#include "runtime/instrumented_actor.hpp"

#include <cxxabi.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <typeindex>
#include <unordered_map>

#include <caf/atom.hpp>
#include <caf/mailbox_element.hpp>
#include <caf/type_erased_tuple.hpp>

namespace robocaf::runtime {

namespace {

// Readable name of the first element of a message: the protobuf type name for
// our messages ("robocaf::msg::DetectionFrame" -> "DetectionFrame"), the atom
// for control messages. Demangling is cached: it runs once per type and thread.
std::string message_type_name(const caf::type_erased_tuple& content) {
  if (content.empty()) return "empty";
  auto rtti = content.type(0);
  if (rtti.second == nullptr) {
    if (rtti.first == caf::type_nr<caf::atom_value>::value)
      return caf::to_string(content.get_as<caf::atom_value>(0));
    return "builtin#" + std::to_string(rtti.first);
  }
  // Per worker thread, so the hot path takes no lock.
  thread_local std::unordered_map<std::type_index, std::string> names;
  auto [it, fresh] = names.try_emplace(std::type_index{*rtti.second});
  if (fresh) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled{
        abi::__cxa_demangle(rtti.second->name(), nullptr, nullptr, &status), std::free};
    std::string name = status == 0 ? demangled.get() : rtti.second->name();
    auto colon = name.rfind("::");
    it->second = colon == std::string::npos ? name : name.substr(colon + 2);
  }
  return it->second;
}

}  // namespace

Watchdog& process_watchdog() {
  static Watchdog watchdog;
  return watchdog;
}

InstrumentedActor::InstrumentedActor(caf::actor_config& cfg) : caf::event_based_actor(cfg) {}

caf::invoke_message_result InstrumentedActor::consume(caf::mailbox_element& x) {
  const std::string type = message_type_name(x.content());
  Watchdog::Scope watch{process_watchdog(), display_name_, type};
  auto start = std::chrono::steady_clock::now();
  caf::invoke_message_result result = caf::invoke_message_result::dropped;
  try {
    result = caf::event_based_actor::consume(x);
  } catch (const std::exception& e) {
    ++rejected_;
    std::cerr << "robocaf: " << display_name_ << " dropped a " << type << ": " << e.what() << '\n';
    result = caf::invoke_message_result::consumed;
  }
  stats_.record(type, std::chrono::steady_clock::now() - start);
  return result;
}

}  // namespace robocaf::runtime
