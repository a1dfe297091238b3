// C ABI over one Verilated encoder (etrace-tb, `src/rtl.rs`).
//
// build.rs writes one small C++ file per variant that defines the macros below and
// includes this file, so every variant gets its own extern "C" functions:
//
//   ET_HEADER       the Verilated header, e.g. "Vrv32.h"
//   ET_CLASS        the Verilated class, e.g. Vrv32
//   ET_FN(name)     the C symbol of a function, e.g. etrace_tb_rv32_##name
//   ET_A ET_E ET_IT iaddress_width_p, ecause_width_p, itype width
//   ET_RESYNC_BITS  width of the resync_max port
//   ET_ATB          1: ATB output port, 0: byte stream
//
// The In / Out structs mirror `Inputs` and `RawOutputs` of src/rtl.rs (#[repr(C)]).

#include <cstddef>
#include <cstdint>

#include "verilated.h"
#include "verilated_vcd_c.h"
#include ET_HEADER

namespace {

// Mirrors `etrace_tb::Inputs` (#[repr(C)]; Rust bool is C++ bool).
struct In {
    uint64_t iaddr;
    uint64_t cause;
    uint64_t tval;
    uint16_t resync_max;
    uint16_t src_id;
    bool reset;
    bool iretire;
    uint8_t itype;
    uint8_t privilege;
    uint8_t hart_context;
    uint8_t ctype;
    bool sijump;
    bool trace_enable;
    uint8_t trigger;
    bool halted;
    bool full_address;
    bool implicit_exception;
    bool sijump_option;
    bool ready;
    uint8_t source_atid;
};

// Mirrors `RawOutputs` of src/rtl.rs.
struct Out {
    uint64_t atdata_lo;
    uint64_t atdata_hi;
    uint8_t out_valid;
    uint8_t out_data;
    uint8_t out_last;
    uint8_t trace_lost;
    uint8_t atvalid;
    uint8_t atbytes;
    uint8_t atid;
};

// The low `bits` bits of `v` (Verilator expects the unused high bits of a port clear).
inline uint64_t low(uint64_t v, unsigned bits) {
    return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1);
}

// ATDATA of up to 64 bits.
template <typename T>
inline void read_wide(const T& v, uint64_t* lo, uint64_t* hi) {
    *lo = static_cast<uint64_t>(v);
    *hi = 0;
}

// ATDATA wider than 64 bits (VlWide: 32-bit words, word 0 least significant).
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
    m->ctx->traceEverOn(true);
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
    t->reset = in->reset;
    t->iretire = in->iretire;
    t->itype = low(in->itype, ET_IT);
    t->iaddr = low(in->iaddr, ET_A);
    t->privilege = low(in->privilege, 2);
    t->cause = low(in->cause, ET_E);
    t->tval = low(in->tval, ET_A);
    t->hart_context = low(in->hart_context, 1);
    t->ctype = low(in->ctype, 1);
    t->sijump = in->sijump;
    t->trace_enable = in->trace_enable;
    t->trigger = low(in->trigger, 3);
    t->halted = in->halted;
    t->full_address = in->full_address;
    t->implicit_exception = in->implicit_exception;
    t->sijump_option = in->sijump_option;
    t->resync_max = low(in->resync_max, ET_RESYNC_BITS);
#if ET_ATB
    t->source_atid = low(in->source_atid, 7);
    t->atready = in->ready;
#else
    t->src_id = in->src_id;
    t->out_ready = in->ready;
#endif
    t->clock = 0;
    t->eval();
    if (m->vcd) m->vcd->dump(m->time);
    m->time += 5;
#if ET_ATB
    out->out_valid = 0;
    out->out_data = 0;
    out->out_last = 0;
    out->atvalid = t->atvalid;
    read_wide(t->atdata, &out->atdata_lo, &out->atdata_hi);
    out->atbytes = t->atbytes;
    out->atid = t->atid;
#else
    out->out_valid = t->out_valid;
    out->out_data = t->out_data;
    out->out_last = t->out_last;
    out->atvalid = 0;
    out->atdata_lo = 0;
    out->atdata_hi = 0;
    out->atbytes = 0;
    out->atid = 0;
#endif
    out->trace_lost = t->trace_lost;
    t->clock = 1;
    t->eval();
    if (m->vcd) m->vcd->dump(m->time);
    m->time += 5;
}

// Opens a VCD file (closing any open one); 0 on success, -1 if it cannot be opened.
int ET_FN(trace_open)(void* handle, const char* path) {
    Model* m = static_cast<Model*>(handle);
    close_vcd(m);
    VerilatedVcdC* vcd = new VerilatedVcdC;
    m->top->trace(vcd, 99);
    vcd->open(path);
    if (!vcd->isOpen()) {
        delete vcd;
        return -1;
    }
    m->vcd = vcd;
    return 0;
}

// Closes the VCD file, if one is open.
void ET_FN(trace_close)(void* handle) { close_vcd(static_cast<Model*>(handle)); }

// The layout of In and Out as this compiler sees it (checked against the Rust structs):
// sizeof(In), the offset of each In field in declaration order, sizeof(Out), the offset of
// each Out field. Writes at most `len` values; returns how many there are.
size_t ET_FN(layout)(uint64_t* out, size_t len) {
    const uint64_t v[] = {
        sizeof(In),
        offsetof(In, iaddr), offsetof(In, cause), offsetof(In, tval),
        offsetof(In, resync_max), offsetof(In, src_id), offsetof(In, reset),
        offsetof(In, iretire), offsetof(In, itype), offsetof(In, privilege),
        offsetof(In, hart_context), offsetof(In, ctype), offsetof(In, sijump),
        offsetof(In, trace_enable), offsetof(In, trigger), offsetof(In, halted),
        offsetof(In, full_address), offsetof(In, implicit_exception),
        offsetof(In, sijump_option), offsetof(In, ready), offsetof(In, source_atid),
        sizeof(Out),
        offsetof(Out, atdata_lo), offsetof(Out, atdata_hi), offsetof(Out, out_valid),
        offsetof(Out, out_data), offsetof(Out, out_last), offsetof(Out, trace_lost),
        offsetof(Out, atvalid), offsetof(Out, atbytes), offsetof(Out, atid),
    };
    const size_t n = sizeof(v) / sizeof(v[0]);
    for (size_t i = 0; i < n && i < len; ++i) out[i] = v[i];
    return n;
}

}  // extern "C"
