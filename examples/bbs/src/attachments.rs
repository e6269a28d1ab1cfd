//! `/bbs/articles/:section/:id/files`: files uploaded to an article. The
//! bytes are kept in the attachments directory (`BBS_ATTACHMENTS_DIR`, at
//! `<article id>/<file id>`), what the upload said of them in the database;
//! a new snapshot lists them in the article's `files` with their URL, and
//! they are served back streamed, with the media type given at upload.

use std::path::{Path, PathBuf};

use framework::{FileRequest, FormLimits, StreamedFile, prelude::*};
use http::StatusCode;
use uuid::Uuid;

use crate::{
    controller::{article_not_found, password_matches},
    dto::{ArticleFilesUpload, ArticleSnapshot, AttachmentFile},
    store::{ArticleStore, Attached, Upload},
};

/// `BBS_ATTACHMENT_MAX_BYTES` unless set: 10 MiB per file.
pub const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// `BBS_ATTACHMENT_MAX_FILES` unless set: files per upload.
pub const DEFAULT_MAX_FILES: u64 = 10;

/// `BBS_ATTACHMENT_TYPES` unless set: pictures, PDF and plain text.
pub const DEFAULT_TYPES: &str =
    "image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain";

/// The most files a snapshot lists (`ArticleSnapshot::files`).
const MAX_LISTED: usize = 100;

/// Where uploaded files go and what an upload may hold, from the
/// environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttachmentConfig {
    /// `BBS_ATTACHMENTS_DIR`. Unset: beside a SQLite database file
    /// (`bbs.db` keeps them in `bbs-attachments/`); with PostgreSQL it must
    /// be set, to the directory every replica shares.
    pub dir: Option<PathBuf>,
    /// `BBS_ATTACHMENT_MAX_BYTES`: the largest file, default
    /// [`DEFAULT_MAX_BYTES`] (at most 100 MiB, the form's own limit).
    pub max_bytes: u64,
    /// `BBS_ATTACHMENT_MAX_FILES`: files per upload, default
    /// [`DEFAULT_MAX_FILES`] (at most 20).
    pub max_files: u64,
    /// `BBS_ATTACHMENT_TYPES`: accepted media types, comma-separated
    /// (`image/*` allowed), default [`DEFAULT_TYPES`].
    pub types: Vec<String>,
}

impl Default for AttachmentConfig {
    fn default() -> Self {
        AttachmentConfig {
            dir: None,
            max_bytes: DEFAULT_MAX_BYTES,
            max_files: DEFAULT_MAX_FILES,
            types: media_types(DEFAULT_TYPES),
        }
    }
}

fn media_types(list: &str) -> Vec<String> {
    list.split(',')
        .map(|entry| entry.trim().to_ascii_lowercase())
        .filter(|entry| !entry.is_empty())
        .collect()
}

impl AttachmentConfig {
    /// Reads the `BBS_ATTACHMENT*` variables.
    ///
    /// # Errors
    /// A limit that is not a positive number, or a type list with an entry
    /// that is not `type/subtype`.
    pub fn from_env() -> Result<Self, String> {
        let number = |name: &str, default: u64| match std::env::var(name) {
            Ok(text) => match text.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("{name} must be a positive number, got {text:?}")),
            },
            Err(_) => Ok(default),
        };
        let types = match std::env::var("BBS_ATTACHMENT_TYPES") {
            Ok(list) => media_types(&list),
            Err(_) => media_types(DEFAULT_TYPES),
        };
        if let Some(bad) = types.iter().find(|entry| {
            entry
                .split_once('/')
                .is_none_or(|(kind, subtype)| kind.is_empty() || subtype.is_empty())
        }) {
            return Err(format!(
                "BBS_ATTACHMENT_TYPES lists {bad:?}, which is not a media type (`image/png`, `image/*`)"
            ));
        }
        Ok(AttachmentConfig {
            dir: std::env::var_os("BBS_ATTACHMENTS_DIR").map(PathBuf::from),
            max_bytes: number("BBS_ATTACHMENT_MAX_BYTES", DEFAULT_MAX_BYTES)?,
            max_files: number("BBS_ATTACHMENT_MAX_FILES", DEFAULT_MAX_FILES)?,
            types,
        })
    }

    /// The directory uploads go to: `dir`, or beside the SQLite database
    /// file of `database_url`.
    ///
    /// # Errors
    /// No `dir` with a database that is not a SQLite file.
    pub fn directory(&self, database_url: &str) -> Result<PathBuf, String> {
        if let Some(dir) = &self.dir {
            return Ok(dir.clone());
        }
        beside_database(database_url).ok_or_else(|| {
            "set BBS_ATTACHMENTS_DIR: with this DATABASE_URL there is no database file to keep uploads beside (with PostgreSQL, name the directory every replica shares)".to_owned()
        })
    }
}

/// `bbs-attachments` beside `sqlite://bbs.db`.
fn beside_database(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = Path::new(rest.split('?').next()?);
    let stem = path.file_stem()?.to_str()?;
    if stem.is_empty() || rest.starts_with(":memory:") {
        return None;
    }
    Some(path.with_file_name(format!("{stem}-attachments")))
}

/// Where an app keeps uploaded files, and the limits of an upload.
#[derive(Clone, Debug)]
pub struct Attachments {
    /// `None`: uploads are off (`503`).
    dir: Option<PathBuf>,
    config: AttachmentConfig,
}

impl Attachments {
    /// Files kept under `dir`, with `config`'s limits (its `dir` unused).
    pub fn new(dir: impl Into<PathBuf>, config: AttachmentConfig) -> Self {
        Attachments {
            dir: Some(dir.into()),
            config,
        }
    }

    /// No directory: uploads and downloads answer `503`.
    pub fn unconfigured() -> Self {
        Attachments {
            dir: None,
            config: AttachmentConfig::default(),
        }
    }

    /// The limits the upload form is held to as its files arrive.
    pub fn form_limits(&self) -> FormLimits<ArticleFilesUpload> {
        FormLimits::new()
            .max_size("files", self.config.max_bytes)
            .max_items("files", self.config.max_files)
            .accept("files", self.config.types.iter().cloned())
    }

    fn dir(&self) -> Result<&Path, ApiError> {
        self.dir.as_deref().ok_or_else(|| {
            ApiError::unavailable("uploads are off: the server has no attachments directory")
        })
    }

    /// The directory of an article's files.
    fn article_dir(&self, article: Uuid) -> Result<PathBuf, ApiError> {
        Ok(self.dir()?.join(article.to_string()))
    }

    /// Removes an erased article's files.
    pub(crate) async fn remove_article(&self, article: Uuid) {
        let Ok(dir) = self.article_dir(article) else {
            return;
        };
        match tokio::fs::remove_dir_all(&dir).await {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                tracing::warn!(%err, dir = %dir.display(), "removing an erased article's files")
            }
        }
    }
}

/// Files uploaded to articles.
pub struct BbsArticleFilesController {
    store: ArticleStore,
    attachments: Attachments,
}

impl BbsArticleFilesController {
    /// A controller over `store`, keeping files as `attachments` says.
    pub fn new(store: ArticleStore, attachments: Attachments) -> Self {
        BbsArticleFilesController { store, attachments }
    }

    /// Writes the files into the article's directory, named by new ids.
    async fn store_files(
        &self,
        section: &str,
        id: Uuid,
        files: Vec<File>,
    ) -> Result<(Vec<Upload>, Vec<PathBuf>), ApiError> {
        let dir = self.attachments.article_dir(id)?;
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(ApiError::internal)?;
        let section_segment = percent_encoding::utf8_percent_encode(section, SEGMENT);
        let (mut uploads, mut written) = (Vec::new(), Vec::new());
        for file in files {
            let upload_id = Uuid::new_v4();
            let name = file.file_name().unwrap_or_default().to_owned();
            let (stem, extension) = split_name(&name);
            let upload = Upload {
                id: upload_id,
                media_type: file.media_type().to_owned(),
                size: file.size(),
                listed: AttachmentFile {
                    name: stem,
                    extension,
                    url: format!("/bbs/articles/{section_segment}/{id}/files/{upload_id}"),
                },
                name,
            };
            let path = dir.join(upload_id.to_string());
            if let Err(err) = file.persist(&path).await {
                remove(&written).await;
                return Err(ApiError::internal(err));
            }
            written.push(path);
            uploads.push(upload);
        }
        Ok((uploads, written))
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

async fn remove(paths: &[PathBuf]) {
    for path in paths {
        if let Err(err) = tokio::fs::remove_file(path).await {
            tracing::warn!(%err, path = %path.display(), "removing a file not attached");
        }
    }
}

/// `photo.png` as `photo` and `png`, within `AttachmentFile`'s lengths: a
/// name of up to 255 characters, an extension of up to 8 (a longer one
/// stays in the name).
fn split_name(name: &str) -> (Option<String>, Option<String>) {
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension))
            if !stem.is_empty() && !extension.is_empty() && extension.chars().count() <= 8 =>
        {
            (stem, Some(extension.to_owned()))
        }
        _ => (name, None),
    };
    let stem: String = stem.chars().take(255).collect();
    ((!stem.is_empty()).then_some(stem), extension)
}

#[controller("bbs/articles/:section/:id/files")]
impl BbsArticleFilesController {
    /// Attach files to an article; needs the writer's password.
    ///
    /// The files are stored, and a new snapshot of the article's current
    /// content lists them after its current files, each with its URL
    /// (`/bbs/articles/<section>/<id>/files/<file>`): history is never
    /// rewritten. The server's limits (`BBS_ATTACHMENT_MAX_BYTES`,
    /// `BBS_ATTACHMENT_MAX_FILES`, `BBS_ATTACHMENT_TYPES`) apply as the
    /// files arrive.
    #[typed_route::post(
        "",
        errors(
            403 = "The password does not match the article's.",
            404 = "No such article in this section.",
            409 = "The article would list more than 100 files.",
            503 = "The article store is unavailable, or uploads are off."
        ),
        versions = "2.0.0"..
    )]
    #[typed_route::converted(versions = .."2.0.0", answer = crate::v1::ArticleSnapshot)]
    async fn upload(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        form: TypedFormData<ArticleFilesUpload>,
    ) -> Result<ArticleSnapshot, ApiError> {
        let form = form.into_inner();
        self.attachments.dir()?;
        if !password_matches(&self.store, &section, id, form.password).await? {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_password",
                "the password does not match the article's",
            ));
        }
        let (uploads, written) = self.store_files(&section, id, form.files).await?;
        let attached = self.store.attach(&section, id, &uploads, MAX_LISTED).await;
        match attached {
            Ok(Attached::Snapshot(snapshot)) => Ok(snapshot),
            other => {
                remove(&written).await;
                Err(match other {
                    Ok(Attached::TooMany(listed)) => ApiError::new(
                        StatusCode::CONFLICT,
                        "too_many_files",
                        format!(
                            "the article lists {listed} files; with these it would list more than {MAX_LISTED}"
                        ),
                    ),
                    Err(err) => err.into(),
                    _ => article_not_found(&section, id),
                })
            }
        }
    }

    /// Download a file uploaded to an article, streamed from disk with the
    /// media type it was uploaded with (`Range` and `If-None-Match`
    /// honoured).
    #[typed_route::get(
        ":file",
        errors(
            404 = "No such file of this article.",
            503 = "The article store is unavailable, or uploads are off."
        )
    )]
    async fn download(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        #[param] file: Uuid,
        request: FileRequest,
    ) -> Result<StreamedFile, ApiError> {
        let (name, media_type) = self
            .store
            .upload(&section, id, file)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no file {file} of article {id}")))?;
        let path = self.attachments.article_dir(id)?.join(file.to_string());
        let streamed = StreamedFile::open(path, &request).await?;
        Ok(streamed.media_type(media_type).attachment(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_name_and_extension() {
        let split = |name: &str| split_name(name);
        assert_eq!(
            split("photo.png"),
            (Some("photo".into()), Some("png".into()))
        );
        assert_eq!(
            split("archive.tar.gz"),
            (Some("archive.tar".into()), Some("gz".into()))
        );
        assert_eq!(split("README"), (Some("README".into()), None));
        assert_eq!(split(".bashrc"), (Some(".bashrc".into()), None));
        assert_eq!(
            split("x.toolongextension"),
            (Some("x.toolongextension".into()), None)
        );
        assert_eq!(split(""), (None, None));
        assert_eq!(split(&"n".repeat(300)).0.unwrap().chars().count(), 255);
    }

    #[test]
    fn uploads_go_beside_a_sqlite_file_unless_told() {
        let config = AttachmentConfig::default();
        assert_eq!(
            config.directory("sqlite:///var/bbs/bbs.db").unwrap(),
            PathBuf::from("/var/bbs/bbs-attachments")
        );
        assert_eq!(
            config.directory("sqlite://bbs.db?mode=rwc").unwrap(),
            PathBuf::from("bbs-attachments")
        );
        assert!(config.directory("postgres://db/bbs").is_err());
        assert!(config.directory("sqlite::memory:").is_err());
        let told = AttachmentConfig {
            dir: Some("/srv/shared".into()),
            ..AttachmentConfig::default()
        };
        assert_eq!(
            told.directory("postgres://db/bbs").unwrap(),
            PathBuf::from("/srv/shared")
        );
    }
}
