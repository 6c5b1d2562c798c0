use std::sync::Arc;

use super::*;
use crate::extract::{Decision, Extractor, ModelScorer};

fn decisions(html: &[u8], template: Option<PageTemplate>) -> Vec<Decision> {
    let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
    ex.set_site(template);
    let mut out = Vec::new();
    for piece in html.chunks(1000) {
        ex.write(piece).unwrap();
        out.extend(std::iter::from_fn(|| ex.next_decision()));
    }
    ex.end().unwrap();
    out.extend(std::iter::from_fn(|| ex.next_decision()));
    out
}

fn kept(ds: &[Decision]) -> Vec<String> {
    ds.iter()
        .filter(|d| d.keep)
        .map(|d| d.line.text.clone())
        .collect()
}

/// The pages of the test site `data/site/harbour`, with their gold lines, in name order.
fn harbour() -> Vec<(String, Vec<u8>, Vec<String>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/site/harbour");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".html").map(str::to_string)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let html = std::fs::read(dir.join(format!("{n}.html"))).unwrap();
            let gold = std::fs::read_to_string(dir.join(format!("{n}.txt"))).unwrap();
            (n, html, gold.lines().map(str::to_string).collect())
        })
        .collect()
}

#[test]
fn hosts_are_lowercased_without_port_user_or_www() {
    assert_eq!(
        host("http://user@News.Example.COM:80/x").as_deref(),
        Some("news.example.com")
    );
    assert_eq!(
        host("https://www.example.org").as_deref(),
        Some("example.org")
    );
    assert_eq!(
        host("//cdn.example.net/a.html").as_deref(),
        Some("cdn.example.net")
    );
    assert_eq!(host("https://[::1]:8080/").as_deref(), Some("::1"));
    assert_eq!(host("mailto:someone@example.org"), None);
    assert_eq!(host("page.html"), None);
    assert_eq!(host("https:///path"), None);
}

#[test]
fn a_line_counts_once_per_page() {
    let mut t = SiteTable::new();
    t.add_page(1, [7, 7, 7, 9]);
    t.add_page(2, [7, 11]);
    assert_eq!(
        (t.pages(), t.count(7), t.count(9), t.count(11), t.count(5)),
        (2, 2, 1, 1, 0)
    );
}

#[test]
fn a_full_table_keeps_the_lines_seen_on_most_pages() {
    let mut t = SiteTable::new();
    // Every page has ten template lines and sixty lines of its own: the table fills up
    // with the pages' own lines many times over.
    for page in 0..400u64 {
        let own = (0..60).map(|i| (page << 16 | i) * 2 + 1_000_001);
        t.add_page(page, (1..=10).chain(own));
        assert!(t.lines() <= SLOTS * 3 / 4);
    }
    for fp in 1..=10 {
        assert_eq!(t.count(fp), 400);
    }
    assert_eq!(t.digests.len(), MAX_DIGESTS.min(400));
}

#[test]
fn fingerprints_ignore_digits_case_and_punctuation_but_not_structure() {
    let lines = |html: &str| {
        let mut s = crate::lines::Splitter::new();
        s.write(html.as_bytes()).unwrap();
        s.end().unwrap();
        std::iter::from_fn(|| s.next_line())
            .map(|l| crate::stack::page::fingerprint(&l))
            .collect::<Vec<_>>()
    };
    let a = lines("<div class=box><p>Read 3 comments!</p></div><p>2024</p>");
    let b = lines("<div class=box><p>read 12 Comments</p></div>");
    let c = lines("<div class=other><p>Read 3 comments!</p></div>");
    assert_eq!(a[0], b[0]);
    assert_ne!(a[0], c[0]);
    assert_eq!(a[1], None);
}

#[test]
fn a_site_of_one_page_is_decided_as_without_site_mode() {
    for (_, html, _) in harbour().into_iter().take(3) {
        let mut p = Profile::new();
        p.learn("harbour", &html).unwrap();
        let t = p.page("harbour", &html).unwrap();
        assert_eq!(t.other_pages(), 0);
        let with: Vec<Decision> = decisions(&html, Some(t));
        assert_eq!(with, decisions(&html, None));
        assert!(with.iter().all(|d| d.template.is_none()));
    }
}

#[test]
fn the_test_site_keeps_its_articles_and_drops_its_template() {
    let pages = harbour();
    assert!(pages.len() >= 20);
    let mut profile = Profile::new();
    for (_, html, _) in &pages {
        profile.learn("harbour-gazette.example", html).unwrap();
    }
    // The template of a page: the lines that at least half of the site's pages have and
    // that are not the page's gold.
    let all: Vec<Vec<Decision>> = pages.iter().map(|(_, h, _)| decisions(h, None)).collect();
    let mut on_pages: std::collections::HashMap<&str, usize> = Default::default();
    for ds in &all {
        let texts: std::collections::HashSet<&str> =
            ds.iter().map(|d| d.line.text.as_str()).collect();
        for t in texts {
            *on_pages.entry(t).or_default() += 1;
        }
    }
    let (mut gold_lines, mut template_lines) = (0, 0);
    for ((name, html, gold), alone) in pages.iter().zip(&all) {
        let alone = kept(alone);
        let t = profile.page("harbour-gazette.example", html).unwrap();
        assert_eq!(t.other_pages(), pages.len() as u32 - 1);
        let ds = decisions(html, Some(t));
        let with = kept(&ds);
        for line in gold {
            // The headline is left out of the text with or without site mode.
            if alone.contains(line) {
                gold_lines += 1;
                assert!(with.contains(line), "{name}: article line dropped: {line}");
            }
        }
        for d in &ds {
            let text = d.line.text.as_str();
            if !gold.iter().any(|g| g == text) && on_pages[text] * 2 >= pages.len() {
                template_lines += 1;
                assert!(!d.keep, "{name}: template line kept: {text}");
                assert!(
                    !alone.iter().any(|a| a == text) || d.template.is_some_and(|m| m.dropped),
                    "{name}: {text}"
                );
            }
        }
    }
    assert!(gold_lines >= 3 * pages.len(), "{gold_lines} gold lines");
    assert!(
        template_lines >= 20 * pages.len(),
        "{template_lines} template lines"
    );
    eprintln!("{gold_lines} article lines kept, {template_lines} template lines dropped");
}

#[test]
fn a_site_that_repeats_its_whole_text_keeps_it() {
    let page = b"<html><body><article><p>The same standard notice printed on every page of \
        this site, long enough to be kept as the text of the page by the model.</p><p>A \
        second paragraph of the same notice, which every page repeats word for word \
        too.</p></article></body></html>";
    let mut p = Profile::new();
    for i in 0..5 {
        let mut html = page.to_vec();
        html.extend(format!("<!-- {i} -->").as_bytes());
        p.learn("same", &html).unwrap();
    }
    let t = p.page("same", page).unwrap();
    assert_eq!(t.other_pages(), 5);
    let ds = decisions(page, Some(t));
    assert_eq!(kept(&ds), kept(&decisions(page, None)));
    assert!(!kept(&ds).is_empty());
    assert!(
        ds.iter()
            .any(|d| d.template.is_some_and(|m| !m.dropped && m.pages == 5))
    );
}

#[test]
fn profiles_round_trip_through_json() {
    let mut p = Profile::new();
    for (_, html, _) in harbour().into_iter().take(4) {
        p.learn("a.example", &html).unwrap();
    }
    p.learn("b.example", b"<p>Hello there, a page of another site.</p>")
        .unwrap();
    let json = p.to_json();
    let q = Profile::from_json(&json).unwrap();
    assert_eq!(q.to_json(), json);
    assert_eq!(q.sites(), 2);
    assert_eq!(q.site("a.example").unwrap().pages(), 4);
    let (_, html, _) = &harbour()[0];
    assert_eq!(q.page("a.example", html).unwrap().other_pages(), 3);
}

#[test]
fn bad_profiles_are_refused_saying_why() {
    let good = {
        let mut p = Profile::new();
        p.learn("a.example", b"<p>Some words of a page.</p>")
            .unwrap();
        p.to_json()
    };
    let err = |json: String| Profile::from_json(&json).unwrap_err().to_string();
    assert!(err(good.replace("\"version\":1", "\"version\":9")).contains("version 9"));
    assert!(err(good.replace("mainline-site-profile", "other")).contains("format"));
    assert!(err(good.replace("\"min_share\":0.5", "\"min_share\":1.5")).contains("min_share"));
    assert!(err(good.replace("\"pages\":1", "\"pages\":0")).contains("a.example"));
    assert!(err("{}".into()).contains("not a site profile"));
    assert!(err(good.replace("]]", "],[\"zz\",1]]")).contains("fingerprint"));
}

#[test]
fn sites_beyond_the_memory_cap_are_not_learnt() {
    let mut p = Profile::new().with_memory(2 * SITE_BYTES);
    for host in ["a", "b", "c", "a"] {
        p.learn(host, b"<p>A page of words.</p>").unwrap();
    }
    assert_eq!((p.sites(), p.skipped()), (2, 1));
    assert_eq!(p.site("a").unwrap().pages(), 2);
    assert!(p.page("c", b"").is_none());
}
