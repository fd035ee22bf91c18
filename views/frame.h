// A frame of a 60 Hz screen: what the window puts off "a frame later"
// (after a worker's hand-over, say) waits this long. The window paints a
// few milliseconds after its widgets asked to (Qt gathers the requests), so
// anything sooner would run before that paint and add to it.
#pragma once

namespace idem {

inline constexpr int kFrameMs = 16;

}  // namespace idem
