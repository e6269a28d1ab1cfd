use framework::prelude::*;

#[dto]
struct A {
    #[tags(format = "phone")]
    a: String,
}

#[dto]
struct B {
    #[tags(pattern = "([a-z]")]
    b: String,
}

#[dto]
struct C {
    #[tags(min_length = 5, max_length = 2)]
    c: String,
}

#[dto]
struct D {
    #[tags(smallest = 1)]
    d: u32,
}

#[dto]
struct E {
    #[tags(multiple_of = 0)]
    e: u32,
}

fn main() {}
