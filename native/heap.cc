// The one piece of the addon that needs V8's own API (Node has none for it): telling V8 that memory is
// wanted back. Called from corral_native.c.
#include <v8.h>

extern "C" void corral_reduce_heap(void) {
  // Moderate pressure starts an incremental marking with V8's memory-reducing flags: the collection
  // runs in steps between turns of the event loop, and at its end the young generation shrinks to its
  // initial size and the pages it freed are released. (Critical pressure would collect at once, in one
  // long pause, and also drop compiled code.)
  v8::Isolate* isolate = v8::Isolate::GetCurrent();
  if (isolate != nullptr) isolate->MemoryPressureNotification(v8::MemoryPressureLevel::kModerate);
}
