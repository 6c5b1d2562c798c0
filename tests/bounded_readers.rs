//! Hostile input, round three: every reader is bounded (`review` and its labels file, model
//! files near the size cap), and output files follow the umask.
//!
//! The memory checks run the command under `/usr/bin/time -f %M` (peak resident memory) and
//! compare against generous bounds, far above what the bounded readers take and far below
//! what holding the input would.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

use common::{mainline, measured, sample, scratch};

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

/// The JSON inside a review page.
fn review_data(path: &Path) -> serde_json::Value {
    let html = fs::read_to_string(path).unwrap();
    let start = r#"<script id="data" type="application/json">"#;
    let data = html.split(start).nth(1).expect("the data element");
    let data = data.split("</script>").next().unwrap();
    serde_json::from_str(data).expect("the data is JSON")
}

/// The names of the pages of a review.
fn reviewed_docs(path: &Path) -> Vec<String> {
    review_data(path)["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["doc"].as_str().unwrap().to_string())
        .collect()
}

// ---- 10. review holds at most a capped page and a capped review -----------------------------

#[test]
fn review_refuses_a_page_over_the_line_cap_and_writes_the_others() {
    let dir = scratch();
    // 60,000 lines, six times the cap.
    let big = dir.path().join("many-lines.html");
    fs::write(&big, "<p>a short line</p>\n".repeat(60_000)).unwrap();
    let good = sample("article.html");
    let out = dir.path().join("review.html");
    let run = measured(&[
        os("review"),
        os("-o"),
        out.as_os_str(),
        good.as_os_str(),
        big.as_os_str(),
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("many-lines.html"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].contains("more than 10000 lines"),
        "{}",
        run.stderr
    );
    assert_eq!(reviewed_docs(&out).len(), 1);
    assert!(reviewed_docs(&out)[0].ends_with("article.html"));
    // Holding the page's 60,000 lines takes hundreds of MB; the cap's 10,000 lines far less.
    assert!(
        run.peak_kib < 160 * 1024,
        "peak {} KiB for a page over the line cap",
        run.peak_kib
    );
}

#[test]
fn review_refuses_the_pages_that_would_take_it_over_its_byte_cap() {
    let dir = scratch();
    let mut pages = Vec::new();
    for i in 0..6 {
        let p = dir.path().join(format!("page{i}.html"));
        fs::copy(sample("article.html"), &p).unwrap();
        pages.push(p);
    }
    let full = dir.path().join("full.html");
    let mut args = vec![os("review"), os("-o"), full.as_os_str()];
    args.extend(pages.iter().map(|p| p.as_os_str()));
    let run = measured(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let whole = fs::metadata(&full).unwrap().len();
    // A cap that leaves room for about half of the pages.
    let cap = (whole / 2).to_string();
    let out = dir.path().join("capped.html");
    let mut args = vec![
        os("review"),
        os("--max-bytes"),
        os(&cap),
        os("-o"),
        out.as_os_str(),
    ];
    args.extend(pages.iter().map(|p| p.as_os_str()));
    let run = measured(&args);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let docs = reviewed_docs(&out);
    assert!((1..6).contains(&docs.len()), "{docs:?}");
    let refused: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains(&format!("{cap} bytes")))
        .collect();
    assert_eq!(refused.len() + docs.len(), 6, "{}", run.stderr);
    assert!(fs::metadata(&out).unwrap().len() <= whole / 2);
}

#[test]
fn review_help_and_readme_state_the_caps() {
    let help = mainline().args(["review", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("10,000 lines"), "{help}");
    assert!(help.contains("--max-bytes"), "{help}");
    let readme =
        fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("README.md"))
            .unwrap();
    assert!(
        readme
            .lines()
            .any(|l| l.starts_with("| `review`") && l.contains("10,000 lines")),
        "README.md's Limits table has no row for review"
    );
}

// ---- 11. review --labels reads a capped file -----------------------------------------------

#[test]
fn review_refuses_a_labels_file_over_the_cap_without_reading_it() {
    let dir = scratch();
    let big = dir.path().join("labels.json");
    let f = fs::File::create(&big).unwrap();
    f.set_len(33 << 20).unwrap();
    let out = dir.path().join("review.html");
    let page = sample("article.html");
    let mut labels = vec![big.clone()];
    if Path::new("/dev/zero").exists() {
        labels.push(PathBuf::from("/dev/zero"));
    }
    for l in &labels {
        let run = measured(&[
            os("review"),
            os("--labels"),
            l.as_os_str(),
            os("-o"),
            out.as_os_str(),
            page.as_os_str(),
        ]);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains("longer than 32 MiB"), "{}", run.stderr);
        assert!(
            run.stderr.contains(&l.display().to_string()),
            "{}",
            run.stderr
        );
        assert!(run.peak_kib < 100 * 1024, "peak {} KiB", run.peak_kib);
    }
    assert!(!out.exists());
}

// ---- 12. a model file under the cap is parsed in memory proportional to it ------------------

/// A model file of about `bytes` bytes: the built-in model's fields with `key` set to a
/// JSON array of `bytes` / `item.len()` copies of `item`.
fn padded_model(key: &str, item: &str, bytes: usize) -> String {
    let builtin = mainline::ModelScorer::builtin().model().to_json();
    let n = bytes / (item.len() + 1);
    let mut array = String::with_capacity(bytes + 2);
    array.push('[');
    for i in 0..n {
        if i > 0 {
            array.push(',');
        }
        array.push_str(item);
    }
    array.push(']');
    let mut v: serde_json::Value = serde_json::from_str(&builtin).unwrap();
    let placeholder = "\"@@ARRAY@@\"";
    match key {
        "weights" => {
            v["kind"] =
                serde_json::json!({"type": "logistic", "weights": "@@ARRAY@@", "bias": 0.0});
            v.as_object_mut().unwrap().remove("stack");
        }
        "features" => v["features"] = serde_json::json!("@@ARRAY@@"),
        "params" => v["provenance"]["params"] = serde_json::json!("@@ARRAY@@"),
        "extra" => v["provenance"]["notes"] = serde_json::json!("@@ARRAY@@"),
        other => panic!("no padding for {other}"),
    }
    let text = serde_json::to_string(&v).unwrap();
    let text = text.replacen(placeholder, &array, 1);
    assert!(text.len() as u64 <= mainline::internals::model::MAX_MODEL_BYTES);
    text
}

#[test]
fn a_model_file_just_under_the_cap_is_refused_in_memory_proportional_to_it() {
    let dir = scratch();
    let page = dir.path().join("page.html");
    fs::write(&page, "<p>A page.</p>").unwrap();
    let near_cap = (mainline::internals::model::MAX_MODEL_BYTES - 200_000) as usize;
    let models: Vec<_> = [
        ("weights", "0"),
        ("params", "[[]]"),
        ("extra", "0"),
        ("features", "\"\""),
    ]
    .into_iter()
    .map(|(key, item)| {
        let model = dir.path().join(format!("{key}.json"));
        fs::write(&model, padded_model(key, item, near_cap)).unwrap();
        (key, model)
    })
    .collect();
    // One process per file, side by side (each measures its own peak).
    let runs: Vec<_> = std::thread::scope(|s| {
        let spawned: Vec<_> = models
            .iter()
            .map(|(_, model)| {
                s.spawn(|| {
                    measured(&[
                        os("filter"),
                        os("--model"),
                        model.as_os_str(),
                        page.as_os_str(),
                    ])
                })
            })
            .collect();
        spawned.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((key, model), run) in models.iter().zip(runs) {
        assert_eq!(run.code, Some(1), "{key}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{key}: {}", run.stderr);
        assert!(
            run.stderr.contains(&model.display().to_string()),
            "{key}: {}",
            run.stderr
        );
        // The file is 32 MB; as JSON values its arrays took 1.2 to 1.8 GB.
        assert!(
            run.peak_kib < 320 * 1024,
            "{key}: peak {} KiB for a model file of {near_cap} bytes",
            run.peak_kib
        );
    }
}

// ---- 14. output files follow the umask ------------------------------------------------------

/// Runs the binary with `args` under `umask`; panics unless it succeeds.
#[cfg(unix)]
fn run_under_umask(umask: &str, args: &[&std::ffi::OsStr]) {
    let out = Process::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("mainline"))
        .args(args)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn output_files_follow_the_umask_as_cp_does() {
    let page = sample("article.html");
    for (umask, expected) in [("022", 0o644), ("002", 0o664), ("077", 0o600)] {
        let dir = scratch();
        let texts = dir.path().join("texts");
        run_under_umask(
            umask,
            &[
                os("filter"),
                os("--out-dir"),
                texts.as_os_str(),
                page.as_os_str(),
            ],
        );
        let text = texts.join("article.txt");
        assert_eq!(
            mode(&text),
            expected,
            "filter --out-dir under umask {umask}"
        );
        let review = dir.path().join("review.html");
        run_under_umask(
            umask,
            &[os("review"), os("-o"), review.as_os_str(), page.as_os_str()],
        );
        assert_eq!(mode(&review), expected, "review -o under umask {umask}");
        #[cfg(feature = "plot")]
        {
            let plots = dir.path().join("plots");
            run_under_umask(
                umask,
                &[
                    os("plot"),
                    os("--out-dir"),
                    plots.as_os_str(),
                    page.as_os_str(),
                ],
            );
            for name in ["article-bytes.svg", "article-density.svg"] {
                assert_eq!(
                    mode(&plots.join(name)),
                    expected,
                    "plot {name} under umask {umask}"
                );
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn a_replaced_output_file_keeps_its_mode_as_cp_does() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch();
    let review = dir.path().join("review.html");
    fs::write(&review, "old").unwrap();
    fs::set_permissions(&review, fs::Permissions::from_mode(0o640)).unwrap();
    let page = sample("article.html");
    run_under_umask(
        "022",
        &[os("review"), os("-o"), review.as_os_str(), page.as_os_str()],
    );
    assert_ne!(fs::read_to_string(&review).unwrap(), "old");
    assert_eq!(mode(&review), 0o640);
}
