//! The load scenarios and the servers compared ([`peers`], [`scenario`]), and
//! payloads shared by the benchmarks: nestia's `{ data: IBox3D[100] }` and
//! the BBS `ICreate`, each declared the framework's way and the way its
//! peers (`validator`, `garde`) declare the same constraints.

use framework::prelude::*;
use rand::{SeedableRng, rngs::StdRng};

pub mod peers;
pub mod scenario;

/// nestia's `IPoint3D`.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Point3D {
    /// x
    pub x: f64,
    /// y
    pub y: f64,
    /// z
    pub z: f64,
}

/// nestia's `IBox3D`.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Box3D {
    /// Scale.
    pub scale: Point3D,
    /// Position.
    pub position: Point3D,
    /// Rotation.
    pub rotate: Point3D,
    /// Pivot.
    pub pivot: Point3D,
}

/// nestia's benchmark body: `{ data: IBox3D[] }`.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Boxes {
    /// The boxes.
    pub data: Vec<Box3D>,
}

/// An attachment, as the BBS declares it.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    /// Name or `null`.
    #[tags(min_length = 1, max_length = 255)]
    pub name: Option<String>,
    /// Extension or `null`.
    #[tags(min_length = 1, max_length = 8)]
    pub extension: Option<String>,
    /// Where it is.
    #[tags(format = "uri")]
    pub url: String,
}

/// The BBS `ICreate`.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Create {
    /// Writer.
    #[tags(min_length = 1, max_length = 50)]
    pub writer: String,
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// Format.
    pub format: Format,
    /// Files.
    #[tags(max_items = 100)]
    pub files: Vec<Attachment>,
    /// Password.
    #[tags(min_length = 1, max_length = 256)]
    pub password: String,
}

/// The body format.
#[dto]
#[derive(Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Markdown.
    Md,
    /// HTML.
    Html,
    /// Text.
    Txt,
}

/// The same `ICreate` for the `validator` crate.
pub mod with_validator {
    use serde::{Deserialize, Serialize};
    use validator::Validate;

    /// An attachment.
    #[derive(Debug, Deserialize, Serialize, Validate)]
    pub struct Attachment {
        /// Name.
        #[validate(length(min = 1, max = 255))]
        pub name: Option<String>,
        /// Extension.
        #[validate(length(min = 1, max = 8))]
        pub extension: Option<String>,
        /// URL.
        #[validate(url)]
        pub url: String,
    }

    /// `ICreate`.
    #[derive(Debug, Deserialize, Serialize, Validate)]
    pub struct Create {
        /// Writer.
        #[validate(length(min = 1, max = 50))]
        pub writer: String,
        /// Title.
        #[validate(length(min = 3, max = 50))]
        pub title: String,
        /// Body.
        pub body: String,
        /// Format.
        pub format: super::Format,
        /// Files.
        #[validate(length(max = 100), nested)]
        pub files: Vec<Attachment>,
        /// Password.
        #[validate(length(min = 1, max = 256))]
        pub password: String,
    }

    /// `IBox3D[]` has no constraints; `validate()` walks nothing.
    #[derive(Debug, Clone, Deserialize, Serialize, Validate)]
    pub struct Boxes {
        /// The boxes.
        pub data: Vec<super::Box3D>,
    }
}

/// The same `ICreate` for the `garde` crate.
pub mod with_garde {
    use garde::Validate;
    use serde::Deserialize;

    /// An attachment.
    #[derive(Debug, Deserialize, Validate)]
    pub struct Attachment {
        /// Name.
        #[garde(length(chars, min = 1, max = 255))]
        pub name: Option<String>,
        /// Extension.
        #[garde(length(chars, min = 1, max = 8))]
        pub extension: Option<String>,
        /// URL.
        #[garde(url)]
        pub url: String,
    }

    /// `ICreate`.
    #[derive(Debug, Deserialize, Validate)]
    pub struct Create {
        /// Writer.
        #[garde(length(chars, min = 1, max = 50))]
        pub writer: String,
        /// Title.
        #[garde(length(chars, min = 3, max = 50))]
        pub title: String,
        /// Body.
        #[garde(skip)]
        pub body: String,
        /// Format.
        #[garde(skip)]
        pub format: super::Format,
        /// Files.
        #[garde(length(max = 100), dive)]
        pub files: Vec<Attachment>,
        /// Password.
        #[garde(length(chars, min = 1, max = 256))]
        pub password: String,
    }

    /// `IBox3D[]` has no constraints.
    #[derive(Debug, Deserialize, Validate)]
    pub struct Boxes {
        /// The boxes.
        #[garde(skip)]
        pub data: Vec<super::Box3D>,
    }
}

/// nestia's payload: 100 random boxes, as JSON.
pub fn boxes_json() -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(3);
    let boxes = Boxes {
        data: (0..100).map(|_| Box3D::random_with(&mut rng)).collect(),
    };
    serde_json::to_vec(&boxes).unwrap_or_default()
}

/// A valid `ICreate` with three attachments, as JSON.
pub fn create_json() -> Vec<u8> {
    let create = Create {
        writer: "Robert".into(),
        title: "Hello, nestia benchmarks".into(),
        body: "Body text ".repeat(40),
        format: Format::Md,
        files: (0..3)
            .map(|n| Attachment {
                name: Some(format!("file{n}")),
                extension: Some("png".into()),
                url: format!("https://example.com/files/{n}.png"),
            })
            .collect(),
        password: "correct horse battery staple".into(),
    };
    serde_json::to_vec(&create).unwrap_or_default()
}

/// An `ICreate` with ten errors, as JSON.
pub fn create_with_ten_errors_json() -> Vec<u8> {
    let value = serde_json::json!({
        "title": "Hi",
        "body": 42,
        "format": "pdf",
        "files": [
            { "name": "", "extension": "toolongext", "url": "not a url" },
            { "name": null, "extension": "", "url": 7 },
            { "extension": null, "url": "https://example.com" }
        ],
        "password": "x"
    });
    value.to_string().into_bytes()
}
