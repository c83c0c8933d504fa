//! The `ffmpeg` filter graph of one run: the frames split per output, flattened for the videos.

use super::Video;

/// The filter graph: one input, optionally thinned by `select`, split into one scaled 4:2:0
/// stream per output, `[o0]`, `[o1]`, …. The WebPs keep the alpha (`yuva420p`); the videos (MP4
/// and WebM, which carry none here) get the frames flattened once onto white (a white copy of the
/// frame laid under it), so that a transparent GIF's video shows its picture on white rather than
/// on whatever colour its transparent pixels happen to hold.
pub(super) fn filter_graph(select: Option<String>, outputs: &[(Video, (u32, u32))], src: (u32, u32)) -> String {
    let flat: Vec<usize> = (0..outputs.len()).filter(|&i| !outputs[i].0.is_webp()).collect();
    let alpha: Vec<usize> = (0..outputs.len()).filter(|&i| outputs[i].0.is_webp()).collect();
    let branches: Vec<(&str, &[usize])> =
        [("flat", flat.as_slice()), ("alpha", alpha.as_slice())].into_iter().filter(|(_, m)| !m.is_empty()).collect();
    let mut graph = String::from("[0:v]");
    if let Some(select) = select {
        graph.push_str(&select);
        graph.push(',');
    }
    graph.push_str(&format!("split={}", branches.len()));
    for (name, _) in &branches {
        graph.push_str(&format!("[{name}]"));
    }
    for (name, members) in &branches {
        if *name == "flat" {
            graph.push_str(";[flat]split[under][over];[under]lutrgb=r=255:g=255:b=255:a=255[white];");
            graph.push_str("[white][over]overlay=format=auto,");
        } else {
            graph.push_str(&format!(";[{name}]"));
        }
        graph.push_str(&format!("split={}", members.len()));
        for i in members.iter() {
            graph.push_str(&format!("[s{i}]"));
        }
    }
    for (i, (video, (w, h))) in outputs.iter().enumerate() {
        let scale = if (*w, *h) == src { String::new() } else { format!("scale={w}:{h}:flags=lanczos,") };
        // The poster is the first frame: the rest of its branch is dropped before scaling.
        let first = if *video == Video::Poster { "trim=end_frame=1," } else { "" };
        graph.push_str(&format!(";[s{i}]{first}{scale}format={}[o{i}]", video.pix_fmt()));
    }
    graph
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    #[test]
    fn videos_are_flattened_once_onto_white_and_webps_keep_their_alpha() {
        let l = Limits::default();
        let outputs: Vec<(Video, (u32, u32))> =
            [Video::Mp4, Video::Webp, Video::Mp4Small].iter().map(|&v| (v, v.size(&l, 400, 300))).collect();
        let graph = filter_graph(None, &outputs, (400, 300));
        assert_eq!(graph.matches("overlay").count(), 1, "{graph}");
        assert!(graph.starts_with("[0:v]split=2[flat][alpha]"), "{graph}");
        assert!(
            graph.contains("overlay=format=auto,split=2[s0][s2]") && graph.contains("[alpha]split=1[s1]"),
            "{graph}"
        );
        assert!(graph.contains("[s1]format=yuva420p[o1]") && graph.contains("[s0]format=yuv420p[o0]"), "{graph}");
        let webp_only = filter_graph(None, &outputs[1..2], (400, 300));
        assert!(!webp_only.contains("overlay"), "{webp_only}");
        let poster = filter_graph(None, &[(Video::Poster, Video::Poster.size(&l, 800, 600))], (800, 600));
        assert!(poster.contains("[s0]trim=end_frame=1,scale=640:480:flags=lanczos,format=yuva420p[o0]"), "{poster}");
    }
}
