//! A cost-centre profile: who spends the time and who allocates the bytes, as GHC's
//! `+RTS -p`/`-P`/`-pa` text, `-pj` JSON and eventlog samples report it. One model for
//! the three forms: the cost centres, each once, and the tree of cost-centre stacks with
//! each stack's own measures (what GHC calls *individual*; *inherited* is a sum over a
//! subtree, which the model computes rather than stores).
//!
//! Every list grows with the input and has a limit: [`MAX_CENTRES`], [`MAX_STACKS`],
//! [`MAX_DEPTH`].

/// A profile names at most this many cost centres (a large program has tens of thousands).
pub const MAX_CENTRES: usize = 1 << 20;

/// A profile's tree holds at most this many stacks; past it the reader stops with an
/// error naming the line (a 400,000-stack profile is 73 MB of text).
pub const MAX_STACKS: usize = 1 << 24;

/// A stack is at most this many cost centres deep; deeper rows are an error (GHC folds
/// recursion, so real stacks stay shallow).
pub const MAX_DEPTH: usize = 4096;

/// The most frames a stack keeps as a band (a report's, a sample's), outermost first:
/// what any view draws of it (a flame graph's depth), so that deep stacks of many bands
/// stay linear in memory.
pub const MAX_FRAMES: usize = 512;

/// A cost centre: a label in a module, and where its source is. Labels and modules are
/// shared between the cost centres that have them (a large report names a few thousand
/// of each in hundreds of thousands of cost centres).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CostCentre {
    /// Its label (`step`, `main.m`, `CAF`, an `SCC` pragma's text).
    pub label: std::sync::Arc<[u8]>,
    /// Its module (`Main`, `GHC.IO.Encoding`, `MAIN` for the runtime's).
    pub module: std::sync::Arc<[u8]>,
    /// Its source span, as GHC writes it (`Main.hs:6:1-46`, `<entire-module>`,
    /// `<no location info>`, `<built-in>`).
    pub src: Box<[u8]>,
}

impl CostCentre {
    /// `Module.label`, as GHC's JSON and inferno name a frame.
    pub fn name(&self) -> Vec<u8> {
        [&*self.module, b".", &*self.label].concat()
    }
}

/// One stack of the tree: a cost centre called from its parent's stack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stack {
    /// The cost centre (an index into [`CostProfile::centres`]).
    pub centre: u32,
    /// The stack it is called from (`None` for a root: `MAIN`, or an eventlog's
    /// outermost cost centres).
    pub parent: Option<u32>,
    /// GHC's number: the stack's in the text report (`no.`), its cost centre's in the
    /// JSON (`id`).
    pub number: u64,
    /// Times it was entered.
    pub entries: u64,
    /// Profiler ticks spent in this stack itself (`-P`, `-pj`; estimated from `%time`
    /// for `-p`, see [`CostProfile::exact`]).
    pub ticks: f64,
    /// Bytes allocated in this stack itself.
    pub bytes: f64,
}

/// What a stack is weighed by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Measure {
    /// Profiler ticks: time.
    #[default]
    Time,
    /// Bytes allocated.
    Alloc,
    /// Times entered.
    Entries,
}

impl Measure {
    /// Its name on the command line (`--measure`).
    pub fn name(self) -> &'static str {
        match self {
            Measure::Time => "time",
            Measure::Alloc => "alloc",
            Measure::Entries => "entries",
        }
    }

    /// A stack's own measure.
    pub fn of(self, s: &Stack) -> f64 {
        match self {
            Measure::Time => s.ticks,
            Measure::Alloc => s.bytes,
            Measure::Entries => s.entries as f64,
        }
    }
}

/// How precise the measures are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// Ticks and bytes as GHC counted them (`-P`, `-pj`, eventlog samples).
    Counted,
    /// Only percentages with one decimal (`-p`, `-pa`): ticks and bytes are the totals
    /// times each share, so a stack's measure is known to 0.05% of the run's total and a
    /// stack under that reads as 0.
    Percentages,
}

/// A whole cost-centre profile.
#[derive(Debug, Clone, PartialEq)]
pub struct CostProfile {
    /// The program and its arguments, as the report's header gives them.
    pub command: Box<[u8]>,
    /// When it ran (the header's date).
    pub date: Box<[u8]>,
    /// The run's time, in seconds (the header's `total time`).
    pub seconds: f64,
    /// The run's ticks.
    pub total_ticks: u64,
    /// One tick, in microseconds.
    pub tick_us: u64,
    /// Bytes allocated in the run (the header's `total alloc`, which leaves out the
    /// profiler's own).
    pub total_bytes: u64,
    /// The cost centres, each once.
    pub centres: Vec<CostCentre>,
    /// The stacks, each after its parent (the report's order).
    pub stacks: Vec<Stack>,
    /// Whether ticks and bytes were counted or come from percentages.
    pub precision: Precision,
}

impl CostProfile {
    /// Whether ticks and bytes are GHC's counts.
    pub fn exact(&self) -> bool {
        self.precision == Precision::Counted
    }

    /// Each stack's cost centres, outermost first, as indices into [`Self::centres`].
    pub fn path(&self, k: usize) -> Vec<u32> {
        let mut path = Vec::new();
        let mut at = Some(k as u32);
        while let Some(s) = at {
            path.push(self.stacks[s as usize].centre);
            at = self.stacks[s as usize].parent;
        }
        path.reverse();
        path
    }

    /// The distinct `Module.label` frame names, and each cost centre's among them: a
    /// report's cost centres differ by source span too (each stack of a large one can have
    /// its own), and a name is made once.
    ///
    /// The readers share a label or module between the cost centres that have it, so a
    /// pair is looked up by where its texts are first, and by the texts only when that
    /// pair is new (hundreds of thousands of centres, a few thousand pairs).
    pub fn frame_names(&self) -> (Vec<std::sync::Arc<[u8]>>, Vec<u32>) {
        use crate::profile::hash::FxMap;
        let mut shared: FxMap<(*const u8, *const u8), u32> = Default::default();
        let mut named: FxMap<(&[u8], &[u8]), u32> = Default::default();
        let mut names: Vec<std::sync::Arc<[u8]>> = Vec::new();
        let of = (self.centres.iter())
            .map(|c| {
                // One `Arc` is where its text is: the same place is the same text.
                let at = (c.module.as_ptr(), c.label.as_ptr());
                *shared.entry(at).or_insert_with(|| {
                    *named.entry((&c.module, &c.label)).or_insert_with(|| {
                        names.push(c.name().into());
                        names.len() as u32 - 1
                    })
                })
            })
            .collect();
        (names, of)
    }

    /// The stacks as paths of frame names (`name_of`: each cost centre's name, as
    /// [`Self::frame_names`] gives them), made in one pass, parent before child.
    pub fn paths(&self, name_of: &[u32]) -> Paths {
        let n = self.stacks.len();
        let mut p = Paths {
            parent: Vec::with_capacity(n),
            name: Vec::with_capacity(n),
            depth: Vec::with_capacity(n),
            of: Vec::with_capacity(n),
        };
        let mut children: crate::profile::hash::FxMap<(u32, u32), u32> =
            crate::profile::hash::FxMap::with_capacity_and_hasher(n, Default::default());
        for stack in &self.stacks {
            // A stack comes after its caller.
            let parent = (stack.parent).map_or(NO_PATH, |s| {
                p.of.get(s as usize).copied().unwrap_or(NO_PATH)
            });
            let name = name_of[stack.centre as usize];
            let path = *children.entry((parent, name)).or_insert_with(|| {
                let depth = match parent {
                    NO_PATH => 1,
                    up => p.depth[up as usize] + 1,
                };
                p.parent.push(parent);
                p.name.push(name);
                p.depth.push(depth);
                p.parent.len() as u32 - 1
            });
            p.of.push(path);
        }
        p
    }

    /// Each stack's inherited measure: its own plus its callees', by `own`.
    pub fn inherited(&self, own: impl Fn(&Stack) -> f64) -> Vec<f64> {
        let mut sums: Vec<f64> = self.stacks.iter().map(&own).collect();
        for k in (0..self.stacks.len()).rev() {
            if let Some(p) = self.stacks[k].parent {
                sums[p as usize] += sums[k];
            }
        }
        sums
    }
}

/// No path: an outermost path's parent.
pub const NO_PATH: u32 = u32::MAX;

/// A report's stacks as paths of frame names from an outermost frame
/// ([`CostProfile::paths`]): stacks whose cost centres differ only in their source spans
/// name the same frames and are one path, which the model makes one band and a flame
/// graph one frame. A path's parent comes before it.
#[derive(Debug, Clone, Default)]
pub struct Paths {
    /// Each path's caller's path ([`NO_PATH`] for an outermost one).
    pub parent: Vec<u32>,
    /// Each path's last frame's name (an index into the distinct names).
    pub name: Vec<u32>,
    /// Frames on each path: 1 for an outermost one.
    pub depth: Vec<u32>,
    /// Each stack's path.
    pub of: Vec<u32>,
}

/// What pruning (`--min-share`) hid: how many stacks were cut, and what they weighed together.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Pruned {
    /// The share a frame needed to be kept, in percent.
    pub min_share: f64,
    /// Stacks cut at a frame under the share.
    pub stacks: usize,
    /// What they weighed, in the profile's measure.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub weight: f64,
}

/// A retainer set's members (`+RTS -hr`): each a retainer's stack of `Module.label`
/// names, innermost first.
pub type Members = Vec<Vec<Box<[u8]>>>;

/// A retainer set as GHC's report writes it, each member's stack innermost first:
/// `{<Main.worker.loop,Main.main>, <SYSTEM.SYSTEM>}` (`<>` the empty stack).
pub fn set_text(members: &Members) -> String {
    let members: Vec<String> = (members.iter())
        .map(|m| {
            let labels: Vec<String> = m
                .iter()
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect();
            format!("<{}>", labels.join(","))
        })
        .collect();
    format!("{{{}}}", members.join(", "))
}
