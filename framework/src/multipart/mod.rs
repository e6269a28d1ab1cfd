//! `multipart/form-data` uploads: [`TypedFormData`] reads a form of text
//! fields and [`File`]s (behind the `multipart` feature); the layout rules
//! (where files may stand) are always known, so the manifest can check
//! them.

#[cfg(feature = "multipart")]
mod file;
#[cfg(feature = "multipart")]
mod form_data;
pub(crate) mod layout;
#[cfg(feature = "multipart")]
mod limits;
#[cfg(feature = "multipart")]
mod receive;
#[cfg(feature = "multipart")]
mod spool;
mod test_body;

#[cfg(feature = "multipart")]
pub use file::File;
#[cfg(feature = "multipart")]
pub use form_data::TypedFormData;
#[cfg(feature = "multipart")]
pub(crate) use limits::FileLimits;
#[cfg(feature = "multipart")]
pub use limits::FormLimits;
#[cfg(feature = "multipart")]
pub use receive::MAX_FORM_PARTS;
#[cfg(feature = "multipart")]
pub use spool::FILE_MEMORY_THRESHOLD;
pub use test_body::MultipartBody;
