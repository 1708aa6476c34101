#pragma once
// CAF carries protobuf messages. One generic `inspect` serializes any generated
// message as its wire bytes, so the .proto files stay the only schema; a message
// that fails to parse on arrival becomes a CAF error instead of a crash.

#include <string>
#include <type_traits>

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>
#include <caf/sec.hpp>
#include <google/protobuf/message.h>

namespace robocaf::msg {

template <class Inspector, class T>
std::enable_if_t<std::is_base_of_v<google::protobuf::Message, T>, typename Inspector::result_type>
inspect(Inspector& f, T& x) {
  std::string bytes;
  if constexpr (Inspector::reads_state) {
    x.SerializeToString(&bytes);
    return f(caf::meta::type_name(T::descriptor()->full_name().c_str()), bytes);
  } else {
    auto parse = caf::meta::load_callback([&]() -> caf::error {
      if (!x.ParseFromString(bytes))
        return caf::make_error(caf::sec::invalid_argument, "malformed " + T::descriptor()->full_name());
      return caf::none;
    });
    return f(caf::meta::type_name(T::descriptor()->full_name().c_str()), bytes, parse);
  }
}

}  // namespace robocaf::msg
