//! Tests of the label alignment: tokens, anchors, runs and the labels of whole pages.

use super::*;

#[test]
fn align_tokens_splits_unspaced_scripts_and_drops_soft_hyphens() {
    assert_eq!(align_tokens("Ein Über\u{AD}blick"), ["ein", "überblick"]);
    assert_eq!(
        align_tokens("東京で2024年"),
        ["東", "京", "で", "2024", "年"]
    );
}

const ARTICLE_TITLE: &str = "How to grow tomatoes on a balcony";
const PARAGRAPH_1: &str = "Tomatoes need at least six hours of direct sun, so pick the \
                           brightest corner of the balcony and a pot of twenty litres or more.";
const PARAGRAPH_2: &str = "Water them deeply twice a week rather than a little every day; \
                           shallow watering keeps the roots near the surface.";

fn gold_article() -> String {
    format!("{ARTICLE_TITLE}\n\n{PARAGRAPH_1}\n\n{PARAGRAPH_2}")
}

#[test]
fn navigation_and_footer_are_boilerplate_and_the_article_is_content() {
    let lines = [
        "Home",
        "Garden",
        "Balcony",
        "Subscribe to our newsletter",
        ARTICLE_TITLE,
        "By Jane Doe, 3 May 2024",
        PARAGRAPH_1,
        PARAGRAPH_2,
        "Related: ten herbs for the windowsill",
        "© 2024 Green Thumb Media. All rights reserved.",
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(
        a.labels,
        [
            false, false, false, false, true, false, true, true, false, false
        ]
    );
    assert_eq!(a.gold_coverage(), 1.0);
    assert!(!a.is_poor());
    assert!(!a.timed_out);
    assert_eq!(a.gold_tokens, align_tokens(&gold_article()).len());
    assert_eq!(
        a.page_tokens,
        lines.iter().map(|l| align_tokens(l).len()).sum::<usize>()
    );
}

#[test]
fn a_title_repeated_in_breadcrumbs_and_navigation_is_content_only_above_the_article() {
    let lines = [
        "Home › Garden › How to grow tomatoes on a balcony",
        "Popular: How to grow tomatoes on a balcony",
        "Menu",
        ARTICLE_TITLE,
        "Updated 3 May 2024",
        PARAGRAPH_1,
        PARAGRAPH_2,
        "You may also like: How to grow tomatoes on a balcony",
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(
        a.labels,
        [false, false, false, true, false, true, true, false]
    );
    assert_eq!(a.gold_coverage(), 1.0);
}

#[test]
fn a_title_alone_on_its_line_in_the_navigation_is_not_taken_for_the_heading() {
    // The navigation copy is the same line as the heading; the heading wins because it
    // sits right above the article's first paragraph, as in the gold text.
    let lines = [
        ARTICLE_TITLE,
        "Herbs",
        "Flowers",
        ARTICLE_TITLE,
        PARAGRAPH_1,
        PARAGRAPH_2,
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [false, false, false, true, true, true]);
}

#[test]
fn a_paragraph_with_a_read_more_link_appended_is_still_content() {
    let lines = [
        ARTICLE_TITLE.to_owned(),
        format!("{PARAGRAPH_1} Read more »"),
        PARAGRAPH_2.to_owned(),
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [true, true, true]);
    assert_eq!(a.gold_coverage(), 1.0);
}

#[test]
fn a_line_that_only_quotes_a_few_gold_words_is_boilerplate() {
    let lines = [
        ARTICLE_TITLE,
        PARAGRAPH_1,
        PARAGRAPH_2,
        "Readers also asked whether the roots near the surface need more fertiliser in \
         summer or whether compost is enough for a pot on the balcony",
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [true, true, true, false]);
}

#[test]
fn single_menu_words_that_occur_in_the_article_are_not_matched_by_chance() {
    // "garden", "sun" and "water" occur in the gold text, but only as single words far
    // from each other: no run of two tokens, so the menu stays boilerplate.
    let gold = "The garden opens at nine. Bring water and a hat against the sun.";
    let lines = ["Sun", "Garden", "Water", gold];
    let a = align(&lines, gold);
    assert_eq!(a.labels, [false, false, false, true]);
}

#[test]
fn a_one_word_heading_matching_a_one_word_gold_line_is_content() {
    let gold = "Ingredients\n\nTwo eggs, flour and milk.\n\nMethod\n\nWhisk everything together.";
    let lines = [
        "Ingredients",
        "Advertisement",
        "Two eggs, flour and milk.",
        "Method",
        "Sponsored",
        "Whisk everything together.",
    ];
    let a = align(&lines, gold);
    assert_eq!(a.labels, [true, false, true, true, false, true]);
    assert_eq!(a.gold_coverage(), 1.0);
}

#[test]
fn lines_without_tokens_take_the_label_of_their_surroundings() {
    let lines = [
        "—",
        ARTICLE_TITLE,
        "",
        PARAGRAPH_1,
        "* * *",
        PARAGRAPH_2,
        "|",
        "Contact us",
        "···",
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(
        a.labels,
        [false, true, true, true, true, true, false, false, false]
    );
}

#[test]
fn chinese_lines_match_per_character() {
    let gold = "北京今日天气晴朗，最高气温二十五度。\n\n市民纷纷前往公园散步。";
    let lines = [
        "首页 新闻 体育",
        "北京今日天气晴朗，最高气温二十五度。",
        "市民纷纷前往公园散步。点击查看更多",
        "版权所有",
    ];
    let a = align(&lines, gold);
    assert_eq!(a.labels, [false, true, true, false]);
    assert_eq!(a.gold_coverage(), 1.0);
}

#[test]
fn japanese_text_with_a_different_line_break_still_aligns() {
    let gold = "東京で桜が満開になりました。週末は多くの人が花見を楽しみました。";
    let lines = [
        "ログイン",
        "東京で桜が満開になりました。",
        "週末は多くの人が花見を楽しみました。",
        "関連記事",
    ];
    let a = align(&lines, gold);
    assert_eq!(a.labels, [false, true, true, false]);
}

#[test]
fn empty_gold_makes_every_line_boilerplate() {
    let lines = [ARTICLE_TITLE, PARAGRAPH_1, ""];
    for gold in ["", "\n\n", " … "] {
        let a = align(&lines, gold);
        assert_eq!(a.labels, [false, false, false]);
        assert_eq!(a.gold_tokens, 0);
        assert_eq!(a.gold_coverage(), 1.0);
    }
}

#[test]
fn a_page_without_lines_has_no_labels_and_no_coverage() {
    let a = align::<&str>(&[], &gold_article());
    assert!(a.labels.is_empty());
    assert_eq!(a.matched_gold_tokens, 0);
    assert_eq!(a.gold_coverage(), 0.0);
    assert!(a.is_poor());
}

#[test]
fn gold_text_missing_from_the_page_lowers_the_coverage() {
    let lines = [ARTICLE_TITLE, PARAGRAPH_1];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [true, true]);
    let expected = (align_tokens(ARTICLE_TITLE).len() + align_tokens(PARAGRAPH_1).len()) as f64
        / align_tokens(&gold_article()).len() as f64;
    assert!((a.gold_coverage() - expected).abs() < 1e-12);
    assert!(a.is_poor());
}

#[test]
fn punctuation_case_and_soft_hyphens_do_not_matter() {
    let gold = "“Don’t panic,” she said — it’s only a test.";
    let lines = ["\"DON'T PANIC\", she said - it's only a te\u{AD}st!"];
    let a = align(&lines, gold);
    assert_eq!(a.labels, [true]);
    assert_eq!(a.gold_coverage(), 1.0);
}

#[test]
fn paragraphs_the_page_shows_in_another_order_than_the_gold_are_both_content() {
    let lines = [ARTICLE_TITLE, PARAGRAPH_2, "Advertisement", PARAGRAPH_1];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [true, true, false, true]);
    assert_eq!(a.gold_coverage(), 1.0);
}

#[test]
fn a_short_phrase_out_of_order_is_not_matched_by_the_second_pass() {
    // The page lacks the first paragraph; a teaser after the second one quotes four of
    // its words. Out of order and shorter than five tokens: not counted.
    let lines = [PARAGRAPH_2, "Next: pick the brightest corner"];
    let gold = format!("{PARAGRAPH_1}\n\n{PARAGRAPH_2}");
    let a = align(&lines, &gold);
    assert_eq!(a.labels, [true, false]);

    // Five words are enough.
    let lines = [PARAGRAPH_2, "Next: pick the brightest corner of"];
    let a = align(&lines, &gold);
    assert_eq!(a.labels, [true, true]);
}

#[test]
fn an_uninterrupted_copy_of_the_article_later_in_the_page_does_not_take_over() {
    // The article is interrupted by a newsletter box; a "republish this story" box at
    // the end holds the whole text in one line, paragraph breaks included.
    let lines = [
        ARTICLE_TITLE.to_owned(),
        PARAGRAPH_1.to_owned(),
        "Sign up for the newsletter and get the best tips every week".to_owned(),
        PARAGRAPH_2.to_owned(),
        "Republish this story".to_owned(),
        format!("<h1>{ARTICLE_TITLE}</h1> <p>{PARAGRAPH_1}</p> <p>{PARAGRAPH_2}</p>"),
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [true, true, false, true, false, false]);
}

#[test]
fn a_sentence_repeated_in_a_teaser_after_the_article_stays_content_in_the_article() {
    let lines = [
        ARTICLE_TITLE,
        PARAGRAPH_1,
        PARAGRAPH_2,
        "Most read this week",
        PARAGRAPH_2,
    ];
    let a = align(&lines, &gold_article());
    assert_eq!(a.labels, [true, true, true, false, false]);
}

#[test]
fn a_page_repeating_a_long_article_three_times_aligns_with_one_copy() {
    // Pseudo-random words from a small vocabulary: few tokens are unique, the case where
    // a plain diff of the token streams is quadratic.
    let mut state = 7u64;
    let mut word = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        format!("w{}", (state >> 33) % 2000)
    };
    let gold_lines: Vec<String> = (0..300)
        .map(|_| (0..30).map(|_| word()).collect::<Vec<_>>().join(" "))
        .collect();
    let menu: Vec<String> = (0..200)
        .map(|_| (0..4).map(|_| word()).collect::<Vec<_>>().join(" "))
        .collect();
    let mut lines = Vec::new();
    for _ in 0..3 {
        lines.extend(menu.iter().cloned());
        lines.extend(gold_lines.iter().cloned());
    }
    let gold = gold_lines.join("\n\n");

    // NOTE: speed is measured by the corpus run (training/src/tests/label_corpus.rs), not here: a
    // generous limit keeps this test about the result on a loaded machine.
    let a = align_with_time_limit(&lines, &gold, Duration::from_secs(120));
    assert!(!a.timed_out);
    assert_eq!(a.gold_coverage(), 1.0);
    assert_eq!(a.labels.iter().filter(|&&l| l).count(), gold_lines.len());
    // The first copy, by the tie rule for equally good copies.
    assert!(a.labels[200..500].iter().all(|&l| l));
}

#[test]
fn a_zero_time_limit_is_reported_and_still_gives_one_label_per_line() {
    let mut lines = vec!["Menu".to_owned()];
    for i in 0..200 {
        lines.push(format!("item {i} of the list with shared words"));
    }
    let gold: String = (0..200)
        .map(|i| format!("item {} of the list with shared words\n", 199 - i))
        .collect();
    let a = align_with_time_limit(&lines, &gold, Duration::ZERO);
    assert!(a.timed_out);
    assert_eq!(a.labels.len(), lines.len());
}

#[test]
fn alignment_tokens_split_unspaced_scripts_per_character() {
    assert_eq!(
        align_tokens("Samsung 갤럭시 출시, ราคา 30000"),
        [
            "samsung", "갤", "럭", "시", "출", "시", "ร", "า", "ค", "า", "30000"
        ]
    );
    assert_eq!(align_tokens("ΣΟΦΟΣ σοφος"), ["σοφοσ", "σοφοσ"]);
    assert_eq!(align_tokens("a\u{200B}b c"), ["ab", "c"]);
    assert!(align_tokens("— · …").is_empty());
}

#[test]
fn labels_fill_lines_without_tokens_between_content_lines_only() {
    let lines = [0..0, 0..2, 2..2, 2..4, 4..4, 4..6, 6..6];
    let matched = [0, 2, 0, 2, 0, 0, 0];
    assert_eq!(
        label_lines(&lines, &matched),
        [false, true, true, true, false, false, false]
    );
}

#[test]
fn the_anchor_chain_is_the_longest_increasing_one_preferring_earlier_copies() {
    let pairs = [
        (0, 5),
        (1, 0),
        (2, 1),
        (3, 9),
        (4, 2),
        (5, 0),
        (6, 1),
        (7, 3),
    ];
    assert_eq!(
        longest_increasing_chain(&pairs),
        [(1, 0), (2, 1), (4, 2), (7, 3)]
    );
    assert!(longest_increasing_chain(&[]).is_empty());
}

#[test]
fn anchors_are_trigrams_unique_in_the_gold_and_within_one_gold_line() {
    // gold: 1 2 3 | 4 5 6 1 2 3  (the line break falls after the first 3)
    let gold = [1, 2, 3, 4, 5, 6, 1, 2, 3];
    let gold_line = [0, 0, 0, 1, 1, 1, 1, 1, 1];
    // "1 2 3" is not unique and "3 4 5" spans the break: only 4 5 6, 5 6 1 and 6 1 2 anchor.
    let page = [9, 3, 4, 5, 6, 1, 2, 3];
    assert_eq!(anchors(&page, &gold, &gold_line), [(2, 3), (3, 4), (4, 5)]);
}

#[test]
fn shifting_moves_a_run_next_to_its_gold_neighbour() {
    // page: t1 t2 x x x t1 t2 b1 b2 ; gold: t1 t2 b1 b2
    let page = [1, 2, 9, 9, 9, 1, 2, 3, 4];
    let gold = [1, 2, 3, 4];
    let mut runs = vec![
        Run {
            page: 0,
            gold: 0,
            len: 2,
        },
        Run {
            page: 7,
            gold: 2,
            len: 2,
        },
    ];
    shift_runs(&mut runs, &page, &gold, &[true; 9]);
    assert_eq!(
        merge_runs(runs),
        [Run {
            page: 5,
            gold: 0,
            len: 4
        }]
    );
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
mod doc_examples {
    #[test]
    fn doc_train_label() -> Result<(), Box<dyn std::error::Error>> {
        use crate::train::label::align;

        let lines = [
            "Home | News | Sport",
            "Storm closes the harbour",
            "The harbour stayed shut on Monday after the storm damaged the pier.",
            "Share this article",
            "© 2024 Example News",
        ];
        let gold = "Storm closes the harbour\n\n\
                    The harbour stayed shut on Monday after the storm damaged the pier.";

        let alignment = align(&lines, gold);
        assert_eq!(alignment.labels, [false, true, true, false, false]);
        assert_eq!(alignment.gold_coverage(), 1.0);
        Ok(())
    }
}
