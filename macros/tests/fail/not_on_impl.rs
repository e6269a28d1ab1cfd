use framework::prelude::*;

#[controller("articles")]
struct Articles;

fn main() {}
