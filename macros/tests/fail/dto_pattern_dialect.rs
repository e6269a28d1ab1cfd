use framework::prelude::*;

#[dto]
struct Code {
    #[tags(pattern = "^(?i)[a-z]+$")]
    code: String,
}

#[dto]
struct Letter {
    #[tags(pattern = r"^\pL$")]
    letter: String,
}

fn main() {}
