//! A fixture app whose types use every shape the SDKs map: serde's four
//! enum representations, recursion, maps, 64-bit integers, `T | null` vs
//! absent vs both, a defaulted field (input and output shapes differ),
//! `any`, a nested query and typed headers; and every input and answer
//! kind besides JSON: forms, multipart uploads, text, bytes, a streamed
//! upload, cookies, a bearer guard, a `Token` scheme guard, a catch-all path, downloads, a file
//! streamed from disk (ranges, `304`), a redirect, `Created`, an enum of
//! statuses, `204`, server-sent events, a WebSocket and a route left out of
//! the SDKs.

use std::collections::BTreeMap;

use framework::prelude::*;
use framework::ws::{WebSocketResponse, WebSocketUpgrade};
use framework::{AuthScheme, Authorization, ErrorMeta, InputMeta, RequestContext, SecurityMeta};

/// A shape, tagged inside (`{"type": "circle", ...}`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        #[tags(exclusive_minimum = 0)]
        radius: f64,
    },
    /// A square.
    Square {
        /// Side.
        side: f64,
    },
    /// A point.
    Dot,
}

/// An event, tagged next to its content (`{"t": "Moved", "c": {...}}`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Event {
    /// Started.
    Started,
    /// Renamed to.
    Renamed(String),
    /// Moved by.
    Moved {
        /// Across.
        x: i32,
        /// Down.
        y: i32,
    },
}

/// A command, tagged outside (`{"Go": {...}}` or `"Stop"`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Stop.
    Stop,
    /// Say something.
    Say(String),
    /// Go.
    Go {
        /// Speed.
        speed: u8,
    },
}

/// Whatever fits first.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Loose {
    /// A number.
    Number(f64),
    /// A text.
    Text(String),
    /// A pair.
    Pair {
        /// First.
        a: bool,
        /// Second.
        b: bool,
    },
}

/// A tree: recursive.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// Label.
    pub label: String,
    /// Children.
    pub children: Vec<Tree>,
    /// The only child, when there is one.
    pub only: Option<Box<Tree>>,
}

/// Every shape at once.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Everything {
    /// Internally tagged.
    pub shape: Shape,
    /// Adjacently tagged.
    pub event: Event,
    /// Externally tagged.
    pub command: Command,
    /// Untagged.
    pub loose: Loose,
    /// Recursive.
    pub tree: Tree,
    /// A map.
    pub scores: BTreeMap<String, i64>,
    /// Needs more than 53 bits.
    pub big_number: u64,
    /// Small.
    #[tags(minimum = -10, maximum = 10)]
    pub small: i8,
    /// `string | null`, always present.
    pub nullable: Option<String>,
    /// May be absent.
    #[optional]
    pub absent: Option<u32>,
    /// Absent, `null` or a string.
    #[optional]
    pub both: Option<Option<String>>,
    /// Optional in input, always in output.
    #[serde(default)]
    pub defaulted: u32,
    /// A date and time.
    #[tags(format = "date-time")]
    pub when: String,
    /// Anything.
    pub anything: serde_json::Value,
}

/// Whatever fits first, with integers beyond 2^53 (issue 14: the TS SDK
/// must not round them inside an untagged union).
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Wide {
    /// One.
    One(u64),
    /// A list.
    Many(Vec<u64>),
    /// A text.
    Text(String),
}

/// Numbers whose bounds the server and the SDKs must read alike: exact
/// integer steps and bounds beyond 2^53, `f32`'s range, fractional bounds
/// on integers. Every field may be absent, so one value tests one field.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Even.
    #[optional]
    #[tags(multiple_of = 2)]
    pub even: Option<u64>,
    /// A multiple of 1.5: of 3, for integers.
    #[optional]
    #[tags(multiple_of = 1.5)]
    pub thirds: Option<i64>,
    /// A multiple of 0.1: any integer.
    #[optional]
    #[tags(multiple_of = 0.1)]
    pub tenths: Option<i32>,
    /// At least -2^60.
    #[optional]
    #[tags(minimum = -1152921504606846976)]
    pub floor: Option<i64>,
    /// At most 2^60.
    #[optional]
    #[tags(maximum = 1152921504606846976)]
    pub ceiling: Option<u64>,
    /// At least 1.5, at most 4.5: 2 to 4.
    #[optional]
    #[tags(minimum = 1.5, maximum = 4.5)]
    pub between: Option<i32>,
    /// Above 1.5, below 4.5: 2 to 4.
    #[optional]
    #[tags(exclusive_minimum = 1.5, exclusive_maximum = 4.5)]
    pub strictly: Option<i32>,
    /// An `f32`: finite and within its range.
    #[optional]
    pub single: Option<f32>,
    /// Untagged, 64-bit.
    #[optional]
    pub wide: Option<Wide>,
    /// Distinct as decoded: a property `Stop` does not know, or a `label`
    /// written `null`, makes no stop distinct.
    #[optional]
    #[tags(unique_items)]
    pub stops: Option<Vec<Stop>>,
}

/// A stop of a trip.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// Where.
    pub x: i32,
    /// Its name, if it has one.
    #[optional]
    pub label: Option<String>,
}

/// One field per string format, each optional so one value tests one
/// format: the server and the TypeScript runtime must give the verdicts of
/// `tests/kitchen/strings.json` alike (issue 14).
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Formats {
    /// `uuid`.
    #[optional]
    #[tags(format = "uuid")]
    pub uuid: Option<String>,
    /// `email`.
    #[optional]
    #[tags(format = "email")]
    pub email: Option<String>,
    /// `hostname`.
    #[optional]
    #[tags(format = "hostname")]
    pub hostname: Option<String>,
    /// `ipv4`.
    #[optional]
    #[tags(format = "ipv4")]
    pub ipv4: Option<String>,
    /// `ipv6`.
    #[optional]
    #[tags(format = "ipv6")]
    pub ipv6: Option<String>,
    /// `uri`.
    #[optional]
    #[tags(format = "uri")]
    pub uri: Option<String>,
    /// `url`.
    #[optional]
    #[tags(format = "url")]
    pub url: Option<String>,
    /// `uri-reference`.
    #[optional]
    #[tags(format = "uri-reference")]
    pub uri_reference: Option<String>,
    /// `date-time`.
    #[optional]
    #[tags(format = "date-time")]
    pub date_time: Option<String>,
    /// `date`.
    #[optional]
    #[tags(format = "date")]
    pub date: Option<String>,
    /// `time`.
    #[optional]
    #[tags(format = "time")]
    pub time: Option<String>,
    /// `duration`.
    #[optional]
    #[tags(format = "duration")]
    pub duration: Option<String>,
    /// `byte`.
    #[optional]
    #[tags(format = "byte")]
    pub byte: Option<String>,
    /// `password`.
    #[optional]
    #[tags(format = "password")]
    pub password: Option<String>,
    /// `regex`.
    #[optional]
    #[tags(format = "regex")]
    pub regex: Option<String>,
    /// `json-pointer`.
    #[optional]
    #[tags(format = "json-pointer")]
    pub json_pointer: Option<String>,
}

/// Patterns whose meaning differs between Rust's `regex` and JavaScript's
/// `RegExp` unless the framework translates them (issue 14).
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    /// ASCII digits (JavaScript's `\d`).
    #[optional]
    #[tags(pattern = r"^\d+$")]
    pub digits: Option<String>,
    /// ASCII word characters.
    #[optional]
    #[tags(pattern = r"^\w+$")]
    pub word: Option<String>,
    /// Two words and one space between (JavaScript's `\s`).
    #[optional]
    #[tags(pattern = r"^\S+\s\S+$")]
    pub spaced: Option<String>,
    /// One line: `.` stops at every line terminator.
    #[optional]
    #[tags(pattern = r"^.+$")]
    pub line: Option<String>,
    /// `cat` as an ASCII word.
    #[optional]
    #[tags(pattern = r"\bcat\b")]
    pub bounded: Option<String>,
    /// A capitalized word in any script.
    #[optional]
    #[tags(pattern = r"^\p{Lu}\p{Ll}*$")]
    pub letters: Option<String>,
    /// Greek.
    #[optional]
    #[tags(pattern = r"^\p{Script=Greek}+$")]
    pub greek: Option<String>,
    /// A code like `AB-123-x`.
    #[optional]
    #[tags(pattern = r"^[A-Z]{2}-\d{3,5}(?:-[a-z]+)?$")]
    pub code: Option<String>,
    /// Escapes inside and outside classes.
    #[optional]
    #[tags(pattern = r"^[\w.+-]+@\[\d+\]$")]
    pub escaped: Option<String>,
    /// Reads the same backwards: a check only the server runs, which the
    /// manifest names and the SDKs document.
    #[optional]
    #[tags(check = palindrome)]
    pub palindrome: Option<String>,
}

/// Whether `text` reads the same backwards (a check takes `&T`).
#[allow(clippy::ptr_arg)]
fn palindrome(text: &String) -> Result<(), String> {
    if text.chars().eq(text.chars().rev()) {
        Ok(())
    } else {
        Err("reads the same backwards".to_owned())
    }
}

/// One event of the live feed.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Its number, from 1.
    #[tags(minimum = 1)]
    pub n: u64,
    /// Some text, with a line break to frame.
    pub note: String,
}

/// How many ticks to send.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct TickCount {
    /// At most 100.
    #[tags(maximum = 100)]
    pub count: u64,
}

/// A line said in a chat room.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ChatLine {
    /// What is said; `bye` ends the chat.
    #[tags(min_length = 1, max_length = 200)]
    pub text: String,
    /// Not all in capitals: a check only the server runs.
    #[optional]
    #[tags(check = quiet)]
    pub aside: Option<String>,
}

/// Whether `text` is said without shouting (a check takes `&T`).
#[allow(clippy::ptr_arg)]
fn quiet(text: &String) -> Result<(), String> {
    if text.chars().any(char::is_lowercase) || !text.chars().any(char::is_uppercase) {
        Ok(())
    } else {
        Err("not all in capitals".to_owned())
    }
}

/// A line as the room hears it.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ChatEcho {
    /// The room.
    pub room: String,
    /// Who said it.
    pub nick: String,
    /// The tenant, from the handshake's headers.
    pub tenant: u32,
    /// What was said.
    pub text: String,
    /// Its number in this chat, from 1.
    pub seq: u64,
}

/// Who joins a chat.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ChatJoin {
    /// A nickname.
    #[tags(min_length = 1, max_length = 20)]
    pub nick: String,
}

/// Filters, read from the query string.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// Page.
    #[optional]
    #[tags(minimum = 1)]
    pub page: Option<u32>,
    /// Nested.
    #[optional]
    pub search: Option<Search>,
    /// An array.
    #[optional]
    pub tags: Option<Vec<String>>,
    /// A map: its keys travel as `counts[key]`, so a key holding `[` or
    /// `]` cannot (both SDKs refuse it before sending).
    #[optional]
    pub counts: Option<BTreeMap<String, u32>>,
}

/// Nested filters.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// Writer.
    #[optional]
    pub writer: Option<String>,
    /// Title.
    #[optional]
    pub title: Option<String>,
}

/// Headers.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub struct Tenant {
    /// The tenant.
    pub x_tenant_id: u32,
    /// Labels, one header each.
    #[optional]
    pub x_label: Option<Vec<String>>,
}

/// Cookies.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The session.
    #[tags(min_length = 1)]
    pub sid: String,
    /// A preference.
    #[optional]
    pub theme: Option<String>,
}

/// A job done.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Its id.
    pub id: u64,
}

/// A job queued.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Ticket {
    /// Its id.
    pub id: u64,
    /// Where to ask for it.
    pub poll: String,
}

/// A job's outcome: two statuses, two bodies.
#[derive(IntoResponse)]
pub enum Outcome {
    /// Done at once.
    Done(Job),
    /// Queued; poll the ticket.
    #[status(202)]
    Queued(Ticket),
}

/// An upload: text fields, a required file, an optional one and a list.
#[dto]
pub struct Upload {
    /// What it is.
    #[tags(min_length = 1, max_length = 40)]
    pub title: String,
    /// How many copies.
    #[tags(minimum = 1)]
    pub copies: u32,
    /// Labels.
    #[tags(max_items = 3)]
    pub labels: Vec<String>,
    /// A picture of at most 64 KiB.
    #[tags(max_size = 65_536, accept = ["image/png", "image/jpeg"])]
    pub picture: File,
    /// A note, if any.
    #[optional]
    #[tags(accept = ["text/*"])]
    pub note: Option<File>,
    /// Up to three attachments of 1 KiB each.
    #[tags(max_items = 3, items(max_size = 1024))]
    pub attachments: Vec<File>,
}

/// What the server received of an upload.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Received {
    /// The title.
    pub title: String,
    /// The copies.
    pub copies: u32,
    /// The labels.
    pub labels: Vec<String>,
    /// The picture.
    pub picture: ReceivedFile,
    /// The note.
    #[optional]
    pub note: Option<ReceivedFile>,
    /// The attachments.
    pub attachments: Vec<ReceivedFile>,
}

/// One file as the server received it.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ReceivedFile {
    /// Its name.
    pub name: String,
    /// Its media type.
    pub media_type: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its bytes as text (lossy).
    pub text: String,
}

impl ReceivedFile {
    async fn of(file: &File) -> Result<Self, ApiError> {
        let bytes = file.bytes().await.map_err(ApiError::internal)?;
        Ok(ReceivedFile {
            name: file.file_name().unwrap_or_default().to_owned(),
            media_type: file.media_type().to_owned(),
            size: file.size(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }
}

/// What a streamed upload held.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct StreamSum {
    /// Its size in bytes.
    pub size: u64,
    /// The sum of its bytes.
    pub sum: u64,
}

/// The bytes of the file `GET kitchen/streamed` answers: 4096 bytes,
/// `0123456789abcdef` over and over.
pub fn streamed_bytes() -> Vec<u8> {
    b"0123456789abcdef".repeat(256)
}

/// The file `GET kitchen/streamed` answers, written once per process.
fn streamed_path() -> &'static std::path::Path {
    static PATH: std::sync::LazyLock<std::path::PathBuf> = std::sync::LazyLock::new(|| {
        let path =
            std::env::temp_dir().join(format!("kitchen-streamed-{}.txt", std::process::id()));
        std::fs::write(&path, streamed_bytes()).expect("the temp dir is writable");
        path
    });
    &PATH
}

/// The token the moderator guard accepts.
pub const MODERATOR_TOKEN: &str = "m0d-t0ken";

static MODERATOR: SecurityMeta = SecurityMeta::bearer("moderator", "The moderators' token.");

/// A moderator: `Authorization: Bearer <MODERATOR_TOKEN>`.
pub struct Moderator;

impl FromRequestParts for Moderator {
    const INPUT: InputMeta = InputMeta::request()
        .with_security(&MODERATOR)
        .with_errors(&[ErrorMeta::new(401, "No valid moderator token.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let token = Bearer::from_request_parts(cx).await?;
        if token.token() == MODERATOR_TOKEN {
            Ok(Moderator)
        } else {
            Err(Bearer::refused("not a moderator's token"))
        }
    }
}

/// The token the reader guard accepts.
pub const READER_TOKEN: &str = "r3ader.jwt";

/// `Authorization: Token <jwt>`, as some public API specifications ask:
/// the SDKs take the bare token and add `Token `.
pub struct ReaderToken;

impl AuthScheme for ReaderToken {
    const SECURITY: &'static SecurityMeta =
        &SecurityMeta::authorization("reader", "Token", "A reader's JWT.");
}

/// A reader: `Authorization: Token <READER_TOKEN>`.
pub struct Reader;

impl FromRequestParts for Reader {
    const INPUT: InputMeta = <Authorization<ReaderToken> as FromRequestParts>::INPUT
        .with_errors(&[ErrorMeta::new(401, "No valid reader token.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let token = Authorization::<ReaderToken>::from_request_parts(cx).await?;
        if token.credentials() == READER_TOKEN {
            Ok(Reader)
        } else {
            Err(Authorization::<ReaderToken>::refused(
                "not a reader's token",
            ))
        }
    }
}

/// The kitchen sink.
pub struct Kitchen;

#[controller("kitchen")]
impl Kitchen {
    /// Answers what it was sent.
    #[typed_route::put("echo")]
    async fn echo(&self, body: TypedBody<Everything>) -> Everything {
        body.into_inner()
    }

    /// Answers the limits it was sent.
    #[typed_route::put("limits")]
    async fn limits(&self, body: TypedBody<Limits>) -> Limits {
        body.into_inner()
    }

    /// Answers the formatted strings it was sent.
    #[typed_route::put("formats")]
    async fn formats(&self, body: TypedBody<Formats>) -> Formats {
        body.into_inner()
    }

    /// Answers the patterned strings it was sent.
    #[typed_route::put("patterns")]
    async fn patterns(&self, body: TypedBody<Patterns>) -> Patterns {
        body.into_inner()
    }

    /// Ticks `count` events named `tick`, after the last one the client saw
    /// (`Last-Event-ID`), then ends.
    #[typed_route::get("ticks")]
    async fn ticks(
        &self,
        query: TypedQuery<TickCount>,
        last: framework::sse::LastEventId,
    ) -> framework::sse::Sse<Tick> {
        let after: u64 = last.get().and_then(|id| id.parse().ok()).unwrap_or(0);
        let count = query.into_inner().count;
        let ticks = (after + 1..=count).map(move |n| {
            framework::sse::Event::new(Tick {
                n,
                note: format!("tick {n}\nof {count}"),
            })
            .name("tick")
            .id(n.to_string())
        });
        framework::sse::Sse::new(futures_util::stream::iter(ticks))
    }

    /// Chats in a room: every line comes back as the room hears it (with
    /// the tenant of the handshake's headers), until the client closes or
    /// says `bye`. A line over 1 KiB closes the socket
    /// with 1009, a refused one with 1007.
    #[typed_route::get("chat/:room")]
    async fn chat(
        &self,
        #[param] room: String,
        query: TypedQuery<ChatJoin>,
        headers: TypedHeaders<Tenant>,
        ws: WebSocketUpgrade<ChatLine, ChatEcho>,
    ) -> WebSocketResponse {
        let nick = query.into_inner().nick;
        let tenant = headers.into_inner().x_tenant_id;
        let limits = framework::ws::Limits::new().max_message_size(1024);
        ws.with_limits(limits)
            .on_upgrade(move |mut socket| async move {
                let mut seq = 0;
                while let Some(line) = socket.recv().await {
                    if line.text == "bye" {
                        break;
                    }
                    seq += 1;
                    let echo = ChatEcho {
                        room: room.clone(),
                        nick: nick.clone(),
                        tenant,
                        text: line.text,
                        seq,
                    };
                    if socket.send(&echo).await.is_err() {
                        break;
                    }
                }
            })
    }

    /// Answers the query it read.
    #[typed_route::get("query")]
    async fn query(&self, query: TypedQuery<Filter>) -> Filter {
        query.into_inner()
    }

    /// Answers the headers it read.
    #[typed_route::get("headers")]
    async fn headers(&self, headers: TypedHeaders<Tenant>) -> Tenant {
        headers.into_inner()
    }

    /// Answers its parameter.
    #[typed_route::get("numbers/:n")]
    async fn number(&self, #[param] n: u64) -> u64 {
        n
    }

    /// Answers the form it read.
    #[typed_route::post("forms")]
    async fn form(&self, form: TypedForm<Filter>) -> Filter {
        form.into_inner()
    }

    /// Shouts the text it was sent.
    #[typed_route::post("text", status = 200)]
    async fn shout(&self, text: PlainBody) -> String {
        text.into_inner().to_uppercase()
    }

    /// Answers the bytes it was sent, reversed.
    #[typed_route::put("bytes")]
    async fn reverse(&self, bytes: Bytes) -> Bytes {
        bytes.iter().rev().copied().collect::<Vec<u8>>().into()
    }

    /// Receives an upload: text fields and files in one multipart form.
    #[typed_route::post("uploads")]
    async fn upload(&self, form: TypedFormData<Upload>) -> Result<Received, ApiError> {
        let upload = form.into_inner();
        let mut attachments = Vec::new();
        for file in &upload.attachments {
            attachments.push(ReceivedFile::of(file).await?);
        }
        let note = match &upload.note {
            Some(file) => Some(ReceivedFile::of(file).await?),
            None => None,
        };
        Ok(Received {
            title: upload.title,
            copies: upload.copies,
            labels: upload.labels,
            picture: ReceivedFile::of(&upload.picture).await?,
            note,
            attachments,
        })
    }

    /// Sums the bytes of a body read as a stream, never held whole.
    #[typed_route::put("streams", status = 200)]
    async fn sum(&self, mut body: BodyStream) -> Result<StreamSum, ApiError> {
        use futures_util::StreamExt;
        let (mut size, mut sum) = (0u64, 0u64);
        while let Some(chunk) = body.next().await {
            let chunk = chunk?;
            size += chunk.len() as u64;
            sum += chunk.iter().map(|byte| u64::from(*byte)).sum::<u64>();
        }
        Ok(StreamSum { size, sum })
    }

    /// A text file streamed from disk: `Range` asks for a part of it,
    /// `If-None-Match` with its `ETag` gets `304`.
    #[typed_route::get("streamed")]
    async fn streamed(&self, request: FileRequest) -> Result<StreamedFile, ApiError> {
        Ok(StreamedFile::open(streamed_path(), &request)
            .await?
            .media_type("text/plain"))
    }

    /// Answers the cookies it read.
    #[typed_route::get("cookies")]
    async fn cookies(&self, cookies: Cookies<Session>) -> Session {
        cookies.into_inner()
    }

    /// Erases a thing; moderators only.
    #[typed_route::delete("moderation/:id", errors(404 = "There is no such thing."))]
    async fn erase(&self, #[param] id: u64, _moderator: Moderator) -> Result<(), ApiError> {
        if id == 0 {
            return Err(ApiError::not_found("no thing 0"));
        }
        Ok(())
    }

    /// Something to read; readers only.
    #[typed_route::get("reading")]
    async fn read(&self, _reader: Reader) -> String {
        "read".to_owned()
    }

    /// A file named by the rest of the path; its body is the path.
    #[typed_route::get("files/*path")]
    async fn file(&self, #[param] path: String) -> Download {
        Download::new(path.into_bytes())
            .media_type("text/plain")
            .attachment("path.txt")
    }

    /// Sends the client to the file named by the text.
    #[typed_route::post("go")]
    async fn go(&self, text: PlainBody) -> Redirect {
        Redirect::see_other(format!("/kitchen/files/{}", text.into_inner()))
    }

    /// Plants a tree where its label says.
    #[typed_route::post("trees")]
    async fn plant(&self, body: TypedBody<Tree>) -> Created<Tree> {
        let tree = body.into_inner();
        Created::new(format!("/kitchen/trees/{}", tree.children.len()), tree)
    }

    /// Runs a job: done at once when `id` is even, queued when it is odd.
    #[typed_route::get("jobs/:id")]
    async fn job(&self, #[param] id: u64) -> Outcome {
        if id.is_multiple_of(2) {
            Outcome::Done(Job { id })
        } else {
            Outcome::Queued(Ticket {
                id,
                poll: format!("/kitchen/jobs/{id}"),
            })
        }
    }

    /// A page for people, left out of the SDKs.
    #[typed_route::get("page", sdk = false)]
    async fn page(&self) -> String {
        "a page".to_owned()
    }
}

/// Accounts under `/api`, which the app leaves out of routes' names
/// (`strip_name_prefix`): `accounts.signIn`, not `api.accounts.login.login`.
pub struct Accounts;

#[controller("api/accounts")]
impl Accounts {
    /// Signs in as the name it was sent; named by its `operation_id`.
    #[typed_route::post("login", status = 200, operation_id = "signIn")]
    async fn login(&self, name: PlainBody) -> String {
        format!("welcome {}", name.into_inner())
    }

    /// An account's profile; named after its handler.
    #[typed_route::get(":name")]
    async fn profile(&self, #[param] name: String) -> String {
        format!("profile of {name}")
    }
}

/// The fixture app.
pub fn app() -> App {
    App::builder()
        .openapi(framework::openapi::OpenApiDocument::new("Kitchen", "1.0.0"))
        .controller(Kitchen)
        .controller(Accounts)
        .strip_name_prefix("/api")
        .build()
        .unwrap()
}
