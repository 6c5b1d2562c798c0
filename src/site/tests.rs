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
            .map(|l| crate::second_stage::page::fingerprint(&l))
            .collect::<Vec<_>>()
    };
    let a = lines("<div class=box><p>Read 3 comments!</p></div><p>2024</p>");
    let b = lines("<div class=box><p>read 12 Comments</p></div>");
    let c = lines("<div class=other><p>Read 3 comments!</p></div>");
    assert_eq!(a[0], b[0]);
    assert_ne!(a[0], c[0]);
    assert_eq!(a[1], None);
    // A line of more digits than letters keeps them: sizes and part numbers differ.
    let d = lines("<p>8.25\" x 2.4\" / 21 x 6.1 cm</p><p>IF145-259-1</p>");
    let e = lines("<p>4.9\" x 3.1\" / 12.4 x 7.8 cm</p><p>IF145-475-1</p>");
    assert_ne!(d[0], e[0]);
    assert_ne!(d[1], e[1]);
    assert_eq!(d, lines("<p>8 25 x 2 4 21 x 6 1 cm</p><p>if145 259 1</p>"));
}

#[test]
fn a_template_label_of_the_pages_own_value_is_kept() {
    // Every product page has the same field labels, with its own values, in one list of
    // fields; and the same list of shop links.
    let page = |i: usize| {
        format!(
            "<html><body><ul class=shop><li><a href=/a>Gift cards for every occasion</a></li>\
             <li><a href=/b>Store locations and opening hours</a></li>\
             <li><a href=/c>Returns and exchanges policy</a></li></ul>\
             <article><h1>Replacement part {i}</h1><p>This replacement part number {i} fits \
             the {} models sold from the spring of that year, and comes with a guide that \
             shows each step of fitting it.</p><ul class=specs><li>Dimensions</li>\
             <li>{}.5 x {}.1 x 0.{} cm</li><li>Weight</li><li>{}{}5 g</li></ul>\
             <p>Each part is tested before it leaves the warehouse, and the {} kit holds \
             every tool you need.</p></article></body></html>",
            ["older", "newer", "smaller", "larger", "quieter", "faster"][i % 6],
            i + 2,
            i + 1,
            i + 3,
            i + 1,
            i * 7 % 10,
            ["blue", "red", "green", "grey", "black", "white"][i % 6],
        )
    };
    let pages: Vec<String> = (0..6).map(page).collect();
    let mut profile = Profile::new();
    for p in &pages {
        profile.learn("parts.example", p.as_bytes()).unwrap();
    }
    let html = pages[0].as_bytes();
    let alone = kept(&decisions(html, None));
    assert!(alone.iter().any(|l| l == "Dimensions"), "{alone:?}");
    let ds = decisions(html, profile.page("parts.example", html));
    let line = |text: &str| ds.iter().find(|d| d.line.text == text).unwrap();
    for label in ["Dimensions", "Weight"] {
        let d = line(label);
        assert!(d.keep && d.template.is_some_and(|m| m.pages == 5 && !m.dropped));
    }
    assert!(line("2.5 x 1.1 x 0.3 cm").template.is_none());
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
    assert!(err(good.replace("\"version\":2", "\"version\":9")).contains("version 9"));
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

/// The template of five learnt pages, each with the lines of fingerprints `fps`.
fn five_pages_of(fps: &[u64]) -> PageTemplate {
    let mut table = SiteTable::new();
    for page in 0..5u64 {
        table.add_page(page, fps.iter().copied());
    }
    PageTemplate {
        table: Arc::new(table),
        own: false,
        settings: Settings::default(),
    }
}

/// A line of 20 bytes of text with the near structure `near` and the text hash `text`.
fn site_line(near: u32, text: u32) -> SiteLine {
    SiteLine {
        text_bytes: 20,
        near,
        text,
    }
}

#[test]
fn a_block_whose_kept_lines_are_all_template_keeps_them() {
    // Five pages learnt, each with lines 1 and 2.
    let template = five_pages_of(&[1, 2]);
    // Line 1 kept just above the threshold (a template line the margin drops), line 2 far
    // above it (kept whatever the template says), then maybe a line of the page's own.
    let veto = |fps: &[u64]| {
        let fps: Vec<Option<u64>> = fps.iter().map(|&f| Some(f)).collect();
        let lines: Vec<SiteLine> = (0..fps.len() as u32).map(|i| site_line(i, i)).collect();
        let mut decided = vec![(0.1, true), (0.9, true), (0.9, true)];
        decided.truncate(fps.len());
        let mut matches = Vec::new();
        template.veto_fingerprints(&fps, &lines, &mut decided, 0.0, &mut matches);
        decided.iter().map(|d| d.1).collect::<Vec<bool>>()
    };
    assert_eq!(veto(&[1, 2]), [true, true]);
    assert_eq!(veto(&[1, 2, 900]), [false, true, true]);
}

#[test]
fn fields_and_labels_of_the_pages_own_items_are_kept() {
    // Five pages learnt, each with two menu lines (1, 2), a field label (3) and a rating
    // line of the shop's cards (4), digits aside.
    let template = five_pages_of(&[1, 2, 3, 4]);
    let line = site_line;
    let veto = |fps: &[u64], lines: &[SiteLine]| {
        let fps: Vec<Option<u64>> = fps.iter().map(|&f| Some(f)).collect();
        // Every line kept, just above the threshold: not strong enough to outweigh the
        // template of five pages.
        let mut decided = vec![(0.1, true); fps.len()];
        let mut matches = Vec::new();
        template.veto_fingerprints(&fps, lines, &mut decided, 0.0, &mut matches);
        decided.iter().map(|d| d.1).collect::<Vec<bool>>()
    };
    // Menu, menu, label, the page's own value in the label's structure, a card's name,
    // its rating, another card's name, its rating with other numbers, page text.
    let lines = [
        line(10, 1),
        line(10, 2),
        line(20, 3),
        line(20, 4),
        line(30, 5),
        line(40, 6),
        line(30, 7),
        line(40, 8),
        line(50, 9),
    ];
    assert_eq!(
        veto(&[1, 2, 3, 900, 901, 4, 902, 4, 903], &lines),
        [false, false, true, true, true, true, true, true, true]
    );
    // The same rating written once, and a label followed by a line of another structure
    // or by template: both are template.
    let lines = [
        line(20, 3),
        line(50, 4),
        line(30, 5),
        line(40, 6),
        line(10, 9),
        line(10, 9),
    ];
    assert_eq!(
        veto(&[3, 900, 901, 4, 1, 2], &lines),
        [false, true, true, false, false, false]
    );
    // A label the page writes on each of its items, then each item's own line in another
    // structure.
    let lines = [
        line(20, 3),
        line(60, 4),
        line(20, 3),
        line(60, 5),
        line(20, 3),
    ];
    assert_eq!(
        veto(&[3, 900, 3, 901, 3], &lines),
        [true, true, true, true, false]
    );
}
