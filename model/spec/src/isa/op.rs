//! The operations the decoder distinguishes (RISC-V unprivileged ISA chapters RV32I, RV64I,
//! M, A, F, D, Zicsr, Zifencei, and the privileged ISA's trap-return, `wfi` and
//! `sfence.vma` instructions).

macro_rules! ops {
    ($($name:ident = $mnemonic:literal,)*) => {
        /// One RISC-V operation. Compressed instructions decode to the operation they
        /// expand to (`c.j` is [`Op::Jal`] with `rd = 0` and `size = 2`, ...).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Op {
            $(
                #[doc = concat!("`", $mnemonic, "`")]
                $name,
            )*
        }

        impl Op {
            /// Assembler mnemonic of the (uncompressed) operation.
            pub fn mnemonic(self) -> &'static str {
                match self {
                    $(Op::$name => $mnemonic,)*
                }
            }
        }
    };
}

ops! {
    Illegal = "illegal",
    // RV32I / RV64I
    Lui = "lui",
    Auipc = "auipc",
    Jal = "jal",
    Jalr = "jalr",
    Beq = "beq",
    Bne = "bne",
    Blt = "blt",
    Bge = "bge",
    Bltu = "bltu",
    Bgeu = "bgeu",
    Lb = "lb",
    Lh = "lh",
    Lw = "lw",
    Ld = "ld",
    Lbu = "lbu",
    Lhu = "lhu",
    Lwu = "lwu",
    Sb = "sb",
    Sh = "sh",
    Sw = "sw",
    Sd = "sd",
    Addi = "addi",
    Slti = "slti",
    Sltiu = "sltiu",
    Xori = "xori",
    Ori = "ori",
    Andi = "andi",
    Slli = "slli",
    Srli = "srli",
    Srai = "srai",
    Add = "add",
    Sub = "sub",
    Sll = "sll",
    Slt = "slt",
    Sltu = "sltu",
    Xor = "xor",
    Srl = "srl",
    Sra = "sra",
    Or = "or",
    And = "and",
    Addiw = "addiw",
    Slliw = "slliw",
    Srliw = "srliw",
    Sraiw = "sraiw",
    Addw = "addw",
    Subw = "subw",
    Sllw = "sllw",
    Srlw = "srlw",
    Sraw = "sraw",
    Fence = "fence",
    FenceI = "fence.i",
    // privileged
    Ecall = "ecall",
    Ebreak = "ebreak",
    Uret = "uret",
    Sret = "sret",
    Mret = "mret",
    Dret = "dret",
    Wfi = "wfi",
    SfenceVma = "sfence.vma",
    // Zicsr
    Csrrw = "csrrw",
    Csrrs = "csrrs",
    Csrrc = "csrrc",
    Csrrwi = "csrrwi",
    Csrrsi = "csrrsi",
    Csrrci = "csrrci",
    // M
    Mul = "mul",
    Mulh = "mulh",
    Mulhsu = "mulhsu",
    Mulhu = "mulhu",
    Div = "div",
    Divu = "divu",
    Rem = "rem",
    Remu = "remu",
    Mulw = "mulw",
    Divw = "divw",
    Divuw = "divuw",
    Remw = "remw",
    Remuw = "remuw",
    // A
    LrW = "lr.w",
    ScW = "sc.w",
    AmoswapW = "amoswap.w",
    AmoaddW = "amoadd.w",
    AmoxorW = "amoxor.w",
    AmoandW = "amoand.w",
    AmoorW = "amoor.w",
    AmominW = "amomin.w",
    AmomaxW = "amomax.w",
    AmominuW = "amominu.w",
    AmomaxuW = "amomaxu.w",
    LrD = "lr.d",
    ScD = "sc.d",
    AmoswapD = "amoswap.d",
    AmoaddD = "amoadd.d",
    AmoxorD = "amoxor.d",
    AmoandD = "amoand.d",
    AmoorD = "amoor.d",
    AmominD = "amomin.d",
    AmomaxD = "amomax.d",
    AmominuD = "amominu.d",
    AmomaxuD = "amomaxu.d",
    // F
    Flw = "flw",
    Fsw = "fsw",
    FmaddS = "fmadd.s",
    FmsubS = "fmsub.s",
    FnmsubS = "fnmsub.s",
    FnmaddS = "fnmadd.s",
    FaddS = "fadd.s",
    FsubS = "fsub.s",
    FmulS = "fmul.s",
    FdivS = "fdiv.s",
    FsqrtS = "fsqrt.s",
    FsgnjS = "fsgnj.s",
    FsgnjnS = "fsgnjn.s",
    FsgnjxS = "fsgnjx.s",
    FminS = "fmin.s",
    FmaxS = "fmax.s",
    FcvtWS = "fcvt.w.s",
    FcvtWuS = "fcvt.wu.s",
    FcvtLS = "fcvt.l.s",
    FcvtLuS = "fcvt.lu.s",
    FmvXW = "fmv.x.w",
    FeqS = "feq.s",
    FltS = "flt.s",
    FleS = "fle.s",
    FclassS = "fclass.s",
    FcvtSW = "fcvt.s.w",
    FcvtSWu = "fcvt.s.wu",
    FcvtSL = "fcvt.s.l",
    FcvtSLu = "fcvt.s.lu",
    FmvWX = "fmv.w.x",
    // D
    Fld = "fld",
    Fsd = "fsd",
    FmaddD = "fmadd.d",
    FmsubD = "fmsub.d",
    FnmsubD = "fnmsub.d",
    FnmaddD = "fnmadd.d",
    FaddD = "fadd.d",
    FsubD = "fsub.d",
    FmulD = "fmul.d",
    FdivD = "fdiv.d",
    FsqrtD = "fsqrt.d",
    FsgnjD = "fsgnj.d",
    FsgnjnD = "fsgnjn.d",
    FsgnjxD = "fsgnjx.d",
    FminD = "fmin.d",
    FmaxD = "fmax.d",
    FcvtSD = "fcvt.s.d",
    FcvtDS = "fcvt.d.s",
    FeqD = "feq.d",
    FltD = "flt.d",
    FleD = "fle.d",
    FclassD = "fclass.d",
    FcvtWD = "fcvt.w.d",
    FcvtWuD = "fcvt.wu.d",
    FcvtLD = "fcvt.l.d",
    FcvtLuD = "fcvt.lu.d",
    FmvXD = "fmv.x.d",
    FcvtDW = "fcvt.d.w",
    FcvtDWu = "fcvt.d.wu",
    FcvtDL = "fcvt.d.l",
    FcvtDLu = "fcvt.d.lu",
    FmvDX = "fmv.d.x",
}

impl Op {
    /// True for the F and D extension operations (loads and stores included): the ones
    /// that raise an illegal-instruction exception while `mstatus.FS` is Off (privileged
    /// ISA, section "Extension Context Status in mstatus Register").
    pub fn is_fp(self) -> bool {
        self >= Op::Flw
    }

    /// True for the operations with a rounding-mode field (`rm`) that is used for rounding
    /// (F and D chapters: arithmetic, fused multiply-add, square root and conversions).
    pub fn uses_rm(self) -> bool {
        use Op::*;
        matches!(
            self,
            FmaddS
                | FmsubS
                | FnmsubS
                | FnmaddS
                | FaddS
                | FsubS
                | FmulS
                | FdivS
                | FsqrtS
                | FcvtWS
                | FcvtWuS
                | FcvtLS
                | FcvtLuS
                | FcvtSW
                | FcvtSWu
                | FcvtSL
                | FcvtSLu
                | FmaddD
                | FmsubD
                | FnmsubD
                | FnmaddD
                | FaddD
                | FsubD
                | FmulD
                | FdivD
                | FsqrtD
                | FcvtSD
                | FcvtDS
                | FcvtWD
                | FcvtWuD
                | FcvtLD
                | FcvtLuD
                | FcvtDW
                | FcvtDWu
                | FcvtDL
                | FcvtDLu
        )
    }
}
