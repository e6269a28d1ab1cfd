use framework::prelude::*;

#[dto]
pub struct Note {
    pub text: String,
}

#[dto]
pub struct OldNote {
    pub text: String,
}

struct Notes;

#[controller("notes", versions = "2.0.0"..)]
impl Notes {
    // No version both before 2.0.0 and from 2.0.0 on.
    #[typed_route::get("old", versions = .."2.0.0")]
    async fn old(&self) {}

    // Not a version.
    #[typed_route::get("bad", versions = "2.0"..)]
    async fn bad(&self) {}

}

struct Converted;

#[controller("converted")]
impl Converted {
    // `From<Note> for OldNote` is missing.
    #[typed_route::get("", versions = "2.0.0"..)]
    #[typed_route::converted(versions = .."2.0.0", answer = OldNote)]
    async fn new(&self) -> Result<Note, ApiError> {
        Ok(Note { text: String::new() })
    }
}

fn main() {}
