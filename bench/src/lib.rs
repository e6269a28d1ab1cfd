//! The load scenarios and the servers compared ([`peers`], [`scenario`]), and
//! payloads shared by the benchmarks: nestia's `{ data: IBox3D[100] }` (no
//! constraints), the same boxes with the constraints of a real API
//! ([`Scene`]), and the BBS `ICreate`, each declared the framework's way and
//! the way its peers (`validator`, `garde`) declare the same constraints.

use framework::prelude::*;
use rand::{SeedableRng, rngs::StdRng};

pub mod invalid;
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

/// Coordinates in a scene: finite numbers within +-1,000 (typia:
/// `number & Minimum<-1000> & Maximum<1000>`).
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Coordinates {
    /// x
    #[tags(minimum = -1000, maximum = 1000)]
    pub x: f64,
    /// y
    #[tags(minimum = -1000, maximum = 1000)]
    pub y: f64,
    /// z
    #[tags(minimum = -1000, maximum = 1000)]
    pub z: f64,
}

/// A named box placed in a scene by its owner: nestia's `IBox3D` with the
/// checks a real API puts on its input.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct SceneBox {
    /// Display name.
    #[tags(min_length = 1, max_length = 64)]
    pub name: String,
    /// The owner's e-mail address.
    #[tags(format = "email", max_length = 254)]
    pub owner: String,
    /// Scale.
    pub scale: Coordinates,
    /// Position.
    pub position: Coordinates,
    /// Rotation.
    pub rotate: Coordinates,
    /// Pivot.
    pub pivot: Coordinates,
}

/// The constrained benchmark body: `{ data: ISceneBox[] & MaxItems<100> }`.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The boxes.
    #[tags(max_items = 100)]
    pub data: Vec<SceneBox>,
}

/// A note posted with an HTML form (`application/x-www-form-urlencoded`,
/// read by `TypedForm`): the form scenarios' body.
#[dto]
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// Title.
    #[tags(min_length = 1, max_length = 64)]
    pub title: String,
    /// Text.
    #[tags(max_length = 1000)]
    pub body: String,
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

    /// Coordinates within +-1,000.
    #[derive(Debug, Deserialize, Serialize, Validate)]
    pub struct Coordinates {
        /// x
        #[validate(range(min = -1000.0, max = 1000.0))]
        pub x: f64,
        /// y
        #[validate(range(min = -1000.0, max = 1000.0))]
        pub y: f64,
        /// z
        #[validate(range(min = -1000.0, max = 1000.0))]
        pub z: f64,
    }

    /// A named box placed by its owner.
    #[derive(Debug, Deserialize, Serialize, Validate)]
    pub struct SceneBox {
        /// Display name.
        #[validate(length(min = 1, max = 64))]
        pub name: String,
        /// The owner's e-mail address.
        #[validate(email, length(max = 254))]
        pub owner: String,
        /// Scale.
        #[validate(nested)]
        pub scale: Coordinates,
        /// Position.
        #[validate(nested)]
        pub position: Coordinates,
        /// Rotation.
        #[validate(nested)]
        pub rotate: Coordinates,
        /// Pivot.
        #[validate(nested)]
        pub pivot: Coordinates,
    }

    /// At most 100 boxes.
    #[derive(Debug, Deserialize, Serialize, Validate)]
    pub struct Scene {
        /// The boxes.
        #[validate(length(max = 100), nested)]
        pub data: Vec<SceneBox>,
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

/// The constrained payload: 100 named boxes with their owners and
/// coordinates within range, as JSON (about the size of [`boxes_json`]).
pub fn scene_json() -> Vec<u8> {
    use rand::Rng;
    let mut rng = StdRng::seed_from_u64(5);
    let mut coordinates = || Coordinates {
        x: rng.random_range(-1000.0..=1000.0),
        y: rng.random_range(-1000.0..=1000.0),
        z: rng.random_range(-1000.0..=1000.0),
    };
    let scene = Scene {
        data: (0..100)
            .map(|n| SceneBox {
                name: format!("Box {n}"),
                owner: format!("owner{n}@example.com"),
                scale: coordinates(),
                position: coordinates(),
                rotate: coordinates(),
                pivot: coordinates(),
            })
            .collect(),
    };
    serde_json::to_vec(&scene).unwrap_or_default()
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
