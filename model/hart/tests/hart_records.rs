//! [`HartRecords`] (issue 27, "streaming everywhere"): the records of a run in a thread of
//! its own are the records of the same run in this thread, and the run's end reaches the
//! consumer: a load error or a run error is the last item (and a [`RecordsTally`]'s
//! error), a count that differs from the first run's is an error, and a consumer that
//! stops early stops and joins the hart's thread.

mod hart_common;

use std::sync::Arc;

use etrace_hart::{Hart, HartConfig, HartRecords, HartRecordsError, RecordsTally};
use hart_common::{elf, run_with, TARGETS};

fn limited(max: u64) -> HartConfig {
    HartConfig {
        max_instructions: max,
        ..HartConfig::default()
    }
}

#[test]
fn a_run_error_is_the_last_item_after_the_same_records() {
    for target in TARGETS {
        let direct = run_with("loop", target, limited(5000));
        let want = direct.result.clone().unwrap_err();
        let items: Vec<_> =
            HartRecords::spawn(Arc::new(elf("loop", target)), limited(5000)).collect();
        let (last, records) = items.split_last().unwrap();
        assert_eq!(last, &Err(HartRecordsError::Run(want)), "{target}");
        let records: Vec<_> = records.iter().map(|r| r.clone().unwrap()).collect();
        assert_eq!(records, direct.records, "{target}");
    }
}

#[test]
fn a_finished_run_ends_without_an_error() {
    for target in TARGETS {
        let direct = hart_common::run("traps", target);
        let items: Vec<_> =
            HartRecords::spawn(Arc::new(elf("traps", target)), HartConfig::default()).collect();
        let records: Vec<_> = items
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{target}: {e}")))
            .collect();
        assert_eq!(records, direct.records, "{target}");
    }
}

#[test]
fn a_load_error_is_the_only_item() {
    let bytes = b"\x7fELF but not a RISC-V file".to_vec();
    let want = Hart::from_elf(&bytes, HartConfig::default()).err().unwrap();
    let items: Vec<_> = HartRecords::spawn(Arc::new(bytes), HartConfig::default()).collect();
    assert_eq!(items, vec![Err(HartRecordsError::Load(want))]);
}

#[test]
fn the_tally_counts_the_records_and_keeps_the_error() {
    let tally = Arc::new(RecordsTally::default());
    let taken = HartRecords::spawn(Arc::new(elf("loop", "rv32")), limited(1000))
        .tallied(tally.clone())
        .count();
    assert_eq!((taken, tally.records()), (1000, 1000));
    let Some(HartRecordsError::Run(e)) = tally.error() else {
        panic!("{:?}", tally.error());
    };
    assert_eq!(Err(HartRecordsError::Run(e)), tally.check(1000));

    let tally = Arc::new(RecordsTally::default());
    let direct = hart_common::run("traps", "rv32");
    let taken = HartRecords::spawn(Arc::new(elf("traps", "rv32")), HartConfig::default())
        .tallied(tally.clone())
        .count();
    assert_eq!(taken, direct.records.len());
    assert_eq!(tally.check(taken as u64), Ok(()));
    assert_eq!(
        tally.check(taken as u64 + 1),
        Err(HartRecordsError::Count {
            expected: taken as u64 + 1,
            presented: taken as u64,
        })
    );
}

#[test]
fn dropping_the_records_early_stops_an_endless_run() {
    // `loop` never exits: without the stop signal the hart's thread would run on until
    // the limit (here none), and the drop, which joins it, would not return.
    for target in TARGETS {
        let mut records = HartRecords::spawn(Arc::new(elf("loop", target)), limited(u64::MAX));
        let first: Vec<_> = records.by_ref().take(100_000).collect();
        assert!(first.iter().all(Result::is_ok), "{target}");
        drop(records);
    }
}
