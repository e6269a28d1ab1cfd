//! The pages, as askama templates (`templates/`). Every value is escaped
//! as HTML where it is written; `|safe` writes only the pages' own style
//! and script ([`STYLE`], [`SECTION_SCRIPT`]), constants whose hashes the
//! app's `Content-Security-Policy` allows (see [`crate::app_with_attachments`]).

use askama::Template;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{
    fields::{EditForm, FieldErrors, PostForm},
    links,
};
use crate::{
    dto::{
        ArticleIndexRequest, ArticleSnapshot, ArticleSort, ArticleSummary, AttachmentFile,
        BbsArticle, Page,
    },
    store::SectionSummary,
};

/// The style of every page (`templates/base.css`), written in its
/// `<style>` element; the policy allows it by its hash.
pub const STYLE: &str = include_str!("../../templates/base.css");

/// The section page's script (`templates/section.js`), which follows the
/// live feed; written in its `<script>` element, the policy allows it by
/// its hash, and no other inline script runs.
pub const SECTION_SCRIPT: &str = include_str!("../../templates/section.js");

/// How the pages write a time.
fn when(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// `/`: every section that has articles.
#[derive(Template)]
#[template(path = "sections.html")]
pub struct SectionsPage {
    /// The sections, by name.
    pub sections: Vec<SectionRow>,
}

/// A section in the sections page.
pub struct SectionRow {
    /// Its name.
    pub name: String,
    /// Its listing.
    pub url: String,
    /// How many articles it has.
    pub articles: u64,
    /// When its newest article was posted.
    pub latest: String,
}

impl SectionsPage {
    /// The page for `sections`.
    pub fn new(sections: Vec<SectionSummary>) -> Self {
        let sections = sections
            .into_iter()
            .map(|section| SectionRow {
                url: links::section(&section.name),
                latest: when(section.latest),
                articles: section.articles,
                name: section.name,
            })
            .collect();
        SectionsPage { sections }
    }
}

/// `/sections/:section`: a page of a section's articles, searched.
#[derive(Template)]
#[template(path = "section.html")]
pub struct SectionPage {
    /// The section.
    pub section: String,
    /// This page's own URL without a query, the search form's action.
    pub url: String,
    /// The post form.
    pub new_url: String,
    /// The articles of this page.
    pub rows: Vec<ArticleRow>,
    /// This page's number.
    pub page: u32,
    /// Pages in all.
    pub pages: u64,
    /// Articles matching in all.
    pub records: u64,
    /// The previous page, if any.
    pub previous: Option<String>,
    /// The next page, if any.
    pub next: Option<String>,
    /// The search, to fill the search form again.
    pub writer: String,
    /// The title searched.
    pub title: String,
    /// The body searched.
    pub body: String,
    /// The sort key chosen, as the query writes it.
    pub sort: &'static str,
    /// Every sort key, as the query writes it, with its label.
    pub sorts: &'static [(&'static str, &'static str)],
    /// The section's live feed, which the page's script follows.
    pub events_url: String,
    /// The feed's newest event as of this listing: the script follows on
    /// from there, so it misses nothing posted since.
    pub after: u64,
    /// Whether new articles belong at the top of this listing (its first
    /// page, newest first, unfiltered); elsewhere the page only says that
    /// there are new ones.
    pub insert_live: bool,
}

/// An article in a listing.
pub struct ArticleRow {
    /// Its id, which the live feed names.
    pub id: Uuid,
    /// Its current title.
    pub title: String,
    /// Who wrote it.
    pub writer: String,
    /// Its page.
    pub url: String,
    /// When its current version was written.
    pub updated: String,
}

/// The sort keys the search form offers.
const SORTS: &[(&str, &str)] = &[
    ("-created_at", "newest first"),
    ("+created_at", "oldest first"),
    ("-updated_at", "recently updated first"),
    ("+title", "title, A to Z"),
    ("-title", "title, Z to A"),
    ("+writer", "writer, A to Z"),
    ("-writer", "writer, Z to A"),
];

impl SectionPage {
    /// Page `listed` of `section`, as asked by `request`, read when the
    /// feed's newest event was `after`.
    pub fn new(
        section: String,
        request: &ArticleIndexRequest,
        listed: Page<ArticleSummary>,
        after: u64,
    ) -> Self {
        let at = listed.pagination;
        let rows = listed
            .data
            .into_iter()
            .map(|summary| ArticleRow {
                id: summary.id,
                url: links::article(&section, summary.id),
                updated: when(summary.updated_at),
                title: summary.title,
                writer: summary.writer,
            })
            .collect();
        let search = request.search.clone().unwrap_or_default();
        let sort = request.sort.as_deref().and_then(<[ArticleSort]>::first);
        let unfiltered = [&search.writer, &search.title, &search.body]
            .iter()
            .all(|text| text.as_deref().is_none_or(str::is_empty));
        let newest_first = sort.is_none_or(|key| *key == ArticleSort::CreatedAtDesc);
        SectionPage {
            events_url: links::events(&section),
            after,
            insert_live: at.current == 1 && unfiltered && newest_first,
            url: links::section(&section),
            new_url: links::new_article(&section),
            previous: (at.current > 1).then(|| links::listing(&section, request, at.current - 1)),
            next: (u64::from(at.current) < at.pages)
                .then(|| links::listing(&section, request, at.current + 1)),
            rows,
            page: at.current,
            pages: at.pages.max(1),
            records: at.records,
            writer: search.writer.unwrap_or_default(),
            title: search.title.unwrap_or_default(),
            body: search.body.unwrap_or_default(),
            sort: sort.map_or("-created_at", |key| links::sort_key(*key)),
            sorts: SORTS,
            section,
        }
    }
}

/// `/sections/:section/:id`: an article and every version of it.
#[derive(Template)]
#[template(path = "article.html")]
pub struct ArticlePage {
    /// The section.
    pub section: String,
    /// The section's listing.
    pub section_url: String,
    /// Who wrote it.
    pub writer: String,
    /// When it was first posted.
    pub posted: String,
    /// The current version.
    pub current: VersionView,
    /// The earlier versions, newest first.
    pub earlier: Vec<VersionView>,
    /// The edit form.
    pub edit_url: String,
    /// The erase form.
    pub erase_url: String,
}

/// One version of an article.
pub struct VersionView {
    /// Its number, from 1.
    pub number: usize,
    /// Title.
    pub title: String,
    /// Body, shown as text whatever its format.
    pub body: String,
    /// How the body is written.
    pub format: &'static str,
    /// When it was written.
    pub written: String,
    /// Its files.
    pub files: Vec<FileView>,
}

/// An attached file: a link only when its URL is `http` or `https`, so a
/// `javascript:` URL is never clickable.
pub struct FileView {
    /// What to call it.
    pub label: String,
    /// Where it is, when that is a web address.
    pub href: Option<String>,
}

impl FileView {
    fn new(file: &AttachmentFile) -> Self {
        let label = match (&file.name, &file.extension) {
            (Some(name), Some(extension)) => format!("{name}.{extension}"),
            (Some(name), None) => name.clone(),
            _ => file.url.clone(),
        };
        let scheme = file
            .url
            .split_once(':')
            .map(|(scheme, _)| scheme.to_ascii_lowercase());
        let web = matches!(scheme.as_deref(), Some("http" | "https"));
        FileView {
            label,
            href: web.then(|| file.url.clone()),
        }
    }
}

impl VersionView {
    fn new(number: usize, snapshot: &ArticleSnapshot) -> Self {
        VersionView {
            number,
            title: snapshot.title.clone(),
            body: snapshot.body.clone(),
            format: snapshot.format.as_str(),
            written: when(snapshot.created_at),
            files: snapshot.files.iter().map(FileView::new).collect(),
        }
    }
}

impl ArticlePage {
    /// The page of `article`; `None` if it has no version (never stored so).
    pub fn new(article: &BbsArticle) -> Option<Self> {
        let mut versions: Vec<VersionView> = article
            .snapshots
            .iter()
            .enumerate()
            .map(|(n, snapshot)| VersionView::new(n + 1, snapshot))
            .collect();
        let current = versions.pop()?;
        versions.reverse();
        Some(ArticlePage {
            section: article.section.clone(),
            section_url: links::section(&article.section),
            writer: article.writer.clone(),
            posted: when(article.created_at),
            current,
            earlier: versions,
            edit_url: links::edit(&article.section, article.id),
            erase_url: links::erase(&article.section, article.id),
        })
    }
}

/// `/sections/:section/new`: the post form, filled again when refused.
#[derive(Template)]
#[template(path = "post.html")]
pub struct PostPage {
    /// The section.
    pub section: String,
    /// The section's listing.
    pub section_url: String,
    /// Where the form posts.
    pub action: String,
    /// What was sent (never the password).
    pub form: PostForm,
    /// What is wrong, by field.
    pub errors: FieldErrors,
}

impl PostPage {
    /// The form for `section`, showing `form` and `errors`.
    pub fn new(section: String, mut form: PostForm, errors: FieldErrors) -> Self {
        form.password.clear();
        PostPage {
            section_url: links::section(&section),
            action: links::new_article(&section),
            section,
            form,
            errors,
        }
    }
}

/// `/sections/:section/:id/edit`: the edit form.
#[derive(Template)]
#[template(path = "edit.html")]
pub struct EditPage {
    /// The article's page.
    pub article_url: String,
    /// Where the form posts.
    pub action: String,
    /// What was sent, or the current version (never the password).
    pub form: EditForm,
    /// What is wrong, by field.
    pub errors: FieldErrors,
}

impl EditPage {
    /// The edit form of article `id` in `section`.
    pub fn new(section: &str, id: Uuid, mut form: EditForm, errors: FieldErrors) -> Self {
        form.password.clear();
        EditPage {
            article_url: links::article(section, id),
            action: links::edit(section, id),
            form,
            errors,
        }
    }

    /// The form filled with `current`.
    pub fn of(section: &str, id: Uuid, current: &ArticleSnapshot) -> Self {
        let form = EditForm {
            title: current.title.clone(),
            body: current.body.clone(),
            format: current.format.as_str().to_owned(),
            password: String::new(),
        };
        EditPage::new(section, id, form, FieldErrors::default())
    }
}

/// `/sections/:section/:id/erase`: the erase form.
#[derive(Template)]
#[template(path = "erase.html")]
pub struct ErasePage {
    /// The article's current title.
    pub title: String,
    /// The article's page.
    pub article_url: String,
    /// Where the form posts.
    pub action: String,
    /// What is wrong, by field.
    pub errors: FieldErrors,
}

impl ErasePage {
    /// The erase form of article `id`, titled `title`.
    pub fn new(section: &str, id: Uuid, title: String, errors: FieldErrors) -> Self {
        ErasePage {
            title,
            article_url: links::article(section, id),
            action: links::erase(section, id),
            errors,
        }
    }
}
