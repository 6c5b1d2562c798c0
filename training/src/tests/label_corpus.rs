//! Speed and coverage check of label alignment on the WCXB development pages.
//!
//! Not a regular test: it needs the corpus beside the repository
//! (`../shared/data/wcxb-dev`, or set `MAINLINE_WCXB_DEV`) and is meant for release builds:
//!
//! ```text
//! cargo test --release --test label_corpus -- --ignored --nocapture
//! ```
//!
//! Pages are split into lines crudely (text between block-level tags), not with mainline's
//! line splitter, so the coverage figures are a lower bound of what real lines give. The
//! mean gold coverage and the word F1 of the lines labelled content must stay above floors
//! (see the end of [`align_every_development_page`]), and at most 1% of the alignments may
//! run out of time.

use std::time::{Duration, Instant};

use super::corpus::{open, page_bytes, wcxb_dev};
use crate::corpus::Page;
use crate::train::label::{POOR_ALIGNMENT_COVERAGE, align};
use scraper::{Html, Node};

const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "caption",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

const SKIPPED_TAGS: &[&str] = &["head", "script", "style", "template", "svg", "iframe"];

/// Text lines of an HTML document: text between block-level tags, whitespace collapsed.
fn crude_lines(html: &str) -> Vec<String> {
    // The parser keeps <noscript> content as raw text; some sites (Discourse forums) put
    // their whole server-rendered content there, so read it as ordinary markup.
    let noscript = regex::Regex::new(r"(?i)<(/?)noscript\b").unwrap();
    let html = noscript.replace_all(html, "<${1}div");
    let document = Html::parse_document(&html);
    let mut lines = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, lines: &mut Vec<String>| {
        let line = current.split_whitespace().collect::<Vec<_>>().join(" ");
        if !line.is_empty() {
            lines.push(line);
        }
        current.clear();
    };

    let root = document.tree.root();
    let mut node = root.first_child();
    while let Some(n) = node {
        let mut descend = true;
        match n.value() {
            Node::Text(text) => current.push_str(text),
            Node::Element(e) => {
                let name = e.name();
                if SKIPPED_TAGS.contains(&name) {
                    descend = false;
                } else if BLOCK_TAGS.contains(&name) {
                    flush(&mut current, &mut lines);
                } else {
                    current.push(' ');
                }
            }
            _ => {}
        }
        if descend && let Some(child) = n.first_child() {
            node = Some(child);
            continue;
        }
        // Leave `n` and its finished ancestors.
        let mut at = n;
        loop {
            if let Node::Element(e) = at.value()
                && BLOCK_TAGS.contains(&e.name())
            {
                flush(&mut current, &mut lines);
            }
            if let Some(sibling) = at.next_sibling() {
                node = Some(sibling);
                break;
            }
            match at.parent() {
                Some(parent) if parent.id() != root.id() => at = parent,
                _ => {
                    node = None;
                    break;
                }
            }
        }
    }
    flush(&mut current, &mut lines);
    lines
}

/// The crude lines and gold text of the development page `page`.
fn lines_and_gold(page: &Page) -> (Vec<String>, &str) {
    let bytes = page_bytes(&page.html);
    (crude_lines(&String::from_utf8_lossy(&bytes)), &page.gold)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[test]
#[ignore = "needs the WCXB corpus; run in release with --ignored --nocapture"]
fn align_every_development_page() {
    let corpus = open(&wcxb_dev());
    let ids: Vec<String> = corpus.pages.iter().map(|p| p.id.clone()).collect();

    let mut total = Duration::ZERO;
    let mut times = Vec::new();
    let mut coverages = Vec::new();
    let mut timed_out = 0;
    let mut slowest = (Duration::ZERO, String::new());
    let mut worst = Vec::new();
    let mut oracle = Vec::new();
    for (page, id) in corpus.pages.iter().zip(&ids) {
        let (lines, gold) = lines_and_gold(page);

        let start = Instant::now();
        let alignment = align(&lines, gold);
        let elapsed = start.elapsed();

        total += elapsed;
        times.push(elapsed.as_secs_f64() * 1e3);
        if elapsed > slowest.0 {
            slowest = (elapsed, id.clone());
        }
        timed_out += usize::from(alignment.timed_out);
        let content: Vec<&str> = lines
            .iter()
            .zip(&alignment.labels)
            .filter(|(_, l)| **l)
            .map(|(line, _)| line.as_str())
            .collect();
        oracle.push(crate::eval::word_scores(&content.join("\n"), gold));
        coverages.push(alignment.gold_coverage());
        if alignment.is_poor() {
            // Order-free upper bound: share of gold words present anywhere in the lines.
            let bag = crate::eval::word_scores(&lines.join("\n"), gold).recall;
            worst.push((
                alignment.gold_coverage(),
                bag,
                id.clone(),
                alignment.gold_tokens,
            ));
        }
    }

    times.sort_by(f64::total_cmp);
    coverages.sort_by(f64::total_cmp);
    let n = ids.len();
    println!("pages: {n}, total align time: {total:?}, timed out: {timed_out}");
    println!(
        "per page ms: median {:.2}, p90 {:.2}, p99 {:.2}, max {:.2} ({})",
        quantile(&times, 0.5),
        quantile(&times, 0.9),
        quantile(&times, 0.99),
        times[n - 1],
        slowest.1
    );
    println!(
        "gold coverage: mean {:.3}, p10 {:.3}, p25 {:.3}, median {:.3}, p75 {:.3}",
        coverages.iter().sum::<f64>() / n as f64,
        quantile(&coverages, 0.1),
        quantile(&coverages, 0.25),
        quantile(&coverages, 0.5),
        quantile(&coverages, 0.75),
    );
    let mean = |f: fn(&crate::eval::WordScores) -> f64| {
        crate::eval::mean(&oracle.iter().map(f).collect::<Vec<_>>())
    };
    println!(
        "content lines vs gold (benchmark words): precision {:.4}, recall {:.4}, F1 {:.4}",
        mean(|s| s.precision),
        mean(|s| s.recall),
        mean(|s| s.f1)
    );
    for threshold in [0.5, POOR_ALIGNMENT_COVERAGE, 0.9, 0.95] {
        let below = coverages.iter().filter(|&&c| c < threshold).count();
        println!("coverage < {threshold}: {below} pages");
    }
    println!("poorly aligned pages (coverage, bag-of-words recall, id, gold tokens):");
    for (coverage, bag, id, gold_tokens) in &worst {
        println!("  {id} {coverage:.3} {bag:.3} {gold_tokens}");
    }

    // Floors: the figures measured when they were set (a debug build, on a busy machine),
    // less a margin. Coverage and F1 do not depend on the machine; the alignments that run
    // out of time do (3 then), so only a share of the pages may.
    let mean_coverage = crate::eval::mean(&coverages);
    assert!(
        mean_coverage >= 0.983 - 0.02,
        "mean gold coverage {mean_coverage:.3}"
    );
    let f1 = mean(|s| s.f1);
    assert!(f1 >= 0.9856 - 0.02, "F1 of the aligned lines {f1:.4}");
    assert!(
        timed_out * 100 <= n,
        "{timed_out} of {n} alignments ran out of time"
    );
}

#[test]
#[ignore = "needs the WCXB corpus; set MAINLINE_PAGE to a file id, run with --ignored --nocapture"]
fn show_labels_of_one_page() {
    let id = std::env::var("MAINLINE_PAGE").expect("MAINLINE_PAGE names the page to show");
    let corpus = open(&wcxb_dev());
    let page = corpus
        .pages
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no page {id} with gold text in the corpus"));
    let (lines, gold) = lines_and_gold(page);
    let alignment = align(&lines, gold);
    for (line, label) in lines.iter().zip(&alignment.labels) {
        let mark = if *label { '+' } else { '-' };
        println!("{mark} {}", line.chars().take(150).collect::<String>());
    }
    println!(
        "coverage {:.3}, gold tokens {}, page tokens {}, timed out {}",
        alignment.gold_coverage(),
        alignment.gold_tokens,
        alignment.page_tokens,
        alignment.timed_out
    );
}
