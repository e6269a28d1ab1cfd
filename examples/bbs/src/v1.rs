//! The DTOs of API version 1.0.0 that differ from version 2's ([`dto`]).
//!
//! # What changed in 2.0.0
//!
//! Version 2.0.0 adds a fourth [`ArticleFormat`](dto::ArticleFormat):
//! AsciiDoc, `"adoc"` on the wire. Adding a value to an enum that answers
//! carry is a breaking change: a version-1 client that checks answers, or
//! matches on the format exhaustively, would fail on an article written in
//! AsciiDoc. So every type that holds a format is kept here as version 1
//! declared it, under the same name and with the same doc comments, so
//! that version 1's OpenAPI document and SDKs stay exactly as released:
//! the format itself, the snapshot and the article that answers carry, and
//! the new article and new version that requests carry (whose `format`
//! would otherwise refer to version 2's `ArticleFormat`, a second schema of
//! that name in version 1's document). Every other type is shared.
//!
//! # How version-1 clients are served
//!
//! The handlers work with version 2's types only. A version-1 request is
//! converted to version 2 (`From<v1::ArticleCreate> for
//! dto::ArticleCreate`, always possible: version 2 accepts every version-1
//! format), and the handler's answer back to version 1
//! (`From<dto::BbsArticle> for v1::BbsArticle`), where an AsciiDoc body is
//! shown as plain text (see [`ArticleFormat`]'s `From`). The compiler
//! checks that each conversion covers every field and every format.

use chrono::{DateTime, Utc};
use framework::prelude::*;
use uuid::Uuid;

use crate::dto::{self, AttachmentFile};

/// How an article's body is written.
#[dto]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ArticleFormat {
    /// Markdown.
    Md,
    /// HTML.
    Html,
    /// Plain text.
    Txt,
}

/// One version of an article's content.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleSnapshot {
    /// Snapshot id.
    pub id: Uuid,
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    #[tags(max_items = 100)]
    pub files: Vec<AttachmentFile>,
    /// When this version was written.
    pub created_at: DateTime<Utc>,
}

/// An article with its whole history.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct BbsArticle {
    /// Article id.
    pub id: Uuid,
    /// The section it was posted in.
    pub section: String,
    /// Who wrote it.
    pub writer: String,
    /// Every version, oldest first; the last is the current one.
    pub snapshots: Vec<ArticleSnapshot>,
    /// When it was first posted.
    pub created_at: DateTime<Utc>,
}

/// A new article.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleCreate {
    /// Who writes it.
    #[tags(min_length = 1, max_length = 50)]
    pub writer: String,
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    #[tags(max_items = 100)]
    pub files: Vec<AttachmentFile>,
    /// Needed later to update or erase the article; stored hashed.
    #[tags(format = "password", min_length = 1, max_length = 256)]
    pub password: String,
}

/// A new version of an article.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleUpdate {
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    #[tags(max_items = 100)]
    pub files: Vec<AttachmentFile>,
    /// The password given when the article was created.
    #[tags(format = "password", max_length = 256)]
    pub password: String,
}

/// A format as version 1 shows it. AsciiDoc, which version 1 does not
/// know, is shown as plain text: an AsciiDoc body is readable as it is
/// written, and version 1's other formats would tell a client to
/// interpret it as markup it is not (Markdown would mangle its syntax,
/// HTML would be rendered or refused). The body is unchanged; only the
/// label is. A version-1 client that then updates the article sends
/// `txt` back, and the new version is stored as plain text.
impl From<dto::ArticleFormat> for ArticleFormat {
    fn from(format: dto::ArticleFormat) -> Self {
        match format {
            dto::ArticleFormat::Md => ArticleFormat::Md,
            dto::ArticleFormat::Html => ArticleFormat::Html,
            dto::ArticleFormat::Txt | dto::ArticleFormat::Adoc => ArticleFormat::Txt,
        }
    }
}

/// A version-1 format is the version-2 format of the same name.
impl From<ArticleFormat> for dto::ArticleFormat {
    fn from(format: ArticleFormat) -> Self {
        match format {
            ArticleFormat::Md => dto::ArticleFormat::Md,
            ArticleFormat::Html => dto::ArticleFormat::Html,
            ArticleFormat::Txt => dto::ArticleFormat::Txt,
        }
    }
}

impl From<dto::ArticleSnapshot> for ArticleSnapshot {
    fn from(snapshot: dto::ArticleSnapshot) -> Self {
        let dto::ArticleSnapshot {
            id,
            title,
            body,
            format,
            files,
            created_at,
        } = snapshot;
        ArticleSnapshot {
            id,
            title,
            body,
            format: format.into(),
            files,
            created_at,
        }
    }
}

impl From<dto::BbsArticle> for BbsArticle {
    fn from(article: dto::BbsArticle) -> Self {
        let dto::BbsArticle {
            id,
            section,
            writer,
            snapshots,
            created_at,
        } = article;
        BbsArticle {
            id,
            section,
            writer,
            snapshots: snapshots.into_iter().map(ArticleSnapshot::from).collect(),
            created_at,
        }
    }
}

impl From<ArticleCreate> for dto::ArticleCreate {
    fn from(input: ArticleCreate) -> Self {
        let ArticleCreate {
            writer,
            title,
            body,
            format,
            files,
            password,
        } = input;
        dto::ArticleCreate {
            writer,
            title,
            body,
            format: format.into(),
            files,
            password,
        }
    }
}

impl From<ArticleUpdate> for dto::ArticleUpdate {
    fn from(input: ArticleUpdate) -> Self {
        let ArticleUpdate {
            title,
            body,
            format,
            files,
            password,
        } = input;
        dto::ArticleUpdate {
            title,
            body,
            format: format.into(),
            files,
            password,
        }
    }
}

#[cfg(test)]
mod tests {
    use framework::schema::{Registry, ToSchema, TypeDef, TypeKind, schema_of};
    use serde_json::json;

    use super::*;

    fn snapshot(format: dto::ArticleFormat) -> dto::ArticleSnapshot {
        dto::ArticleSnapshot {
            id: Uuid::from_u128(1),
            title: "Title".to_owned(),
            body: "= A document\n\nIn *AsciiDoc*.".to_owned(),
            format,
            files: vec![AttachmentFile {
                name: Some("logo".to_owned()),
                extension: Some("png".to_owned()),
                url: "https://example.com/logo.png".to_owned(),
            }],
            created_at: DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
        }
    }

    #[test]
    fn asciidoc_is_shown_to_version_1_as_plain_text() {
        assert_eq!(
            ArticleFormat::from(dto::ArticleFormat::Adoc),
            ArticleFormat::Txt
        );
    }

    #[test]
    fn version_1_formats_go_to_version_2_and_back_unchanged() {
        for (old, new) in [
            (ArticleFormat::Md, dto::ArticleFormat::Md),
            (ArticleFormat::Html, dto::ArticleFormat::Html),
            (ArticleFormat::Txt, dto::ArticleFormat::Txt),
        ] {
            assert_eq!(dto::ArticleFormat::from(old), new);
            assert_eq!(ArticleFormat::from(new), old);
            let wire = serde_json::to_value(old).unwrap();
            assert_eq!(wire, serde_json::to_value(new).unwrap(), "same wire name");
        }
    }

    #[test]
    fn version_1_refuses_asciidoc() {
        assert!(serde_json::from_value::<ArticleFormat>(json!("adoc")).is_err());
        assert_eq!(
            serde_json::from_value::<dto::ArticleFormat>(json!("adoc")).unwrap(),
            dto::ArticleFormat::Adoc
        );
    }

    #[test]
    fn a_snapshot_keeps_everything_but_an_unknown_format() {
        let new = snapshot(dto::ArticleFormat::Adoc);
        let old = ArticleSnapshot::from(new.clone());
        assert_eq!(old.format, ArticleFormat::Txt);
        assert_eq!(
            (old.id, &old.title, &old.body, &old.files, old.created_at),
            (new.id, &new.title, &new.body, &new.files, new.created_at)
        );
    }

    #[test]
    fn an_article_converts_each_snapshot_in_order() {
        let new = dto::BbsArticle {
            id: Uuid::from_u128(2),
            section: "free".to_owned(),
            writer: "Robert".to_owned(),
            snapshots: vec![
                snapshot(dto::ArticleFormat::Md),
                snapshot(dto::ArticleFormat::Adoc),
            ],
            created_at: DateTime::from_timestamp(1_600_000_000, 0).unwrap(),
        };
        let old = BbsArticle::from(new.clone());
        assert_eq!(
            (old.id, &old.section, &old.writer, old.created_at),
            (new.id, &new.section, &new.writer, new.created_at)
        );
        let formats: Vec<_> = old.snapshots.iter().map(|s| s.format).collect();
        assert_eq!(formats, [ArticleFormat::Md, ArticleFormat::Txt]);
        assert_eq!(
            old.snapshots[1],
            ArticleSnapshot::from(new.snapshots[1].clone())
        );
    }

    #[test]
    fn version_1_inputs_become_version_2_inputs() {
        let create = ArticleCreate {
            writer: "Robert".to_owned(),
            title: "Title".to_owned(),
            body: "Body".to_owned(),
            format: ArticleFormat::Html,
            files: snapshot(dto::ArticleFormat::Md).files,
            password: "correct horse".to_owned(),
        };
        let wire = serde_json::to_value(&create).unwrap();
        let converted = dto::ArticleCreate::from(create);
        assert_eq!(serde_json::to_value(&converted).unwrap(), wire);
        let update = ArticleUpdate {
            title: "Title".to_owned(),
            body: "Body".to_owned(),
            format: ArticleFormat::Md,
            files: vec![],
            password: "correct horse".to_owned(),
        };
        let wire = serde_json::to_value(&update).unwrap();
        let converted = dto::ArticleUpdate::from(update);
        assert_eq!(serde_json::to_value(&converted).unwrap(), wire);
    }

    /// The named types `T` refers to, itself included, by name, without
    /// their Rust paths (`bbs::v1::…` here, `bbs::dto::…` there), which
    /// OpenAPI does not show.
    fn defs_of<T: ToSchema + 'static>() -> Vec<TypeDef> {
        let built = schema_of::<T>();
        let registry: &Registry = &built.registry;
        let mut defs: Vec<TypeDef> = registry
            .defs()
            .map(|(_, def)| TypeDef {
                rust_name: "",
                ..def.clone()
            })
            .collect();
        defs.sort_by(|a, b| a.name.cmp(&b.name));
        defs
    }

    /// Version 2's definitions with AsciiDoc taken out of the format: what
    /// version 1's must be, names and doc comments included.
    fn without_asciidoc(mut defs: Vec<TypeDef>) -> Vec<TypeDef> {
        for def in &mut defs {
            if let TypeKind::StringEnum(values) = &mut def.kind {
                values.retain(|value| value.value != "adoc");
            }
        }
        defs
    }

    #[test]
    fn version_1_schemas_are_version_2_without_asciidoc() {
        assert_eq!(
            defs_of::<BbsArticle>(),
            without_asciidoc(defs_of::<dto::BbsArticle>())
        );
        assert_eq!(
            defs_of::<ArticleCreate>(),
            without_asciidoc(defs_of::<dto::ArticleCreate>())
        );
        assert_eq!(
            defs_of::<ArticleUpdate>(),
            without_asciidoc(defs_of::<dto::ArticleUpdate>())
        );
        let names: Vec<_> = defs_of::<BbsArticle>()
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert_eq!(
            names,
            [
                "ArticleFormat",
                "ArticleSnapshot",
                "AttachmentFile",
                "BbsArticle"
            ]
        );
    }
}
