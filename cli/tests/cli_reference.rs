//! `docs/cli.md` keeps up with the command line: the sub-commands and options are read from
//! the built binary's `--help` output (top level and every sub-command), and each must be
//! in the reference: every sub-command has its own section `## `etrace <cmd>``, every option
//! of a sub-command has a table row in that section whose first cell names it, with its
//! default (`` `value` ``) and accepted values (`a|b|c` value names, clap's possible values)
//! in the row; the top-level options have a row somewhere; and no row of a sub-command's
//! section names an option the sub-command does not have. Failures list everything missing.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// Clap's generated `help` sub-command: documented with the common options, no section.
const CLAP_HELP_COMMAND: &str = "help";

/// One option of a `--help` listing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HelpOption {
    /// `--name`, when it has a long form.
    long: Option<String>,
    /// `-x`, when it has a short form.
    short: Option<String>,
    /// `[default: ...]`.
    default: Option<String>,
    /// Accepted values: the alternatives of an `<a|b>` value name and clap's possible
    /// values.
    values: Vec<String>,
}

impl HelpOption {
    /// The name the reference looks the option up by (long form first).
    fn name(&self) -> &str {
        self.long
            .as_deref()
            .or(self.short.as_deref())
            .unwrap_or_default()
    }
}

/// The `--help` output of `etrace` with `args`.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_etrace"))
        .args(args)
        .arg("--help")
        .output()
        .expect("etrace runs");
    assert!(
        out.status.success(),
        "etrace {args:?} --help failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The reference, `docs/cli.md`.
fn reference() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The sub-command names of the top-level help (its `Commands:` block).
fn sub_commands(top: &str) -> Vec<String> {
    top.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Whether a trimmed help line starts an option entry (`-x, --name`, `--name`, `-x`), as
/// opposed to a possible-value line (`- value: ...`) or description text.
fn starts_option(line: &str) -> bool {
    let name = line
        .strip_prefix("--")
        .or_else(|| line.strip_prefix('-'))
        .unwrap_or_default();
    line.starts_with('-') && name.starts_with(|c: char| c.is_ascii_alphanumeric())
}

/// Text between `open` and the next `close` after it, for every occurrence.
fn between<'a>(text: &'a str, open: &str, close: char) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        let after = &rest[start + open.len()..];
        let Some(end) = after.find(close) else { break };
        found.push(&after[..end]);
        rest = &after[end..];
    }
    found
}

/// Parses the options of a help text: each entry runs from its option line to the next one
/// (or the end), so defaults and possible values on later lines (long help) belong to it.
fn options(help: &str) -> Vec<HelpOption> {
    let section = help
        .split_once("\nOptions:\n")
        .map_or("", |(_, options)| options);
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in section.lines() {
        let trimmed = line.trim_start();
        if starts_option(trimmed) {
            entries.push((trimmed.to_string(), String::new()));
        } else if let Some((_, body)) = entries.last_mut() {
            body.push_str(trimmed);
            body.push('\n');
        }
    }
    entries
        .into_iter()
        .map(|(head, body)| {
            let words: Vec<&str> = head
                .split_whitespace()
                .map(|w| w.trim_end_matches(','))
                .collect();
            let long = words.iter().find(|w| w.starts_with("--")).map(|w| {
                w.split_once('=')
                    .map_or(w.to_string(), |(name, _)| name.to_string())
            });
            let short = words
                .iter()
                .find(|w| !w.starts_with("--") && w.starts_with('-'))
                .map(|w| w.to_string());
            let all = format!("{head}\n{body}");
            let default = between(&all, "[default: ", ']')
                .first()
                .map(|d| d.to_string());
            let mut values: Vec<String> = Vec::new();
            for name in between(&head, "<", '>') {
                if name.contains('|') {
                    values.extend(name.split('|').map(str::to_string));
                }
            }
            for list in between(&all, "[possible values: ", ']') {
                values.extend(list.split(", ").map(str::to_string));
            }
            // Long help: "Possible values:" then "- value: description" lines.
            for line in all
                .lines()
                .skip_while(|l| l.trim() != "Possible values:")
                .skip(1)
            {
                match line.trim().strip_prefix("- ") {
                    Some(item) => {
                        let value = item.split(':').next().unwrap_or(item).trim();
                        values.push(value.to_string());
                    }
                    None => break,
                }
            }
            values.sort();
            values.dedup();
            HelpOption {
                long,
                short,
                default,
                values,
            }
        })
        .collect()
}

/// Whether `text` holds `token` as a whole word (not inside a longer option name).
fn has_token(text: &str, token: &str) -> bool {
    let part_of_name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(token).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + token.len()..].chars().next();
        !before.is_some_and(part_of_name) && !after.is_some_and(part_of_name)
    })
}

/// The lines of the section under the heading `heading` (up to the next `## `).
fn section<'a>(doc: &'a str, heading: &str) -> Option<Vec<&'a str>> {
    let mut lines = doc.lines().skip_while(|l| l.trim_end() != heading);
    lines.next()?;
    Some(lines.take_while(|l| !l.starts_with("## ")).collect())
}

/// The cells of a Markdown table row (`\|` does not split a cell).
fn cells(row: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut escaped = false;
    for c in row.trim().trim_start_matches('|').chars() {
        match c {
            '|' if !escaped => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
        escaped = c == '\\';
    }
    cells
}

/// The first cells of the table rows in `lines`.
fn first_cells<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<(String, &'a str)> {
    lines
        .into_iter()
        .filter(|l| l.trim_start().starts_with('|'))
        .filter_map(|l| cells(l).into_iter().next().map(|c| (c, l)))
        .collect()
}

/// What the reference lacks for one option in a section's rows, as failure lines.
fn check_option(
    place: &str,
    option: &HelpOption,
    rows: &[(String, &str)],
    failures: &mut Vec<String>,
) {
    let name = option.name();
    let Some((_, row)) = rows.iter().find(|(first, _)| has_token(first, name)) else {
        failures.push(format!("{place}: no table row for `{name}`"));
        return;
    };
    if let Some(short) = &option.short {
        if !has_token(row, short) {
            failures.push(format!(
                "{place}: the row of `{name}` lacks its short form `{short}`"
            ));
        }
    }
    if let Some(default) = &option.default {
        if !row.contains(&format!("`{default}`")) {
            failures.push(format!(
                "{place}: the row of `{name}` lacks its default `{default}`"
            ));
        }
    }
    for value in &option.values {
        if !has_token(row, value) {
            failures.push(format!(
                "{place}: the row of `{name}` lacks the accepted value `{value}`"
            ));
        }
    }
}

/// Every option name (long and short) of a help text.
fn option_names(options: &[HelpOption]) -> BTreeSet<String> {
    options
        .iter()
        .flat_map(|o| o.long.iter().chain(o.short.iter()).cloned())
        .collect()
}

/// A help text in clap's short layout (one line per option) and one in its long layout
/// (descriptions, defaults and possible values on lines of their own).
const SHORT_HELP: &str = "Encode things

Usage: etrace encode [OPTIONS] --framing <encap|smi|atb>

Commands:
  first   The first
  second  The second

Options:
      --framing <encap|smi|atb>  Transport framing
      --resync-max <N>           Resync after N packets [default: 256]
      --mode <MODE>              A mode [default: fast] [possible values: fast, slow]
      --stats                    Print statistics
  -o, --output <OUT>             Output
  -h, --help                     Print help
";

const LONG_HELP: &str = "Decode things

Usage: etrace decode [OPTIONS] <INPUT>

Options:
      --format <FORMAT>
          Output format

          Possible values:
          - elements:  One line per trace element
          - spike-csv: Spike rows
          
          [default: elements]

  -o, --output <OUT>
          Write the output here
          - not an option line

  -h, --help
          Print help (see a summary with '-h')
";

#[test]
fn help_texts_are_parsed_into_commands_and_options() {
    assert_eq!(sub_commands(SHORT_HELP), ["first", "second"]);
    let option =
        |long: &str, short: Option<&str>, default: Option<&str>, values: &[&str]| HelpOption {
            long: Some(long.to_string()),
            short: short.map(str::to_string),
            default: default.map(str::to_string),
            values: values.iter().map(|v| v.to_string()).collect(),
        };
    assert_eq!(
        options(SHORT_HELP),
        [
            option("--framing", None, None, &["atb", "encap", "smi"]),
            option("--resync-max", None, Some("256"), &[]),
            option("--mode", None, Some("fast"), &["fast", "slow"]),
            option("--stats", None, None, &[]),
            option("--output", Some("-o"), None, &[]),
            option("--help", Some("-h"), None, &[]),
        ]
    );
    assert_eq!(
        options(LONG_HELP),
        [
            option(
                "--format",
                None,
                Some("elements"),
                &["elements", "spike-csv"]
            ),
            option("--output", Some("-o"), None, &[]),
            option("--help", Some("-h"), None, &[]),
        ]
    );
}

#[test]
fn rows_and_tokens_of_the_reference_are_read() {
    let doc = "## `etrace a`\n\n| option | default |\n|---|---|\n| `--framing encap\\|atb` | `encap` |\n| `-o`, `--out DIR` | |\n\n## `etrace b`\n| `--other` | |\n";
    let lines = section(doc, "## `etrace a`").expect("section a");
    let rows = first_cells(lines);
    let firsts: Vec<&str> = rows.iter().map(|(c, _)| c.trim()).collect();
    assert_eq!(
        firsts,
        [
            "option",
            "---",
            "`--framing encap\\|atb`",
            "`-o`, `--out DIR`"
        ]
    );
    assert!(section(doc, "## `etrace c`").is_none());
    assert!(has_token("`--timestamp` and more", "--timestamp"));
    assert!(!has_token("`--timestamp-bytes T`", "--timestamp"));
    assert!(!has_token("`--src-id`", "--src"));
    assert!(has_token("encap\\|atb", "atb"));
    let mut failures = Vec::new();
    let framing = HelpOption {
        long: Some("--framing".into()),
        short: None,
        default: Some("encap".into()),
        values: vec!["encap".into(), "atb".into(), "smi".into()],
    };
    check_option("a", &framing, &rows, &mut failures);
    assert_eq!(
        failures,
        ["a: the row of `--framing` lacks the accepted value `smi`"]
    );
}

#[test]
fn every_sub_command_has_a_section() {
    let doc = reference();
    let mut failures = Vec::new();
    for command in sub_commands(&help(&[])) {
        if command == CLAP_HELP_COMMAND {
            if !doc.contains("etrace help") {
                failures.push("`etrace help` is not mentioned".to_string());
            }
            continue;
        }
        let heading = format!("## `etrace {command}`");
        if section(&doc, &heading).is_none() {
            failures.push(format!("no section `{heading}`"));
        }
    }
    assert!(
        failures.is_empty(),
        "docs/cli.md is behind `etrace --help`:\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn every_option_is_in_the_reference() {
    let doc = reference();
    let top = help(&[]);
    let global = options(&top);
    let global_names = option_names(&global);
    let mut failures = Vec::new();
    let all_rows = first_cells(doc.lines());
    for option in &global {
        check_option("the document", option, &all_rows, &mut failures);
    }
    for command in sub_commands(&top) {
        if command == CLAP_HELP_COMMAND {
            continue;
        }
        let heading = format!("## `etrace {command}`");
        let Some(lines) = section(&doc, &heading) else {
            failures.push(format!("no section `{heading}`"));
            continue;
        };
        let rows = first_cells(lines);
        let own: Vec<HelpOption> = options(&help(&[&command]))
            .into_iter()
            .filter(|o| !global_names.contains(o.name()))
            .collect();
        assert!(
            !own.is_empty(),
            "no options parsed from `etrace {command} --help`"
        );
        for option in &own {
            check_option(&heading, option, &rows, &mut failures);
        }
        // The other way round: every option a row of this section names exists.
        let known = option_names(&own);
        for (first, _) in &rows {
            let documented = first
                .split(|c: char| c.is_whitespace() || c == '`' || c == ',')
                .filter(|w| starts_option(w));
            for name in documented {
                if !known.contains(name) {
                    failures.push(format!(
                        "{heading}: documents `{name}`, which `etrace {command} --help` does not list"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "docs/cli.md is behind `etrace --help`:\n  {}",
        failures.join("\n  ")
    );
}
