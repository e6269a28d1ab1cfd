//! Reading the parts of a `multipart/form-data` body with multer: text
//! values kept in memory within the body limit, files written down as they
//! arrive within their own limits, every problem listed with its path.

use std::{
    collections::{HashMap, HashSet},
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use bytes::Bytes;
use futures_util::Stream;
use serde_json::{Value, json};

use super::{
    FileLimits,
    file::File,
    layout::{FormField, Layout, top_name},
    spool::Spool,
};
use crate::{
    dto::push_key,
    error::{ApiError, ValidationIssue, refusal},
    request::{LimitedBody, RequestBody},
    schema::{ArraySchema, FieldDef, FileSchema, Schema, expected},
};

/// The most parts a form may have.
pub const MAX_FORM_PARTS: usize = 1000;

/// What a form's body may hold.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    /// Bytes of text values, part headers and boundaries together: the
    /// app's body limit. Also the largest file without `max_size`.
    pub(crate) body: usize,
    /// How long the whole body may take to arrive.
    pub(crate) timeout: Duration,
    /// Limits of files set at run time ([`FormLimits`](crate::FormLimits)).
    pub(crate) files: Option<Arc<HashMap<String, FileLimits>>>,
}

/// The parts of a form, read.
#[derive(Debug, Default)]
pub(crate) struct Received {
    /// Text values by their names (`author[name]`; a list's items sent
    /// under the list's bare name numbered `tags[0]`, `tags[1]`).
    pub(crate) text: Vec<(String, String)>,
    /// Files, with the field each belongs to.
    pub(crate) files: Vec<(String, File)>,
    /// What is wrong with the parts themselves.
    pub(crate) issues: Vec<ValidationIssue>,
}

/// Reads every part of `body`.
///
/// # Errors
/// `413` as soon as a file passes its `max_size` (`file_too_large`), the
/// text passes the body limit (`payload_too_large`) or the parts pass
/// [`MAX_FORM_PARTS`] (`too_many_parts`); `408` when the body is late;
/// `400 invalid_body` when it is not well-formed multipart.
pub(crate) async fn receive(
    body: RequestBody,
    boundary: String,
    layout: Layout<'_>,
    limits: Limits,
) -> Result<Received, ApiError> {
    let file_bytes = Arc::new(AtomicU64::new(0));
    let stream = Metered {
        inner: LimitedBody::new(body, usize::MAX, limits.timeout),
        file_bytes: Arc::clone(&file_bytes),
        limit: limits.body as u64,
        since_break: 0,
        recent: [0; 2],
    };
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut form = Form {
        layout,
        limits,
        file_bytes,
        received: Received::default(),
        seen: HashSet::new(),
        list_items: HashMap::new(),
        file_parts: HashMap::new(),
        text_bytes: 0,
    };
    let mut parts = 0;
    while let Some(part) = multipart
        .next_field()
        .await
        .map_err(|err| malformed(err, "$input"))?
    {
        parts += 1;
        if parts > MAX_FORM_PARTS {
            return Err(
                refusal::TOO_MANY_PARTS.error(format!("body: more than {MAX_FORM_PARTS} parts"))
            );
        }
        form.part(part).await?;
    }
    Ok(form.finish())
}

/// Bytes the body stream yields before it lets multer work through what it
/// buffered (multer reads all the stream has ready at once).
const WINDOW: u64 = 64 * 1024;

/// The body, refused once what is not file content (text values, part
/// headers, boundaries) passes the limit, besides what multer may still
/// hold of the last windows it read: it holds no more than that.
struct Metered {
    inner: LimitedBody,
    /// File bytes handed out so far.
    file_bytes: Arc<AtomicU64>,
    limit: u64,
    /// Bytes yielded since multer last worked through its buffer.
    since_break: u64,
    /// Bytes yielded in the two windows before: multer may still hold
    /// them (file bytes of a part not read yet).
    recent: [u64; 2],
}

impl Stream for Metered {
    type Item = Result<Bytes, ApiError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.since_break >= WINDOW {
            // Pending ends multer's read loop, so it hands out what it
            // holds before it reads on; polled again at once.
            this.recent = [this.recent[1], this.since_break];
            this.since_break = 0;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let read = this.inner.bytes_read() as u64;
        let held = this.recent[0] + this.recent[1] + this.since_break;
        let other = read
            .saturating_sub(this.file_bytes.load(Ordering::Relaxed))
            .saturating_sub(held);
        if other > this.limit {
            return Poll::Ready(Some(Err(refusal::PAYLOAD_TOO_LARGE.error(format!(
                "body: the text fields and part headers are larger than the limit of {} bytes",
                this.limit
            )))));
        }
        let polled = Pin::new(&mut this.inner).poll_next(cx);
        if let Poll::Ready(Some(Ok(chunk))) = &polled {
            this.since_break += chunk.len() as u64;
        }
        polled
    }
}

/// The form being read.
struct Form<'a> {
    layout: Layout<'a>,
    limits: Limits,
    file_bytes: Arc<AtomicU64>,
    received: Received,
    /// Names of the text values kept.
    seen: HashSet<String>,
    /// Items of each list sent under its bare name.
    list_items: HashMap<String, usize>,
    /// Parts with a file name, by field (kept or not).
    file_parts: HashMap<String, usize>,
    /// Bytes of text read so far.
    text_bytes: usize,
}

/// What a part's headers say.
struct Head {
    name: String,
    file_name: Option<String>,
    media_type: String,
}

impl Head {
    /// The file as an issue shows it.
    fn shown(&self) -> Value {
        json!({ "name": self.file_name, "type": self.media_type })
    }
}

impl Form<'_> {
    async fn part(&mut self, mut part: multer::Field<'_>) -> Result<(), ApiError> {
        let Some(name) = part.name().filter(|name| !name.is_empty()) else {
            self.read_text(&mut part, "$input").await?;
            self.received.issues.push(ValidationIssue::missing(
                "$input",
                "parts named by `Content-Disposition: form-data; name=\"...\"`",
            ));
            return Ok(());
        };
        let head = Head {
            name: name.to_owned(),
            file_name: part.file_name().map(str::to_owned),
            media_type: part.content_type().map_or_else(
                || "application/octet-stream".to_owned(),
                ToString::to_string,
            ),
        };
        match self.layout.field(&head.name) {
            Some(FormField::File { def, file, list }) => {
                let (file, list) = self.tightened(&def.name, file, list);
                self.file_part(part, head, def, &file, list.as_ref()).await
            }
            field => {
                self.text_part(part, head, field.map(|field| field.def()))
                    .await
            }
        }
    }

    /// A file field's limits, tightened by those set at run time.
    fn tightened(
        &self,
        field: &str,
        file: &FileSchema,
        list: Option<&ArraySchema>,
    ) -> (FileSchema, Option<ArraySchema>) {
        let mut file = file.clone();
        let mut list = list.cloned();
        let Some(set) = self
            .limits
            .files
            .as_ref()
            .and_then(|files| files.get(field))
        else {
            return (file, list);
        };
        let lower = |tag: Option<u64>, set: Option<u64>| match (tag, set) {
            (Some(tag), Some(set)) => Some(tag.min(set)),
            (tag, set) => tag.or(set),
        };
        file.max_size = lower(file.max_size, set.max_size);
        if let Some(accept) = &set.accept {
            // The types set at run time that the tag allows too; none of
            // them leaves the tag's own.
            let within: Vec<String> = accept
                .iter()
                .filter(|entry| file.accepts(entry))
                .cloned()
                .collect();
            if !within.is_empty() {
                file.accept = within;
            }
        }
        if let Some(list) = &mut list {
            list.max_items = lower(list.max_items, set.max_items);
            *list.items = Schema::File(file.clone());
        }
        (file, list)
    }

    async fn file_part(
        &mut self,
        mut part: multer::Field<'_>,
        head: Head,
        def: &FieldDef,
        file: &FileSchema,
        list: Option<&ArraySchema>,
    ) -> Result<(), ApiError> {
        let list_max = list.and_then(|list| list.max_items);
        let field_schema = match list {
            Some(list) => Schema::Array(list.clone()),
            None => Schema::File(file.clone()),
        };
        let list = list.is_some();
        let field_path = path_of(&def.name);
        let Some(file_name) = head.file_name.clone() else {
            let text = self.read_text(&mut part, &field_path).await?;
            let text = String::from_utf8_lossy(&text).into_owned();
            self.issue(&path_of(&head.name), &field_schema, Value::from(text));
            return Ok(());
        };
        let suffix = &head.name[def.name.len()..];
        let position = self.file_parts.get(&def.name).copied().unwrap_or(0);
        let item_path = if list {
            format!("{field_path}[{position}]")
        } else {
            field_path.clone()
        };
        let max_size = file.max_size.unwrap_or(self.limits.body as u64);
        let well_named = suffix.is_empty() || list && (suffix == "[]" || is_index(suffix));
        if !well_named || !list && position > 0 {
            let expected = self.expected(&field_schema);
            let expected = if well_named {
                format!("{expected} (sent once)")
            } else {
                expected
            };
            self.received.issues.push(ValidationIssue::new(
                path_of(&head.name),
                expected,
                head.shown(),
            ));
            return self
                .drain_file(&mut part, &item_path, max_size)
                .await
                .map(drop);
        }
        // What a browser sends for a file input left empty is no file.
        let no_file = |size: u64| size == 0 && file_name.is_empty();
        let over_count = list_max.is_some_and(|max| position as u64 >= max);
        if over_count || !file.accepts(&head.media_type) {
            let size = self.drain_file(&mut part, &item_path, max_size).await?;
            if !no_file(size) {
                *self.file_parts.entry(def.name.clone()).or_default() += 1;
                if !over_count {
                    self.issue(&item_path, &Schema::File(file.clone()), head.shown());
                }
            }
            return Ok(());
        }
        let spool = self.spool(&mut part, &item_path, max_size).await?;
        if no_file(spool.size()) {
            return Ok(());
        }
        *self.file_parts.entry(def.name.clone()).or_default() += 1;
        let name = (!file_name.is_empty()).then_some(file_name);
        let received = spool
            .finish(name, head.media_type)
            .await
            .map_err(ApiError::internal)?;
        self.received.files.push((def.name.clone(), received));
        Ok(())
    }

    async fn text_part(
        &mut self,
        mut part: multer::Field<'_>,
        head: Head,
        def: Option<&FieldDef>,
    ) -> Result<(), ApiError> {
        let path = path_of(&head.name);
        if head.file_name.is_some() {
            // A file where the form has text (or nothing, which a strict
            // form refuses and another ignores).
            match def {
                Some(def) => self.issue(&path, &def.schema, head.shown()),
                None if self.layout.strict() => self.received.issues.push(ValidationIssue::new(
                    path.clone(),
                    "undefined",
                    head.shown(),
                )),
                None => {}
            }
            self.read_text(&mut part, &path).await?;
            return Ok(());
        }
        let bytes = self.read_text(&mut part, &path).await?;
        let key = match def {
            // A list's items sent under its bare name, numbered in order.
            Some(def) if head.name == def.name && matches!(def.schema, Schema::Array(_)) => {
                let items = self.list_items.entry(def.name.clone()).or_default();
                *items += 1;
                format!("{}[{}]", def.name, *items - 1)
            }
            _ => head.name,
        };
        let layout = self.layout;
        let expected = || {
            let schema = layout.schema_at(&key).or(def.map(|def| &def.schema));
            schema.map_or_else(
                || "string".to_owned(),
                |schema| expected(schema, layout.registry),
            )
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                let issue = ValidationIssue::new(
                    path,
                    format!("{} (as UTF-8 text)", expected()),
                    String::from_utf8_lossy(err.as_bytes()).into_owned(),
                );
                self.received.issues.push(issue);
                return Ok(());
            }
        };
        // Not a field: serde ignores it, or a strict form refuses it.
        if def.is_some() && !key.ends_with("[]") && !self.seen.insert(key.clone()) {
            let issue = ValidationIssue::new(path, format!("{} (sent once)", expected()), text);
            self.received.issues.push(issue);
            return Ok(());
        }
        self.received.text.push((key, text));
        Ok(())
    }

    /// Writes a file part down, refusing it once it passes `max_size`.
    async fn spool(
        &mut self,
        part: &mut multer::Field<'_>,
        path: &str,
        max_size: u64,
    ) -> Result<Spool, ApiError> {
        let mut spool = Spool::new();
        while let Some(chunk) = part.chunk().await.map_err(|err| malformed(err, path))? {
            self.file_bytes
                .fetch_add(chunk.len() as u64, Ordering::Relaxed);
            if spool.size() + chunk.len() as u64 > max_size {
                return Err(file_too_large(path, max_size));
            }
            spool.write(&chunk).await.map_err(ApiError::internal)?;
        }
        Ok(spool)
    }

    /// Reads a refused file part through, within `max_size`; its size.
    async fn drain_file(
        &mut self,
        part: &mut multer::Field<'_>,
        path: &str,
        max_size: u64,
    ) -> Result<u64, ApiError> {
        let mut size = 0u64;
        while let Some(chunk) = part.chunk().await.map_err(|err| malformed(err, path))? {
            self.file_bytes
                .fetch_add(chunk.len() as u64, Ordering::Relaxed);
            size += chunk.len() as u64;
            if size > max_size {
                return Err(file_too_large(path, max_size));
            }
        }
        Ok(size)
    }

    /// A text part, whole; all text together is within the body limit.
    async fn read_text(
        &mut self,
        part: &mut multer::Field<'_>,
        path: &str,
    ) -> Result<Vec<u8>, ApiError> {
        let mut bytes = Vec::new();
        while let Some(chunk) = part.chunk().await.map_err(|err| malformed(err, path))? {
            self.text_bytes += chunk.len();
            if self.text_bytes > self.limits.body {
                return Err(refusal::PAYLOAD_TOO_LARGE.error(format!(
                    "body: the text fields are larger than the limit of {} bytes",
                    self.limits.body
                )));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }

    fn expected(&self, schema: &Schema) -> String {
        expected(schema, self.layout.registry)
    }

    fn issue(&mut self, path: &str, schema: &Schema, value: Value) {
        let expected = self.expected(schema);
        self.received
            .issues
            .push(ValidationIssue::new(path, expected, value));
    }

    /// The form as read, with lists of files over their `max_items`.
    fn finish(mut self) -> Received {
        for field in self.layout.fields() {
            let FormField::File {
                def,
                file,
                list: Some(list),
            } = field
            else {
                continue;
            };
            let count = self.file_parts.get(&def.name).copied().unwrap_or(0);
            let Some(list) = self.tightened(&def.name, file, Some(list)).1 else {
                continue;
            };
            if list.max_items.is_some_and(|max| count as u64 > max) {
                self.issue(
                    &path_of(&def.name),
                    &Schema::Array(list),
                    Value::from(count),
                );
            }
        }
        self.received
    }
}

/// `[2]`.
fn is_index(suffix: &str) -> bool {
    suffix
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// The issue path of a part's name: `author[name]` is `$input.author.name`,
/// `tags[0]` is `$input.tags[0]`.
pub(crate) fn path_of(name: &str) -> String {
    let mut path = String::from("$input");
    let top = top_name(name);
    push_key(&mut path, top);
    for segment in name[top.len()..].split('[').skip(1) {
        let key = segment.strip_suffix(']').unwrap_or(segment);
        if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) {
            path.push('[');
            path.push_str(key);
            path.push(']');
        } else if !key.is_empty() {
            push_key(&mut path, key);
        }
    }
    path
}

fn file_too_large(path: &str, max_size: u64) -> ApiError {
    refusal::FILE_TOO_LARGE
        .error(format!(
            "body: the file {path} is larger than {max_size} bytes"
        ))
        .with_issues([ValidationIssue::missing(
            path,
            format!("File & MaxSize<{max_size}>"),
        )])
}

/// What multer could not read: our own refusal of the body (its limit or
/// timeout), or a body that is not well-formed multipart.
fn malformed(err: multer::Error, path: &str) -> ApiError {
    let reason = match err {
        multer::Error::StreamReadFailed(inner) => {
            return match inner.downcast::<ApiError>() {
                Ok(refused) => *refused,
                Err(other) => {
                    refusal::BODY_READ_FAILED.error(format!("body: could not be read: {other}"))
                }
            };
        }
        multer::Error::IncompleteFieldData { .. }
        | multer::Error::IncompleteStream
        | multer::Error::IncompleteHeaders => {
            "the body ends before the part's closing boundary".to_owned()
        }
        other => other.to_string(),
    };
    refusal::INVALID_BODY
        .error(format!("body: malformed multipart/form-data: {reason}"))
        .with_issues([ValidationIssue::missing(
            path,
            format!("a complete multipart/form-data part ({reason})"),
        )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_become_issue_paths() {
        assert_eq!(path_of("title"), "$input.title");
        assert_eq!(path_of("author[name]"), "$input.author.name");
        assert_eq!(path_of("tags[0]"), "$input.tags[0]");
        assert_eq!(path_of("files[]"), "$input.files");
        assert_eq!(path_of("x-y"), "$input[\"x-y\"]");
    }

    #[test]
    fn indexes_are_digits_in_brackets() {
        assert!(is_index("[0]"));
        assert!(is_index("[12]"));
        assert!(!is_index("[]"));
        assert!(!is_index("[a]"));
        assert!(!is_index("0"));
    }
}
