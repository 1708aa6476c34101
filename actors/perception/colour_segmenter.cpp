#include "actors/perception/colour_segmenter.hpp"

#include <algorithm>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

namespace robocaf::actors {
namespace {

msg::ColourRange make_range(unsigned h0, unsigned h1, unsigned s0, unsigned s1, unsigned v0, unsigned v1) {
  msg::ColourRange r;
  r.set_hue_min(h0);
  r.set_hue_max(h1);
  r.set_saturation_min(s0);
  r.set_saturation_max(s1);
  r.set_value_min(v0);
  r.set_value_max(v1);
  return r;
}

bool is_empty(const msg::ColourRange& r) {
  return r.hue_min() == 0 && r.hue_max() == 0 && r.saturation_min() == 0 && r.saturation_max() == 0 &&
         r.value_min() == 0 && r.value_max() == 0;
}

bool contains(const msg::ColourRange& r, unsigned h, unsigned s, unsigned v) {
  const bool hue = r.hue_min() <= r.hue_max() ? (h >= r.hue_min() && h <= r.hue_max())
                                              : (h >= r.hue_min() || h <= r.hue_max());  // wraps around red
  return hue && s >= r.saturation_min() && s <= r.saturation_max() && v >= r.value_min() && v <= r.value_max();
}

int find_root(std::vector<std::int32_t>& parent, std::int32_t i) {
  std::int32_t root = i;
  while (parent[root] != root) root = parent[root];
  while (parent[i] != root) {  // path compression
    const std::int32_t next = parent[i];
    parent[i] = root;
    i = next;
  }
  return root;
}

}  // namespace

msg::ColourRange default_colour_range(ColourClass colour) {
  switch (colour) {
    case ColourClass::kBall: return make_range(5, 21, 150, 255, 120, 255);
    case ColourClass::kBlue: return make_range(100, 125, 150, 255, 120, 255);
    case ColourClass::kYellow: return make_range(22, 35, 150, 255, 180, 255);
    case ColourClass::kGreenDot: return make_range(45, 75, 150, 255, 170, 255);
    case ColourClass::kMagentaDot: return make_range(140, 170, 150, 255, 120, 255);
  }
  return {};
}

ColourSegmenter::ColourSegmenter(const msg::ColourThresholds& thresholds, BlobFilter filter) : filter_(filter) {
  if (thresholds.min_blob_pixels() > 0) filter_.min_area = static_cast<int>(thresholds.min_blob_pixels());
  const msg::ColourRange* given[kColourClassCount] = {&thresholds.ball(), &thresholds.blue(), &thresholds.yellow(),
                                                     &thresholds.green_dot(), &thresholds.magenta_dot()};
  std::array<msg::ColourRange, kColourClassCount> ranges;
  for (int c = 0; c < kColourClassCount; ++c)
    ranges[c] = is_empty(*given[c]) ? default_colour_range(static_cast<ColourClass>(c)) : *given[c];

  // HSV of every cell centre through OpenCV itself, so the table agrees with
  // cv::cvtColor(COLOR_BGR2HSV) exactly at the cell centres.
  cv::Mat cells(1, static_cast<int>(lut_.size()), CV_8UC3);
  for (int i = 0; i < static_cast<int>(lut_.size()); ++i)
    cells.at<cv::Vec3b>(0, i) = cv::Vec3b(static_cast<uchar>(((i >> 10) & 31) * 8 + 4),
                                          static_cast<uchar>(((i >> 5) & 31) * 8 + 4),
                                          static_cast<uchar>((i & 31) * 8 + 4));
  cv::Mat hsv;
  cv::cvtColor(cells, hsv, cv::COLOR_BGR2HSV);
  for (int i = 0; i < static_cast<int>(lut_.size()); ++i) {
    const cv::Vec3b p = hsv.at<cv::Vec3b>(0, i);
    for (int c = 0; c < kColourClassCount; ++c)
      if (contains(ranges[c], p[0], p[1], p[2])) {
        lut_[i] = static_cast<std::uint8_t>(1u << c);
        break;
      }
  }
}

cv::Mat ColourSegmenter::classify_image(const cv::Mat& bgr) const {
  if (bgr.type() != CV_8UC3) throw std::invalid_argument("ColourSegmenter: image must be CV_8UC3 (BGR)");
  cv::Mat mask(bgr.size(), CV_8UC1);
  for (int y = 0; y < bgr.rows; ++y) {
    const std::uint8_t* p = bgr.ptr<std::uint8_t>(y);
    std::uint8_t* m = mask.ptr<std::uint8_t>(y);
    for (int x = 0; x < bgr.cols; ++x, p += 3) m[x] = classify(p[0], p[1], p[2]);
  }
  return mask;
}

std::vector<ColourBlob> ColourSegmenter::segment(const cv::Mat& bgr) {
  if (bgr.type() != CV_8UC3) throw std::invalid_argument("ColourSegmenter: image must be CV_8UC3 (BGR)");
  runs_.clear();
  std::vector<std::int32_t>& parent = parent_;
  parent.clear();

  // 1. Run-length encode the class image row by row, joining each row's runs
  //    to the previous row's overlapping runs of the same class (union-find).
  std::size_t prev_begin = 0, prev_end = 0;
  for (int y = 0; y < bgr.rows; ++y) {
    const std::uint8_t* p = bgr.ptr<std::uint8_t>(y);
    const std::size_t cur_begin = runs_.size();
    int x = 0;
    const int w = bgr.cols;
    while (x < w) {
      std::uint8_t m = classify(p[3 * x], p[3 * x + 1], p[3 * x + 2]);
      if (m == 0) {
        ++x;
        continue;
      }
      const int x0 = x;
      ++x;
      while (x < w && classify(p[3 * x], p[3 * x + 1], p[3 * x + 2]) == m) ++x;
      const auto idx = static_cast<std::int32_t>(runs_.size());
      runs_.push_back({x0, x - 1, y, idx, static_cast<std::uint8_t>(__builtin_ctz(m))});
      parent.push_back(idx);
    }
    const std::size_t cur_end = runs_.size();
    // Two pointers over the sorted runs of both rows: overlapping runs touch
    // (4-connectivity).
    std::size_t i = cur_begin, j = prev_begin;
    while (i < cur_end && j < prev_end) {
      const Run& a = runs_[i];
      const Run& b = runs_[j];
      if (a.x1 < b.x0) {
        ++i;
      } else if (b.x1 < a.x0) {
        ++j;
      } else {
        if (a.colour == b.colour) {
          const std::int32_t ra = find_root(parent, static_cast<std::int32_t>(i));
          const std::int32_t rb = find_root(parent, static_cast<std::int32_t>(j));
          if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);  // the earlier run stays root
        }
        if (a.x1 < b.x1) ++i; else ++j;
      }
    }
    prev_begin = cur_begin;
    prev_end = cur_end;
  }

  // 2. Moments and bounding box per root.
  struct Stats {
    std::int64_t area = 0;
    double sx = 0, sy = 0;
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
  };
  std::vector<Stats> stats(runs_.size());
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    const Run& r = runs_[k];
    Stats& s = stats[find_root(parent, static_cast<std::int32_t>(k))];
    const int n = r.x1 - r.x0 + 1;
    if (s.area == 0) {
      s.x0 = r.x0;
      s.x1 = r.x1;
      s.y0 = s.y1 = r.y;
    } else {
      s.x0 = std::min(s.x0, r.x0);
      s.x1 = std::max(s.x1, r.x1);
      s.y0 = std::min(s.y0, r.y);
      s.y1 = std::max(s.y1, r.y);
    }
    s.area += n;
    s.sx += 0.5 * n * (r.x0 + r.x1);
    s.sy += static_cast<double>(n) * r.y;
  }

  // 3. Shape filter.
  std::vector<ColourBlob> blobs;
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    if (parent[k] != static_cast<std::int32_t>(k)) continue;
    const Stats& s = stats[k];
    if (s.area < filter_.min_area || s.area > filter_.max_area) continue;
    const int bw = s.x1 - s.x0 + 1, bh = s.y1 - s.y0 + 1;
    if (static_cast<double>(s.area) < filter_.min_fill * bw * bh) continue;
    if (std::max(bw, bh) > filter_.max_aspect * std::min(bw, bh)) continue;
    ColourBlob b;
    b.colour = static_cast<ColourClass>(runs_[k].colour);
    b.area = static_cast<int>(s.area);
    b.centroid = {s.sx / static_cast<double>(s.area), s.sy / static_cast<double>(s.area)};
    b.bbox = {s.x0, s.y0, bw, bh};
    blobs.push_back(b);
  }
  return blobs;
}

}  // namespace robocaf::actors
