use framework::prelude::*;

#[dto]
struct Filter {
    tag: Option<String>,
}

struct Articles;

#[controller("articles")]
impl Articles {
    // Only a guard (an extractor that declares its credential) may be
    // optional: a query's fields are optional one by one.
    #[typed_route::get("")]
    async fn index(&self, filter: Option<TypedQuery<Filter>>) -> String {
        format!("{:?}", filter.is_some())
    }
}

fn main() {
    let _ = App::builder().controller(Articles).build();
}
