//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm
//! with the primal–dual method, O(n³), on integer weights, as described in
//! Z. Galil, "Efficient algorithms for finding maximum matching in graphs"
//! (ACM Computing Surveys, 1986), laid out after Joris van Rantwijk's
//! `mwmatching.py`. (Over 600 lines: the algorithm is one piece — the
//! blossom bookkeeping, the dual updates, the augmenting and expanding steps —
//! and its tests against brute force, ~250 lines.)
//!
//! With `max_cardinality`, only matchings of the largest number of edges
//! count; among them the heaviest is found.
//!
//! Vertex dual variables, edge slacks and deltas are kept doubled so that
//! every quantity stays an integer.

/// No vertex, edge, endpoint or blossom.
const NONE: usize = usize::MAX;

/// The heaviest matching of the graph on vertices `0..vertices` with
/// `edges` (i, j, weight); at most one edge between two vertices, none
/// from a vertex to itself. The answer gives each vertex its mate.
///
/// The weights' magnitudes must leave room: a few times
/// `vertices × max |weight|` must fit in an `i64`.
pub(super) fn max_weight_matching(
    vertices: usize,
    edges: &[(usize, usize, i64)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if edges.is_empty() || vertices == 0 {
        return vec![None; vertices];
    }
    let mut m = Matcher::new(vertices, edges);
    m.solve(max_cardinality);
    (0..vertices)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]]))
        .collect()
}

/// Reads `list[j]` with a possibly negative `j` counted from the end.
fn at(list: &[usize], j: isize) -> usize {
    list[j.rem_euclid(list.len() as isize) as usize]
}

struct Matcher<'a> {
    n: usize,
    edges: &'a [(usize, usize, i64)],
    /// Endpoint `p` of edge `p / 2` is this vertex (`p ^ 1` the other end).
    endpoint: Vec<usize>,
    /// Each vertex's edge endpoints leading away from it (the far ends).
    neighbend: Vec<Vec<usize>>,
    /// The endpoint the vertex is matched to, or NONE.
    mate: Vec<usize>,
    /// Of top-level blossoms (and vertices): 0 free, 1 S, 2 T; 5 is a
    /// breadcrumb of `scan_blossom`, -1 a recycled blossom.
    label: Vec<i8>,
    /// The endpoint through which the label was given.
    labelend: Vec<usize>,
    /// Each vertex's top-level blossom.
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    /// The least-slack edge to an S-blossom (from a free vertex or another
    /// S-blossom).
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    /// Doubled vertex duals, then blossom duals.
    dualvar: Vec<i64>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<'a> Matcher<'a> {
    fn new(n: usize, edges: &'a [(usize, usize, i64)]) -> Self {
        let max_weight = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            debug_assert!(i != j && i < n && j < n);
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![max_weight; n];
        dualvar.extend(std::iter::repeat_n(0, n));
        Matcher {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
    }

    /// The vertices inside blossom `b` (or `b` itself).
    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    /// Labels `w`'s top-level blossom `t` through endpoint `p`; a T-blossom
    /// labels its base's mate S.
    fn assign_label(&mut self, w: usize, t: i8, p: usize) {
        let b = self.inblossom[w];
        debug_assert!(self.label[w] == 0 && self.label[b] == 0);
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            debug_assert!(self.mate[base] != NONE);
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    /// Traces back from S-vertices `v` and `w`: the base of the blossom
    /// they close, or NONE for an augmenting path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            debug_assert_eq!(self.label[b], 1);
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                debug_assert_eq!(self.label[b], 2);
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    /// Makes the blossom closed by edge `k` (between two S-vertices) with
    /// base `base`, an S-blossom with dual 0.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom number");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        debug_assert_eq!(self.label[bb], 1);
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // The least-slack edges from the new blossom to other S-blossoms.
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (i, j, _) = self.edges[k];
                    // The far end (the near one is inside `b`).
                    let j = if self.inblossom[j] == b { i } else { j };
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut chosen = NONE;
        for &k in &best {
            if chosen == NONE || self.slack(k) < self.slack(chosen) {
                chosen = k;
            }
        }
        self.bestedge[b] = chosen;
        self.blossombestedges[b] = Some(best);
    }

    /// Expands top-level blossom `b`: into its sub-blossoms, relabelling
    /// them when a T-blossom is expanded during a stage.
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("the entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= childs.len() as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                // Relabel the T-sub-blossom.
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = at(&endps, j - endptrick as isize) ^ endptrick ^ 1;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                // Step to the next S-sub-blossom.
                self.allowedge[at(&endps, j - endptrick as isize) / 2] = true;
                j += jstep;
                p = at(&endps, j - endptrick as isize) ^ endptrick;
                // Step to the next T-sub-blossom.
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            // The base T-sub-blossom, without stepping to its mate.
            let bv = at(&childs, j);
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(&childs, j) != entrychild {
                let bv = at(&childs, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let reached = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    debug_assert_eq!(self.label[v], 2);
                    debug_assert_eq!(self.inblossom[v], bv);
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[m]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = -1;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    /// Swaps matched and unmatched edges along the path inside blossom `b`
    /// from vertex `v` to the base; `v` becomes the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len();
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("a child");
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = at(&self.blossomchilds[b], j);
            let p = at(&self.blossomendps[b], j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = at(&self.blossomchilds[b], j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
        debug_assert_eq!(self.blossombase[b], v);
    }

    /// Augments the matching along the path through edge `k` (between two
    /// S-vertices of different trees).
    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                debug_assert_eq!(self.label[bs], 1);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                debug_assert_eq!(self.label[bt], 2);
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                debug_assert_eq!(self.blossombase[bt], t);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self, max_cardinality: bool) {
        let n = self.n;
        for _ in 0..n {
            // A stage: find an augmenting path.
            self.label.fill(0);
            self.bestedge.fill(NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                // A substage: label until an augmenting path is found or
                // the duals must change.
                while let Some(v) = self.queue.pop() {
                    debug_assert_eq!(self.label[self.inblossom[v]], 1);
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                debug_assert_eq!(self.label[self.inblossom[w]], 2);
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path under the current duals: the least
                // change of the duals that allows progress.
                let mut deltatype = 0u8;
                let mut delta = 0i64;
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !max_cardinality {
                    deltatype = 1;
                    delta = *self.dualvar[..n].iter().min().expect("a vertex");
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let kslack = self.slack(self.bestedge[b]);
                        debug_assert_eq!(kslack % 2, 0);
                        let d = kslack / 2;
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // Maximum cardinality reached: a last update keeps the
                    // duals consistent.
                    deltatype = 1;
                    delta = (*self.dualvar[..n].iter().min().expect("a vertex")).max(0);
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        debug_assert_eq!(self.label[self.inblossom[i]], 1);
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        debug_assert_eq!(self.label[self.inblossom[i]], 1);
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            // End of a stage: expand the S-blossoms whose dual is 0.
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heaviest matching by trying every one (small graphs only):
    /// (edges, weight), the most edges first when `max_cardinality`.
    fn brute(n: usize, edges: &[(usize, usize, i64)], max_cardinality: bool) -> (usize, i64) {
        struct Search {
            adj: Vec<Vec<(usize, i64)>>,
            used: Vec<bool>,
            best: (usize, i64),
            max_cardinality: bool,
        }
        impl Search {
            fn go(&mut self, v: usize, count: usize, weight: i64) {
                if v == self.adj.len() {
                    let better = if self.max_cardinality {
                        (count, weight) > self.best
                    } else {
                        weight > self.best.1
                    };
                    if better {
                        self.best = (count, weight);
                    }
                    return;
                }
                if self.used[v] {
                    return self.go(v + 1, count, weight);
                }
                self.go(v + 1, count, weight);
                self.used[v] = true;
                for k in 0..self.adj[v].len() {
                    let (w, wt) = self.adj[v][k];
                    if !self.used[w] {
                        self.used[w] = true;
                        self.go(v + 1, count + 1, weight + wt);
                        self.used[w] = false;
                    }
                }
                self.used[v] = false;
            }
        }
        let mut adj = vec![Vec::new(); n];
        for &(i, j, w) in edges {
            adj[i].push((j, w));
            adj[j].push((i, w));
        }
        let mut search = Search {
            adj,
            used: vec![false; n],
            best: (0, 0),
            max_cardinality,
        };
        search.go(0, 0, 0);
        search.best
    }

    fn score(mate: &[Option<usize>], edges: &[(usize, usize, i64)]) -> (usize, i64) {
        let mut count = 0;
        let mut weight = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(m) = *m {
                assert_eq!(mate[m], Some(v), "the matching is symmetric");
                if v < m {
                    let e = edges
                        .iter()
                        .find(|e| (e.0 == v && e.1 == m) || (e.0 == m && e.1 == v))
                        .expect("a matched pair is an edge");
                    count += 1;
                    weight += e.2;
                }
            }
        }
        (count, weight)
    }

    #[test]
    fn small_known_graphs() {
        // From mwmatching's own tests.
        assert_eq!(
            max_weight_matching(2, &[(0, 1, 1)], false),
            [Some(1), Some(0)]
        );
        let e = [(1, 2, 10), (2, 3, 11)];
        assert_eq!(
            max_weight_matching(4, &e, false),
            [None, None, Some(3), Some(2)]
        );
        let e = [(1, 2, 5), (2, 3, 11), (3, 4, 5)];
        assert_eq!(
            max_weight_matching(5, &e, false),
            [None, None, Some(3), Some(2), None]
        );
        assert_eq!(
            max_weight_matching(5, &e, true),
            [None, Some(2), Some(1), Some(4), Some(3)]
        );
        // A blossom, then augmenting through it.
        let e = [(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7)];
        assert_eq!(
            max_weight_matching(5, &e, false),
            [None, Some(2), Some(1), Some(4), Some(3)]
        );
        // A nested S-blossom, relabelled as T and expanded.
        let e = [
            (1, 2, 23),
            (1, 5, 22),
            (1, 6, 15),
            (2, 3, 25),
            (3, 4, 22),
            (4, 5, 25),
            (4, 8, 14),
            (5, 7, 13),
        ];
        assert_eq!(
            max_weight_matching(9, &e, false),
            [
                None,
                Some(6),
                Some(3),
                Some(2),
                Some(8),
                Some(7),
                Some(1),
                Some(5),
                Some(4)
            ]
        );
        // Nested S-blossoms, expanded at the end of a stage.
        let e = [
            (1, 2, 8),
            (1, 3, 8),
            (2, 3, 10),
            (2, 4, 12),
            (3, 5, 12),
            (4, 5, 14),
            (4, 6, 12),
            (5, 7, 12),
            (6, 7, 14),
            (7, 8, 12),
        ];
        assert_eq!(
            max_weight_matching(9, &e, false),
            [
                None,
                Some(2),
                Some(1),
                Some(5),
                Some(6),
                Some(3),
                Some(4),
                Some(8),
                Some(7)
            ]
        );
        // A nested S-blossom inside a T-blossom being expanded.
        let e = [
            (1, 2, 19),
            (1, 3, 20),
            (1, 8, 8),
            (2, 3, 25),
            (2, 4, 18),
            (3, 5, 18),
            (4, 5, 13),
            (4, 7, 7),
            (5, 6, 7),
        ];
        assert_eq!(
            max_weight_matching(9, &e, false),
            [
                None,
                Some(8),
                Some(3),
                Some(2),
                Some(7),
                Some(6),
                Some(5),
                Some(4),
                Some(1)
            ]
        );
        // A T-blossom expanded, its relabelling going the other way.
        let e = [
            (1, 2, 45),
            (1, 5, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 50),
            (1, 6, 30),
            (3, 9, 35),
            (4, 8, 35),
            (5, 7, 26),
            (9, 10, 5),
        ];
        assert_eq!(
            max_weight_matching(11, &e, false),
            [
                None,
                Some(6),
                Some(3),
                Some(2),
                Some(8),
                Some(7),
                Some(1),
                Some(5),
                Some(4),
                Some(10),
                Some(9)
            ]
        );
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..600 {
            let n = 2 + (next() % 9) as usize;
            let density = 20 + next() % 80;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if next() % 100 < density {
                        // Few distinct weights make ties; some negative.
                        let w = (next() % 12) as i64 - 2;
                        edges.push((i, j, if round % 3 == 0 { w * 1000 } else { w }));
                    }
                }
            }
            for max_cardinality in [false, true] {
                let mate = max_weight_matching(n, &edges, max_cardinality);
                let got = score(&mate, &edges);
                let want = brute(n, &edges, max_cardinality);
                if max_cardinality {
                    assert_eq!(got, want, "{n} {edges:?}");
                } else {
                    assert_eq!(got.1, want.1, "{n} {edges:?}");
                }
            }
        }
    }

    /// The best (edges, weight) by dynamic programming over vertex sets:
    /// for graphs a little larger than `brute` handles.
    fn by_subsets(n: usize, edges: &[(usize, usize, i64)], max_cardinality: bool) -> (usize, i64) {
        let mut weight = vec![vec![None; n]; n];
        for &(i, j, w) in edges {
            weight[i][j] = Some(w);
            weight[j][i] = Some(w);
        }
        let key = |c: (usize, i64)| if max_cardinality { c } else { (0, c.1) };
        // best[mask]: the best matching inside the vertices of `mask`.
        let mut best = vec![(0usize, 0i64); 1 << n];
        for mask in 1usize..1 << n {
            let v = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << v);
            let mut b = best[rest];
            for w in v + 1..n {
                if rest & (1 << w) != 0 {
                    if let Some(wt) = weight[v][w] {
                        let (c, x) = best[rest & !(1 << w)];
                        let cand = (c + 1, x + wt);
                        if key(cand) > key(b) {
                            b = cand;
                        }
                    }
                }
            }
            best[mask] = b;
        }
        best[(1 << n) - 1]
    }

    #[test]
    fn larger_random_graphs_match_the_subset_search() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..40 {
            let n = 11 + (next() % 4) as usize;
            let density = 15 + next() % 70;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if next() % 100 < density {
                        edges.push((i, j, (next() % 30) as i64));
                    }
                }
            }
            for max_cardinality in [false, true] {
                let mate = max_weight_matching(n, &edges, max_cardinality);
                let got = score(&mate, &edges);
                let want = by_subsets(n, &edges, max_cardinality);
                if max_cardinality {
                    assert_eq!(got, want, "{n} {edges:?}");
                } else {
                    assert_eq!(got.1, want.1, "{n} {edges:?}");
                }
            }
        }
    }
}
