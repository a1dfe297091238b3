//! Parameter files: the encoder parameters of `discovery.adoc` (table `tab:iparameters`)
//! by name, read into [`Params`]. Two syntaxes:
//!
//! * TOML: `iaddress_width_p = 64`, at top level or inside any table (for example
//!   `[required]`); values are integers, or booleans for parameters whose range is 0..=1;
//! * the reference flow's static-config syntax (`.scf`): one `name=value` per line,
//!   `[section]` lines ignored, `#` starts a comment that runs to the end of the line,
//!   blanks are ignored anywhere, values are decimal or `0x` hex.
//!
//! The syntax comes from the file extension (`.toml`; `.scf`, `.cfg`, `.conf`, `.ini`) or,
//! otherwise, from the content: text that parses as TOML is read as TOML, anything else as
//! static config (both read the common subset the same way).
//!
//! Unknown names, values out of range (checked by [`Params::set`]), a name set twice and
//! syntax errors are errors naming the line and column.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use toml_edit::{ImDocument, Item, Table, Value};

use super::error::{FormatError, Location};
use super::limited::{read_limited, PARAMS_MAX_BYTES};
use super::text::{parse_dec, NumError};
use crate::params::{ParamError, Params};

/// The syntax of a parameter file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsSyntax {
    /// TOML.
    Toml,
    /// The reference flow's static-config (`.scf`) syntax.
    StaticConfig,
}

impl ParamsSyntax {
    /// The syntax implied by a file name's extension, if any.
    pub fn from_path(path: &Path) -> Option<ParamsSyntax> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "toml" => Some(ParamsSyntax::Toml),
            "scf" | "cfg" | "conf" | "ini" => Some(ParamsSyntax::StaticConfig),
            _ => None,
        }
    }

    /// The syntax of `text` judged from its content: TOML if it parses as TOML.
    pub fn detect(text: &str) -> ParamsSyntax {
        if ImDocument::parse(text).is_ok() {
            ParamsSyntax::Toml
        } else {
            ParamsSyntax::StaticConfig
        }
    }
}

/// Reads the parameter file at `path` over `base` (for example `Params::default()` or
/// `Params::rv64()`); the syntax comes from the extension, else from the content. A file
/// of more than [`PARAMS_MAX_BYTES`] is refused.
pub fn load_params(path: &Path, base: Params) -> Result<Params, FormatError> {
    let file_error = |source| FormatError::File {
        path: path.to_path_buf(),
        source,
    };
    let bytes = read_limited(path, PARAMS_MAX_BYTES).map_err(file_error)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        file_error(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        ))
    })?;
    let syntax = ParamsSyntax::from_path(path).unwrap_or_else(|| ParamsSyntax::detect(&text));
    let name: Arc<str> = Arc::from(path.display().to_string());
    parse_params(&text, syntax, base, Some(name))
}

/// Parses `text` in `syntax` over `base`; `file` names the file in error locations.
pub fn parse_params(
    text: &str,
    syntax: ParamsSyntax,
    base: Params,
    file: Option<Arc<str>>,
) -> Result<Params, FormatError> {
    match syntax {
        ParamsSyntax::Toml => parse_toml(text, base, file),
        ParamsSyntax::StaticConfig => parse_static_config(text, base, file),
    }
}

/// 1-based line and character column of byte offset `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (u64, u64) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u64 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() as u64 + 1;
    (line, column)
}

/// Sets `name` = `value` in `params`, turning a refusal into an error at `name_at` (unknown
/// name) or `value_at` (range).
fn set_param(
    params: &mut Params,
    name: &str,
    value: u64,
    value_text: &str,
    name_at: Location,
    value_at: Location,
) -> Result<(), FormatError> {
    params.set(name, value).map_err(|e| match e {
        ParamError::UnknownName { name } => FormatError::UnknownParameter { name, at: name_at },
        ParamError::OutOfRange { name, min, max, .. } => FormatError::ParamOutOfRange {
            name,
            value: value_text.to_string(),
            min,
            max,
            at: value_at,
        },
    })
}

/// Refuses a parameter set a second time to another value (the file would mean two
/// values; the later one used to win without a word): `seen` holds the line and value each
/// name was first set to. The same value again (a name repeated in two sections) is kept.
fn set_once(
    seen: &mut HashMap<String, (u64, u64)>,
    name: &str,
    (line, value): (u64, u64),
    at: &Location,
) -> Result<(), FormatError> {
    match seen.get(name) {
        Some(&(first, earlier)) if earlier != value => Err(FormatError::Syntax {
            message: format!(
                "parameter `{name}` is set twice, to {earlier} on line {first} and to {value}"
            ),
            at: at.clone(),
        }),
        Some(_) => Ok(()),
        None => {
            seen.insert(name.to_string(), (line, value));
            Ok(())
        }
    }
}

/// Parses the reference flow's static-config syntax over `base`.
pub fn parse_static_config(
    text: &str,
    base: Params,
    file: Option<Arc<str>>,
) -> Result<Params, FormatError> {
    let mut params = base;
    let mut seen = HashMap::new();
    for (index, raw_line) in text.lines().enumerate() {
        let line_no = index as u64 + 1;
        let content = raw_line.split('#').next().unwrap_or("");
        let trimmed = content.trim();
        if trimmed.is_empty() {
            continue;
        }
        // Character column (1-based) of byte offset `at` in this line.
        let col = |at: usize| raw_line[..at].chars().count() as u64 + 1;
        let first = content.len() - content.trim_start().len();
        if trimmed.starts_with('[') {
            if !trimmed.ends_with(']') {
                return Err(FormatError::Syntax {
                    message: "section header without closing `]`".into(),
                    at: Location::at(file.clone(), line_no, col(first)),
                });
            }
            continue;
        }
        let Some(eq) = content.find('=') else {
            return Err(FormatError::Syntax {
                message: "expected `name=value`".into(),
                at: Location::at(file.clone(), line_no, col(first)),
            });
        };
        let name = content[..eq].trim().to_string();
        let value_part = &content[eq + 1..];
        let value = value_part.trim().to_string();
        let value_start = eq + 1 + (value_part.len() - value_part.trim_start().len());
        let name_at = Location::at(file.clone(), line_no, col(first));
        let value_at = Location::at(file.clone(), line_no, col(value_start));
        // `bpred size_p=6` or `bpred_size_p=1 0` is one token broken, not two joined.
        for (token, at, what) in [(&name, &name_at, "name"), (&value, &value_at, "value")] {
            if token.contains(char::is_whitespace) {
                return Err(FormatError::Syntax {
                    message: format!("blank inside the {what} `{token}`"),
                    at: at.clone(),
                });
            }
        }
        if name.is_empty() {
            return Err(FormatError::Syntax {
                message: "missing parameter name before `=`".into(),
                at: name_at,
            });
        }
        if value.is_empty() {
            return Err(FormatError::Syntax {
                message: format!("missing value for `{name}`"),
                at: Location::at(file.clone(), line_no, col(eq) + 1),
            });
        }
        let number = match parse_dec(value.as_bytes()) {
            Ok(v) => v,
            Err(NumError::Overflow) => {
                // Report the range when the name is known, else the unknown name.
                let spec = Params::spec(&name).ok_or_else(|| FormatError::UnknownParameter {
                    name: name.clone(),
                    at: name_at.clone(),
                })?;
                return Err(FormatError::ParamOutOfRange {
                    name: spec.name,
                    value,
                    min: spec.min,
                    max: spec.max,
                    at: value_at,
                });
            }
            Err(NumError::Syntax) => {
                if Params::spec(&name).is_none() {
                    return Err(FormatError::UnknownParameter { name, at: name_at });
                }
                return Err(FormatError::NotInteger {
                    name,
                    found: format!("`{value}`"),
                    at: value_at,
                });
            }
        };
        set_once(&mut seen, &name, (line_no, number), &name_at)?;
        set_param(&mut params, &name, number, &value, name_at, value_at)?;
    }
    Ok(params)
}

/// One `key = value` of a TOML document, with its key's byte span start.
struct TomlEntry<'a> {
    name: &'a str,
    key_start: usize,
    value_start: usize,
    value: Result<&'a Value, &'static str>,
}

fn collect_table<'a>(table: &'a Table, out: &mut Vec<TomlEntry<'a>>) {
    for (name, item) in table.iter() {
        let key_start = table
            .get_key_value(name)
            .and_then(|(k, _)| k.span())
            .map(|s| s.start);
        match item {
            Item::Table(t) => collect_table(t, out),
            Item::Value(v) => push_value(name, key_start, v, out),
            Item::ArrayOfTables(a) => {
                let start = key_start.or_else(|| a.span().map(|s| s.start)).unwrap_or(0);
                out.push(TomlEntry {
                    name,
                    key_start: start,
                    value_start: start,
                    value: Err("an array of tables"),
                });
            }
            Item::None => {}
        }
    }
}

fn push_value<'a>(
    name: &'a str,
    key_start: Option<usize>,
    value: &'a Value,
    out: &mut Vec<TomlEntry<'a>>,
) {
    if let Value::InlineTable(t) = value {
        for (n, v) in t.iter() {
            let ks = t
                .get_key_value(n)
                .and_then(|(k, _)| k.span())
                .map(|s| s.start);
            push_value(n, ks, v, out);
        }
        return;
    }
    let value_start = value.span().map_or(0, |s| s.start);
    out.push(TomlEntry {
        name,
        key_start: key_start.unwrap_or(value_start),
        value_start,
        value: Ok(value),
    });
}

/// Parses TOML over `base`: every integer (or boolean) key at any table depth is a
/// parameter name.
pub fn parse_toml(text: &str, base: Params, file: Option<Arc<str>>) -> Result<Params, FormatError> {
    let doc = ImDocument::parse(text).map_err(|e| {
        // TOML error spans count characters, not bytes.
        let char_start = e.span().map_or(0, |s| s.start);
        let byte = text
            .char_indices()
            .nth(char_start)
            .map_or(text.len(), |(b, _)| b);
        let (line, column) = line_col(text, byte);
        FormatError::Syntax {
            message: format!(
                "invalid TOML: {}",
                e.message().trim_end().replace('\n', "; ")
            ),
            at: Location::at(file.clone(), line, column),
        }
    })?;
    let mut entries = Vec::new();
    collect_table(doc.as_table(), &mut entries);
    entries.sort_by_key(|e| e.key_start);
    let mut params = base;
    let mut seen = HashMap::new();
    for entry in entries {
        let (kl, kc) = line_col(text, entry.key_start);
        let (vl, vc) = line_col(text, entry.value_start);
        let name_at = Location::at(file.clone(), kl, kc);
        let value_at = Location::at(file.clone(), vl, vc);
        let Some(spec) = Params::spec(entry.name) else {
            return Err(FormatError::UnknownParameter {
                name: entry.name.to_string(),
                at: name_at,
            });
        };
        let not_integer = |found: &str| FormatError::NotInteger {
            name: entry.name.to_string(),
            found: found.to_string(),
            at: value_at.clone(),
        };
        let (number, shown) = match entry.value {
            Err(kind) => return Err(not_integer(kind)),
            Ok(Value::Integer(i)) => {
                let v = *i.value();
                let Ok(u) = u64::try_from(v) else {
                    return Err(FormatError::ParamOutOfRange {
                        name: spec.name,
                        value: v.to_string(),
                        min: spec.min,
                        max: spec.max,
                        at: value_at,
                    });
                };
                (u, v.to_string())
            }
            Ok(Value::Boolean(b)) if spec.min == 0 && spec.max == 1 => {
                (u64::from(*b.value()), b.value().to_string())
            }
            Ok(Value::Boolean(_)) => return Err(not_integer("a boolean")),
            Ok(other) => return Err(not_integer(&format!("a {}", other.type_name()))),
        };
        set_once(&mut seen, entry.name, (kl, number), &name_at)?;
        set_param(&mut params, entry.name, number, &shown, name_at, value_at)?;
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name set twice to different values is refused at its second setting, in either
    /// syntax and whatever the sections; the same value twice is accepted.
    #[test]
    fn a_name_set_twice_is_refused() {
        let cases = [
            (
                ParamsSyntax::StaticConfig,
                "iaddress_width_p=32\n[x]\niaddress_width_p=40\n",
            ),
            (
                ParamsSyntax::Toml,
                "iaddress_width_p = 32\n[x]\niaddress_width_p = 40\n",
            ),
        ];
        for (syntax, text) in cases {
            let err = parse_params(text, syntax, Params::rv32(), None).unwrap_err();
            assert!(
                matches!(&err, FormatError::Syntax { message, at }
                    if message.contains("`iaddress_width_p` is set twice, to 32 on line 1 and to 40")
                        && at.line == 3),
                "{syntax:?}: {err}"
            );
            let same = text.replace("40", "32");
            let params = parse_params(&same, syntax, Params::rv32(), None).unwrap();
            assert_eq!(params.iaddress_width_p, 32, "{syntax:?}");
        }
    }

    /// A blank inside a name or a value of the static-config syntax is refused at the
    /// token (its column), not joined into another token; blanks around `=` are fine.
    #[test]
    fn a_blank_inside_a_static_config_token_is_refused() {
        for (text, message, col) in [
            (
                "bpred size_p=6\n",
                "blank inside the name `bpred size_p`",
                1,
            ),
            ("  bpred_size_p = 1 0\n", "blank inside the value `1 0`", 18),
        ] {
            let err =
                parse_params(text, ParamsSyntax::StaticConfig, Params::rv32(), None).unwrap_err();
            assert!(
                matches!(&err, FormatError::Syntax { message: m, at }
                    if m == message && at.line == 1 && at.column == Some(col)),
                "{text:?}: {err}"
            );
        }
        let params = parse_params(
            "  bpred_size_p = 6  # comment\n",
            ParamsSyntax::StaticConfig,
            Params::rv32(),
            None,
        )
        .unwrap();
        assert_eq!(params.bpred_size_p, 6);
    }

    #[test]
    fn line_col_counts_characters() {
        let t = "ab\nçd=1\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 6), (2, 3));
        assert_eq!(line_col(t, 100), (3, 1));
    }

    #[test]
    fn syntax_from_extension_and_content() {
        assert_eq!(
            ParamsSyntax::from_path(Path::new("a.TOML")),
            Some(ParamsSyntax::Toml)
        );
        assert_eq!(
            ParamsSyntax::from_path(Path::new("x/i_template.scf")),
            Some(ParamsSyntax::StaticConfig)
        );
        assert_eq!(ParamsSyntax::from_path(Path::new("params")), None);
        assert_eq!(
            ParamsSyntax::detect("[required]\na_p = 1\n"),
            ParamsSyntax::Toml
        );
        assert_eq!(
            ParamsSyntax::detect("[Required Attributes]\na_p=1\n"),
            ParamsSyntax::StaticConfig
        );
    }
}
