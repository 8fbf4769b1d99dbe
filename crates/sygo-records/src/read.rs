//! Reading a record: the `sgf-parse` crate reads the SGF syntax into a tree
//! of nodes and properties; this module gives the properties their meaning
//! in three stages, each with its own errors: the text ([`SyntaxError`]),
//! the properties ([`FormatError`], node by node in the order written), and
//! the rules ([`Record::new`] replays every turn).
//!
//! Forgiving where SGF is: whitespace anywhere between values, anything
//! before the first `(`, FF[3]-style identifiers with lower-case letters
//! (`AddBlack` is `AB`), a point list written as a rectangle (`aa:cc`), a turn
//! in the root node. Strict where meaning is at stake: the game, the board,
//! every point, every turn.

use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, LexerError, SgfNode, SgfParseError, SgfProp, go};
use sygo_rules::{Color, Geometry, Point, Position, Variant};

use crate::error::{FormatError, IllegalError, RecordError, SyntaxError};
use crate::point::{point_from_sgf, points_from_sgf};
use crate::record::{GAME_NUMBER, GameInfo, INTERPRETED, MAX_KOMI, Record};
use crate::tree::{Node, Play, Property, Tree};

/// Identifiers that belong only in the root node.
const ROOT_ONLY: &[&str] = &["FF", "GM", "SZ", "VR", "CA"];
/// Setup identifiers: only in the root, where they give the start.
const SETUP: &[&str] = &["AB", "AW", "PL", "GS"];

impl Record {
    /// Reads a record (`docs/records.md`).
    ///
    /// # Errors
    ///
    /// [`RecordError`]: the text is not SGF, not a record of this format, or
    /// a record of an illegal game; the node and the reason are given.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        parse(text, MAX_NODES)
    }

    /// Reads a record of at most `nodes` nodes (and at most [`MAX_NODES`]):
    /// a longer text is refused before it is read, at the cost of a scan.
    ///
    /// # Errors
    ///
    /// As [`Record::parse`]; [`RecordError::TooManyNodes`] beyond `nodes`.
    pub fn parse_at_most(text: &str, nodes: usize) -> Result<Record, RecordError> {
        parse(text, nodes.min(MAX_NODES))
    }
}

/// The most nodes a record may hold: a million, thousands of times a long
/// game with many variations.
pub const MAX_NODES: usize = 1_000_000;

/// The deepest its game trees may nest (a variation inside a variation …,
/// the whole game being the first): a thousand.
pub const MAX_NESTING: usize = 1_000;

/// Up to this many nodes, a record is read on the caller's thread.
const NODES_READ_IN_PLACE: usize = 4_096;

/// The stack a record's reading may need for each of its nodes: the SGF
/// reader holds a sequence as a chain of nested nodes, which it frees (on
/// an error) and this module takes apart one level of the stack a node.
const STACK_PER_NODE: usize = 256;

/// The shape of an SGF text, counted without reading it: its nodes (each
/// `;` outside a property value) and how deep its game trees nest.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    nodes: usize,
    nesting: usize,
}

fn shape(text: &str) -> Shape {
    let mut shape = Shape {
        nodes: 0,
        nesting: 0,
    };
    let mut depth = 0usize;
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            // A value runs to the next `]` that no `\` escapes.
            b'[' => {
                while let Some(b) = bytes.next() {
                    match b {
                        b'\\' => {
                            bytes.next();
                        }
                        b']' => break,
                        _ => {}
                    }
                }
            }
            b'(' => {
                depth += 1;
                shape.nesting = shape.nesting.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            b';' => shape.nodes += 1,
            _ => {}
        }
    }
    shape
}

/// Reads a record: see [`Record::parse`]. The text's size is checked
/// first (`max_nodes`, [`MAX_NESTING`]); a large one is read on a thread
/// of its own whose stack fits its nodes, so that no text can overflow the
/// stack (the SGF reader's trees nest one level a node).
fn parse(text: &str, max_nodes: usize) -> Result<Record, RecordError> {
    let start = text
        .find('(')
        .ok_or(RecordError::Syntax(SyntaxError::NoGameTree))?;
    let text = &text[start..];
    let shape = shape(text);
    if shape.nodes > max_nodes {
        return Err(RecordError::TooManyNodes {
            nodes: shape.nodes,
            max: max_nodes,
        });
    }
    if shape.nesting > MAX_NESTING {
        return Err(RecordError::TooDeep {
            nesting: shape.nesting,
            max: MAX_NESTING,
        });
    }
    if shape.nodes <= NODES_READ_IN_PLACE {
        return read(text);
    }
    let stack = (1 << 20) + STACK_PER_NODE * (shape.nodes + shape.nesting);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("sygo-records: read".to_string())
            .stack_size(stack)
            .spawn_scoped(scope, || read(text))
            .map_err(|e| {
                RecordError::Syntax(SyntaxError::Other(format!(
                    "the record could not be read: no thread for its {} nodes ({e})",
                    shape.nodes
                )))
            })?
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Reads a record from its first `(`.
fn read(text: &str) -> Result<Record, RecordError> {
    let trees = sgf_parse::parse(text).map_err(syntax_error)?;
    if trees.len() != 1 {
        return Err(RecordError::Collection(trees.len()));
    }
    let mut root = match trees.into_iter().next() {
        Some(GameTree::Unknown(root)) => root,
        Some(GameTree::GoGame(root)) => {
            let error = match root.get_property("GM") {
                // The reader tells the game by an identifier spelled `GM`
                // exactly; spelled with lower-case letters (`GaMe`), it reads
                // the tree as Go.
                Some(go::Prop::GM(GAME_NUMBER)) => FormatError::Misplaced {
                    property: "GM".to_string(),
                    why: "write the identifier GM in capitals alone: \
                          spelled with lower-case letters it is taken for a game of Go",
                },
                Some(go::Prop::GM(n)) => FormatError::NotSygo {
                    gm: Some(n.to_string()),
                },
                _ => FormatError::NotSygo { gm: None },
            };
            return Err(format_error(0, error));
        }
        None => return Err(RecordError::Syntax(SyntaxError::NoGameTree)),
    };
    let children = std::mem::take(&mut root.children);
    let (info, start, geometry, root_node) = read_root(raw_properties(root.properties, 0)?)?;
    let mut number = 1;
    let tree = read_sequence(vec![root_node], children, &mut number, &geometry)?;
    Record::new(info, start, tree)
}

/// The error of the SGF reader, in the terms of this crate.
fn syntax_error(e: SgfParseError) -> RecordError {
    let syntax = match e {
        SgfParseError::LexerError(
            LexerError::UnexpectedEndOfPropertyValue | LexerError::MissingPropertyIdentifier,
        )
        | SgfParseError::UnexpectedEndOfData => SyntaxError::Truncated,
        SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyIdentifier) => {
            SyntaxError::Other(
                "a property identifier holds a character other than a letter".to_string(),
            )
        }
        SgfParseError::UnexpectedGameTreeEnd => SyntaxError::UnbalancedParenthesis,
        SgfParseError::UnexpectedGameTreeStart | SgfParseError::UnexpectedProperty => {
            SyntaxError::Misplaced
        }
        SgfParseError::NoGameTrees => SyntaxError::NoGameTree,
        SgfParseError::InvalidGameType => {
            return format_error(
                0,
                FormatError::BadValue {
                    property: "GM".to_string(),
                    values: Vec::new(),
                    why: format!("GM takes one number: this format's is GM[{GAME_NUMBER}]"),
                },
            );
        }
        other => SyntaxError::Other(other.to_string()),
    };
    RecordError::Syntax(syntax)
}

fn format_error(node: usize, error: FormatError) -> RecordError {
    RecordError::Format { node, error }
}

/// The properties of a node as identifiers and unescaped values, checked for
/// empty identifiers and for the interpreted ones given twice.
fn raw_properties(properties: Vec<Prop>, node: usize) -> Result<Vec<Property>, RecordError> {
    let mut raw: Vec<Property> = Vec::with_capacity(properties.len());
    for prop in properties {
        let property = raw_property(prop);
        if property.identifier.is_empty() {
            return Err(format_error(node, FormatError::NoIdentifier));
        }
        if INTERPRETED.contains(&property.identifier.as_str())
            && raw.iter().any(|p| p.identifier == property.identifier)
        {
            return Err(format_error(
                node,
                FormatError::Duplicate {
                    property: property.identifier,
                },
            ));
        }
        raw.push(property);
    }
    Ok(raw)
}

/// A property as written: its identifier and its values, unescaped.
///
/// `sgf-parse` gives SGF's general properties typed values; those are turned
/// back into text through its own writer. The values of list properties,
/// which it keeps in hash sets, are sorted so that the order is stable.
fn raw_property(prop: Prop) -> Property {
    let identifier = prop.identifier();
    let is_list = matches!(
        prop,
        Prop::AB(_)
            | Prop::AE(_)
            | Prop::AW(_)
            | Prop::AR(_)
            | Prop::CR(_)
            | Prop::DD(_)
            | Prop::LB(_)
            | Prop::LN(_)
            | Prop::MA(_)
            | Prop::SL(_)
            | Prop::SQ(_)
            | Prop::TR(_)
            | Prop::VW(_)
    );
    let mut values = match prop {
        Prop::Unknown(_, values) | Prop::Invalid(_, values) => values,
        Prop::SZ((columns, rows)) if columns == rows => vec![columns.to_string()],
        typed => split_values(&typed.to_string()),
    };
    if is_list {
        values.sort();
    }
    Property { identifier, values }
}

/// The values of a property written as `ID[v1][v2]`, unescaped.
fn split_values(written: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut current: Option<String> = None;
    let mut escaped = false;
    for c in written.chars() {
        match &mut current {
            None => {
                if c == '[' {
                    current = Some(String::new());
                }
            }
            Some(value) => {
                if escaped {
                    value.push(c);
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == ']' {
                    values.push(std::mem::take(value));
                    current = None;
                } else {
                    value.push(c);
                }
            }
        }
    }
    values
}

/// Removes a property from a node's list, if it is there.
fn take(properties: &mut Vec<Property>, identifier: &str) -> Option<Property> {
    let index = properties.iter().position(|p| p.identifier == identifier)?;
    Some(properties.remove(index))
}

/// The one value of a property.
fn single(node: usize, property: Property) -> Result<String, RecordError> {
    match <[String; 1]>::try_from(property.values) {
        Ok([value]) => Ok(value),
        Err(values) => Err(format_error(
            node,
            FormatError::BadValue {
                property: property.identifier,
                values,
                why: "this property takes exactly one value".to_string(),
            },
        )),
    }
}

fn bad_value(node: usize, identifier: &str, value: &str, why: &str) -> RecordError {
    format_error(
        node,
        FormatError::BadValue {
            property: identifier.to_string(),
            values: vec![value.to_string()],
            why: why.to_string(),
        },
    )
}

/// Reads the root: the game, the board, the game information, the setup,
/// and what any node holds.
fn read_root(
    mut props: Vec<Property>,
) -> Result<(GameInfo, Position, Geometry, Node), RecordError> {
    let gm = take(&mut props, "GM").map(|p| single(0, p)).transpose()?;
    if gm.as_deref().and_then(|v| v.parse::<i64>().ok()) != Some(GAME_NUMBER) {
        return Err(format_error(0, FormatError::NotSygo { gm }));
    }
    if let Some(ff) = take(&mut props, "FF") {
        let ff = single(0, ff)?;
        if ff != "4" {
            return Err(bad_value(
                0,
                "FF",
                &ff,
                "records are SGF FF[4] (or say nothing)",
            ));
        }
    }
    // The character set: the text has been read already (as UTF-8); we
    // always write CA[UTF-8].
    take(&mut props, "CA");
    let variant = match take(&mut props, "VR") {
        None => return Err(format_error(0, FormatError::MissingVariant)),
        Some(vr) => {
            let value = single(0, vr)?;
            Variant::from_name(&value)
                .ok_or_else(|| bad_value(0, "VR", &value, "write VR[sygo] or VR[hexsygo]"))?
        }
    };
    let geometry = match take(&mut props, "SZ") {
        None => Geometry::new(variant, variant.default_size()).expect("the default size"),
        Some(sz) => read_size(&single(0, sz)?, variant)?,
    };
    let text = |props: &mut Vec<Property>, id: &str| -> Result<Option<String>, RecordError> {
        take(props, id).map(|p| single(0, p)).transpose()
    };
    let mut info = GameInfo {
        black: text(&mut props, "PB")?,
        white: text(&mut props, "PW")?,
        date: text(&mut props, "DT")?,
        result: text(&mut props, "RE")?,
        komi: 0.0,
    };
    if let Some(km) = text(&mut props, "KM")? {
        info.komi = km
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|k| k.abs() <= MAX_KOMI)
            .ok_or_else(|| {
                bad_value(
                    0,
                    "KM",
                    &km,
                    "komi is a decimal number of at most 1000 either way, like 0 or 6.5",
                )
            })?;
    }

    let has_setup = props.iter().any(|p| SETUP.contains(&p.identifier.as_str()));
    let side = match text(&mut props, "PL")? {
        None => Color::White,
        Some(pl) => Color::from_name(&pl)
            .ok_or_else(|| bad_value(0, "PL", &pl, "the player to move: PL[B] or PL[W]"))?,
    };
    let growth_started = match text(&mut props, "GS")?.as_deref() {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(bad_value(
                0,
                "GS",
                other,
                "GS[1] once a growth turn has been played, GS[0] (or nothing) before",
            ));
        }
    };
    let mut stones: Vec<(Point, Color)> = Vec::new();
    for (identifier, color) in [("AB", Color::Black), ("AW", Color::White)] {
        if let Some(list) = take(&mut props, identifier) {
            for value in &list.values {
                let points = points_from_sgf(&geometry, value).map_err(|error| {
                    format_error(
                        0,
                        FormatError::Point {
                            property: identifier.to_string(),
                            error,
                        },
                    )
                })?;
                stones.extend(points.into_iter().map(|p| (p, color)));
            }
        }
    }
    let start =
        Position::from_parts(geometry, &stones, side, growth_started, 0, None).map_err(|e| {
            RecordError::Illegal {
                node: 0,
                error: IllegalError::Setup(e),
            }
        })?;
    let node = read_node(props, 0, &geometry, true)?;
    if has_setup && node.play.is_some() {
        return Err(format_error(0, FormatError::SetupAndTurn));
    }
    Ok((info, start, geometry, node))
}

/// The board of an `SZ` value: `9`, or `9:9` (boards are square).
fn read_size(value: &str, variant: Variant) -> Result<Geometry, RecordError> {
    let (first, second) = value.split_once(':').unwrap_or((value, value));
    let parse = |s: &str| s.trim().parse::<u8>().ok();
    let why = match (parse(first), parse(second)) {
        (Some(a), Some(b)) if a == b => match Geometry::new(variant, a) {
            Ok(geometry) => return Ok(geometry),
            Err(e) => e.to_string(),
        },
        (Some(_), Some(_)) => {
            "boards are square: write one size (for hexsygo, the base)".to_string()
        }
        _ => format!(
            "the size is a whole number: N for an N×N sygo board ({}–{}), the base for hexsygo ({}–{})",
            Variant::Sygo.sizes().start(),
            Variant::Sygo.sizes().end(),
            Variant::Hexsygo.sizes().start(),
            Variant::Hexsygo.sizes().end()
        ),
    };
    Err(bad_value(0, "SZ", value, &why))
}

/// Reads what any node may hold: a turn, a comment, properties kept as
/// they are. Setup and root properties are refused outside the root (the
/// root's own have been taken out already).
fn read_node(
    mut props: Vec<Property>,
    number: usize,
    geometry: &Geometry,
    root: bool,
) -> Result<Node, RecordError> {
    if let Some(p) = props.iter().find(|p| {
        let id = p.identifier.as_str();
        id == "AE" || (!root && (ROOT_ONLY.contains(&id) || SETUP.contains(&id)))
    }) {
        let why = match p.identifier.as_str() {
            "AE" => "stones are never removed in Sygo: no point is ever emptied",
            id if SETUP.contains(&id) => {
                "setup belongs in the root node: a record's setup is its starting position"
            }
            _ => "this property belongs in the root node",
        };
        return Err(format_error(
            number,
            FormatError::Misplaced {
                property: p.identifier.clone(),
                why,
            },
        ));
    }
    let black = take(&mut props, "B");
    let white = take(&mut props, "W");
    let play = match (black, white) {
        (Some(_), Some(_)) => return Err(format_error(number, FormatError::BothColors)),
        (Some(p), None) => Some(read_play(Color::Black, p, number, geometry)?),
        (None, Some(p)) => Some(read_play(Color::White, p, number, geometry)?),
        (None, None) => None,
    };
    let comment = take(&mut props, "C")
        .map(|p| single(number, p))
        .transpose()?;
    Ok(Node {
        play,
        comment,
        properties: props,
    })
}

/// A turn: `B[]` is a pass, `B[dd][ee]` the stones in the order played.
fn read_play(
    color: Color,
    property: Property,
    number: usize,
    geometry: &Geometry,
) -> Result<Play, RecordError> {
    if property.values.len() == 1 && property.values[0].is_empty() {
        return Ok(Play::pass(color));
    }
    let stones = property
        .values
        .iter()
        .map(|value| {
            if value.is_empty() {
                return Err(format_error(
                    number,
                    FormatError::BadValue {
                        property: property.identifier.clone(),
                        values: property.values.clone(),
                        why: format!(
                            "an empty value among the stones: {}[] alone is a pass",
                            property.identifier
                        ),
                    },
                ));
            }
            point_from_sgf(geometry, value).map_err(|error| {
                format_error(
                    number,
                    FormatError::Point {
                        property: property.identifier.clone(),
                        error,
                    },
                )
            })
        })
        .collect::<Result<Vec<Point>, RecordError>>()?;
    Ok(Play { color, stones })
}

/// Reads the nodes that follow `nodes`: while a node has one child the
/// sequence goes on; two or more children are variations. Nodes are
/// numbered in the order written.
fn read_sequence(
    mut nodes: Vec<Node>,
    mut children: Vec<SgfNode<Prop>>,
    number: &mut usize,
    geometry: &Geometry,
) -> Result<Tree, RecordError> {
    while children.len() == 1 {
        let mut child = children.pop().expect("one child");
        children = std::mem::take(&mut child.children);
        nodes.push(read_child(child, number, geometry)?);
    }
    let mut variations = Vec::with_capacity(children.len());
    for mut child in children {
        let grandchildren = std::mem::take(&mut child.children);
        let first = read_child(child, number, geometry)?;
        variations.push(read_sequence(vec![first], grandchildren, number, geometry)?);
    }
    Ok(Tree { nodes, variations })
}

/// Reads one node below the root and gives it the next number.
fn read_child(
    child: SgfNode<Prop>,
    number: &mut usize,
    geometry: &Geometry,
) -> Result<Node, RecordError> {
    let node = read_node(
        raw_properties(child.properties, *number)?,
        *number,
        geometry,
        false,
    )?;
    *number += 1;
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_count_nodes_and_nesting_outside_values() {
        assert_eq!(
            shape("(;C[a;(b\\];c)];B[aa](;W[bb])(;W[cc](;B[dd])))"),
            Shape {
                nodes: 5,
                nesting: 3
            }
        );
        assert_eq!(
            shape("(;C[unclosed ( ;"),
            Shape {
                nodes: 1,
                nesting: 1
            }
        );
    }

    #[test]
    fn values_are_split_and_unescaped() {
        assert_eq!(
            split_values(r"C[a \] b\\c][d]"),
            vec![r"a ] b\c".to_string(), "d".to_string()]
        );
        assert_eq!(split_values("KO[]"), vec![String::new()]);
    }
}
