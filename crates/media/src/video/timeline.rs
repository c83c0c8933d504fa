//! The constant-rate grid a GIF's frames are written on (see the parent module's "Timing").

/// How a browser times a GIF frame: a delay of 0 or 1 hundredth is shown for 10 (Chromium,
/// Firefox and Safari all do this), in hundredths of a second.
pub(crate) fn shown_delay(delay: u16) -> u32 {
    if delay <= 1 {
        10
    } else {
        u32::from(delay)
    }
}

/// The total time one loop of frames with these delays is shown, in milliseconds.
pub(crate) fn duration_ms(delays: &[u16]) -> u32 {
    delays.iter().map(|&d| shown_delay(d)).sum::<u32>().saturating_mul(10)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// How often each frame is written into the constant-rate raw input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Timeline {
    /// One input frame lasts this many hundredths of a second.
    pub step: u32,
    /// Copies of each source frame (0: a frame too short for the grid, never shown).
    pub writes: Vec<u32>,
}

impl Timeline {
    /// The grid is the delays' greatest common divisor, unless it would write more than about
    /// three copies per frame (delays such as 7 and 10 give a grid of 1): then the finest of
    /// 2, 5, 10 … 100 hundredths under that bound, frame starts rounded onto it (every frame still
    /// starts within half a step of its time, and the total stays within half a step). Past a
    /// second, the step grows in whole seconds until the bound holds: the writes, which are the
    /// work, never pass `3 × frames + 100`, whatever the delays.
    pub(crate) fn new(delays: &[u16]) -> Self {
        let shown: Vec<u32> = delays.iter().map(|&d| shown_delay(d)).collect();
        let total: u32 = shown.iter().sum();
        let budget = 3 * shown.len() as u32 + 100;
        let exact = shown.iter().fold(0, |g, &d| gcd(g, d)).max(1);
        let step = std::iter::once(exact)
            .chain([2, 4, 5, 10, 20, 25, 50, 100].into_iter().filter(|&s| s > exact))
            .find(|&s| total.div_ceil(s) <= budget)
            // Holds of minutes (a delay may be 655.35 s): whole seconds per step, as many as
            // keep the writes within the budget. Frames shorter than half a step then vanish.
            .unwrap_or_else(|| total.div_ceil(budget).next_multiple_of(100));
        let mut writes = Vec::with_capacity(shown.len());
        let (mut at, mut start) = (0u32, 0u32);
        for d in shown {
            at += d;
            let end = (at + step / 2) / step;
            writes.push(end - start);
            start = end;
        }
        if writes.iter().all(|&w| w == 0) {
            if let Some(w) = writes.first_mut() {
                *w = 1;
            }
        }
        Timeline { step, writes }
    }

    pub(super) fn total_writes(&self) -> u32 {
        self.writes.iter().sum()
    }

    /// One loop's length on the grid, in milliseconds.
    pub(crate) fn duration_ms(&self) -> u32 {
        self.total_writes() * self.step * 10
    }

    /// The input frames the video keeps: the first copy of each frame and the last copy of all.
    pub(super) fn kept(&self) -> Vec<u32> {
        let mut kept = Vec::with_capacity(self.writes.len() + 1);
        let mut at = 0;
        for &w in &self.writes {
            if w > 0 {
                kept.push(at);
            }
            at += w;
        }
        if at > 0 && kept.last() != Some(&(at - 1)) {
            kept.push(at - 1);
        }
        kept
    }

    /// The `select` filters that keep [`kept`](Self::kept) (runs of input frames as
    /// `between`), or `None` when every input frame is kept.
    ///
    /// ffmpeg's expression parser gives up ("Cannot allocate memory") past about a hundred
    /// terms, which irregular delays reach with a hundred frames: the runs are cut into chunks of
    /// at most [`TERMS_PER_SELECT`] terms, one `select` each, chained from the last chunk to the
    /// first. Each filter passes every frame before its chunk (`lt`) and, through the count of
    /// frames it saw, every frame the later filters kept (`gte`); dropping only frames after its
    /// own chunk's start, it never renumbers the frames the filters after it in the chain judge.
    pub(super) fn select_filter(&self) -> Option<String> {
        let kept = self.kept();
        if kept.len() as u32 == self.total_writes() {
            return None;
        }
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for n in kept {
            match runs.last_mut() {
                Some((_, end)) if *end + 1 == n => *end = n,
                _ => runs.push((n, n)),
            }
        }
        let chunks: Vec<&[(u32, u32)]> = runs.chunks(TERMS_PER_SELECT).collect();
        let filters: Vec<String> = (0..chunks.len())
            .rev()
            .map(|i| {
                let mut terms: Vec<String> = Vec::with_capacity(TERMS_PER_SELECT + 2);
                let first = chunks[i][0].0;
                if first > 0 {
                    terms.push(format!("lt(n\\,{first})"));
                }
                terms.extend(chunks[i].iter().map(|&(a, b)| {
                    if a == b {
                        format!("eq(n\\,{a})")
                    } else {
                        format!("between(n\\,{a}\\,{b})")
                    }
                }));
                if let Some(next) = chunks.get(i + 1) {
                    terms.push(format!("gte(n\\,{})", next[0].0));
                }
                format!("select='{}'", terms.join("+"))
            })
            .collect();
        Some(filters.join(","))
    }
}

/// Terms of one `select` expression: well under the hundred or so ffmpeg's parser accepts.
const TERMS_PER_SELECT: usize = 48;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_frame_is_written_as_copies_of_the_common_step() {
        let t = Timeline::new(&[10, 10, 50, 10]);
        assert_eq!((t.step, t.writes.clone()), (10, vec![1, 1, 5, 1]));
        assert_eq!(t.kept(), [0, 1, 2, 7]);
        assert_eq!(t.duration_ms(), 800);
        assert_eq!(t.select_filter().as_deref(), Some("select='between(n\\,0\\,2)+eq(n\\,7)'"));
    }

    #[test]
    fn a_long_last_frame_keeps_its_last_copy_so_it_ends_on_time() {
        let t = Timeline::new(&[10, 10, 10, 50]);
        assert_eq!(t.kept(), [0, 1, 2, 3, 7]);
    }

    #[test]
    fn even_delays_need_no_select_and_zero_delays_show_for_a_tenth() {
        let t = Timeline::new(&[4, 4, 4]);
        assert_eq!((t.step, t.select_filter()), (4, None));
        assert_eq!(Timeline::new(&[0, 1, 10]).writes, [1, 1, 1]);
        assert_eq!(duration_ms(&[0, 1, 10, 20]), 500);
    }

    #[test]
    fn odd_delays_fall_back_to_a_coarser_grid_with_the_same_total() {
        let delays: Vec<u16> = (0..300).map(|i| if i % 2 == 0 { 7 } else { 10 }).collect();
        let t = Timeline::new(&delays);
        assert!(t.step > 1);
        assert!(t.total_writes() <= 3 * 300 + 100);
        let exact = duration_ms(&delays);
        assert!(t.duration_ms().abs_diff(exact) <= t.step * 10 / 2, "{} vs {exact}", t.duration_ms());
    }

    /// What a chain of `select` filters lets through of `inputs` frames, evaluated as ffmpeg
    /// does: each filter numbers the frames it sees from 0.
    fn selected(chain: &str, inputs: u32) -> Vec<u32> {
        let mut frames: Vec<u32> = (0..inputs).collect();
        // Filters are joined by a bare comma; the commas inside them are escaped (`\,`).
        for filter in chain.split(",select=") {
            let filter = filter.strip_prefix("select=").unwrap_or(filter);
            let expr = filter.strip_prefix('\'').and_then(|f| f.strip_suffix('\'')).expect(filter);
            let terms: Vec<Vec<u32>> = expr
                .split('+')
                .map(|t| {
                    let args = &t[t.find('(').expect(t) + 1..t.len() - 1];
                    args.split("\\,").skip(1).map(|a| a.parse().expect(a)).collect()
                })
                .collect();
            let names: Vec<&str> = expr.split('+').map(|t| &t[..t.find('(').expect(t)]).collect();
            assert!(terms.len() <= TERMS_PER_SELECT + 2, "{} terms in one select", terms.len());
            frames = frames
                .into_iter()
                .enumerate()
                .filter(|&(n, _)| {
                    let n = n as u32;
                    names.iter().zip(&terms).any(|(name, a)| match *name {
                        "eq" => n == a[0],
                        "between" => (a[0]..=a[1]).contains(&n),
                        "lt" => n < a[0],
                        "gte" => n >= a[0],
                        other => panic!("unknown term {other}"),
                    })
                })
                .map(|(_, f)| f)
                .collect();
        }
        frames
    }

    /// ffmpeg's expression parser refuses about a hundred terms: a GIF of 259 frames whose
    /// first frame lasts 2 hundredths (the others 10) once made one `select` of 259 terms,
    /// and every video of it failed.
    #[test]
    fn many_irregular_frames_are_selected_by_a_chain_of_short_selects() {
        let mut mixes: Vec<Vec<u16>> = vec![
            std::iter::once(2).chain(std::iter::repeat_n(10, 258)).collect(),
            std::iter::once(5).chain(std::iter::repeat_n(10, 258)).collect(),
        ];
        let mut seed = 0x2545_f491_u32;
        for len in [3usize, 49, 97, 200, 1000] {
            mixes.push(
                (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        [0u16, 1, 2, 3, 4, 5, 7, 10, 13, 50, 250][(seed >> 16) as usize % 11]
                    })
                    .collect(),
            );
        }
        for delays in mixes {
            let t = Timeline::new(&delays);
            let kept = t.kept();
            match t.select_filter() {
                Some(chain) => assert_eq!(selected(&chain, t.total_writes()), kept, "{delays:?}"),
                None => assert_eq!(kept.len() as u32, t.total_writes()),
            }
        }
    }

    #[test]
    fn holds_of_minutes_never_pass_the_write_budget() {
        for delays in [
            vec![65535u16, 10, 65535, 7],
            vec![65535, 3],
            (0..50).map(|i| if i % 2 == 0 { 65535 } else { 7 }).collect(),
        ] {
            let t = Timeline::new(&delays);
            let budget = 3 * delays.len() as u32 + 100;
            assert!(t.total_writes() <= budget, "{} writes for {} frames", t.total_writes(), delays.len());
            assert!(t.total_writes() > 0 && t.step.is_multiple_of(100), "{t:?}");
            let exact = duration_ms(&delays);
            assert!(t.duration_ms().abs_diff(exact) <= t.step * 10 / 2, "{} vs {exact}", t.duration_ms());
        }
        assert_eq!(Timeline::new(&[65535, 65535]).writes, [1, 1], "even holds keep their one write each");
    }
}
