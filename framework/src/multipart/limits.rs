//! Limits on a form's files set when the app starts (from its
//! configuration), tightening what the field's tags allow.

use std::{collections::HashMap, marker::PhantomData, sync::Arc};

/// Limits on the files of the form `T` that an app sets as it starts (from
/// environment variables, say), within what `T`'s tags allow: a field's
/// files are held to the lower `max_size` and `max_items`, and to the
/// media types of `accept` that the field's own `accept` tag allows too
/// (with none of them, to the tag's). Give it to the app with
/// [`AppBuilder::state`](crate::AppBuilder::state); the tags stay the
/// documented ceiling (OpenAPI, the SDKs), these are checked as the files
/// arrive, as the tags are.
///
/// ```
/// use framework::prelude::*;
/// use framework::{FormLimits, testing::MultipartBody};
///
/// #[dto]
/// struct Photos {
///     #[tags(max_items = 20, items(max_size = 104_857_600, accept = ["image/*"]))]
///     photos: Vec<File>,
/// }
///
/// struct Albums;
///
/// #[controller("albums")]
/// impl Albums {
///     #[typed_route::post("")]
///     async fn add(&self, form: TypedFormData<Photos>) -> String {
///         form.photos.len().to_string()
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let limits = FormLimits::<Photos>::new()
///     .max_items("photos", 2)
///     .max_size("photos", 1024)
///     .accept("photos", ["image/png"]);
/// let app = App::builder().controller(Albums).state(limits).build().unwrap();
/// let big = MultipartBody::new().file("photos", "a.png", "image/png", &[0; 2048]);
/// let refused = app.test_client().post("/albums").multipart(&big).send().await;
/// assert_eq!(refused.status(), 413);
/// assert_eq!(refused.problem().errors[0].expected, "File & MaxSize<1024>");
/// let gif = MultipartBody::new().file("photos", "a.gif", "image/gif", b"GIF");
/// let refused = app.test_client().post("/albums").multipart(&gif).send().await;
/// assert_eq!(refused.problem().errors[0].expected, "File & MaxSize<1024> & Accept<\"image/png\">");
/// # });
/// ```
#[derive(Debug)]
pub struct FormLimits<T> {
    fields: Arc<HashMap<String, FileLimits>>,
    form: PhantomData<fn() -> T>,
}

/// The limits of one field's files.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileLimits {
    pub(crate) max_size: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) accept: Option<Vec<String>>,
}

impl<T> Clone for FormLimits<T> {
    fn clone(&self) -> Self {
        FormLimits {
            fields: Arc::clone(&self.fields),
            form: PhantomData,
        }
    }
}

impl<T> Default for FormLimits<T> {
    fn default() -> Self {
        FormLimits {
            fields: Arc::default(),
            form: PhantomData,
        }
    }
}

impl<T> FormLimits<T> {
    /// No limits beyond the tags.
    pub fn new() -> Self {
        Self::default()
    }

    fn field(mut self, field: &str, change: impl FnOnce(&mut FileLimits)) -> Self {
        change(
            Arc::make_mut(&mut self.fields)
                .entry(field.to_owned())
                .or_default(),
        );
        self
    }

    /// Each file of `field` has at most `bytes` bytes.
    pub fn max_size(self, field: &str, bytes: u64) -> Self {
        self.field(field, |limits| limits.max_size = Some(bytes))
    }

    /// The list `field` holds at most `count` files.
    pub fn max_items(self, field: &str, count: u64) -> Self {
        self.field(field, |limits| limits.max_items = Some(count))
    }

    /// Each file of `field` has one of `media_types` (`image/png`,
    /// `image/*`), besides what the field's `accept` tag allows.
    pub fn accept(
        self,
        field: &str,
        media_types: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        let accept = media_types.into_iter().map(Into::into).collect();
        self.field(field, |limits| limits.accept = Some(accept))
    }

    /// The limits by field.
    pub(crate) fn fields(&self) -> Arc<HashMap<String, FileLimits>> {
        Arc::clone(&self.fields)
    }
}
