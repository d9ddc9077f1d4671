//! Board graphs: points joined by links, some of them rail, and the straight rail lines along
//! which ordinary pieces slide. Junqi and Sea-land-air battle chess use it.

/// A link from one point to another.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Link {
    /// The point at the other end.
    pub to: usize,
    /// Whether the link is railroad.
    pub rail: bool,
}

/// Points `0..len` joined by undirected links, with named straight rail lines.
#[derive(Clone, Debug, Default)]
pub struct BoardGraph {
    links: Vec<Vec<Link>>,
    lines: Vec<Vec<usize>>,
}

impl BoardGraph {
    /// Creates a graph of `points` points and no links.
    pub fn new(points: usize) -> BoardGraph {
        BoardGraph {
            links: vec![Vec::new(); points],
            lines: Vec::new(),
        }
    }

    /// Joins `a` and `b` (once; a second call changes nothing).
    pub fn link(&mut self, a: usize, b: usize, rail: bool) {
        if a == b || self.links[a].iter().any(|l| l.to == b) {
            return;
        }
        self.links[a].push(Link { to: b, rail });
        self.links[b].push(Link { to: a, rail });
    }

    /// Adds a straight rail line: its points in order, each consecutive pair joined by rail.
    pub fn rail_line(&mut self, points: Vec<usize>) {
        for pair in points.windows(2) {
            self.link(pair[0], pair[1], true);
        }
        self.lines.push(points);
    }

    /// Returns the number of points.
    pub fn len(&self) -> usize {
        self.links.len()
    }

    /// Returns true if the graph has no points.
    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }

    /// Returns the links from a point.
    pub fn links(&self, point: usize) -> &[Link] {
        &self.links[point]
    }

    /// Returns the number of links (each counted once), and how many of them are rail.
    pub fn link_counts(&self) -> (usize, usize) {
        let all: usize = self.links.iter().map(Vec::len).sum();
        let rail: usize = self
            .links
            .iter()
            .map(|l| l.iter().filter(|l| l.rail).count())
            .sum();
        (all / 2, rail / 2)
    }

    /// Returns the straight rail lines.
    pub fn lines(&self) -> &[Vec<usize>] {
        &self.lines
    }

    /// Returns true if the point lies on the railroad.
    pub fn on_rail(&self, point: usize) -> bool {
        self.links[point].iter().any(|l| l.rail)
    }

    /// Returns where a piece on `from` can slide along one straight rail line: every empty
    /// point up to, and including, the first occupied one in each direction (whether that one
    /// may be attacked is the game's question).
    pub fn rail_slides(&self, from: usize, occupied: impl Fn(usize) -> bool) -> Vec<usize> {
        self.rail_slides_within(from, usize::MAX, occupied)
    }

    /// Like [`BoardGraph::rail_slides`], but at most `steps` points along each line
    /// (Sea-land-air's armies go one or two).
    pub fn rail_slides_within(
        &self,
        from: usize,
        steps: usize,
        occupied: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for line in &self.lines {
            let Some(at) = line.iter().position(|&p| p == from) else {
                continue;
            };
            let forward = line[at + 1..].iter();
            let backward = line[..at].iter().rev();
            for direction in [
                forward.copied().collect::<Vec<_>>(),
                backward.copied().collect(),
            ] {
                for p in direction.into_iter().take(steps) {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                    if occupied(p) {
                        break;
                    }
                }
            }
        }
        out
    }

    /// Returns where a piece that turns corners on the railroad (Junqi's Engineer) can go from
    /// `from`: every rail point reachable through empty rail points, and the occupied points at
    /// the ends of such paths.
    pub fn rail_paths(&self, from: usize, occupied: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut seen = vec![false; self.len()];
        seen[from] = true;
        let mut queue = vec![from];
        let mut out = Vec::new();
        while let Some(p) = queue.pop() {
            for link in self.links[p].iter().filter(|l| l.rail) {
                if seen[link.to] {
                    continue;
                }
                seen[link.to] = true;
                out.push(link.to);
                if !occupied(link.to) {
                    queue.push(link.to);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// The fewest steps between every two of `points` points, where `next(p)` lists the points
/// one step from `p` (`u8::MAX`: out of reach). Row `a`, column `b`: from `a` to `b`.
pub fn step_counts(points: usize, next: impl Fn(usize) -> Vec<usize>) -> Vec<Vec<u8>> {
    let mut table = vec![vec![u8::MAX; points]; points];
    for (from, row) in table.iter_mut().enumerate() {
        row[from] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            let d = row[p];
            for q in next(p) {
                if row[q] == u8::MAX {
                    row[q] = d.saturating_add(1);
                    queue.push_back(q);
                }
            }
        }
    }
    table
}
