//! Password hashing with argon2, off the async threads.

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use framework::ApiError;

/// Hashes a password (PHC string with a random salt).
pub async fn hash(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|err| ApiError::internal(format_args!("hashing a password: {err}")))
    })
    .await
    .map_err(|err| ApiError::internal(format_args!("password hashing task: {err}")))?
}

/// Whether `password` matches the stored `hash`.
pub async fn verify(password: String, hash: String) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&hash)
            .map_err(|err| ApiError::internal(format_args!("stored password hash: {err}")))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(|err| ApiError::internal(format_args!("password checking task: {err}")))?
}
