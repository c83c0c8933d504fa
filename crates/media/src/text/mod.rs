//! Reading the text in a GIF (its caption) with Tesseract: the distinct scenes of the animation on
//! one sheet ([`sheet`]), prepared for caption text, read in one run of the `tesseract` program
//! under the same rules as `ffmpeg` (no environment, a memory limit, a wall-clock timeout, killed
//! and reaped past it), words below a confidence dropped.

mod sheet;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(crate) use sheet::TextSheet;

use crate::sink::Output;
use crate::video::{drain_stderr, limit_memory, watch};
use crate::{Limits, MediaRejection};

/// Words read with less confidence (0 to 100) are dropped.
pub const MIN_CONFIDENCE: f32 = 70.0;
/// The most text kept of one GIF, in characters.
pub const MAX_TEXT_CHARS: usize = 500;

/// A usable `tesseract` program with the English model.
#[derive(Clone, Debug)]
pub struct Tesseract {
    path: PathBuf,
    timeout: Duration,
    memory_limit: u64,
}

impl Tesseract {
    /// One run's wall-clock budget unless [`with_timeout`](Self::with_timeout) says otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// Runs `tesseract --list-langs` once (`path`, or `tesseract` from `PATH` when `None`) and
    /// checks that the English model is there.
    ///
    /// # Errors
    /// A sentence saying why text cannot be read, for the server to log once.
    pub fn detect(path: Option<&Path>) -> Result<Self, String> {
        let path = path.map_or_else(|| PathBuf::from("tesseract"), Path::to_path_buf);
        let shown = path.display();
        let out = Command::new(&path).arg("--list-langs").env_clear().stdin(Stdio::null()).output().map_err(|e| {
            format!("Text in GIFs will not be read: tesseract could not be started from {shown} ({e}).")
        })?;
        let langs = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        if !out.status.success() || !langs.lines().any(|l| l.trim() == "eng") {
            return Err(format!(
                "Text in GIFs will not be read: the tesseract at {shown} has no English model (install tesseract-ocr-eng)."
            ));
        }
        Ok(Self { path, timeout: Self::DEFAULT_TIMEOUT, memory_limit: 1 << 30 })
    }

    /// The wall-clock budget of one run; past it the child is killed.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The executable that runs.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs Tesseract on a PNG (piped on stdin), answering its TSV.
    fn run(&self, png: &[u8]) -> Result<String, MediaRejection> {
        let mut cmd = Command::new(&self.path);
        // One thread: the server's cores are for the requests. No environment is needed.
        cmd.env_clear().env("OMP_THREAD_LIMIT", "1").env("MALLOC_ARENA_MAX", "2");
        cmd.args(["stdin", "stdout", "-l", "eng", "--psm", "11", "tsv"]);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        limit_memory(&mut cmd, self.memory_limit);
        let mut child = cmd.spawn().map_err(|e| text_err(format!("tesseract could not start: {e}")))?;
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let child = Arc::new(Mutex::new(child));
        let watchdog = watch("tesseract", child, Instant::now() + self.timeout, Arc::new(AtomicBool::new(false)));
        let errors = stderr.map(drain_stderr);
        let reader = stdout.map(|mut out| {
            std::thread::spawn(move || {
                let mut text = Vec::new();
                let _ = out.by_ref().take(4 << 20).read_to_end(&mut text);
                text
            })
        });
        if let Some(mut stdin) = stdin {
            // A child killed for its deadline closes the pipe: the write fails, the watchdog says why.
            let _ = stdin.write_all(png);
        }
        let tsv = reader.and_then(|r| r.join().ok()).unwrap_or_default();
        let (status, late) = watchdog.join().map_err(|_| text_err("the tesseract watchdog failed"))?;
        if late {
            return Err(MediaRejection::ImageTooComplex);
        }
        if !status.is_some_and(|s| s.success()) {
            let said = errors.and_then(|e| e.join().ok()).unwrap_or_default();
            return Err(text_err(format!("tesseract failed ({status:?}): {said}")));
        }
        Ok(String::from_utf8_lossy(&tsv).into_owned())
    }
}

#[async_trait::async_trait]
impl gifshelf_domain::ports::TextReader for crate::MediaService {
    async fn read_text(&self, bytes: Arc<Vec<u8>>) -> Result<Vec<String>, MediaRejection> {
        let tesseract = self.tesseract().ok_or_else(|| text_err("no tesseract is configured"))?;
        crate::probe(&bytes, self.limits())?;
        let permit = self.slot().await?;
        let limits = self.limits().clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            read_text(&bytes, &limits, &tesseract)
        })
        .await
        .map_err(|e| text_err(format!("text task failed: {e}")))?
    }
}

fn text_err(what: impl std::fmt::Display) -> MediaRejection {
    crate::error::internal(format!("reading text failed: {what}"))
}

/// The text read in an image or animation: its lines, each once, in reading order; empty when
/// there is none.
///
/// # Errors
/// The image's own rejections (as an upload's); `ImageTooComplex` past the timeout; `Internal`
/// when Tesseract fails.
pub fn read_text(bytes: &[u8], limits: &Limits, tesseract: &Tesseract) -> Result<Vec<String>, MediaRejection> {
    let made = crate::make(bytes, limits, &[Output::TextSheet], crate::sink::Tools::default())?;
    // The sheets (two at most; a blank one holds no panel) are read at once.
    let sheets = made.renditions.iter().filter(|sheet| sheet.frames > 0);
    let tsvs = std::thread::scope(|scope| {
        let runs: Vec<_> = sheets.map(|sheet| scope.spawn(|| tesseract.run(&sheet.bytes))).collect();
        runs.into_iter()
            .map(|run| run.join().unwrap_or_else(|_| Err(text_err("a tesseract run panicked"))))
            .collect::<Result<Vec<String>, MediaRejection>>()
    })?;
    Ok(lines_of(&tsvs))
}

/// The confident words of Tesseract's TSVs (one per sheet) grouped into lines, in reading order:
/// none that only repeats, within one letter a word, what a more
/// confident line says (the same caption read twice); cut to [`MAX_TEXT_CHARS`] in all.
pub(crate) fn lines_of(tsvs: &[String]) -> Vec<String> {
    let mut lines: Vec<Line> = Vec::new();
    for (sheet, row) in tsvs.iter().enumerate().flat_map(|(i, tsv)| tsv.lines().skip(1).map(move |r| (i, r))) {
        let cols: Vec<&str> = row.split('\t').collect();
        let [level, _page, block, par, line, _word, _l, _t, _w, _h, conf, text] = cols[..] else { continue };
        if level != "5" || text.trim().is_empty() {
            continue;
        }
        let conf = conf.parse::<f32>().unwrap_or(-1.0);
        let key = format!("{sheet}.{block}.{par}.{line}");
        let at = lines.iter().position(|l| l.key == key).unwrap_or_else(|| {
            lines.push(Line { key, words: Vec::new(), doubtful: 0, confidence: 0.0 });
            lines.len() - 1
        });
        let line = &mut lines[at];
        line.confidence += conf;
        match clean_word(text).filter(|_| conf >= MIN_CONFIDENCE) {
            Some(word) => line.words.push(word),
            None => line.doubtful += 1,
        }
    }
    lines.retain(|l| !l.words.is_empty());
    // The same caption read again worse (from another scene, or its outline): a line whose every
    // word is one edit from a word of a line read with more confidence adds nothing.
    let mut by_confidence: Vec<usize> = (0..lines.len()).collect();
    by_confidence.sort_by(|&a, &b| lines[b].mean().total_cmp(&lines[a].mean()));
    let mut known: Vec<String> = Vec::new();
    let mut keep = vec![false; lines.len()];
    for i in by_confidence {
        let words: Vec<String> = lines[i].words.iter().map(|w| w.to_lowercase()).collect();
        if !words.iter().all(|w| known.iter().any(|k| one_edit_at_most(w, k))) {
            keep[i] = true;
            known.extend(words);
        }
    }
    let mut total = 0;
    let mut out = Vec::new();
    for line in lines.iter().zip(keep).filter(|(_, keep)| *keep).map(|(line, _)| line.words.join(" ")) {
        if total + line.len() > MAX_TEXT_CHARS {
            continue;
        }
        total += line.len() + 1;
        out.push(line);
    }
    out
}

/// One line of a sheet as Tesseract read it.
struct Line {
    key: String,
    /// Its confident words.
    words: Vec<String>,
    /// How many of its words were not.
    doubtful: usize,
    /// The sum of every word's confidence.
    confidence: f32,
}

impl Line {
    fn mean(&self) -> f32 {
        self.confidence / (self.words.len() + self.doubtful).max(1) as f32
    }
}

/// Whether `a` becomes `b` by changing, adding or removing one letter at most.
fn one_edit_at_most(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let same_start = short.iter().zip(long.iter()).take_while(|(x, y)| x == y).count();
    let skip = usize::from(short.len() == long.len());
    short[(same_start + skip).min(short.len())..] == long[(same_start + 1).min(long.len())..]
}

/// A word as read, without the punctuation around it; `None` for what is not a word (fewer than
/// two letters or digits, or mostly symbols: texture read as text).
fn clean_word(raw: &str) -> Option<String> {
    let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
    let letters = word.chars().filter(|c| c.is_alphanumeric()).count();
    let total = word.chars().count();
    (letters >= 2 && letters * 10 >= total * 8).then(|| word.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext";

    fn word(block: u32, line: u32, conf: f32, text: &str) -> String {
        format!("5\t1\t{block}\t1\t{line}\t1\t0\t0\t10\t10\t{conf}\t{text}")
    }

    #[test]
    fn confident_words_make_lines_each_kept_once() {
        let tsv = [
            HEADER.to_owned(),
            "4\t1\t1\t1\t1\t0\t0\t0\t10\t10\t-1\t".to_owned(),
            word(1, 1, 95.2, "THIS"),
            word(1, 1, 91.0, "IS"),
            word(1, 1, 88.0, "FINE,"),
            word(2, 1, 40.0, "jx"),
            word(3, 1, 93.0, "This"),
            word(3, 1, 90.0, "is"),
            word(3, 1, 90.0, "fine"),
            word(4, 1, 96.0, "~~"),
            word(4, 1, 96.0, "a"),
            word(5, 1, 80.0, "\"ship"),
            word(5, 1, 80.0, "it!\""),
            // Hollow letters read as a line of low confidence: its one confident word is one letter
            // from a word of a better line.
            word(6, 1, 25.4, "Gihis"),
            word(6, 1, 70.7, "Us"),
            word(6, 1, 26.4, "\u{201c}tine"),
            // A doubtful word leaves the others of its line.
            word(7, 1, 90.0, "deploy"),
            word(7, 1, 30.0, "fridav"),
            word(7, 1, 91.0, "now"),
        ]
        .join("\n");
        assert_eq!(lines_of(std::slice::from_ref(&tsv)), ["THIS IS FINE", "ship it", "deploy now"]);
        assert_eq!(
            lines_of(&[tsv, [HEADER.to_owned(), word(1, 1, 90.0, "more")].join("\n")]),
            ["THIS IS FINE", "ship it", "deploy now", "more"]
        );
        assert!(lines_of(&[String::new()]).is_empty());
        assert!(lines_of(&[HEADER.to_owned()]).is_empty());
    }

    #[test]
    fn a_caption_read_again_worse_adds_only_its_new_words() {
        let sheet = |rows: &[String]| [HEADER.to_owned()].iter().chain(rows).cloned().collect::<Vec<_>>().join("\n");
        // The outline of a caption first (another sheet), then the caption itself.
        let outline = sheet(&[word(1, 1, 79.3, "this"), word(1, 1, 75.7, "fs"), word(1, 1, 49.6, "tine")]);
        let clean = sheet(&[
            word(1, 1, 95.2, "this"),
            word(1, 1, 95.2, "is"),
            word(1, 1, 96.6, "fine"),
            word(2, 1, 92.0, "TRAIN"),
            word(2, 1, 92.0, "COOKIE"),
            word(3, 1, 80.0, "TRALN"),
            word(3, 1, 81.0, "HELLO"),
            word(3, 1, 80.0, "COOKIE"),
        ]);
        assert_eq!(lines_of(&[outline, clean]), ["this is fine", "TRAIN COOKIE", "TRALN HELLO COOKIE"]);
        for (a, b, near) in
            [("fine", "tine", true), ("is", "fs", true), ("cookie", "cookies", true), ("train", "tarin", false)]
        {
            assert_eq!((one_edit_at_most(a, b), one_edit_at_most(b, a)), (near, near), "{a} {b}");
        }
        assert!(one_edit_at_most("is", "is") && !one_edit_at_most("is", "fine"));
    }

    #[test]
    fn words_are_letters_and_digits_not_texture() {
        assert_eq!(clean_word("(don't)").as_deref(), Some("don't"));
        assert_eq!(clean_word("2024").as_deref(), Some("2024"));
        for noise in ["", "|", "a", "~=-", "x%#&"] {
            assert_eq!(clean_word(noise), None, "{noise:?}");
        }
    }
}
