// C ABI over one Verilated encoder (etrace-tb, `src/rtl.rs`).
//
// build.rs writes one small C++ file per variant that defines the following, then
// includes this file, so every variant gets its own extern "C" functions:
//
//   ET_HEADER       the Verilated header, e.g. "Vrv32.h"
//   ET_CLASS        the Verilated class, e.g. Vrv32
//   ET_TRACED       1 if the model was verilated with --trace (VCD files possible), else 0
//   ET_FN(name)     the C symbol of a function, e.g. etrace_tb_rv32_##name
//   struct In, Out  the step's input and output structs (`Inputs` and `RawOutputs` of
//                   src/ports.rs, #[repr(C)])
//   ET_SET_INPUTS(t, in)    copies In to the model's input pins
//   ET_GET_OUTPUTS(t, out)  copies the model's output pins to Out
//   ET_LAYOUT       sizeof(In), offsetof(In, each field), sizeof(Out), offsetof(Out, ...)
//
// The copies use `low` and `read_wide` below.

#include <cstddef>
#include <cstdint>

#include "verilated.h"
#include "verilated_vcd_c.h"
#include ET_HEADER

namespace {

// The low `bits` bits of `v` (Verilator expects the unused high bits of a port clear).
inline uint64_t low(uint64_t v, unsigned bits) {
    return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1);
}

// An output of up to 64 bits as two 64-bit words.
template <typename T>
inline void read_wide(const T& v, uint64_t* lo, uint64_t* hi) {
    *lo = static_cast<uint64_t>(v);
    *hi = 0;
}

// An output wider than 64 bits (VlWide: 32-bit words, word 0 least significant).
template <std::size_t N>
inline void read_wide(const VlWide<N>& v, uint64_t* lo, uint64_t* hi) {
    uint64_t w[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < N && i < 4; ++i) w[i] = v.at(i);
    *lo = w[0] | (w[1] << 32);
    *hi = w[2] | (w[3] << 32);
}

// One model with its own context and, while open, its VCD file.
struct Model {
    VerilatedContext* ctx;
    ET_CLASS* top;
    VerilatedVcdC* vcd;
    uint64_t time;
};

void close_vcd(Model* m) {
    if (m->vcd) {
        m->vcd->close();
        delete m->vcd;
        m->vcd = nullptr;
    }
}

}  // namespace

extern "C" {

// A new model (clock low, evaluated once); never null.
void* ET_FN(new)(void) {
    Model* m = new Model;
    m->ctx = new VerilatedContext;
    // One thread: no thread pool per context.
    m->ctx->threads(1);
    m->ctx->traceEverOn(ET_TRACED != 0);
    m->top = new ET_CLASS{m->ctx, "top"};
    m->vcd = nullptr;
    m->time = 0;
    m->top->clock = 0;
    m->top->eval();
    return m;
}

// Frees a model from ET_FN(new) (closes its VCD file).
void ET_FN(free)(void* handle) {
    Model* m = static_cast<Model*>(handle);
    close_vcd(m);
    m->top->final();
    delete m->top;
    delete m->ctx;
    delete m;
}

// One clock cycle: inputs set, evaluated with the clock low, outputs sampled, rising edge.
void ET_FN(step)(void* handle, const void* in_ptr, void* out_ptr) {
    Model* m = static_cast<Model*>(handle);
    const In* in = static_cast<const In*>(in_ptr);
    Out* out = static_cast<Out*>(out_ptr);
    ET_CLASS* t = m->top;
    ET_SET_INPUTS(t, in);
    t->clock = 0;
    t->eval();
    // Compiled out of an untraced build (its `vcd` is never set).
    if (ET_TRACED && m->vcd) m->vcd->dump(m->time);
    m->time += 5;
    ET_GET_OUTPUTS(t, out);
    t->clock = 1;
    t->eval();
    if (ET_TRACED && m->vcd) m->vcd->dump(m->time);
    m->time += 5;
}

// `n` clock cycles, each as ET_FN(step): ins[i] in, outs[i] out (one call for a batch of
// cycles, so that the caller does not cross the C ABI in every cycle).
void ET_FN(run)(void* handle, const void* ins_ptr, void* outs_ptr, size_t n) {
    const In* ins = static_cast<const In*>(ins_ptr);
    Out* outs = static_cast<Out*>(outs_ptr);
    for (size_t i = 0; i < n; ++i) ET_FN(step)(handle, &ins[i], &outs[i]);
}

// Opens a VCD file (closing any open one); 0 on success, -1 if it cannot be opened or the
// model is not traced (ET_TRACED 0: the caller checks that first).
int ET_FN(trace_open)(void* handle, const char* path) {
    Model* m = static_cast<Model*>(handle);
    close_vcd(m);
#if ET_TRACED
    VerilatedVcdC* vcd = new VerilatedVcdC;
    m->top->trace(vcd, 99);
    vcd->open(path);
    if (!vcd->isOpen()) {
        delete vcd;
        return -1;
    }
    m->vcd = vcd;
    return 0;
#else
    (void)path;
    return -1;
#endif
}

// Closes the VCD file, if one is open.
void ET_FN(trace_close)(void* handle) { close_vcd(static_cast<Model*>(handle)); }

// The layout of In and Out as this compiler sees it (checked against the Rust structs):
// ET_LAYOUT. Writes at most `len` values; returns how many there are.
size_t ET_FN(layout)(uint64_t* out, size_t len) {
    const uint64_t v[] = {ET_LAYOUT};
    const size_t n = sizeof(v) / sizeof(v[0]);
    for (size_t i = 0; i < n && i < len; ++i) out[i] = v[i];
    return n;
}

}  // extern "C"
