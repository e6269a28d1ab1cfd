use framework::prelude::*;

#[dto]
struct Misplaced {
    #[tags(max_size = 1024)]
    name: String,
    #[tags(accept = ["image/png"])]
    count: u32,
    #[tags(max_size = 1024)]
    files: Vec<File>,
}

#[dto]
struct BadTypes {
    #[tags(accept = ["image"])]
    a: File,
}

#[dto]
struct Uppercase {
    #[tags(accept = ["Image/PNG"])]
    a: File,
}

#[dto]
struct Empty {
    #[tags(accept = [])]
    a: File,
}

#[dto]
struct NotAList {
    #[tags(accept = "image/png")]
    a: File,
}

#[dto]
struct WithParameters {
    #[tags(accept = ["text/plain; charset=utf-8"])]
    a: File,
}

fn main() {}
