#include "sim/camera/onboard_image.hpp"

#include <stdexcept>
#include <string>

#include "sim/camera/camera_model.hpp"
#include "sim/random.hpp"

namespace robocaf::sim::camera {

OnboardImageRenderer::OnboardImageRenderer(const msg::LeaguePreset& league, const msg::OnboardCameraSpec& spec,
                                           std::uint64_t seed)
    : league_(league),
      spec_(spec),
      scene_(league, /*team_band_on_sides=*/true),
      seed_(seed),
      sensor_(size(), spec.image(), seed) {}

cv::Size OnboardImageRenderer::size() const {
  return {spec_.image().width() > 0 ? static_cast<int>(spec_.image().width()) : kDefaultImageWidth,
          spec_.image().height() > 0 ? static_cast<int>(spec_.image().height()) : kDefaultImageHeight};
}

msg::CameraCalibration OnboardImageRenderer::calibration_for(const msg::Pose2& robot_pose) const {
  return onboard_calibration(league_, spec_, robot_pose);
}

cv::Mat OnboardImageRenderer::render(const msg::WorldTruth& truth, msg::Team team, std::uint32_t robot_id,
                                     std::uint64_t frame_number) const {
  const msg::RobotTruth* self = nullptr;
  for (const auto& robot : truth.robots())
    if (robot.team() == team && robot.robot_id() == robot_id) self = &robot;
  if (!self)
    throw std::invalid_argument("onboard camera: robot " + msg::Team_Name(team) + "/" + std::to_string(robot_id) +
                                " is not on the field");
  const CameraModel camera{calibration_for(self->pose())};
  cv::Mat image(camera.size(), CV_8UC3);
  scene_.paint_floor(camera, image);
  const auto dynamic = scene_.dynamic_objects(truth, camera, team, robot_id);
  std::vector<const SceneObject*> objects;
  objects.reserve(scene_.static_objects().size() + dynamic.size());
  for (const auto& o : scene_.static_objects()) objects.push_back(&o);
  for (const auto& o : dynamic) objects.push_back(&o);
  Scene::paint_objects(camera, std::move(objects), image);
  // Each robot's camera has its own noise stream.
  const std::uint64_t robot_seed = derive_seed(seed_, (static_cast<std::uint64_t>(team) << 32) | robot_id);
  sensor_.apply(image, derive_seed(robot_seed, frame_number));
  return image;
}

}  // namespace robocaf::sim::camera
