//go:build cgo

// host.cc compiles every kernel (all.h) as host C++ and exposes the
// launch entry point of the host shim to host.go.
#include "all.h"

namespace {
struct gad_call_arg {
  const gad_entry *e;
  void **params;
};
void gad_trampoline(void *p) {
  const gad_call_arg *a = static_cast<const gad_call_arg *>(p);
  a->e->invoke(a->e->fn, a->params);
}
std::mutex gad_launch_mu;
std::string gad_err;
} // namespace

// gad_host_launch runs kernel name with the parameters in slots (param i
// in slots [ends[i-1], ends[i])). It returns NULL or an error message,
// valid until the next call.
extern "C" const char *gad_host_launch(const char *name, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                       unsigned by, unsigned bz, size_t shared, uint64_t *slots,
                                       const uint8_t *ends, int n) {
  std::lock_guard<std::mutex> lock(gad_launch_mu);
  auto it = gad_registry().find(name);
  if (it == gad_registry().end()) {
    gad_err = std::string("no kernel ") + name + " in the host shim (missing GAD_KERNEL?)";
    return gad_err.c_str();
  }
  const gad_entry &e = it->second;
  if ((size_t)n != e.sizes.size() || n > 32) {
    gad_err = std::string(name) + ": " + std::to_string(n) + " arguments, the kernel has " + std::to_string(e.sizes.size());
    return gad_err.c_str();
  }
  void *params[32];
  unsigned start = 0;
  for (int i = 0; i < n; i++) {
    unsigned want = (unsigned)((e.sizes[i] + 7) / 8);
    if (ends[i] - start != want) {
      gad_err = std::string(name) + ": argument " + std::to_string(i) + " has " + std::to_string(ends[i] - start) +
                " slots, the kernel's parameter is " + std::to_string(e.sizes[i]) + " bytes";
      return gad_err.c_str();
    }
    params[i] = &slots[start];
    start = ends[i];
  }
  gad_call_arg a{&e, params};
  const char *err = gad_host_run(dim3(gx, gy, gz), dim3(bx, by, bz), shared, gad_trampoline, &a);
  if (err) {
    gad_err = std::string(name) + ": " + err;
    return gad_err.c_str();
  }
  return nullptr;
}

// gad_host_kernels writes the registered kernel names, one per line, into
// buf (of size n) and returns the length needed.
extern "C" size_t gad_host_kernels(char *buf, size_t n) {
  std::string s;
  for (auto &kv : gad_registry()) s += kv.first + "\n";
  if (s.size() < n) memcpy(buf, s.c_str(), s.size() + 1);
  return s.size();
}
