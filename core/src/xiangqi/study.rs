//! A Xiangqi game as players study it: where it started, its moves as a tree (the game's own
//! line first, then the other moves tried at each point, nested), comments on any move, and
//! the tags that name it. The readers of the files Chinese Xiangqi software writes (XQF,
//! DhtmlXQ) produce one; its main line is an ordinary game ([`PgnGame`]).

use super::pgn::PgnGame;
use super::{Move, Position};
use std::fmt;

/// A game with its variations and comments.
#[derive(Clone, PartialEq, Debug)]
pub struct Study {
    /// Tags in PGN's names (`Event`, `Red`, `Black`, `Date`, `Site`, `Result`, …), in order.
    pub tags: Vec<(String, String)>,
    /// The starting position.
    pub start: Position,
    /// A comment on the starting position.
    pub comment: Option<String>,
    /// The first moves: the game's own first, then the alternatives tried.
    pub moves: Vec<Node>,
}

/// A move in the tree, what was said about it, and what followed it.
#[derive(Clone, PartialEq, Debug)]
pub struct Node {
    /// The move (legal where it stands: every reader checks).
    pub mv: Move,
    /// A comment on the move.
    pub comment: Option<String>,
    /// The moves after it: the line's own continuation first, then the alternatives.
    pub next: Vec<Node>,
}

/// The most moves a study may hold, over all its lines: far beyond any real game's tree, a
/// bound on what a hostile file can make a reader build.
pub const MAX_NODES: usize = 100_000;

/// Why a study could not be built: a move that cannot be played where it stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalLine {
    /// The move's number from the start (1 is the first move).
    pub ply: usize,
    /// The move in coordinates.
    pub text: String,
}

impl fmt::Display for IllegalLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}) cannot be played where it stands",
            self.ply, self.text
        )
    }
}

impl Study {
    /// A study of one line of moves (checked as they are added).
    pub fn from_line(
        start: Position,
        moves: &[Move],
        tags: Vec<(String, String)>,
    ) -> Result<Study, IllegalLine> {
        let mut study = Study {
            tags,
            start,
            comment: None,
            moves: Vec::new(),
        };
        let mut pos = study.start.clone();
        let mut line = &mut study.moves;
        for (i, &mv) in moves.iter().enumerate() {
            if pos.play(mv).is_err() {
                return Err(IllegalLine {
                    ply: i + 1,
                    text: mv.to_string(),
                });
            }
            line.push(Node {
                mv,
                comment: None,
                next: Vec::new(),
            });
            line = &mut line[0].next;
        }
        Ok(study)
    }

    /// The game's own line: the first move at every point.
    pub fn main_line(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut line = &self.moves;
        while let Some(node) = line.first() {
            moves.push(node.mv);
            line = &node.next;
        }
        moves
    }

    /// How many moves the tree holds, every line counted.
    pub fn node_count(&self) -> usize {
        let mut count = 0;
        let mut stack: Vec<&Node> = self.moves.iter().collect();
        while let Some(node) = stack.pop() {
            count += 1;
            stack.extend(node.next.iter());
        }
        count
    }

    /// Returns the value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The main line as a game: what the app imports and replays today.
    pub fn to_game(&self) -> PgnGame {
        PgnGame {
            tags: self.tags.clone(),
            fen: self.start.to_fen(),
            moves: self.main_line(),
            result: self.tag("Result").unwrap_or("*").to_owned(),
        }
    }

    /// Checks every move of every line where it stands (a study built by hand or by a
    /// reader that trusted its input).
    pub fn check(&self) -> Result<(), IllegalLine> {
        let mut stack: Vec<(&Node, Position, usize)> = self
            .moves
            .iter()
            .map(|n| (n, self.start.clone(), 1))
            .collect();
        while let Some((node, mut pos, ply)) = stack.pop() {
            if pos.play(node.mv).is_err() {
                return Err(IllegalLine {
                    ply,
                    text: node.mv.to_string(),
                });
            }
            for next in &node.next {
                stack.push((next, pos.clone(), ply + 1));
            }
        }
        Ok(())
    }
}

/// Builds a tree from nodes listed in the order a file keeps them, each with the index of the
/// node it follows (`None` for the first moves); a node's children keep their order.
pub(crate) struct Arena {
    pub nodes: Vec<(Option<usize>, Node)>,
}

impl Arena {
    pub fn new() -> Arena {
        Arena { nodes: Vec::new() }
    }

    /// Adds a node after `parent`; returns its index.
    pub fn push(&mut self, parent: Option<usize>, mv: Move, comment: Option<String>) -> usize {
        self.nodes.push((
            parent,
            Node {
                mv,
                comment,
                next: Vec::new(),
            },
        ));
        self.nodes.len() - 1
    }

    /// The first moves, each with its subtree (children in the order they were added).
    pub fn into_tree(self) -> Vec<Node> {
        let mut roots = Vec::new();
        let mut slots: Vec<Option<Node>> = Vec::with_capacity(self.nodes.len());
        let mut parents = Vec::with_capacity(self.nodes.len());
        for (parent, node) in self.nodes {
            parents.push(parent);
            slots.push(Some(node));
        }
        // Children come after their parents: fold from the last node up, then restore each
        // parent's order (they were pushed last first).
        for i in (0..slots.len()).rev() {
            let Some(node) = slots[i].take() else {
                continue;
            };
            match parents[i]
                .and_then(|p| slots.get_mut(p))
                .and_then(Option::as_mut)
            {
                Some(parent) => parent.next.push(node),
                None => roots.push(node),
            }
        }
        roots.reverse();
        let mut stack: Vec<&mut Node> = roots.iter_mut().collect();
        while let Some(node) = stack.pop() {
            node.next.reverse();
            stack.extend(node.next.iter_mut());
        }
        roots
    }
}

/// A study with two levels of variations, comments in Chinese (one of two lines) and a start
/// of its own: what the readers' and writers' tests round-trip.
#[cfg(test)]
pub(crate) fn sample() -> Study {
    let start = Position::from_fen("3akab2/9/4b4/p3p3p/2p6/6P2/P3P4/2N1B4/4A4/2BAK3R w - - 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    let node = |m: &str, comment: Option<&str>, next: Vec<Node>| Node {
        mv: crate::xiangqi::notation::parse_coordinates(m).unwrap_or_else(|e| panic!("{m}: {e}")),
        comment: comment.map(str::to_owned),
        next,
    };
    Study {
        tags: vec![
            ("Event".into(), "残局练习".into()),
            ("Red".into(), "红方甲".into()),
            ("Black".into(), "Black B".into()),
            ("Result".into(), "1-0".into()),
        ],
        start,
        comment: Some("红先\n两行".into()),
        moves: vec![
            node(
                "i1i5",
                Some("车占中路"),
                vec![
                    node("c6c5", None, vec![node("i5i6", None, vec![])]),
                    node(
                        "a7a6",
                        Some("另一着"),
                        vec![
                            node("i5i6", None, vec![]),
                            node("e4e5", Some("弃兵"), vec![]),
                        ],
                    ),
                ],
            ),
            node("c3d5", Some("马进"), vec![node("a7a6", None, vec![])]),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::notation::parse_coordinates;

    fn mv(text: &str) -> Move {
        parse_coordinates(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn an_arena_keeps_each_nodes_children_in_order() {
        let mut arena = Arena::new();
        let a = arena.push(None, mv("h3e3"), None);
        let b = arena.push(Some(a), mv("h10g8"), Some("main".into()));
        arena.push(Some(b), mv("h1g3"), None);
        arena.push(Some(a), mv("b10c8"), Some("other".into()));
        arena.push(None, mv("c4c5"), None);
        let tree = arena.into_tree();
        assert_eq!(tree.len(), 2);
        assert_eq!(tree[0].mv, mv("h3e3"));
        assert_eq!(tree[1].mv, mv("c4c5"));
        let replies: Vec<Move> = tree[0].next.iter().map(|n| n.mv).collect();
        assert_eq!(replies, [mv("h10g8"), mv("b10c8")]);
        assert_eq!(tree[0].next[0].next[0].mv, mv("h1g3"));
        let study = Study {
            tags: Vec::new(),
            start: Position::start(),
            comment: None,
            moves: tree,
        };
        assert_eq!(study.node_count(), 5);
        assert_eq!(study.main_line(), [mv("h3e3"), mv("h10g8"), mv("h1g3")]);
        assert_eq!(study.check(), Ok(()));
    }

    #[test]
    fn an_illegal_move_is_named_by_its_number() {
        let line = [mv("h3e3"), mv("h10g8"), mv("a1a5")];
        let err = Study::from_line(Position::start(), &line, Vec::new());
        assert_eq!(
            err,
            Err(IllegalLine {
                ply: 3,
                text: "a1a5".into()
            })
        );
    }
}
