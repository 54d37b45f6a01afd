// Sizes and block shapes of a project, as constants and enums in a header.
#pragma once
constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
static const int kChannels = 3;
enum BlockShape { kBlockX = 32, kBlockY = 8 };
