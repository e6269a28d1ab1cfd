//! The pages' URLs, made in one place so links, form actions and redirects
//! agree. Every user-given part is percent-encoded.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use uuid::Uuid;

use crate::dto::{ArticleIndexRequest, ArticleSort};

/// What stays as it is in a path segment or a query value: RFC 3986's
/// unreserved characters.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

fn encoded(text: &str) -> impl std::fmt::Display + '_ {
    utf8_percent_encode(text, UNRESERVED)
}

/// The sections page.
pub const SECTIONS: &str = "/";

/// A section's articles.
pub fn section(section: &str) -> String {
    format!("/sections/{}", encoded(section))
}

/// The live feed of a section's changes (the JSON API's event stream).
pub fn events(section: &str) -> String {
    format!("/bbs/articles/{}/events", encoded(section))
}

/// The form that posts a new article into `section`.
pub fn new_article(section: &str) -> String {
    format!("/sections/{}/new", encoded(section))
}

/// An article with its history.
pub fn article(section: &str, id: Uuid) -> String {
    format!("/sections/{}/{id}", encoded(section))
}

/// The form that edits an article.
pub fn edit(section: &str, id: Uuid) -> String {
    format!("{}/edit", article(section, id))
}

/// The form that erases an article.
pub fn erase(section: &str, id: Uuid) -> String {
    format!("{}/erase", article(section, id))
}

/// Page `page` of a section's listing with the same search and sort.
pub fn listing(section_name: &str, request: &ArticleIndexRequest, page: u32) -> String {
    let mut url = format!("{}?page={page}", section(section_name));
    if let Some(limit) = request.limit {
        url.push_str(&format!("&limit={limit}"));
    }
    if let Some(search) = &request.search {
        for (field, value) in [
            ("writer", &search.writer),
            ("title", &search.title),
            ("body", &search.body),
        ] {
            if let Some(value) = value.as_deref().filter(|value| !value.is_empty()) {
                url.push_str(&format!("&search%5B{field}%5D={}", encoded(value)));
            }
        }
    }
    for (n, key) in request.sort.iter().flatten().enumerate() {
        url.push_str(&format!("&sort%5B{n}%5D={}", encoded(sort_key(*key))));
    }
    url
}

/// A sort key as the query writes it: `-created_at`.
pub fn sort_key(key: ArticleSort) -> &'static str {
    match key {
        ArticleSort::WriterAsc => "+writer",
        ArticleSort::WriterDesc => "-writer",
        ArticleSort::TitleAsc => "+title",
        ArticleSort::TitleDesc => "-title",
        ArticleSort::CreatedAtAsc => "+created_at",
        ArticleSort::CreatedAtDesc => "-created_at",
        ArticleSort::UpdatedAtAsc => "+updated_at",
        ArticleSort::UpdatedAtDesc => "-updated_at",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::ArticleSearch;

    #[test]
    fn encodes_every_user_given_part() {
        assert_eq!(section("a/b <c>"), "/sections/a%2Fb%20%3Cc%3E");
        let id = Uuid::nil();
        assert_eq!(
            edit("free", id),
            "/sections/free/00000000-0000-0000-0000-000000000000/edit"
        );
    }

    #[test]
    fn a_listing_link_keeps_search_and_sort() {
        let request = ArticleIndexRequest {
            search: Some(ArticleSearch {
                title: Some("a&b=c".into()),
                writer: Some(String::new()),
                body: None,
            }),
            sort: Some(vec![ArticleSort::TitleAsc]),
            ..ArticleIndexRequest::default()
        };
        assert_eq!(
            listing("free", &request, 2),
            "/sections/free?page=2&search%5Btitle%5D=a%26b%3Dc&sort%5B0%5D=%2Btitle"
        );
    }
}
