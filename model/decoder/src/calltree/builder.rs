//! Rebuilding the call stack from the executed instructions (`seeds/004`'s method, with the
//! jump classes of `ingressPort.adoc`): after each instruction the next PC decides whether a
//! function was called, tail-called, returned from, or entered by a trap.

use super::symbols::SymbolTable;
use super::tree::{CallKind, CallTree, Ending};
use super::CallTreeError;
use crate::image::InsnKind;
use crate::pcs::Step;
use crate::{ProgramImage, TraceElement};
use etrace_spec::isa::JumpClass;
use std::collections::HashMap;

/// How control left the previous instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Transfer {
    /// A jump with linkage (`Call` class, or other linkage): a call if it lands on an
    /// entry.
    Link,
    /// A `Return`-class jump.
    Return,
    /// A jump without linkage (or a co-routine swap): a return if it lands on a return
    /// address, else a tail call if it lands on an entry.
    Jump,
    /// `xRET`.
    TrapReturn,
    /// Anything else (sequential instructions, branches).
    Other,
}

/// The previous instruction.
#[derive(Debug, Clone, Copy)]
struct Prev {
    /// Address of the instruction after it.
    next: u64,
    transfer: Transfer,
}

/// One open activation.
#[derive(Debug, Clone, Copy)]
struct Frame {
    node: usize,
    /// Where the caller continues (`seeds/004`: the call's address plus its size).
    return_address: Option<u64>,
    /// Opened by a trap (closed by `xRET`).
    trap: bool,
}

/// Builds a [`CallTree`] from executed instructions and traps, one at a time. The frames
/// are indexed by return address (and the handler frames listed), so that finding the
/// frame a return goes back to costs the same at any depth.
pub struct CallTreeBuilder<'a> {
    image: &'a ProgramImage,
    symbols: &'a SymbolTable,
    tree: CallTree,
    stack: Vec<Frame>,
    /// The places in `stack` of the frames with each return address, innermost last.
    by_return: HashMap<u64, Vec<usize>>,
    /// The places in `stack` of the frames opened by traps, innermost last.
    traps: Vec<usize>,
    prev: Option<Prev>,
    pending_trap: Option<(u64, bool)>,
    index: u64,
}

impl<'a> CallTreeBuilder<'a> {
    /// A builder over the program image (to classify instructions) and its symbols.
    pub fn new(image: &'a ProgramImage, symbols: &'a SymbolTable) -> CallTreeBuilder<'a> {
        CallTreeBuilder {
            image,
            symbols,
            tree: CallTree::new(),
            stack: Vec::new(),
            by_return: HashMap::new(),
            traps: Vec::new(),
            prev: None,
            pending_trap: None,
            index: 0,
        }
    }

    /// Number of instructions seen so far.
    pub fn instructions(&self) -> u64 {
        self.index
    }

    /// The trace has a gap (trace off / on, lost packets): the next instruction does not
    /// follow the previous one, so no call or return is inferred between them.
    pub fn gap(&mut self) {
        self.prev = None;
    }

    /// A trap was taken; `epc` (when known) is where it was taken, so that a call or
    /// return leading there is still seen. The next instruction opens a handler frame.
    pub fn trap(&mut self, ecause: u64, interrupt: bool, epc: Option<u64>) {
        if let (Some(prev), Some(epc)) = (self.prev, epc) {
            self.transfer(prev, epc);
        }
        self.prev = None;
        self.pending_trap = Some((ecause, interrupt));
    }

    /// An instruction at `pc` was executed.
    pub fn instruction(&mut self, pc: u64) -> Result<(), CallTreeError> {
        let insn = self.image.insn(pc).ok_or(CallTreeError::NotInImage {
            address: pc,
            index: self.index,
        })?;
        if let Some((ecause, interrupt)) = self.pending_trap.take() {
            let parent = self.top_node();
            self.open(parent, pc, CallKind::Trap { ecause, interrupt }, None, true);
        } else if let Some(prev) = self.prev {
            self.transfer(prev, pc);
        }
        if self.stack.is_empty() {
            self.open(0, pc, CallKind::Start, None, false);
        }
        let top = self.top_node();
        self.tree.nodes[top].exclusive += 1;
        let transfer = if matches!(insn.kind, InsnKind::TrapReturn) {
            Transfer::TrapReturn
        } else {
            match insn.jump_class() {
                JumpClass::Call | JumpClass::OtherWithLinkage => Transfer::Link,
                JumpClass::Return => Transfer::Return,
                JumpClass::JumpNoLinkage | JumpClass::CoroutineSwap => Transfer::Jump,
                JumpClass::NotAJump => Transfer::Other,
            }
        };
        self.prev = Some(Prev {
            next: pc + insn.size(),
            transfer,
        });
        self.index += 1;
        Ok(())
    }

    /// The next decoded trace elements (`decoder.adoc`), as a decoder hands them out piece
    /// by piece: ranges are walked instruction by instruction, traps open handler frames,
    /// trace on / off, lost trace and decode errors are gaps.
    pub fn elements(&mut self, elements: &[TraceElement]) -> Result<(), CallTreeError> {
        for e in elements {
            match e {
                TraceElement::Range { first, count, .. } => {
                    let mut pc = *first;
                    for _ in 0..*count {
                        self.instruction(pc)?;
                        pc += self.image.insn(pc).map_or(0, |i| i.size());
                    }
                }
                TraceElement::Trap {
                    ecause,
                    interrupt,
                    epc,
                    ..
                } => self.trap(*ecause, *interrupt, *epc),
                TraceElement::TraceOn { .. }
                | TraceElement::TraceOff
                | TraceElement::TraceLost
                | TraceElement::DecodeError { .. } => self.gap(),
                TraceElement::Privilege { .. } | TraceElement::Context { .. } => {}
            }
        }
        Ok(())
    }

    /// The finished tree (frames still open stay [`Ending::Open`]).
    pub fn finish(mut self) -> CallTree {
        self.tree.finish();
        self.tree
    }

    fn top_node(&self) -> usize {
        self.stack.last().map_or(0, |f| f.node)
    }

    /// Control went from the instruction before `prev.next` to `target`.
    fn transfer(&mut self, prev: Prev, target: u64) {
        match prev.transfer {
            Transfer::Other => {}
            Transfer::Link => {
                if self.symbols.entry_at(target).is_some() {
                    let parent = self.top_node();
                    self.open(parent, target, CallKind::Call, Some(prev.next), false);
                }
            }
            Transfer::Return | Transfer::Jump => {
                // `seeds/004`: search the stack from the top for the frame whose return
                // address is the target and pop everything down to it.
                let frame = self.by_return.get(&target).and_then(|at| at.last());
                if let Some(&i) = frame {
                    self.pop_to(i);
                } else if self.symbols.entry_at(target).is_some() {
                    self.tail_call(target);
                } else if prev.transfer == Transfer::Return {
                    self.resume(target);
                }
            }
            Transfer::TrapReturn => {
                if let Some(&i) = self.traps.last() {
                    self.pop_to(i);
                } else {
                    self.resume(target);
                }
            }
        }
    }

    /// Opens a frame for the function at `pc` under node `parent`.
    fn open(
        &mut self,
        parent: usize,
        pc: u64,
        kind: CallKind,
        return_address: Option<u64>,
        trap: bool,
    ) {
        let (name, address) = match self.symbols.function_at(pc) {
            Some(s) => (s.name.clone(), s.address),
            None => (format!("{pc:#x}"), pc),
        };
        let node = self.tree.push(parent, name, address, self.index, kind);
        self.push_frame(Frame {
            node,
            return_address,
            trap,
        });
    }

    /// Pushes `frame` on the stack, indexed.
    fn push_frame(&mut self, frame: Frame) {
        let at = self.stack.len();
        if let Some(r) = frame.return_address {
            self.by_return.entry(r).or_default().push(at);
        }
        if frame.trap {
            self.traps.push(at);
        }
        self.stack.push(frame);
    }

    /// Pops the innermost frame, and its index entries.
    fn pop_frame(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        if let Some(r) = frame.return_address {
            if let Some(at) = self.by_return.get_mut(&r) {
                at.pop();
                if at.is_empty() {
                    self.by_return.remove(&r);
                }
            }
        }
        if frame.trap {
            self.traps.pop();
        }
        Some(frame)
    }

    /// Pops frames `i..` (the innermost first), marking them returned.
    fn pop_to(&mut self, i: usize) {
        while self.stack.len() > i {
            if let Some(f) = self.pop_frame() {
                self.tree.nodes[f.node].ending = Ending::Returned;
            }
        }
    }

    /// A jump to a function entry: the new function replaces the current frame and will
    /// return where it would have returned (a handler's frame stays a handler's frame).
    fn tail_call(&mut self, target: u64) {
        let Some(old) = self.pop_frame() else { return };
        self.tree.nodes[old.node].ending = Ending::Replaced;
        let from = self.tree.nodes[old.node].name.clone();
        let parent = self.tree.nodes[old.node].parent.unwrap_or(0);
        self.open(
            parent,
            target,
            CallKind::TailCall { from },
            old.return_address,
            old.trap,
        );
    }

    /// A return (or `xRET`) that matches no frame. With only the outermost frame open and
    /// the target in another function, the trace started inside a callee: close it and
    /// continue in a new outermost frame for the caller. Otherwise the return is ignored.
    fn resume(&mut self, target: u64) {
        let [only] = self.stack[..] else { return };
        let name = &self.tree.nodes[only.node].name;
        let other = match self.symbols.function_at(target) {
            Some(s) => s.name != *name,
            None => true,
        };
        if other {
            let from = name.clone();
            self.pop_to(0);
            self.open(0, target, CallKind::Resumed { from }, None, false);
        }
    }
}

/// The call tree of the instructions of decoded trace elements (`decoder.adoc`): see
/// [`CallTreeBuilder::elements`].
pub fn from_elements(
    elements: &[TraceElement],
    image: &ProgramImage,
    symbols: &SymbolTable,
) -> Result<CallTree, CallTreeError> {
    let mut b = CallTreeBuilder::new(image, symbols);
    b.elements(elements)?;
    Ok(b.finish())
}

/// The call tree of per-instruction steps ([`crate::pcs::steps`]).
pub fn from_steps(
    steps: &[Step],
    image: &ProgramImage,
    symbols: &SymbolTable,
) -> Result<CallTree, CallTreeError> {
    let mut b = CallTreeBuilder::new(image, symbols);
    for s in steps {
        match *s {
            Step::Instruction { pc, .. } => b.instruction(pc)?,
            Step::Trap { ecause, interrupt } => b.trap(ecause, interrupt, None),
        }
    }
    Ok(b.finish())
}

/// The call tree of a plain sequence of executed PCs (no traps).
pub fn from_pcs(
    pcs: impl IntoIterator<Item = u64>,
    image: &ProgramImage,
    symbols: &SymbolTable,
) -> Result<CallTree, CallTreeError> {
    let mut b = CallTreeBuilder::new(image, symbols);
    for pc in pcs {
        b.instruction(pc)?;
    }
    Ok(b.finish())
}
