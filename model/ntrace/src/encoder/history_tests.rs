//! The periodic split of a full HIST register: (branch outcomes, register width; the HIST
//! sent and the HIST kept).

use super::History;

const CASES: [(&str, u32, u64, u64); 4] = [
    // Period 2 over 7 bits: 6 bits go out, 1 stays.
    ("0101010", 8, 0b1_010101, 0b1_0),
    // Period 3 over 7 bits: 6 bits go out, 1 stays.
    ("1101101", 8, 0b1_110110, 0b1_1),
    // No period: everything goes out.
    ("1000000", 8, 0b1_1000000, 0b1),
    // Constant: period 1, everything goes out.
    ("1111111", 8, 0b1_1111111, 0b1),
];

#[test]
fn full_register_is_split_at_whole_periods() {
    for (outcomes, bits, sent, kept) in CASES {
        let mut h = History::new(bits);
        for c in outcomes.chars() {
            h.push(c == '1');
        }
        assert!(h.is_full(), "{outcomes}");
        assert_eq!(h.take_periodic(), sent, "{outcomes} sent");
        assert_eq!(h.value(), kept, "{outcomes} kept");
    }
}
