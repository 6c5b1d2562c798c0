//! JSON-LD: the fields of a page's `<script type="application/ld+json">` objects.

use std::borrow::Cow;

use serde::Deserialize;

use super::clean;

/// The fields read from JSON-LD.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct JsonLd {
    /// `@type`s of every object, in order.
    pub(super) types: Vec<String>,
    /// Fields of the main object (an article if there is one).
    pub(super) headline: Option<String>,
    pub(super) author: Option<String>,
    /// The authors are all organisations (a byline in the page names a person better).
    pub(super) author_org: bool,
    pub(super) published: Option<String>,
    pub(super) modified: Option<String>,
    pub(super) publisher: Option<String>,
    pub(super) description: Option<String>,
    pub(super) image: Option<String>,
    pub(super) url: Option<String>,
    /// The main object is article-like (it gets precedence over another).
    pub(super) article: bool,
    /// The name of a `WebSite` object.
    pub(super) website: Option<String>,
}

/// JSON-LD types of articles (schema.org's Article and its subtypes that pages use).
pub(super) fn article_type(t: &str) -> bool {
    matches!(
        t,
        "Article"
            | "NewsArticle"
            | "BlogPosting"
            | "ScholarlyArticle"
            | "TechArticle"
            | "Report"
            | "AnalysisNewsArticle"
            | "OpinionNewsArticle"
            | "ReportageNewsArticle"
            | "ReviewNewsArticle"
            | "BackgroundNewsArticle"
            | "AdvertiserContentArticle"
            | "SatiricalArticle"
            | "SocialMediaPosting"
            | "LiveBlogPosting"
            | "DiscussionForumPosting"
            | "MedicalScholarlyArticle"
            | "APIReference"
            | "Review"
            | "Recipe"
            | "HowTo"
    )
}

/// The JSON of a script's text: without the `<![CDATA[ … ]]>` that pages written as XHTML
/// wrap it in (perhaps behind `//` or inside `/* */`).
pub(super) fn unwrap(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = ["<![CDATA[", "//<![CDATA[", "/*<![CDATA[*/"]
        .iter()
        .find_map(|open| t.strip_prefix(open))
    else {
        return t;
    };
    let rest = rest.trim_end();
    ["//]]>", "/*]]>*/", "]]>"]
        .iter()
        .find_map(|close| rest.strip_suffix(close))
        .unwrap_or(rest)
        .trim()
}

/// A JSON-LD value as read: strings borrowed from the script's text when they hold no
/// escapes, objects as their fields in order.
// NOTE: a `serde_json::Value` copied every string and hashed every key (an IndexMap),
// for the few fields `JsonLd::read` looks at.
#[derive(Debug)]
pub(super) enum Ld<'a> {
    Str(Cow<'a, str>),
    Array(Vec<Ld<'a>>),
    Object(Vec<(Cow<'a, str>, Ld<'a>)>),
    /// A number, `true`, `false` or `null`.
    Other,
}

impl Ld<'_> {
    fn as_str(&self) -> Option<&str> {
        match self {
            Ld::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// The value of a key of an object (the last one, as in a JSON map, when a key repeats).
pub(super) fn get<'v, 'a>(map: &'v [(Cow<'a, str>, Ld<'a>)], key: &str) -> Option<&'v Ld<'a>> {
    map.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl<'de> Deserialize<'de> for Ld<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ld<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_unit<E>(self) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Ld<'de>, E> {
                Ok(Ld::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Ld<'de>, E> {
                Ok(Ld::Str(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Ld<'de>, E> {
                Ok(Ld::Str(Cow::Owned(s)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Ld<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Ld<'de>>()? {
                    items.push(item);
                }
                Ok(Ld::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ld<'de>, A::Error> {
                let mut fields = Vec::new();
                while let Some((key, value)) = map.next_entry::<Ld<'de>, Ld<'de>>()? {
                    // JSON keys are strings.
                    if let Ld::Str(key) = key {
                        fields.push((key, value));
                    }
                }
                Ok(Ld::Object(fields))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonLd {
    /// Reads a JSON-LD value: an object, an array of them or a `@graph`.
    pub(super) fn read(&mut self, value: &Ld, level: usize) {
        if level > 4 {
            return;
        }
        match value {
            Ld::Array(items) => {
                for item in items.iter().take(256) {
                    self.read(item, level + 1);
                }
            }
            Ld::Object(map) => {
                if let Some(graph) = get(map, "@graph") {
                    self.read(graph, level + 1);
                }
                let types = type_names(get(map, "@type"));
                for t in &types {
                    if self.types.len() < 32 && !self.types.contains(t) {
                        self.types.push(t.clone());
                    }
                }
                if types.iter().any(|t| t == "WebSite") && self.website.is_none() {
                    self.website = string(get(map, "name"));
                }
                let article = types.iter().any(|t| article_type(t));
                let page = types.iter().any(|t| t.ends_with("Page"));
                let useful = get(map, "headline").is_some()
                    || (article || page) && get(map, "name").is_some();
                // An article's fields win over another object's; the first of each kind
                // wins.
                if useful && (article && !self.article || self.headline.is_none()) {
                    let keep_old = |new: Option<String>, old: &Option<String>| {
                        if article && !self.article {
                            new.or_else(|| old.clone())
                        } else {
                            old.clone().or(new)
                        }
                    };
                    let headline =
                        string(get(map, "headline")).or_else(|| string(get(map, "name")));
                    self.headline = keep_old(headline, &self.headline);
                    let before = self.author.clone();
                    self.author = keep_old(author_names(get(map, "author")), &self.author);
                    if self.author != before {
                        self.author_org = organisations(get(map, "author"));
                    }
                    self.published = keep_old(string(get(map, "datePublished")), &self.published);
                    self.modified = keep_old(string(get(map, "dateModified")), &self.modified);
                    self.publisher = keep_old(names(get(map, "publisher")), &self.publisher);
                    self.description = keep_old(string(get(map, "description")), &self.description);
                    self.image = keep_old(image(get(map, "image")), &self.image);
                    self.url = keep_old(string(get(map, "url")), &self.url);
                    self.article |= article;
                } else if self.description.is_none() && (article || page) {
                    self.description = string(get(map, "description"));
                }
                if let Some(main) = get(map, "mainEntity").or_else(|| get(map, "mainEntityOfPage"))
                {
                    if matches!(main, Ld::Object(_)) {
                        self.read(main, level + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The `@type` names of a JSON-LD object (a string or an array of strings).
pub(super) fn type_names(v: Option<&Ld>) -> Vec<String> {
    match v {
        Some(Ld::Str(s)) => vec![clean(s)],
        Some(Ld::Array(a)) => a.iter().filter_map(Ld::as_str).map(clean).collect(),
        _ => Vec::new(),
    }
}

/// A string value, cleaned; empty strings give nothing.
pub(super) fn string(v: Option<&Ld>) -> Option<String> {
    match v? {
        Ld::Str(s) => Some(clean(s)).filter(|s| !s.is_empty()),
        Ld::Array(a) => a.iter().find_map(|x| string(Some(x))),
        _ => None,
    }
}

/// Names of people or organisations: strings, `{ "name": … }` objects or arrays of them,
/// joined by `, `.
pub(super) fn names(v: Option<&Ld>) -> Option<String> {
    name_list(v).map(|all| all.join(", "))
}

/// Authors' names as a byline writes them: `A`, `A and B`, `A, B, and C`.
pub(super) fn author_names(v: Option<&Ld>) -> Option<String> {
    let mut all = name_list(v)?;
    all.dedup();
    let last = all.pop()?;
    Some(match all.len() {
        0 => last,
        1 => format!("{} and {last}", all[0]),
        _ => format!("{}, and {last}", all.join(", ")),
    })
}

/// Whether every author is an object typed as an organisation.
pub(super) fn organisations(v: Option<&Ld>) -> bool {
    let org = |x: &Ld| match x {
        Ld::Object(m) => type_names(get(m, "@type"))
            .iter()
            .any(|t| t.ends_with("Organization") || t == "Corporation" || t == "NGO"),
        _ => false,
    };
    match v {
        Some(Ld::Array(a)) => !a.is_empty() && a.iter().all(org),
        Some(x) => org(x),
        None => false,
    }
}

/// The names of people or organisations, in order.
fn name_list(v: Option<&Ld>) -> Option<Vec<String>> {
    let one = |x: &Ld| match x {
        Ld::Str(s) => Some(clean(s)),
        Ld::Object(m) => string(get(m, "name")),
        _ => None,
    };
    let all: Vec<String> = match v? {
        Ld::Array(a) => a.iter().take(32).filter_map(one).collect(),
        x => one(x).into_iter().collect(),
    };
    let all: Vec<String> = all.into_iter().filter(|s| !s.is_empty()).collect();
    (!all.is_empty()).then_some(all)
}

/// An image: a URL string, an `ImageObject` with a `url`, or the first of an array.
pub(super) fn image(v: Option<&Ld>) -> Option<String> {
    match v? {
        Ld::Str(s) => Some(clean(s)).filter(|s| !s.is_empty()),
        Ld::Object(m) => string(get(m, "url")).or_else(|| string(get(m, "contentUrl"))),
        Ld::Array(a) => a.iter().find_map(|x| image(Some(x))),
        _ => None,
    }
}
