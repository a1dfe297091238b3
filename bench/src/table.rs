//! Markdown tables and number formats.

/// A Markdown table: a header row and body rows of cells.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headings.
    pub fn new<S: ToString>(header: &[S]) -> Table {
        Table {
            header: header.iter().map(ToString::to_string).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells are left empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as Markdown lines, columns padded to equal width.
    pub fn render(&self) -> String {
        let n = self.header.len();
        let cell = |r: &[String], i: usize| r.get(i).map_or("", String::as_str).replace('|', "/");
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, w) in widths.iter_mut().enumerate() {
                *w = (*w).max(cell(r, i).chars().count());
            }
        }
        let line = |cells: Vec<String>| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            format!("| {} |\n", padded.join(" | "))
        };
        let mut out = line(self.header.clone());
        out.push_str(&line(widths.iter().map(|w| "-".repeat(*w)).collect()));
        for r in &self.rows {
            out.push_str(&line((0..n).map(|i| cell(r, i)).collect()));
        }
        out
    }
}

/// A rate with an SI prefix: `12.3 M`, `456 k`.
pub fn si(rate: f64) -> String {
    if !rate.is_finite() {
        return "?".to_string();
    }
    let (v, p) = if rate >= 1e9 {
        (rate / 1e9, " G")
    } else if rate >= 1e6 {
        (rate / 1e6, " M")
    } else if rate >= 1e3 {
        (rate / 1e3, " k")
    } else {
        (rate, " ")
    };
    format!("{}{p}", sig3(v))
}

/// Three significant digits (at least the units): `1.23`, `12.3`, `123`, `1234`.
pub fn sig3(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Seconds in a readable unit: `812 ms`, `3.41 s`, `95 µs`.
pub fn duration(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{} s", sig3(seconds))
    } else if seconds >= 1e-3 {
        format!("{} ms", sig3(seconds * 1e3))
    } else {
        format!("{} µs", sig3(seconds * 1e6))
    }
}

/// An error message shortened to fit a table cell.
pub fn short(message: &str) -> String {
    const MAX: usize = 90;
    let one_line = message.replace('\n', " ");
    if one_line.chars().count() <= MAX {
        one_line
    } else {
        let cut: String = one_line.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_padded_markdown() {
        let mut t = Table::new(&["a", "long heading"]);
        t.row(vec!["x|y".into(), "1".into()]);
        t.row(vec!["only one".into()]);
        assert_eq!(
            t.render(),
            "| a        | long heading |\n\
             | -------- | ------------ |\n\
             | x/y      | 1            |\n\
             | only one |              |\n"
        );
    }

    #[test]
    fn number_formats() {
        assert_eq!(si(12_345_678.0), "12.3 M");
        assert_eq!(si(456_000.0), "456 k");
        assert_eq!(sig3(1.234), "1.23");
        assert_eq!(duration(0.0123), "12.3 ms");
        assert_eq!(duration(2.5), "2.50 s");
        assert!(short(&"x".repeat(200)).ends_with('…'));
    }
}
