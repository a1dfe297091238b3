//! The coded fields of N-Trace messages ("Common Fields", "Synchronizing Messages",
//! "ResourceFull Message", "ProgTraceCorrelation Message", "Ownership Message").

use etrace_spec::ingress::Privilege;

/// B-TYPE, the reason for an indirect flow change ("Common Fields", B-TYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BType {
    /// 0: indirect jump, call or return, or a synchronisation not related to execution.
    Indirect = 0,
    /// 1: exception or interrupt (an encoder that does not report 2 and 3).
    Trap = 1,
    /// 2: exception (extension).
    Exception = 2,
    /// 3: interrupt (extension).
    Interrupt = 3,
}

impl BType {
    /// The B-TYPE of a 2-bit value.
    pub fn from_code(code: u64) -> BType {
        match code & 3 {
            0 => BType::Indirect,
            1 => BType::Trap,
            2 => BType::Exception,
            _ => BType::Interrupt,
        }
    }

    /// Whether a trap (exception or interrupt) is reported.
    pub fn is_trap(self) -> bool {
        self != BType::Indirect
    }
}

/// SYNC, the reason for a synchronisation ("Synchronizing Messages", table "SYNC Field
/// Values"); the 4-bit code, reserved codes kept as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SyncReason(pub u8);

impl SyncReason {
    /// 0: External Trace Trigger.
    pub const EXTERNAL_TRIGGER: SyncReason = SyncReason(0);
    /// 1: Exit from Reset.
    pub const EXIT_RESET: SyncReason = SyncReason(1);
    /// 2: Periodic Synchronization.
    pub const PERIODIC: SyncReason = SyncReason(2);
    /// 3: Exit from Debug Mode.
    pub const EXIT_DEBUG: SyncReason = SyncReason(3);
    /// 4: Sequential Instruction Counter.
    pub const SEQUENTIAL_ICNT: SyncReason = SyncReason(4);
    /// 5: Trace Enable.
    pub const TRACE_ENABLE: SyncReason = SyncReason(5);
    /// 6: Trace Event.
    pub const TRACE_EVENT: SyncReason = SyncReason(6);
    /// 7: Restart from FIFO overrun.
    pub const FIFO_OVERRUN: SyncReason = SyncReason(7);

    /// The name of the table "SYNC Field Values" (`reserved` for the others).
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "External Trace Trigger",
            1 => "Exit from Reset",
            2 => "Periodic Synchronization",
            3 => "Exit from Debug Mode",
            4 => "Sequential Instruction Counter",
            5 => "Trace Enable",
            6 => "Trace Event",
            7 => "Restart from FIFO overrun",
            9 => "Exit from Power-down",
            _ => "reserved",
        }
    }
}

/// RCODE of a ResourceFull message ("ResourceFull Message").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rcode(pub u8);

impl Rcode {
    /// 0: the I-CNT counter is full; RDATA[0] is the I-CNT.
    pub const ICNT: Rcode = Rcode(0);
    /// 1: the HIST register is full; RDATA[0] is the HIST.
    pub const HIST: Rcode = Rcode(1);
    /// 2: the HIST register is full and repeated; RDATA[0] is the HIST, RDATA[1] HREPEAT.
    pub const HIST_REPEAT: Rcode = Rcode(2);
}

/// EVCODE of a ProgTraceCorrelation message ("ProgTraceCorrelation Message").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Evcode(pub u8);

impl Evcode {
    /// 0: entry into Debug Mode.
    pub const DEBUG: Evcode = Evcode(0);
    /// 1: entry into Low-power Mode.
    pub const LOW_POWER: Evcode = Evcode(1);
    /// 4: Program Trace Disabled.
    pub const TRACE_DISABLED: Evcode = Evcode(4);
}

/// The PROCESS field of an Ownership message, `{CONTEXT, V, PRV[1:0], FORMAT[1:0]}`
/// ("Ownership Message", table "Encoding of PROCESS field").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Process {
    /// FORMAT: 0 privilege change, 2 `scontext`, 3 `hcontext` (1 reserved).
    pub format: u8,
    /// PRV[1:0].
    pub prv: u8,
    /// V.
    pub v: bool,
    /// CONTEXT (FORMAT 2 and 3).
    pub context: u64,
}

impl Process {
    /// The field value.
    pub fn value(&self) -> u64 {
        u64::from(self.format & 3)
            | (u64::from(self.prv & 3) << 2)
            | (u64::from(self.v) << 4)
            | if self.format >= 2 {
                self.context << 5
            } else {
                0
            }
    }

    /// The sub-fields of a field value.
    pub fn from_value(value: u64) -> Process {
        let format = (value & 3) as u8;
        Process {
            format,
            prv: ((value >> 2) & 3) as u8,
            v: (value >> 4) & 1 != 0,
            context: if format >= 2 { value >> 5 } else { 0 },
        }
    }

    /// The V / PRV encoding of an ingress privilege level (debug mode is reported as
    /// machine mode: the PROCESS field has no encoding for it).
    pub fn for_privilege(privilege: Privilege) -> (bool, u8) {
        match privilege {
            Privilege::User => (false, 0),
            Privilege::Supervisor => (false, 1),
            Privilege::Machine | Privilege::Debug => (false, 3),
            Privilege::VirtualUser => (true, 0),
            Privilege::VirtualSupervisor => (true, 1),
        }
    }

    /// The privilege level V / PRV encode; `None` for the reserved encodings.
    pub fn privilege(&self) -> Option<Privilege> {
        Some(match (self.v, self.prv) {
            (false, 0) => Privilege::User,
            (false, 1) => Privilege::Supervisor,
            (false, 3) => Privilege::Machine,
            (true, 0) => Privilege::VirtualUser,
            (true, 1) => Privilege::VirtualSupervisor,
            _ => return None,
        })
    }
}
