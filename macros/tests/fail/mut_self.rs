use framework::prelude::*;

struct Counter {
    count: u64,
}

#[controller("counter")]
impl Counter {
    #[typed_route::post("")]
    async fn bump(&mut self) -> u64 {
        self.count += 1;
        self.count
    }
}

fn main() {}
