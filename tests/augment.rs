//! Training-time augmentation from the command line: `label --augment`, the recipe's
//! `augment` field, and the scores of page variants in `eval`.

mod common;

use common::{mainline, scratch, stdout_of};

/// The CSV's rows as (header, rows) of fields.
fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// `mainline label --corpus CORPUS -o OUT ARGS…`, which must succeed.
fn label_corpus(corpus: &std::path::Path, args: &[&str], out: &std::path::Path) {
    let result = mainline()
        .args(["label", "--corpus"])
        .arg(corpus)
        .arg("-o")
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

fn label(args: &[&str], out: &std::path::Path) {
    label_corpus("data/samples".as_ref(), args, out);
}

#[test]
fn label_augment_writes_each_page_as_written_then_plain_under_the_same_site() {
    let dir = scratch();
    let (plain_csv, csv) = (dir.path().join("plain.csv"), dir.path().join("data.csv"));
    label(&["--augment", "plain"], &plain_csv);
    label(&[], &csv);
    let (header, rows) = read_csv(&csv);
    let (aug_header, aug_rows) = read_csv(&plain_csv);
    assert!(!header.iter().any(|h| h == "variant"));
    let at = aug_header.iter().position(|h| h == "variant").unwrap();
    assert_eq!(aug_header[at - 1], "aligned");
    let col = |name: &str| aug_header.iter().position(|h| h == name).unwrap();
    let (doc, group, text) = (col("doc"), col("group"), col("text"));
    // The rows as written are the CSV without --augment, the variant column aside.
    let originals: Vec<Vec<String>> = aug_rows
        .iter()
        .filter(|r| r[at] == "original")
        .map(|r| {
            let mut r = r.clone();
            r.remove(at);
            r
        })
        .collect();
    assert_eq!(originals, rows);
    // Each page's plain rows follow its rows, as page "ID@plain" of the same site, and
    // these pages keep their text.
    let plain: Vec<&Vec<String>> = aug_rows.iter().filter(|r| r[at] == "plain").collect();
    assert_eq!(plain.len() + rows.len(), aug_rows.len());
    assert!(!plain.is_empty());
    for p in &plain {
        let id = p[doc].strip_suffix("@plain").expect("a variant's page id");
        let first = aug_rows.iter().position(|r| r[doc] == id).unwrap();
        assert_eq!(aug_rows[first][group], p[group]);
    }
    let texts = |d: &str| -> Vec<&str> {
        aug_rows
            .iter()
            .filter(|r| r[doc] == d)
            .map(|r| r[text].as_str())
            .collect()
    };
    assert_eq!(texts("news-related"), texts("news-related@plain"));
    // The hints of the head (og:type, JSON-LD) are gone from the plain variant.
    let hints = col("hints");
    let hint_of = |d: &str| {
        aug_rows
            .iter()
            .find(|r| r[doc] == d)
            .map(|r| r[hints].clone())
            .unwrap()
    };
    assert_ne!(hint_of("news-related"), hint_of("news-related@plain"));
}

#[test]
fn cross_validation_scores_the_variants_apart_and_trains_on_them_only_when_asked() {
    let dir = scratch();
    let (plain_csv, csv) = (dir.path().join("plain.csv"), dir.path().join("data.csv"));
    label(&["--augment", "plain"], &plain_csv);
    label(&[], &csv);
    let cv = |data: &std::path::Path, recipe: Option<&std::path::Path>| {
        let mut args = vec![
            "eval".to_string(),
            "--data".into(),
            data.display().to_string(),
            "--corpus".into(),
            "data/samples".into(),
            "--folds".into(),
            "3".into(),
            "--cv".into(),
            "threshold".into(),
            "--cv".into(),
            "logistic/seed/1".into(),
        ];
        if let Some(r) = recipe {
            args.extend(["--recipe".into(), r.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        stdout_of(&args)
    };
    let plain_out = cv(&plain_csv, None);
    let out = cv(&csv, None);
    // The pages as written score as without the variants (same folds, same training rows).
    let rows_of = |text: &str, method: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with(&format!("{method} ")) && !l.contains("[plain]"))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(
        rows_of(&plain_out, "logistic/seed/1"),
        rows_of(&out, "logistic/seed/1")
    );
    assert!(plain_out.contains("logistic/seed/1 [plain]"), "{plain_out}");
    assert!(!out.contains("[plain]"), "{out}");
    // A recipe that trains on the variant changes the model.
    let recipe = dir.path().join("augment.toml");
    std::fs::write(&recipe, "learner = \"logistic\"\naugment = [\"plain\"]\n").unwrap();
    let trained = cv(&plain_csv, Some(&recipe));
    let plain_rows = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("logistic/seed/1 [plain]"))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(plain_rows(&trained).len(), 2, "{trained}");
    assert_ne!(plain_rows(&trained), plain_rows(&plain_out));
}

#[test]
fn eval_scores_a_corpus_rewritten_and_refuses_augment_where_it_means_nothing() {
    let out = stdout_of(&[
        "eval",
        "--corpus",
        "data/samples",
        "--method",
        "threshold",
        "--augment",
        "plain",
        "--augment",
        "tables",
    ]);
    assert!(out.contains("density > 0.5 [plain]"), "{out}");
    assert!(out.contains("density > 0.5 [tables]"), "{out}");
    let refused = mainline()
        .args([
            "eval",
            "--data",
            "x.csv",
            "--cv",
            "threshold",
            "--augment",
            "plain",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("--augment") && err.lines().count() == 1,
        "{err}"
    );
    let unknown = mainline()
        .args(["label", "--corpus", "data/samples", "--augment", "modern"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("plain"));
}

#[test]
fn a_recipe_that_trains_on_variants_needs_them_in_the_csv() {
    let dir = scratch();
    let csv = dir.path().join("data.csv");
    label(&[], &csv);
    let recipe = dir.path().join("augment.toml");
    std::fs::write(&recipe, "learner = \"logistic\"\naugment = [\"plain\"]\n").unwrap();
    let model = dir.path().join("m.json");
    let train = || {
        mainline()
            .arg("train")
            .arg(&csv)
            .arg("--recipe")
            .arg(&recipe)
            .arg("-o")
            .arg(&model)
            .output()
            .unwrap()
    };
    let out = train();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("variant") && err.contains("--augment plain"),
        "{err}"
    );
    for bad in [
        "augment = [\"modern\"]",
        "augment_share = 0.0",
        "augment_share = 1.5",
        "augment_stages = \"first\"",
        // A single-stage recipe has no second stage to train alone.
        "augment_stages = \"second\"",
    ] {
        std::fs::write(&recipe, format!("learner = \"logistic\"\n{bad}\n")).unwrap();
        let out = train();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad.split(' ').next().unwrap()), "{bad}: {err}");
    }
}

/// A corpus in WCXB's layout: `(id, page type, title, description, paragraphs)` pages, each
/// with a menu and a footer around an article whose paragraphs are the gold text.
fn wcxb_corpus(dir: &std::path::Path, pages: &[(&str, &str, &str, &str, usize)]) {
    std::fs::create_dir_all(dir.join("html")).unwrap();
    std::fs::create_dir_all(dir.join("ground-truth")).unwrap();
    for &(id, kind, title, description, paragraphs) in pages {
        let body: Vec<String> = (0..paragraphs)
            .map(|i| {
                format!(
                    "Paragraph {i} of the page {id} tells its story at some length, with \
                     enough words in every sentence to read as prose and not as a menu."
                )
            })
            .collect();
        let html = format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\
             <meta name=\"description\" content=\"{description}\"></head><body>\
             <nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\
             <article><div class=\"body\">{}</div></article>\
             <footer><p>Contact us. All rights reserved.</p></footer></body></html>",
            body.iter()
                .map(|p| format!("<p>{p}</p>\n"))
                .collect::<String>()
        );
        std::fs::write(dir.join("html").join(format!("{id}.html")), html).unwrap();
        let truth = serde_json::json!({
            "url": format!("https://site-{id}.example/page"),
            "ground_truth": {"main_content": body.join("\n")},
            "_internal": {"page_type": {"primary": kind}},
        });
        std::fs::write(
            dir.join("ground-truth").join(format!("{id}.json")),
            truth.to_string(),
        )
        .unwrap();
    }
}

#[test]
fn label_augment_related_follows_articles_with_teasers_of_other_pages_labelled_boilerplate() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    let pages = [
        (
            "0001",
            "article",
            "Harbour festival returns this summer",
            "Boats, music and food on the quay for three days in July.",
            6,
        ),
        (
            "0002",
            "article",
            "Library opens on Sundays from March",
            "The council found the money for four more opening hours.",
            5,
        ),
        (
            "0003",
            "listing",
            "All the news from the valley this week",
            "Every story from our reporters, newest first.",
            4,
        ),
        (
            "0004",
            "article",
            "Bridge repairs finish two months early",
            "Engineers say the mild winter helped the work along.",
            7,
        ),
        (
            "0005",
            "product",
            "Waterproof walking boots for the hills",
            "Leather uppers and a sole that grips on wet rock.",
            3,
        ),
        (
            "0006",
            "article",
            "Allotment waiting list passes two hundred",
            "Residents ask for the old railway land to be opened up.",
            5,
        ),
    ];
    wcxb_corpus(&corpus, &pages);
    let variants = dir.path().join("variants");
    std::fs::create_dir(&variants).unwrap();
    let csv = dir.path().join("related.csv");
    let write_variants = variants.to_str().unwrap();
    let run = |out: &std::path::Path| {
        label_corpus(
            &corpus,
            &["--augment", "related", "--write-variants", write_variants],
            out,
        )
    };
    run(&csv);
    let (header, rows) = read_csv(&csv);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (doc, variant, label, text) = (col("doc"), col("variant"), col("label"), col("text"));
    // Articles, and only articles, get a variant.
    let mut with_variant: Vec<&str> = rows
        .iter()
        .filter(|r| r[variant] == "related")
        .map(|r| {
            r[doc]
                .strip_suffix("@related")
                .expect("a variant's page id")
        })
        .collect();
    with_variant.dedup();
    assert_eq!(with_variant, ["0001", "0002", "0004", "0006"]);
    for (id, _, title, _, _) in pages.iter().filter(|p| p.1 == "article") {
        let lines = |d: &str| -> Vec<(String, String)> {
            rows.iter()
                .filter(|r| r[doc] == d)
                .map(|r| (r[text].clone(), r[label].clone()))
                .collect()
        };
        let (original, related) = (lines(id), lines(&format!("{id}@related")));
        // The page's own lines come back in order with their labels; every line added
        // is labelled boilerplate, and at least three teasers were added.
        let mut added = Vec::new();
        let mut rest = original.iter().peekable();
        for line in &related {
            if rest.peek() == Some(&line) {
                rest.next();
            } else {
                added.push(line);
            }
        }
        assert!(
            rest.next().is_none(),
            "{id}: a line of the page went missing"
        );
        assert!(added.len() >= 3, "{id}: {added:?}");
        assert!(added.iter().all(|(_, l)| l == "0"), "{id}: {added:?}");
        // The teasers are other pages' titles, never the page's own.
        let html = std::fs::read_to_string(variants.join(format!("{id}@related.html"))).unwrap();
        let others = pages
            .iter()
            .filter(|p| p.0 != *id && html.contains(p.2))
            .count();
        assert!(others >= 3, "{id}: {others} teasers\n{html}");
        assert_eq!(
            html.matches(title).count(),
            1,
            "{id}: its own title is its <title> only"
        );
    }
    // The same variants on every run.
    let again = dir.path().join("again.csv");
    run(&again);
    assert_eq!(std::fs::read(&csv).unwrap(), std::fs::read(&again).unwrap());
}

#[test]
fn eval_refuses_to_rewrite_a_corpus_as_related() {
    let out = mainline()
        .args([
            "eval",
            "--corpus",
            "data/samples",
            "--method",
            "threshold",
            "--augment",
            "related",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mainline label --augment related"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn label_augment_short_and_shell_cut_a_page_to_part_of_its_content_or_none_of_it() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    let pages = [
        (
            "0001",
            "article",
            "Harbour festival returns this summer",
            "Boats and music on the quay.",
            30,
        ),
        (
            "0002",
            "forum",
            "Which boots for wet rock",
            "A thread about walking boots.",
            12,
        ),
        (
            "0003",
            "listing",
            "All the news from the valley",
            "Every story, newest first.",
            3,
        ),
    ];
    wcxb_corpus(&corpus, &pages);
    let csv = dir.path().join("variants.csv");
    label_corpus(&corpus, &["--augment", "short", "--augment", "shell"], &csv);
    let (header, rows) = read_csv(&csv);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (doc, label, text) = (col("doc"), col("label"), col("text"));
    let lines = |d: &str| -> Vec<(String, String)> {
        rows.iter()
            .filter(|r| r[doc] == d)
            .map(|r| (r[text].clone(), r[label].clone()))
            .collect()
    };
    for (id, ..) in pages {
        let page = lines(id);
        // A short page: consecutive lines of the page, at least one of them content, each
        // labelled as in the page, at most 24 lines and 3 on either side.
        let short = lines(&format!("{id}@short"));
        assert!(!short.is_empty() && short.len() <= 30, "{id}: {short:?}");
        let at = page
            .windows(short.len())
            .position(|w| w == short.as_slice())
            .unwrap_or_else(|| panic!("{id}: {short:?} is not a run of the page's lines"));
        assert!(short.iter().any(|(_, l)| l == "1"), "{id}");
        assert!(at + short.len() <= page.len());
        // A shell: the menu and the footer, all boilerplate, no paragraph of the article.
        let shell = lines(&format!("{id}@shell"));
        assert_eq!(
            shell.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            ["Home News", "Contact us. All rights reserved."],
            "{id}"
        );
        assert!(shell.iter().all(|(_, l)| l == "0"), "{id}: {shell:?}");
    }
}
