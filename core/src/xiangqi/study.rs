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

/// The most moves one line may run to: ten times the longest games played, and a bound on
/// how deep the tree nests (a study is dropped, cloned and compared move by nested move: a
/// line of 100,000 overflowed a thread's stack, one of 10,000 did not).
pub const MAX_PLIES: usize = 6_000;

/// Whether a reader that has built `nodes` moves may add a move at `ply` (1 is the first).
pub(crate) fn room_for(nodes: usize, ply: usize) -> bool {
    nodes < MAX_NODES && ply <= MAX_PLIES
}

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
        if let Some(mv) = moves.get(MAX_PLIES) {
            return Err(IllegalLine {
                ply: MAX_PLIES + 1,
                text: mv.to_string(),
            });
        }
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

    /// Whether a comment stands anywhere: on the start or on any move of any line.
    pub fn has_comments(&self) -> bool {
        let mut stack: Vec<&Node> = self.moves.iter().collect();
        while let Some(node) = stack.pop() {
            if node.comment.is_some() {
                return true;
            }
            stack.extend(node.next.iter());
        }
        self.comment.is_some()
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

/// A point in a study: the child taken at each move from the start (empty: the start).
/// `[0, 0, 1]` is the second move tried at move 3 after the first two moves of the main line.
pub type Path = Vec<usize>;

/// Why an edit of a study was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EditError {
    /// The path leads nowhere in this study.
    NoSuchMove,
    /// The move cannot be played where the path leads.
    Illegal,
    /// The study already holds [`MAX_NODES`] moves, or the line [`MAX_PLIES`].
    Full,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EditError::NoSuchMove => "no such move in the study",
            EditError::Illegal => "the move cannot be played there",
            EditError::Full => "the study holds as many moves as it may",
        })
    }
}

/// A comment as a study keeps it: trimmed, braces (which end a PGN comment) made round
/// brackets, nothing for an empty one; what PGN writes and reads back unchanged.
pub fn clean_comment(text: &str) -> Option<String> {
    let text = text.trim().replace('{', "(").replace('}', ")");
    (!text.is_empty()).then_some(text)
}

impl Study {
    /// The moves tried at `path` (after its last move), in order: the line's own first.
    pub fn children(&self, path: &[usize]) -> Option<&[Node]> {
        match path.split_last() {
            None => Some(&self.moves),
            Some(_) => self.node(path).map(|n| n.next.as_slice()),
        }
    }

    fn children_mut(&mut self, path: &[usize]) -> Option<&mut Vec<Node>> {
        let mut list = &mut self.moves;
        for &i in path {
            list = &mut list.get_mut(i)?.next;
        }
        Some(list)
    }

    /// The move at the end of `path` (none for the start or a path that leads nowhere).
    pub fn node(&self, path: &[usize]) -> Option<&Node> {
        let (&last, before) = path.split_last()?;
        let mut list = &self.moves;
        for &i in before {
            list = &list.get(i)?.next;
        }
        list.get(last)
    }

    /// The moves along `path`.
    pub fn moves_along(&self, path: &[usize]) -> Option<Vec<Move>> {
        let mut moves = Vec::with_capacity(path.len());
        let mut list = &self.moves;
        for &i in path {
            let node = list.get(i)?;
            moves.push(node.mv);
            list = &node.next;
        }
        Some(moves)
    }

    /// The position after the moves along `path`.
    pub fn position_at(&self, path: &[usize]) -> Option<Position> {
        let mut pos = self.start.clone();
        for mv in self.moves_along(path)? {
            pos.play(mv).ok()?;
        }
        Some(pos)
    }

    /// `path` carried on to the end of its line (the first move at every point after it).
    pub fn line_through(&self, path: &[usize]) -> Path {
        let mut line = path.to_vec();
        let mut list = self.children(path).unwrap_or(&[]);
        while let Some(first) = list.first() {
            line.push(0);
            list = &first.next;
        }
        line
    }

    /// The path that plays `moves` from the start, if the study holds that line.
    pub fn path_of(&self, moves: &[Move]) -> Option<Path> {
        let mut path = Vec::with_capacity(moves.len());
        let mut list = &self.moves;
        for mv in moves {
            let i = list.iter().position(|n| n.mv == *mv)?;
            path.push(i);
            list = &list[i].next;
        }
        Some(path)
    }

    /// Plays `mv` after `path`: the move already tried there if it was, else a new line
    /// after the ones there. Returns the path to the move.
    pub fn play(&mut self, path: &[usize], mv: Move) -> Result<Path, EditError> {
        let mut pos = self.position_at(path).ok_or(EditError::NoSuchMove)?;
        let full = !room_for(self.node_count(), path.len() + 1);
        let list = self.children_mut(path).ok_or(EditError::NoSuchMove)?;
        let mut out = path.to_vec();
        if let Some(i) = list.iter().position(|n| n.mv == mv) {
            out.push(i);
            return Ok(out);
        }
        if full {
            return Err(EditError::Full);
        }
        pos.play(mv).map_err(|_| EditError::Illegal)?;
        list.push(Node {
            mv,
            comment: None,
            next: Vec::new(),
        });
        out.push(list.len() - 1);
        Ok(out)
    }

    /// Sets the comment on the move at `path` (on the start for an empty path), cleaned as
    /// [`clean_comment`] does; an empty text removes it.
    pub fn set_comment(&mut self, path: &[usize], text: &str) -> Result<(), EditError> {
        let comment = clean_comment(text);
        if path.is_empty() {
            self.comment = comment;
            return Ok(());
        }
        let (&last, before) = path.split_last().ok_or(EditError::NoSuchMove)?;
        let list = self.children_mut(before).ok_or(EditError::NoSuchMove)?;
        list.get_mut(last).ok_or(EditError::NoSuchMove)?.comment = comment;
        Ok(())
    }

    /// Makes the line through `path` the main line: at every point on the way, its move
    /// becomes the first tried (the others keep their order after it). Returns the path to
    /// the same move, now all first moves.
    pub fn promote(&mut self, path: &[usize]) -> Result<Path, EditError> {
        if self.node(path).is_none() && !path.is_empty() {
            return Err(EditError::NoSuchMove);
        }
        let mut list = &mut self.moves;
        for &i in path {
            let node = list.remove(i);
            list.insert(0, node);
            list = &mut list[0].next;
        }
        Ok(vec![0; path.len()])
    }

    /// Removes the move at `path` and everything after it. Returns the path to the move
    /// before it.
    pub fn delete(&mut self, path: &[usize]) -> Result<Path, EditError> {
        let (&last, before) = path.split_last().ok_or(EditError::NoSuchMove)?;
        let list = self.children_mut(before).ok_or(EditError::NoSuchMove)?;
        if last >= list.len() {
            return Err(EditError::NoSuchMove);
        }
        list.remove(last);
        Ok(before.to_vec())
    }

    /// Adds to this study every line of `other` it lacks (after this study's own lines at
    /// each point), and the comments it lacks: what two devices studying the same game
    /// apart end with. Both must start from the same position; `other`'s moves that cannot
    /// be played here are left out.
    pub fn merge(&mut self, other: &Study) {
        if self.start != other.start {
            return;
        }
        if self.comment.is_none() {
            self.comment = other.comment.clone();
        }
        let mut stack: Vec<(Path, &Node)> = other.moves.iter().map(|n| (Vec::new(), n)).collect();
        stack.reverse();
        while let Some((at, node)) = stack.pop() {
            let Ok(here) = self.play(&at, node.mv) else {
                continue;
            };
            if let Some(comment) = &node.comment {
                let _ = self.comment_if_none(&here, comment);
            }
            for next in node.next.iter().rev() {
                stack.push((here.clone(), next));
            }
        }
    }

    fn comment_if_none(&mut self, path: &[usize], text: &str) -> Result<(), EditError> {
        if self.node(path).is_some_and(|n| n.comment.is_none()) {
            self.set_comment(path, text)?;
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
/// of its own: what the readers' and writers' tests round-trip, and the fuzzers' seeds.
#[doc(hidden)]
pub fn sample() -> Study {
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
        assert!(study.has_comments(), "a comment on a reply");
        assert_eq!(study.main_line(), [mv("h3e3"), mv("h10g8"), mv("h1g3")]);
        assert_eq!(study.check(), Ok(()));
    }

    #[test]
    fn branches_are_played_commented_promoted_and_deleted_by_path() {
        let line = [mv("h3e3"), mv("h10g8"), mv("h1g3"), mv("i10h10")];
        let mut study = Study::from_line(Position::start(), &line, Vec::new()).unwrap();
        // The game's own move is found, not added twice.
        assert_eq!(study.play(&[0], mv("h10g8")), Ok(vec![0, 0]));
        // Another reply makes a branch after the game's.
        let branch = study.play(&[0], mv("b10c8")).unwrap();
        assert_eq!(branch, [0, 1]);
        let deeper = study.play(&branch, mv("b1c3")).unwrap();
        assert_eq!(deeper, [0, 1, 0]);
        assert_eq!(study.play(&deeper, mv("a1a9")), Err(EditError::Illegal));
        assert_eq!(study.play(&[5], mv("a1a2")), Err(EditError::NoSuchMove));
        assert_eq!(study.node_count(), 6);
        assert_eq!(study.line_through(&[0]), [0, 0, 0, 0]);
        assert_eq!(study.line_through(&branch), [0, 1, 0]);
        assert_eq!(
            study.moves_along(&deeper),
            Some(vec![mv("h3e3"), mv("b10c8"), mv("b1c3")])
        );
        assert_eq!(study.path_of(&[mv("h3e3"), mv("b10c8")]), Some(vec![0, 1]));
        assert_eq!(study.path_of(&[mv("c4c5")]), None);
        // Comments are kept as PGN keeps them.
        study.set_comment(&branch, "  屏风马 {正着} ").unwrap();
        assert_eq!(
            study.node(&branch).and_then(|n| n.comment.as_deref()),
            Some("屏风马 (正着)")
        );
        study.set_comment(&[], "start").unwrap();
        assert_eq!(study.comment.as_deref(), Some("start"));
        study.set_comment(&[], " ").unwrap();
        assert_eq!(study.comment, None);
        // Promoted: the branch is the main line, the game's line its alternative.
        assert_eq!(study.promote(&deeper), Ok(vec![0, 0, 0]));
        assert_eq!(study.main_line(), [mv("h3e3"), mv("b10c8"), mv("b1c3")]);
        assert_eq!(study.path_of(&line), Some(vec![0, 1, 0, 0]));
        assert_eq!(study.check(), Ok(()));
        // Deleted: the game's line goes with its tail.
        assert_eq!(study.delete(&[0, 1]), Ok(vec![0]));
        assert_eq!(study.node_count(), 3);
        assert_eq!(study.delete(&[0, 1]), Err(EditError::NoSuchMove));
        assert_eq!(study.delete(&[]), Err(EditError::NoSuchMove));
    }

    #[test]
    fn a_merge_keeps_every_line_and_comment_of_both() {
        let line = [mv("h3e3"), mv("h10g8")];
        let base = Study::from_line(Position::start(), &line, Vec::new()).unwrap();
        assert!(!base.has_comments());
        let mut ours = base.clone();
        let b = ours.play(&[0], mv("b10c8")).unwrap();
        ours.set_comment(&b, "ours").unwrap();
        let mut theirs = base.clone();
        let t = theirs.play(&[0], mv("c7c6")).unwrap();
        theirs.play(&t, mv("h1g3")).unwrap();
        theirs
            .set_comment(&b[..1], "theirs on the first move")
            .unwrap();
        theirs.play(&[], mv("c4c5")).unwrap();
        ours.merge(&theirs);
        let replies: Vec<Move> = ours.moves[0].next.iter().map(|n| n.mv).collect();
        assert_eq!(replies, [mv("h10g8"), mv("b10c8"), mv("c7c6")]);
        assert_eq!(ours.moves[0].next[2].next[0].mv, mv("h1g3"));
        assert_eq!(ours.moves[1].mv, mv("c4c5"));
        assert_eq!(
            ours.moves[0].comment.as_deref(),
            Some("theirs on the first move")
        );
        assert_eq!(ours.moves[0].next[1].comment.as_deref(), Some("ours"));
        // Merging again changes nothing.
        let once = ours.clone();
        ours.merge(&theirs);
        assert_eq!(ours, once);
        assert_eq!(ours.check(), Ok(()));
    }

    /// A line of `plies` moves, legal where they stand (the rooks shuffle a1–a2, a10–a9).
    fn shuffle(plies: usize) -> Vec<Move> {
        let cycle = [mv("a1a2"), mv("a10a9"), mv("a2a1"), mv("a9a10")];
        cycle.iter().copied().cycle().take(plies).collect()
    }

    #[test]
    fn a_line_longer_than_max_plies_is_refused_everywhere() {
        let longest = shuffle(MAX_PLIES);
        let mut study = Study::from_line(Position::start(), &longest, Vec::new()).unwrap();
        let end = vec![0; MAX_PLIES];
        assert_eq!(study.play(&end, mv("a1a2")), Err(EditError::Full));
        let err = Study::from_line(Position::start(), &shuffle(MAX_PLIES + 1), Vec::new());
        assert_eq!(err.map(|_| ()).unwrap_err().ply, MAX_PLIES + 1);
        // The reader: PGN of the longest line reads; one move more is refused, with why.
        use crate::xiangqi::pgn::{MoveFormat, PgnError};
        use crate::xiangqi::pgn_study::{read_study_pgn, write_study_pgn};
        let pgn = write_study_pgn(&study, MoveFormat::Coordinates);
        let read = read_study_pgn(&pgn).map(|s| s.main_line().len());
        assert_eq!(read, Ok(MAX_PLIES));
        let longer = format!("{} a1a2 *", pgn.trim_end().trim_end_matches('*'));
        let refused = read_study_pgn(&longer);
        assert!(
            matches!(&refused, Err(PgnError::Syntax(why)) if why.contains("in one line")),
            "{refused:?}"
        );
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
