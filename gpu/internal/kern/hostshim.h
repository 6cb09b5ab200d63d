// hostshim.h runs CUDA kernels on the host, for the tests of package gpu
// (included by prelude.h when the source is compiled as plain C++).
//
// Each CUDA thread of a block is a fiber, all on the calling OS thread:
// the blocks of a grid run one after the other, and the threads of a
// block run in turn, each until it finishes or reaches __syncthreads,
// which switches to the next (round robin). So __shared__ memory is a
// static variable, atomics are plain additions, and a launch costs a
// context switch per thread and barrier (about 10 ns on x86-64, with the
// switch below; ucontext elsewhere). One launch runs at a time.
// Undefined behaviour that the GPU would hide is not detected, but a
// barrier reached by only some threads of a block is (CUDA requires it
// of all): the launch fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#if !(defined(__x86_64__) && defined(__linux__))
#include <ucontext.h>
#define GAD_UCONTEXT 1
#endif

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __forceinline__ inline

static dim3 threadIdx, blockIdx, blockDim, gridDim;

// The dynamic shared memory of the running launch.
static std::vector<uint64_t> gad_dyn_shared_buf;
#define GAD_DYN_SHARED(T, name) T *name = reinterpret_cast<T *>(gad_dyn_shared_buf.data())

static inline double gad_atomic_add(double *p, double v) { double o = *p; *p = o + v; return o; }
static inline float gad_atomic_add(float *p, float v) { float o = *p; *p = o + v; return o; }

// ---- fibers ----------------------------------------------------------

#if defined(GAD_UCONTEXT)
struct gad_ctx { ucontext_t uc; };
#else
// gad_ctx_switch saves the callee-saved registers on the current stack,
// stores the stack pointer in *from and resumes the context whose stack
// pointer is to (System V x86-64 ABI).
extern "C" void gad_ctx_switch(void **from, void *to);
asm(R"(
  .pushsection .text
  .p2align 4
  .type gad_ctx_switch, @function
gad_ctx_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .popsection
)");
struct gad_ctx { void *sp; };
#endif

enum { gad_run, gad_barrier, gad_done };

struct gad_fiber {
  gad_ctx ctx;
  char *stack;
  int state;
};

static const size_t gad_stack_bytes = 64 << 10;
static gad_ctx gad_sched;
static std::vector<gad_fiber> gad_fibers;
static unsigned gad_cur;
static void (*gad_body)(void *);
static void *gad_body_arg;

static void gad_fiber_main() {
  gad_body(gad_body_arg);
  gad_fibers[gad_cur].state = gad_done;
#if defined(GAD_UCONTEXT)
  // returns through uc_link to the scheduler
#else
  void *dummy;
  gad_ctx_switch(&dummy, gad_sched.sp);
#endif
}

static void gad_fiber_start(gad_fiber &f) {
  f.state = gad_run;
#if defined(GAD_UCONTEXT)
  getcontext(&f.ctx.uc);
  f.ctx.uc.uc_stack.ss_sp = f.stack;
  f.ctx.uc.uc_stack.ss_size = gad_stack_bytes;
  f.ctx.uc.uc_link = &gad_sched.uc;
  makecontext(&f.ctx.uc, gad_fiber_main, 0);
#else
  // The frame gad_ctx_switch pops: six registers, then the return
  // address gad_fiber_main, entered with rsp ≡ 8 (mod 16) as after a
  // call, above a fake return address (gad_fiber_main never returns).
  uintptr_t top = (reinterpret_cast<uintptr_t>(f.stack) + gad_stack_bytes) & ~uintptr_t(15);
  void **sp = reinterpret_cast<void **>(top - 8);
  *sp = nullptr;
  *--sp = reinterpret_cast<void *>(gad_fiber_main);
  for (int i = 0; i < 6; i++) *--sp = nullptr;
  f.ctx.sp = sp;
#endif
}

static void gad_resume(unsigned t) {
  gad_cur = t;
#if defined(GAD_UCONTEXT)
  swapcontext(&gad_sched.uc, &gad_fibers[t].ctx.uc);
#else
  gad_ctx_switch(&gad_sched.sp, gad_fibers[t].ctx.sp);
#endif
}

static inline void __syncthreads() {
  gad_fiber &f = gad_fibers[gad_cur];
  f.state = gad_barrier;
#if defined(GAD_UCONTEXT)
  swapcontext(&f.ctx.uc, &gad_sched.uc);
#else
  gad_ctx_switch(&f.ctx.sp, gad_sched.sp);
#endif
}

// gad_host_run runs body(arg) as a kernel on grid×block threads, with
// shared bytes of dynamic shared memory. It returns NULL, or a message.
static const char *gad_host_run(dim3 grid, dim3 block, size_t shared, void (*body)(void *), void *arg) {
  unsigned nt = block.x * block.y * block.z;
  if (nt == 0 || nt > 1024) return "block size out of range";
  while (gad_fibers.size() < nt) {
    gad_fiber f;
    f.stack = static_cast<char *>(malloc(gad_stack_bytes));
    if (!f.stack) return "out of memory for fiber stacks";
    gad_fibers.push_back(f);
  }
  gad_dyn_shared_buf.assign((shared + 7) / 8 + 1, 0x7ff8dead7ff8deadULL); // NaN-ish garbage, like uninitialized memory
  gridDim = grid;
  blockDim = block;
  gad_body = body;
  gad_body_arg = arg;
  for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++) {
        blockIdx = dim3(bx, by, bz);
        for (unsigned t = 0; t < nt; t++) gad_fiber_start(gad_fibers[t]);
        for (;;) {
          unsigned done = 0, waiting = 0;
          for (unsigned t = 0; t < nt; t++) {
            gad_fiber &f = gad_fibers[t];
            if (f.state == gad_barrier) f.state = gad_run;
            if (f.state == gad_run) {
              threadIdx = dim3(t % block.x, (t / block.x) % block.y, t / (block.x * block.y));
              gad_resume(t);
            }
            if (f.state == gad_done) done++;
            else waiting++;
          }
          if (done == nt) break;
          if (done > 0) return "__syncthreads reached by only some threads of a block";
        }
      }
  return nullptr;
}

// ---- the kernel registry ----------------------------------------------

// A gad_entry calls a kernel with CUDA's kernelParams convention: p[i]
// points to parameter i.
struct gad_entry {
  void (*fn)();
  void (*invoke)(void (*fn)(), void **p);
  std::vector<size_t> sizes; // sizeof each parameter
};

static std::map<std::string, gad_entry> &gad_registry() {
  static std::map<std::string, gad_entry> r;
  return r;
}

template <class T> struct gad_unref { typedef T type; };
template <class T> struct gad_unref<T &> { typedef T type; };
template <class T> struct gad_unref<const T &> { typedef T type; };

template <class... A, size_t... I>
static void gad_call(void (*f)(A...), void **p, std::index_sequence<I...>) {
  f(*static_cast<typename gad_unref<A>::type *>(p[I])...);
}

template <class... A>
static void gad_invoke(void (*fn)(), void **p) {
  gad_call(reinterpret_cast<void (*)(A...)>(fn), p, std::index_sequence_for<A...>{});
}

struct gad_register {
  template <class... A>
  gad_register(const char *name, void (*f)(A...)) {
    gad_registry()[name] = gad_entry{reinterpret_cast<void (*)()>(f), &gad_invoke<A...>, {sizeof(typename gad_unref<A>::type)...}};
  }
};

#define GAD_CAT2(a, b) a##b
#define GAD_CAT(a, b) GAD_CAT2(a, b)
#define GAD_KERNEL(name) static gad_register GAD_CAT(gad_reg_, name)(#name, name);
