#include "sim/camera/overhead_image.hpp"

#include "sim/random.hpp"

namespace robocaf::sim::camera {

OverheadImageRenderer::OverheadImageRenderer(const msg::LeaguePreset& league, const msg::GlobalCameraSpec& spec,
                                             std::uint64_t seed)
    : scene_(league, /*team_band_on_sides=*/false),
      camera_(overhead_calibration(league, spec)),
      sensor_(camera_.size(), spec.image(), seed),
      seed_(seed) {
  floor_.create(camera_.size(), CV_8UC3);
  scene_.paint_floor(camera_, floor_);
}

cv::Mat OverheadImageRenderer::render(const msg::WorldTruth& truth, std::uint64_t frame_number) const {
  cv::Mat image = floor_.clone();
  const auto dynamic = scene_.dynamic_objects(truth, camera_);
  std::vector<const SceneObject*> objects;
  objects.reserve(scene_.static_objects().size() + dynamic.size());
  for (const auto& o : scene_.static_objects()) objects.push_back(&o);
  for (const auto& o : dynamic) objects.push_back(&o);
  Scene::paint_objects(camera_, std::move(objects), image);
  sensor_.apply(image, derive_seed(seed_, frame_number));
  return image;
}

}  // namespace robocaf::sim::camera
