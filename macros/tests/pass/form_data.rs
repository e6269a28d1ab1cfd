//! Every accepted form of files in a `TypedFormData` type.

use framework::prelude::*;

/// An upload.
#[dto]
pub struct Upload {
    #[tags(min_length = 1)]
    pub title: String,
    /// Any file.
    pub any: File,
    #[tags(max_size = 1_048_576, accept = ["image/png", "image/*", "*/*"])]
    pub picture: File,
    #[optional]
    #[tags(accept = ["application/vnd.api+json", "text/plain"])]
    pub note: Option<File>,
    #[tags(min_items = 1, max_items = 4, items(max_size = 100, accept = ["text/*"]))]
    pub attachments: Vec<File>,
    #[optional]
    pub extra: Option<Vec<File>>,
    #[serde(default)]
    pub more: Vec<File>,
}

pub struct Uploads;

#[controller("uploads")]
impl Uploads {
    #[typed_route::post("")]
    async fn create(&self, form: TypedFormData<Upload>) -> String {
        form.into_inner().title
    }

    #[typed_route::post("checked")]
    async fn checked(&self, form: Result<TypedFormData<Upload>, ApiError>) -> String {
        match form {
            Ok(form) => form.title.clone(),
            Err(refused) => refused.code().to_owned(),
        }
    }
}

fn main() {
    let app = App::builder().controller(Uploads).build().unwrap();
    assert_eq!(app.manifest().routes.len(), 2);
}
