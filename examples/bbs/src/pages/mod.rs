//! The web front-end: HTML pages rendered with askama and HTML forms,
//! under `/` and `/sections/...`, beside the JSON API. The pages are left
//! out of the SDKs (`sdk = false`).
//!
//! A form is read with `TypedForm` as text fields and checked as the JSON
//! API's DTO ([`fields`]), so a refused form is shown again (`400`) with
//! each problem at its field; a form that is accepted answers `303 See
//! Other` to the page to see next.

pub mod fields;
pub mod links;
pub mod views;

use framework::prelude::*;
use uuid::Uuid;

use crate::{
    attachments::Attachments,
    controller::{article_not_found, password_matches},
    dto::{ArticleErase, ArticleIndexRequest, BbsArticle},
    store::ArticleStore,
};
use fields::{EditForm, FieldErrors, PostForm, SectionChoice};
use views::{ArticlePage, EditPage, ErasePage, PostPage, SectionPage, SectionsPage};

/// Articles per listed page unless the query asks.
const PAGE_LIMIT: u32 = 20;

/// What the post form answers.
#[derive(IntoResponse)]
pub enum Posted {
    /// Posted: see the article.
    #[status(303)]
    Done(Redirect),
    /// Refused: the form again, each problem at its field.
    #[status(400)]
    Refused(Html<PostPage>),
}

/// What the edit form answers.
#[derive(IntoResponse)]
pub enum Edited {
    /// Saved as a new version: see the article.
    #[status(303)]
    Done(Redirect),
    /// Refused: the form again, each problem at its field.
    #[status(400)]
    Refused(Html<EditPage>),
    /// The password does not match: the form again.
    #[status(403)]
    WrongPassword(Html<EditPage>),
}

/// What the erase form answers.
#[derive(IntoResponse)]
pub enum Erased {
    /// Erased: see the section.
    #[status(303)]
    Done(Redirect),
    /// The password does not match: the form again.
    #[status(403)]
    WrongPassword(Html<ErasePage>),
}

/// The BBS in a browser.
pub struct BbsPagesController {
    store: ArticleStore,
    attachments: Attachments,
}

impl BbsPagesController {
    /// Pages over `store`.
    pub fn new(store: ArticleStore) -> Self {
        BbsPagesController {
            store,
            attachments: Attachments::unconfigured(),
        }
    }

    /// Removes an erased article's uploaded files from `attachments`.
    pub fn with_attachments(mut self, attachments: Attachments) -> Self {
        self.attachments = attachments;
        self
    }

    /// The article, or `404`.
    async fn article(&self, section: &str, id: Uuid) -> Result<BbsArticle, ApiError> {
        self.store
            .find(section, id)
            .await?
            .ok_or_else(|| article_not_found(section, id))
    }
}

/// The message shown at the password field when it does not match.
const WRONG_PASSWORD: &str = "does not match the password the article was posted with";

#[controller("")]
impl BbsPagesController {
    /// The sections page: every section that has articles.
    #[typed_route::get("", sdk = false, errors(503 = "The article store is unavailable."))]
    async fn sections_page(&self) -> Result<Html<SectionsPage>, ApiError> {
        Ok(Html(SectionsPage::new(self.store.sections().await?)))
    }

    /// Opens the section the sections page's form names.
    #[typed_route::get("sections", sdk = false)]
    async fn open_section(&self, query: TypedQuery<SectionChoice>) -> Redirect {
        match query.into_inner().name.as_deref().map(str::trim) {
            Some(name) if !name.is_empty() => Redirect::see_other(links::section(name)),
            _ => Redirect::see_other(links::SECTIONS),
        }
    }

    /// A page of a section's articles, searched and sorted as the JSON
    /// listing is (`?page=2&search[title]=rust&sort[0]=-created_at`). A
    /// small script follows the section's live feed: new articles appear
    /// at the top of the first page, edited titles change, erased articles
    /// go.
    #[typed_route::get(
        "sections/:section",
        sdk = false,
        errors(503 = "The article store is unavailable.")
    )]
    async fn section_page(
        &self,
        #[param] section: String,
        query: TypedQuery<ArticleIndexRequest>,
    ) -> Result<Html<SectionPage>, ApiError> {
        let request = query.into_inner();
        let page = request.page.unwrap_or(1);
        let limit = request.limit.unwrap_or(PAGE_LIMIT);
        let (listed, after) = self
            .store
            .index_at_position(&section, &request, page, limit)
            .await?;
        Ok(Html(SectionPage::new(section, &request, listed, after)))
    }

    /// The form that posts a new article into the section.
    #[typed_route::get("sections/:section/new", sdk = false)]
    async fn post_form(&self, #[param] section: String) -> Html<PostPage> {
        Html(PostPage::new(
            section,
            PostForm::default(),
            FieldErrors::default(),
        ))
    }

    /// Posts the form's article, then shows it (`303`); a refused form is
    /// shown again with each problem at its field (`400`).
    #[typed_route::post(
        "sections/:section/new",
        sdk = false,
        errors(503 = "The article store is unavailable.")
    )]
    async fn post(
        &self,
        #[param] section: String,
        form: TypedForm<PostForm>,
    ) -> Result<Posted, ApiError> {
        let form = form.into_inner();
        let mut input = match form.checked() {
            Ok(input) => input,
            Err(errors) => return Ok(Posted::Refused(Html(PostPage::new(section, form, errors)))),
        };
        let hash = crate::password::hash(std::mem::take(&mut input.password)).await?;
        let article = self.store.create(&section, input, hash).await?;
        Ok(Posted::Done(Redirect::see_other(links::article(
            &section, article.id,
        ))))
    }

    /// An article with its whole history, newest version first.
    #[typed_route::get(
        "sections/:section/:id",
        sdk = false,
        errors(404 = "No such article in this section.", 503 = "The article store is unavailable.")
    )]
    async fn article_page(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
    ) -> Result<Html<ArticlePage>, ApiError> {
        let article = self.article(&section, id).await?;
        ArticlePage::new(&article)
            .map(Html)
            .ok_or_else(|| ApiError::internal(format_args!("article {id} has no version")))
    }

    /// The form that edits an article, filled with its current version.
    #[typed_route::get(
        "sections/:section/:id/edit",
        sdk = false,
        errors(404 = "No such article in this section.", 503 = "The article store is unavailable.")
    )]
    async fn edit_form(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
    ) -> Result<Html<EditPage>, ApiError> {
        let article = self.article(&section, id).await?;
        let current = article
            .snapshots
            .last()
            .ok_or_else(|| ApiError::internal(format_args!("article {id} has no version")))?;
        Ok(Html(EditPage::of(&section, id, current)))
    }

    /// Saves the form as the article's new version, keeping its files,
    /// then shows it (`303`); a refused form (`400`) or a wrong password
    /// (`403`) shows the form again with the problem at its field.
    #[typed_route::post(
        "sections/:section/:id/edit",
        sdk = false,
        errors(404 = "No such article in this section.", 503 = "The article store is unavailable.")
    )]
    async fn edit(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        form: TypedForm<EditForm>,
    ) -> Result<Edited, ApiError> {
        let form = form.into_inner();
        let article = self.article(&section, id).await?;
        let files = article.snapshots.last().map(|s| s.files.as_slice());
        let mut input = match form.checked(files.unwrap_or_default()) {
            Ok(input) => input,
            Err(errors) => {
                return Ok(Edited::Refused(Html(EditPage::new(
                    &section, id, form, errors,
                ))));
            }
        };
        let password = std::mem::take(&mut input.password);
        if !password_matches(&self.store, &section, id, password).await? {
            let errors = FieldErrors::one("password", WRONG_PASSWORD);
            return Ok(Edited::WrongPassword(Html(EditPage::new(
                &section, id, form, errors,
            ))));
        }
        self.store
            .append_snapshot(&section, id, input)
            .await?
            .ok_or_else(|| article_not_found(&section, id))?;
        Ok(Edited::Done(Redirect::see_other(links::article(
            &section, id,
        ))))
    }

    /// The form that erases an article.
    #[typed_route::get(
        "sections/:section/:id/erase",
        sdk = false,
        errors(404 = "No such article in this section.", 503 = "The article store is unavailable.")
    )]
    async fn erase_form(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
    ) -> Result<Html<ErasePage>, ApiError> {
        let title = current_title(&self.article(&section, id).await?);
        Ok(Html(ErasePage::new(
            &section,
            id,
            title,
            FieldErrors::default(),
        )))
    }

    /// Erases the article and its history with the writer's password, then
    /// shows the section (`303`); a wrong password shows the form again
    /// (`403`).
    #[typed_route::post(
        "sections/:section/:id/erase",
        sdk = false,
        errors(404 = "No such article in this section.", 503 = "The article store is unavailable.")
    )]
    async fn erase(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        form: TypedForm<ArticleErase>,
    ) -> Result<Erased, ApiError> {
        let article = self.article(&section, id).await?;
        if !password_matches(&self.store, &section, id, form.into_inner().password).await? {
            let errors = FieldErrors::one("password", WRONG_PASSWORD);
            let page = ErasePage::new(&section, id, current_title(&article), errors);
            return Ok(Erased::WrongPassword(Html(page)));
        }
        if !self.store.erase(&section, id).await? {
            return Err(article_not_found(&section, id));
        }
        self.attachments.remove_article(id).await;
        Ok(Erased::Done(Redirect::see_other(links::section(&section))))
    }
}

/// The title of the article's current version.
fn current_title(article: &BbsArticle) -> String {
    article
        .snapshots
        .last()
        .map(|snapshot| snapshot.title.clone())
        .unwrap_or_default()
}
