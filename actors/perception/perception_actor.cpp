#include "actors/perception/perception_actor.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include <caf/all.hpp>

#include <opencv2/core.hpp>

#include "actors/perception/detection_filter.hpp"
#include "actors/perception/image_detector.hpp"
#include "actors/perception/onboard_filter.hpp"
#include "actors/perception/onboard_image_detector.hpp"

namespace robocaf::actors {

namespace {

// Input: DetectionFrame (a vision system or the world), CameraImage (an
// overhead camera, or the robot's own camera with a robot-frame calibration:
// detected here), or OnboardFrame plus Odometry (the robot's own camera and
// wheels). Output: Percept to its robot's world knowledge.
struct PerceptionState {
  runtime::ShellContext ctx;
  msg::LeaguePreset league;
  msg::ColourThresholds colours;
  std::optional<DetectionFilter> filter;
  std::optional<OnboardFilter> onboard;
  std::optional<ImageDetector> detector;   // built from the first image's calibration
  std::optional<OnboardImageDetector> onboard_detector;  // ... of an onboard image
  std::string detector_calibration;        // ... serialized, to notice a new one
  // Newest image wins: images wait here, not in the mailbox, so a perception
  // that falls behind a live camera skips stale images instead of queueing them.
  std::optional<msg::CameraImage> pending_image;
  static inline const char* name = "perception";
};

using detect_atom = caf::atom_constant<caf::atom("detect")>;

// Rejects an image whose pixel buffer does not match its size before it can replace a good one.
void check_image(const msg::CameraImage& image) {
  const size_t bytes = static_cast<size_t>(image.width()) * image.height() * 3;
  if (image.width() == 0 || image.height() == 0 || image.bgr().size() != bytes) {
    throw std::invalid_argument("CameraImage " + std::to_string(image.frame_number()) + ": " +
                                std::to_string(image.bgr().size()) + " bytes for " +
                                std::to_string(image.width()) + "x" + std::to_string(image.height()) + " BGR");
  }
}

caf::behavior perception(runtime::ShellActor<PerceptionState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  st.filter.emplace(st.ctx.address.team(), st.ctx.address.robot_id());
  st.onboard.emplace(st.ctx.address.team(), st.ctx.address.robot_id(), setup.match.league(),
                     setup.match.sim().onboard_camera().noise_per_metre(), setup.match.sim().start_position_sd());
  st.league = setup.match.league();
  st.colours = setup.match.colour_thresholds();
  runtime::join_directory(self, st.ctx);
  auto send_percept = [self](msg::Percept percept) {
    auto& s = self->state;
    auto wk = s.ctx.peers.find(s.ctx.address.team(), s.ctx.address.robot_id(), msg::ACTOR_WORLD_KNOWLEDGE);
    if (wk) self->send(wk, std::move(percept));
  };
  return caf::message_handler{
      [self, send_percept](const msg::DetectionFrame& frame) { send_percept(self->state.filter->to_percept(frame)); },
      [self](msg::CameraImage& image) {
        auto& s = self->state;
        check_image(image);
        // Every image queued behind this one arrives before the detect
        // message, so the one detected is the newest; in virtual time the
        // world sends one image per cycle and nothing is ever dropped.
        if (!s.pending_image) self->send(self, detect_atom::value);
        s.pending_image = std::move(image);
      },
      [self, send_percept](detect_atom) {
        auto& s = self->state;
        if (!s.pending_image) return;
        const msg::CameraImage image = std::move(*s.pending_image);
        s.pending_image.reset();
        std::string calibration = image.calibration().SerializeAsString();
        const bool onboard = image.robot_frame();
        if ((onboard ? !s.onboard_detector : !s.detector) || calibration != s.detector_calibration) {
          // A detector that throws on a bad calibration leaves none behind,
          // so the next image tries again.
          s.detector.reset();
          s.onboard_detector.reset();
          if (onboard)
            s.onboard_detector.emplace(s.league, image.calibration(), s.colours);
          else
            s.detector.emplace(s.league, image.calibration(), s.colours);
          s.detector_calibration = std::move(calibration);
        }
        // The detector only reads the pixels; the message keeps them alive.
        const cv::Mat pixels(static_cast<int>(image.height()), static_cast<int>(image.width()), CV_8UC3,
                             const_cast<char*>(image.bgr().data()));
        if (onboard) {
          // Egocentric detections and goal posts; odometry and the posts
          // give the robot's own pose, as for a simulated OnboardFrame.
          msg::OnboardFrame frame =
              OnboardImageDetector::to_frame(s.onboard_detector->detect(pixels), image.frame_number(),
                                             image.t_capture(), s.ctx.address.team(), s.ctx.address.robot_id());
          frame.set_t_sent(image.t_sent());
          frame.set_cycle(image.cycle());
          send_percept(s.onboard->to_percept(frame));
          return;
        }
        msg::DetectionFrame frame = s.detector->detect(pixels, image.frame_number(), image.t_capture());
        frame.set_t_sent(image.t_sent());
        frame.set_cycle(image.cycle());
        send_percept(s.filter->to_percept(frame));
      },
      [self](const msg::Odometry& odometry) { self->state.onboard->on_odometry(odometry); },
      [self, send_percept](const msg::OnboardFrame& frame) { send_percept(self->state.onboard->to_percept(frame)); },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_perception(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(perception, setup);
}

}  // namespace robocaf::actors
