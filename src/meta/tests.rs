//! Tests of the metadata collector.

use super::*;
use crate::lines::Splitter;

#[test]
fn meta_keys_with_multibyte_characters_where_a_prefix_ends_are_not_interesting() {
    for key in [
        "vi\u{fffd}wport",
        "o\u{e9}:title",
        "dc\u{fffd}",
        "twitter\u{e9}x",
        "\u{e9}",
    ] {
        assert!(!interesting(key), "{key}");
    }
    assert!(interesting("OG:title"));
    let m = meta_of("<meta name=\"o\u{e9}:x\" content=a><meta property=og:title content=T>");
    assert_eq!(m.title.as_deref(), Some("T"));
}

fn meta_of(html: &str) -> Metadata {
    let mut s = Splitter::new().with_metadata(true);
    s.write(html.as_bytes()).unwrap();
    s.end().unwrap();
    s.metadata().unwrap()
}

#[test]
fn json_ld_graph_article_wins_over_the_website() {
    let m = meta_of(
        r#"<head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","name":"Daily Bugle","url":"https://bugle.example/"},
        {"@type":["NewsArticle"],"headline":"Spider &amp; Man seen","author":[{"@type":"Person","name":"Peter Parker"},{"name":"Eddie Brock"}],
         "datePublished":"2023-05-01T10:00:00+02:00","dateModified":"2023-05-02","publisher":{"@type":"Organization","name":"Bugle Media"},
         "image":{"@type":"ImageObject","url":"https://bugle.example/p.jpg"},"description":"A sighting."}]}</script>
        <title>Ignored | Daily Bugle</title></head><body><p>Text.</p>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Spider & Man seen"));
    assert_eq!(m.author.as_deref(), Some("Peter Parker and Eddie Brock"));
    assert_eq!(m.published.as_deref(), Some("2023-05-01T10:00:00+02:00"));
    assert_eq!(m.modified.as_deref(), Some("2023-05-02"));
    assert_eq!(m.site_name.as_deref(), Some("Bugle Media"));
    assert_eq!(m.image.as_deref(), Some("https://bugle.example/p.jpg"));
    assert_eq!(m.description.as_deref(), Some("A sighting."));
    assert_eq!(m.page_types, ["WebSite", "NewsArticle"]);
    assert_eq!(m.html_title.as_deref(), Some("Ignored | Daily Bugle"));
}

#[test]
fn json_ld_escapes_decode_and_the_last_of_a_repeated_key_wins() {
    let m = meta_of(
        r#"<script type="application/ld+json">{"@type":"Article","headline":"first",
        "headline":"Caf\u00e9 \"quoted\" \ud83d\ude00","author":{"name":"A\/B"},
        "wordCount":1200,"isFree":true,"x":null,"n":[1.5e3,{"deep":[[]]}]}</script>
        <p>Text.</p>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Café \"quoted\" 😀"));
    assert_eq!(m.author.as_deref(), Some("A/B"));
    assert_eq!(m.page_types, ["Article"]);
}

#[test]
fn open_graph_and_title_trimming() {
    let m = meta_of(
        "<html lang='de-CH'><head><base href='https://ex.org/news/'>\
         <link rel=canonical href='2024/story.html'>\
         <meta property=og:type content=article>\
         <meta name=description content='Short &amp; sweet.'>\
         <title> The   long story of things — Example News </title>\
         <meta property=og:site_name content='Example News'></head><h1>Big</h1>",
    );
    assert_eq!(m.title.as_deref(), Some("The long story of things"));
    assert_eq!(
        m.url.as_deref(),
        Some("https://ex.org/news/2024/story.html")
    );
    assert_eq!(m.language.as_deref(), Some("de-CH"));
    assert_eq!(m.description.as_deref(), Some("Short & sweet."));
    assert_eq!(m.page_types, ["article"]);
    assert_eq!(m.first_h1.as_deref(), Some("Big"));
    assert_eq!((m.lines, m.text_bytes, m.article_lines), (1, 3, 0));
}

#[test]
fn svg_titles_and_broken_json_are_ignored() {
    let m = meta_of(
        "<body><svg><title>icon</title></svg><h1>Heading</h1>\
         <script type=application/ld+json>{not json</script>\
         <time datetime='2020/01/02'>2 Jan</time><p>x</p>",
    );
    assert_eq!(m.html_title, None);
    assert_eq!(m.title.as_deref(), Some("Heading"));
    assert_eq!(m.published.as_deref(), Some("2020-01-02"));
    let m = meta_of("<p>out</p><main><p>in one</p><article><p>in two</p></article></main>");
    assert_eq!((m.lines, m.article_lines, m.article_text_bytes), (3, 2, 12));
}

#[test]
fn pieces_of_any_size_give_the_same_metadata() {
    let html = r#"<html lang=fr><head><title>Un &eacute;t&eacute; | Site</title>
        <script type="application/ld+json">{"@type":"BlogPosting","headline":"Été","author":"Zoé"}</script>
        </head><body><p>Du texte.</p><script>var x = "</title>";</script></body>"#;
    let whole = meta_of(html);
    for size in [1, 3, 7, 64] {
        let mut s = Splitter::new().with_metadata(true);
        for piece in html.as_bytes().chunks(size) {
            s.write(piece).unwrap();
        }
        s.end().unwrap();
        assert_eq!(s.metadata().unwrap(), whole, "pieces of {size}");
    }
    assert_eq!(whole.html_title.as_deref(), Some("Un été | Site"));
    assert_eq!(whole.title.as_deref(), Some("Été"));
    assert_eq!(whole.author.as_deref(), Some("Zoé"));
}

#[test]
fn an_oversized_json_ld_script_is_skipped_and_memory_stays_bounded() {
    let big = format!(
        r#"<script type="application/ld+json">{{"@type":"Article","headline":"Big","x":"{}"}}</script>"#,
        "a".repeat(MAX_JSON_LD_BYTES)
    );
    let m = meta_of(&format!("{big}<title>Small</title><p>x</p>"));
    assert_eq!(m.title.as_deref(), Some("Small"));
}

#[test]
fn the_head_is_known_as_soon_as_the_body_starts() {
    let head = format!(
        "<meta charset=utf-8><title>Early</title><meta name=author content=Me><!--{}-->",
        " ".repeat(1100)
    );
    let mut s = Splitter::new().with_metadata(true);
    s.write(head.as_bytes()).unwrap();
    assert!(!s.head_done());
    s.write(b"<p>First words.</p><p>More").unwrap();
    assert!(s.head_done());
    let m = s.metadata().unwrap();
    assert_eq!(m.title.as_deref(), Some("Early"));
    assert_eq!(m.author.as_deref(), Some("Me"));
}

#[test]
fn dublin_core_in_any_spelling_and_bylines_in_the_body() {
    let m = meta_of(
        "<meta property='dc:title og:title' content='Preferred'>\
         <meta name=author content='Meta Author'><meta name='DC.creator' content='DC Author'>\
         <title>Other</title><body><nav><span class=author>Menu Author</span></nav>\
         <p>Text.</p>",
    );
    assert_eq!(m.title.as_deref(), Some("Preferred"));
    assert_eq!(m.author.as_deref(), Some("DC Author"));
    let m = meta_of(
        "<body><div class=comment-author>Troll</div><h1>T</h1>\
         <div class='post-byline'>By Ann   Lee</div><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
}

#[test]
fn dates_are_iso_8601_or_nothing() {
    assert_eq!(iso_date("2021-13-01"), None);
    assert_eq!(iso_date("May 3, 2021"), None);
    assert_eq!(
        iso_date("2021/05/03 10:20").as_deref(),
        Some("2021-05-03T10:20")
    );
}

#[test]
fn titles_keep_their_text_without_a_known_site() {
    assert_eq!(trim_site_name("Home | Acme", None), "Home | Acme");
    assert_eq!(
        trim_site_name("How to boil an egg - Acme", None),
        "How to boil an egg"
    );
    assert_eq!(
        trim_site_name("Acme | How to boil", Some("ACME")),
        "How to boil"
    );
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
mod doc_examples {
    #[test]
    fn doc_meta_resolve() -> Result<(), Box<dyn std::error::Error>> {
        use crate::meta::resolve;
        let base = "https://example.org/a/b/page.html?q=1";
        assert_eq!(
            resolve(base, "../c.html").as_deref(),
            Some("https://example.org/a/c.html")
        );
        assert_eq!(
            resolve(base, "/top").as_deref(),
            Some("https://example.org/top")
        );
        assert_eq!(
            resolve(base, "//cdn.org/x").as_deref(),
            Some("https://cdn.org/x")
        );
        assert_eq!(
            resolve(base, "#s").as_deref(),
            Some("https://example.org/a/b/page.html?q=1#s")
        );
        assert_eq!(
            resolve(base, "mailto:a@b.c").as_deref(),
            Some("mailto:a@b.c")
        );
        Ok(())
    }
}

#[test]
fn microdata_authors_give_their_nested_name() {
    let m = meta_of(
        "<body><h1>Title</h1><div itemprop=author itemscope itemtype='https://schema.org/Person'>\
         Written By: <a itemprop=url href='/tom'><span itemprop=name>Tom May</span></a>\
         <p>Tom writes about type.</p></div><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Tom May"));
    let m = meta_of(
        "<body><span itemprop='author' itemscope><meta itemprop='name' content='Ann &amp; Bo'>\
         <img src=a.png></span><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Ann & Bo"));
    // Without a nested name, the element's own text.
    let m = meta_of("<p>Asked by <a href='/u/1' itemprop=author>drat55</a> in 2014</p>");
    assert_eq!(m.author.as_deref(), Some("drat55"));
}

#[test]
fn microdata_organisations_and_comment_authors_are_not_bylines() {
    let m = meta_of(
        "<body><div itemprop=author itemscope itemtype='https://schema.org/Organization'>\
         <span itemprop=name>Daily Paper</span></div><p>Words.</p>\
         <div class=comments><div class=c-body><span itemprop=author>Troll</span></div></div>",
    );
    assert_eq!(m.author, None);
}

#[test]
fn rel_author_links_give_the_name() {
    let m = meta_of(
        "<body><nav><a rel=author href='/me'>Menu Person</a></nav><h1>T</h1>\
         <p class=meta><a href='/hg' title='Posts by Halina Goetz' rel='author noopener'>\
         Halina Goetz</a> &middot; 3 May 2021</p><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Halina Goetz"));
}

#[test]
fn inline_elements_classed_for_the_author_give_the_name() {
    let m = meta_of(
        "<body><h1>Best tutoring</h1><div class=post-detail__meta>September 1st, 2023 \
         <span class=post-detail__meta-author>By Emily Norwood</span></div><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Emily Norwood"));
}

#[test]
fn a_label_on_a_line_of_its_own_gives_the_name_on_the_next() {
    let m = meta_of(
        "<body><h1>Guide</h1><div><p>Last updated</p><time>Aug 04, 2025</time></div>\
         <div><p>Written by</p><p>Edzel Tabing</p></div><p>Words of the guide.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Edzel Tabing"));
    // A line of code ending in "by" is not a label.
    let m = meta_of("<body><pre>theorem x := by\nintro h1</pre><p>Words.</p>");
    assert_eq!(m.author, None);
}

#[test]
fn author_elements_read_the_same_in_pieces_of_any_size() {
    let html = "<body><h1>T</h1><div class=byline-wrap><span itemprop=author itemscope>\
                <a href='/z' itemprop=url><span itemprop=name>Zo\u{e9} Kr\u{e4}mer</span></a>\
                </span></div><p>Words.</p>";
    let whole = meta_of(html);
    assert_eq!(whole.author.as_deref(), Some("Zoé Krämer"));
    for size in [1, 2, 5, 13] {
        let mut s = Splitter::new().with_metadata(true);
        for piece in html.as_bytes().chunks(size) {
            s.write(piece).unwrap();
        }
        s.end().unwrap();
        assert_eq!(s.metadata().unwrap(), whole, "pieces of {size}");
    }
}

#[test]
fn microdata_inside_an_element_classed_for_the_author_is_read_too() {
    let m = meta_of(
        "<body><h1>T</h1><div class=authorinfo><a href='/p' itemprop=url>Tech Weekly</a>\
         <span class=authorname itemprop=author itemscope><span itemprop=name>Alex Perry</span>\
         </span></div><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Alex Perry"));
    // Microdata in an aside names the author of the item it sits in.
    let m = meta_of(
        "<body><article><p>Words.</p><aside><span itemprop=author itemscope>\
         <span itemprop=name>Nicolas Perriault</span> \u{2014}</span></aside></article>",
    );
    assert_eq!(m.author.as_deref(), Some("Nicolas Perriault"));
}

#[test]
fn lines_starting_with_a_label_only_bylines_have_give_the_name() {
    let m = meta_of(
        "<body><h1>T</h1><p>One.</p><p>Two.</p><p>Three.</p><p>Four.</p><p>Five.</p><p>Six.</p>\
         <p>Seven.</p><p>Eight.</p><p>Nine.</p><p>Ten.</p><p>Eleven.</p>\
         <p>Written by <a href='/a'>Moses Kim and Kate Shokurova</a></p><p>Words.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Moses Kim and Kate Shokurova"));
}

#[test]
fn json_ld_in_cdata_and_open_graph_article_authors_are_read() {
    let m = meta_of(
        "<head><script type=\"application/ld+json\">\n<![CDATA[\n{\"@type\":\"Article\",\
         \"name\":\"New Zealand\",\"author\":{\"@type\":\"Organization\",\
         \"name\":\"Contributors to Wikimedia projects\"}}\n]]>\n</script></head><p>Text.</p>",
    );
    assert_eq!(
        m.author.as_deref(),
        Some("Contributors to Wikimedia projects")
    );
    assert_eq!(m.page_types, ["Article"]);
    let m = meta_of("<meta property='og:article:author' content='BBC News'><p>Text.</p>");
    assert_eq!(m.author.as_deref(), Some("BBC News"));
}

#[test]
fn twitter_labels_name_the_writer_and_related_cards_do_not() {
    let m = meta_of(
        "<meta name=twitter:label1 content='Written by'>\
         <meta name=twitter:data1 content='Linda Rosencrance'>\
         <meta name=twitter:label2 content='Est. reading time'>\
         <meta name=twitter:data2 content='3 minutes'><p>Text.</p>",
    );
    assert_eq!(m.author.as_deref(), Some("Linda Rosencrance"));
    let m = meta_of(
        "<body><h1>T</h1><p>Words.</p><div class=related-content><h3>Other</h3>\
         <div itemprop=author itemscope><span itemprop=name>Thai Vong</span></div></div>",
    );
    assert_eq!(m.author, None);
}

#[test]
fn a_page_that_declares_only_its_change_gives_that_as_its_date() {
    let m = meta_of(
        r#"<head><meta property="article:modified_time" content="2023-06-12T08:00:00+00:00">
        </head><body><h1>Notes</h1><p>Text without any date in it.</p>"#,
    );
    assert_eq!(m.published.as_deref(), Some("2023-06-12T08:00:00+00:00"));
}

#[test]
fn microdata_date_created_dates_a_question() {
    let m = meta_of(
        r#"<h1>How do I book a flight?</h1><p>Asked <time itemprop="dateCreated"
        datetime="2014-03-28T11:38:04">Mar 28, 2014</time></p><p>edited
        <span>Apr 13, 2017 at 12:52</span></p>"#,
    );
    assert_eq!(m.published.as_deref(), Some("2014-03-28T11:38:04"));
}

#[test]
fn other_meta_keys_naming_a_publication_date_are_read() {
    let m = meta_of(
        r#"<head><meta name="ms.date" content="2025-03-06T00:00:00Z">
        <meta name="updated_at" content="2025-10-23T11:11:00Z">
        <meta name="publisher" content="2024-01-01"></head><body><p>Text.</p>"#,
    );
    assert_eq!(m.published.as_deref(), Some("2025-03-06T00:00:00Z"));
    let m = meta_of(r#"<meta name="published" content="July 17, 2025"><p>Text.</p>"#);
    assert_eq!(m.published.as_deref(), Some("2025-07-17"));
    assert!(date_key("w-published-date") && date_key("ms.date"));
    assert!(!date_key("publisher") && !date_key("last-modified-date") && !date_key("updated"));
}

#[test]
fn a_labelled_date_far_from_the_headline_is_read() {
    let mut html = String::from("<h1>Guide</h1>");
    for i in 0..20 {
        html.push_str(&format!("<p>Paragraph {i} of the guide.</p>"));
    }
    // A short dated line that is no label comes first, and is not taken.
    html.push_str("<p>In stock since May 2, 2021</p>");
    html.push_str("<p>Last updated: November 13, 2025</p>");
    let m = meta_of(&html);
    assert_eq!(m.published.as_deref(), Some("2025-11-13"));
    assert!(date::labelled("Published on 4 March 2025"));
    assert!(!date::labelled("Postedness 4 March 2025"));
}

#[test]
fn a_page_without_a_headline_gives_its_first_short_dated_line() {
    let m = meta_of(
        r#"<p>Our team wrote this for readers who plan ahead and like long lines.</p>
        <div><p>Dec 17, 2025</p><p>6 min read</p></div><p>Body text.</p>"#,
    );
    assert_eq!(m.published.as_deref(), Some("2025-12-17"));
}

#[test]
fn a_declared_time_one_day_from_the_urls_day_takes_the_urls_day() {
    let m = meta_of(
        r#"<head><meta property="og:url" content="https://a.example/2025/12/18/story/">
        <meta property="article:published_time" content="2025-12-19T02:41:41+00:00"></head>
        <body><p>Text.</p>"#,
    );
    assert_eq!(m.published.as_deref(), Some("2025-12-18"));
    // Further apart, the declared time stands.
    let m = meta_of(
        r#"<head><meta property="og:url" content="https://a.example/2025/12/10/story/">
        <meta property="article:published_time" content="2025-12-19T02:41:41+00:00"></head>
        <body><p>Text.</p>"#,
    );
    assert_eq!(m.published.as_deref(), Some("2025-12-19T02:41:41+00:00"));
}

fn page_with(ld_published: &str, shown: &str, extra_head: &str) -> Metadata {
    meta_of(&format!(
        r#"<head><script type="application/ld+json">{{"@context":"https://schema.org","@type":"Article","headline":"Headline",
        "datePublished":"{ld_published}","dateModified":"2025-08-19T10:00:00+00:00"}}</script>
        {extra_head}</head><body><h1>Headline</h1><p>By Ann Lee</p><p>{shown}</p>
        <p>Body text of the article.</p>"#
    ))
}

#[test]
fn the_day_shown_with_the_headline_beats_a_lone_json_ld_date() {
    let m = page_with("2025-01-29T20:47:55+00:00", "August 25, 2024", "");
    assert_eq!(m.published.as_deref(), Some("2024-08-25"));
    // The shown day is the declared change: its time is kept.
    let m = page_with("2025-01-29T20:47:55+00:00", "August 19, 2025", "");
    assert_eq!(m.published.as_deref(), Some("2025-08-19T10:00:00+00:00"));
}

#[test]
fn a_declared_moment_shown_in_the_pages_zone_gives_the_shown_day() {
    // 20:47 UTC shown as 4:47 am the next day, eight hours east.
    let m = page_with("2025-01-29T20:47:55+00:00", "Jan 30, 2025 | 4:47 am", "");
    assert_eq!(m.published.as_deref(), Some("2025-01-30"));
    // Another minute: another moment, the declared date stands.
    let m = page_with("2025-01-29T20:47:55+00:00", "Jan 30, 2025 | 4:48 am", "");
    assert_eq!(m.published.as_deref(), Some("2025-01-29T20:47:55+00:00"));
}

#[test]
fn the_declared_date_stands_where_the_shown_day_is_weak() {
    let declared = Some("2025-01-29T20:47:55+00:00");
    // A change's label.
    let m = page_with("2025-01-29T20:47:55+00:00", "Updated August 25, 2024", "");
    assert_eq!(m.published.as_deref(), declared);
    // A numeric day, whose order a reader could take either way.
    let m = page_with("2025-01-29T20:47:55+00:00", "08/25/2024", "");
    assert_eq!(m.published.as_deref(), declared);
    // One day apart: a time near midnight.
    let m = page_with("2025-01-29T20:47:55+00:00", "January 30, 2025", "");
    assert_eq!(m.published.as_deref(), declared);
    // Two declarations that agree.
    let m = page_with(
        "2025-01-29T20:47:55+00:00",
        "August 25, 2024",
        r#"<meta property="article:published_time" content="2025-01-29T20:47:55+00:00">"#,
    );
    assert_eq!(m.published.as_deref(), declared);
    // A long line: a sentence, not a date line.
    let m = page_with(
        "2025-01-29T20:47:55+00:00",
        "The offer is valid from August 1 to August 25, 2024 in all stores.",
        "",
    );
    assert_eq!(m.published.as_deref(), declared);
}

#[test]
fn a_date_in_the_article_footer_is_read() {
    let m = meta_of(
        "<body><article><h1>Five tips</h1><p>Some words of the article.</p>\
         <footer><span class=meta>By Ann Lee</span> <span>March 30, 2023</span></footer>\
         <p>More words of the article body.</p></article>\
         <footer><p>Site map</p><p>Copyright January 1, 2020</p></footer></body>",
    );
    assert_eq!(m.published.as_deref(), Some("2023-03-30"));
    // The site's footer, outside the article, dates nothing.
    let m = meta_of(
        "<body><article><h1>Five tips</h1><p>Some words of the article.</p></article>\
         <footer><p>Copyright January 1, 2020</p></footer></body>",
    );
    assert_eq!(m.published, None);
}

#[test]
fn a_date_in_a_title_attribute_is_the_last_fallback() {
    let m = meta_of(
        "<body><h1>A question</h1><p>Words of the question asked here.</p>\
         <span class=post_time title=\"2/21/2024 5:00:00 AM\">3 years ago</span></body>",
    );
    assert_eq!(m.published.as_deref(), Some("2024-02-21"));
    let m = meta_of(
        "<body><h1>A question</h1><p>Asked <abbr title=\"2019-03-04\">long ago</abbr>.</p>\
         <time datetime=\"2020-05-06\">May 6</time></body>",
    );
    assert_eq!(m.published.as_deref(), Some("2020-05-06"));
    let m = meta_of("<body><h1>A tip</h1><p><span title=\"Tip of the day\">Tip</span></p></body>");
    assert_eq!(m.published, None);
}

#[test]
fn a_meta_holding_json_ld_is_read_as_json_ld() {
    let m = meta_of(
        "<head><meta name=\"script:ld+json\" content=\"{&quot;@type&quot;:&quot;Article&quot;,\
         &quot;headline&quot;:&quot;Electric cars&quot;,\
         &quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;}\"></head>\
         <body><p>Text.</p></body>",
    );
    assert_eq!(m.published.as_deref(), Some("2025-11-17T09:00:00-05:00"));
    // Only its dates: the page's type and title stay those of the head's other sources.
    assert_eq!(m.title, None);
    assert!(m.page_types.is_empty());
}
