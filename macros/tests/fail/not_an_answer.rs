use framework::prelude::*;

struct Plain {
    text: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::get("")]
    async fn read(&self) -> Plain {
        Plain { text: String::new() }
    }
}

fn main() {}
