//! The pages' forms: what a browser posts, checked as the JSON API checks
//! it, and the problems found, by field.

use framework::prelude::*;
use serde_json::{Value, json};

use crate::dto::{ArticleCreate, ArticleUpdate, AttachmentFile};

/// The post form's fields, as a browser sends them: text. Checked as an
/// [`ArticleCreate`] without files, so the page refuses what the JSON API
/// refuses, with the same issue paths (`$input.title`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct PostForm {
    /// Who writes it.
    pub writer: String,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written: `md`, `html` or `txt`.
    pub format: String,
    /// Needed later to update or erase the article.
    pub password: String,
}

impl Default for PostForm {
    fn default() -> Self {
        PostForm {
            writer: String::new(),
            title: String::new(),
            body: String::new(),
            format: "txt".to_owned(),
            password: String::new(),
        }
    }
}

impl PostForm {
    /// The article to post, or each problem by field.
    pub fn checked(&self) -> Result<ArticleCreate, FieldErrors> {
        check(json!({
            "writer": self.writer,
            "title": self.title,
            "body": self.body,
            "format": self.format,
            "files": [],
            "password": self.password,
        }))
    }
}

/// The edit form's fields, as a browser sends them. Checked as an
/// [`ArticleUpdate`] that keeps the current version's files.
#[dto]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditForm {
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written: `md`, `html` or `txt`.
    pub format: String,
    /// The password given when the article was posted.
    pub password: String,
}

impl EditForm {
    /// The new version, with `files` kept, or each problem by field.
    pub fn checked(&self, files: &[AttachmentFile]) -> Result<ArticleUpdate, FieldErrors> {
        check(json!({
            "title": self.title,
            "body": self.body,
            "format": self.format,
            "files": files,
            "password": self.password,
        }))
    }
}

/// The sections page's "open a section" form.
#[dto]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SectionChoice {
    /// The section's name; none, or only spaces, for the sections page.
    #[optional]
    pub name: Option<String>,
}

/// Checks `fields` exactly as a JSON body of the API is checked.
fn check<T: Dto>(fields: Value) -> Result<T, FieldErrors> {
    framework::from_json(fields.to_string().as_bytes()).map_err(|err| FieldErrors::from(&err))
}

/// Problems with a form, each by the name of the field it is about; a
/// problem with no field of the form is listed under `""`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldErrors(Vec<(String, String)>);

impl FieldErrors {
    /// One problem at `field`.
    pub fn one(field: &str, message: impl Into<String>) -> Self {
        FieldErrors(vec![(field.to_owned(), message.into())])
    }

    /// What is wrong with `field`, if anything (several problems joined).
    pub fn at(&self, field: &str) -> Option<String> {
        let messages: Vec<&str> = self
            .0
            .iter()
            .filter(|(name, _)| name == field)
            .map(|(_, message)| message.as_str())
            .collect();
        (!messages.is_empty()).then(|| messages.join("; "))
    }

    /// Whether nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&ApiError> for FieldErrors {
    /// Each issue at the form field its path names: `$input.title` is
    /// `title`, `$input.files[0].url` is `files`.
    fn from(err: &ApiError) -> Self {
        let issues = err.issues();
        if issues.is_empty() {
            return FieldErrors::one("", err.message());
        }
        FieldErrors(
            issues
                .iter()
                .map(|issue| {
                    let message = if issue.value.is_some() {
                        format!("must be {}", plain_expected(&issue.expected))
                    } else {
                        "is required".to_owned()
                    };
                    (field_of(&issue.path).to_owned(), message)
                })
                .collect(),
        )
    }
}

/// The form field an issue path names: the first property under `$input`.
fn field_of(path: &str) -> &str {
    let rest = path.strip_prefix("$input").unwrap_or(path);
    let rest = rest.strip_prefix('.').unwrap_or_default();
    let end = rest.find(['.', '[']).unwrap_or(rest.len());
    &rest[..end]
}

/// A typia type expression in words: `string & MinLength<3> &
/// MaxLength<50>` is `at least 3 and at most 50 characters`, `"md" |
/// "txt"` is `one of md, txt`. Anything else is shown as it is.
fn plain_expected(expected: &str) -> String {
    if expected.contains(" | ") && !expected.contains(['(', '&']) {
        let choices: Vec<&str> = expected
            .split(" | ")
            .map(|choice| choice.trim_matches('"'))
            .collect();
        return format!("one of {}", choices.join(", "));
    }
    let mut words = Vec::new();
    for part in expected.split(" & ") {
        let bound = |tag: &str| {
            part.strip_prefix(tag)
                .and_then(|rest| rest.strip_suffix('>'))
                .map(str::to_owned)
        };
        if let Some(n) = bound("MinLength<") {
            words.push(format!("at least {n}"));
        } else if let Some(n) = bound("MaxLength<") {
            words.push(format!("at most {n}"));
        } else if part != "string" && !part.starts_with("Format<") {
            return expected.to_owned();
        }
    }
    if words.is_empty() {
        expected.to_owned()
    } else {
        format!("{} characters", words.join(" and "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_issue_paths_to_fields() {
        assert_eq!(field_of("$input.title"), "title");
        assert_eq!(field_of("$input.files[0].url"), "files");
        assert_eq!(field_of("$input"), "");
    }

    #[test]
    fn says_what_is_expected_in_words() {
        assert_eq!(
            plain_expected("string & MinLength<3> & MaxLength<50>"),
            "at least 3 and at most 50 characters"
        );
        assert_eq!(
            plain_expected("string & Format<\"password\"> & MaxLength<256>"),
            "at most 256 characters"
        );
        assert_eq!(
            plain_expected("\"md\" | \"html\" | \"txt\""),
            "one of md, html, txt"
        );
        assert_eq!(
            plain_expected("number & Type<\"uint32\">"),
            "number & Type<\"uint32\">"
        );
    }

    #[test]
    fn a_refused_post_names_each_field() {
        let form = PostForm {
            title: "ab".into(),
            format: "doc".into(),
            ..PostForm::default()
        };
        let errors = form.checked().unwrap_err();
        assert_eq!(
            errors.at("title").as_deref(),
            Some("must be at least 3 and at most 50 characters")
        );
        assert_eq!(
            errors.at("format").as_deref(),
            Some("must be one of md, html, txt, adoc")
        );
        assert!(errors.at("writer").is_some(), "{errors:?}");
        assert!(errors.at("body").is_none());
    }
}
