// Seeded random numbers that are the same on every platform.
//
// std::normal_distribution and friends are implementation-defined (libstdc++
// and libc++ give different sequences for one seed), so a match would not
// replay across machines. std::mt19937_64 itself is fully specified; the
// transforms on top of it are written here.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace robocaf::sim {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : rng_(seed) {}

  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0); }

  /// Standard normal N(0, 1) by the Box-Muller transform.
  double gaussian() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: the log stays finite
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    spare_ = r * std::sin(kTwoPi * u2);
    has_spare_ = true;
    return r * std::cos(kTwoPi * u2);
  }

  /// Poisson-distributed count with the given mean (Knuth's method; meant
  /// for the small means of false detections per frame).
  int poisson(double mean) {
    if (!(mean > 0.0)) return 0;
    const double limit = std::exp(-mean);
    int k = 0;
    for (double p = uniform(); p > limit; p *= uniform()) ++k;
    return k;
  }

 private:
  std::mt19937_64 rng_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

/// Derives independent seeds for the parts of one simulation (physics noise,
/// camera, images) from the match seed, so adding a random consumer to one
/// part does not reshuffle another. SplitMix64 finaliser.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace robocaf::sim
