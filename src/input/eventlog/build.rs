//! From decoded heap events to a [`Profile`], named as GHC's `.hp` of the same run.
//!
//! GHC writes each census twice when a program runs with `-h… -l`: as `.hp` text and as
//! eventlog events. The names here follow `rts/ProfHeap.c`'s `.hp` writer, so that the
//! two files give the same bands: string samples (`-hT`, `-hd`, `-hy`, `-hm`, `-hr`,
//! `-hb`) are the `.hp`'s names already; a cost-centre stack (`-hc`) is its labels,
//! innermost first, joined by `/`, a CAF cost centre as `Module.CAF`, the empty stack as
//! `MAIN` (`fprint_ccs`), but without the `.hp`'s `(N)` prefix and never cut at `-L`.

use crate::input::{FxMap, Parsed, RuntimeReading, Warning, WarningKind};
use crate::profile::costs::Measure;
use crate::profile::{Costs, HeapLine, IdentId, Mark, Model, Profile, Provenance, Series};

use super::format::HeapEvent;
use super::format::{
    BREAKDOWN_COST_CENTRE_STACK, BREAKDOWN_INFO_TABLE, closure_type, id, payload, seconds,
};
use super::gathering::Gathering;
use super::header::{date_of, is_profiling_rts, job_of};

/// A cost centre's label, module and source span.
struct CostCentre {
    label: Box<[u8]>,
    module: Box<[u8]>,
    src: Box<[u8]>,
}

#[derive(Default)]
pub(super) struct Builder {
    /// The header declares sample-end events (GHC 8.4 and later): a sample is complete
    /// only at its end event. Older eventlogs end a sample with the next one's begin.
    pub ends_declared: bool,
    profile: Profile,
    ids: crate::input::names::NameIndex,
    /// Interned names of cost-centre stacks, keyed by the stack's raw bytes: most
    /// samples repeat the stacks of the one before.
    stacks: FxMap<Box<[u8]>, IdentId>,
    cost_centres: FxMap<u32, CostCentre>,
    /// Names that have a point in a completed sample; later ones may still be dropped.
    committed_names: usize,
    /// Time of the open sample.
    open: Option<f64>,
    /// The open sample came out of order and is dropped at its end.
    skip: bool,
    last_time: f64,
    pending: Vec<(IdentId, f64)>,
    warnings: Vec<Warning>,
    args: Option<Vec<Box<[u8]>>>,
    rts: Option<Box<[u8]>>,
    wall_clock: Option<u64>,
    breakdown: Option<u32>,
    /// `-hi`: an info table's address to its readable name.
    info_tables: FxMap<u64, (Box<[u8]>, Provenance)>,
    /// A heap profile begin event was read: heap profiling was on, whether or not a
    /// census came.
    profiling: bool,
    /// The latest time the eventlog reaches, in nanoseconds: the run's length.
    clock: u64,
    /// The hold on the band limit.
    bands: crate::input::BandBound,
    /// Bytes of definitions kept so far (see [`super::MAX_NAMING_BYTES`]).
    naming_bytes: usize,
    /// Every heap-sample event as read, when asked for (see [`super::heap_events`]).
    pub trace: Option<Vec<HeapEvent>>,
    /// The capability whose block is being read (`0xffff` for the global one).
    pub capability: u16,
    /// The runtime's collections and allocation being gathered, when asked for.
    pub gathering: Option<Box<Gathering>>,
    /// The cost-centre profiler's samples.
    samples: super::samples::Samples,
    /// What the samples are to be weighed by (`--measure`): they are then the profile
    /// even where the eventlog holds a heap profile too.
    measure: Option<crate::profile::costs::Measure>,
    /// Ticky-ticky counters (`+RTS -lT`): the profile where there is no heap census.
    ticky: super::ticky::Collected,
    /// Events read apart where the runtime wrote one inside another ([`super::resync`]).
    spliced: usize,
    /// Bytes passed over as unreadable, in how many places, and the first's offset.
    lost: (u64, usize, Option<u64>),
    /// User markers and heap readings (as lines) are not kept: the runtime's account is
    /// read alone (`input::Options::runtime_reading`).
    runtime_alone: bool,
}

impl Builder {
    /// A builder for what `options` ask: the runtime's account (`--stats`), the
    /// cost-centre samples over a heap profile (`--measure`).
    pub fn with_options(options: crate::input::Options) -> Builder {
        Builder {
            measure: options.measure,
            runtime_alone: options.runtime_reading != RuntimeReading::All,
            gathering: options.runtime.then(|| {
                Box::new(Gathering::keeping(
                    options.runtime_reading != RuntimeReading::Totals,
                    options.runtime_reading == RuntimeReading::All,
                ))
            }),
            ..Builder::default()
        }
    }

    /// Applies one event; `false` when its payload is too short for its fields.
    pub fn event(&mut self, ty: u16, time: u64, p: &[u8]) -> bool {
        self.clock(time);
        self.gather(ty, time, p).is_some() && self.apply(ty, time, p).is_some()
    }

    /// A damaged block was read ([`super::resync`]): `spliced` events read apart,
    /// `lost` bytes in so many places passed over, the first of them at `first_lost`.
    pub fn repaired(&mut self, spliced: usize, lost: (u64, usize), first_lost: Option<u64>) {
        self.spliced += spliced;
        if let Some(at) = first_lost {
            self.lost.0 += lost.0;
            self.lost.1 += lost.1;
            self.lost.2.get_or_insert(at);
        }
    }

    /// `bytes` of the file from `at` on were passed over: they do not read.
    pub fn lost_bytes(&mut self, bytes: u64, at: u64) {
        self.repaired(0, (bytes, 1), Some(at));
    }

    /// The time of the last complete census, in seconds.
    pub fn last_census(&self) -> Option<f64> {
        self.profile.times.last().copied()
    }

    /// What a damaged file lost and what was read apart, as warnings.
    fn say_repairs(&mut self) {
        if self.spliced > 0 {
            self.warn(WarningKind::ReadApart(self.spliced));
        }
        if let (bytes, places, Some(first)) = self.lost
            && bytes > 0
        {
            self.warn(WarningKind::BytesLost {
                bytes,
                places,
                first,
            });
        }
    }

    /// A block of events begins (the runtime's lists are read in runs of a block each).
    pub fn block(&mut self) {
        if let Some(g) = &mut self.gathering {
            g.block();
        }
    }

    /// The eventlog reaches time `ns` (an event's, or a block's end).
    pub fn clock(&mut self, ns: u64) {
        self.clock = self.clock.max(ns);
    }

    /// The latest time the eventlog reached so far, in nanoseconds.
    pub fn reached(&self) -> u64 {
        self.clock
    }

    /// The runtime's account's part of an event, when it is gathered.
    pub fn gather(&mut self, ty: u16, time: u64, p: &[u8]) -> Option<()> {
        match &mut self.gathering {
            Some(g) => g.event(ty, time, self.capability, p),
            None => Some(()),
        }
    }

    /// Whether [`Builder::apply`] takes events of type `ty` (all others it passes over):
    /// a reader of the second part of an eventlog leaves these to the first
    /// ([`super::split`]), so what is not kept is not left either.
    pub fn applies(&self, ty: u16) -> bool {
        match ty {
            id::USER_MARKER | id::HEAP_SIZE | id::HEAP_LIVE | id::BLOCKS_SIZE => {
                !self.runtime_alone
            }
            _ => matches!(
                ty,
                id::HEAP_PROF_SAMPLE_COST_CENTRE
                    | id::HEAP_PROF_SAMPLE_STRING
                    | id::HEAP_PROF_SAMPLE_BEGIN
                    | id::HEAP_BIO_PROF_SAMPLE_BEGIN
                    | id::HEAP_PROF_SAMPLE_END
                    | id::HEAP_PROF_COST_CENTRE
                    | id::HEAP_PROF_BEGIN
                    | id::IPE
                    | id::PROF_SAMPLE_COST_CENTRE
                    | id::PROF_BEGIN
                    | id::PROGRAM_ARGS
                    | id::RTS_IDENTIFIER
                    | id::WALL_CLOCK_TIME
                    | id::TICKY_COUNTER_DEF
                    | id::TICKY_COUNTER_SAMPLE
                    | id::TICKY_BEGIN_SAMPLE
            ),
        }
    }

    /// Whether events of type `ty` go to the runtime's account ([`Builder::gather`]):
    /// the reader takes those and those it applies ([`Builder::applies`]), and steps
    /// over every other by its size.
    pub fn gathers(&self, ty: u16) -> bool {
        self.gathering.as_ref().is_some_and(|g| g.takes(ty))
    }

    /// Everything of an event but the runtime's account ([`Builder::gather`]).
    pub fn apply(&mut self, ty: u16, time: u64, p: &[u8]) -> Option<()> {
        if !self.applies(ty) {
            return Some(());
        }
        match ty {
            id::HEAP_PROF_SAMPLE_COST_CENTRE
            | id::HEAP_PROF_SAMPLE_STRING
            | id::HEAP_PROF_SAMPLE_BEGIN
            | id::HEAP_BIO_PROF_SAMPLE_BEGIN
            | id::HEAP_PROF_SAMPLE_END => self.census(ty, time, p),
            id::HEAP_PROF_COST_CENTRE | id::HEAP_PROF_BEGIN | id::IPE => self.naming(ty, p),
            id::PROF_SAMPLE_COST_CENTRE => {
                self.samples.push(time, payload::prof_sample(p)?);
                Some(())
            }
            id::PROF_BEGIN => {
                self.samples.interval = Some(payload::u64_at(p, 0)?);
                Some(())
            }
            id::TICKY_BEGIN_SAMPLE => {
                self.ticky.begin(time);
                Some(())
            }
            id::TICKY_COUNTER_SAMPLE => {
                self.ticky.sample(payload::ticky_sample(p)?);
                Some(())
            }
            id::TICKY_COUNTER_DEF => {
                let (counter, name) = payload::ticky_def(p)?;
                self.ticky.define(counter, name);
                Some(())
            }
            _ => self.run_event(ty, time, p),
        }
    }

    /// A census: its start, its samples and its end.
    fn census(&mut self, ty: u16, time: u64, p: &[u8]) -> Option<()> {
        match ty {
            id::HEAP_PROF_SAMPLE_COST_CENTRE => {
                let (residency, stack) = payload::sample_cost_centre(p)?;
                if let Some(trace) = &mut self.trace {
                    trace.push(HeapEvent::CostCentreSample {
                        time,
                        residency,
                        stack: stack
                            .chunks_exact(4)
                            .map(|c| u32::from_be_bytes(c.try_into().expect("4 bytes")))
                            .collect(),
                    });
                }
                let id = self.stack_id(stack);
                self.pending.push((id, residency as f64));
            }
            id::HEAP_PROF_SAMPLE_STRING => {
                let (residency, label) = payload::sample_string(p)?;
                if let Some(trace) = &mut self.trace {
                    trace.push(HeapEvent::StringSample {
                        time,
                        residency,
                        label: label.to_vec(),
                    });
                }
                let id = self.intern(label);
                self.pending.push((id, residency as f64));
            }
            id::HEAP_PROF_SAMPLE_BEGIN => {
                let era = payload::u64_at(p, 0)?;
                if let Some(trace) = &mut self.trace {
                    trace.push(HeapEvent::SampleBegin { time, era });
                }
                self.begin(seconds(time));
            }
            id::HEAP_BIO_PROF_SAMPLE_BEGIN => {
                let era = payload::u64_at(p, 0)?;
                let t = payload::bio_sample_begin(p)?;
                if let Some(trace) = &mut self.trace {
                    trace.push(HeapEvent::BioSampleBegin {
                        time,
                        era,
                        sample_time: t,
                    });
                }
                self.begin(seconds(t));
            }
            id::HEAP_PROF_SAMPLE_END => {
                let era = payload::u64_at(p, 0)?;
                if let Some(trace) = &mut self.trace {
                    trace.push(HeapEvent::SampleEnd { time, era });
                }
                self.end();
            }
            _ => {}
        }
        Some(())
    }

    /// What a census's numbers are named by: cost centres, info tables, the break-down.
    fn naming(&mut self, ty: u16, p: &[u8]) -> Option<()> {
        match ty {
            id::HEAP_PROF_COST_CENTRE => {
                let cc = payload::cost_centre(p)?;
                let label = self.label(cc.label);
                let module = self.label(cc.module);
                let src = self.label(cc.src);
                if self.spend(label.len() + module.len() + src.len()) {
                    self.cost_centres
                        .insert(cc.id, CostCentre { label, module, src });
                }
            }
            id::HEAP_PROF_BEGIN => {
                self.profiling = true;
                self.breakdown = Some(payload::heap_prof_begin(p)?);
            }
            id::IPE => {
                let ipe = payload::ipe(p)?;
                let label = if ipe.label.is_empty() {
                    ipe.table_name
                } else {
                    ipe.label
                };
                let mut name = label.to_vec();
                name.extend_from_slice(b" (");
                if ipe.src_loc.is_empty() || ipe.src_loc == b":" {
                    name.extend_from_slice(ipe.module);
                } else {
                    name.extend_from_slice(ipe.src_loc);
                }
                name.push(b')');
                let provenance = Provenance {
                    closure: self.label(closure_type(ipe.closure_desc)),
                    ty: self.label(ipe.ty_desc),
                    label: self.label(ipe.label),
                    module: self.label(ipe.module),
                    location: self.label(ipe.src_loc),
                };
                let name = self.label(&name);
                let size = name.len()
                    + provenance.closure.len()
                    + provenance.ty.len()
                    + provenance.label.len()
                    + provenance.module.len()
                    + provenance.location.len();
                if self.spend(size) {
                    self.info_tables.insert(ipe.info, (name, provenance));
                }
            }
            _ => {}
        }
        Some(())
    }

    /// What the run says of itself beside the census: markers, arguments, heap sizes,
    /// and (when asked for) its collections and allocation.
    fn run_event(&mut self, ty: u16, time: u64, p: &[u8]) -> Option<()> {
        match ty {
            id::USER_MARKER => {
                let thinned = self.profile.push_mark(Mark {
                    time: seconds(time),
                    text: Some(p.into()),
                });
                crate::input::warn_thinned(&mut self.warnings, thinned);
            }
            id::PROGRAM_ARGS => {
                let args = payload::capset_strings(p)?;
                self.args
                    .get_or_insert_with(|| args.into_iter().map(Box::from).collect());
            }
            id::RTS_IDENTIFIER => {
                let rts = payload::capset_string(p)?;
                self.rts.get_or_insert_with(|| rts.into());
            }
            id::WALL_CLOCK_TIME => {
                let (secs, _) = payload::wall_clock(p)?;
                self.wall_clock.get_or_insert(secs);
            }
            id::HEAP_SIZE | id::HEAP_LIVE | id::BLOCKS_SIZE => {
                let line = match ty {
                    id::HEAP_SIZE => HeapLine::Size,
                    id::HEAP_LIVE => HeapLine::Live,
                    _ => HeapLine::Blocks,
                };
                let b = payload::capset_bytes(p)?;
                if self.profile.heap.push(line, seconds(time), b as f64) {
                    crate::input::warn_once(&mut self.warnings, WarningKind::HeapLinesMerged);
                }
            }
            _ => {}
        }
        Some(())
    }

    /// A definition's string as kept: cut at [`super::MAX_LABEL`] bytes, saying so once.
    fn label(&mut self, text: &[u8]) -> Box<[u8]> {
        match crate::profile::cut_text(text, super::MAX_LABEL) {
            Some(cut) => {
                crate::input::warn_once(&mut self.warnings, WarningKind::LabelCut);
                cut
            }
            None => text.into(),
        }
    }

    /// Whether a definition of `bytes` still fits [`super::MAX_NAMING_BYTES`]; counts it
    /// if so, says once if not.
    fn spend(&mut self, bytes: usize) -> bool {
        let cost = bytes + super::DEFINITION_OVERHEAD;
        if self.naming_bytes + cost > super::MAX_NAMING_BYTES {
            crate::input::warn_once(&mut self.warnings, WarningKind::NamingDropped);
            return false;
        }
        self.naming_bytes += cost;
        true
    }

    fn intern(&mut self, name: &[u8]) -> IdentId {
        if let Some(id) = self.ids.get(self.profile.bands.names(), name) {
            return id;
        }
        let kept = self.ids.kept(name);
        if kept.len() < name.len() {
            crate::input::warn_once(&mut self.warnings, WarningKind::NameCut);
        }
        let id = self.profile.bands.push(kept, Series::default());
        self.ids.insert(self.profile.bands.names(), id);
        id
    }

    fn stack_id(&mut self, stack: &[u8]) -> IdentId {
        if let Some(&id) = self.stacks.get(stack) {
            return id;
        }
        let (name, resolved) = self.stack_name(stack);
        let id = self.intern(&name);
        // A stack naming a cost centre not defined yet is named again next time.
        if resolved {
            self.stacks.insert(stack.into(), id);
        }
        id
    }

    /// `fprint_ccs` without the `(N)` prefix and the length limit: labels innermost
    /// first, a `/` after each but a CAF's (GHC's own rule), `MAIN` for the empty stack.
    fn stack_name(&self, stack: &[u8]) -> (Vec<u8>, bool) {
        if stack.is_empty() {
            return (b"MAIN".to_vec(), true);
        }
        let mut name = Vec::new();
        let mut resolved = true;
        let ids: Vec<u32> = stack
            .chunks_exact(4)
            .map(|c| u32::from_be_bytes(c.try_into().expect("4 bytes")))
            .collect();
        for (k, cc) in ids.iter().enumerate() {
            match self.cost_centres.get(cc) {
                Some(cc) if &*cc.label == b"CAF" => {
                    name.extend_from_slice(&cc.module);
                    name.extend_from_slice(b".CAF");
                    continue;
                }
                Some(cc) => name.extend_from_slice(&cc.label),
                None => {
                    resolved = false;
                    name.extend_from_slice(format!("<cost centre {cc}>").as_bytes());
                }
            }
            if k + 1 < ids.len() {
                name.push(b'/');
            }
        }
        (name, resolved)
    }

    fn begin(&mut self, t: f64) {
        if self.open.is_some() {
            // A begin without an end before it: the runtime ends samples this way
            // before sample-end events existed.
            self.end();
        }
        self.skip = t < self.last_time;
        if self.skip {
            self.warnings.push(Warning {
                line: None,
                kind: WarningKind::SampleOutOfOrder {
                    time: t,
                    previous: self.last_time,
                },
            });
        } else {
            self.last_time = t;
        }
        self.open = Some(t);
    }

    fn end(&mut self) {
        let Some(t) = self.open.take() else {
            return;
        };
        if std::mem::take(&mut self.skip) {
            self.drop_pending();
            return;
        }
        let sample = self.profile.times.len() as u32;
        for (id, v) in self.pending.drain(..) {
            self.profile.bands.series_mut()[id as usize].push(sample, v);
        }
        self.profile.times.push(t);
        self.committed_names = self.profile.bands.len();
        crate::input::bound_samples(&mut self.profile, &mut self.warnings);
        self.bound_bands(true);
    }

    /// Keeps the band limit, as the profile is read (`live`) or at its end, and
    /// forgets the merged names and stacks.
    fn bound_bands(&mut self, live: bool) {
        let tables = &mut [&mut self.stacks];
        let (profile, warnings, names) = (&mut self.profile, &mut self.warnings, &mut self.ids);
        let merged = if live {
            self.bands.while_reading(profile, warnings, names, tables)
        } else {
            self.bands.apply(profile, warnings, names, tables)
        };
        if merged {
            self.committed_names = self.profile.bands.len();
        }
    }

    /// Forgets the open sample's points and the names only they used.
    fn drop_pending(&mut self) {
        self.pending.clear();
        self.open = None;
        let keep = self.committed_names;
        let removed = self.profile.bands.truncate(keep);
        self.ids.truncate(&removed, keep);
        self.stacks.retain(|_, id| (*id as usize) < keep);
    }

    /// Says `kind` once.
    pub fn warn(&mut self, kind: WarningKind) {
        crate::input::warn_once(&mut self.warnings, kind);
    }

    /// The data-end marker: in an eventlog without sample-end events it ends the last
    /// sample.
    pub fn data_ended(&mut self) {
        if !self.ends_declared {
            self.end();
        }
    }

    pub fn progress(&self) -> (usize, usize) {
        (self.profile.times.len(), self.profile.marks.len())
    }

    /// The complete samples so far, as a profile.
    pub fn snapshot(&self) -> Option<Parsed> {
        if self.profile.times.is_empty() {
            return None;
        }
        let mut profile = self.profile.clone();
        profile.bands.truncate(self.committed_names);
        profile.heap.sort();
        let mut warnings = self.warnings.clone();
        self.bands.clone().apply(
            &mut profile,
            &mut warnings,
            &mut Default::default(),
            &mut [],
        );
        // The run's samples so far ride along, as at the end: a live page's strip grows.
        if !self.samples.is_empty() {
            let costs = self.costs_of(self.samples.clone(), &mut warnings);
            profile.cost_samples = Some(Box::new(costs));
        }
        Some(Parsed {
            profile: Model::Heap(self.dress(profile)),
            warnings,
            runtime_only: false,
        })
    }

    /// The profile at the end of the input; `cut` when the data-end marker never came.
    pub fn finish(mut self, cut: bool) -> Result<Parsed, super::ErrorKind> {
        self.say_repairs();
        if (cut || self.ends_declared) && (self.open.is_some() || !self.pending.is_empty()) {
            self.warnings.push(Warning {
                line: None,
                kind: WarningKind::IncompleteLastSample,
            });
            self.drop_pending();
        }
        if cut && !self.warnings.iter().any(Warning::loses_data) {
            self.warnings.push(Warning {
                line: None,
                kind: WarningKind::EventlogCut,
            });
        }
        let gathered = self
            .gathering
            .take()
            // A profiling runtime's censuses are timed apart by `+RTS -s` (PROF); a plain
            // runtime's (-hT) are part of its GC time there too.
            .map(|g| {
                let profiled = self.rts.as_deref().is_some_and(is_profiling_rts);
                g.finish(self.clock, self.profiling && profiled)
            });
        if let Some(parsed) = self.sampled(&gathered) {
            return parsed;
        }
        if self.profile.times.is_empty() && !self.profiling && self.ticky.sampled() {
            return Ok(self.ticked(gathered));
        }
        // Heap profiling on but no census is a heap profile that ended early, not a run
        // without one.
        let runtime_only = self.profile.times.is_empty()
            && !self.profiling
            && gathered.as_ref().is_some_and(|r| {
                !r.is_empty() || !r.nonmoving.censuses.is_empty() || !r.activity.is_empty()
            });
        if self.profile.times.is_empty() && !self.profiling && gathered.is_some() && !runtime_only {
            return Err(super::ErrorKind::NoRuntimeEvents);
        }
        if let Some(runtime) = gathered {
            if runtime.inconsistent > 0 {
                let n = runtime.inconsistent;
                (self.warnings).push(Warning {
                    line: None,
                    kind: WarningKind::InconsistentCollections(n),
                });
            }
            self.profile.runtime = runtime;
        }
        if runtime_only {
            // No heap profile, but the runtime's account was asked for: the non-moving
            // heap's censuses where the run wrote them, else a profile as long as the
            // run, with no band.
            match self.profile.runtime.nonmoving.drawn() {
                Some((times, bands)) => {
                    (self.profile.times, self.profile.bands) = (times, bands);
                    self.profile.breakdown = crate::profile::Breakdown::Other;
                }
                None => self.profile.times = vec![0.0, seconds(self.clock)],
            }
        } else if self.profile.times.is_empty() {
            if !self.profiling {
                return Err(super::ErrorKind::NoHeapSamples);
            }
            if cut {
                return Err(super::ErrorKind::CutBeforeCensus);
            }
            // Heap profiling was on but the program ended before its first census: the
            // .hp of such a run has only the runtime's empty first and last samples, an
            // empty graph as long as the run.
            self.warnings.push(Warning {
                line: None,
                kind: WarningKind::NoCensus,
            });
            self.profile.times = vec![0.0, seconds(self.clock)];
        }
        if !runtime_only {
            crate::input::warn_if_empty(&self.profile, &mut self.warnings);
        }
        self.bound_bands(false);
        let mut profile = std::mem::take(&mut self.profile);
        profile.heap.sort();
        for s in profile.bands.series_mut() {
            s.shrink_to_fit();
        }
        // Samples beside a heap profile ride along with it, for the page.
        if !self.samples.is_empty() {
            profile.cost_samples = Some(Box::new(self.samples_profile()));
        }
        // Ticky counters without samples (no graph of them): their totals, for the summary.
        if !self.ticky.is_empty() {
            let ticky = std::mem::take(&mut self.ticky);
            profile.ticky = ticky.profile(&mut self.warnings).ticky;
        }
        Ok(Parsed {
            profile: Model::Heap(self.dress(profile)),
            warnings: self.warnings,
            runtime_only,
        })
    }

    /// The cost-centre samples as the profile, when they are what is read: asked for
    /// (`--measure`), or the eventlog holds no heap profile. The runtime's events and
    /// marks come along, as with a heap profile.
    fn sampled(
        &mut self,
        runtime: &Option<crate::profile::Runtime>,
    ) -> Option<Result<Parsed, super::ErrorKind>> {
        let heap = !self.profile.times.is_empty() || self.profiling;
        if self.samples.is_empty() || (heap && self.measure.is_none()) {
            return None;
        }
        if let Some(m @ (Measure::Alloc | Measure::Entries)) = self.measure {
            return Some(Err(super::ErrorKind::SamplesWeighTime(m)));
        }
        let mut costs = self.samples_profile();
        costs.series_mut().runtime = runtime.clone().unwrap_or_default();
        costs.series_mut().marks = std::mem::take(&mut self.profile.marks);
        costs.series_mut().heap = std::mem::take(&mut self.profile.heap);
        costs.series_mut().heap.sort();
        // The header's strings as for a heap profile; the units and break-down are
        // the samples'.
        costs.series = self.dress(std::mem::take(&mut costs.series));
        costs
            .series_mut()
            .set_units(b"seconds".to_vec(), b"ticks".to_vec());
        costs.series_mut().breakdown = crate::profile::Breakdown::CostCentreStacks;
        Some(Ok(Parsed {
            profile: Model::Costs(costs),
            warnings: std::mem::take(&mut self.warnings),
            runtime_only: false,
        }))
    }

    /// The ticky-ticky counters as the profile (an eventlog of `+RTS -lT` has no heap
    /// census: GHC takes one or the other), with the runtime's events and marks.
    fn ticked(&mut self, runtime: Option<crate::profile::Runtime>) -> Parsed {
        let ticky = std::mem::take(&mut self.ticky);
        let mut profile = ticky.profile(&mut self.warnings);
        profile.runtime = runtime.unwrap_or_default();
        profile.marks = std::mem::take(&mut self.profile.marks);
        profile.heap = std::mem::take(&mut self.profile.heap);
        profile.heap.sort();
        crate::input::warn_if_empty(&profile, &mut self.warnings);
        let mut profile = self.dress(profile);
        profile.set_units(b"seconds".to_vec(), b"bytes".to_vec());
        Parsed {
            profile: Model::Heap(profile),
            warnings: std::mem::take(&mut self.warnings),
            runtime_only: false,
        }
    }

    /// The cost-centre samples read, as a cost profile over time: frames named
    /// `Module.label`, each with its source span (the first of a name's).
    fn samples_profile(&mut self) -> Costs {
        let samples = std::mem::take(&mut self.samples);
        let mut warnings = std::mem::take(&mut self.warnings);
        let costs = self.costs_of(samples, &mut warnings);
        self.warnings = warnings;
        costs
    }

    /// `samples` as a cost profile over time, what they lost said in `warnings`.
    fn costs_of(&self, samples: super::samples::Samples, warnings: &mut Vec<Warning>) -> Costs {
        let centres = &self.cost_centres;
        let name = |id: u32| match centres.get(&id) {
            Some(cc) => [&*cc.module, b".", &*cc.label].concat(),
            None => id.to_string().into_bytes(),
        };
        let mut profile = samples.profile(name, warnings);
        // Each frame's source span, as a report's are kept (the first of a name's).
        let mut ids: Vec<&u32> = centres.keys().collect();
        ids.sort_unstable();
        for cc in ids.into_iter().map(|id| &centres[id]) {
            if !cc.src.is_empty() {
                let name: Box<[u8]> = [&*cc.module, b".", &*cc.label].concat().into();
                profile
                    .sources
                    .entry(name)
                    .or_insert_with(|| cc.src.clone());
            }
        }
        profile
    }

    /// The `.hp` header strings and, for `-hi`, readable names.
    fn dress(&self, mut profile: Profile) -> Profile {
        let profiled = match &self.rts {
            Some(rts) => is_profiling_rts(rts),
            None => !self.cost_centres.is_empty(),
        };
        let args: Vec<&[u8]> = self.args.iter().flatten().map(|a| &a[..]).collect();
        profile.job = job_of(&args, profiled);
        profile.date = self.wall_clock.map(date_of).unwrap_or_default();
        profile.set_units(b"seconds".to_vec(), b"bytes".to_vec());
        // The eventlog's clock is the runtime's, from its start: the program's. Not where
        // every census has one time (a biographical run's, -hb, are all written out at
        // its exit): those times do not place the censuses in the run.
        let placed = (profile.times.first()).zip(profile.times.last());
        profile.origin = placed.filter(|(a, b)| a < b).map(|_| 0.0);
        profile.breakdown = match self.breakdown {
            None => crate::profile::Breakdown::Unknown,
            Some(BREAKDOWN_COST_CENTRE_STACK) => crate::profile::Breakdown::CostCentreStacks,
            Some(_) => crate::profile::Breakdown::Other,
        };
        if self.breakdown == Some(BREAKDOWN_INFO_TABLE) && !self.info_tables.is_empty() {
            self.name_info_tables(&mut profile);
        }
        profile
    }

    /// `-hi` samples are labelled with the info table's address (`0x4a9b10`); the IPE
    /// events give the table's label and source location. Two tables can share those,
    /// so a name already taken keeps its address too.
    fn name_info_tables(&self, profile: &mut Profile) {
        let mut taken: FxMap<Box<[u8]>, ()> = profile
            .bands
            .names()
            .iter()
            .map(|n| (n.clone(), ()))
            .collect();
        for name in profile.bands.names_mut() {
            let Some(resolved) = std::str::from_utf8(name)
                .ok()
                .and_then(|s| s.strip_prefix("0x"))
                .and_then(|hex| u64::from_str_radix(hex, 16).ok())
                .and_then(|info| self.info_tables.get(&info))
            else {
                continue;
            };
            let (resolved, provenance) = resolved;
            let mut new = resolved.to_vec();
            if taken.contains_key(&new[..]) {
                new.extend_from_slice(b" ");
                new.extend_from_slice(name);
            }
            taken.insert(new.clone().into(), ());
            profile
                .provenance
                .insert(new.clone().into(), provenance.clone());
            *name = new.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_types_are_named_by_their_number() {
        assert_eq!(closure_type(b"15"), b"THUNK");
        assert_eq!(closure_type(b"1"), b"CONSTR");
        assert_eq!(closure_type(b"65"), b"ANN_FRAME");
        assert_eq!(closure_type(b"66"), b"66");
        assert_eq!(closure_type(b"fun"), b"fun");
    }
}
