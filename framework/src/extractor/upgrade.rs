//! [`Upgrade`]: an older version's input, turned into the handler's.

/// Turns an input read as an older API version's type into the type the
/// handler takes: what a `#[typed_route::converted(..)]` route calls on
/// each argument it reads as an older type. The framework's wrapping
/// extractors (`TypedBody`, `TypedQuery`, `TypedForm`, `TypedHeaders`,
/// `Cookies`) upgrade `Wrapper<Old>` into `Wrapper<New>` wherever
/// `New: From<Old>`, so the compiler checks every conversion; implement it
/// for an extractor of your own to convert it too.
///
/// ```
/// use framework::{TypedBody, Upgrade};
///
/// struct OldNote { text: String }
/// struct Note { text: String, pinned: bool }
///
/// impl From<OldNote> for Note {
///     fn from(old: OldNote) -> Self {
///         Note { text: old.text, pinned: false }
///     }
/// }
///
/// let upgraded: TypedBody<Note> = TypedBody(OldNote { text: "hi".into() }).upgrade();
/// assert!(!upgraded.pinned);
/// ```
pub trait Upgrade<New> {
    /// The input as the handler takes it.
    fn upgrade(self) -> New;
}
