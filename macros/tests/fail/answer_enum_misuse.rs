use framework::IntoResponse;

#[derive(IntoResponse)]
struct NotAnEnum(String);

#[derive(IntoResponse)]
enum Unit {
    Gone,
}

#[derive(IntoResponse)]
enum TwoFields {
    Both(String, String),
}

fn main() {}
