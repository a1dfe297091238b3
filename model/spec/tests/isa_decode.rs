//! Decoding of every RV32/RV64 IMAFDC Zicsr Zifencei instruction form (unprivileged ISA,
//! "RV32/64G Instruction Set Listings" and "RVC Instruction Set Listings"; privileged
//! ISA "Privileged Instruction Listings"). The operation names are GNU objdump's
//! (`-M no-aliases`) for encodings made by `riscv64-unknown-elf-as`; compressed forms are
//! checked against the operation they expand to.

use etrace_spec::isa::{decode, instruction_size, Op, Xlen};
use Xlen::{X32, X64};

/// (raw, xlen, size, mnemonic of the (expanded) operation) // objdump operands
const ENCODINGS: &[(u32, Xlen, u8, &str)] = &[
    (0xfffff537, X64, 4, "lui"),        // x10,0xfffff
    (0x00001597, X64, 4, "auipc"),      // x11,0x1
    (0x001000ef, X64, 4, "jal"),        // x1,808 <.text+0x808>
    (0x80058567, X64, 4, "jalr"),       // x10,-2048(x11)
    (0x80b50063, X64, 4, "beq"),        // x10,x11,fffffffffffff010 <.text+0xfffffffffffff010>
    (0x7eb51fe3, X64, 4, "bne"),        // x10,x11,1012 <.text+0x1012>
    (0x00b54163, X64, 4, "blt"),        // x10,x11,1a <.text+0x1a>
    (0x00b55163, X64, 4, "bge"),        // x10,x11,1e <.text+0x1e>
    (0x00b56163, X64, 4, "bltu"),       // x10,x11,22 <.text+0x22>
    (0x00b57163, X64, 4, "bgeu"),       // x10,x11,26 <.text+0x26>
    (0xfff58503, X64, 4, "lb"),         // x10,-1(x11)
    (0x7ff59503, X64, 4, "lh"),         // x10,2047(x11)
    (0x0005a503, X64, 4, "lw"),         // x10,0(x11)
    (0x0085b503, X64, 4, "ld"),         // x10,8(x11)
    (0x0015c503, X64, 4, "lbu"),        // x10,1(x11)
    (0x0025d503, X64, 4, "lhu"),        // x10,2(x11)
    (0x0045e503, X64, 4, "lwu"),        // x10,4(x11)
    (0xfea58fa3, X64, 4, "sb"),         // x10,-1(x11)
    (0x80a59023, X64, 4, "sh"),         // x10,-2048(x11)
    (0x7ea5afa3, X64, 4, "sw"),         // x10,2047(x11)
    (0x00a5b423, X64, 4, "sd"),         // x10,8(x11)
    (0xfff58513, X64, 4, "addi"),       // x10,x11,-1
    (0x0055a513, X64, 4, "slti"),       // x10,x11,5
    (0xffb5b513, X64, 4, "sltiu"),      // x10,x11,-5
    (0xfff5c513, X64, 4, "xori"),       // x10,x11,-1
    (0x0015e513, X64, 4, "ori"),        // x10,x11,1
    (0x0035f513, X64, 4, "andi"),       // x10,x11,3
    (0x03f59513, X64, 4, "slli"),       // x10,x11,0x3f
    (0x0215d513, X64, 4, "srli"),       // x10,x11,0x21
    (0x43f5d513, X64, 4, "srai"),       // x10,x11,0x3f
    (0x00c58533, X64, 4, "add"),        // x10,x11,x12
    (0x40c58533, X64, 4, "sub"),        // x10,x11,x12
    (0x00c59533, X64, 4, "sll"),        // x10,x11,x12
    (0x00c5a533, X64, 4, "slt"),        // x10,x11,x12
    (0x00c5b533, X64, 4, "sltu"),       // x10,x11,x12
    (0x00c5c533, X64, 4, "xor"),        // x10,x11,x12
    (0x00c5d533, X64, 4, "srl"),        // x10,x11,x12
    (0x40c5d533, X64, 4, "sra"),        // x10,x11,x12
    (0x00c5e533, X64, 4, "or"),         // x10,x11,x12
    (0x00c5f533, X64, 4, "and"),        // x10,x11,x12
    (0xff95851b, X64, 4, "addiw"),      // x10,x11,-7
    (0x01f5951b, X64, 4, "slliw"),      // x10,x11,0x1f
    (0x01f5d51b, X64, 4, "srliw"),      // x10,x11,0x1f
    (0x4015d51b, X64, 4, "sraiw"),      // x10,x11,0x1
    (0x00c5853b, X64, 4, "addw"),       // x10,x11,x12
    (0x40c5853b, X64, 4, "subw"),       // x10,x11,x12
    (0x00c5953b, X64, 4, "sllw"),       // x10,x11,x12
    (0x00c5d53b, X64, 4, "srlw"),       // x10,x11,x12
    (0x40c5d53b, X64, 4, "sraw"),       // x10,x11,x12
    (0x0330000f, X64, 4, "fence"),      // rw,rw
    (0x0000100f, X64, 4, "fence.i"),    //
    (0x00000073, X64, 4, "ecall"),      //
    (0x00100073, X64, 4, "ebreak"),     //
    (0x30200073, X64, 4, "mret"),       //
    (0x10200073, X64, 4, "sret"),       //
    (0x10500073, X64, 4, "wfi"),        //
    (0x12b50073, X64, 4, "sfence.vma"), // x10,x11
    (0x30059573, X64, 4, "csrrw"),      // x10,mstatus,x11
    (0x3415a573, X64, 4, "csrrs"),      // x10,mepc,x11
    (0x7c05b573, X64, 4, "csrrc"),      // x10,0x7c0,x11
    (0x305fd573, X64, 4, "csrrwi"),     // x10,mtvec,31
    (0x0030e573, X64, 4, "csrrsi"),     // x10,fcsr,1
    (0xc0017573, X64, 4, "csrrci"),     // x10,cycle,2
    (0x02c58533, X64, 4, "mul"),        // x10,x11,x12
    (0x02c59533, X64, 4, "mulh"),       // x10,x11,x12
    (0x02c5a533, X64, 4, "mulhsu"),     // x10,x11,x12
    (0x02c5b533, X64, 4, "mulhu"),      // x10,x11,x12
    (0x02c5c533, X64, 4, "div"),        // x10,x11,x12
    (0x02c5d533, X64, 4, "divu"),       // x10,x11,x12
    (0x02c5e533, X64, 4, "rem"),        // x10,x11,x12
    (0x02c5f533, X64, 4, "remu"),       // x10,x11,x12
    (0x02c5853b, X64, 4, "mulw"),       // x10,x11,x12
    (0x02c5c53b, X64, 4, "divw"),       // x10,x11,x12
    (0x02c5d53b, X64, 4, "divuw"),      // x10,x11,x12
    (0x02c5e53b, X64, 4, "remw"),       // x10,x11,x12
    (0x02c5f53b, X64, 4, "remuw"),      // x10,x11,x12
    (0x1005a52f, X64, 4, "lr.w"),       // x10,(x11)
    (0x18c5a52f, X64, 4, "sc.w"),       // x10,x12,(x11)
    (0x0cc5a52f, X64, 4, "amoswap.w"),  // x10,x12,(x11)
    (0x02c5a52f, X64, 4, "amoadd.w"),   // x10,x12,(x11)
    (0x20c5a52f, X64, 4, "amoxor.w"),   // x10,x12,(x11)
    (0x60c5a52f, X64, 4, "amoand.w"),   // x10,x12,(x11)
    (0x40c5a52f, X64, 4, "amoor.w"),    // x10,x12,(x11)
    (0x80c5a52f, X64, 4, "amomin.w"),   // x10,x12,(x11)
    (0xa0c5a52f, X64, 4, "amomax.w"),   // x10,x12,(x11)
    (0xc0c5a52f, X64, 4, "amominu.w"),  // x10,x12,(x11)
    (0xe0c5a52f, X64, 4, "amomaxu.w"),  // x10,x12,(x11)
    (0x1605b52f, X64, 4, "lr.d"),       // x10,(x11)
    (0x18c5b52f, X64, 4, "sc.d"),       // x10,x12,(x11)
    (0x08c5b52f, X64, 4, "amoswap.d"),  // x10,x12,(x11)
    (0x00c5b52f, X64, 4, "amoadd.d"),   // x10,x12,(x11)
    (0x20c5b52f, X64, 4, "amoxor.d"),   // x10,x12,(x11)
    (0x60c5b52f, X64, 4, "amoand.d"),   // x10,x12,(x11)
    (0x40c5b52f, X64, 4, "amoor.d"),    // x10,x12,(x11)
    (0x80c5b52f, X64, 4, "amomin.d"),   // x10,x12,(x11)
    (0xa0c5b52f, X64, 4, "amomax.d"),   // x10,x12,(x11)
    (0xc0c5b52f, X64, 4, "amominu.d"),  // x10,x12,(x11)
    (0xe0c5b52f, X64, 4, "amomaxu.d"),  // x10,x12,(x11)
    (0xffc5a507, X64, 4, "flw"),        // f10,-4(x11)
    (0x00a5a227, X64, 4, "fsw"),        // f10,4(x11)
    (0x68c5f543, X64, 4, "fmadd.s"),    // f10,f11,f12,f13
    (0x68c59547, X64, 4, "fmsub.s"),    // f10,f11,f12,f13,rtz
    (0x68c5f54b, X64, 4, "fnmsub.s"),   // f10,f11,f12,f13
    (0x68c5f54f, X64, 4, "fnmadd.s"),   // f10,f11,f12,f13
    (0x00c5f553, X64, 4, "fadd.s"),     // f10,f11,f12
    (0x08c5a553, X64, 4, "fsub.s"),     // f10,f11,f12,rdn
    (0x10c5f553, X64, 4, "fmul.s"),     // f10,f11,f12
    (0x18c5f553, X64, 4, "fdiv.s"),     // f10,f11,f12
    (0x5805f553, X64, 4, "fsqrt.s"),    // f10,f11
    (0x20c58553, X64, 4, "fsgnj.s"),    // f10,f11,f12
    (0x20c59553, X64, 4, "fsgnjn.s"),   // f10,f11,f12
    (0x20c5a553, X64, 4, "fsgnjx.s"),   // f10,f11,f12
    (0x28c58553, X64, 4, "fmin.s"),     // f10,f11,f12
    (0x28c59553, X64, 4, "fmax.s"),     // f10,f11,f12
    (0xc0059553, X64, 4, "fcvt.w.s"),   // x10,f11,rtz
    (0xc015f553, X64, 4, "fcvt.wu.s"),  // x10,f11
    (0xc025f553, X64, 4, "fcvt.l.s"),   // x10,f11
    (0xc035f553, X64, 4, "fcvt.lu.s"),  // x10,f11
    (0xe0058553, X64, 4, "fmv.x.w"),    // x10,f11
    (0xa0c5a553, X64, 4, "feq.s"),      // x10,f11,f12
    (0xa0c59553, X64, 4, "flt.s"),      // x10,f11,f12
    (0xa0c58553, X64, 4, "fle.s"),      // x10,f11,f12
    (0xe0059553, X64, 4, "fclass.s"),   // x10,f11
    (0xd005f553, X64, 4, "fcvt.s.w"),   // f10,x11
    (0xd015f553, X64, 4, "fcvt.s.wu"),  // f10,x11
    (0xd025f553, X64, 4, "fcvt.s.l"),   // f10,x11
    (0xd035f553, X64, 4, "fcvt.s.lu"),  // f10,x11
    (0xf0058553, X64, 4, "fmv.w.x"),    // f10,x11
    (0xff85b507, X64, 4, "fld"),        // f10,-8(x11)
    (0x00a5b427, X64, 4, "fsd"),        // f10,8(x11)
    (0x6ac5f543, X64, 4, "fmadd.d"),    // f10,f11,f12,f13
    (0x6ac5f547, X64, 4, "fmsub.d"),    // f10,f11,f12,f13
    (0x6ac5f54b, X64, 4, "fnmsub.d"),   // f10,f11,f12,f13
    (0x6ac5f54f, X64, 4, "fnmadd.d"),   // f10,f11,f12,f13
    (0x02c5f553, X64, 4, "fadd.d"),     // f10,f11,f12
    (0x0ac5f553, X64, 4, "fsub.d"),     // f10,f11,f12
    (0x12c5f553, X64, 4, "fmul.d"),     // f10,f11,f12
    (0x1ac5f553, X64, 4, "fdiv.d"),     // f10,f11,f12
    (0x5a05f553, X64, 4, "fsqrt.d"),    // f10,f11
    (0x22c58553, X64, 4, "fsgnj.d"),    // f10,f11,f12
    (0x22c59553, X64, 4, "fsgnjn.d"),   // f10,f11,f12
    (0x22c5a553, X64, 4, "fsgnjx.d"),   // f10,f11,f12
    (0x2ac58553, X64, 4, "fmin.d"),     // f10,f11,f12
    (0x2ac59553, X64, 4, "fmax.d"),     // f10,f11,f12
    (0x4015f553, X64, 4, "fcvt.s.d"),   // f10,f11
    (0x42058553, X64, 4, "fcvt.d.s"),   // f10,f11
    (0xa2c5a553, X64, 4, "feq.d"),      // x10,f11,f12
    (0xa2c59553, X64, 4, "flt.d"),      // x10,f11,f12
    (0xa2c58553, X64, 4, "fle.d"),      // x10,f11,f12
    (0xe2059553, X64, 4, "fclass.d"),   // x10,f11
    (0xc205f553, X64, 4, "fcvt.w.d"),   // x10,f11
    (0xc215f553, X64, 4, "fcvt.wu.d"),  // x10,f11
    (0xc225f553, X64, 4, "fcvt.l.d"),   // x10,f11
    (0xc235f553, X64, 4, "fcvt.lu.d"),  // x10,f11
    (0xe2058553, X64, 4, "fmv.x.d"),    // x10,f11
    (0xd2058553, X64, 4, "fcvt.d.w"),   // f10,x11
    (0xd2158553, X64, 4, "fcvt.d.wu"),  // f10,x11
    (0xd225f553, X64, 4, "fcvt.d.l"),   // f10,x11
    (0xd235f553, X64, 4, "fcvt.d.lu"),  // f10,x11
    (0xf2058553, X64, 4, "fmv.d.x"),    // f10,x11
    (0x1fe0, X64, 2, "addi"),           // x8,x2,1020
    (0x3ce0, X64, 2, "fld"),            // f8,248(x9)
    (0x5ce0, X64, 2, "lw"),             // x8,124(x9)
    (0x7ce0, X64, 2, "ld"),             // x8,248(x9)
    (0xa480, X64, 2, "fsd"),            // f8,8(x9)
    (0xc0c0, X64, 2, "sw"),             // x8,4(x9)
    (0xe480, X64, 2, "sd"),             // x8,8(x9)
    (0x0001, X64, 2, "addi"),           // x0,0
    (0x1501, X64, 2, "addi"),           // x10,-32
    (0x257d, X64, 2, "addiw"),          // x10,31
    (0x557d, X64, 2, "addi"),           // x10,-1
    (0x7101, X64, 2, "addi"),           // x2,-512
    (0x7501, X64, 2, "lui"),            // x10,0xfffe0
    (0x907d, X64, 2, "srli"),           // x8,0x3f
    (0x8405, X64, 2, "srai"),           // x8,0x1
    (0x987d, X64, 2, "andi"),           // x8,-1
    (0x8c05, X64, 2, "sub"),            // x8,x9
    (0x8c25, X64, 2, "xor"),            // x8,x9
    (0x8c45, X64, 2, "or"),             // x8,x9
    (0x8c65, X64, 2, "and"),            // x8,x9
    (0x9c05, X64, 2, "subw"),           // x8,x9
    (0x9c25, X64, 2, "addw"),           // x8,x9
    (0xb001, X64, 2, "jal"),            // fffffffffffffaac <.text+0xfffffffffffffaac>
    (0xd001, X64, 2, "beq"),            // x8,1ae <.text+0x1ae>
    (0xec7d, X64, 2, "bne"),            // x8,3ae <.text+0x3ae>
    (0x157e, X64, 2, "slli"),           // x10,0x3f
    (0x357e, X64, 2, "fld"),            // f10,504(x2)
    (0x557e, X64, 2, "lw"),             // x10,252(x2)
    (0x757e, X64, 2, "ld"),             // x10,504(x2)
    (0x8502, X64, 2, "jalr"),           // x10
    (0x852e, X64, 2, "add"),            // x10,x11
    (0x9002, X64, 2, "ebreak"),         //
    (0x9502, X64, 2, "jalr"),           // x10
    (0x952e, X64, 2, "add"),            // x10,x11
    (0xbfaa, X64, 2, "fsd"),            // f10,504(x2)
    (0xdfaa, X64, 2, "sw"),             // x10,252(x2)
    (0xffaa, X64, 2, "sd"),             // x10,504(x2)
    (0xfffff537, X32, 4, "lui"),        // x10,0xfffff
    (0x00001597, X32, 4, "auipc"),      // x11,0x1
    (0x001000ef, X32, 4, "jal"),        // x1,808 <.text+0x808>
    (0x80058567, X32, 4, "jalr"),       // x10,-2048(x11)
    (0x80b50063, X32, 4, "beq"),        // x10,x11,fffff010 <.text+0xfffff010>
    (0x7eb51fe3, X32, 4, "bne"),        // x10,x11,1012 <.text+0x1012>
    (0x00b54163, X32, 4, "blt"),        // x10,x11,1a <.text+0x1a>
    (0x00b55163, X32, 4, "bge"),        // x10,x11,1e <.text+0x1e>
    (0x00b56163, X32, 4, "bltu"),       // x10,x11,22 <.text+0x22>
    (0x00b57163, X32, 4, "bgeu"),       // x10,x11,26 <.text+0x26>
    (0xfff58503, X32, 4, "lb"),         // x10,-1(x11)
    (0x7ff59503, X32, 4, "lh"),         // x10,2047(x11)
    (0x0005a503, X32, 4, "lw"),         // x10,0(x11)
    (0x0015c503, X32, 4, "lbu"),        // x10,1(x11)
    (0x0025d503, X32, 4, "lhu"),        // x10,2(x11)
    (0xfea58fa3, X32, 4, "sb"),         // x10,-1(x11)
    (0x80a59023, X32, 4, "sh"),         // x10,-2048(x11)
    (0x7ea5afa3, X32, 4, "sw"),         // x10,2047(x11)
    (0xfff58513, X32, 4, "addi"),       // x10,x11,-1
    (0x0055a513, X32, 4, "slti"),       // x10,x11,5
    (0xffb5b513, X32, 4, "sltiu"),      // x10,x11,-5
    (0xfff5c513, X32, 4, "xori"),       // x10,x11,-1
    (0x0015e513, X32, 4, "ori"),        // x10,x11,1
    (0x0035f513, X32, 4, "andi"),       // x10,x11,3
    (0x01f59513, X32, 4, "slli"),       // x10,x11,0x1f
    (0x0115d513, X32, 4, "srli"),       // x10,x11,0x11
    (0x41f5d513, X32, 4, "srai"),       // x10,x11,0x1f
    (0x00c58533, X32, 4, "add"),        // x10,x11,x12
    (0x40c58533, X32, 4, "sub"),        // x10,x11,x12
    (0x00c59533, X32, 4, "sll"),        // x10,x11,x12
    (0x00c5a533, X32, 4, "slt"),        // x10,x11,x12
    (0x00c5b533, X32, 4, "sltu"),       // x10,x11,x12
    (0x00c5c533, X32, 4, "xor"),        // x10,x11,x12
    (0x00c5d533, X32, 4, "srl"),        // x10,x11,x12
    (0x40c5d533, X32, 4, "sra"),        // x10,x11,x12
    (0x00c5e533, X32, 4, "or"),         // x10,x11,x12
    (0x00c5f533, X32, 4, "and"),        // x10,x11,x12
    (0x0330000f, X32, 4, "fence"),      // rw,rw
    (0x0000100f, X32, 4, "fence.i"),    //
    (0x00000073, X32, 4, "ecall"),      //
    (0x00100073, X32, 4, "ebreak"),     //
    (0x30200073, X32, 4, "mret"),       //
    (0x10200073, X32, 4, "sret"),       //
    (0x10500073, X32, 4, "wfi"),        //
    (0x12b50073, X32, 4, "sfence.vma"), // x10,x11
    (0x30059573, X32, 4, "csrrw"),      // x10,mstatus,x11
    (0x3415a573, X32, 4, "csrrs"),      // x10,mepc,x11
    (0x7c05b573, X32, 4, "csrrc"),      // x10,0x7c0,x11
    (0x305fd573, X32, 4, "csrrwi"),     // x10,mtvec,31
    (0x0030e573, X32, 4, "csrrsi"),     // x10,fcsr,1
    (0xc0017573, X32, 4, "csrrci"),     // x10,cycle,2
    (0x02c58533, X32, 4, "mul"),        // x10,x11,x12
    (0x02c59533, X32, 4, "mulh"),       // x10,x11,x12
    (0x02c5a533, X32, 4, "mulhsu"),     // x10,x11,x12
    (0x02c5b533, X32, 4, "mulhu"),      // x10,x11,x12
    (0x02c5c533, X32, 4, "div"),        // x10,x11,x12
    (0x02c5d533, X32, 4, "divu"),       // x10,x11,x12
    (0x02c5e533, X32, 4, "rem"),        // x10,x11,x12
    (0x02c5f533, X32, 4, "remu"),       // x10,x11,x12
    (0x1005a52f, X32, 4, "lr.w"),       // x10,(x11)
    (0x18c5a52f, X32, 4, "sc.w"),       // x10,x12,(x11)
    (0x0cc5a52f, X32, 4, "amoswap.w"),  // x10,x12,(x11)
    (0x02c5a52f, X32, 4, "amoadd.w"),   // x10,x12,(x11)
    (0x20c5a52f, X32, 4, "amoxor.w"),   // x10,x12,(x11)
    (0x60c5a52f, X32, 4, "amoand.w"),   // x10,x12,(x11)
    (0x40c5a52f, X32, 4, "amoor.w"),    // x10,x12,(x11)
    (0x80c5a52f, X32, 4, "amomin.w"),   // x10,x12,(x11)
    (0xa0c5a52f, X32, 4, "amomax.w"),   // x10,x12,(x11)
    (0xc0c5a52f, X32, 4, "amominu.w"),  // x10,x12,(x11)
    (0xe0c5a52f, X32, 4, "amomaxu.w"),  // x10,x12,(x11)
    (0xffc5a507, X32, 4, "flw"),        // f10,-4(x11)
    (0x00a5a227, X32, 4, "fsw"),        // f10,4(x11)
    (0x68c5f543, X32, 4, "fmadd.s"),    // f10,f11,f12,f13
    (0x68c59547, X32, 4, "fmsub.s"),    // f10,f11,f12,f13,rtz
    (0x68c5f54b, X32, 4, "fnmsub.s"),   // f10,f11,f12,f13
    (0x68c5f54f, X32, 4, "fnmadd.s"),   // f10,f11,f12,f13
    (0x00c5f553, X32, 4, "fadd.s"),     // f10,f11,f12
    (0x08c5a553, X32, 4, "fsub.s"),     // f10,f11,f12,rdn
    (0x10c5f553, X32, 4, "fmul.s"),     // f10,f11,f12
    (0x18c5f553, X32, 4, "fdiv.s"),     // f10,f11,f12
    (0x5805f553, X32, 4, "fsqrt.s"),    // f10,f11
    (0x20c58553, X32, 4, "fsgnj.s"),    // f10,f11,f12
    (0x20c59553, X32, 4, "fsgnjn.s"),   // f10,f11,f12
    (0x20c5a553, X32, 4, "fsgnjx.s"),   // f10,f11,f12
    (0x28c58553, X32, 4, "fmin.s"),     // f10,f11,f12
    (0x28c59553, X32, 4, "fmax.s"),     // f10,f11,f12
    (0xc0059553, X32, 4, "fcvt.w.s"),   // x10,f11,rtz
    (0xc015f553, X32, 4, "fcvt.wu.s"),  // x10,f11
    (0xe0058553, X32, 4, "fmv.x.w"),    // x10,f11
    (0xa0c5a553, X32, 4, "feq.s"),      // x10,f11,f12
    (0xa0c59553, X32, 4, "flt.s"),      // x10,f11,f12
    (0xa0c58553, X32, 4, "fle.s"),      // x10,f11,f12
    (0xe0059553, X32, 4, "fclass.s"),   // x10,f11
    (0xd005f553, X32, 4, "fcvt.s.w"),   // f10,x11
    (0xd015f553, X32, 4, "fcvt.s.wu"),  // f10,x11
    (0xf0058553, X32, 4, "fmv.w.x"),    // f10,x11
    (0xff85b507, X32, 4, "fld"),        // f10,-8(x11)
    (0x00a5b427, X32, 4, "fsd"),        // f10,8(x11)
    (0x6ac5f543, X32, 4, "fmadd.d"),    // f10,f11,f12,f13
    (0x6ac5f547, X32, 4, "fmsub.d"),    // f10,f11,f12,f13
    (0x6ac5f54b, X32, 4, "fnmsub.d"),   // f10,f11,f12,f13
    (0x6ac5f54f, X32, 4, "fnmadd.d"),   // f10,f11,f12,f13
    (0x02c5f553, X32, 4, "fadd.d"),     // f10,f11,f12
    (0x0ac5f553, X32, 4, "fsub.d"),     // f10,f11,f12
    (0x12c5f553, X32, 4, "fmul.d"),     // f10,f11,f12
    (0x1ac5f553, X32, 4, "fdiv.d"),     // f10,f11,f12
    (0x5a05f553, X32, 4, "fsqrt.d"),    // f10,f11
    (0x22c58553, X32, 4, "fsgnj.d"),    // f10,f11,f12
    (0x22c59553, X32, 4, "fsgnjn.d"),   // f10,f11,f12
    (0x22c5a553, X32, 4, "fsgnjx.d"),   // f10,f11,f12
    (0x2ac58553, X32, 4, "fmin.d"),     // f10,f11,f12
    (0x2ac59553, X32, 4, "fmax.d"),     // f10,f11,f12
    (0x4015f553, X32, 4, "fcvt.s.d"),   // f10,f11
    (0x42058553, X32, 4, "fcvt.d.s"),   // f10,f11
    (0xa2c5a553, X32, 4, "feq.d"),      // x10,f11,f12
    (0xa2c59553, X32, 4, "flt.d"),      // x10,f11,f12
    (0xa2c58553, X32, 4, "fle.d"),      // x10,f11,f12
    (0xe2059553, X32, 4, "fclass.d"),   // x10,f11
    (0xc205f553, X32, 4, "fcvt.w.d"),   // x10,f11
    (0xc215f553, X32, 4, "fcvt.wu.d"),  // x10,f11
    (0xd2058553, X32, 4, "fcvt.d.w"),   // f10,x11
    (0xd2158553, X32, 4, "fcvt.d.wu"),  // f10,x11
    (0x1fe0, X32, 2, "addi"),           // x8,x2,1020
    (0x3ce0, X32, 2, "fld"),            // f8,248(x9)
    (0x5ce0, X32, 2, "lw"),             // x8,124(x9)
    (0xa480, X32, 2, "fsd"),            // f8,8(x9)
    (0xc0c0, X32, 2, "sw"),             // x8,4(x9)
    (0x0001, X32, 2, "addi"),           // x0,0
    (0x1501, X32, 2, "addi"),           // x10,-32
    (0x557d, X32, 2, "addi"),           // x10,-1
    (0x7101, X32, 2, "addi"),           // x2,-512
    (0x7501, X32, 2, "lui"),            // x10,0xfffe0
    (0x807d, X32, 2, "srli"),           // x8,0x1f
    (0x8405, X32, 2, "srai"),           // x8,0x1
    (0x987d, X32, 2, "andi"),           // x8,-1
    (0x8c05, X32, 2, "sub"),            // x8,x9
    (0x8c25, X32, 2, "xor"),            // x8,x9
    (0x8c45, X32, 2, "or"),             // x8,x9
    (0x8c65, X32, 2, "and"),            // x8,x9
    (0xb001, X32, 2, "jal"),            // fffffa0a <.text+0xfffffa0a>
    (0xd001, X32, 2, "beq"),            // x8,10c <.text+0x10c>
    (0xec7d, X32, 2, "bne"),            // x8,30c <.text+0x30c>
    (0x057e, X32, 2, "slli"),           // x10,0x1f
    (0x357e, X32, 2, "fld"),            // f10,504(x2)
    (0x557e, X32, 2, "lw"),             // x10,252(x2)
    (0x8502, X32, 2, "jalr"),           // x10
    (0x852e, X32, 2, "add"),            // x10,x11
    (0x9002, X32, 2, "ebreak"),         //
    (0x9502, X32, 2, "jalr"),           // x10
    (0x952e, X32, 2, "add"),            // x10,x11
    (0xbfaa, X32, 2, "fsd"),            // f10,504(x2)
    (0xdfaa, X32, 2, "sw"),             // x10,252(x2)
    (0x2ffd, X32, 2, "jal"),            // a22 <.text+0xa22>
    (0x7ce0, X32, 2, "flw"),            // f8,124(x9)
    (0xe0c0, X32, 2, "fsw"),            // f8,4(x9)
    (0x757e, X32, 2, "flw"),            // f10,252(x2)
    (0xffaa, X32, 2, "fsw"),            // f10,252(x2)
];

#[test]
fn decode_every_instruction_form() {
    for &(raw, xlen, size, mnemonic) in ENCODINGS {
        let d = decode(raw, xlen);
        assert_eq!(d.op.mnemonic(), mnemonic, "{raw:#010x} on {xlen:?}");
        assert_eq!(d.size, size, "{raw:#010x} on {xlen:?}: size");
        assert_eq!(
            instruction_size(raw as u16),
            size,
            "{raw:#010x}: instruction_size"
        );
        assert_eq!(
            d.raw,
            if size == 2 { raw & 0xffff } else { raw },
            "{raw:#010x}: raw"
        );
        let fp = mnemonic.starts_with('f') && !mnemonic.starts_with("fence");
        assert_eq!(d.op.is_fp(), fp, "{mnemonic}: is_fp");
    }
}

/// Operand fields: (raw, xlen, op, rd, rs1, rs2, rs3, imm).
#[allow(clippy::type_complexity)]
const FIELDS: &[(u32, Xlen, Op, u8, u8, u8, u8, i64)] = &[
    (0xfffff537, X64, Op::Lui, 10, 0, 0, 0, -4096),
    (0x00001597, X32, Op::Auipc, 11, 0, 0, 0, 4096),
    (0x001000ef, X32, Op::Jal, 1, 0, 0, 0, 2048),
    (0x80058567, X64, Op::Jalr, 10, 11, 0, 0, -2048),
    (0x80b50063, X64, Op::Beq, 0, 10, 11, 0, -4096),
    (0x7eb51fe3, X64, Op::Bne, 0, 10, 11, 0, 4094),
    (0xfff58503, X32, Op::Lb, 10, 11, 0, 0, -1),
    (0x80a59023, X64, Op::Sh, 0, 11, 10, 0, -2048),
    (0x03f59513, X64, Op::Slli, 10, 11, 0, 0, 63),
    (0x43f5d513, X64, Op::Srai, 10, 11, 0, 0, 63),
    (0x41f5d513, X32, Op::Srai, 10, 11, 0, 0, 31),
    (0x4015d51b, X64, Op::Sraiw, 10, 11, 0, 0, 1),
    (0x68c5f543, X64, Op::FmaddS, 10, 11, 12, 13, 0),
    (0xc0059553, X32, Op::FcvtWS, 10, 11, 0, 0, 0),
    (0x4015f553, X64, Op::FcvtSD, 10, 11, 0, 0, 0),
    (0x00a5a227, X32, Op::Fsw, 0, 11, 10, 0, 4),
    // compressed: the operation they expand to
    (0x1fe0, X64, Op::Addi, 8, 2, 0, 0, 1020), // c.addi4spn x8, x2, 1020
    (0x3ce0, X64, Op::Fld, 8, 9, 0, 0, 248),   // c.fld f8, 248(x9)
    (0x7ce0, X64, Op::Ld, 8, 9, 0, 0, 248),    // c.ld x8, 248(x9)
    (0x7ce0, X32, Op::Flw, 8, 9, 0, 0, 124),   // c.flw f8, 124(x9)
    (0xa480, X64, Op::Fsd, 0, 9, 8, 0, 8),     // c.fsd f8, 8(x9)
    (0xe480, X64, Op::Sd, 0, 9, 8, 0, 8),      // c.sd x8, 8(x9)
    (0xe0c0, X32, Op::Fsw, 0, 9, 8, 0, 4),     // c.fsw f8, 4(x9)
    (0x0001, X64, Op::Addi, 0, 0, 0, 0, 0),    // c.nop
    (0x1501, X64, Op::Addi, 10, 10, 0, 0, -32), // c.addi x10, -32
    (0x257d, X64, Op::Addiw, 10, 10, 0, 0, 31), // c.addiw x10, 31
    (0x557d, X64, Op::Addi, 10, 0, 0, 0, -1),  // c.li x10, -1
    (0x7101, X64, Op::Addi, 2, 2, 0, 0, -512), // c.addi16sp -512
    (0x7501, X64, Op::Lui, 10, 0, 0, 0, -0x20 << 12), // c.lui x10, 0xfffe0
    (0x907d, X64, Op::Srli, 8, 8, 0, 0, 63),   // c.srli x8, 63
    (0x8405, X32, Op::Srai, 8, 8, 0, 0, 1),    // c.srai x8, 1
    (0x987d, X64, Op::Andi, 8, 8, 0, 0, -1),   // c.andi x8, -1
    (0x8c05, X64, Op::Sub, 8, 8, 9, 0, 0),     // c.sub x8, x9
    (0x9c25, X64, Op::Addw, 8, 8, 9, 0, 0),    // c.addw x8, x9
    (0xb001, X64, Op::Jal, 0, 0, 0, 0, -2048), // c.j -2048
    (0x2ffd, X32, Op::Jal, 1, 0, 0, 0, 2046),  // c.jal +2046
    (0xd001, X64, Op::Beq, 0, 8, 0, 0, -256),  // c.beqz x8, -256
    (0xec7d, X64, Op::Bne, 0, 8, 0, 0, 254),   // c.bnez x8, +254
    (0x157e, X64, Op::Slli, 10, 10, 0, 0, 63), // c.slli x10, 63
    (0x357e, X64, Op::Fld, 10, 2, 0, 0, 504),  // c.fldsp f10, 504(x2)
    (0x557e, X64, Op::Lw, 10, 2, 0, 0, 252),   // c.lwsp x10, 252(x2)
    (0x757e, X64, Op::Ld, 10, 2, 0, 0, 504),   // c.ldsp x10, 504(x2)
    (0x757e, X32, Op::Flw, 10, 2, 0, 0, 252),  // c.flwsp f10, 252(x2)
    (0x8502, X64, Op::Jalr, 0, 10, 0, 0, 0),   // c.jr x10
    (0x852e, X64, Op::Add, 10, 0, 11, 0, 0),   // c.mv x10, x11
    (0x9502, X64, Op::Jalr, 1, 10, 0, 0, 0),   // c.jalr x10
    (0x952e, X64, Op::Add, 10, 10, 11, 0, 0),  // c.add x10, x11
    (0xbfaa, X64, Op::Fsd, 0, 2, 10, 0, 504),  // c.fsdsp f10, 504(x2)
    (0xdfaa, X64, Op::Sw, 0, 2, 10, 0, 252),   // c.swsp x10, 252(x2)
    (0xffaa, X64, Op::Sd, 0, 2, 10, 0, 504),   // c.sdsp x10, 504(x2)
    (0xffaa, X32, Op::Fsw, 0, 2, 10, 0, 252),  // c.fswsp f10, 252(x2)
];

#[test]
fn decode_operand_fields() {
    for &(raw, xlen, op, rd, rs1, rs2, rs3, imm) in FIELDS {
        let d = decode(raw, xlen);
        assert_eq!(
            (d.op, d.rd, d.rs1, d.rs2, d.rs3, d.imm),
            (op, rd, rs1, rs2, rs3, imm),
            "{raw:#010x} on {xlen:?}"
        );
    }
}

#[test]
fn decode_csr_rm_and_ordering_fields() {
    let d = decode(0x30059573, X64); // csrrw x10, mstatus, x11
    assert_eq!((d.op, d.csr, d.rd, d.rs1), (Op::Csrrw, 0x300, 10, 11));
    let d = decode(0x305fd573, X32); // csrrwi x10, mtvec, 31
    assert_eq!((d.op, d.csr, d.rs1, d.imm), (Op::Csrrwi, 0x305, 31, 31));
    let d = decode(0x68c5f543, X64); // fmadd.s (dynamic rounding)
    assert_eq!(d.rm, 7);
    let d = decode(0x68c59547, X64); // fmsub.s ..., rtz
    assert_eq!((d.op, d.rm), (Op::FmsubS, 1));
    let d = decode(0x08c5a553, X32); // fsub.s ..., rdn
    assert_eq!((d.op, d.rm), (Op::FsubS, 2));
    let d = decode(0x0cc5a52f, X64); // amoswap.w.aq
    assert_eq!(
        (d.op, d.aq, d.rl, d.rd, d.rs1, d.rs2),
        (Op::AmoswapW, true, false, 10, 11, 12)
    );
    let d = decode(0x02c5a52f, X32); // amoadd.w.rl
    assert_eq!((d.op, d.aq, d.rl), (Op::AmoaddW, false, true));
    let d = decode(0x1605b52f, X64); // lr.d.aqrl
    assert_eq!(
        (d.op, d.aq, d.rl, d.rd, d.rs1),
        (Op::LrD, true, true, 10, 11)
    );
}

/// Reserved and unsupported encodings: (case, raw, xlen, size).
const ILLEGAL: &[(&str, u32, Xlen, u8)] = &[
    ("all-zero parcel", 0x0000, X32, 2),
    ("all-zero parcel rv64", 0x0000, X64, 2),
    ("all-ones word", 0xffff_ffff, X64, 4),
    ("48-bit encoding", 0x0000_001f, X64, 4),
    ("64-bit encoding", 0x0000_003f, X32, 4),
    ("ld on rv32", 0x0085_b503, X32, 4),
    ("slli shamt 63 on rv32", 0x03f5_9513, X32, 4),
    ("c.slli shamt 63 on rv32", 0x157e, X32, 2),
    ("c.srli shamt 63 on rv32", 0x907d, X32, 2),
    ("c.addiw rd=0", 0x2005, X64, 2),
    ("c.lwsp rd=0", 0x4002, X32, 2),
    ("c.ldsp rd=0", 0x6002, X64, 2),
    ("c.jr x0", 0x8002, X64, 2),
    ("c.addi16sp 0", 0x6101, X32, 2),
    ("c.lui imm 0", 0x6301, X64, 2),
    ("c.addi4spn 0", 0x0004, X64, 2),
    ("quadrant 0 funct3 100", 0x8000, X64, 2),
    ("c.subw on rv32", 0x9c05, X32, 2),
    ("fadd.s rm=5", 0x00c5_d553, X64, 4),
    ("fmadd.h (fmt 2)", 0x6cc5_f543, X64, 4),
    ("csr funct3 100", 0x3005_4573, X64, 4),
    ("lr.w rs2 != 0", 0x1015_a52f, X32, 4),
    ("jalr funct3 1", 0x0000_9067, X32, 4),
    ("branch funct3 2", 0x0020_a863, X64, 4),
    ("sfence.vma rd != 0", 0x12b5_00f3, X64, 4),
    ("amo .d on rv32", 0x0cc5_b52f, X32, 4),
    ("fmv.x.d on rv32", 0xe205_8553, X32, 4),
    ("load funct3 7", 0x0005_f503, X64, 4),
    ("ecall with rs1 set", 0x0000_8073, X64, 4),
    ("vector opcode", 0x0000_0057, X64, 4),
    ("addiw on rv32", 0xff95_851b, X32, 4),
];

#[test]
fn decode_reserved_encodings_are_illegal() {
    for &(case, raw, xlen, size) in ILLEGAL {
        let d = decode(raw, xlen);
        assert_eq!(d.op, Op::Illegal, "{case}");
        assert_eq!(d.size, size, "{case}");
    }
}

#[test]
fn decode_never_panics_on_any_halfword() {
    for hw in 0..=u16::MAX {
        for xlen in [X32, X64] {
            let d = decode(u32::from(hw) | 0xabcd_0000, xlen);
            assert_eq!(d.size, instruction_size(hw));
        }
    }
}
