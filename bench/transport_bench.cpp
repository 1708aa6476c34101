// Request-reply round trips over the transports robocaf uses, in one run:
//   zmq/*          raw ZeroMQ REQ/REP over tcp://127.0.0.1 (the baseline)
//   caf_local/*    a scoped_actor requesting from an event-based echo actor
//   caf_pingpong   two event-based actors in one actor_system, no blocking side
//   caf_remote/*   two actor_systems joined by the middleman over loopback TCP (BASP)
// Payloads: "int" (4 bytes) and "truth10" (a WorldTruth with 10 robots, the
// world's per-cycle message). Every benchmark reports us_per_rt (one round
// trip) and vs_zmq (ratio to the ZeroMQ baseline with the same payload); a
// table of both is printed at the end.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <string>
#include <thread>

#include <caf/all.hpp>
#include <caf/io/all.hpp>
#include <zmq.hpp>

#include "messages/world.pb.h"
#include "runtime/message_types.hpp"
#include "runtime/proto_inspect.hpp"

namespace {

using namespace robocaf;
using Clock = std::chrono::steady_clock;

// Per-round-trip seconds of the last finished run of each benchmark.
std::map<std::string, double> g_results;

msg::WorldTruth make_truth() {
  msg::WorldTruth w;
  w.set_cycle(1234);
  w.set_t(24.68);
  w.mutable_ball_position()->set_x(0.3);
  w.mutable_ball_position()->set_y(-0.2);
  w.mutable_ball_velocity()->set_x(1.1);
  for (uint32_t i = 0; i < 10; ++i) {
    auto* r = w.add_robots();
    r->set_team(i < 5 ? msg::BLUE : msg::YELLOW);
    r->set_robot_id(i % 5 + 1);
    r->mutable_pose()->set_x(0.1 * i - 0.5);
    r->mutable_pose()->set_y(0.05 * i);
    r->mutable_pose()->set_theta(0.3 * i);
    r->mutable_velocity()->set_x(0.2);
    r->set_omega(0.1);
    r->set_wheel_left(0.4);
    r->set_wheel_right(0.5);
  }
  return w;
}

void report(benchmark::State& state, const std::string& name, const std::string& payload, double seconds,
            double round_trips) {
  double per_rt = seconds / round_trips;
  g_results[name] = per_rt;
  state.counters["us_per_rt"] = per_rt * 1e6;
  auto zmq = g_results.find("zmq/" + payload);
  if (zmq != g_results.end() && name != zmq->first) state.counters["vs_zmq"] = per_rt / zmq->second;
}

// ------------------------------------------------------------- ZeroMQ ------

class ZmqEcho {
 public:
  explicit ZmqEcho(bool parse_proto) {
    std::promise<std::string> endpoint;
    auto ready = endpoint.get_future();
    server_ = std::thread([this, parse_proto, &endpoint] {
      zmq::socket_t rep(ctx_, zmq::socket_type::rep);
      rep.set(zmq::sockopt::linger, 0);
      rep.bind("tcp://127.0.0.1:*");
      endpoint.set_value(rep.get(zmq::sockopt::last_endpoint));
      msg::WorldTruth w;
      try {
        for (;;) {
          zmq::message_t m;
          if (!rep.recv(m)) continue;
          if (parse_proto) {
            // Echo like an actor would: decode, then encode the reply.
            w.ParseFromArray(m.data(), static_cast<int>(m.size()));
            std::string out = w.SerializeAsString();
            rep.send(zmq::buffer(out), zmq::send_flags::none);
          } else {
            rep.send(m, zmq::send_flags::none);
          }
        }
      } catch (const zmq::error_t&) {
        // ETERM from ctx_.shutdown(): the benchmark is over.
      }
    });
    endpoint_ = ready.get();
  }
  ~ZmqEcho() {
    ctx_.shutdown();
    server_.join();
  }
  zmq::context_t& context() { return ctx_; }
  const std::string& endpoint() const { return endpoint_; }

 private:
  zmq::context_t ctx_;
  std::thread server_;
  std::string endpoint_;
};

void BM_Zmq_Int(benchmark::State& state) {
  ZmqEcho echo(false);
  {
    zmq::socket_t req(echo.context(), zmq::socket_type::req);
    req.set(zmq::sockopt::linger, 0);
    req.connect(echo.endpoint());
    int32_t value = 42;
    auto start = Clock::now();
    for (auto _ : state) {
      req.send(zmq::buffer(&value, sizeof value), zmq::send_flags::none);
      zmq::message_t reply;
      if (!req.recv(reply) || reply.size() != sizeof value) state.SkipWithError("bad reply");
      benchmark::DoNotOptimize(reply.data());
    }
    report(state, "zmq/int", "int", std::chrono::duration<double>(Clock::now() - start).count(),
           static_cast<double>(state.iterations()));
  }
}

void BM_Zmq_Truth10(benchmark::State& state) {
  ZmqEcho echo(true);
  {
    zmq::socket_t req(echo.context(), zmq::socket_type::req);
    req.set(zmq::sockopt::linger, 0);
    req.connect(echo.endpoint());
    auto truth = make_truth();
    msg::WorldTruth back;
    auto start = Clock::now();
    for (auto _ : state) {
      std::string bytes = truth.SerializeAsString();
      req.send(zmq::buffer(bytes), zmq::send_flags::none);
      zmq::message_t reply;
      if (!req.recv(reply) || !back.ParseFromArray(reply.data(), static_cast<int>(reply.size())) ||
          back.robots_size() != 10)
        state.SkipWithError("bad reply");
    }
    report(state, "zmq/truth10", "truth10", std::chrono::duration<double>(Clock::now() - start).count(),
           static_cast<double>(state.iterations()));
    state.counters["bytes"] = static_cast<double>(truth.ByteSizeLong());
  }
}

// ---------------------------------------------------------------- CAF ------

caf::behavior echo_actor() {
  return {
      [](int32_t x) { return x; },
      [](const msg::WorldTruth& w) { return w; },
  };
}

struct CafConfig : caf::actor_system_config {
  CafConfig() {
    load<caf::io::middleman>();
    runtime::add_message_types(*this);
  }
};

// Sends `request` and waits for the reply, `state.iterations()` times.
template <class Request, class Check>
void request_loop(benchmark::State& state, caf::scoped_actor& self, const caf::actor& dest, const Request& request,
                  const std::string& name, const std::string& payload, Check check) {
  auto start = Clock::now();
  for (auto _ : state) {
    self->request(dest, std::chrono::seconds(10), request)
        .receive([&](const Request& reply) { check(reply); },
                 [&](caf::error& err) { state.SkipWithError(to_string(err).c_str()); });
  }
  report(state, name, payload, std::chrono::duration<double>(Clock::now() - start).count(),
         static_cast<double>(state.iterations()));
}

void BM_CafLocal_Int(benchmark::State& state) {
  CafConfig cfg;
  caf::actor_system sys{cfg};
  auto echo = sys.spawn(echo_actor);
  {
    caf::scoped_actor self{sys};
    request_loop(state, self, echo, int32_t{42}, "caf_local/int", "int",
                 [&](int32_t r) { benchmark::DoNotOptimize(r); });
    self->send_exit(echo, caf::exit_reason::user_shutdown);
  }
}

void BM_CafLocal_Truth10(benchmark::State& state) {
  CafConfig cfg;
  caf::actor_system sys{cfg};
  auto echo = sys.spawn(echo_actor);
  {
    caf::scoped_actor self{sys};
    request_loop(state, self, echo, make_truth(), "caf_local/truth10", "truth10", [&](const msg::WorldTruth& r) {
      if (r.robots_size() != 10) state.SkipWithError("bad reply");
    });
    self->send_exit(echo, caf::exit_reason::user_shutdown);
  }
}

using start_atom = caf::atom_constant<caf::atom("start")>;

// Bounces an int off `pong` n times, then tells whoever started it.
caf::behavior ping_actor(caf::event_based_actor* self, caf::actor pong) {
  struct State {
    int32_t n = 0;
    caf::actor done;
  };
  auto st = std::make_shared<State>();
  return {
      [=](start_atom, int32_t n, caf::actor done) {
        st->n = n;
        st->done = std::move(done);
        self->send(pong, int32_t{1});
      },
      [=](int32_t k) {
        if (k < st->n)
          self->send(pong, k + 1);
        else
          self->send(st->done, k);
      },
  };
}

void BM_CafPingPong_Int(benchmark::State& state) {
  constexpr int32_t kBatch = 1000;
  CafConfig cfg;
  caf::actor_system sys{cfg};
  auto pong = sys.spawn(echo_actor);
  auto ping = sys.spawn(ping_actor, pong);
  {
    caf::scoped_actor self{sys};
    auto start = Clock::now();
    for (auto _ : state) {
      self->send(ping, start_atom::value, kBatch, caf::actor_cast<caf::actor>(self));
      self->receive([&](int32_t k) {
        if (k != kBatch) state.SkipWithError("lost a message");
      });
    }
    report(state, "caf_pingpong/int", "int", std::chrono::duration<double>(Clock::now() - start).count(),
           static_cast<double>(state.iterations()) * kBatch);
    state.counters["rt_per_iteration"] = kBatch;
    self->send_exit(ping, caf::exit_reason::user_shutdown);
    self->send_exit(pong, caf::exit_reason::user_shutdown);
  }
}

// Two actor systems in one process, joined like two robocaf nodes: the echo
// actor is published on an ephemeral loopback port, the client reaches it via
// remote_actor, and every message crosses BASP over TCP.
template <class Request, class Check>
void remote_bench(benchmark::State& state, const Request& request, const std::string& name,
                  const std::string& payload, Check check) {
  CafConfig server_cfg;
  caf::actor_system server{server_cfg};
  CafConfig client_cfg;
  caf::actor_system client{client_cfg};
  auto echo = server.spawn(echo_actor);
  auto port = server.middleman().publish(echo, 0, "127.0.0.1");
  if (!port) {
    state.SkipWithError(("publish: " + server.render(port.error())).c_str());
    caf::anon_send_exit(echo, caf::exit_reason::user_shutdown);
    return;
  }
  auto remote = client.middleman().remote_actor("127.0.0.1", *port);
  if (!remote) {
    state.SkipWithError(("remote_actor: " + client.render(remote.error())).c_str());
    caf::anon_send_exit(echo, caf::exit_reason::user_shutdown);
    return;
  }
  {
    caf::scoped_actor self{client};
    request_loop(state, self, *remote, request, name, payload, check);
  }
  caf::anon_send_exit(echo, caf::exit_reason::user_shutdown);
}

void BM_CafRemote_Int(benchmark::State& state) {
  remote_bench(state, int32_t{42}, "caf_remote/int", "int", [](int32_t r) { benchmark::DoNotOptimize(r); });
}

void BM_CafRemote_Truth10(benchmark::State& state) {
  remote_bench(state, make_truth(), "caf_remote/truth10", "truth10", [&](const msg::WorldTruth& r) {
    if (r.robots_size() != 10) state.SkipWithError("bad reply");
  });
}

}  // namespace

// The ZeroMQ baselines run first so the others can report vs_zmq.
BENCHMARK(BM_Zmq_Int)->Name("zmq/int")->UseRealTime();
BENCHMARK(BM_Zmq_Truth10)->Name("zmq/truth10")->UseRealTime();
BENCHMARK(BM_CafLocal_Int)->Name("caf_local/int")->UseRealTime();
BENCHMARK(BM_CafLocal_Truth10)->Name("caf_local/truth10")->UseRealTime();
BENCHMARK(BM_CafPingPong_Int)->Name("caf_pingpong/int")->UseRealTime();
BENCHMARK(BM_CafRemote_Int)->Name("caf_remote/int")->UseRealTime();
BENCHMARK(BM_CafRemote_Truth10)->Name("caf_remote/truth10")->UseRealTime();

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_results.empty()) return 0;
  std::printf("\n%-22s %12s %10s\n", "round trip", "us", "vs zmq");
  for (const auto& [name, seconds] : g_results) {
    auto slash = name.find('/');
    auto zmq = g_results.find("zmq" + name.substr(slash));
    if (zmq != g_results.end())
      std::printf("%-22s %12.2f %10.2f\n", name.c_str(), seconds * 1e6, seconds / zmq->second);
    else
      std::printf("%-22s %12.2f %10s\n", name.c_str(), seconds * 1e6, "-");
  }
  return 0;
}
